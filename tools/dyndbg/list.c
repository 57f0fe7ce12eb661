// SPDX-License-Identifier: GPL-2.0
/* list, on, off, set: what a query selects, and changing it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dyndbg.h"

static void print_sites(const struct site *s, int n)
{
	int i;

	if (json_output) {
		json_sites(s, n);
		return;
	}
	for (i = 0; i < n; i++)
		printf("%s [%s]%s =%s %s\n", s[i].where, s[i].module,
		       s[i].func, s[i].flags, s[i].format);
}

int kernel_error(const char *what, int err)
{
	if (err == -EACCES || err == -EPERM)
		fprintf(stderr, "dyndbg: %s: permission denied (run as root)\n",
			what);
	else if (err == -ENOENT)
		fprintf(stderr, "dyndbg: %s: %s/ not found (%s)\n",
			what, ddebug_dir(), "is debugfs mounted? try 'dyndbg doctor'");
	else if (err == -EINVAL)
		fprintf(stderr, "dyndbg: %s: the kernel rejected the query (see dmesg for why)\n",
			what);
	else
		fprintf(stderr, "dyndbg: %s: %s\n", what, strerror(-err));
	return 1;
}

/* The sites @query selects with its current flags ("+_" changes nothing). */
int query_sites(const char *query, const char *flags, struct text *t,
		struct site **sites)
{
	char *q = malloc(strlen(query) + strlen(flags) + 2);
	int ret;

	if (!q)
		return -ENOMEM;
	sprintf(q, "%s %s", query, flags);
	ret = ddebug_preview(q, t);
	free(q);
	if (ret)
		return ret;
	return sites_split(t, sites, false);
}

int do_list(int argc, char **argv)
{
	struct text t = {};
	struct site *s = NULL;
	bool enabled = false;
	char *query;
	int n, ret;

	if (argc && !strcmp(argv[0], "--enabled")) {
		enabled = true;
		argc--;
		argv++;
	}
	query = join_args(argc, argv);
	if (!query)
		return 1;
	if (*query)
		n = query_sites(query, "+_", &t, &s);
	else
		n = ddebug_read(enabled ? "enabled" : "control", &t) ?:
		    sites_split(&t, &s, false);
	if (n < 0)
		return kernel_error("list", n);
	if (enabled && *query) {
		int i, k = 0;

		for (i = 0; i < n; i++)
			if (strcmp(s[i].flags, "_"))
				s[k++] = s[i];
		n = k;
	}
	print_sites(s, n);
	ret = 0;
	free(s);
	free(query);
	text_free(&t);
	return ret;
}

/* Why nothing matched: name a module that is not loaded. */
static void explain_nothing(const char *query)
{
	const char *m = strstr(query, "module ");
	char name[128] = "", pat[160];
	struct text t = {};

	printf("no site matched '%s'\n", query);
	if (!m || sscanf(m + 7, "%127s", name) != 1)
		return;
	snprintf(pat, sizeof(pat), "[%s]", name);
	if (ddebug_read("control", &t) == 0 && !strstr(t.buf, pat) &&
	    !strpbrk(name, "*?"))
		printf("module %s is not loaded; %s: dyndbg persist '%s' FLAGS --module %s\n",
		       name, "to apply at its next load", query, name);
	text_free(&t);
}

/* Apply @flags to @query; report matched and changed. */
int do_set(int argc, char **argv, const char *flags)
{
	struct text now = {}, then = {};
	struct site *a = NULL, *b = NULL;
	char *query, *q;
	int n, m, i, changed = 0, ret = 0;

	if (argc < 1)
		return usage_error("a QUERY is needed");
	query = join_args(argc, argv);
	if (!query)
		return 1;
	n = query_sites(query, "+_", &now, &a);
	m = n < 0 ? n : query_sites(query, flags, &then, &b);
	if (n < 0 || m < 0) {
		ret = kernel_error("query", n < 0 ? n : m);
		goto out;
	}
	for (i = 0; i < n && i < m; i++) {
		if (strcmp(a[i].flags, b[i].flags)) {
			changed++;
			if (dry_run)
				print_sites(&b[i], 1);
		}
	}
	if (!dry_run && n) {
		q = malloc(strlen(query) + strlen(flags) + 2);
		if (!q) {
			ret = 1;
			goto out;
		}
		sprintf(q, "%s %s", query, flags);
		ret = ddebug_write("control", q);
		free(q);
		if (ret) {
			ret = kernel_error("control", ret);
			goto out;
		}
	}
	if (!n)
		explain_nothing(query);
	else if (json_output)
		printf("{\"matched\":%d,\"changed\":%d,\"dry_run\":%s}\n",
		       n, changed, dry_run ? "true" : "false");
	else
		printf("%d sites matched, %d %s\n", n, changed,
		       dry_run ? "would change" : "changed");
out:
	free(a);
	free(b);
	free(query);
	text_free(&now);
	text_free(&then);
	return ret;
}
