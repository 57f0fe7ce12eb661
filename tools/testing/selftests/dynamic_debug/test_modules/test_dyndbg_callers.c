// SPDX-License-Identifier: GPL-2.0
/*
 * Call sites shaped like the in-tree callers that do their own printing
 * behind a dynamic debug site: a test of DYNAMIC_DEBUG_BRANCH() followed
 * by printk() (mm's alloc_contig_dump_pages(), sdhci, ib_srp), a callee
 * of _dynamic_func_call() that ignores its descriptor (vsp1, DRM), and
 * the *_dbg_ratelimited() helpers.  Writing N to a parameter runs its
 * site N times.
 */

#include <linux/device.h>
#include <linux/dynamic_debug.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/printk.h>

#include "test_dyndbg.h"

static struct platform_device *callers_pdev;

static noinline void callers_branch(unsigned int i)
{
	DEFINE_DYNAMIC_DEBUG_METADATA(descriptor, "callers branch");

	if (DYNAMIC_DEBUG_BRANCH(descriptor))
		pr_info("callers branch %u\n", i);
}

/* Like __vsp1_pipeline_dump(): gets the descriptor, prints on its own. */
static void callers_dump(struct _ddebug *unused, unsigned int i)
{
	pr_info("callers func call %u\n", i);
}

static noinline void callers_func_call(unsigned int i)
{
#if defined(CONFIG_DYNAMIC_DEBUG) || \
	(defined(CONFIG_DYNAMIC_DEBUG_CORE) && defined(DYNAMIC_DEBUG_MODULE))
	_dynamic_func_call("callers_dump()", callers_dump, i);
#else
	if (0)
		callers_dump(NULL, i);
#endif
}

static noinline void callers_ratelimited(unsigned int i)
{
	pr_debug_ratelimited("callers ratelimited %u\n", i);
}

static noinline void callers_dev_ratelimited(unsigned int i)
{
	dev_dbg_ratelimited(&callers_pdev->dev, "callers dev ratelimited %u\n",
			    i);
}

DYNDBG_TEST_RUNNER(branch, callers_branch,
		   "run the DYNAMIC_DEBUG_BRANCH() site N times");
DYNDBG_TEST_RUNNER(func_call, callers_func_call,
		   "run the _dynamic_func_call() site N times");
DYNDBG_TEST_RUNNER(ratelimited, callers_ratelimited,
		   "run the pr_debug_ratelimited() site N times");
DYNDBG_TEST_RUNNER(dev_ratelimited, callers_dev_ratelimited,
		   "run the dev_dbg_ratelimited() site N times");

DYNDBG_TEST_DEVICE_MODULE(callers_pdev, "dyndbg-callers");

MODULE_DESCRIPTION("Dynamic debug selftest sites of callers that print on their own");
MODULE_LICENSE("GPL");
