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

#include "test_dyndbg.h"

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

static void line_run(void)
{
	line_both(++line_runs);
}

DYNDBG_TEST_DO_PRINTS(line_run, "write anything to run both call sites once");

MODULE_DESCRIPTION("Dynamic debug selftest: two call sites on one line");
MODULE_LICENSE("GPL");
