// SPDX-License-Identifier: GPL-2.0
/*
 * Dynamic debug call sites that run many times on request, for the
 * selftests of trace output, rate limits and hit counts.  Writing N to
 * a parameter runs its site N times in a tight loop.
 */

#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/printk.h>

static struct platform_device *loop_pdev;
static const u8 loop_blob[4] = { 0x64, 0x79, 0x6e, 0x64 };

static noinline void loop_plain(unsigned int i)
{
	pr_debug("loop plain %u\n", i);
}

static noinline void loop_device(unsigned int i)
{
	dev_dbg(&loop_pdev->dev, "loop device %u\n", i);
}

static noinline void loop_hexdump(void)
{
	print_hex_dump_debug("loop hexdump: ", DUMP_PREFIX_NONE, 16, 1,
			     loop_blob, sizeof(loop_blob), false);
}

/* Run @site @val times. */
static int loop_run(const char *val, void (*site)(unsigned int))
{
	unsigned int i, n;
	int ret;

	ret = kstrtouint(val, 0, &n);
	if (ret)
		return ret;
	for (i = 1; i <= n; i++)
		site(i);
	return 0;
}

static int loop_set_plain(const char *val, const struct kernel_param *kp)
{
	return loop_run(val, loop_plain);
}

static int loop_set_device(const char *val, const struct kernel_param *kp)
{
	return loop_run(val, loop_device);
}

static void loop_hexdump_once(unsigned int i)
{
	loop_hexdump();
}

static int loop_set_hexdump(const char *val, const struct kernel_param *kp)
{
	return loop_run(val, loop_hexdump_once);
}

static const struct kernel_param_ops loop_plain_ops = {
	.set = loop_set_plain,
};

static const struct kernel_param_ops loop_device_ops = {
	.set = loop_set_device,
};

static const struct kernel_param_ops loop_hexdump_ops = {
	.set = loop_set_hexdump,
};

module_param_cb(plain, &loop_plain_ops, NULL, 0200);
MODULE_PARM_DESC(plain, "run the pr_debug() site N times");
module_param_cb(device, &loop_device_ops, NULL, 0200);
MODULE_PARM_DESC(device, "run the dev_dbg() site N times");
module_param_cb(hexdump, &loop_hexdump_ops, NULL, 0200);
MODULE_PARM_DESC(hexdump, "run the print_hex_dump_debug() site N times");

static int __init loop_init(void)
{
	loop_pdev = platform_device_register_simple("dyndbg-loop",
						    PLATFORM_DEVID_NONE,
						    NULL, 0);
	return PTR_ERR_OR_ZERO(loop_pdev);
}

static void __exit loop_exit(void)
{
	platform_device_unregister(loop_pdev);
}

module_init(loop_init);
module_exit(loop_exit);

MODULE_DESCRIPTION("Dynamic debug selftest sites that run in loops");
MODULE_LICENSE("GPL");
