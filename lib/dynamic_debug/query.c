// SPDX-License-Identifier: GPL-2.0
/*
 * The query parser of dynamic debug: reads the queries of one write (or one
 * boot or module parameter) one at a time, or stops at one precise error.
 * It changes nothing but the text it is given.
 */

#define pr_fmt(fmt) "dyndbg: " fmt

#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/string_helpers.h>

#include <kunit/visibility.h>

#include "ddebug.h"

/* Six keywords with a value each, and the flags. */
#define QUERY_MAX_WORDS		13

/* Words */

/*
 * The lexer splits the text into words and query ends, in place: it writes
 * a NUL after each word.  Blanks and commas separate words (a comma needs
 * no quoting on the kernel command line).  A query ends at ';' or a
 * newline; a word that starts with '#' begins a comment that runs to the
 * end of the query.  Words may be quoted with " or '; inside quotes a
 * backslash protects the next character, and neither ',' nor ';' ends the
 * word.
 */
enum token {
	TOKEN_WORD,
	TOKEN_QUERY_END,
	TOKEN_TEXT_END,
	TOKEN_UNCLOSED_QUOTE,
};

static bool is_query_end(char c)
{
	return c == ';' || c == '\n';
}

static bool is_separator(char c)
{
	return isspace(c) || c == ',';
}

static void skip_blanks_and_comments(struct ddebug_parser *lx)
{
	for (;;) {
		while (*lx->p && *lx->p != '\n' && is_separator(*lx->p))
			lx->p++;
		if (*lx->p != '#')
			return;
		while (*lx->p && !is_query_end(*lx->p))
			lx->p++;
	}
}

/*
 * In a quoted value \" and \' stand for the quote itself, whatever the
 * keyword.  Any other backslash is kept with the character after it, for
 * the value's own reading (format unescapes them).
 */
static void unescape_quotes(char *s)
{
	char *out = s;

	for (; *s; s++) {
		if (*s == '\\' && (s[1] == '"' || s[1] == '\''))
			s++;
		else if (*s == '\\' && s[1])
			*out++ = *s++;
		*out++ = *s;
	}
	*out = '\0';
}

static enum token lex_quoted(struct ddebug_parser *lx, char **word)
{
	char quote = *lx->p++;
	char *p = lx->p;

	while (*p && *p != '\n' && *p != quote) {
		if (*p == '\\' && p[1] && p[1] != '\n')
			p++;
		p++;
	}
	*word = lx->p;
	if (*p != quote) {
		*p = '\0';	/* the error shows the rest of the line */
		lx->p = p;
		return TOKEN_UNCLOSED_QUOTE;
	}
	*p = '\0';
	lx->p = p + 1;
	unescape_quotes(*word);
	return TOKEN_WORD;
}

/* Inline: the parser calls it once per word of every query. */
static __always_inline enum token lex_next(struct ddebug_parser *lx,
					   char **word)
{
	char *p;

	if (lx->pending_end) {
		lx->pending_end = false;
		return TOKEN_QUERY_END;
	}
	skip_blanks_and_comments(lx);
	if (!*lx->p)
		return TOKEN_TEXT_END;
	if (is_query_end(*lx->p)) {
		lx->line += *lx->p == '\n';
		lx->p++;
		return TOKEN_QUERY_END;
	}
	if (*lx->p == '"' || *lx->p == '\'')
		return lex_quoted(lx, word);

	p = lx->p;
	while (*p && !is_separator(*p) && *p != ';')
		p++;
	*word = lx->p;
	if (*p) {
		lx->pending_end = is_query_end(*p);
		lx->line += *p == '\n';
		*p++ = '\0';
	}
	lx->p = p;
	return TOKEN_WORD;
}

/* One query */

static int fail(struct ddebug_parse_error *err, enum ddebug_parse_reason why,
		const char *word)
{
	err->reason = why;
	err->word = word;
	return -EINVAL;
}

/* Decimal number of @len characters; empty means 0 (no bound). */
static bool parse_line_number(const char *s, size_t len, unsigned int *out)
{
	unsigned int n = 0;
	size_t i = 0;

	if (len && s[0] == '+')
		i++;
	if (i == len)
		return len == 0;
	for (; i < len; i++) {
		if (!isdigit(s[i]) || check_mul_overflow(n, 10U, &n) ||
		    check_add_overflow(n, (unsigned int)(s[i] - '0'), &n))
			return false;
	}
	*out = n;
	return true;
}

/* "N", "N-M", "-M", "N-", where an empty or zero bound means "none". */
static int parse_lines(const char *word, struct ddebug_query *q,
		       struct ddebug_parse_error *err)
{
	const char *dash = strchr(word, '-');
	unsigned int first = 0, last = 0;

	if (!dash) {
		if (!parse_line_number(word, strlen(word), &first))
			return fail(err, DDEBUG_ERR_BAD_LINE, word);
		last = first;
	} else {
		if (!parse_line_number(word, dash - word, &first) ||
		    !parse_line_number(dash + 1, strlen(dash + 1), &last))
			return fail(err, DDEBUG_ERR_BAD_LINE, word);
		if (!last)
			last = UINT_MAX;
		if (last < first)
			return fail(err, DDEBUG_ERR_LINE_ORDER, word);
	}
	q->first_line = first;
	q->last_line = last;
	return 0;
}

enum keyword {
	KW_FILE,
	KW_FUNC,
	KW_LINE,
	KW_MODULE,
	KW_FORMAT,
	KW_CLASS,
	KW_COUNT
};

static const struct {
	const char *name;
	enum keyword kw;
} keywords[] = {
	{ "file",	KW_FILE },
	{ "func",	KW_FUNC },
	{ "function",	KW_FUNC },	/* the 2.6.39 spelling */
	{ "line",	KW_LINE },
	{ "module",	KW_MODULE },
	{ "format",	KW_FORMAT },
	{ "class",	KW_CLASS },
};

/* Each query looks its keywords up: compare the first letter inline. */
static int keyword_lookup(const char *word)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(keywords); i++)
		if (word[0] == keywords[i].name[0] &&
		    !strcmp(word + 1, keywords[i].name + 1))
			return keywords[i].kw;
	return -ENOENT;
}

/* What a query has been given so far, to refuse repeats. */
struct seen {
	bool kw[KW_COUNT];
};

static int set_once(struct seen *seen, enum keyword kw, const char **slot,
		    const char *value, const char *word,
		    struct ddebug_parse_error *err)
{
	if (seen->kw[kw])
		return fail(err, DDEBUG_ERR_DUPLICATE_KEYWORD, word);
	seen->kw[kw] = true;
	if (slot)
		*slot = value;
	return 0;
}

static bool starts_function_name(char c)
{
	return isalpha(c) || c == '_' || c == '*' || c == '?';
}

/* "file PATH", "file PATH:FUNC" or "file PATH:LINES". */
static int parse_file(char *value, const char *word, struct ddebug_query *q,
		      struct seen *seen, struct ddebug_parse_error *err)
{
	char *tail = strchr(value, ':');
	int ret;

	ret = set_once(seen, KW_FILE, &q->file, value, word, err);
	if (ret || !tail)
		return ret;

	*tail++ = '\0';
	if (!*tail)
		return 0;
	if (starts_function_name(*tail))
		return set_once(seen, KW_FUNC, &q->func, tail, tail, err);
	ret = set_once(seen, KW_LINE, NULL, NULL, tail, err);
	return ret ?: parse_lines(tail, q, err);
}

/*
 * Unescape a format pattern in place.  An empty one would select every
 * site, and one holding a NUL could match no format string.
 */
static int parse_format(char *value, const char *word,
			struct ddebug_parse_error *err)
{
	int len = string_unescape_inplace(value, UNESCAPE_SPACE |
					  UNESCAPE_OCTAL | UNESCAPE_SPECIAL);

	if (!value[value[0] == '^'])
		return fail(err, DDEBUG_ERR_EMPTY_FORMAT, word);
	if ((size_t)len != strlen(value))
		return fail(err, DDEBUG_ERR_NUL_IN_FORMAT, word);
	return 0;
}

static int parse_pair(enum keyword kw, const char *word, char *value,
		      struct ddebug_query *q, struct seen *seen,
		      struct ddebug_parse_error *err)
{
	int ret;

	switch (kw) {
	case KW_FILE:
		return parse_file(value, word, q, seen, err);
	case KW_FUNC:
		return set_once(seen, KW_FUNC, &q->func, value, word, err);
	case KW_MODULE:
		ddebug_module_name_normalize(value);
		return set_once(seen, KW_MODULE, &q->module, value, word, err);
	case KW_CLASS:
		return set_once(seen, KW_CLASS, &q->class_name, value, word, err);
	case KW_LINE:
		ret = set_once(seen, KW_LINE, NULL, NULL, word, err);
		return ret ?: parse_lines(value, q, err);
	case KW_FORMAT:
		ret = set_once(seen, KW_FORMAT, &q->format, value, word, err);
		return ret ?: parse_format(value, word, err);
	default:
		return fail(err, DDEBUG_ERR_UNKNOWN_KEYWORD, word);
	}
}

/**
 * ddebug_module_name_normalize - write a module name's '-' as '_', in place
 * @name: a module name or pattern, as modprobe takes it
 */
void ddebug_module_name_normalize(char *name)
{
	strreplace(name, '-', '_');
}
EXPORT_SYMBOL_IF_KUNIT(ddebug_module_name_normalize);

/* Out of line, and called only when verbose: the common path makes no call. */
static void log_query(unsigned int n, const struct ddebug_query *q)
{
	pr_info("query %u: file=\"%s\" func=\"%s\" module=\"%s\" format=\"%s\" line=%u-%u class=\"%s\" mask=0x%x set=0x%x\n",
		n, q->file ?: "", q->func ?: "", q->module ?: "",
		q->format ?: "", q->first_line, q->last_line,
		q->class_name ?: "", q->mask, q->set);
}

static int parse_flags_word(const char *word, struct ddebug_query *q,
			    struct ddebug_parse_error *err)
{
	switch (ddebug_parse_flags(word, &q->mask, &q->set)) {
	case 0:
		return 0;
	case -EOPNOTSUPP:
		return fail(err, DDEBUG_ERR_FLAG_MISSING, word);
	default:
		return fail(err, DDEBUG_ERR_UNKNOWN_FLAG, word);
	}
}

/* Words of one query: pairs of keyword and value, then the flags. */
static int parse_query(char **words, unsigned int n, struct ddebug_query *q,
		       struct ddebug_parse_error *err)
{
	const char *flags = words[n - 1];
	struct seen seen = {};
	unsigned int i;
	int kw, ret;

	if (!ddebug_is_flag_op(flags[0]))
		return fail(err, DDEBUG_ERR_MISSING_FLAGS, flags);

	for (i = 0; i + 1 < n; i += 2) {
		kw = keyword_lookup(words[i]);
		if (kw < 0)
			return fail(err, DDEBUG_ERR_UNKNOWN_KEYWORD, words[i]);
		if (i + 2 == n)
			return fail(err, DDEBUG_ERR_MISSING_VALUE, words[i]);
		ret = parse_pair(kw, words[i], words[i + 1], q, &seen, err);
		if (ret)
			return ret;
	}

	return parse_flags_word(flags, q, err);
}

/* Listing lines */

/*
 * A line of the control listing,
 *	FILE:LINE [MODULE]FUNCTION =FLAGS "FORMAT" [class:NAME]
 * is a query too: it selects its site by file, line, module, function and
 * format and sets the listed flags, so that a saved listing can be written
 * back.  The format tells apart sites on one line (one macro expansion of
 * several pr_debug() calls); a line without it selects every site there.
 * After the flags, the line is read raw to its end: the listing does not
 * escape quotes inside formats, so the format ends at the last quote.
 */

static const char class_prefix[] = "class:";
static const char unknown_class_prefix[] = "class unknown, _id:";

/* "PATH:N", as a listing line starts. */
static bool is_site_location(const char *word)
{
	const char *colon = strrchr(word, ':');

	if (!colon || colon == word || !colon[1])
		return false;
	for (colon++; *colon; colon++)
		if (!isdigit(*colon))
			return false;
	return true;
}

/* "[MODULE]FUNCTION" */
static int parse_listing_site(char *word, struct ddebug_query *q,
			      struct ddebug_parse_error *err)
{
	char *close = strchr(word, ']');

	if (word[0] != '[' || !close || close == word + 1 || !close[1])
		return fail(err, DDEBUG_ERR_BAD_LISTING, word);
	*close = '\0';
	q->module = word + 1;
	ddebug_module_name_normalize(word + 1);
	q->func = close + 1;
	return 0;
}

/* What follows the format: nothing, or the site's class. */
static int parse_listing_class(char *p, struct ddebug_query *q,
			       struct ddebug_parse_error *err)
{
	char *end;
	int id;

	p = skip_spaces(p);
	end = p + strlen(p);
	while (end > p && isspace(end[-1]))
		*--end = '\0';
	if (!*p)
		return 0;
	if (str_has_prefix(p, class_prefix) && p[sizeof(class_prefix) - 1]) {
		q->class_name = p + sizeof(class_prefix) - 1;
		return 0;
	}
	if (str_has_prefix(p, unknown_class_prefix) &&
	    !kstrtoint(p + sizeof(unknown_class_prefix) - 1, 10, &id) &&
	    id >= 0 && id < _DPRINTK_CLASS_DFLT) {
		q->class_id = id;
		q->has_class_id = true;
		return 0;
	}
	return fail(err, DDEBUG_ERR_BAD_LISTING, p);
}

/* The rest of the line after the flags: the format, then the class. */
static int parse_listing_tail(struct ddebug_parser *ps, struct ddebug_query *q,
			      struct ddebug_parse_error *err)
{
	char *p = ps->p, *end = strchrnul(p, '\n'), *last;

	if (ps->pending_end)
		return 0;	/* the line ended with the flags */
	if (*end) {
		*end = '\0';
		ps->p = end + 1;
		ps->pending_end = true;
		ps->line++;
	} else {
		ps->p = end;
	}
	p = skip_spaces(p);
	if (*p == '"') {
		last = strrchr(p + 1, '"');
		if (!last)
			return fail(err, DDEBUG_ERR_UNCLOSED_QUOTE, p + 1);
		*last = '\0';
		q->listed_format = p + 1;
		p = last + 1;
	}
	return parse_listing_class(p, q, err);
}

/* A listing line, from its first word "FILE:LINE" on. */
static int parse_listing(struct ddebug_parser *ps, char *location,
			 struct ddebug_query *q, struct ddebug_parse_error *err)
{
	char *colon = strrchr(location, ':');
	char *word;
	int ret;

	if (kstrtouint(colon + 1, 10, &q->first_line) || !q->first_line)
		return fail(err, DDEBUG_ERR_BAD_LINE, colon + 1);
	*colon = '\0';
	q->last_line = q->first_line;
	q->file = location;
	q->replay = true;

	if (ps->pending_end || lex_next(ps, &word) != TOKEN_WORD)
		return fail(err, DDEBUG_ERR_BAD_LISTING, location);
	ret = parse_listing_site(word, q, err);
	if (ret)
		return ret;
	if (ps->pending_end || lex_next(ps, &word) != TOKEN_WORD ||
	    !ddebug_is_flag_op(word[0]))
		return fail(err, DDEBUG_ERR_MISSING_FLAGS, q->func);
	ret = parse_flags_word(word, q, err);
	return ret ?: parse_listing_tail(ps, q, err);
}

/* The whole text */

static void log_words(unsigned int nq, char **words, unsigned int n)
{
	unsigned int i;

	if (ddebug_verbose < DDEBUG_V_PARSE)
		return;
	for (i = 0; i < n; i++)
		pr_info("query %u: word %u of %u: \"%s\"\n", nq, i + 1, n,
			words[i]);
}

/* After a query was read: count and log it, or pass its error on. */
static int query_read(struct ddebug_parser *ps, const struct ddebug_query *q,
		      struct ddebug_parse_error *err, int ret)
{
	if (ret)
		return ret;
	ps->count++;
	if (ddebug_verbose >= DDEBUG_V_PARSE)
		log_query(ps->count, q);
	err->query = 0;
	return 1;
}

/* Parse the listing line that starts with @location into @q. */
static int parse_line(struct ddebug_parser *ps, char *location,
		      struct ddebug_query *q, struct ddebug_parse_error *err)
{
	memset(q, 0, sizeof(*q));
	return query_read(ps, q, err, parse_listing(ps, location, q, err));
}

/* Parse the @n words of the next query into @q. */
static int parse_words(struct ddebug_parser *ps, char **words, unsigned int n,
		       struct ddebug_query *q, struct ddebug_parse_error *err)
{
	log_words(ps->count + 1, words, n);
	memset(q, 0, sizeof(*q));
	return query_read(ps, q, err, parse_query(words, n, q, err));
}

/**
 * ddebug_parse_next - read the next query of a text
 * @ps: the parser, from ddebug_parser_init()
 * @q: filled with the query; its strings point into the text
 * @err: filled when the query is invalid
 *
 * Queries are separated by ';' or newlines; blank queries and comments are
 * skipped and not counted.  Splits words in place (and unescapes format
 * values), so a text can be read only once.  Work is linear in the length
 * of the query; nothing is allocated.
 *
 * Return: 1 with @q filled, 0 at the end of the text, or -EINVAL with @err
 * describing the invalid query.
 */
int ddebug_parse_next(struct ddebug_parser *ps, struct ddebug_query *q,
		      struct ddebug_parse_error *err)
{
	/* Read only below n: not worth zeroing on every write. */
	char *words[QUERY_MAX_WORDS] __uninitialized;
	unsigned int n = 0;
	enum token tok;
	char *word;

	memset(err, 0, sizeof(*err));
	for (;;) {
		tok = lex_next(ps, &word);
		err->query = ps->count + 1;
		switch (tok) {
		case TOKEN_WORD:
			if (!n) {
				ps->query_line = ps->line;
				err->line = ps->line;
				if (is_site_location(word))
					return parse_line(ps, word, q, err);
			}
			if (n == QUERY_MAX_WORDS)
				return fail(err, DDEBUG_ERR_TOO_MANY_WORDS, word);
			words[n++] = word;
			break;
		case TOKEN_UNCLOSED_QUOTE:
			return fail(err, DDEBUG_ERR_UNCLOSED_QUOTE, word);
		case TOKEN_QUERY_END:
		case TOKEN_TEXT_END:
			if (n)
				return parse_words(ps, words, n, q, err);
			if (tok == TOKEN_TEXT_END) {
				err->query = 0;
				return 0;
			}
			break;
		}
	}
}
EXPORT_SYMBOL_IF_KUNIT(ddebug_parse_next);

/* Errors */

static const char * const reason_text[] = {
	[DDEBUG_OK]			= "no error",
	[DDEBUG_ERR_UNKNOWN_KEYWORD]	= "unknown keyword",
	[DDEBUG_ERR_MISSING_VALUE]	= "no value after keyword",
	[DDEBUG_ERR_DUPLICATE_KEYWORD]	= "keyword given twice",
	[DDEBUG_ERR_BAD_LINE]		= "bad line number",
	[DDEBUG_ERR_LINE_ORDER]		= "line range ends before it starts",
	[DDEBUG_ERR_UNCLOSED_QUOTE]	= "unclosed quote",
	[DDEBUG_ERR_MISSING_FLAGS]	= "missing flags, last word is",
	[DDEBUG_ERR_UNKNOWN_FLAG]	= "unknown flag in",
	[DDEBUG_ERR_TOO_MANY_WORDS]	= "too many words, from",
	[DDEBUG_ERR_EMPTY_FORMAT]	= "empty pattern after",
	[DDEBUG_ERR_NUL_IN_FORMAT]	= "NUL byte in the pattern after",
	[DDEBUG_ERR_FLAG_MISSING]	= "flag not available in",
	[DDEBUG_ERR_BAD_LISTING]	= "not a control listing line at",
	[DDEBUG_ERR_NO_MODULE]		= "module not loaded, for site",
	[DDEBUG_ERR_NO_SITE]		= "no such site",
};

/**
 * ddebug_parse_reason_text - short description of a parse error
 * @reason: the reason
 *
 * Return: a constant string.
 */
const char *ddebug_parse_reason_text(enum ddebug_parse_reason reason)
{
	if (reason >= ARRAY_SIZE(reason_text) || !reason_text[reason])
		return "invalid query";
	return reason_text[reason];
}
EXPORT_SYMBOL_IF_KUNIT(ddebug_parse_reason_text);

/* What would have been right, after the reason and the word. */
static const char *reason_hint(const struct ddebug_parse_error *err,
			       char *buf, size_t size)
{
	char letters[DDEBUG_FLAGS_BUFSZ];
	const struct ddebug_flag_info *fi;

	switch (err->reason) {
	case DDEBUG_ERR_UNKNOWN_KEYWORD:
		return ", expected file, func, line, module, format or class";
	case DDEBUG_ERR_BAD_LINE:
		return ", expected N, N-M, -M or N-";
	case DDEBUG_ERR_MISSING_FLAGS:
	case DDEBUG_ERR_UNKNOWN_FLAG:
		ddebug_flag_letters(letters, sizeof(letters));
		snprintf(buf, size, ", expected +, - or = followed by letters from \"%s\"",
			 letters);
		return buf;
	case DDEBUG_ERR_TOO_MANY_WORDS:
		return ", each keyword may be given once";
	case DDEBUG_ERR_EMPTY_FORMAT:
		return ", give text to match (after unescaping, and after a leading ^)";
	case DDEBUG_ERR_NUL_IN_FORMAT:
		return ", no format string holds one";
	case DDEBUG_ERR_FLAG_MISSING:
		fi = ddebug_flag_missing(err->word ?: "");
		if (!fi)
			return "";
		snprintf(buf, size, ", '%c' needs a kernel built with %s",
			 fi->letter, fi->missing);
		return buf;
	case DDEBUG_ERR_BAD_LISTING:
		return ", expected FILE:LINE [MODULE]FUNCTION =FLAGS \"FORMAT\"";
	default:
		return "";
	}
}

/**
 * ddebug_source_err - log an error about a text, naming where it came from
 * @source: where the text came from (e.g. "ddebug_query"), or NULL for a
 *	write to the control file, which is not named
 * @fmt: printf format of the rest of the message
 */
void ddebug_source_err(const char *source, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_err("%s%s%pV", source ?: "", source ? ": " : "", &vaf);
	va_end(args);
}

/**
 * ddebug_report_error - log why a text was rejected, in one line
 * @source: where the text came from (e.g. "ddebug_query"), or NULL for a
 *	write to the control file
 * @err: the error from ddebug_parse_next()
 */
void ddebug_report_error(const char *source,
			 const struct ddebug_parse_error *err)
{
	char buf[80];

	if (err->reason == DDEBUG_ERR_NO_MODULE ||
	    err->reason == DDEBUG_ERR_NO_SITE) {
		ddebug_source_err(source, "query %u (line %u): %s %s:%u [%s]%s\n",
				  err->query, err->line,
				  ddebug_parse_reason_text(err->reason),
				  err->word ?: "", err->site_line,
				  err->module ?: "", err->func ?: "");
		return;
	}
	ddebug_source_err(source, "query %u: %s \"%s\"%s\n", err->query,
			  ddebug_parse_reason_text(err->reason),
			  err->word ?: "", reason_hint(err, buf, sizeof(buf)));
}
