// SPDX-License-Identifier: GPL-2.0
/*
 * The per-table index of dynamic debug call sites: runs of consecutive sites
 * that share a file and a function, ordered by the hash of the function
 * name and by that of the file base name, so that "func NAME" and "file
 * NAME" queries find their sites by binary search instead of visiting
 * every site.  The orders are sorted when first needed.
 */

#define pr_fmt(fmt) "dyndbg: " fmt

#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/stringhash.h>

#include <kunit/visibility.h>

#include "ddebug.h"

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
		!strcmp(site_raw_file(a), site_raw_file(b)));
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
	return kbasename(site_raw_file(&dt->sites[dt->index.runs[run].first]));
}

/*
 * Runs are ordered by the hash of their name alone: a lookup hashes its
 * name once and finds the runs of that hash, a superset of the runs of
 * that name (a collision only adds candidates, which the walk checks like
 * any other).  Sorting integers needs no comparison of names, which share
 * long prefixes in big modules, and each run keeps its hash beside it, so
 * that a lookup hashes no other name.
 */

/**
 * ddebug_name_hash - the hash the index sorts and finds names by
 * @name: a function, file or module name
 *
 * Return: the hash; equal names have equal hashes.
 */
u32 ddebug_name_hash(const char *name)
{
	return hashlen_hash(hashlen_string(NULL, name));
}
EXPORT_SYMBOL_IF_KUNIT(ddebug_name_hash);

/* Bits of the hash sorted by one pass of the radix sort. */
#define RADIX_BITS	4
#define RADIX_PASSES	(32 / RADIX_BITS)

/*
 * Sort @keys by hash: a radix sort, RADIX_BITS at a time from the lowest,
 * through @tmp and back (an even number of passes).  O(n) for n keys,
 * with a few bytes of stack, where a comparison sort would call its
 * compare function n log n times.
 */
static void sort_keys(struct ddebug_run_key *keys, struct ddebug_run_key *tmp, u32 n)
{
	struct ddebug_run_key *from = keys, *to = tmp, *t;
	u32 count[1 << RADIX_BITS], i, pos, c, digit;
	unsigned int pass, shift;

	BUILD_BUG_ON(RADIX_PASSES % 2);
	for (pass = 0; pass < RADIX_PASSES; pass++) {
		shift = pass * RADIX_BITS;
		memset(count, 0, sizeof(count));
		for (i = 0; i < n; i++)
			count[(from[i].hash >> shift) & (ARRAY_SIZE(count) - 1)]++;
		for (digit = 0, pos = 0; digit < ARRAY_SIZE(count); digit++) {
			c = count[digit];
			count[digit] = pos;
			pos += c;
		}
		for (i = 0; i < n; i++) {
			digit = (from[i].hash >> shift) & (ARRAY_SIZE(count) - 1);
			to[count[digit]++] = from[i];
		}
		t = from;
		from = to;
		to = t;
	}
}

/* Fill @order with the runs sorted by the hash of @name_of, through @tmp. */
static void sort_runs(struct ddebug_table *dt, struct ddebug_run_key *order,
		      const char *(*name_of)(const struct ddebug_table *, u32),
		      struct ddebug_run_key *tmp)
{
	u32 i, n = dt->index.nr_runs;

	for (i = 0; i < n; i++) {
		order[i].run = i;
		order[i].hash = ddebug_name_hash(name_of(dt, i));
	}
	sort_keys(order, tmp, n);
}

/*
 * Sort the runs by function and by file, the first time a query looks a
 * name up in @dt: most tables are never searched by name, and a module
 * load then pays only for cutting its sites into runs.
 */
static int index_sort(struct ddebug_table *dt)
{
	struct ddebug_index *ix = &dt->index;
	struct ddebug_run_key *orders, *tmp;

	orders = kvmalloc_array(ix->nr_runs, 2 * sizeof(*orders), GFP_KERNEL);
	tmp = kvmalloc_array(ix->nr_runs, sizeof(*tmp), GFP_KERNEL);
	if (!orders || !tmp) {
		kvfree(orders);
		kvfree(tmp);
		return -ENOMEM;
	}
	sort_runs(dt, orders, run_function, tmp);
	sort_runs(dt, orders + ix->nr_runs, run_file, tmp);
	kvfree(tmp);
	ix->by_function = orders;
	ix->by_file = orders + ix->nr_runs;
	ddebug_vlog(DDEBUG_V_MODULES, "%s: index sorted, %zu bytes\n",
		    dt->mod_name, ddebug_index_bytes(dt));
	return 0;
}

/**
 * ddebug_index_build - cut the sites of a table into runs
 * @dt: the table, with its sites set and its index empty
 *
 * O(S) for S sites; 8 bytes per run.  The orders by function and by file
 * (16 more bytes per run, and 8 per run while sorting, O(R) for R runs)
 * wait for the first query that looks a name up in the table.
 * Context: may sleep.
 * Return: 0, or -ENOMEM.
 */
int ddebug_index_build(struct ddebug_table *dt)
{
	struct ddebug_index *ix = &dt->index;
	unsigned int n;

	memset(ix, 0, sizeof(*ix));
	ix->module_hash = ddebug_name_hash(dt->mod_name);
	if (!dt->num_sites)
		return 0;

	n = count_runs(dt);
	ix->runs = kvmalloc_array(n, sizeof(*ix->runs), GFP_KERNEL);
	if (!ix->runs)
		return -ENOMEM;
	ix->nr_runs = n;
	fill_runs(dt);
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
	kvfree(dt->index.by_function);
	memset(&dt->index, 0, sizeof(dt->index));
}
EXPORT_SYMBOL_IF_KUNIT(ddebug_index_free);

/**
 * ddebug_index_bytes - memory the index of a table takes once searched
 * @dt: the table
 *
 * Return: the size of its runs and of both orders, in bytes, whether the
 * orders are sorted yet or not.
 */
size_t ddebug_index_bytes(const struct ddebug_table *dt)
{
	return dt->index.nr_runs * (sizeof(*dt->index.runs) +
				    2 * sizeof(*dt->index.by_function));
}

/**
 * ddebug_name_is_literal - whether a query's pattern matches one name only
 * @pattern: a name or a pattern with wildcards
 *
 * Return: true if @pattern has no wildcard.
 */
bool ddebug_name_is_literal(const char *pattern)
{
	/* A loop of two compares: strpbrk() walks its set for every byte. */
	for (; *pattern; pattern++)
		if (*pattern == '*' || *pattern == '?')
			return false;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(ddebug_name_is_literal);

/* First position in @order whose hash is not below @hash (above, if @after). */
static u32 lower_bound(const struct ddebug_table *dt,
		       const struct ddebug_run_key *order, u32 hash, bool after)
{
	u32 lo = 0, hi = dt->index.nr_runs, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (order[mid].hash < hash ||
		    (after && order[mid].hash == hash))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The runs of @order whose name hashes as @out's name does. */
static void equal_range(const struct ddebug_table *dt,
			const struct ddebug_run_key *order,
			struct ddebug_runs *out)
{
	out->order = order;
	out->pos = lower_bound(dt, order, out->hash, false);
	out->end = lower_bound(dt, order, out->hash, true);
}

/*
 * The name @q looks up in the index: a literal function name, or else a
 * literal file name (by its base name), or none.
 */
static void choose_name(const struct ddebug_query *q, struct ddebug_runs *out)
{
	out->chosen = true;
	out->by_file = false;
	out->name = NULL;
	if (q->func && ddebug_name_is_literal(q->func)) {
		out->name = q->func;
	} else if (q->file && ddebug_name_is_literal(q->file)) {
		out->name = kbasename(q->file);
		out->by_file = true;
	}
	if (out->name)
		out->hash = ddebug_name_hash(out->name);
}

/* Work, in sites looked at, of sorting both orders of @nr runs. */
static unsigned int sort_work(u32 nr)
{
	return 2 * nr * (RADIX_PASSES + 1);
}

/**
 * ddebug_index_candidates - the runs of a table a query may select
 * @dt: the table
 * @q: the query
 * @out: set to the runs to visit; zeroed by the caller before the first
 *	table of a walk, it keeps the name looked up from table to table
 *
 * A literal function name, or else a literal file name (by its base name),
 * is looked up in the index, which is sorted on the first such lookup;
 * otherwise, or when there is no memory to sort it, every run is a
 * candidate.  The candidates are a superset of the matching sites: callers
 * still check every selector.  O(log R) for R runs once sorted, O(R) for
 * the lookup that sorts.
 * Context: ddebug_lock held, or @dt private to the caller; may sleep.
 * Return: the work done, in sites a walk could have looked at meanwhile:
 * large for the lookup that sorted the index, small otherwise.
 */
unsigned int ddebug_index_candidates(struct ddebug_table *dt,
				     const struct ddebug_query *q,
				     struct ddebug_runs *out)
{
	const struct ddebug_index *ix = &dt->index;
	unsigned int work = 0;

	if (!out->chosen)
		choose_name(q, out);
	out->order = NULL;
	out->pos = 0;
	out->end = ix->nr_runs;
	if (!out->name)
		return 0;
	if (!ix->by_function && ix->nr_runs) {
		work = sort_work(ix->nr_runs);
		if (index_sort(dt))
			return work;
	}
	equal_range(dt, out->by_file ? ix->by_file : ix->by_function, out);
	return work + 2 * (ilog2(ix->nr_runs) + 1);
}
EXPORT_SYMBOL_IF_KUNIT(ddebug_index_candidates);
