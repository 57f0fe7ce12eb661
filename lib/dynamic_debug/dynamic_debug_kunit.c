// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the dynamic debug query language: what the parser accepts
 * and how, the exact error of every malformed query, and which sites a
 * query selects, run against private tables of fake call sites.
 */

#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/completion.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/limits.h>
#include <linux/string.h>
#include <linux/stringhash.h>

#include "ddebug.h"

#define P	DDEBUG_FLAG(PRINT)
#define M	DDEBUG_FLAG(MODNAME)
#define F	DDEBUG_FLAG(FUNCNAME)
#define S	DDEBUG_FLAG(SOURCE)
#define L	DDEBUG_FLAG(LINENO)
#define T	DDEBUG_FLAG(TID)
#define D	DDEBUG_FLAG(STACK)
#define TR	DDEBUG_FLAG(TRACE)
#define RL	DDEBUG_FLAG(RATELIMIT)
#define ALL_FLAGS	(P | M | F | S | L | T | D | TR | RL)

/* Flags this kernel can set: without tracing, 'T' is refused. */
static unsigned int settable(unsigned int flags)
{
	if (ddebug_flag_info[DDEBUG_BIT_TRACE].missing)
		flags &= ~TR;
	return flags;
}

/* Fake call sites */

/* What a fake site is made of; fake_tables_setup() builds its descriptor. */
struct fake_site {
	const char *modfile;
	const char *func;
	const char *fmt;
	unsigned int line;
	int cls;
};

#define SITE(_mod, _file, _func, _line, _fmt, _cls)			\
	{ _mod "\0" _file, _func, _fmt, _line, _cls }
#define NOCLS	_DPRINTK_CLASS_DFLT

static const struct fake_site alpha_fakes[] = {
	SITE("alpha", "drivers/alpha/core.c", "alpha_probe", 10, "probing %s\n", NOCLS),
	SITE("alpha", "drivers/alpha/core.c", "alpha_probe", 20, "found %d devices\n", NOCLS),
	SITE("alpha", "drivers/alpha/core.c", "alpha_remove", 30, "removing\n", NOCLS),
	SITE("alpha", "drivers/alpha/helper.c", "alpha_helper", 5, "helper\tstep %d\n", NOCLS),
};

static const struct fake_site beta_fakes[] = {
	SITE("beta", "fs/beta/super.c", "beta_fill_super", 100, "fill super\n", NOCLS),
	SITE("beta", "fs/beta/super.c", "beta_probe", 200, "probing beta\n", NOCLS),
	SITE("beta", "/abs/src/fs/beta/inode.c", "beta_iget", 50,
	     "say \"hi\" to inode %lu\n", NOCLS),
};

static const struct fake_site gamma_fakes[] = {
	SITE("gamma", "gamma/main.c", "gamma_run", 1, "plain\n", NOCLS),
	SITE("gamma", "gamma/main.c", "gamma_run", 2, "core msg\n", 0),
	SITE("gamma", "gamma/main.c", "gamma_run", 3, "kms msg\n", 1),
	SITE("gamma", "gamma/main.c", "gamma_run", 4, "no map covers this\n", 5),
	SITE("gamma", "gamma/main.c", "gamma_run", 5, "v1 msg", 10),
};

/* Two sites of one macro expansion: one file, line and function. */
static const struct fake_site delta_fakes[] = {
	SITE("delta", "net/delta/xmit.c", "delta_xmit", 42, "queue %d full\n", NOCLS),
	SITE("delta", "net/delta/xmit.c", "delta_xmit", 42, "queue %d woken\n", NOCLS),
};

/* Static, so that the names are within reach of 32-bit offsets. */
static struct _ddebug alpha_sites[ARRAY_SIZE(alpha_fakes)];
static struct _ddebug beta_sites[ARRAY_SIZE(beta_fakes)];
static struct _ddebug gamma_sites[ARRAY_SIZE(gamma_fakes)];
static struct _ddebug delta_sites[ARRAY_SIZE(delta_fakes)];

static const struct fake_site *const fakes_of[] = {
	alpha_fakes, beta_fakes, gamma_fakes, delta_fakes,
};

static void fake_site_setup(struct _ddebug *dp, const struct fake_site *f)
{
	struct _ddebug_names names = {
		.desc = dp, .modfile = f->modfile, .function = f->func,
		.format = f->fmt,
	};

	dp->bits = _DPRINTK_BITS_INIT(f->cls, f->line, 0);
	ddebug_names_resolve(&names, 1);
}

static const char * const gamma_bit_names[] = { "G_CORE", "G_KMS", "G_DRV" };
static const char * const gamma_level_names[] = { "V1", "V2" };

static struct ddebug_class_map gamma_bits = {
	.mod_name = "gamma", .class_names = gamma_bit_names,
	.length = ARRAY_SIZE(gamma_bit_names), .base = 0,
	.map_type = DD_CLASS_TYPE_DISJOINT_BITS,
};

static struct ddebug_class_map gamma_levels = {
	.mod_name = "gamma", .class_names = gamma_level_names,
	.length = ARRAY_SIZE(gamma_level_names), .base = 10,
	.map_type = DD_CLASS_TYPE_LEVEL_NUM,
};

static const struct ddebug_class_map *gamma_maps[] = {
	&gamma_bits, &gamma_levels,
};

static struct ddebug_table fake_tables[] = {
	{ .mod_name = "alpha", .sites = alpha_sites,
	  .num_sites = ARRAY_SIZE(alpha_sites), .keyless = true },
	{ .mod_name = "beta", .sites = beta_sites,
	  .num_sites = ARRAY_SIZE(beta_sites), .keyless = true },
	{ .mod_name = "gamma", .sites = gamma_sites,
	  .num_sites = ARRAY_SIZE(gamma_sites), .keyless = true,
	  .maps = gamma_maps, .num_maps = ARRAY_SIZE(gamma_maps) },
	{ .mod_name = "delta", .sites = delta_sites,
	  .num_sites = ARRAY_SIZE(delta_sites), .keyless = true },
};

/*
 * Global site numbers, in table order: alpha 0-3, beta 4-6, gamma 7-11,
 * delta 12-13.
 */
#define NR_SITES	14
#define SITES(lo, hi)	GENMASK(hi, lo)
#define UNCLASSED	(SITES(0, 7) | SITES(12, 13))

static LIST_HEAD(fake_list);

static struct _ddebug *fake_site(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fake_tables); i++) {
		if (n < fake_tables[i].num_sites)
			return &fake_tables[i].sites[n];
		n -= fake_tables[i].num_sites;
	}
	return NULL;
}

/* Link the fake tables into a private list, every site with @flags. */
static struct list_head *fake_reset(unsigned int flags)
{
	unsigned int i;

	INIT_LIST_HEAD(&fake_list);
	for (i = 0; i < ARRAY_SIZE(fake_tables); i++)
		list_add_tail(&fake_tables[i].link, &fake_list);
	for (i = 0; i < NR_SITES; i++)
		site_flags_set(fake_site(i), flags);
	return &fake_list;
}

/* Bit n set when site n has every flag of @flags. */
static unsigned long sites_with(unsigned int flags)
{
	unsigned long mask = 0;
	unsigned int i;

	for (i = 0; i < NR_SITES; i++)
		if ((site_flags(fake_site(i)) & flags) == flags)
			mask |= BIT(i);
	return mask;
}

static bool all_sites_have_exactly(unsigned int flags)
{
	unsigned int i;

	for (i = 0; i < NR_SITES; i++)
		if (site_flags(fake_site(i)) != flags)
			return false;
	return true;
}

/* Run @text on the fake tables; the text is copied, the error word too. */
static int run(struct kunit *test, const char *text, const char *modname,
	       struct ddebug_parse_error *err, char *word, size_t wordsz)
{
	char *buf = kunit_kstrdup(test, text, GFP_KERNEL);
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	ret = ddebug_run(&fake_list, buf, modname, err);
	strscpy(word, err->word ?: "", wordsz);
	return ret;
}

/* Accepted queries */

struct parse_case {
	const char *desc;
	const char *text;
	unsigned int count;
	/* The first query, when count > 0. */
	const char *file, *func, *module, *format, *class_name;
	/* A listing line's format, as listed. */
	const char *listed;
	unsigned int first_line, last_line;
	unsigned int mask, set;
};

#define ADD(bits)	.mask = ~0U, .set = (bits)
#define DEL(bits)	.mask = ~(unsigned int)(bits), .set = 0
#define SET(bits)	.mask = 0, .set = (bits)

static const struct parse_case parse_cases[] = {
	{ "file keyword", "file foo.c +p", 1, .file = "foo.c", ADD(P) },
	{ "func keyword", "func bar +p", 1, .func = "bar", ADD(P) },
	{ "function is an alias of func", "function bar +p", 1,
	  .func = "bar", ADD(P) },
	{ "module keyword", "module snd_hda +p", 1, .module = "snd_hda", ADD(P) },
	{ "format keyword", "format hello +p", 1, .format = "hello", ADD(P) },
	{ "format anchor kept for matching", "format ^hello +p", 1,
	  .format = "^hello", ADD(P) },
	{ "class keyword", "class DRM_UT_CORE +p", 1,
	  .class_name = "DRM_UT_CORE", ADD(P) },
	{ "line single", "line 10 +p", 1, .first_line = 10, .last_line = 10, ADD(P) },
	{ "line range", "line 10-20 +p", 1, .first_line = 10, .last_line = 20, ADD(P) },
	{ "line open start", "line -20 +p", 1, .first_line = 0, .last_line = 20, ADD(P) },
	{ "line open end", "line 10- +p", 1, .first_line = 10,
	  .last_line = UINT_MAX, ADD(P) },
	{ "line zero means any", "line 0 +p", 1, ADD(P) },
	{ "line dash alone means any", "line - +p", 1, .last_line = UINT_MAX, ADD(P) },
	{ "line largest number", "line 4294967295 +p", 1,
	  .first_line = UINT_MAX, .last_line = UINT_MAX, ADD(P) },
	{ "file with function shorthand", "file foo.c:bar +p", 1,
	  .file = "foo.c", .func = "bar", ADD(P) },
	{ "file with underscore function", "file foo.c:_bar +p", 1,
	  .file = "foo.c", .func = "_bar", ADD(P) },
	{ "file with wildcard function", "file foo.c:*probe +p", 1,
	  .file = "foo.c", .func = "*probe", ADD(P) },
	{ "file with line range shorthand", "file foo.c:10-20 +p", 1,
	  .file = "foo.c", .first_line = 10, .last_line = 20, ADD(P) },
	{ "file with single line shorthand", "file foo.c:42 +p", 1,
	  .file = "foo.c", .first_line = 42, .last_line = 42, ADD(P) },
	{ "file with empty shorthand", "file foo.c: +p", 1, .file = "foo.c", ADD(P) },
	{ "double quotes", "format \"hello world\" +p", 1,
	  .format = "hello world", ADD(P) },
	{ "single quotes", "format 'hello world' +p", 1,
	  .format = "hello world", ADD(P) },
	{ "quoted keyword value of file", "file \"my dir/a.c\" +p", 1,
	  .file = "my dir/a.c", ADD(P) },
	{ "escape tab", "format \"a\\tb\" +p", 1, .format = "a\tb", ADD(P) },
	{ "escape newline unquoted", "format done\\n +p", 1,
	  .format = "done\n", ADD(P) },
	{ "escape backslash", "format a\\\\b +p", 1, .format = "a\\b", ADD(P) },
	{ "escape double quote inside quotes", "format \"say \\\"hi\\\"\" +p", 1,
	  .format = "say \"hi\"", ADD(P) },
	{ "escape octal", "format \\101\\102 +p", 1, .format = "AB", ADD(P) },
	{ "escaped double quote in a quoted file", "file \"a\\\"b.c\" +p", 1,
	  .file = "a\"b.c", ADD(P) },
	{ "escaped single quote in a quoted func", "func 'it\\'s' +p", 1,
	  .func = "it's", ADD(P) },
	{ "escaped double quote in a quoted module", "module \"m\\\"x\" +p", 1,
	  .module = "m\"x", ADD(P) },
	{ "escaped double quote in a quoted class", "class \"C\\\"D\" +p", 1,
	  .class_name = "C\"D", ADD(P) },
	{ "escaped single quote in a quoted format", "format 'it\\'s' +p", 1,
	  .format = "it's", ADD(P) },
	{ "escaped double quote inside single quotes", "file 'a\\\"b' +p", 1,
	  .file = "a\"b", ADD(P) },
	{ "escaped backslash before the closing quote", "format \"a\\\\\" +p", 1,
	  .format = "a\\", ADD(P) },
	{ "escaped backslash then escaped quote", "format \"\\\\\\\"\" +p", 1,
	  .format = "\\\"", ADD(P) },
	{ "backslash of another escape kept for file", "file \"a\\tb\" +p", 1,
	  .file = "a\\tb", ADD(P) },
	{ "semicolon inside quotes", "format \"a;b\" +p", 1, .format = "a;b", ADD(P) },
	{ "hash inside a word", "format a#b +p", 1, .format = "a#b", ADD(P) },
	{ "every keyword at once",
	  "file a.c func f line 1-2 module m format x class C +p", 1,
	  .file = "a.c", .func = "f", .module = "m", .format = "x",
	  .class_name = "C", .first_line = 1, .last_line = 2, ADD(P) },
	{ "surrounding blanks", "  \t file foo.c \t +p  ", 1, .file = "foo.c", ADD(P) },
	{ "trailing comment", "file foo.c +p # why", 1, .file = "foo.c", ADD(P) },
	{ "flags alone select everything", "+p", 1, ADD(P) },
	{ "add several flags", "module m +pmflt", 1, .module = "m",
	  ADD(P | M | F | L | T) },
	{ "remove flags", "module m -pm", 1, .module = "m", DEL(P | M) },
	{ "set flags exactly", "module m =pl", 1, .module = "m", SET(P | L) },
	{ "set no flags with underscore", "module m =_", 1, .module = "m", SET(0) },
	{ "add underscore changes nothing", "module m +_", 1, .module = "m", ADD(0) },
	{ "bare equals clears", "module m =", 1, .module = "m", SET(0) },
	{ "bare plus changes nothing", "module m +", 1, .module = "m", ADD(0) },
	{ "bare minus changes nothing", "module m -", 1, .module = "m", DEL(0) },
	{ "stack dump flag", "module m +d", 1, .module = "m", ADD(D) },
	{ "trace flag", "module m +T", 1, .module = "m", ADD(TR) },
	{ "rate limit flag", "module m +r", 1, .module = "m", ADD(RL) },
	{ "every flag cleared at once", "module m -pmfsltdTr", 1, .module = "m",
	  DEL(ALL_FLAGS) },
	{ "trace and print set exactly", "module m =pTr", 1, .module = "m",
	  SET(P | TR | RL) },
	{ "commas separate words", "module,m,+p", 1, .module = "m", ADD(P) },
	{ "commas and blanks mix", "file a.c, func f ,line 3,=p", 1,
	  .file = "a.c", .func = "f", .first_line = 3, .last_line = 3, SET(P) },
	{ "quoted values keep commas", "format \"a, b\" +p", 1,
	  .format = "a, b", ADD(P) },
	{ "single-quoted values keep commas", "format 'x,y' +p", 1,
	  .format = "x,y", ADD(P) },
	{ "commas separate queries' words only", "module a,+p;module b,-p", 2,
	  .module = "a", ADD(P) },
	{ "dash in a module name is an underscore", "module snd-hda-intel +p", 1,
	  .module = "snd_hda_intel", ADD(P) },
	{ "dash in a quoted module pattern", "module 'a-b*' +p", 1,
	  .module = "a_b*", ADD(P) },
	{ "listing line", "drivers/alpha/core.c:20 [alpha]alpha_probe =pT \"found %d devices\\n\"",
	  1, .file = "drivers/alpha/core.c", .func = "alpha_probe",
	  .module = "alpha", .listed = "found %d devices\\n", .first_line = 20,
	  .last_line = 20, SET(P | TR) },
	{ "listing line with no flags", "a.c:7 [m]f =_ \"x\"", 1, .file = "a.c",
	  .func = "f", .module = "m", .listed = "x", .first_line = 7,
	  .last_line = 7, SET(0) },
	{ "listing line with an empty format", "a.c:7 [m]f =p \"\"", 1,
	  .file = "a.c", .func = "f", .module = "m", .listed = "",
	  .first_line = 7, .last_line = 7, SET(P) },
	{ "listing line without its format", "a.c:7 [m]f =p", 1, .file = "a.c",
	  .func = "f", .module = "m", .first_line = 7, .last_line = 7, SET(P) },
	{ "listing line with a class", "a.c:7 [m]f =p \"x\" class:G_KMS", 1,
	  .file = "a.c", .func = "f", .module = "m", .class_name = "G_KMS",
	  .listed = "x", .first_line = 7, .last_line = 7, SET(P) },
	{ "listing line with quotes and semicolons in its format",
	  "a.c:7 [m]f =p \"say \"hi\"; done\"\nmodule n +p", 2, .file = "a.c",
	  .func = "f", .module = "m", .listed = "say \"hi\"; done",
	  .first_line = 7, .last_line = 7, SET(P) },
	{ "listing line with a class-like end of its format",
	  "a.c:7 [m]f =p \"x\" class:G\" class:H", 1, .file = "a.c",
	  .func = "f", .module = "m", .listed = "x\" class:G",
	  .class_name = "H", .first_line = 7, .last_line = 7, SET(P) },
	{ "listing line after the listing header",
	  "# filename:lineno [module]function flags format\na.c:7 [m-x]f =l \"x\"",
	  1, .file = "a.c", .func = "f", .module = "m_x", .listed = "x",
	  .first_line = 7, .last_line = 7, SET(L) },
	{ "listing line ends at a semicolon after its flags", "a.c:7 [m]f =p;+m",
	  2, .file = "a.c", .func = "f", .module = "m", .first_line = 7,
	  .last_line = 7, SET(P) },
	{ "source name flag", "module m +s", 1, .module = "m", ADD(S) },
	{ "semicolon separates queries", "file a +p; file b -p", 2, .file = "a", ADD(P) },
	{ "newline separates queries", "file a +p\nfile b -p\nfile c =t\n", 3,
	  .file = "a", ADD(P) },
	{ "blank queries are skipped", ";;\n ; file a +p;\n\n", 1, .file = "a", ADD(P) },
	{ "comment lines are skipped", "# first\nfile a +p\n  # last", 1,
	  .file = "a", ADD(P) },
	{ "comment ends at semicolon", "# note; file a +p", 1, .file = "a", ADD(P) },
	{ "quote inside comment is ignored", "file a +p # it's; func b -p", 2,
	  .file = "a", ADD(P) },
	{ "empty text", "", 0 },
	{ "only blanks and comments", "\n\t;# nothing\n", 0 },
	{ "only whitespace", "\n \t\r\t  ", 0 },
	{ "only a comment", "# +p", 0 },
};

KUNIT_ARRAY_PARAM_DESC(parse, parse_cases, desc);

static void expect_str(struct kunit *test, const char *got, const char *want)
{
	if (!want) {
		KUNIT_EXPECT_NULL(test, got);
		return;
	}
	KUNIT_EXPECT_NOT_NULL_MSG(test, got, "want \"%s\"", want);
	if (got)
		KUNIT_EXPECT_STREQ(test, got, want);
}

/* Parse all of @text; keep the first query in @first; count them all. */
static int parse_all(char *text, struct ddebug_query *first,
		     unsigned int *count, struct ddebug_parse_error *err)
{
	struct ddebug_parser ps;
	struct ddebug_query q;
	int ret;

	memset(first, 0, sizeof(*first));
	ddebug_parser_init(&ps, text);
	while ((ret = ddebug_parse_next(&ps, &q, err)) > 0)
		if (ps.count == 1)
			*first = q;
	*count = ps.count;
	return ret;
}

static void parses_valid_queries(struct kunit *test)
{
	const struct parse_case *c = test->param_value;
	char *buf = kunit_kstrdup(test, c->text, GFP_KERNEL);
	struct ddebug_parse_error err;
	struct ddebug_query first, *q = &first;
	unsigned int count;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	if (settable(c->set) != c->set) {
		/* Without tracing, setting 'T' is refused with its reason. */
		KUNIT_EXPECT_EQ(test, parse_all(buf, &first, &count, &err), -EINVAL);
		KUNIT_EXPECT_EQ(test, err.reason, DDEBUG_ERR_FLAG_MISSING);
		return;
	}
	KUNIT_ASSERT_EQ(test, parse_all(buf, &first, &count, &err), 0);
	KUNIT_ASSERT_EQ(test, count, c->count);
	if (c->count) {
		expect_str(test, q->file, c->file);
		expect_str(test, q->func, c->func);
		expect_str(test, q->module, c->module);
		expect_str(test, q->format, c->format);
		expect_str(test, q->class_name, c->class_name);
		expect_str(test, q->listed_format, c->listed);
		KUNIT_EXPECT_EQ(test, q->first_line, c->first_line);
		KUNIT_EXPECT_EQ(test, q->last_line, c->last_line);
		KUNIT_EXPECT_EQ(test, q->mask, c->mask);
		KUNIT_EXPECT_EQ(test, q->set, c->set);
	}
}

/* Rejected queries */

struct error_case {
	const char *desc;
	const char *text;
	unsigned int query;
	const char *word;
	enum ddebug_parse_reason reason;
};

#define E(d, t, q, w, r)	{ d, t, q, w, DDEBUG_ERR_##r }

static const struct error_case error_cases[] = {
	E("rejects unknown keyword", "fiel foo.c +p", 1, "fiel", UNKNOWN_KEYWORD),
	E("rejects unknown keyword in second query",
	  "file foo.c +p; fiel bar +p", 2, "fiel", UNKNOWN_KEYWORD),
	E("rejects keyword in upper case", "FILE a.c +p", 1, "FILE", UNKNOWN_KEYWORD),
	E("rejects abbreviated keyword", "mod m +p", 1, "mod", UNKNOWN_KEYWORD),
	E("rejects a value with no keyword", "func foo bar +p", 1, "bar",
	  UNKNOWN_KEYWORD),
	E("rejects split quoted values", "format 'it''s' +p", 1, "s",
	  UNKNOWN_KEYWORD),
	E("counts queries after a comment line", "# c\nfiel x +p", 1, "fiel",
	  UNKNOWN_KEYWORD),
	E("rejects a word glued to a closing quote", "format \"a\"b +p", 1, "b",
	  UNKNOWN_KEYWORD),
	E("rejects file without value", "file +p", 1, "file", MISSING_VALUE),
	E("rejects func without value", "file a.c func +p", 1, "func",
	  MISSING_VALUE),
	E("rejects line without value", "line +p", 1, "line", MISSING_VALUE),
	E("rejects class without value", "class +p", 1, "class", MISSING_VALUE),
	E("skips blank queries when counting",
	  "file a.c +p;;  ;func x -p; module +p", 3, "module", MISSING_VALUE),
	E("counts queries after a trailing comment",
	  "file a.c +p # c\nfunc +p", 2, "func", MISSING_VALUE),
	E("rejects query without flags", "file a.c", 1, "a.c", MISSING_FLAGS),
	E("rejects flags not at the end", "+p file a.c", 1, "a.c", MISSING_FLAGS),
	E("rejects flags without operator", "file a.c p", 1, "p", MISSING_FLAGS),
	E("rejects a lone letter", "p", 1, "p", MISSING_FLAGS),
	E("rejects a word after the flags", "file a.c +p extra", 1, "extra",
	  MISSING_FLAGS),
	E("rejects missing flags in a later line", "file a.c +p\nfile b.c", 2,
	  "b.c", MISSING_FLAGS),
	E("rejects missing flags after semicolon", "+p;file", 2, "file",
	  MISSING_FLAGS),
	E("rejects unknown flag letter", "file a.c +x", 1, "+x", UNKNOWN_FLAG),
	E("rejects upper case flag", "file a.c +pP", 1, "+pP", UNKNOWN_FLAG),
	E("rejects second operator", "file a.c +p-m", 1, "+p-m", UNKNOWN_FLAG),
	E("rejects doubled operator", "file a.c ++p", 1, "++p", UNKNOWN_FLAG),
	E("rejects unknown flag with equals", "file a.c =pq", 1, "=pq",
	  UNKNOWN_FLAG),
	E("rejects unknown flag with minus", "file a.c -X", 1, "-X", UNKNOWN_FLAG),
	E("rejects upper case rate limit flag", "file a.c +R", 1, "+R",
	  UNKNOWN_FLAG),
	E("rejects a comma inside a flags word", "file a.c +p,x", 1, "x",
	  MISSING_FLAGS),
	E("rejects a listing line without its site", "a.c:7 =p", 1, "=p",
	  BAD_LISTING),
	E("rejects a listing line with an empty module", "a.c:7 []f =p", 1,
	  "[]f", BAD_LISTING),
	E("rejects a listing line without a function", "a.c:7 [m] =p", 1,
	  "[m]", BAD_LISTING),
	E("rejects a listing line without flags", "a.c:7 [m]f", 1, "f",
	  MISSING_FLAGS),
	E("rejects a listing line with words for flags", "a.c:7 [m]f p \"x\"", 1,
	  "f", MISSING_FLAGS),
	E("rejects a listing line with line zero", "a.c:0 [m]f =p", 1, "0",
	  BAD_LINE),
	E("rejects text after a listing line's format",
	  "drivers/alpha/core.c:20 [alpha]alpha_probe =p \"x\" extra", 1, "extra",
	  BAD_LISTING),
	E("rejects a listing line with an unclosed format", "a.c:7 [m]f =p \"x", 1,
	  "x", UNCLOSED_QUOTE),
	E("rejects a listing line whose site is gone",
	  "drivers/alpha/core.c:21 [alpha]alpha_probe =p \"x\"", 1,
	  "drivers/alpha/core.c", NO_SITE),
	E("rejects a listing line whose module is gone",
	  "x.c:1 [nomod]f =p \"x\"", 1, "x.c", NO_MODULE),
	E("rejects a listing line whose format its site does not have",
	  "drivers/alpha/core.c:20 [alpha]alpha_probe =p \"found\"", 1,
	  "drivers/alpha/core.c", NO_SITE),
	E("rejects a listing line whose format is cut short",
	  "drivers/alpha/core.c:20 [alpha]alpha_probe =p \"found %d devices\\\"", 1,
	  "drivers/alpha/core.c", NO_SITE),
	E("rejects a listing line with an escape its format lacks",
	  "drivers/alpha/core.c:20 [alpha]alpha_probe =p \"found %d devices\\t\"", 1,
	  "drivers/alpha/core.c", NO_SITE),
	E("rejects a listing line whose format is longer",
	  "drivers/alpha/core.c:20 [alpha]alpha_probe =p \"found %d devices\\nx\"", 1,
	  "drivers/alpha/core.c", NO_SITE),
	E("rejects a listing line with the format of a site elsewhere",
	  "net/delta/xmit.c:42 [delta]delta_xmit =p \"probing %s\\n\"", 1,
	  "net/delta/xmit.c", NO_SITE),
	E("rejects a whole listing for one gone site",
	  "drivers/alpha/core.c:20 [alpha]alpha_probe =p \"found %d devices\\n\"\nfs/beta/super.c:100 [beta]beta_fill_super =p\nfs/beta/super.c:101 [beta]beta_fill_super =p",
	  3, "fs/beta/super.c", NO_SITE),
	E("rejects a listing line of a class it does not have",
	  "gamma/main.c:2 [gamma]gamma_run =p \"core msg\" class:G_KMS", 1,
	  "gamma/main.c", NO_SITE),
	E("rejects unknown flag after valid line", "file a.c line 5- +q", 1, "+q",
	  UNKNOWN_FLAG),
	E("rejects repeated file", "file a.c file b.c +p", 1, "file",
	  DUPLICATE_KEYWORD),
	E("rejects repeated func", "func a func b +p", 1, "func",
	  DUPLICATE_KEYWORD),
	E("rejects func then function", "func a function b +p", 1, "function",
	  DUPLICATE_KEYWORD),
	E("rejects repeated module", "module a module b +p", 1, "module",
	  DUPLICATE_KEYWORD),
	E("rejects repeated format", "format a format b +p", 1, "format",
	  DUPLICATE_KEYWORD),
	E("rejects repeated class", "class A class B +p", 1, "class",
	  DUPLICATE_KEYWORD),
	E("rejects repeated line", "line 1 line 2 +p", 1, "line",
	  DUPLICATE_KEYWORD),
	E("rejects func after file shorthand", "file a.c:foo func bar +p", 1,
	  "func", DUPLICATE_KEYWORD),
	E("rejects line after file shorthand", "file a.c:10 line 20 +p", 1,
	  "line", DUPLICATE_KEYWORD),
	E("rejects file shorthand after func", "func bar file a.c:foo +p", 1,
	  "foo", DUPLICATE_KEYWORD),
	E("rejects letters as line", "line abc +p", 1, "abc", BAD_LINE),
	E("rejects junk after line", "line 10x +p", 1, "10x", BAD_LINE),
	E("rejects two dashes in range", "line 1-2-3 +p", 1, "1-2-3", BAD_LINE),
	E("rejects double dash", "line 1--2 +p", 1, "1--2", BAD_LINE),
	E("rejects junk in range end", "line -5x +p", 1, "-5x", BAD_LINE),
	E("rejects line overflow", "line 4294967296 +p", 1, "4294967296",
	  BAD_LINE),
	E("rejects huge line", "line 99999999999999999999 +p", 1,
	  "99999999999999999999", BAD_LINE),
	E("rejects negative looking range", "line 5--1 +p", 1, "5--1", BAD_LINE),
	E("rejects junk in file shorthand", "file a.c:1x +p", 1, "1x", BAD_LINE),
	E("rejects letters in a range", "line a-b +p", 1, "a-b", BAD_LINE),
	E("rejects backwards range", "line 10-5 +p", 1, "10-5", LINE_ORDER),
	E("rejects backwards file shorthand", "file a.c:20-10 +p", 1, "20-10",
	  LINE_ORDER),
	E("rejects unclosed double quote", "format \"abc +p", 1, "abc +p",
	  UNCLOSED_QUOTE),
	E("rejects unclosed single quote", "format 'abc +p", 1, "abc +p",
	  UNCLOSED_QUOTE),
	E("rejects quote closed only by escape", "format \"abc\\\" +p", 1,
	  "abc\\\" +p", UNCLOSED_QUOTE),
	E("rejects quote across a newline", "format \"abc +p\nfile b.c +p", 1,
	  "abc +p", UNCLOSED_QUOTE),
	E("rejects unclosed quote in second query",
	  "module alpha +p; format 'x", 2, "x", UNCLOSED_QUOTE),
	E("rejects an empty format", "format \"\" +p", 1, "format", EMPTY_FORMAT),
	E("rejects an empty single-quoted format", "format '' =_", 1, "format",
	  EMPTY_FORMAT),
	E("rejects a format of only the anchor", "format ^ +p", 1, "format",
	  EMPTY_FORMAT),
	E("rejects a format empty after unescaping", "format \"\\000\" =_", 1,
	  "format", EMPTY_FORMAT),
	E("rejects an anchor followed by a NUL", "format ^\\000 +p", 1, "format",
	  EMPTY_FORMAT),
	E("rejects an empty format in a later query",
	  "module m +p; format \"\" -p", 2, "format", EMPTY_FORMAT),
	E("rejects a NUL inside a format", "format a\\000b +p", 1, "format",
	  NUL_IN_FORMAT),
	E("rejects too many words",
	  "file a func b line 1 module m format f class c file z +p", 1, "z",
	  TOO_MANY_WORDS),
};

KUNIT_ARRAY_PARAM_DESC(error, error_cases, desc);

static void rejects_malformed_queries(struct kunit *test)
{
	const struct error_case *c = test->param_value;
	struct ddebug_parse_error err;
	char word[64];

	fake_reset(0);
	KUNIT_EXPECT_EQ(test, run(test, c->text, NULL, &err, word, sizeof(word)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, err.query, c->query);
	KUNIT_EXPECT_STREQ(test, word, c->word);
	KUNIT_EXPECT_EQ_MSG(test, err.reason, c->reason, "reason \"%s\"",
			    ddebug_parse_reason_text(err.reason));
	/* All or nothing: valid queries before the bad one did not apply. */
	KUNIT_EXPECT_TRUE(test, all_sites_have_exactly(0));
}

/* Matching */

struct match_case {
	const char *desc;
	const char *text;
	unsigned long sites;	/* the sites that end up with 'p' */
};

static const struct match_case match_cases[] = {
	{ "flags alone select every unclassed site", "+p", UNCLASSED },
	{ "module exact", "module alpha +p", SITES(0, 3) },
	{ "module star wildcard", "module al* +p", SITES(0, 3) },
	{ "module question wildcard", "module ?eta +p", SITES(4, 6) },
	{ "module unknown matches nothing", "module nope +p", 0 },
	{ "file basename", "file core.c +p", SITES(0, 2) },
	{ "file full path", "file drivers/alpha/core.c +p", SITES(0, 2) },
	{ "file directory wildcard", "file drivers/alpha/* +p", SITES(0, 3) },
	{ "file extension wildcard", "file *.c +p", UNCLASSED },
	{ "file absolute path", "file /abs/src/fs/beta/inode.c +p", BIT(6) },
	{ "file basename of absolute path", "file inode.c +p", BIT(6) },
	{ "file wildcard over absolute path", "file */inode.c +p", BIT(6) },
	{ "file partial name matches nothing", "file core +p", 0 },
	{ "func exact", "func alpha_probe +p", SITES(0, 1) },
	{ "function alias", "function alpha_probe +p", SITES(0, 1) },
	{ "func star wildcard", "func *probe +p", SITES(0, 1) | BIT(5) },
	{ "func question wildcard", "func alpha_?robe +p", SITES(0, 1) },
	{ "func is case sensitive", "func ALPHA_PROBE +p", 0 },
	{ "line single", "line 20 +p", BIT(1) },
	{ "line range inclusive", "line 10-30 +p", SITES(0, 2) },
	{ "line open start", "line -10 +p", BIT(0) | BIT(3) | BIT(7) },
	{ "line open end", "line 100- +p", SITES(4, 5) },
	{ "line zero selects all", "line 0 +p", UNCLASSED },
	{ "file and line", "file core.c line 15-25 +p", BIT(1) },
	{ "file function shorthand", "file core.c:alpha_remove +p", BIT(2) },
	{ "file line shorthand", "file core.c:20 +p", BIT(1) },
	{ "file range shorthand", "file core.c:10-20 +p", SITES(0, 1) },
	{ "format substring", "format probing +p", BIT(0) | BIT(5) },
	{ "format substring in the middle", "format beta +p", BIT(5) },
	{ "format anchored", "format ^fill +p", BIT(4) },
	{ "format anchored elsewhere matches nothing", "format ^beta +p", 0 },
	{ "format with quotes and spaces", "format \"found %d\" +p", BIT(1) },
	{ "format with tab escape", "format \"helper\\tstep\" +p", BIT(3) },
	{ "format with octal escape", "format helper\\011step +p", BIT(3) },
	{ "format with embedded quotes", "format 'say \"hi\"' +p", BIT(6) },
	{ "format with escaped quotes", "format \"say \\\"hi\\\"\" +p", BIT(6) },
	{ "format with newline escape", "format \"removing\\n\" +p", BIT(2) },
	{ "selectors are and-ed", "module alpha func alpha_probe line 20 +p",
	  BIT(1) },
	{ "selectors that disagree match nothing",
	  "module beta func alpha_probe +p", 0 },
	{ "class selects its sites", "class G_CORE +p", BIT(8) },
	{ "class of a second bit", "class G_KMS +p", BIT(9) },
	{ "class of a second map", "class V1 +p", BIT(11) },
	{ "class unknown matches nothing", "class NOPE +p", 0 },
	{ "class declared but unused", "class G_DRV +p", 0 },
	{ "classless query spares classed sites", "module gamma +p", BIT(7) },
	{ "class limited to a module without it", "module alpha class G_CORE +p",
	  0 },
	{ "class with other selectors", "class G_CORE module gamma line 2 +p",
	  BIT(8) },
	{ "two queries add up", "file core.c +p; func beta_probe +p",
	  SITES(0, 2) | BIT(5) },
	{ "later query undoes earlier", "file core.c +p\nfile core.c:alpha_remove -p",
	  SITES(0, 1) },
	{ "listing line selects its site",
	  "drivers/alpha/core.c:20 [alpha]alpha_probe =p \"found %d devices\\n\"",
	  BIT(1) },
	{ "listing line of an absolute path",
	  "/abs/src/fs/beta/inode.c:50 [beta]beta_iget =p \"say \"hi\" to inode %lu\\n\"",
	  BIT(6) },
	{ "listing line of a classed site",
	  "gamma/main.c:2 [gamma]gamma_run =p \"core msg\\n\" class:G_CORE\ngamma/main.c:3 [gamma]gamma_run =p \"kms msg\\n\" class:G_KMS",
	  BIT(8) | BIT(9) },
	{ "listing line of an unknown class",
	  "gamma/main.c:4 [gamma]gamma_run =p \"no map covers this\\n\" class unknown, _id:5",
	  BIT(10) },
	{ "listing lines with a query between",
	  "drivers/alpha/core.c:10 [alpha]alpha_probe =p \"probing %s\\n\"\nmodule beta +p\n",
	  BIT(0) | SITES(4, 6) },
	{ "listing line of one of two sites on its line",
	  "net/delta/xmit.c:42 [delta]delta_xmit =p \"queue %d woken\\n\"",
	  BIT(13) },
	{ "listing line of a format with a tab",
	  "drivers/alpha/helper.c:5 [alpha]alpha_helper =p \"helper\\tstep %d\\n\"",
	  BIT(3) },
	{ "listing line without its format selects every site on its line",
	  "net/delta/xmit.c:42 [delta]delta_xmit =p", SITES(12, 13) },
};

KUNIT_ARRAY_PARAM_DESC(match, match_cases, desc);

static void selects_matching_sites(struct kunit *test)
{
	const struct match_case *c = test->param_value;
	struct ddebug_parse_error err;
	char word[64];
	int ret;

	fake_reset(0);
	ret = run(test, c->text, NULL, &err, word, sizeof(word));
	KUNIT_ASSERT_GE_MSG(test, ret, 0, "error at \"%s\"", word);
	KUNIT_EXPECT_EQ(test, sites_with(P), c->sites);
	/* Queries that only add: each match is a site that now prints. */
	if (!strchr(c->text, '-'))
		KUNIT_EXPECT_EQ(test, ret, hweight_long(c->sites));
}

/* Flag operators */

struct flags_case {
	const char *desc;
	unsigned int before;
	const char *text;
	unsigned int after;
};

static const struct flags_case flags_cases[] = {
	{ "plus adds print", 0, "+p", P },
	{ "plus adds to existing", P, "+mf", P | M | F },
	{ "plus of a set flag changes nothing", P, "+p", P },
	{ "minus removes one", P | M | F, "-m", P | F },
	{ "minus keeps the others", P | T, "-p", T },
	{ "equals replaces", P | M, "=l", L },
	{ "equals underscore clears", P | M, "=_", 0 },
	{ "bare equals clears", P | M, "=", 0 },
	{ "plus underscore keeps", P | M, "+_", P | M },
	{ "bare minus keeps", P | M, "-", P | M },
	{ "all letters on", 0, "+pmfsltdTr", ALL_FLAGS },
	{ "all letters off", ALL_FLAGS, "-pmfsltdTr", 0 },
	{ "pmfsltd off keep T and r", ALL_FLAGS, "-pmfsltd", TR | RL },
	{ "trace alone", P, "=T", TR },
	{ "rate limit added to print", P, "+r", P | RL },
	{ "article example equals plm", T, "=plm", P | L | M },
	{ "article example minus pflmt", ALL_FLAGS, "-pflmt", S | D | TR | RL },
};

KUNIT_ARRAY_PARAM_DESC(flags, flags_cases, desc);

static void applies_flag_operators(struct kunit *test)
{
	const struct flags_case *c = test->param_value;
	struct ddebug_parse_error err;
	char word[64];

	if (settable(c->after) != c->after && strchr(c->text, 'T') &&
	    c->text[0] != '-')
		kunit_skip(test, "this kernel has no tracing for 'T'");
	fake_reset(c->before);
	KUNIT_ASSERT_EQ(test, run(test, c->text, NULL, &err, word, sizeof(word)),
			hweight_long(UNCLASSED));
	KUNIT_EXPECT_EQ(test, site_flags(fake_site(0)), c->after);
	/* Classed sites were not touched by a classless query. */
	KUNIT_EXPECT_EQ(test, site_flags(fake_site(8)), c->before);
}

/* Single tests */

static void describes_flags_in_table_order(struct kunit *test)
{
	char buf[DDEBUG_FLAGS_BUFSZ];

	KUNIT_EXPECT_STREQ(test, ddebug_flags_describe(0, buf, sizeof(buf)), "_");
	KUNIT_EXPECT_STREQ(test, ddebug_flags_describe(P, buf, sizeof(buf)), "p");
	KUNIT_EXPECT_STREQ(test, ddebug_flags_describe(T | P | L, buf,
						       sizeof(buf)), "plt");
	KUNIT_EXPECT_STREQ(test, ddebug_flags_describe(ALL_FLAGS, buf,
						       sizeof(buf)), "pmfsltdTr");
	KUNIT_EXPECT_STREQ(test, ddebug_flags_describe(RL | P | TR, buf,
						       sizeof(buf)), "pTr");
}

/* Every combination of flags: printed, then parsed back, is the same. */
static void flag_table_round_trips(struct kunit *test)
{
	char word[DDEBUG_FLAGS_BUFSZ + 1];
	unsigned int flags, mask, set;

	for (flags = 0; flags < BIT(DDEBUG_NR_FLAGS); flags++) {
		if (settable(flags) != flags)
			continue;
		word[0] = '=';
		ddebug_flags_describe(flags, word + 1, sizeof(word) - 1);
		KUNIT_ASSERT_EQ_MSG(test, ddebug_parse_flags(word, &mask, &set),
				    0, "word \"%s\"", word);
		KUNIT_EXPECT_EQ_MSG(test, set, flags, "word \"%s\"", word);
		KUNIT_EXPECT_EQ(test, mask, 0U);
	}
	/* The letters are distinct, and none is the "no flags" letter. */
	for (flags = 0; flags < DDEBUG_NR_FLAGS; flags++) {
		KUNIT_EXPECT_EQ(test, ddebug_flag_from_letter(ddebug_flag_info[flags].letter),
				(int)flags);
		KUNIT_EXPECT_NE(test, ddebug_flag_info[flags].letter,
				DDEBUG_NO_FLAGS_LETTER);
	}
}

/* A site's line as the control file lists it, escapes and all. */
static void listing_line(char *buf, size_t size, const struct ddebug_table *dt,
			 const struct _ddebug *dp, unsigned int flags)
{
	char letters[DDEBUG_FLAGS_BUFSZ];
	const char *f, *class;
	size_t n;

	n = scnprintf(buf, size, "%s:%u [%s]%s =%s \"", ddebug_site_file(dp),
		      site_lineno(dp), dt->mod_name, site_function(dp),
		      ddebug_flags_describe(flags, letters, sizeof(letters)));
	for (f = site_format(dp); *f; f++) {
		if (*f == '\n')
			n += scnprintf(buf + n, size - n, "\\n");
		else if (*f == '\t')
			n += scnprintf(buf + n, size - n, "\\t");
		else if (*f == '\r')
			n += scnprintf(buf + n, size - n, "\\r");
		else
			n += scnprintf(buf + n, size - n, "%c", *f);
	}
	class = site_has_class(dp) ? ddebug_class_name(dt, dp) : NULL;
	if (class)
		scnprintf(buf + n, size - n, "\" class:%s\n", class);
	else if (site_has_class(dp))
		scnprintf(buf + n, size - n, "\" class unknown, _id:%d\n",
			  site_class(dp));
	else
		scnprintf(buf + n, size - n, "\"\n");
}

/* Each site's listing line, written back, gives that site alone its flags. */
static void listing_lines_parse_as_queries(struct kunit *test)
{
	static const unsigned int some_flags[] = { P, P | M | TR, F | S | L | RL, 0 };
	struct ddebug_parse_error err;
	char line[160], word[64];
	unsigned int i, j, k, flags, n = 0;
	struct _ddebug *dp;

	for (i = 0; i < ARRAY_SIZE(fake_tables); i++) {
		for (j = 0; j < fake_tables[i].num_sites; j++, n++) {
			dp = &fake_tables[i].sites[j];
			fake_reset(D);
			flags = settable(some_flags[n % ARRAY_SIZE(some_flags)]);
			listing_line(line, sizeof(line), &fake_tables[i], dp, flags);
			KUNIT_ASSERT_EQ_MSG(test, run(test, line, NULL, &err, word,
						      sizeof(word)), 1,
					    "line \"%s\" at \"%s\"", line, word);
			for (k = 0; k < NR_SITES; k++)
				KUNIT_EXPECT_EQ_MSG(test, site_flags(fake_site(k)),
						    k == n ? flags : D,
						    "line \"%s\", site %u", line, k);
		}
	}
}

/*
 * Two sites on one line, from one macro expansion: a saved listing of
 * both, written back in either order, gives each its own flags.
 */
static void listing_restores_each_site_of_one_line(struct kunit *test)
{
	static const unsigned int saved[] = { P | M, P | L };
	struct ddebug_table *delta = &fake_tables[3];
	struct ddebug_parse_error err;
	char text[256], word[64];
	unsigned int first;
	size_t n;

	for (first = 0; first < 2; first++) {
		fake_reset(T);
		listing_line(text, sizeof(text), delta, &delta_sites[first],
			     saved[first]);
		n = strlen(text);
		listing_line(text + n, sizeof(text) - n, delta,
			     &delta_sites[!first], saved[!first]);
		KUNIT_ASSERT_GE_MSG(test, run(test, text, NULL, &err, word,
					      sizeof(word)), 0,
				    "text \"%s\" at \"%s\"", text, word);
		KUNIT_EXPECT_EQ_MSG(test, site_flags(&delta_sites[0]), saved[0],
				    "text \"%s\"", text);
		KUNIT_EXPECT_EQ_MSG(test, site_flags(&delta_sites[1]), saved[1],
				    "text \"%s\"", text);
		KUNIT_EXPECT_EQ(test, sites_with(T), SITES(0, 11));
	}
}

/*
 * Two sites that agree on file, line, module, function and format have
 * the same listing line but for their flags: either line selects both.
 */
static void listing_line_selects_twin_sites_alike(struct kunit *test)
{
	static const struct fake_site twin_fakes[] = {
		SITE("twin", "twin.c", "twin_fn", 7, "same %d\n", NOCLS),
		SITE("twin", "twin.c", "twin_fn", 7, "same %d\n", NOCLS),
	};
	static struct _ddebug twin_sites[ARRAY_SIZE(twin_fakes)];
	static struct ddebug_table twin = {
		.mod_name = "twin", .sites = twin_sites,
		.num_sites = ARRAY_SIZE(twin_sites), .keyless = true, .id = 1,
	};
	struct ddebug_parse_error err;
	char text[] = "twin.c:7 [twin]twin_fn =pm \"same %d\\n\"";
	LIST_HEAD(twins);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(twin_fakes); i++)
		fake_site_setup(&twin_sites[i], &twin_fakes[i]);
	KUNIT_ASSERT_EQ(test, ddebug_index_build(&twin), 0);
	list_add_tail(&twin.link, &twins);
	KUNIT_EXPECT_EQ(test, ddebug_run(&twins, text, NULL, &err), 2);
	KUNIT_EXPECT_EQ(test, site_flags(&twin_sites[0]), P | M);
	KUNIT_EXPECT_EQ(test, site_flags(&twin_sites[1]), P | M);
	list_del(&twin.link);
	ddebug_index_free(&twin);
}

static void reports_the_line_of_a_gone_site(struct kunit *test)
{
	struct ddebug_parse_error err;
	char word[64];
	static const char text[] =
		"# saved\n\n"
		"drivers/alpha/core.c:20 [alpha]alpha_probe =p\n\n"
		"x.c:3 [alpha]alpha_gone =pm \"x\"\n";

	fake_reset(0);
	KUNIT_EXPECT_EQ(test, run(test, text, NULL, &err, word, sizeof(word)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, err.reason, DDEBUG_ERR_NO_SITE);
	KUNIT_EXPECT_EQ(test, err.query, 2U);
	KUNIT_EXPECT_EQ(test, err.line, 5U);
	KUNIT_EXPECT_EQ(test, err.site_line, 3U);
	KUNIT_EXPECT_STREQ(test, word, "x.c");
	KUNIT_EXPECT_STREQ(test, err.module, "alpha");
	KUNIT_EXPECT_STREQ(test, err.func, "alpha_gone");
	KUNIT_EXPECT_TRUE(test, all_sites_have_exactly(0));
}

static void restricts_queries_to_a_module(struct kunit *test)
{
	struct ddebug_parse_error err;
	char word[64];

	fake_reset(0);
	KUNIT_EXPECT_EQ(test, run(test, "+p", "beta", &err, word, sizeof(word)), 3);
	KUNIT_EXPECT_EQ(test, sites_with(P), SITES(4, 6));
}

static void lets_a_query_name_its_own_module(struct kunit *test)
{
	struct ddebug_parse_error err;
	char word[64];

	fake_reset(0);
	KUNIT_EXPECT_EQ(test, run(test, "module alpha +p", "beta", &err, word,
				  sizeof(word)), 4);
	KUNIT_EXPECT_EQ(test, sites_with(P), SITES(0, 3));
}

static void succeeds_when_nothing_matches(struct kunit *test)
{
	struct ddebug_parse_error err;
	char word[64];

	fake_reset(M);
	KUNIT_EXPECT_EQ(test, run(test, "file nothing.c =p", NULL, &err, word,
				  sizeof(word)), 0);
	KUNIT_EXPECT_TRUE(test, all_sites_have_exactly(M));
}

/*
 * A text of one query applies as it was checked, a text of several from a
 * copy: every shape of either kind must come out the same as its queries
 * applied one by one, whatever follows the first query end.
 */
struct text_case {
	const char *text;
	int ret;
	unsigned long p_sites;
};

static const struct text_case text_cases[] = {
	{ "module beta +p", 3, SITES(4, 6) },
	{ "module beta +p\n", 3, SITES(4, 6) },
	{ "module beta +p ;\n ; \t\n", 3, SITES(4, 6) },
	{ "module beta +p # a note\n", 3, SITES(4, 6) },
	{ "module beta +p # a note; module delta +p", 5,
	  SITES(4, 6) | SITES(12, 13) },
	{ "format 'fill;super' +p", 0, 0 },
	{ "module beta +p;module delta +p", 5, SITES(4, 6) | SITES(12, 13) },
	{ "module beta +p\nmodule delta +p\n", 5,
	  SITES(4, 6) | SITES(12, 13) },
	{ "module beta +p\n# then delta\nmodule delta +p", 5,
	  SITES(4, 6) | SITES(12, 13) },
	{ "format 'fill;super' +p;module delta +p", 2, SITES(12, 13) },
	{ "module beta +p;module beta -p", 6, 0 },
	{ ";\n", 0, 0 },
	{ "", 0, 0 },
};

static void applies_one_query_or_many_alike(struct kunit *test)
{
	struct ddebug_parse_error err;
	unsigned int i;
	char word[64];

	for (i = 0; i < ARRAY_SIZE(text_cases); i++) {
		const struct text_case *c = &text_cases[i];

		fake_reset(0);
		KUNIT_EXPECT_EQ_MSG(test, run(test, c->text, NULL, &err, word,
					      sizeof(word)), c->ret,
				    "text \"%s\"", c->text);
		KUNIT_EXPECT_EQ_MSG(test, sites_with(P), c->p_sites,
				    "text \"%s\"", c->text);
	}
}

static void keeps_flags_after_rejected_write(struct kunit *test)
{
	struct ddebug_parse_error err;
	char word[64];

	fake_reset(P | T);
	KUNIT_EXPECT_EQ(test, run(test, "=_\nmodule alpha =m\nline x +p", NULL,
				  &err, word, sizeof(word)), -EINVAL);
	KUNIT_EXPECT_EQ(test, err.query, 3U);
	KUNIT_EXPECT_TRUE(test, all_sites_have_exactly(P | T));
}

/* What a preview visited: which fake sites, and the flags it gave them. */
struct preview_seen {
	unsigned long sites;
	unsigned int visits;
	unsigned int flags_mismatch;
	unsigned int want_flags;
};

static void preview_visit(void *arg, const struct ddebug_table *dt,
			  const struct _ddebug *dp, unsigned int flags)
{
	struct preview_seen *seen = arg;
	unsigned int i;

	seen->visits++;
	if (flags != seen->want_flags)
		seen->flags_mismatch++;
	for (i = 0; i < NR_SITES; i++)
		if (fake_site(i) == dp)
			seen->sites |= BIT(i);
}

static int preview(struct kunit *test, const char *text,
		   struct preview_seen *seen, struct ddebug_parse_error *err)
{
	char *buf = kunit_kstrdup(test, text, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	return ddebug_preview(&fake_list, buf, preview_visit, seen, err);
}

/*
 * A preview visits the sites the same text would change, with the flags
 * it would give them, and changes none; a text the writer rejects, it
 * rejects with the same error.
 */
static void previews_what_a_write_would_do(struct kunit *test)
{
	struct preview_seen seen = { .want_flags = M | P };
	struct ddebug_parse_error err, err2;
	char word[64];
	int n;

	fake_reset(M);
	n = preview(test, "module alpha +p", &seen, &err);
	KUNIT_EXPECT_GT(test, n, 0);
	KUNIT_EXPECT_EQ(test, seen.visits, (unsigned int)n);
	KUNIT_EXPECT_EQ(test, seen.flags_mismatch, 0U);
	KUNIT_EXPECT_TRUE(test, all_sites_have_exactly(M));
	KUNIT_EXPECT_EQ(test, run(test, "module alpha +p", NULL, &err, word,
				  sizeof(word)), n);
	KUNIT_EXPECT_EQ(test, seen.sites, sites_with(M | P));

	fake_reset(M);
	memset(&err, 0, sizeof(err));
	KUNIT_EXPECT_EQ(test, preview(test, "module alpha +p\nfunc +p", &seen,
				      &err), -EINVAL);
	memset(&err2, 0, sizeof(err2));
	KUNIT_EXPECT_EQ(test, run(test, "module alpha +p\nfunc +p", NULL, &err2,
				  word, sizeof(word)), -EINVAL);
	KUNIT_EXPECT_EQ(test, err.reason, err2.reason);
	KUNIT_EXPECT_EQ(test, err.query, err2.query);
	KUNIT_EXPECT_TRUE(test, all_sites_have_exactly(M));
}

static const char kunit_path[] = "lib/dynamic_debug/" KBUILD_MODNAME ".c";

static void strips_source_root_from_file_names(struct kunit *test)
{
	static const struct fake_site here = SITE("x", __FILE__, "f", 1, "", NOCLS);
	static const struct fake_site elsewhere =
		SITE("x", "/elsewhere/lib/x.c", "f", 1, "", NOCLS);
	static struct _ddebug site;

	/* This file's path as the kernel build names it. */
	fake_site_setup(&site, &here);
	KUNIT_EXPECT_STREQ(test, ddebug_site_file(&site), kunit_path);
	fake_site_setup(&site, &elsewhere);
	KUNIT_EXPECT_STREQ(test, ddebug_site_file(&site), "/elsewhere/lib/x.c");
	KUNIT_EXPECT_STREQ(test, site_modname(&site), "x");
	KUNIT_EXPECT_STREQ(test, site_function(&site), "f");
	KUNIT_EXPECT_EQ(test, site_lineno(&site), 1U);
	KUNIT_EXPECT_FALSE(test, site_has_class(&site));
}

static void parses_longest_query(struct kunit *test)
{
	char *text = kunit_kzalloc(test, DDEBUG_QUERY_MAX + 1, GFP_KERNEL);
	struct ddebug_parse_error err;
	struct ddebug_query q;
	unsigned int count;
	size_t n;

	KUNIT_ASSERT_NOT_NULL(test, text);
	n = scnprintf(text, DDEBUG_QUERY_MAX + 1, "format ");
	memset(text + n, 'a', DDEBUG_QUERY_MAX - n - 3);
	strscpy(text + DDEBUG_QUERY_MAX - 3, " +p", 4);
	KUNIT_ASSERT_EQ(test, strlen(text), (size_t)DDEBUG_QUERY_MAX);
	KUNIT_ASSERT_EQ(test, parse_all(text, &q, &count, &err), 0);
	KUNIT_EXPECT_EQ(test, count, 1U);
	KUNIT_EXPECT_EQ(test, strlen(q.format), (size_t)DDEBUG_QUERY_MAX - n - 3);
}

static void parses_many_queries(struct kunit *test)
{
	char *text = kunit_kzalloc(test, DDEBUG_QUERY_MAX + 1, GFP_KERNEL);
	struct ddebug_parse_error err;
	struct ddebug_parser ps;
	struct ddebug_query q;
	unsigned int i;
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, text);
	for (i = 0; i < 1000; i++)
		strcat(text, "+p;");
	ddebug_parser_init(&ps, text);
	do {
		ret = ddebug_parse_next(&ps, &q, &err);
	} while (ret > 0);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, ps.count, 1000U);
}

static void rejects_a_thousand_words(struct kunit *test)
{
	char *text = kunit_kzalloc(test, DDEBUG_QUERY_MAX + 1, GFP_KERNEL);
	struct ddebug_parse_error err;
	char word[64];
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, text);
	for (i = 0; i < 999; i++)
		strcat(text, "x ");
	strcat(text, "+p");
	fake_reset(0);
	KUNIT_EXPECT_EQ(test, run(test, text, NULL, &err, word, sizeof(word)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, err.reason, DDEBUG_ERR_TOO_MANY_WORDS);
	KUNIT_EXPECT_STREQ(test, word, "x");
	KUNIT_EXPECT_TRUE(test, all_sites_have_exactly(0));
}

static void explains_every_reason(struct kunit *test)
{
	enum ddebug_parse_reason r;

	for (r = DDEBUG_ERR_UNKNOWN_KEYWORD; r <= DDEBUG_ERR_NO_SITE; r++)
		KUNIT_EXPECT_STRNEQ(test, ddebug_parse_reason_text(r),
				    "invalid query");
}

/* Sites a query's index lookup leaves to check in a fake table. */
static unsigned int candidate_sites(const char *file, const char *func,
				    struct ddebug_table *dt)
{
	struct ddebug_query q = { .file = file, .func = func };
	struct ddebug_runs runs = {};
	unsigned int n = 0;

	ddebug_index_candidates(dt, &q, &runs);
	for (; runs.pos < runs.end; runs.pos++)
		n += dt->index.runs[ddebug_runs_at(&runs, runs.pos)].count;
	return n;
}

static void index_cuts_tables_into_runs(struct kunit *test)
{
	/* alpha: two alpha_probe sites, alpha_remove, then helper.c. */
	KUNIT_EXPECT_EQ(test, fake_tables[0].index.nr_runs, 3U);
	/* gamma: every site in gamma_run of gamma/main.c. */
	KUNIT_EXPECT_EQ(test, fake_tables[2].index.nr_runs, 1U);
}

static void index_narrows_literal_names(struct kunit *test)
{
	struct ddebug_table *alpha = &fake_tables[0];

	KUNIT_EXPECT_EQ(test, candidate_sites(NULL, "alpha_probe", alpha), 2U);
	KUNIT_EXPECT_EQ(test, candidate_sites(NULL, "alpha_nope", alpha), 0U);
	KUNIT_EXPECT_EQ(test, candidate_sites("core.c", NULL, alpha), 3U);
	KUNIT_EXPECT_EQ(test, candidate_sites("drivers/alpha/helper.c", NULL,
					      alpha), 1U);
	/* Wildcards and queries without either name visit every site. */
	KUNIT_EXPECT_EQ(test, candidate_sites(NULL, "alpha_*", alpha), 4U);
	KUNIT_EXPECT_EQ(test, candidate_sites("*.c", NULL, alpha), 4U);
	KUNIT_EXPECT_EQ(test, candidate_sites(NULL, NULL, alpha), 4U);
}

/* A table's orders wait for the first lookup by name, then serve it. */
static void index_sorts_on_first_lookup(struct kunit *test)
{
	struct ddebug_table *beta = &fake_tables[1];

	ddebug_index_free(beta);
	KUNIT_ASSERT_EQ(test, ddebug_index_build(beta), 0);
	KUNIT_EXPECT_EQ(test, beta->index.nr_runs, 3U);
	KUNIT_EXPECT_NULL(test, beta->index.by_function);
	/* A query without a literal name visits every run, unsorted. */
	KUNIT_EXPECT_EQ(test, candidate_sites(NULL, "beta_*", beta), 3U);
	KUNIT_EXPECT_NULL(test, beta->index.by_function);
	KUNIT_EXPECT_EQ(test, candidate_sites("inode.c", NULL, beta), 1U);
	KUNIT_EXPECT_NOT_NULL(test, beta->index.by_function);
	KUNIT_EXPECT_EQ(test, candidate_sites(NULL, "beta_probe", beta), 1U);
	KUNIT_EXPECT_EQ(test, ddebug_index_bytes(beta), 3 * 24UL);
}

/* Writers at once */

/*
 * A table of many sites, each in a function of its own: a query over all
 * of them takes several holds of ddebug_lock, and the first lookup of a
 * function name sorts a thousand runs.
 */
#define WIDE_SITES	1024
static struct _ddebug wide_sites[WIDE_SITES];
static char wide_funcs[WIDE_SITES][12];
static struct ddebug_table wide_table = {
	.mod_name = "wide", .sites = wide_sites, .num_sites = WIDE_SITES,
	.keyless = true, .id = 1,
};

static LIST_HEAD(wide_list);

static int wide_table_index(void)
{
	struct fake_site f = { .modfile = "wide\0wide/wide.c",
			       .fmt = "wide site\n", .cls = NOCLS };
	unsigned int i;

	for (i = 0; i < WIDE_SITES; i++) {
		snprintf(wide_funcs[i], sizeof(wide_funcs[i]), "wide_%04u", i);
		f.func = wide_funcs[i];
		f.line = i + 1;
		fake_site_setup(&wide_sites[i], &f);
	}
	list_add_tail(&wide_table.link, &wide_list);
	return ddebug_index_build(&wide_table);
}

/* Whether every wide site has the same flags, and which. */
static bool wide_uniform(unsigned int *flags)
{
	unsigned int i;

	*flags = site_flags(&wide_sites[0]);
	for (i = 1; i < WIDE_SITES; i++)
		if (site_flags(&wide_sites[i]) != *flags)
			return false;
	return true;
}

static unsigned int wide_count(unsigned int flag)
{
	unsigned int i, n = 0;

	for (i = 0; i < WIDE_SITES; i++)
		n += !!(site_flags(&wide_sites[i]) & flag);
	return n;
}

static int wide_run(const char *text)
{
	struct ddebug_parse_error err;
	char buf[64];

	strscpy(buf, text, sizeof(buf));
	return ddebug_run(&wide_list, buf, NULL, &err);
}

/* A second writer, started while the first is between two holds. */
static struct {
	struct completion done;
	bool started;
	int ret;
} rival;

/* complete_all(): both the stub's wait and the test's see it done. */
static int rival_fn(void *unused)
{
	rival.ret = wide_run("module wide -m");
	complete_all(&rival.done);
	return 0;
}

/* Replaces ddebug_walk_pause() in the first writer. */
static void start_rival_and_wait(void)
{
	if (rival.started)
		return;
	rival.started = true;
	if (IS_ERR(kthread_run(rival_fn, NULL, "ddebug_rival"))) {
		rival.ret = -ECHILD;
		complete_all(&rival.done);
		return;
	}
	/* Time enough to apply its query, unless it has to wait. */
	wait_for_completion_timeout(&rival.done, msecs_to_jiffies(200));
}

/*
 * Two writers with opposite queries over every site end as one of them
 * after the other: all sites with m or all without, never a mix.
 */
static void concurrent_writers_end_in_a_serial_order(struct kunit *test)
{
	unsigned int i, flags;
	int ret;

	for (i = 0; i < WIDE_SITES; i++)
		site_flags_set(&wide_sites[i], 0);
	init_completion(&rival.done);
	rival.started = false;
	kunit_activate_static_stub(test, ddebug_walk_pause,
				   start_rival_and_wait);
	ret = wide_run("module wide +m");
	kunit_deactivate_static_stub(test, ddebug_walk_pause);
	KUNIT_EXPECT_EQ(test, ret, WIDE_SITES);
	KUNIT_ASSERT_TRUE_MSG(test, rival.started,
			      "the query took a single hold of the lock");
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&rival.done, 10 * HZ),
			0);
	KUNIT_EXPECT_EQ(test, rival.ret, WIDE_SITES);
	KUNIT_EXPECT_TRUE_MSG(test, wide_uniform(&flags),
			      "%u of %d sites have m", wide_count(M), WIDE_SITES);
	KUNIT_EXPECT_EQ(test, flags, 0U);
}

static unsigned int pauses;

static void count_pause(void)
{
	pauses++;
}

/*
 * Sorting a table's index on the first lookup of a name is work of the
 * hold it happens in: a query that sorts a big index lets others take
 * the lock before it goes on.
 */
static void first_name_lookup_ends_its_hold(struct kunit *test)
{
	ddebug_index_free(&wide_table);
	KUNIT_ASSERT_EQ(test, ddebug_index_build(&wide_table), 0);
	kunit_activate_static_stub(test, ddebug_walk_pause, count_pause);
	pauses = 0;
	KUNIT_EXPECT_EQ(test, wide_run("func wide_0007 +p"), 1);
	KUNIT_EXPECT_GE(test, pauses, 1U);
	pauses = 0;
	KUNIT_EXPECT_EQ(test, wide_run("func wide_0008 +p"), 1);
	KUNIT_EXPECT_EQ(test, pauses, 0U);
	kunit_deactivate_static_stub(test, ddebug_walk_pause);
}

/* The name of run @r an order of @dt is sorted by. */
static const char *run_name(const struct ddebug_table *dt, u32 r, bool file)
{
	const struct _ddebug *dp = &dt->sites[dt->index.runs[r].first];

	return file ? kbasename(site_raw_file(dp)) : site_function(dp);
}

/* Every run of @dt once in @order, by ascending hash of its name. */
static bool order_is_sorted(const struct ddebug_table *dt,
			    const struct ddebug_run_key *order, bool file)
{
	u32 i, r, hash, prev = 0, n = dt->index.nr_runs;
	unsigned long *seen = bitmap_zalloc(n, GFP_KERNEL);
	bool ok = seen;

	for (i = 0; ok && i < n; i++) {
		r = order[i].run;
		ok = r < n && !test_and_set_bit(r, seen);
		if (!ok)
			break;
		hash = hashlen_hash(hashlen_string(NULL, run_name(dt, r, file)));
		ok = order[i].hash == hash && (!i || prev <= hash);
		prev = hash;
	}
	bitmap_free(seen);
	return ok;
}

/*
 * The first lookup sorts a thousand runs by the hashes of their names;
 * then every function is found, with its own site among the candidates.
 */
static void index_orders_runs_by_hash(struct kunit *test)
{
	char name[16];
	unsigned int i, missed = 0;

	ddebug_index_free(&wide_table);
	KUNIT_ASSERT_EQ(test, ddebug_index_build(&wide_table), 0);
	KUNIT_EXPECT_EQ(test, candidate_sites(NULL, "wide_0000", &wide_table), 1U);
	KUNIT_ASSERT_NOT_NULL(test, wide_table.index.by_function);
	KUNIT_EXPECT_TRUE(test, order_is_sorted(&wide_table,
						wide_table.index.by_function,
						false));
	KUNIT_EXPECT_TRUE(test, order_is_sorted(&wide_table,
						wide_table.index.by_file, true));
	for (i = 0; i < WIDE_SITES; i++) {
		snprintf(name, sizeof(name), "wide_%04u", i);
		missed += candidate_sites(NULL, name, &wide_table) < 1;
	}
	KUNIT_EXPECT_EQ(test, missed, 0U);
	KUNIT_EXPECT_EQ(test, candidate_sites("wide.c", NULL, &wide_table),
			WIDE_SITES);
	KUNIT_EXPECT_EQ(test, candidate_sites(NULL, "wide_9999", &wide_table),
			0U);
}

static int fake_tables_index(struct kunit_suite *suite)
{
	unsigned int i, j;
	int ret;

	ret = wide_table_index();
	if (ret)
		return ret;
	for (i = 0; i < ARRAY_SIZE(fake_tables); i++) {
		for (j = 0; j < fake_tables[i].num_sites; j++)
			fake_site_setup(&fake_tables[i].sites[j],
					&fakes_of[i][j]);
		fake_tables[i].id = i + 1;
		ret = ddebug_index_build(&fake_tables[i]);
		if (ret)
			return ret;
	}
	return 0;
}

static void fake_tables_unindex(struct kunit_suite *suite)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fake_tables); i++)
		ddebug_index_free(&fake_tables[i]);
	ddebug_index_free(&wide_table);
}

static struct kunit_case dynamic_debug_cases[] = {
	KUNIT_CASE_PARAM(parses_valid_queries, parse_gen_params),
	KUNIT_CASE_PARAM(rejects_malformed_queries, error_gen_params),
	KUNIT_CASE_PARAM(selects_matching_sites, match_gen_params),
	KUNIT_CASE_PARAM(applies_flag_operators, flags_gen_params),
	KUNIT_CASE(describes_flags_in_table_order),
	KUNIT_CASE(flag_table_round_trips),
	KUNIT_CASE(listing_lines_parse_as_queries),
	KUNIT_CASE(listing_restores_each_site_of_one_line),
	KUNIT_CASE(listing_line_selects_twin_sites_alike),
	KUNIT_CASE(reports_the_line_of_a_gone_site),
	KUNIT_CASE(restricts_queries_to_a_module),
	KUNIT_CASE(lets_a_query_name_its_own_module),
	KUNIT_CASE(succeeds_when_nothing_matches),
	KUNIT_CASE(applies_one_query_or_many_alike),
	KUNIT_CASE(keeps_flags_after_rejected_write),
	KUNIT_CASE(strips_source_root_from_file_names),
	KUNIT_CASE(parses_longest_query),
	KUNIT_CASE(parses_many_queries),
	KUNIT_CASE(rejects_a_thousand_words),
	KUNIT_CASE(explains_every_reason),
	KUNIT_CASE(index_cuts_tables_into_runs),
	KUNIT_CASE(index_narrows_literal_names),
	KUNIT_CASE(index_sorts_on_first_lookup),
	KUNIT_CASE(concurrent_writers_end_in_a_serial_order),
	KUNIT_CASE(first_name_lookup_ends_its_hold),
	KUNIT_CASE(index_orders_runs_by_hash),
	KUNIT_CASE(previews_what_a_write_would_do),
	{}
};

static struct kunit_suite dynamic_debug_suite = {
	.name = "dynamic_debug",
	.suite_init = fake_tables_index,
	.suite_exit = fake_tables_unindex,
	.test_cases = dynamic_debug_cases,
};

kunit_test_suite(dynamic_debug_suite);

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
MODULE_DESCRIPTION("KUnit tests of the dynamic debug query parser and matcher");
MODULE_LICENSE("GPL");
