// SPDX-License-Identifier: GPL-2.0
/* persist: a setting that applies at a module's next load, or at boot. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dyndbg.h"

#define PERSIST_FILE	"dyndbg.conf"

/* modprobe.d directory; --dir or $DYNDBG_MODPROBE_DIR overrides it. */
static const char *persist_path(const char *dir, char *path, size_t size)
{
	if (!dir)
		dir = getenv("DYNDBG_MODPROBE_DIR");
	if (!dir || !*dir)
		dir = "/etc/modprobe.d";
	snprintf(path, size, "%s/%s", dir, PERSIST_FILE);
	return path;
}

/*
 * Inside dyndbg="..." a double quote would end the value: the query
 * language takes single quotes as well.
 */
static void quote_query(char *q)
{
	for (; *q; q++)
		if (*q == '"')
			*q = '\'';
}

static int list_lines(const char *path)
{
	struct text t = {};
	int ret = read_file(path, &t);

	if (ret == -ENOENT)
		return 0;
	if (ret) {
		fprintf(stderr, "dyndbg: %s: %s\n", path, strerror(-ret));
		return 1;
	}
	fputs(t.buf ? t.buf : "", stdout);
	text_free(&t);
	return 0;
}

/* Rewrite @path without the lines for @module; add @line if not NULL. */
static int rewrite(const char *path, const char *module, const char *line)
{
	struct text t = {}, out = {};
	char prefix[160], tmp[4200], *l, *next;
	int ret = read_file(path, &t);
	FILE *f;

	if (ret && ret != -ENOENT) {
		fprintf(stderr, "dyndbg: %s: %s\n", path, strerror(-ret));
		return 1;
	}
	snprintf(prefix, sizeof(prefix), "options %s dyndbg=", module);
	for (l = t.buf; l && *l; l = next) {
		next = strchr(l, '\n');
		if (next)
			*next++ = '\0';
		if (strncmp(l, prefix, strlen(prefix)))
			ret = text_append(&out, l, strlen(l)) ?:
			      text_append(&out, "\n", 1);
	}
	if (line)
		text_append(&out, line, strlen(line));
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f || fputs(out.buf ? out.buf : "", f) < 0 || fclose(f) ||
	    rename(tmp, path)) {
		fprintf(stderr, "dyndbg: %s: %s\n", path, strerror(errno));
		ret = 1;
	} else {
		ret = 0;
	}
	text_free(&t);
	text_free(&out);
	return ret;
}

int do_persist(int argc, char **argv)
{
	const char *module = NULL, *dir = NULL, *remove = NULL;
	char path[4096], line[4096];
	bool boot = false, list = false;
	char *query;
	int i, n = 0;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--module") && i + 1 < argc)
			module = argv[++i];
		else if (!strcmp(argv[i], "--dir") && i + 1 < argc)
			dir = argv[++i];
		else if (!strcmp(argv[i], "--remove") && i + 1 < argc)
			remove = argv[++i];
		else if (!strcmp(argv[i], "--boot"))
			boot = true;
		else if (!strcmp(argv[i], "--list"))
			list = true;
		else
			argv[n++] = argv[i];
	}
	persist_path(dir, path, sizeof(path));
	if (list)
		return list_lines(path);
	if (remove)
		return rewrite(path, remove, NULL);
	if (!module || n < 1)
		return usage_error("persist: QUERY FLAGS --module M is needed");
	if (strpbrk(module, " \t\"'="))
		return usage_error("persist: bad module name '%s'", module);
	query = join_args(n, argv);
	if (!query)
		return 1;
	quote_query(query);
	if (boot) {
		printf("%s.dyndbg=\"%s\"\n", module, query);
		free(query);
		return 0;
	}
	snprintf(line, sizeof(line), "options %s dyndbg=\"%s\"\n", module, query);
	free(query);
	if (rewrite(path, module, line))
		return 1;
	printf("%s: %s", path, line);
	return 0;
}
