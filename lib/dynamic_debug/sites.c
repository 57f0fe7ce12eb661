// SPDX-License-Identifier: GPL-2.0
/*
 * The registry of dynamic debug call sites: built-in tables registered at
 * early boot, module tables added and dropped by the module notifier, the
 * walk over all sites, and the flipping of each site's static key.
 */

#define pr_fmt(fmt) "dyndbg: " fmt

#include <linux/init.h>
#include <linux/jump_label.h>
#include <linux/lockdep.h>
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <kunit/visibility.h>

#include "ddebug.h"

/* ===================== data ===================== */

/* Protects the registry and all site flags; see ddebug.h. */
DEFINE_MUTEX(ddebug_lock);
/* Tables in registration order: built-in ones first, then modules. */
LIST_HEAD(ddebug_tables);
/* Protected by ddebug_lock. */
unsigned long ddebug_tables_gen;

/*
 * Set once the built-in tables are registered, never cleared.  Written in
 * an early initcall, before other CPUs run.
 */
static bool ddebug_ready __read_mostly;

/* ===================== descriptors ===================== */

/**
 * site_file_relative - source file of a site, relative to the source root
 * @dp: the site
 *
 * Files compiled with an absolute path under the kernel source root lose
 * that prefix; other names are returned unchanged.
 *
 * Return: a pointer into the site's file name.
 */
const char *site_file_relative(const struct _ddebug *dp)
{
	/* This file's own name tells where the source root ends. */
	size_t root = sizeof(__FILE__) -
		      sizeof("lib/dynamic_debug/" KBUILD_BASENAME ".c");

	if (root && !strncmp(dp->filename, __FILE__, root))
		return dp->filename + root;
	return dp->filename;
}
EXPORT_SYMBOL_IF_KUNIT(site_file_relative);

/**
 * site_set_flags - give a site new flags
 * @dt: table holding the site
 * @dp: the site
 * @newflags: its new flags
 *
 * Patches the site's static key when the print flag changes.  May sleep.
 * Context: ddebug_lock held, for tables on the registry.
 */
void site_set_flags(const struct ddebug_table *dt, struct _ddebug *dp,
		    unsigned int newflags)
{
	unsigned int oldflags = site_flags(dp);
	bool was_on = oldflags & _DPRINTK_FLAGS_PRINT;
	bool now_on = newflags & _DPRINTK_FLAGS_PRINT;

	if (!dt->keyless)
		lockdep_assert_held(&ddebug_lock);

	WRITE_ONCE(dp->flags, newflags);
#ifdef CONFIG_JUMP_LABEL
	if (dt->keyless || was_on == now_on)
		return;
	/* Both key types share struct static_key; either member works. */
	if (now_on)
		static_branch_enable(&dp->key.dflt_on);
	else
		static_branch_disable(&dp->key.dflt_on);
#endif
}

/**
 * table_class_id - class id of a class name declared by a table's module
 * @dt: the table
 * @name: class name
 *
 * Return: the class id, or -ENOENT if no map of @dt declares @name.
 */
int table_class_id(const struct ddebug_table *dt, const char *name)
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
 * table_class_name - name of a site's class
 * @dt: table holding the site
 * @dp: the site, which has a class
 *
 * Return: the class name, or NULL if no map of @dt covers the site's id.
 */
const char *table_class_name(const struct ddebug_table *dt,
			     const struct _ddebug *dp)
{
	unsigned int i;
	int id = dp->class_id;

	for (i = 0; i < dt->num_maps; i++) {
		const struct ddebug_class_map *map = dt->maps[i];

		if (id >= map->base && id < map->base + map->length)
			return map->class_names[id - map->base];
	}
	return NULL;
}

/* ===================== iteration ===================== */

/*
 * Sites are visited table by table, and inside a table from the last
 * descriptor to the first: compilers emit a file's descriptors in reverse,
 * so this lists them in source order, as 6.12 does.
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

/* ===================== registration ===================== */

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
	kfree(dt->maps);
	kfree(dt);
}

/*
 * Register @n sites of @mod_name; @mod_name must outlive the table.  Class
 * maps of other modules among @maps are ignored.
 */
static int table_add(const char *mod_name, struct _ddebug *sites,
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
	if (table_attach_maps(dt, maps, num_maps)) {
		table_free(dt);
		return -ENOMEM;
	}

	mutex_lock(&ddebug_lock);
	list_add_tail(&dt->link, &ddebug_tables);
	ddebug_tables_gen++;
	mutex_unlock(&ddebug_lock);

	ddebug_vlog(DDEBUG_V_MODULES, "%u debug prints in module %s\n",
		    n, mod_name);
	return 0;
}

/*
 * The built-in section holds each module's sites contiguously; give every
 * run of one module name a table of its own.
 */
static int __init tables_add_builtin(void)
{
	struct _ddebug *start = __start___dyndbg, *dp;
	unsigned int num_maps = __stop___dyndbg_classes - __start___dyndbg_classes;
	unsigned int tables = 0;
	int ret;

	if (start == __stop___dyndbg)
		return 0;

	for (dp = __start___dyndbg; dp <= __stop___dyndbg; dp++) {
		if (dp < __stop___dyndbg &&
		    (dp->modname == start->modname ||
		     !strcmp(dp->modname, start->modname)))
			continue;
		ret = table_add(start->modname, start, dp - start,
				__start___dyndbg_classes, num_maps);
		if (ret)
			return ret;
		tables++;
		start = dp;
	}
	ddebug_vlog(DDEBUG_V_MODULES,
		    "%td built-in sites in %u modules, %u class maps\n",
		    __stop___dyndbg - __start___dyndbg, tables, num_maps);
	return 0;
}

static void __init tables_remove_all(void)
{
	struct ddebug_table *dt, *tmp;

	mutex_lock(&ddebug_lock);
	list_for_each_entry_safe(dt, tmp, &ddebug_tables, link) {
		list_del(&dt->link);
		table_free(dt);
	}
	ddebug_tables_gen++;
	mutex_unlock(&ddebug_lock);
}

#ifdef CONFIG_MODULES

static void table_remove(const char *mod_name)
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

static int ddebug_module_notify(struct notifier_block *nb, unsigned long state,
				void *data)
{
	struct module *mod = data;
	struct _ddebug_info *di = &mod->dyndbg_info;
	int ret;

	switch (state) {
	case MODULE_STATE_COMING:
		ret = table_add(mod->name, di->descs, di->num_descs,
				di->classes, di->num_classes);
		if (ret) {
			pr_err("%s: no memory for its debug sites\n", mod->name);
			return notifier_from_errno(ret);
		}
		/* Command-line queries run before the module's own params. */
		ddebug_params_module_coming(mod->name, mod->args);
		break;
	case MODULE_STATE_GOING:
		table_remove(mod->name);
		break;
	}
	return NOTIFY_DONE;
}

/* Priority 0: after jump_label's notifier has set up the module's keys. */
static struct notifier_block ddebug_module_nb = {
	.notifier_call = ddebug_module_notify,
	.priority = 0,
};

#endif /* CONFIG_MODULES */

/* ===================== init ===================== */

/**
 * ddebug_core_ready - whether the built-in sites are registered
 *
 * Return: true once early boot registration has finished.
 */
bool ddebug_core_ready(void)
{
	return READ_ONCE(ddebug_ready);
}

static int __init ddebug_sites_init(void)
{
	int ret;

	if (&__start___dyndbg[0] == &__stop___dyndbg[0] &&
	    IS_ENABLED(CONFIG_DYNAMIC_DEBUG))
		pr_warn("no built-in call sites in a CONFIG_DYNAMIC_DEBUG kernel\n");

	ret = tables_add_builtin();
	if (ret) {
		pr_err("no memory for the built-in call sites, disabled\n");
		tables_remove_all();
		return ret;
	}

#ifdef CONFIG_MODULES
	ret = register_module_notifier(&ddebug_module_nb);
	if (ret) {
		pr_err("cannot watch module loading (%d), disabled\n", ret);
		tables_remove_all();
		return ret;
	}
#endif
	WRITE_ONCE(ddebug_ready, true);

	ddebug_class_params_replay();
	ddebug_params_boot();
	return 0;
}

/* Early, so that boot queries reach the first initcalls that matter. */
early_initcall(ddebug_sites_init);
