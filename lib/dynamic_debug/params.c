// SPDX-License-Identifier: GPL-2.0
/*
 * Parameters of dynamic debug: the boot parameters ddebug_query=, dyndbg=
 * and MODULE.dyndbg= (remembered for modules that load later), the dyndbg=
 * parameter of every module, and the class parameters built on
 * param_ops_dyndbg_classes.
 */

#define pr_fmt(fmt) "dyndbg: " fmt

#include <linux/bitops.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/string_helpers.h>

#include "ddebug.h"

/*
 * Parameters have no user to return an error to: what they lose for want
 * of memory is said in the log, naming the parameter.
 */
static void report_nomem(const char *source, const char *lost)
{
	pr_err("%s: out of memory, %s\n", source, lost);
}

/* Run the queries of a parameter; ddebug_exec() reports bad ones. */
static void param_exec(const char *text, const char *modname,
		       const char *source)
{
	if (ddebug_exec(text, modname, source) == -ENOMEM)
		report_nomem(source, "its queries were not applied");
}

/* Boot parameters */

/*
 * The boot parameters are read again from the saved command line once the
 * built-in sites are registered; these handlers only keep them out of the
 * "unknown parameter" list and away from init's environment.
 */
static int __init ddebug_query_seen(char *val)
{
	return 0;
}
early_param("ddebug_query", ddebug_query_seen);

static int __init dyndbg_seen(char *val)
{
	return 0;
}
early_param("dyndbg", dyndbg_seen);

/**
 * struct module_query - a MODULE.dyndbg= query from the command line
 * @link: entry in module_queries
 * @mod_name: the module it is for, as written
 * @query: its text
 */
struct module_query {
	struct list_head link;
	char *mod_name;
	char *query;
};

/*
 * Filled only during early boot, before any module can load, and read-only
 * afterwards; so it needs no lock.  It holds one entry per MODULE.dyndbg=
 * of a loadable module on the command line, so the command line's length
 * bounds it; built-in modules get none.
 */
static LIST_HEAD(module_queries);

/* Keep a MODULE.dyndbg= query for when the module loads. */
static void __init module_query_remember(const char *mod_name,
					 const char *query, const char *source)
{
	struct module_query *mq;

	mq = kzalloc(sizeof(*mq), GFP_KERNEL);
	if (mq) {
		mq->mod_name = kstrdup(mod_name, GFP_KERNEL);
		mq->query = kstrdup(query, GFP_KERNEL);
	}
	if (!mq || !mq->mod_name || !mq->query) {
		if (mq) {
			kfree(mq->mod_name);
			kfree(mq->query);
		}
		kfree(mq);
		report_nomem(source, "not kept for the module's loads");
		return;
	}
	list_add_tail(&mq->link, &module_queries);
	ddebug_vlog(DDEBUG_V_MODULES, "%s: kept for when %s loads\n", source,
		    mod_name);
}

static void __init boot_module_query(char *mod_name, const char *query)
{
	char source[MODULE_NAME_LEN + sizeof(".dyndbg")];

	ddebug_module_name_normalize(mod_name);
	snprintf(source, sizeof(source), "%s.dyndbg", mod_name);
	/*
	 * Applies now to a built-in module; a loadable one gets it, or its
	 * error message, each time it loads.  A pattern is no built-in
	 * module's name.
	 */
	param_exec(query, mod_name, source);
	if (strpbrk(mod_name, "*?") ||
	    !ddebug_module_listed(&ddebug_tables, mod_name))
		module_query_remember(mod_name, query, source);
}

static int __init boot_param(char *param, char *val, const char *unused,
			     void *arg)
{
	char *dot;

	if (parameq(param, "ddebug_query")) {
		if (!val)
			pr_err("ddebug_query: needs a query\n");
		else
			param_exec(val, NULL, "ddebug_query");
		return 0;
	}
	if (parameq(param, "dyndbg")) {
		param_exec(val ?: "+p", NULL, "dyndbg");
		return 0;
	}
	/* a.b.dyndbg= is module a's parameter b.dyndbg, not a query. */
	dot = strchr(param, '.');
	if (dot && dot != param && parameq(dot + 1, "dyndbg")) {
		*dot = '\0';
		boot_module_query(param, val ?: "+p");
	}
	return 0;
}

/**
 * ddebug_params_boot - apply the dynamic debug boot parameters
 *
 * Runs ddebug_query=, dyndbg= and MODULE.dyndbg= in command line order.
 * A bad value is reported and skipped; the rest still applies.
 */
void __init ddebug_params_boot(void)
{
	char *cmdline = kstrdup(saved_command_line, GFP_KERNEL);

	if (!cmdline) {
		report_nomem("dyndbg params", "boot parameters not applied");
		return;
	}
	parse_args("dyndbg params", cmdline, NULL, 0, 0, 0, NULL, boot_param);
	kfree(cmdline);
}

static bool module_has_queries(const char *mod_name)
{
	struct module_query *mq;

	list_for_each_entry(mq, &module_queries, link)
		if (parameq(mq->mod_name, mod_name))
			return true;
	return false;
}

/* parse_args() callback: note a dyndbg= argument for module @doing. */
static int note_dyndbg_arg(char *param, char *val, const char *doing,
			   void *seen)
{
	char *dot = strchr(param, '.');

	if (dot) {
		*dot = '\0';
		if (!parameq(param, doing))
			return 0;
		param = dot + 1;
	}
	if (parameq(param, "dyndbg"))
		*(bool *)seen = true;
	return 0;
}

/*
 * Whether a module's load arguments carry a dyndbg= of their own, as they
 * do when modprobe copies the command line's MODULE.dyndbg= into them.
 */
static int load_has_dyndbg(const char *mod_name, const char *args,
			   bool *seen)
{
	char *copy;

	*seen = false;
	if (!args || !strstr(args, "dyndbg"))
		return 0;
	copy = kstrdup(args, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	parse_args(mod_name, copy, NULL, 0, 0, 0, seen, note_dyndbg_arg);
	kfree(copy);
	return 0;
}

/**
 * ddebug_params_module_coming - apply the command line's MODULE.dyndbg=
 * @mod_name: name of the module being loaded
 * @args: the module's load arguments, or NULL
 *
 * Called once the module's sites are registered, before its parameters
 * are parsed and before its init function runs.  A load whose @args hold
 * a dyndbg= of their own gets only that one, so that a query modprobe
 * copied from the command line does not run twice.
 */
void ddebug_params_module_coming(const char *mod_name, const char *args)
{
	char source[MODULE_NAME_LEN + sizeof(".dyndbg")];
	struct module_query *mq;
	bool own;

	if (!module_has_queries(mod_name))
		return;
	snprintf(source, sizeof(source), "%s.dyndbg", mod_name);
	if (load_has_dyndbg(mod_name, args, &own)) {
		report_nomem(source, "not applied");
		return;
	}
	if (own) {
		ddebug_vlog(DDEBUG_V_MODULES,
			    "%s: not run, the load gives its own dyndbg=\n",
			    source);
		return;
	}
	list_for_each_entry(mq, &module_queries, link)
		if (parameq(mq->mod_name, mod_name))
			param_exec(mq->query, mod_name, source);
}

/* Module parameter */

/**
 * ddebug_dyndbg_module_param_cb - handle a module's dyndbg= parameter
 * @param: parameter name
 * @val: its value, or NULL for a bare "dyndbg" (meaning "+p")
 * @modname: the module being loaded
 *
 * Queries that name no module apply to @modname only.  A bad query is
 * reported but does not stop the module from loading.
 *
 * Return: 0 if @param was dyndbg, -ENOENT for any other parameter.
 */
int ddebug_dyndbg_module_param_cb(char *param, char *val, const char *modname)
{
	char source[MODULE_NAME_LEN + sizeof(" dyndbg")];
	char *dot = strchr(param, '.');

	if (dot) {
		*dot = '\0';
		modname = param;
		param = dot + 1;
	}
	if (!parameq(param, "dyndbg"))
		return -ENOENT;

	snprintf(source, sizeof(source), "%s dyndbg", modname);
	param_exec(val ?: "+p", modname, source);
	return 0;
}
EXPORT_SYMBOL(ddebug_dyndbg_module_param_cb);

/* Class parameters */

/* The bits of the @n lowest classes. */
static unsigned long class_mask(unsigned long n)
{
	return n >= BITS_PER_LONG ? ~0UL : BIT(n) - 1;
}

/* Class parameters set before the registry existed, replayed at init. */
#define EARLY_CLASSES_MAX	16
static const struct ddebug_class_param *early_classes[EARLY_CLASSES_MAX];
static unsigned int nr_early_classes;
static bool early_classes_overflow;

static bool is_level_map(const struct ddebug_class_map *map)
{
	return map->map_type == DD_CLASS_TYPE_LEVEL_NUM ||
	       map->map_type == DD_CLASS_TYPE_LEVEL_NAMES;
}

/* The parameter's state as one bit per class. */
static unsigned long class_state(const struct ddebug_class_param *dcp)
{
	if (is_level_map(dcp->map))
		return class_mask(*dcp->lvl);
	return *dcp->bits;
}

/* Switch the parameter's flags on or off for one class, in every module. */
static unsigned int class_switch(const struct ddebug_class_param *dcp,
				 const char *class_name, bool on)
{
	struct ddebug_query q = { .class_name = class_name };
	char word[sizeof(dcp->flags) + 2];
	unsigned int found;

	snprintf(word, sizeof(word), "%c%s", on ? '+' : '-', dcp->flags);
	if (ddebug_parse_flags(word, &q.mask, &q.set)) {
		pr_err("class %s: bad flags \"%s\" in its parameter\n",
		       class_name, dcp->flags);
		return 0;
	}
	found = ddebug_apply_query(&ddebug_tables, &q);
	ddebug_vlog(DDEBUG_V_SUMMARY, "class %s %s%s: %u matches\n",
		    class_name, on ? "+" : "-", dcp->flags, found);
	return found;
}

static void class_remember(const struct ddebug_class_param *dcp)
{
	unsigned int i;

	for (i = 0; i < nr_early_classes; i++)
		if (early_classes[i] == dcp)
			return;
	if (nr_early_classes < EARLY_CLASSES_MAX)
		early_classes[nr_early_classes++] = dcp;
	else
		early_classes_overflow = true;
}

/* Apply the classes whose bit differs between @old and @new. */
static void class_apply(const struct ddebug_class_param *dcp,
			unsigned long old, unsigned long new)
{
	const struct ddebug_class_map *map = dcp->map;
	unsigned int found = 0;
	int i;

	if (!ddebug_core_ready()) {
		class_remember(dcp);
		return;
	}
	/* Every class the update changes, as one write. */
	mutex_lock(&ddebug_write_lock);
	for (i = 0; i < map->length && i < BITS_PER_LONG; i++) {
		bool on = new & BIT(i);

		if (on != !!(old & BIT(i)))
			found += class_switch(dcp, map->class_names[i], on);
	}
	mutex_unlock(&ddebug_write_lock);
	ddebug_vlog(DDEBUG_V_MODULES, "classes 0x%lx -> 0x%lx: %u matches\n",
		    old, new, found);
}

/**
 * ddebug_class_params_replay - apply class parameters set before init
 *
 * Built-in modules' parameters are parsed before the registry exists;
 * their state was kept, and is applied here as a change from "all off".
 */
void __init ddebug_class_params_replay(void)
{
	unsigned int i;

	for (i = 0; i < nr_early_classes; i++)
		class_apply(early_classes[i], 0, class_state(early_classes[i]));
	if (early_classes_overflow)
		pr_err("more than %d class parameters at boot, some not applied\n",
		       EARLY_CLASSES_MAX);
}

/* Index of the class named by the @len characters at @name, or -ENOENT. */
static int class_index(const struct ddebug_class_map *map, const char *name,
		       size_t len)
{
	int i;

	for (i = 0; i < map->length; i++)
		if (strlen(map->class_names[i]) == len &&
		    !strncmp(map->class_names[i], name, len))
			return i;
	return -ENOENT;
}

/* Switch one class of a NAMES parameter on or off, or set its level. */
static void class_set_name(const struct kernel_param *kp, const char *name,
			   size_t len)
{
	const struct ddebug_class_param *dcp = kp->arg;
	const struct ddebug_class_map *map = dcp->map;
	unsigned long old, new;
	bool on = true;
	int id;

	if (len && (*name == '-' || *name == '+')) {
		on = *name == '+';
		name++;
		len--;
	}
	id = class_index(map, name, len);
	if (id < 0) {
		pr_err("%s: unknown class \"%.*s\"\n", kp->name, (int)len, name);
		return;
	}
	old = class_state(dcp);
	if (map->map_type == DD_CLASS_TYPE_LEVEL_NAMES) {
		*dcp->lvl = id + on;
	} else {
		if (on)
			*dcp->bits |= BIT(id);
		else
			*dcp->bits &= ~BIT(id);
	}
	new = class_state(dcp);
	if (new != old)
		class_apply(dcp, old, new);
}

/*
 * "[+-]NAME,[+-]NAME,...": names switch one class each, or set a level.
 * Read in place, without allocating: a built-in module's parameters are
 * set from the command line before the slab allocator exists.
 */
static int class_set_names(const char *instr, const struct kernel_param *kp)
{
	size_t len;

	for (;; instr += len + 1) {
		len = strcspn(instr, ",\n");
		class_set_name(kp, instr, len);
		if (instr[len] != ',')
			return 0;
	}
}

/* A number: a bit mask of classes, or a level. */
static int class_set_number(const char *instr, const struct kernel_param *kp)
{
	const struct ddebug_class_param *dcp = kp->arg;
	const struct ddebug_class_map *map = dcp->map;
	unsigned long value, old = class_state(dcp);

	if (kstrtoul(instr, 0, &value)) {
		pr_err("%s: expected a number, got \"%.*s\"\n", kp->name,
		       (int)strcspn(instr, "\n"), instr);
		return -EINVAL;
	}

	if (map->map_type == DD_CLASS_TYPE_DISJOINT_BITS) {
		if (value & ~class_mask(map->length)) {
			pr_warn("%s: 0x%lx has bits beyond the %d classes, ignoring them\n",
				kp->name, value, map->length);
			value &= class_mask(map->length);
		}
		*dcp->bits = value;
	} else {
		if (value > map->length) {
			pr_warn("%s: level %lu is above the highest, %d; using that\n",
				kp->name, value, map->length);
			value = map->length;
		}
		*dcp->lvl = value;
	}
	class_apply(dcp, old, class_state(dcp));
	return 0;
}

/**
 * param_set_dyndbg_classes - set a class parameter
 * @instr: the value written
 * @kp: the parameter; kp->arg is its struct ddebug_class_param
 *
 * DISJOINT_BITS takes a bit mask, LEVEL_NUM a level; the NAMES types take
 * a comma-separated list of [+-]NAME.  The flags of the parameter are
 * switched on or off for each class whose state changes, in every module
 * declaring that class.
 *
 * Return: 0, or -EINVAL for a malformed number or an unknown map type.
 */
int param_set_dyndbg_classes(const char *instr, const struct kernel_param *kp)
{
	const struct ddebug_class_param *dcp = kp->arg;

	switch (dcp->map->map_type) {
	case DD_CLASS_TYPE_DISJOINT_BITS:
	case DD_CLASS_TYPE_LEVEL_NUM:
		return class_set_number(instr, kp);
	case DD_CLASS_TYPE_DISJOINT_NAMES:
	case DD_CLASS_TYPE_LEVEL_NAMES:
		return class_set_names(instr, kp);
	default:
		pr_err("%s: unknown class map type %d\n", kp->name,
		       dcp->map->map_type);
		return -EINVAL;
	}
}
EXPORT_SYMBOL(param_set_dyndbg_classes);

/**
 * param_get_dyndbg_classes - read a class parameter
 * @buffer: output, a page
 * @kp: the parameter; kp->arg is its struct ddebug_class_param
 *
 * Shows the state last written through the parameter: "0x..." for the
 * DISJOINT types, the level for the LEVEL types.  Control file writes
 * since then are not reflected.
 *
 * Return: number of characters written, or -EINVAL.
 */
int param_get_dyndbg_classes(char *buffer, const struct kernel_param *kp)
{
	const struct ddebug_class_param *dcp = kp->arg;

	switch (dcp->map->map_type) {
	case DD_CLASS_TYPE_DISJOINT_BITS:
	case DD_CLASS_TYPE_DISJOINT_NAMES:
		return scnprintf(buffer, PAGE_SIZE, "0x%lx\n", *dcp->bits);
	case DD_CLASS_TYPE_LEVEL_NUM:
	case DD_CLASS_TYPE_LEVEL_NAMES:
		return scnprintf(buffer, PAGE_SIZE, "%u\n", *dcp->lvl);
	default:
		return -EINVAL;
	}
}
EXPORT_SYMBOL(param_get_dyndbg_classes);

const struct kernel_param_ops param_ops_dyndbg_classes = {
	.set = param_set_dyndbg_classes,
	.get = param_get_dyndbg_classes,
};
EXPORT_SYMBOL(param_ops_dyndbg_classes);
