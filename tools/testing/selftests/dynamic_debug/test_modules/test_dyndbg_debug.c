// SPDX-License-Identifier: GPL-2.0
/*
 * A file built with DEBUG defined: its dynamic debug sites must start with
 * printing enabled, so its init message appears without any query.
 */

#define DEBUG

#include <linux/module.h>
#include <linux/printk.h>

static noinline void debug_hello(void)
{
	pr_debug("debug module says hello\n");
}

static int debug_set_do_prints(const char *val, const struct kernel_param *kp)
{
	debug_hello();
	return 0;
}

static const struct kernel_param_ops debug_do_prints_ops = {
	.set = debug_set_do_prints,
};
module_param_cb(do_prints, &debug_do_prints_ops, NULL, 0200);
MODULE_PARM_DESC(do_prints, "write anything to run every call site once");

static int __init debug_init(void)
{
	pr_debug("debug module init, enabled by DEBUG\n");
	return 0;
}

static void __exit debug_exit(void)
{
	pr_debug("debug module exit\n");
}

module_init(debug_init);
module_exit(debug_exit);

MODULE_DESCRIPTION("Dynamic debug selftest module built with DEBUG defined");
MODULE_LICENSE("GPL");
