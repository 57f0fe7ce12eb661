// SPDX-License-Identifier: GPL-2.0
/* top: the sites that fired most, from the kernel's hit counts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dyndbg.h"

struct sample {
	struct text t;
	struct site *s;
	int n;
};

static int sample_take(struct sample *sm)
{
	int ret;

	memset(sm, 0, sizeof(*sm));
	ret = ddebug_read("hits", &sm->t);
	if (ret)
		return ret;
	sm->n = sites_split(&sm->t, &sm->s, true);
	return sm->n < 0 ? sm->n : 0;
}

static void sample_free(struct sample *sm)
{
	free(sm->s);
	text_free(&sm->t);
}

/* @after's sites with the hits since @before, in a new array. */
static struct site *sample_delta(const struct sample *after,
				 const struct sample *before)
{
	struct site *d = malloc((after->n + 1) * sizeof(*d));
	int i, j;

	if (!d)
		return NULL;
	for (i = 0; i < after->n; i++) {
		d[i] = after->s[i];
		for (j = 0; j < before->n; j++)
			if (!strcmp(d[i].where, before->s[j].where) &&
			    !strcmp(d[i].func, before->s[j].func)) {
				d[i].hits -= before->s[j].hits;
				break;
			}
	}
	return d;
}

static int by_hits(const void *a, const void *b)
{
	const struct site *x = a, *y = b;

	return x->hits < y->hits ? 1 : x->hits > y->hits ? -1 : 0;
}

static void show(struct site *s, int n, int max, double interval)
{
	int i, k = 0;

	qsort(s, n, sizeof(*s), by_hits);
	for (i = 0; i < n && i < max && s[i].hits; i++)
		k++;
	if (json_output) {
		json_sites(s, k);
		return;
	}
	printf("%8s %-8s %s (last %.1fs)\n", "HITS", "FLAGS", "SITE", interval);
	for (i = 0; i < k; i++)
		printf("%8lu %-8s %s [%s]%s %s\n", s[i].hits, s[i].flags,
		       s[i].where, s[i].module, s[i].func, s[i].format);
}

int do_top(int argc, char **argv)
{
	struct sample before, after;
	double interval = 1;
	bool once = false;
	int i, max = 10, ret;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--once"))
			once = true;
		else if (!strcmp(argv[i], "-n") && i + 1 < argc)
			max = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--interval") && i + 1 < argc)
			interval = atof(argv[++i]);
		else
			return usage_error("top: unknown argument '%s'", argv[i]);
	}
	if (max <= 0 || interval < 0)
		return usage_error("top: -n and --interval must be positive");
	ret = sample_take(&before);
	if (ret)
		return kernel_error("hits", ret);
	for (;;) {
		struct site *d;

		usleep((useconds_t)(interval * 1e6));
		ret = sample_take(&after);
		if (ret) {
			sample_free(&before);
			return kernel_error("hits", ret);
		}
		d = sample_delta(&after, &before);
		if (d) {
			if (!once && !json_output)
				printf("\033[H\033[2J");
			show(d, after.n, max, interval);
			fflush(stdout);
			free(d);
		}
		sample_free(&before);
		before = after;
		if (once || !d)
			break;
	}
	sample_free(&before);
	return 0;
}
