// SPDX-License-Identifier: GPL-2.0
/*
 * Dynamic debug call sites that run many times on request, for the
 * selftests of trace output, rate limits and hit counts.  Writing N to
 * a parameter runs its site N times in a tight loop.
 */

#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/printk.h>

#include "test_dyndbg.h"

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

static void loop_hexdump_once(unsigned int i)
{
	loop_hexdump();
}

DYNDBG_TEST_RUNNER(plain, loop_plain, "run the pr_debug() site N times");
DYNDBG_TEST_RUNNER(device, loop_device, "run the dev_dbg() site N times");
DYNDBG_TEST_RUNNER(hexdump, loop_hexdump_once,
		   "run the print_hex_dump_debug() site N times");

DYNDBG_TEST_DEVICE_MODULE(loop_pdev, "dyndbg-loop");

MODULE_DESCRIPTION("Dynamic debug selftest sites that run in loops");
MODULE_LICENSE("GPL");
