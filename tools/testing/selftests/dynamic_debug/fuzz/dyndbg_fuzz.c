// SPDX-License-Identifier: GPL-2.0
/*
 * A grammar-aware fuzzer of the dynamic debug control file, run as root in
 * a test guest with the selftests' modules loaded.
 *
 * It writes valid queries on the given modules and mutations of them (a
 * token changed, dropped, repeated or swapped; quotes, escapes, NUL bytes,
 * non-ASCII bytes, very long words, runs of ';'), and checks after every
 * batch that:
 *   - the control file reads back whole: the header, then one well-formed
 *     line per site, as many sites as at the start;
 *   - a rejected write changed nothing;
 *   - an accepted valid query changed exactly the sites a reference model
 *     of the matching, run here on the parsed listing, says it selects.
 * An accepted mutation is not modelled: the model is then reloaded from the
 * listing (after the shape checks).
 *
 * Usage: dyndbg_fuzz [-s SEED] [-n WRITES] [-b BATCH] [-c CONTROL] MODULE...
 * Same seed, same writes: a failure is rerun with the seed it prints.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define MAX_SITES	8192
#define MAX_TEXT	8192
#define MAX_TOKENS	32
#define TOKEN_MAX	4200
#define NR_SLOTS	(4 * MAX_TOKENS)
#define LISTING_MAX	(8 << 20)

static const char header[] = "# filename:lineno [module]function flags format";
static const char letters[] = "pmfsltd";

/* ------------------------------------------------------------ random -- */

static uint64_t rng;

static uint64_t next_random(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545F4914F6CDD1DULL;
}

static unsigned int pick(unsigned int n)
{
	return n ? next_random() % n : 0;
}

static int chance(unsigned int percent)
{
	return pick(100) < percent;
}

/* ----------------------------------------------------------- listing -- */

struct site {
	char file[256];
	char *base;		/* basename, inside file */
	unsigned int line;
	char module[64];
	char func[128];
	char format[512];	/* unescaped */
	unsigned int flags;
	int classed;
};

static struct site sites[MAX_SITES];
static unsigned int nr_sites, nr_sites_start;
static const char *control = "/sys/kernel/debug/dynamic_debug/control";
static char *listing;

static void fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("not ok - fuzz: ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	fflush(stdout);
	exit(1);
}

static unsigned int flag_bits(const char *s)
{
	unsigned int bits = 0;
	const char *l;

	for (; *s && *s != ' '; s++) {
		l = strchr(letters, *s);
		if (l && *s)
			bits |= 1U << (l - letters);
	}
	return bits;
}

/* The listing's format: \t \r \n escaped, the rest as it is. */
static void unescape_listed(char *out, size_t size, const char *in, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len && n + 1 < size; i++) {
		if (in[i] == '\\' && i + 1 < len && strchr("trn", in[i + 1])) {
			i++;
			out[n++] = in[i] == 't' ? '\t' : in[i] == 'r' ? '\r' : '\n';
		} else {
			out[n++] = in[i];
		}
	}
	out[n] = '\0';
}

/* path:line [module]function =flags "format"[ class...] */
static int parse_site(char *l, struct site *s)
{
	char *colon, *sp, *rb, *eq, *q1, *q2;

	sp = strchr(l, ' ');
	if (!sp)
		return -1;
	*sp = '\0';
	colon = strrchr(l, ':');
	if (!colon || colon == l || sp[1] != '[')
		return -1;
	*colon = '\0';
	snprintf(s->file, sizeof(s->file), "%s", l);
	s->base = strrchr(s->file, '/') ? strrchr(s->file, '/') + 1 : s->file;
	s->line = strtoul(colon + 1, NULL, 10);
	rb = strchr(sp + 2, ']');
	if (!rb)
		return -1;
	snprintf(s->module, sizeof(s->module), "%.*s", (int)(rb - sp - 2), sp + 2);
	eq = strstr(rb, " =");
	if (!eq)
		return -1;
	snprintf(s->func, sizeof(s->func), "%.*s", (int)(eq - rb - 1), rb + 1);
	s->flags = flag_bits(eq + 2);
	q1 = strchr(eq + 2, '"');
	q2 = q1 ? strrchr(q1 + 1, '"') : NULL;
	if (!q1 || !q2)
		return -1;
	unescape_listed(s->format, sizeof(s->format), q1 + 1, q2 - q1 - 1);
	s->classed = !!strstr(q2, " class");
	if (q2[1] && !s->classed)
		return -1;
	return 0;
}

/* Read control whole; check its shape; load it into sites[]. */
static void load_listing(const char *when)
{
	ssize_t n, len = 0;
	char *l, *next;
	int fd;

	fd = open(control, O_RDONLY);
	if (fd < 0)
		fail("%s: open %s: %s", when, control, strerror(errno));
	/* Odd read sizes: the listing must not depend on them. */
	while ((n = read(fd, listing + len, 1 + pick(4000))) > 0) {
		len += n;
		if (len > LISTING_MAX - 4096)
			fail("%s: listing over %d bytes", when, LISTING_MAX);
	}
	if (n < 0)
		fail("%s: read: %s", when, strerror(errno));
	close(fd);
	listing[len] = '\0';

	next = strchr(listing, '\n');
	if (!next || strncmp(listing, header, next - listing))
		fail("%s: bad header line", when);
	nr_sites = 0;
	for (l = next + 1; *l; l = next + 1) {
		next = strchr(l, '\n');
		if (!next)
			fail("%s: last line has no newline", when);
		*next = '\0';
		if (nr_sites == MAX_SITES)
			fail("%s: more than %d sites", when, MAX_SITES);
		if (parse_site(l, &sites[nr_sites]))
			fail("%s: malformed line %u: %s", when, nr_sites + 2, l);
		nr_sites++;
	}
	if (nr_sites_start && nr_sites != nr_sites_start)
		fail("%s: %u sites listed, %u at the start", when, nr_sites,
		     nr_sites_start);
}

/* ------------------------------------------------------------- model -- */

struct query {
	const char *module;	/* exact name */
	const char *func;
	const char *file;	/* a site's path or basename */
	const char *format;	/* substring, maybe ^anchored */
	int class_none;		/* "class NOPE": selects nothing here */
	unsigned int first, last;
	char op;
	unsigned int bits;
};

static int model_selects(const struct query *q, const struct site *s)
{
	if (s->classed || q->class_none)
		return 0;
	if (q->module && strcmp(q->module, s->module))
		return 0;
	if (q->func && strcmp(q->func, s->func))
		return 0;
	if (q->file && strcmp(q->file, s->file) && strcmp(q->file, s->base))
		return 0;
	if (q->first && s->line < q->first)
		return 0;
	if (q->last && s->line > q->last)
		return 0;
	if (q->format) {
		if (q->format[0] == '^')
			return !strncmp(s->format, q->format + 1,
					strlen(q->format + 1));
		return !!strstr(s->format, q->format);
	}
	return 1;
}

static void model_apply(const struct query *q)
{
	unsigned int i;

	for (i = 0; i < nr_sites; i++) {
		if (!model_selects(q, &sites[i]))
			continue;
		if (q->op == '+')
			sites[i].flags |= q->bits;
		else if (q->op == '-')
			sites[i].flags &= ~q->bits;
		else
			sites[i].flags = q->bits;
	}
}

/* --------------------------------------------------------- generation -- */

static char *modules[16];
static unsigned int nr_modules;
/*
 * The query being built, as words.  Words live in slots handed out in
 * turn; a word is given a slot of its own before it is changed in place,
 * since a repeated word shares its slot.
 */
static char slots[NR_SLOTS][TOKEN_MAX];
static unsigned int next_slot;
static char *tokens[MAX_TOKENS];
static unsigned int nr_tokens;

static char *take_slot(void)
{
	return slots[next_slot++ % NR_SLOTS];
}

static char *own_token(unsigned int i)
{
	char *s = take_slot();

	snprintf(s, TOKEN_MAX, "%s", tokens[i]);
	tokens[i] = s;
	return s;
}

static void add_token(const char *fmt, ...)
{
	va_list ap;

	if (nr_tokens == MAX_TOKENS)
		return;
	tokens[nr_tokens] = take_slot();
	va_start(ap, fmt);
	vsnprintf(tokens[nr_tokens++], TOKEN_MAX, fmt, ap);
	va_end(ap);
}

static void swap_tokens(unsigned int i, unsigned int j)
{
	char *tmp = tokens[i];

	tokens[i] = tokens[j];
	tokens[j] = tmp;
}

/* A random site of the fuzzed modules. */
static const struct site *any_site(void)
{
	unsigned int i, tries;

	for (tries = 0; tries < 1000; tries++) {
		i = pick(nr_sites);
		for (unsigned int m = 0; m < nr_modules; m++)
			if (!strcmp(sites[i].module, modules[m]) &&
			    !sites[i].classed)
				return &sites[i];
	}
	fail("no unclassed site of the fuzzed modules");
	return NULL;
}

/* A substring of a format made of plain characters only. */
static int format_piece(const struct site *s, char *out, size_t size)
{
	size_t len = strlen(s->format), start, n;

	if (!len)
		return -1;
	start = pick(len);
	for (n = 0; start + n < len && n + 1 < size && n < 12; n++) {
		char c = s->format[start + n];

		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		      c == ' ' || c == '='))
			break;
	}
	if (!n)
		return -1;
	snprintf(out, size, "%s%.*s", start == 0 && chance(50) ? "^" : "",
		 (int)n, s->format + start);
	return 0;
}

static char strings[2][64];

/* A valid query as tokens, and as the model sees it. */
static void gen_valid(struct query *q)
{
	const struct site *s = any_site();
	unsigned int bits = 0, i, sel;
	char *op, *p;

	memset(q, 0, sizeof(*q));
	nr_tokens = 0;
	next_slot = 0;
	q->module = s->module;
	add_token("module");
	add_token("%s", s->module);
	sel = pick(6);
	if (sel == 0 || chance(20)) {
		q->func = s->func;
		add_token(chance(20) ? "function" : "func");
		add_token("%s", s->func);
	}
	if (sel == 1 || chance(20)) {
		q->file = chance(50) ? s->base : s->file;
		add_token("file");
		add_token("%s", q->file);
	}
	if (sel == 2 || chance(20)) {
		q->first = s->line - pick(3);
		q->last = q->first + pick(20);
		add_token("line");
		switch (pick(4)) {
		case 0:
			add_token("%u", q->first);
			q->last = q->first;
			break;
		case 1:
			add_token("%u-", q->first);
			q->last = 0;
			break;
		case 2:
			add_token("-%u", q->last);
			q->first = 0;
			break;
		default:
			add_token("%u-%u", q->first, q->last);
		}
	}
	if ((sel == 3 || chance(20)) && !format_piece(s, strings[0], 64)) {
		q->format = strings[0];
		add_token("format");
		add_token(strchr(strings[0], ' ') ? "'%s'" : "%s", strings[0]);
	}
	if (sel == 4 && chance(30)) {
		q->class_none = 1;
		add_token("class");
		add_token("NO_SUCH_CLASS");
	}
	/* Shuffle the keyword-value pairs: their order does not matter. */
	for (i = 0; i + 2 < nr_tokens; i += 2) {
		unsigned int j = i + 2 * pick((nr_tokens - i) / 2);

		swap_tokens(i, j);
		swap_tokens(i + 1, j + 1);
	}

	op = "+-=";
	q->op = op[pick(3)];
	p = strings[1];
	*p++ = q->op;
	for (i = 0; i < sizeof(letters) - 1; i++) {
		if (chance(30)) {
			bits |= 1U << i;
			*p++ = letters[i];
		}
	}
	if (!bits && chance(50))
		*p++ = '_';
	*p = '\0';
	q->bits = bits;
	add_token("%s", strings[1]);
}

/* A junk word for mutations. */
static void junk_word(char *out, size_t size)
{
	static const char *const pool[] = {
		"file", "func", "function", "line", "module", "format", "class",
		"+p", "-p", "=_", "=", "+", "-", "+x", "p", "#", ";", ";;;;",
		"\"", "'", "\\", "\\\"", "\"unclosed", "'unclosed", "^", "\"\"",
		"''", "\\000", "0", "4294967295", "4294967296", "-", "5-", "a-b",
		"1-2-3", "*", "?", "test_dyndbg_*", "\xc3\xa9t\xc3\xa9", "\xff\xfe",
		"\n", "\t", " ", "\r", "fiel", "FILE", "D2_CORE",
	};
	unsigned int n;

	switch (pick(4)) {
	case 0:		/* very long word */
		n = 1 + pick(size - 2 < 3000 ? size - 2 : 3000);
		memset(out, "ax*_%;\"'\\"[pick(9)], n);
		out[n] = '\0';
		break;
	case 1:		/* run of ';' or newlines */
		n = 1 + pick(200);
		memset(out, chance(50) ? ';' : '\n', n);
		out[n] = '\0';
		break;
	default:
		snprintf(out, size, "%s", pool[pick(ARRAY_SIZE(pool))]);
	}
}

static void insert_byte(char *word)
{
	static const char bytes[] = "\"'\\;#\n\t \x80\xff^*?";
	size_t len = strlen(word), at = pick(len + 1);

	if (len + 2 >= TOKEN_MAX)
		return;
	memmove(word + at + 1, word + at, len - at + 1);
	word[at] = bytes[pick(sizeof(bytes) - 1)];
}

/* Change the token list in one of several ways. */
static void mutate(void)
{
	unsigned int i, j;
	char tmp[TOKEN_MAX];

	if (!nr_tokens)
		add_token("+p");
	i = pick(nr_tokens);
	j = pick(nr_tokens);

	switch (pick(7)) {
	case 0:		/* change a token */
		junk_word(own_token(i), 4000);
		break;
	case 1:		/* drop a token */
		memmove(&tokens[i], &tokens[i + 1],
			(nr_tokens - i - 1) * sizeof(*tokens));
		nr_tokens--;
		break;
	case 2:		/* repeat a token */
		if (nr_tokens < MAX_TOKENS) {
			memmove(&tokens[i + 1], &tokens[i],
				(nr_tokens - i) * sizeof(*tokens));
			nr_tokens++;
		}
		break;
	case 3:		/* swap two tokens */
		swap_tokens(i, j);
		break;
	case 4:		/* insert junk */
		if (nr_tokens < MAX_TOKENS) {
			memmove(&tokens[i + 1], &tokens[i],
				(nr_tokens - i) * sizeof(*tokens));
			nr_tokens++;
			tokens[i] = take_slot();
			junk_word(tokens[i], 4000);
		}
		break;
	case 5:		/* quote a token, maybe badly: unclosed, or ending in '\' */
		snprintf(tmp, sizeof(tmp), "%c%s%s", chance(50) ? '"' : '\'',
			 tokens[i], chance(70) ? (chance(50) ? "\"" : "'") :
			 chance(50) ? "\\" : "");
		snprintf(own_token(i), TOKEN_MAX, "%s", tmp);
		break;
	default:	/* a byte inside a token */
		insert_byte(own_token(i));
	}
}

/*
 * Join the tokens into one write; returns its length. With *nul set, one
 * byte of it becomes a NUL; when there is no byte to replace (every token
 * was dropped), *nul is cleared, so that the caller's expectation matches
 * what is written.
 */
static size_t render(char *buf, size_t size, int *nul)
{
	size_t n = 0, len;
	unsigned int i;

	for (i = 0; i < nr_tokens; i++) {
		len = strlen(tokens[i]);
		if (n + len + 2 >= size)
			break;
		if (i)
			buf[n++] = chance(95) ? ' ' : '\t';
		memcpy(buf + n, tokens[i], len);
		n += len;
	}
	if (chance(50) && n + 1 < size)
		buf[n++] = '\n';
	if (*nul && n)
		buf[pick(n)] = '\0';
	else
		*nul = 0;
	return n;
}

/* ------------------------------------------------------ kernel log -- */

/*
 * The fuzzer's refused writes log an error each, too many for the console:
 * the guest quiets it, and this passes on the kernel's messages of warning
 * level or worse, other than the core's own, to stdout, where the harness
 * looks for reports.
 */
static int kmsg = -1;

static void kmsg_open(void)
{
	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (kmsg >= 0)
		lseek(kmsg, 0, SEEK_END);
}

static void kmsg_drain(void)
{
	unsigned long long ts;
	unsigned int prio;
	char rec[2048], *msg;
	ssize_t n;

	while (kmsg >= 0) {
		n = read(kmsg, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten before we read them */
		if (n <= 0)
			return;
		rec[n] = '\0';
		msg = strchr(rec, ';');
		if (!msg || sscanf(rec, "%u,%*u,%llu", &prio, &ts) != 2)
			continue;
		msg++;
		msg[strcspn(msg, "\n")] = '\0';
		if ((prio & 7) > 4 || !strncmp(msg, "dyndbg: ", 8))
			continue;
		printf("[%5llu.%06llu] %s\n", ts / 1000000, ts % 1000000, msg);
		fflush(stdout);
	}
}

/* ------------------------------------------------------------ checks -- */

static void show_text(const char *buf, size_t len)
{
	size_t i;

	printf("# write (%zu bytes): \"", len);
	for (i = 0; i < len && i < 300; i++) {
		unsigned char c = buf[i];

		if (c == '\n')
			printf("\\n");
		else if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 32 || c > 126)
			printf("\\%03o", c);
		else
			putchar(c);
	}
	printf("%s\"\n", len > 300 ? "..." : "");
}

/* Compare the model with a fresh listing. */
static void check_model(unsigned long n, const char *buf, size_t len)
{
	static struct site want[MAX_SITES];
	unsigned int i;
	char when[64];

	memcpy(want, sites, nr_sites * sizeof(*sites));
	snprintf(when, sizeof(when), "after write %lu", n);
	load_listing(when);
	for (i = 0; i < nr_sites; i++) {
		if (want[i].flags == sites[i].flags &&
		    want[i].line == sites[i].line &&
		    !strcmp(want[i].module, sites[i].module))
			continue;
		show_text(buf, len);
		fail("%s: %s:%u [%s]%s has flags 0x%x, the model says 0x%x",
		     when, sites[i].file, sites[i].line, sites[i].module,
		     sites[i].func, sites[i].flags, want[i].flags);
	}
}

/* ------------------------------------------------------- edge writes -- */

/*
 * Writes whose last byte is a backslash inside an unclosed quote, after
 * each keyword: a lexer that takes the backslash as escaping the byte that
 * follows would step over the text's terminating NUL and read past the
 * end of the kernel's copy (KASAN reports it). Random mutations seldom end
 * a write that way, with no newline and every query before it valid. Each
 * must be refused with EINVAL; the caller then checks nothing changed.
 */
static unsigned long edge_writes(void)
{
	static const char *const keys[] = {
		"file", "func", "module", "format", "class", "line", "",
	};
	static const char *const ends[] = { "\\", "x\\", "\\\\\\", "a b\\" };
	unsigned int k, e, q;
	unsigned long n = 0;
	char buf[256];
	int fd, len;
	ssize_t ret;

	for (k = 0; k < sizeof(keys) / sizeof(*keys); k++)
		for (e = 0; e < sizeof(ends) / sizeof(*ends); e++)
			for (q = 0; q < 2; q++) {
				len = snprintf(buf, sizeof(buf), "module %s +p; %s%s%c%s",
					       modules[0], keys[k], *keys[k] ? " " : "",
					       q ? '\'' : '"', ends[e]);
				fd = open(control, O_WRONLY);
				if (fd < 0)
					fail("open %s: %s", control, strerror(errno));
				ret = write(fd, buf, len);
				close(fd);
				n++;
				if (ret >= 0 || errno != EINVAL) {
					show_text(buf, len);
					fail("edge write %lu: %s, not EINVAL", n,
					     ret >= 0 ? "accepted" : strerror(errno));
				}
			}
	return n;
}

/* -------------------------------------------------------------- main -- */

int main(int argc, char **argv)
{
	unsigned long count = 50000, batch = 25, n;
	unsigned long accepted = 0, rejected = 0, modelled = 0, reloads = 0;
	unsigned long checks = 0;
	uint64_t seed = 0;
	static char buf[MAX_TEXT];
	struct query q;
	int opt, fd, valid, nul, dirty = 0;
	ssize_t ret;
	size_t len;

	while ((opt = getopt(argc, argv, "s:n:b:c:")) != -1) {
		switch (opt) {
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'n':
			count = strtoul(optarg, NULL, 0);
			break;
		case 'b':
			batch = strtoul(optarg, NULL, 0);
			break;
		case 'c':
			control = optarg;
			break;
		default:
			fprintf(stderr, "usage: %s %s\n", argv[0],
				"[-s SEED] [-n WRITES] [-b BATCH] [-c CONTROL] MODULE...");
			return 2;
		}
	}
	for (; optind < argc && nr_modules < 16; optind++)
		modules[nr_modules++] = argv[optind];
	if (!nr_modules || !batch)
		return 2;
	if (!seed)
		seed = (uint64_t)time(NULL) * 2654435761ULL ^ getpid();
	rng = seed ? seed : 1;
	printf("# fuzz: seed %llu, %lu writes, batches of %lu\n",
	       (unsigned long long)seed, count, batch);
	fflush(stdout);

	listing = malloc(LISTING_MAX);
	if (!listing)
		return 2;
	kmsg_open();
	load_listing("at the start");
	nr_sites_start = nr_sites;
	n = edge_writes();
	check_model(0, "", 0);
	kmsg_drain();
	printf("# fuzz: %lu edge writes (a backslash ends an unclosed quote) refused\n", n);

	for (n = 1; n <= count; n++) {
		gen_valid(&q);
		valid = chance(45);
		nul = 0;
		if (!valid) {
			unsigned int k = 1 + pick(3);

			while (k--)
				mutate();
			nul = chance(5);
		}
		len = render(buf, sizeof(buf), &nul);
		if (chance(1)) {		/* around the size limit */
			size_t to = 4094 + pick(4);

			if (len + 2 < to) {
				memcpy(buf + len, "\n#", 2);
				memset(buf + len + 2, 'z', to - len - 2);
				len = to;
			}
		}

		fd = open(control, O_WRONLY);
		if (fd < 0)
			fail("open %s: %s", control, strerror(errno));
		ret = write(fd, buf, len);
		if (ret < 0 && errno != EINVAL && errno != E2BIG) {
			show_text(buf, len);
			fail("write %lu: unexpected errno %d (%s)", n, errno,
			     strerror(errno));
		}
		close(fd);

		if (ret < 0) {
			rejected++;
			if (valid && len <= 4095 && !nul) {
				show_text(buf, len);
				fail("write %lu: a valid query was refused: %s", n,
				     strerror(errno));
			}
		} else {
			if (ret != (ssize_t)len) {
				show_text(buf, len);
				fail("write %lu: %zd of %zu bytes taken", n, ret, len);
			}
			if (nul) {
				show_text(buf, len);
				fail("write %lu: a write holding a NUL was accepted", n);
			}
			accepted++;
			if (valid) {
				model_apply(&q);
				modelled++;
			} else {
				/* Not modelled: reload after the shape checks. */
				load_listing("after an accepted mutation");
				reloads++;
				dirty = 0;
				continue;
			}
		}
		dirty = 1;
		if (n % batch == 0) {
			check_model(n, buf, len);
			checks++;
			dirty = 0;
			kmsg_drain();
		}
	}
	if (dirty) {
		check_model(n - 1, buf, len);
		checks++;
	}
	kmsg_drain();
	printf("# fuzz: %lu writes: %lu accepted (%lu modelled), %lu refused;",
	       count, accepted, modelled, rejected);
	printf(" %lu model checks, %lu reloads\n", checks, reloads);
	printf("ok - fuzz: seed %llu, %lu writes, every invariant held\n",
	       (unsigned long long)seed, count);
	return 0;
}
