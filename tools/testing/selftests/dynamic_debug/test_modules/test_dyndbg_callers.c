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

/* What a parameter runs: writing N to it runs @site N times. */
struct callers_site {
	void (*site)(unsigned int i);
};

static int callers_run(const char *val, const struct kernel_param *kp)
{
	const struct callers_site *cs = kp->arg;
	unsigned int i, n;
	int ret;

	ret = kstrtouint(val, 0, &n);
	if (ret)
		return ret;
	for (i = 1; i <= n; i++)
		cs->site(i);
	return 0;
}

static const struct kernel_param_ops callers_ops = {
	.set = callers_run,
};

static struct callers_site branch_site = { callers_branch };
static struct callers_site func_call_site = { callers_func_call };
static struct callers_site ratelimited_site = { callers_ratelimited };
static struct callers_site dev_ratelimited_site = { callers_dev_ratelimited };

module_param_cb(branch, &callers_ops, &branch_site, 0200);
MODULE_PARM_DESC(branch, "run the DYNAMIC_DEBUG_BRANCH() site N times");
module_param_cb(func_call, &callers_ops, &func_call_site, 0200);
MODULE_PARM_DESC(func_call, "run the _dynamic_func_call() site N times");
module_param_cb(ratelimited, &callers_ops, &ratelimited_site, 0200);
MODULE_PARM_DESC(ratelimited, "run the pr_debug_ratelimited() site N times");
module_param_cb(dev_ratelimited, &callers_ops, &dev_ratelimited_site, 0200);
MODULE_PARM_DESC(dev_ratelimited, "run the dev_dbg_ratelimited() site N times");

static int __init callers_init(void)
{
	callers_pdev = platform_device_register_simple("dyndbg-callers",
						       PLATFORM_DEVID_NONE,
						       NULL, 0);
	return PTR_ERR_OR_ZERO(callers_pdev);
}

static void __exit callers_exit(void)
{
	platform_device_unregister(callers_pdev);
}

module_init(callers_init);
module_exit(callers_exit);

MODULE_DESCRIPTION("Dynamic debug selftest sites of callers that print on their own");
MODULE_LICENSE("GPL");
