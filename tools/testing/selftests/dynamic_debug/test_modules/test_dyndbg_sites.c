// SPDX-License-Identifier: GPL-2.0
/*
 * Dynamic debug call sites with known functions, lines and formats, for the
 * selftests. Writing anything to the do_prints parameter runs every site.
 *
 * The selftests name these sites by function, format and line number (see
 * SITES_* in ../functions.sh, which finds the lines by the formats).
 */

#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/printk.h>

#include "test_dyndbg.h"

static struct platform_device *sites_pdev;
static unsigned int sites_runs;
static const u8 sites_blob[20] = {
	0x64, 0x79, 0x6e, 0x64, 0x62, 0x67, 0x00, 0x01, 0x02, 0x03,
	0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d,
};

/* Two plain sites, one with an argument. */
static noinline void sites_alpha(int n)
{
	pr_debug("alpha one\n");
	pr_debug("alpha two n=%d\n", n);
}

/* Two sites with string and hex arguments. */
static noinline void sites_beta(const char *s, unsigned int x)
{
	pr_debug("beta one s=%s\n", s);
	pr_debug("beta two x=0x%x\n", x);
}

/* Formats that the control file must escape, or print as they are. */
static noinline void sites_gamma(void)
{
	pr_debug("gamma tab\there\n");
	pr_debug("gamma quote \"q\" end\n");
	pr_debug("gamma newline\nsecond line\n");
	pr_debug("gamma carriage\r return\n");
	pr_debug("gamma percent 100%% done\n");
}

/* A hex dump, a rate-limited site and a device site. */
static noinline void sites_delta(void)
{
	print_hex_dump_debug("delta hexdump: ", DUMP_PREFIX_OFFSET, 16, 1,
			     sites_blob, sizeof(sites_blob), false);
	pr_debug_ratelimited("delta ratelimited\n");
	if (sites_pdev)
		dev_dbg(&sites_pdev->dev, "delta device message\n");
}

/*
 * The cost of a disabled site, for check_nop_shape.sh: a site ahead of a
 * long body. Built -O2 (see Makefile), its jump-label NOP is the 5-byte
 * form and the print call sits after the function's return.
 */
static char sites_report[256];

static noinline size_t sites_fill_report(unsigned int run)
{
	char *p = sites_report, *end = sites_report + sizeof(sites_report);

	pr_debug("filling report %u\n", run);
	p += scnprintf(p, end - p, "run %u\n", run);
	p += scnprintf(p, end - p, "blob %zu bytes at %p\n",
		       sizeof(sites_blob), sites_blob);
	p += scnprintf(p, end - p, "blob starts %*phN\n", 6, sites_blob);
	p += scnprintf(p, end - p, "blob ends %*phN\n", 4,
		       sites_blob + sizeof(sites_blob) - 4);
	p += scnprintf(p, end - p, "device %s\n",
		       sites_pdev ? dev_name(&sites_pdev->dev) : "none");
	p += scnprintf(p, end - p, "module %s\n", THIS_MODULE->name);
	return p - sites_report;
}

static void sites_run_all(void)
{
	sites_runs++;
	sites_alpha(sites_runs);
	sites_beta("bee", 0xbeef + sites_runs);
	sites_gamma();
	sites_delta();
	sites_fill_report(sites_runs);
}

DYNDBG_TEST_DO_PRINTS(sites_run_all, "write anything to run every call site once");

static int __init sites_init(void)
{
	pr_debug("sites init start\n");
	sites_pdev = platform_device_register_simple("dyndbg-sites",
						     PLATFORM_DEVID_NONE,
						     NULL, 0);
	if (IS_ERR(sites_pdev))
		return PTR_ERR(sites_pdev);
	pr_debug("sites init done\n");
	return 0;
}

static void __exit sites_exit(void)
{
	struct platform_device *pdev;

	/*
	 * Writes to do_prints run under the parameter lock and may still
	 * come while the module goes: they must not see the device going.
	 */
	kernel_param_lock(THIS_MODULE);
	pdev = sites_pdev;
	sites_pdev = NULL;
	kernel_param_unlock(THIS_MODULE);
	platform_device_unregister(pdev);
	pr_debug("sites exit\n");
}

module_init(sites_init);
module_exit(sites_exit);

MODULE_DESCRIPTION("Dynamic debug selftest call sites at known places");
MODULE_LICENSE("GPL");
