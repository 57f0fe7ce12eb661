// SPDX-License-Identifier: GPL-2.0
/*
 * The order in which the dynamic debug core comes up and follows modules:
 * first the registry, then the parameters that act on it.  The only file
 * that calls both layers.
 */

#define pr_fmt(fmt) "dyndbg: " fmt

#include <linux/init.h>
#include <linux/module.h>
#include <linux/notifier.h>

#include "ddebug.h"

#ifdef CONFIG_MODULES

static int module_coming(struct module *mod)
{
	struct _ddebug_info *di = &mod->dyndbg_info;
	int ret;

	ddebug_names_resolve(di->names, di->num_names);
	ret = ddebug_table_add(mod->name, di->descs, di->num_descs,
			       di->classes, di->num_classes);
	if (ret) {
		pr_err("%s: no memory for its debug sites\n", mod->name);
		return ret;
	}
	/* Command-line queries run before the module's own parameters. */
	ddebug_params_module_coming(mod->name, mod->args);
	return 0;
}

static int ddebug_module_notify(struct notifier_block *nb, unsigned long state,
				void *data)
{
	struct module *mod = data;

	switch (state) {
	case MODULE_STATE_COMING:
		return notifier_from_errno(module_coming(mod));
	case MODULE_STATE_GOING:
		ddebug_table_remove(mod->name);
		break;
	}
	return NOTIFY_DONE;
}

/* Priority 0: after jump_label's notifier has set up the module's keys. */
static struct notifier_block ddebug_module_nb = {
	.notifier_call = ddebug_module_notify,
	.priority = 0,
};

static int __init follow_modules(void)
{
	return register_module_notifier(&ddebug_module_nb);
}

#else

static int __init follow_modules(void)
{
	return 0;
}

#endif /* CONFIG_MODULES */

static int __init ddebug_init(void)
{
	int ret;

	ret = ddebug_tables_add_builtin();
	if (ret) {
		pr_err("no memory for the built-in call sites, disabled\n");
		ddebug_tables_remove_all();
		return ret;
	}

	ret = follow_modules();
	if (ret) {
		pr_err("cannot watch module loading (%d), disabled\n", ret);
		ddebug_tables_remove_all();
		return ret;
	}

	ddebug_class_params_replay();
	ddebug_params_boot();
	return 0;
}

/* Early, so that boot queries reach the first initcalls that matter. */
early_initcall(ddebug_init);
