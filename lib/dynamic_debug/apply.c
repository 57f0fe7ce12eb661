// SPDX-License-Identifier: GPL-2.0
/*
 * Matching parsed queries against call sites and applying their flags, a
 * bounded amount of work per hold of the lock, with the code of changed
 * sites patched in batches; ddebug_exec() runs a whole text, all or nothing.
 */

#define pr_fmt(fmt) "dyndbg: " fmt

#include <linux/ctype.h>
#include <linux/jump_label.h>
#include <linux/kernel.h>
#include <linux/lockdep.h>
#include <linux/parser.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <kunit/static_stub.h>
#include <kunit/visibility.h>

#include "ddebug.h"

/* Matching */

static bool file_matches(const char *pattern, const struct _ddebug *dp)
{
	return match_wildcard(pattern, site_raw_file(dp)) ||
	       match_wildcard(pattern, kbasename(site_raw_file(dp))) ||
	       match_wildcard(pattern, ddebug_site_file(dp));
}

/*
 * Whether @format contains @pattern.  strstr() measures the whole format,
 * then calls memcmp() at every position; a scan of all 100,000 formats of
 * a big module for text that none has spends its time there.  Jumping
 * from one occurrence of the pattern's first byte to the next compares
 * only where a match can start.
 */
static bool format_matches(const char *pattern, const char *format)
{
	size_t len = 0;

	if (*pattern == '^')
		return !strncmp(format, pattern + 1, strlen(pattern + 1));
	/* Measured only at a first candidate: most formats have none. */
	for (; (format = strchr(format, *pattern)); format++) {
		if (!len)
			len = strlen(pattern);
		if (!strncmp(format, pattern, len))
			return true;
	}
	return false;
}

/*
 * The letter after a backslash that stands for @c in the control listing
 * (see show_format() in control.c), or 0 if @c is shown as it is.
 */
static char listing_escape(char c)
{
	switch (c) {
	case '\t':
		return 't';
	case '\r':
		return 'r';
	case '\n':
		return 'n';
	default:
		return 0;
	}
}

/*
 * Whether @format, escaped as the control listing shows it, is exactly
 * @listed.  Compared as shown, not unescaped: two formats the listing
 * shows alike (a tab, and a backslash before a 't') both match.
 */
static bool listed_format_matches(const char *listed, const char *format)
{
	char esc;

	for (; *format; format++) {
		esc = listing_escape(*format);
		if (!esc) {
			if (*listed++ != *format)
				return false;
		} else if (listed[0] == '\\' && listed[1] == esc) {
			listed += 2;
		} else {
			return false;
		}
	}
	return !*listed;
}

/* The selectors that sites of one run share: function and file. */
static bool run_matches(const struct _ddebug *dp, const struct ddebug_query *q)
{
	if (q->func && !match_wildcard(q->func, site_function(dp)))
		return false;
	return !q->file || file_matches(q->file, dp);
}

/*
 * The selectors checked site by site.  A query without "class" never
 * selects a site that has one.
 */
static bool site_matches(const struct _ddebug *dp,
			 const struct ddebug_query *q, int class_id)
{
	if (site_class(dp) != class_id)
		return false;
	if (q->first_line && site_lineno(dp) < q->first_line)
		return false;
	if (q->last_line && site_lineno(dp) > q->last_line)
		return false;
	if (q->listed_format &&
	    !listed_format_matches(q->listed_format, site_format(dp)))
		return false;
	return !q->format || format_matches(q->format, site_format(dp));
}

/*
 * Class id that @q selects in @dt: negative if @dt cannot match.  A
 * literal module name (@literal) is compared as a string.
 */
static int query_class_in(const struct ddebug_table *dt,
			  const struct ddebug_query *q, bool literal)
{
	if (q->module && (literal ? strcmp(q->module, dt->mod_name) :
			  !match_wildcard(q->module, dt->mod_name)))
		return -ENOENT;
	if (q->has_class_id)
		return q->class_id;
	if (!q->class_name)
		return _DPRINTK_CLASS_DFLT;
	return ddebug_class_id(dt, q->class_name);
}

/* Changing sites */

/*
 * Static keys whose sites changed, patched together by one call of
 * static_keys_update() before ddebug_lock is dropped.  A query switches
 * every key it changes the same way, so one direction is enough.
 * Protected by ddebug_lock.
 */
#ifdef CONFIG_JUMP_LABEL
#define PENDING_KEYS	(PAGE_SIZE / sizeof(struct static_key *))
static struct static_key *pending_keys[PENDING_KEYS];
static unsigned int nr_pending_keys;
static bool pending_on;

/* Inline: every hold of the lock ends with it, most with no key queued. */
static __always_inline void keys_flush(void)
{
	lockdep_assert_held(&ddebug_lock);
	if (!nr_pending_keys)
		return;
	static_keys_update(pending_keys, nr_pending_keys, pending_on);
	nr_pending_keys = 0;
}

static void key_queue(struct _ddebug *dp, bool on)
{
	lockdep_assert_held(&ddebug_lock);
	if (nr_pending_keys &&
	    (pending_on != on || nr_pending_keys == PENDING_KEYS))
		keys_flush();
	pending_on = on;
	/* Both key types share struct static_key; either member works. */
	pending_keys[nr_pending_keys++] = &dp->key.dflt_on.key;
}
#else
static void keys_flush(void)
{
}

static void key_queue(struct _ddebug *dp, bool on)
{
}
#endif /* CONFIG_JUMP_LABEL */

static void log_change(const struct ddebug_table *dt, const struct _ddebug *dp,
		       unsigned int newflags)
{
	char was[DDEBUG_FLAGS_BUFSZ], now[DDEBUG_FLAGS_BUFSZ];

	ddebug_vlog(DDEBUG_V_SITES, "changed %s:%u [%s]%s =%s => =%s\n",
		    ddebug_site_file(dp), site_lineno(dp), dt->mod_name,
		    site_function(dp),
		    ddebug_flags_describe(site_flags(dp), was, sizeof(was)),
		    ddebug_flags_describe(newflags, now, sizeof(now)));
}

/* What ddebug_state_prepare() lacked memory for; 'r' is then not set. */
static void warn_lacking(const struct ddebug_table *dt,
			 const struct _ddebug *dp, unsigned int lacking)
{
	if (lacking & _DPRINTK_FLAGS_ENABLED)
		pr_warn_once("%s: no memory to count hits\n", dt->mod_name);
	if (lacking & DDEBUG_FLAG(RATELIMIT))
		pr_warn_ratelimited("%s:%u: no memory for a rate limit, 'r' not set\n",
				    ddebug_site_file(dp), site_lineno(dp));
}

/*
 * Give a matching site the flags @q asks for; true if they changed.  The
 * site calls out of line while it prints or traces; what its flags need
 * (counters, a rate limit) is there before they are set.
 */
static bool site_apply(struct ddebug_table *dt, struct _ddebug *dp,
		       const struct ddebug_query *q)
{
	unsigned int oldflags = site_flags(dp);
	unsigned int newflags = (oldflags & q->mask) | q->set;
	bool was_on = oldflags & _DPRINTK_FLAGS_ENABLED;
	/* Decorations alone need no state and patch no code. */
	bool stateful = (oldflags | newflags) & DDEBUG_STATE_FLAGS;
	unsigned int lacking = 0;
	bool now_on;

	if (newflags == oldflags)
		return false;
	if (stateful)
		lacking = ddebug_state_prepare(dt, dp, newflags);
	if (lacking) {
		warn_lacking(dt, dp, lacking);
		newflags &= ~(lacking & DDEBUG_FLAG(RATELIMIT));
	}
	now_on = newflags & _DPRINTK_FLAGS_ENABLED;
	log_change(dt, dp, newflags);
	site_flags_set(dp, newflags);
	if (!stateful)
		return true;
	ddebug_state_release(dt, dp, oldflags);
	if (!dt->keyless && now_on != was_on)
		key_queue(dp, now_on);
	return true;
}

/* Walking a query */

/*
 * Work done under one hold of ddebug_lock: a site looked at counts one, a
 * site changed eight more (its code is patched before the lock is dropped),
 * a table entered one, plus what finding its candidates took.
 */
#define WORK_PER_HOLD	4096
#define WORK_PER_CHANGE	8
/* Looking a class name up in one table's maps. */
#define WORK_PER_CLASS_MAP	8

/**
 * struct apply_walk - where a query's walk over the tables is
 * @tables: the list walked
 * @dt: current table, NULL at the end
 * @id: registration number of @dt, to resume after the lock was dropped
 * @gen: ddebug_tables_gen when @dt was known to be listed
 * @class_id: the class id @q selects in @dt
 * @runs: the runs of @dt still to visit
 * @site: next site of the current run, relative to its first
 * @found: matching sites so far
 * @work: work done in the current hold of ddebug_lock
 * @by_module: the query names one module, whose name hashes to @module_hash
 * @module_hash: see @by_module
 * @dry: only count the matching sites, change none
 * @visit: if set, called for each matching site (a preview)
 * @arg: passed to @visit
 */
struct apply_walk {
	struct list_head *tables;
	struct ddebug_table *dt;
	u64 id;
	unsigned long gen;
	int class_id;
	struct ddebug_runs runs;
	u32 site;
	unsigned int found;
	unsigned int work;
	bool by_module;
	u32 module_hash;
	bool dry;
	ddebug_visit_fn visit;
	void *arg;
};

/*
 * @dt, or the first table after it that may hold the query's sites.  A
 * query naming one module passes the tables of others on the hash of
 * their name, a few instructions each, uncounted.
 */
static struct ddebug_table *walk_candidate(const struct apply_walk *w,
					   struct ddebug_table *dt)
{
	while (w->by_module && dt->index.module_hash != w->module_hash) {
		if (list_is_last(&dt->link, w->tables))
			return NULL;
		dt = list_next_entry(dt, link);
	}
	return dt;
}

static struct ddebug_table *walk_next_table(const struct apply_walk *w)
{
	return list_is_last(&w->dt->link, w->tables) ? NULL :
	       walk_candidate(w, list_next_entry(w->dt, link));
}

/*
 * Make @dt current, with the runs @q may select in it (none if it cannot
 * match).  Looking up a class name, and the first lookup of a literal
 * name, which sorts the table's index, count as work of this hold.
 */
static void walk_enter(struct apply_walk *w, struct ddebug_table *dt,
		       const struct ddebug_query *q)
{
	w->dt = dt;
	if (!dt)
		return;
	w->id = dt->id;
	w->site = 0;
	w->runs.order = NULL;
	w->runs.pos = 0;
	w->runs.end = 0;
	w->class_id = query_class_in(dt, q, w->by_module);
	w->work += 1 + (q->class_name ? dt->num_maps * WORK_PER_CLASS_MAP : 0);
	if (w->class_id >= 0)
		w->work += ddebug_index_candidates(dt, q, &w->runs);
}

/* Find the walk's place again after ddebug_lock was dropped and retaken. */
static void walk_resume(struct apply_walk *w, const struct ddebug_query *q)
{
	struct ddebug_table *dt;

	if (!w->dt || w->tables != &ddebug_tables ||
	    w->gen == ddebug_tables_gen)
		return;
	w->gen = ddebug_tables_gen;
	dt = ddebug_table_next(w->tables, w->id - 1);
	if (dt && dt->id == w->id)
		return;		/* still listed: the same table, unchanged */
	walk_enter(w, dt, q);
}

/*
 * Visit the current run from its next site on, until the hold's work is
 * done.  The walk's counters stay in locals in the loop, which every
 * query over a whole module runs once per site.
 */
static void walk_run(struct apply_walk *w, const struct ddebug_query *q)
{
	struct ddebug_table *dt = w->dt;
	u32 r = ddebug_runs_at(&w->runs, w->runs.pos);
	const struct ddebug_run *run = &dt->index.runs[r];
	struct _ddebug *dp = &dt->sites[run->first];
	u32 site = w->site, count = run->count;
	unsigned int work = w->work + 1, found = 0;
	int class_id = w->class_id;

	if (!site && !run_matches(dp, q)) {
		w->work = work;
		w->runs.pos++;
		return;
	}
	for (dp += site; site < count && work < WORK_PER_HOLD;
	     site++, dp++, work++) {
		if (!site_matches(dp, q, class_id))
			continue;
		found++;
		if (w->visit)
			w->visit(w->arg, dt, dp,
				 (site_flags(dp) & q->mask) | q->set);
		if (!w->dry && site_apply(dt, dp, q))
			work += WORK_PER_CHANGE;
	}
	w->found += found;
	w->work = work;
	w->site = site;
	if (site == count) {
		w->site = 0;
		w->runs.pos++;
	}
}

/* One hold of the lock's worth of a query; false once the walk is done. */
static bool walk_some(struct apply_walk *w, const struct ddebug_query *q)
{
	walk_resume(w, q);
	while (w->dt && w->work < WORK_PER_HOLD) {
		if (w->runs.pos < w->runs.end)
			walk_run(w, q);
		else
			walk_enter(w, walk_next_table(w), q);
	}
	keys_flush();
	w->work = 0;
	return w->dt;
}

/*
 * Between two holds of ddebug_lock in a walk: where other tasks take it.
 * KUnit tests replace it to act at that point.
 */
VISIBLE_IF_KUNIT void ddebug_walk_pause(void)
{
	KUNIT_STATIC_STUB_REDIRECT(ddebug_walk_pause);
	cond_resched();
}
EXPORT_SYMBOL_IF_KUNIT(ddebug_walk_pause);

/*
 * Walk @q over @w's tables, changing the matching sites unless @w is dry
 * and calling its visitor, if any, for each of them.  ddebug_lock is held
 * for bounded work at a time (a few thousand sites looked at or changed),
 * and the code of the changed sites is patched as one batch before each
 * release, so that readers and module loading and unloading make progress
 * during a long query.  A literal function or file name is found through
 * the tables' indexes.
 */
static unsigned int walk_query(struct apply_walk *w,
			       const struct ddebug_query *q)
{
	struct ddebug_table *dt;

	w->by_module = q->module && ddebug_name_is_literal(q->module);
	if (w->by_module)
		w->module_hash = ddebug_name_hash(q->module);
	mutex_lock(&ddebug_lock);
	w->gen = ddebug_tables_gen;
	dt = list_first_entry_or_null(w->tables, struct ddebug_table, link);
	walk_enter(w, dt ? walk_candidate(w, dt) : NULL, q);
	while (walk_some(w, q)) {
		mutex_unlock(&ddebug_lock);
		ddebug_walk_pause();
		mutex_lock(&ddebug_lock);
	}
	mutex_unlock(&ddebug_lock);
	return w->found;
}

/**
 * ddebug_apply_query - apply one query to every site it matches
 * @tables: the registry, or a test's private list
 * @q: the query
 *
 * ddebug_lock is dropped every few thousand sites (see walk_query()): a
 * table added meanwhile may or may not be visited, one removed is not
 * visited further.
 *
 * Context: process context, ddebug_write_lock held, ddebug_lock not held;
 * sleeps.
 * Return: the number of matching sites, changed or not.
 */
unsigned int ddebug_apply_query(struct list_head *tables,
				const struct ddebug_query *q)
{
	struct apply_walk w = { .tables = tables };

	lockdep_assert_held(&ddebug_write_lock);
	return walk_query(&w, q);
}
EXPORT_SYMBOL_IF_KUNIT(ddebug_apply_query);

/* Checking a text */

/*
 * A listing line must name a site that exists: otherwise the saved setup
 * it belongs to does not fit this kernel, and nothing of it applies.
 */
static int site_exists(struct list_head *tables, const struct ddebug_query *q,
		       struct ddebug_parse_error *err)
{
	struct apply_walk w = { .tables = tables, .dry = true };

	if (walk_query(&w, q))
		return 0;
	err->reason = ddebug_module_listed(tables, q->module) ? DDEBUG_ERR_NO_SITE :
							 DDEBUG_ERR_NO_MODULE;
	err->word = q->file;
	err->module = q->module;
	err->func = q->func;
	err->site_line = q->first_line;
	return -EINVAL;
}

/*
 * Parse every query of @buf, and check that each listing line among them
 * names a site of @tables.  The sites may still go before the text
 * applies (a module unloading meanwhile): what is gone then is skipped.
 * The last query parsed is left in @q.
 */
static int check_text(struct list_head *tables, char *buf,
		      struct ddebug_query *q, unsigned int *count,
		      struct ddebug_parse_error *err)
{
	struct ddebug_parser ps;
	struct ddebug_query next;
	int ret;

	ddebug_parser_init(&ps, buf);
	while ((ret = ddebug_parse_next(&ps, &next, err)) > 0) {
		*q = next;
		if (!q->replay)
			continue;
		ret = site_exists(tables, q, err);
		if (ret) {
			err->query = ps.count;
			err->line = ps.query_line;
			return ret;
		}
	}
	*count = ps.count;
	return ret;
}

/*
 * Whether @text holds one query at most: nothing but blanks and query
 * ends follows its first query end.  A quoted or commented ';' makes it
 * look like more, which only costs the copy.
 */
static __always_inline bool at_most_one_query(const char *text)
{
	const char *end = strpbrk(text, ";\n");

	if (!end)
		return true;
	while (*end == ';' || isspace(*end))
		end++;
	return !*end;
}

static unsigned int run_one(struct list_head *tables, struct ddebug_query *q,
			    const char *modname, unsigned int nr)
{
	unsigned int n;

	if (modname && !q->module)
		q->module = modname;
	n = ddebug_apply_query(tables, q);
	ddebug_vlog(DDEBUG_V_SUMMARY, "query %u: %u matches\n", nr, n);
	return n;
}

/*
 * A text of one query at most, the common write: parsed in place, with no
 * lock held; only a valid query takes ddebug_write_lock, to apply.
 */
static __always_inline int run_one_query(struct list_head *tables, char *buf,
					 const char *modname,
					 struct ddebug_parse_error *err)
{
	struct ddebug_parser ps;
	struct ddebug_query q __uninitialized;	/* filled by the parser */
	int ret;

	ddebug_parser_init(&ps, buf);
	ret = ddebug_parse_next(&ps, &q, err);
	if (ret <= 0)
		return ret;
	mutex_lock(&ddebug_write_lock);
	ret = q.replay ? site_exists(tables, &q, err) : 0;
	if (ret) {
		err->query = 1;
		err->line = ps.query_line;
	} else {
		ret = run_one(tables, &q, modname, 1);
	}
	mutex_unlock(&ddebug_write_lock);
	return ret;
}

typedef unsigned int (*each_query_fn)(struct list_head *tables,
				      struct ddebug_query *q, const void *arg,
				      unsigned int nr);

/*
 * Check every query of @buf (see check_text()), then give each, in order,
 * to @each, parsed again from a copy: the sum of what @each returned, or
 * the error of the check or of the copy.
 */
static int each_query(struct list_head *tables, char *buf,
		      struct ddebug_parse_error *err, each_query_fn each,
		      const void *arg)
{
	struct ddebug_parser ps;
	struct ddebug_query q;
	unsigned int count, found = 0;
	char *copy = kstrdup(buf, GFP_KERNEL | __GFP_NOWARN);
	int ret;

	if (!copy)
		return -ENOMEM;
	ret = check_text(tables, buf, &q, &count, err);
	if (!ret) {
		ddebug_parser_init(&ps, copy);
		while (ddebug_parse_next(&ps, &q, err) > 0)
			found += each(tables, &q, arg, ps.count);
		ddebug_vlog(DDEBUG_V_SUMMARY, "%u queries, %u matches\n",
			    count, found);
		ret = found;
	}
	kfree(copy);
	return ret;
}

static unsigned int run_each(struct list_head *tables, struct ddebug_query *q,
			     const void *modname, unsigned int nr)
{
	return run_one(tables, q, modname, nr);
}

/* ddebug_run(), inlined into ddebug_exec_buf(): one call less a write. */
static __always_inline int run_text(struct list_head *tables, char *buf,
				    const char *modname,
				    struct ddebug_parse_error *err)
{
	int ret;

	if (at_most_one_query(buf))
		return run_one_query(tables, buf, modname, err);
	mutex_lock(&ddebug_write_lock);
	ret = each_query(tables, buf, err, run_each, modname);
	mutex_unlock(&ddebug_write_lock);
	return ret;
}

/**
 * ddebug_run - parse a text of queries and apply it to a list of tables
 * @tables: the registry, or a test's private list
 * @buf: the queries; writable, the parser splits it in place
 * @modname: restrict queries that name no module to this one, or NULL
 * @err: filled when the text is rejected; its word points into @buf
 *
 * All or nothing: every query is checked before the first one applies, so
 * if any is invalid, or is a listing line whose site does not exist, no
 * site changes.  Whole against other writers: the text is checked and
 * applied under ddebug_write_lock.  A text of several queries is parsed
 * twice (checked in @buf, applied from a copy) rather than kept parsed,
 * so a write costs one more page at most, whatever it holds; a text of
 * one query, the common write, is parsed once, before any lock is taken,
 * and one that holds no query takes none.  Logs nothing
 * but verbose messages; reporting errors is the caller's choice.
 *
 * Return: the number of matches, -EINVAL for an invalid query, or -ENOMEM.
 */
int ddebug_run(struct list_head *tables, char *buf, const char *modname,
	       struct ddebug_parse_error *err)
{
	return run_text(tables, buf, modname, err);
}
EXPORT_SYMBOL_IF_KUNIT(ddebug_run);

/**
 * ddebug_exec_buf - run a writable text of queries on the registry
 * @buf: the queries, at most DDEBUG_QUERY_MAX bytes; split in place
 * @modname: restrict queries that name no module to this one, or NULL
 * @source: where @buf came from, for messages; NULL for the control file
 *
 * As ddebug_run() on the registry, and an invalid text is reported in one
 * line naming @source.  Matching nothing is not an error.
 *
 * Return: the number of matches, -EINVAL for an invalid query, or -ENOMEM.
 */
int ddebug_exec_buf(char *buf, const char *modname, const char *source)
{
	struct ddebug_parse_error err __uninitialized;	/* set by the parser */
	int ret;

	ret = run_text(&ddebug_tables, buf, modname, &err);
	if (ret == -EINVAL)
		ddebug_report_error(source, &err);
	else if (!ret)
		ddebug_vlog(DDEBUG_V_MODULES, "%s: no matches\n",
			    source ?: "control");
	return ret;
}

/**
 * ddebug_exec - run a text of queries on the registry, reporting errors
 * @text: the queries; not modified
 * @modname: restrict queries that name no module to this one, or NULL
 * @source: where @text came from, for messages; NULL for the control file
 *
 * As ddebug_exec_buf() on a copy of @text, and an over-long text is
 * refused with a message naming @source.
 *
 * Return: the number of matches, -EINVAL for an invalid query, -E2BIG for
 * an over-long text, or -ENOMEM.
 */
int ddebug_exec(const char *text, const char *modname, const char *source)
{
	size_t len = strlen(text);
	char *buf;
	int ret;

	if (len > DDEBUG_QUERY_MAX) {
		ddebug_source_err(source,
				  "queries too long: %zu bytes, the limit is %d\n",
				  len, DDEBUG_QUERY_MAX);
		return -E2BIG;
	}
	buf = kmemdup(text, len + 1, GFP_KERNEL | __GFP_NOWARN);
	if (!buf)
		return -ENOMEM;
	ret = ddebug_exec_buf(buf, modname, source);
	kfree(buf);
	return ret;
}

/* Previewing a text */

/* Walk @q as @arg's visitor sees it: dry, from a fresh walk. */
static unsigned int preview_each(struct list_head *tables,
				 struct ddebug_query *q, const void *arg,
				 unsigned int nr)
{
	const struct apply_walk *visitor = arg;
	struct apply_walk w = {
		.tables = tables, .dry = true,
		.visit = visitor->visit, .arg = visitor->arg,
	};

	return walk_query(&w, q);
}

/**
 * ddebug_preview - show what a text of queries would select, changing nothing
 * @tables: the registry, or a test's private list
 * @buf: the queries; writable, the parser splits it in place
 * @visit: called under ddebug_lock for each site a query selects, with the
 *	flags that query would give it
 * @arg: passed to @visit
 * @err: filled when the text is rejected; its word points into @buf
 *
 * The text is checked exactly as ddebug_run() checks it, so a text that
 * ddebug_run() rejects is rejected here with the same error.  Then each
 * query is walked in order with the core's own matching; each query's
 * flags are computed from the sites' current flags, as no query applies.
 * A site selected by several queries is visited once per query.
 *
 * Context: process context, ddebug_lock not held; sleeps.
 * Return: the number of sites visited, -EINVAL for an invalid text, or
 * -ENOMEM.
 */
int ddebug_preview(struct list_head *tables, char *buf,
		   ddebug_visit_fn visit, void *arg,
		   struct ddebug_parse_error *err)
{
	struct apply_walk w = { .visit = visit, .arg = arg };

	return each_query(tables, buf, err, preview_each, &w);
}
EXPORT_SYMBOL_IF_KUNIT(ddebug_preview);
