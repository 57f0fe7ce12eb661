// SPDX-License-Identifier: GPL-2.0
/*
 * A file built with DEBUG defined: its dynamic debug sites must start with
 * printing enabled, so its init message appears without any query.
 */

#define DEBUG

#include <linux/module.h>
#include <linux/printk.h>

#include "test_dyndbg.h"

static noinline void debug_hello(void)
{
	pr_debug("debug module says hello\n");
}

DYNDBG_TEST_DO_PRINTS(debug_hello, "write anything to run every call site once");

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
