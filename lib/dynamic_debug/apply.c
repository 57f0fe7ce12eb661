// SPDX-License-Identifier: GPL-2.0
/*
 * Matching parsed queries against call sites and applying their flags;
 * ddebug_exec() runs a whole text, all or nothing.
 */

#define pr_fmt(fmt) "dyndbg: " fmt

#include <linux/kernel.h>
#include <linux/parser.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <kunit/visibility.h>

#include "ddebug.h"

static bool file_matches(const char *pattern, const struct _ddebug *dp)
{
	return match_wildcard(pattern, dp->filename) ||
	       match_wildcard(pattern, kbasename(dp->filename)) ||
	       match_wildcard(pattern, site_file_relative(dp));
}

static bool format_matches(const char *pattern, const char *format)
{
	if (*pattern == '^')
		return !strncmp(format, pattern + 1, strlen(pattern + 1));
	return strstr(format, pattern);
}

/**
 * ddebug_site_matches - whether a site is selected by a query
 * @dt: table holding the site
 * @dp: the site
 * @q: the query
 * @class_id: the class id the query selects in @dt, or _DPRINTK_CLASS_DFLT
 *	when it names no class
 *
 * The module selector is checked per table by the caller.  A query without
 * "class" never selects a site that has one.
 *
 * Return: true if every selector of @q matches @dp.
 */
bool ddebug_site_matches(const struct ddebug_table *dt,
			 const struct _ddebug *dp,
			 const struct ddebug_query *q, int class_id)
{
	if (dp->class_id != class_id)
		return false;
	if (q->first_line && dp->lineno < q->first_line)
		return false;
	if (q->last_line && dp->lineno > q->last_line)
		return false;
	if (q->func && !match_wildcard(q->func, dp->function))
		return false;
	if (q->file && !file_matches(q->file, dp))
		return false;
	if (q->format && !format_matches(q->format, dp->format))
		return false;
	return true;
}

static void log_change(const struct ddebug_table *dt, const struct _ddebug *dp,
		       unsigned int newflags)
{
	char was[DDEBUG_FLAGS_BUFSZ], now[DDEBUG_FLAGS_BUFSZ];

	ddebug_vlog(DDEBUG_V_SITES, "changed %s:%u [%s]%s =%s => =%s\n",
		    site_file_relative(dp), dp->lineno, dt->mod_name,
		    dp->function,
		    ddebug_flags_describe(site_flags(dp), was, sizeof(was)),
		    ddebug_flags_describe(newflags, now, sizeof(now)));
}

/* Class id that @q selects in @dt: negative if @dt cannot match. */
static int query_class_in(const struct ddebug_table *dt,
			  const struct ddebug_query *q)
{
	if (q->module && !match_wildcard(q->module, dt->mod_name))
		return -ENOENT;
	if (!q->class_name)
		return _DPRINTK_CLASS_DFLT;
	return table_class_id(dt, q->class_name);
}

/**
 * ddebug_apply_query - apply one query to every site it matches
 * @tables: list of struct ddebug_table to search (the registry, or a
 *	test's private list)
 * @q: the query
 *
 * Context: ddebug_lock held when @tables is the registry.  May sleep.
 * Return: the number of matching sites, changed or not.
 */
unsigned int ddebug_apply_query(struct list_head *tables,
				const struct ddebug_query *q)
{
	struct ddebug_table *dt;
	unsigned int i, found = 0;
	unsigned int newflags;
	int class_id;

	list_for_each_entry(dt, tables, link) {
		class_id = query_class_in(dt, q);
		if (class_id < 0)
			continue;
		for (i = 0; i < dt->num_sites; i++) {
			struct _ddebug *dp = &dt->sites[i];

			if (!ddebug_site_matches(dt, dp, q, class_id))
				continue;
			found++;
			newflags = (site_flags(dp) & q->mask) | q->set;
			if (newflags == site_flags(dp))
				continue;
			log_change(dt, dp, newflags);
			site_set_flags(dt, dp, newflags);
		}
	}
	return found;
}

/**
 * ddebug_apply_batch - apply parsed queries in order
 * @tables: as for ddebug_apply_query()
 * @batch: the queries
 *
 * Context: as for ddebug_apply_query().
 * Return: the total number of matches.
 */
unsigned int ddebug_apply_batch(struct list_head *tables,
				const struct ddebug_batch *batch)
{
	unsigned int i, found = 0, n;

	for (i = 0; i < batch->count; i++) {
		n = ddebug_apply_query(tables, &batch->queries[i]);
		ddebug_vlog(DDEBUG_V_SUMMARY, "query %u: %u matches\n",
			    i + 1, n);
		found += n;
	}
	return found;
}

/**
 * ddebug_run - parse a text of queries and apply it to a list of tables
 * @tables: the registry, or a test's private list
 * @buf: the queries; writable, the parser splits it in place
 * @modname: restrict queries that name no module to this one, or NULL
 * @err: filled when the text is rejected; its word points into @buf
 *
 * All or nothing: if any query is invalid, no site changes.  Logs nothing
 * but verbose messages; reporting errors is the caller's choice.
 *
 * Return: the number of matches, -EINVAL for an invalid query, or -ENOMEM.
 */
int ddebug_run(struct list_head *tables, char *buf, const char *modname,
	       struct ddebug_parse_error *err)
{
	struct ddebug_batch batch;
	unsigned int i, found;
	int ret;

	ret = ddebug_parse(buf, &batch, err);
	if (ret)
		return ret;

	for (i = 0; modname && i < batch.count; i++)
		if (!batch.queries[i].module)
			batch.queries[i].module = modname;

	mutex_lock(&ddebug_lock);
	found = ddebug_apply_batch(tables, &batch);
	mutex_unlock(&ddebug_lock);

	ddebug_vlog(DDEBUG_V_SUMMARY, "%u queries, %u matches\n",
		    batch.count, found);
	ddebug_batch_free(&batch);
	return found;
}
EXPORT_SYMBOL_IF_KUNIT(ddebug_run);

/**
 * ddebug_exec - run a text of queries on the registry, reporting errors
 * @text: the queries; not modified
 * @modname: restrict queries that name no module to this one, or NULL
 * @source: where @text came from, for messages; NULL for the control file
 *
 * As ddebug_run(), and an invalid or over-long text is reported in one
 * line naming @source.  Matching nothing is not an error.
 *
 * Return: the number of matches, -EINVAL for an invalid query, -E2BIG for
 * an over-long text, or -ENOMEM.
 */
int ddebug_exec(const char *text, const char *modname, const char *source)
{
	struct ddebug_parse_error err;
	size_t len = strlen(text);
	char *buf;
	int ret;

	if (len > DDEBUG_QUERY_MAX) {
		pr_err("%s%squeries too long: %zu bytes, the limit is %d\n",
		       source ?: "", source ? ": " : "", len,
		       DDEBUG_QUERY_MAX);
		return -E2BIG;
	}
	buf = kmemdup(text, len + 1, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;

	ret = ddebug_run(&ddebug_tables, buf, modname, &err);
	if (ret == -EINVAL)
		ddebug_report_error(source, &err);
	else if (!ret)
		ddebug_vlog(DDEBUG_V_MODULES, "%s: no matches\n",
			    source ?: "control");
	kfree(buf);
	return ret;
}
