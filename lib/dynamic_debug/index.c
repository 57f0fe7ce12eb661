// SPDX-License-Identifier: GPL-2.0
/*
 * The per-table index of dynamic debug call sites: runs of consecutive sites
 * that share a file and a function, sorted by function name and by file
 * base name, so that "func NAME" and "file NAME" queries find their sites
 * by binary search instead of visiting every site.
 */

#define pr_fmt(fmt) "dyndbg: " fmt

#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>

#include <kunit/visibility.h>

#include "ddebug.h"

/* ===================== building ===================== */

/*
 * The compiler merges equal string literals of an object file, so the
 * names of neighbouring sites are mostly one string: compare addresses
 * before text.  A module's modfile string also names its file.
 */
static bool same_name(const char *a, const char *b)
{
	return a == b || !strcmp(a, b);
}

static bool same_run(const struct _ddebug *a, const struct _ddebug *b)
{
	return same_name(site_function(a), site_function(b)) &&
	       (site_modname(a) == site_modname(b) ||
		!strcmp(site_filename(a), site_filename(b)));
}

static unsigned int count_runs(const struct ddebug_table *dt)
{
	unsigned int i, n = 1;

	for (i = 1; i < dt->num_sites; i++)
		n += !same_run(&dt->sites[i - 1], &dt->sites[i]);
	return n;
}

static void fill_runs(struct ddebug_table *dt)
{
	struct ddebug_index *ix = &dt->index;
	unsigned int i, r = 0;

	ix->runs[0].first = 0;
	for (i = 1; i < dt->num_sites; i++) {
		if (same_run(&dt->sites[i - 1], &dt->sites[i]))
			continue;
		ix->runs[r].count = i - ix->runs[r].first;
		ix->runs[++r].first = i;
	}
	ix->runs[r].count = dt->num_sites - ix->runs[r].first;
}

/* The names a run is sorted and searched by. */
static const char *run_function(const struct ddebug_table *dt, u32 run)
{
	return site_function(&dt->sites[dt->index.runs[run].first]);
}

static const char *run_file(const struct ddebug_table *dt, u32 run)
{
	return kbasename(site_filename(&dt->sites[dt->index.runs[run].first]));
}

static int cmp_by_function(const void *a, const void *b, const void *priv)
{
	const char *fa = run_function(priv, *(const u32 *)a);
	const char *fb = run_function(priv, *(const u32 *)b);

	return fa == fb ? 0 : strcmp(fa, fb);
}

static int cmp_by_file(const void *a, const void *b, const void *priv)
{
	const struct ddebug_table *dt = priv;
	const struct _ddebug *da = &dt->sites[dt->index.runs[*(const u32 *)a].first];
	const struct _ddebug *db = &dt->sites[dt->index.runs[*(const u32 *)b].first];

	if (site_modname(da) == site_modname(db))
		return 0;
	return strcmp(run_file(dt, *(const u32 *)a), run_file(dt, *(const u32 *)b));
}

static void sort_runs(struct ddebug_table *dt, u32 *order,
		      cmp_r_func_t cmp)
{
	u32 i;

	for (i = 0; i < dt->index.nr_runs; i++)
		order[i] = i;
	sort_r(order, dt->index.nr_runs, sizeof(*order), cmp, NULL, dt);
}

/**
 * ddebug_index_build - index the sites of a table
 * @dt: the table, with its sites set and its index empty
 *
 * Work is O(S + R log R) for S sites in R runs; memory is 16 bytes per run.
 * Context: may sleep.
 * Return: 0, or -ENOMEM.
 */
int ddebug_index_build(struct ddebug_table *dt)
{
	struct ddebug_index *ix = &dt->index;
	unsigned int n;
	void *mem;

	memset(ix, 0, sizeof(*ix));
	if (!dt->num_sites)
		return 0;

	n = count_runs(dt);
	mem = kvmalloc_array(n, sizeof(*ix->runs) + 2 * sizeof(u32),
			     GFP_KERNEL);
	if (!mem)
		return -ENOMEM;
	ix->runs = mem;
	ix->by_function = (u32 *)(ix->runs + n);
	ix->by_file = ix->by_function + n;
	ix->nr_runs = n;

	fill_runs(dt);
	sort_runs(dt, ix->by_function, cmp_by_function);
	sort_runs(dt, ix->by_file, cmp_by_file);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ddebug_index_build);

/**
 * ddebug_index_free - release the index of a table
 * @dt: the table
 */
void ddebug_index_free(struct ddebug_table *dt)
{
	kvfree(dt->index.runs);
	memset(&dt->index, 0, sizeof(dt->index));
}
EXPORT_SYMBOL_IF_KUNIT(ddebug_index_free);

/**
 * ddebug_index_bytes - memory the index of a table uses
 * @dt: the table
 *
 * Return: the size of its allocation, in bytes.
 */
size_t ddebug_index_bytes(const struct ddebug_table *dt)
{
	return dt->index.nr_runs * (sizeof(*dt->index.runs) + 2 * sizeof(u32));
}

/* ===================== lookup ===================== */

static bool is_literal(const char *pattern)
{
	return !strpbrk(pattern, "*?");
}

/* First position in @order whose name is not below @name. */
static u32 lower_bound(const struct ddebug_table *dt, const u32 *order,
		       const char *(*name_of)(const struct ddebug_table *, u32),
		       const char *name, bool inclusive)
{
	u32 lo = 0, hi = dt->index.nr_runs, mid;
	int c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = strcmp(name_of(dt, order[mid]), name);
		if (c < 0 || (inclusive && c == 0))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void equal_range(const struct ddebug_table *dt, const u32 *order,
			const char *(*name_of)(const struct ddebug_table *, u32),
			const char *name, struct ddebug_runs *out)
{
	out->order = order;
	out->pos = lower_bound(dt, order, name_of, name, false);
	out->end = lower_bound(dt, order, name_of, name, true);
}

/**
 * ddebug_index_candidates - the runs of a table a query may select
 * @dt: the table
 * @q: the query
 * @out: set to the runs to visit
 *
 * A literal function name, or else a literal file name (by its base name),
 * is looked up in the index; otherwise every run is a candidate.  The
 * candidates are a superset of the matching sites: callers still check
 * every selector.  O(log R) for R runs.
 */
void ddebug_index_candidates(const struct ddebug_table *dt,
			     const struct ddebug_query *q,
			     struct ddebug_runs *out)
{
	const struct ddebug_index *ix = &dt->index;

	if (q->func && is_literal(q->func)) {
		equal_range(dt, ix->by_function, run_function, q->func, out);
	} else if (q->file && is_literal(q->file)) {
		equal_range(dt, ix->by_file, run_file, kbasename(q->file),
			    out);
	} else {
		out->order = NULL;
		out->pos = 0;
		out->end = ix->nr_runs;
	}
}
EXPORT_SYMBOL_IF_KUNIT(ddebug_index_candidates);
