// SPDX-License-Identifier: GPL-2.0
/* save, restore, diff: setups kept as replayable control listings. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dyndbg.h"

#define WRITE_MAX	4000	/* below the kernel's limit for one write */

/* How many bytes of @p, whole lines only, fit in one write; 0 if none. */
static size_t piece(const char *p)
{
	size_t len = 0, l;
	const char *nl;

	while (p[len]) {
		nl = strchr(p + len, '\n');
		l = nl ? (size_t)(nl - p) + 1 : strlen(p);
		if (l > WRITE_MAX)
			break;
		len = l;
	}
	return len;
}

/* Write @text to control in pieces that end at line ends. */
int write_lines(const char *text)
{
	char buf[WRITE_MAX + 1];
	size_t len;
	int ret;

	while (*text) {
		len = piece(text);
		if (!len)
			return -E2BIG;
		memcpy(buf, text, len);
		buf[len] = '\0';
		ret = ddebug_write("control", buf);
		if (ret)
			return ret;
		text += len;
	}
	return 0;
}

/* Append the listing line of @s, with @flags for its flags, to @t. */
int site_line(struct text *t, const struct site *s, const char *flags)
{
	size_t n = strlen(s->where) + strlen(s->module) + strlen(s->func) +
		   strlen(flags) + strlen(s->format) + 16;
	char *line = malloc(n);
	int ret;

	if (!line)
		return -ENOMEM;
	snprintf(line, n, "%s [%s]%s =%s %s\n", s->where, s->module, s->func,
		 flags, s->format);
	ret = text_append(t, line, strlen(line));
	free(line);
	return ret;
}

static bool same_site(const struct site *a, const struct site *b)
{
	return !strcmp(a->where, b->where) && !strcmp(a->module, b->module) &&
	       !strcmp(a->func, b->func);
}

static const struct site *find_site(const struct site *s, int n,
				    const struct site *key)
{
	int i;

	for (i = 0; i < n; i++)
		if (same_site(&s[i], key))
			return &s[i];
	return NULL;
}

int do_save(int argc, char **argv)
{
	struct text t = {};
	FILE *f = stdout;
	int ret;

	ret = ddebug_read("enabled", &t);
	if (ret)
		return kernel_error("save", ret);
	if (argc > 0) {
		f = fopen(argv[0], "w");
		if (!f) {
			fprintf(stderr, "dyndbg: %s: %s\n", argv[0], strerror(errno));
			text_free(&t);
			return 1;
		}
	}
	fputs(t.buf ? t.buf : "", f);
	ret = ferror(f);
	if (f != stdout)
		ret |= fclose(f);
	text_free(&t);
	return ret ? 1 : 0;
}

/* The saved setup in @path, and the sites enabled now. */
struct setup {
	struct text file, now;
	struct site *saved, *on;
	int nsaved, non;
};

static int setup_load(struct setup *st, const char *path)
{
	int ret;

	memset(st, 0, sizeof(*st));
	ret = read_file(path, &st->file);
	if (ret) {
		fprintf(stderr, "dyndbg: %s: %s\n", path, strerror(-ret));
		return 1;
	}
	ret = ddebug_read("enabled", &st->now);
	if (ret)
		return kernel_error("enabled", ret);
	st->nsaved = sites_split(&st->file, &st->saved, false);
	st->non = sites_split(&st->now, &st->on, false);
	if (st->nsaved < 0 || st->non < 0)
		return 1;
	return 0;
}

static void setup_free(struct setup *st)
{
	free(st->saved);
	free(st->on);
	text_free(&st->file);
	text_free(&st->now);
}

int do_diff(int argc, char **argv)
{
	struct setup st;
	const struct site *o;
	int i, ret, differ = 0;

	if (argc != 1)
		return usage_error("diff: FILE is needed");
	ret = setup_load(&st, argv[0]);
	for (i = 0; !ret && i < st.non; i++) {
		o = find_site(st.saved, st.nsaved, &st.on[i]);
		if (!o || strcmp(o->flags, st.on[i].flags)) {
			printf("+%s [%s]%s =%s\n", st.on[i].where, st.on[i].module,
			       st.on[i].func, st.on[i].flags);
			differ = 1;
		}
	}
	for (i = 0; !ret && i < st.nsaved; i++) {
		o = find_site(st.on, st.non, &st.saved[i]);
		if (!o || strcmp(o->flags, st.saved[i].flags)) {
			printf("-%s [%s]%s =%s\n", st.saved[i].where,
			       st.saved[i].module, st.saved[i].func,
			       st.saved[i].flags);
			differ = 1;
		}
	}
	setup_free(&st);
	return ret ? ret : differ;
}

int do_restore(int argc, char **argv)
{
	struct setup st;
	struct text out = {};
	int i, ret;

	if (argc != 1)
		return usage_error("restore: FILE is needed");
	ret = setup_load(&st, argv[0]);
	/* Sites on now but not in the setup go off; then the setup applies. */
	for (i = 0; !ret && i < st.non; i++)
		if (!find_site(st.saved, st.nsaved, &st.on[i]))
			ret = site_line(&out, &st.on[i], "_");
	for (i = 0; !ret && i < st.nsaved; i++)
		ret = site_line(&out, &st.saved[i], st.saved[i].flags);
	if (!ret && dry_run)
		fputs(out.buf ? out.buf : "", stdout);
	else if (!ret && out.buf)
		ret = write_lines(out.buf);
	if (ret > 0 || !ret) {
		if (!ret)
			printf("%d sites restored%s\n", st.nsaved,
			       dry_run ? " (dry run)" : "");
	} else {
		ret = kernel_error("restore", ret);
	}
	text_free(&out);
	setup_free(&st);
	return ret;
}
