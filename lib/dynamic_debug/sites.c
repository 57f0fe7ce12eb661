// SPDX-License-Identifier: GPL-2.0
/*
 * The registry of dynamic debug call sites: one table per module (built-in
 * or loaded), each with its index, the walk over every site, and what a
 * site's table says about it (relative file name, class names).
 */

#define pr_fmt(fmt) "dyndbg: " fmt

#include <linux/init.h>
#include <linux/lockdep.h>
#include <linux/parser.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <kunit/visibility.h>

#include "ddebug.h"

/* Tables in registration order: built-in ones first, then modules. */
LIST_HEAD(ddebug_tables);
/* Protected by ddebug_lock. */
unsigned long ddebug_tables_gen;
/* Registration number of the last table added; protected by ddebug_lock. */
static u64 ddebug_last_id;

/*
 * Set once the built-in tables are registered; cleared only if the core
 * gives up during early boot, before other CPUs run.
 */
static bool ddebug_ready __read_mostly;

/**
 * ddebug_site_file - source file of a site, relative to the source root
 * @dp: the site
 *
 * Files compiled with an absolute path under the kernel source root lose
 * that prefix; other names are returned unchanged.
 *
 * Return: a pointer into the site's file name.
 */
const char *ddebug_site_file(const struct _ddebug *dp)
{
	/* This file's own name tells where the source root ends. */
	size_t root = sizeof(__FILE__) -
		      sizeof("lib/dynamic_debug/" KBUILD_BASENAME ".c");

	if (root && !strncmp(site_raw_file(dp), __FILE__, root))
		return site_raw_file(dp) + root;
	return site_raw_file(dp);
}
EXPORT_SYMBOL_IF_KUNIT(ddebug_site_file);

/**
 * ddebug_class_id - class id of a class name declared by a table's module
 * @dt: the table
 * @name: class name
 *
 * Return: the class id, or -ENOENT if no map of @dt declares @name.
 */
int ddebug_class_id(const struct ddebug_table *dt, const char *name)
{
	unsigned int i;
	int idx;

	for (i = 0; i < dt->num_maps; i++) {
		const struct ddebug_class_map *map = dt->maps[i];

		idx = match_string(map->class_names, map->length, name);
		if (idx >= 0)
			return map->base + idx;
	}
	return -ENOENT;
}

/**
 * ddebug_class_name - name of a site's class
 * @dt: table holding the site
 * @dp: the site, which has a class
 *
 * Return: the class name, or NULL if no map of @dt covers the site's id.
 */
const char *ddebug_class_name(const struct ddebug_table *dt,
			      const struct _ddebug *dp)
{
	unsigned int i;
	int id = site_class(dp);

	for (i = 0; i < dt->num_maps; i++) {
		const struct ddebug_class_map *map = dt->maps[i];

		if (id >= map->base && id < map->base + map->length)
			return map->class_names[id - map->base];
	}
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(ddebug_class_name);

/* Offset from @dp to @name, which must be within reach. */
static s32 site_offset(const struct _ddebug *dp, const char *name)
{
	long off = (long)name - (long)dp;

	/* Both live in the same kernel image or module. */
	if (WARN_ON_ONCE(!name || !off || off != (s32)off))
		return 0;
	return off;
}

/**
 * ddebug_names_resolve - give call sites their names
 * @names: the sites' names records
 * @n: number of records
 *
 * Records the names as offsets in each site's descriptor, so they outlive
 * the init section that held the records.
 * Context: before the sites are registered.
 */
void ddebug_names_resolve(const struct _ddebug_names *names, unsigned int n)
{
	struct _ddebug *dp;

	for (; n; n--, names++) {
		dp = names->desc;
		dp->modfile = site_offset(dp, names->modfile);
		dp->function = site_offset(dp, names->function);
		dp->format = site_offset(dp, names->format);
	}
}
EXPORT_SYMBOL_IF_KUNIT(ddebug_names_resolve);

/*
 * Sites are visited table by table, and inside a table from the last
 * descriptor to the first: compilers emit a file's descriptors in reverse,
 * so this lists them in source order.
 */
static struct _ddebug *iter_enter(struct ddebug_iter *it,
				  struct ddebug_table *dt)
{
	while (&dt->link != &ddebug_tables) {
		if (dt->num_sites) {
			it->table = dt;
			it->left = dt->num_sites - 1;
			return &dt->sites[it->left];
		}
		dt = list_next_entry(dt, link);
	}
	it->table = NULL;
	return NULL;
}

/**
 * ddebug_iter_first - start a walk over every registered site
 * @it: iterator to set up
 *
 * Context: ddebug_lock held for the whole walk.
 * Return: the first site, or NULL if there is none.
 */
struct _ddebug *ddebug_iter_first(struct ddebug_iter *it)
{
	lockdep_assert_held(&ddebug_lock);
	it->gen = ddebug_tables_gen;
	return iter_enter(it, list_first_entry(&ddebug_tables,
					       struct ddebug_table, link));
}

/**
 * ddebug_iter_next - step a walk to the next site
 * @it: iterator positioned on a site
 *
 * Context: ddebug_lock held since ddebug_iter_first() or since a check
 * that @it->gen still equals ddebug_tables_gen.
 * Return: the next site, or NULL at the end.
 */
struct _ddebug *ddebug_iter_next(struct ddebug_iter *it)
{
	lockdep_assert_held(&ddebug_lock);
	if (!it->table)
		return NULL;
	if (it->left)
		return &it->table->sites[--it->left];
	return iter_enter(it, list_next_entry(it->table, link));
}

/**
 * ddebug_module_listed - whether a module has a table on a list
 * @tables: the registry, or a test's private list
 * @pattern: module name, with or without wildcards
 *
 * Context: process context; takes ddebug_lock.
 * Return: true if the name of a table on @tables matches @pattern.
 */
bool ddebug_module_listed(struct list_head *tables, const char *pattern)
{
	struct ddebug_table *dt;
	bool found = false;

	mutex_lock(&ddebug_lock);
	list_for_each_entry(dt, tables, link) {
		if (match_wildcard(pattern, dt->mod_name)) {
			found = true;
			break;
		}
	}
	mutex_unlock(&ddebug_lock);
	return found;
}

/**
 * ddebug_table_next - the first table registered after a given one
 * @tables: the registry, or a test's private list
 * @id: registration number of the given table (0 for the first table)
 *
 * Lets a walk that dropped ddebug_lock resume where it was, even if its
 * table has gone meanwhile.
 * Context: ddebug_lock held when @tables is the registry.
 * Return: the table, or NULL if none follows.
 */
struct ddebug_table *ddebug_table_next(struct list_head *tables, u64 id)
{
	struct ddebug_table *dt;

	list_for_each_entry(dt, tables, link)
		if (dt->id > id)
			return dt;
	return NULL;
}

static bool map_belongs(const struct ddebug_class_map *map,
			const char *mod_name)
{
	return !strcmp(map->mod_name, mod_name);
}

static int table_attach_maps(struct ddebug_table *dt,
			     struct ddebug_class_map *maps, unsigned int n)
{
	unsigned int i, count = 0;

	for (i = 0; i < n; i++)
		count += map_belongs(&maps[i], dt->mod_name);
	if (!count)
		return 0;

	dt->maps = kcalloc(count, sizeof(*dt->maps), GFP_KERNEL);
	if (!dt->maps)
		return -ENOMEM;

	for (i = 0; i < n; i++) {
		if (!map_belongs(&maps[i], dt->mod_name))
			continue;
		dt->maps[dt->num_maps++] = &maps[i];
		ddebug_vlog(DDEBUG_V_SUMMARY,
			    "%s: class map: base %d, %d classes, type %d\n",
			    dt->mod_name, maps[i].base, maps[i].length,
			    maps[i].map_type);
	}
	return 0;
}

static void table_free(struct ddebug_table *dt)
{
	ddebug_state_table_free(dt);
	ddebug_index_free(dt);
	kfree(dt->maps);
	kfree(dt);
}

/**
 * ddebug_table_add - register the sites of a module
 * @mod_name: module name; must outlive the table
 * @sites: its descriptors
 * @n: number of descriptors; nothing is registered for none
 * @maps: class maps, of this module and maybe others (ignored)
 * @num_maps: number of entries in @maps
 *
 * Context: process context; takes ddebug_lock.
 * Return: 0, or -ENOMEM.
 */
int ddebug_table_add(const char *mod_name, struct _ddebug *sites,
		     unsigned int n, struct ddebug_class_map *maps,
		     unsigned int num_maps)
{
	struct ddebug_table *dt;

	if (!n)
		return 0;

	dt = kzalloc(sizeof(*dt), GFP_KERNEL);
	if (!dt)
		return -ENOMEM;
	dt->mod_name = mod_name;
	dt->sites = sites;
	dt->num_sites = n;
	if (table_attach_maps(dt, maps, num_maps) || ddebug_index_build(dt) ||
	    ddebug_state_table_init(dt)) {
		table_free(dt);
		return -ENOMEM;
	}

	mutex_lock(&ddebug_lock);
	dt->id = ++ddebug_last_id;
	list_add_tail(&dt->link, &ddebug_tables);
	ddebug_tables_gen++;
	mutex_unlock(&ddebug_lock);

	ddebug_vlog(DDEBUG_V_MODULES,
		    "%u debug prints in module %s, index %zu bytes\n",
		    n, mod_name, ddebug_index_bytes(dt));
	return 0;
}

/**
 * ddebug_tables_add_builtin - register the sites of the kernel image
 *
 * The built-in section holds each module's sites contiguously; every run
 * of one module name gets a table of its own.
 * Context: early boot.
 * Return: 0, or -ENOMEM.
 */
int __init ddebug_tables_add_builtin(void)
{
	struct _ddebug *start = __start___dyndbg, *dp;
	unsigned int num_maps = __stop___dyndbg_classes - __start___dyndbg_classes;
	unsigned int tables = 0;
	int ret;

	if (start == __stop___dyndbg && IS_ENABLED(CONFIG_DYNAMIC_DEBUG))
		pr_warn("no built-in call sites in a CONFIG_DYNAMIC_DEBUG kernel\n");
	ddebug_names_resolve(__start___dyndbg_names,
			     __stop___dyndbg_names - __start___dyndbg_names);

	for (dp = start; start < __stop___dyndbg && dp <= __stop___dyndbg; dp++) {
		if (dp < __stop___dyndbg &&
		    (site_modname(dp) == site_modname(start) ||
		     !strcmp(site_modname(dp), site_modname(start))))
			continue;
		ret = ddebug_table_add(site_modname(start), start, dp - start,
				       __start___dyndbg_classes, num_maps);
		if (ret)
			return ret;
		tables++;
		start = dp;
	}
	ddebug_vlog(DDEBUG_V_MODULES,
		    "%td built-in sites in %u modules, %u class maps\n",
		    __stop___dyndbg - __start___dyndbg, tables, num_maps);
	WRITE_ONCE(ddebug_ready, true);
	return 0;
}

/**
 * ddebug_tables_remove_all - empty the registry
 *
 * For an early boot failure: the core then stays disabled.
 */
void __init ddebug_tables_remove_all(void)
{
	struct ddebug_table *dt, *tmp;

	WRITE_ONCE(ddebug_ready, false);
	mutex_lock(&ddebug_lock);
	list_for_each_entry_safe(dt, tmp, &ddebug_tables, link) {
		list_del(&dt->link);
		table_free(dt);
	}
	ddebug_tables_gen++;
	mutex_unlock(&ddebug_lock);
}

/**
 * ddebug_table_remove - drop the sites of a module
 * @mod_name: the module's name, the same pointer it was added with
 *
 * Context: process context; takes ddebug_lock.
 */
void ddebug_table_remove(const char *mod_name)
{
	struct ddebug_table *dt;

	mutex_lock(&ddebug_lock);
	list_for_each_entry(dt, &ddebug_tables, link) {
		if (dt->mod_name == mod_name) {
			list_del(&dt->link);
			ddebug_tables_gen++;
			table_free(dt);
			ddebug_vlog(DDEBUG_V_MODULES, "removed module %s\n",
				    mod_name);
			break;
		}
	}
	mutex_unlock(&ddebug_lock);
}

/**
 * ddebug_core_ready - whether the built-in sites are registered
 *
 * Return: true once early boot registration has finished.
 */
bool ddebug_core_ready(void)
{
	return READ_ONCE(ddebug_ready);
}
