// SPDX-License-Identifier: GPL-2.0
/*
 * Two dynamic debug call sites on one source line, from one macro
 * expansion: same file, line, module and function, different formats.
 * The selftests give them different flags and check that a saved control
 * listing, written back, restores each site's own (test-replay-line.sh).
 * Writing anything to the do_prints parameter runs both sites.
 */

#include <linux/module.h>
#include <linux/printk.h>

/* Both sites get the line of the macro's use. */
#define line_pair(n)							\
do {									\
	unsigned int line_n = (n);					\
									\
	pr_debug("line pair one\t%u\n", line_n);			\
	pr_debug("line pair two \"%u\"\n", line_n);			\
} while (0)

static unsigned int line_runs;

static noinline void line_both(unsigned int n)
{
	line_pair(n);
}

static int line_set_do_prints(const char *val, const struct kernel_param *kp)
{
	line_both(++line_runs);
	return 0;
}

static const struct kernel_param_ops line_do_prints_ops = {
	.set = line_set_do_prints,
};
module_param_cb(do_prints, &line_do_prints_ops, NULL, 0200);
MODULE_PARM_DESC(do_prints, "write anything to run both call sites once");

static int __init line_init(void)
{
	return 0;
}

static void __exit line_exit(void)
{
}

module_init(line_init);
module_exit(line_exit);

MODULE_DESCRIPTION("Dynamic debug selftest: two call sites on one line");
MODULE_LICENSE("GPL");
