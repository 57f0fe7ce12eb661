// SPDX-License-Identifier: GPL-2.0
/*
 * A pretend platform driver that narrates how it probes a made-up sensor
 * board with dev_dbg(): the device a dynamic debug user would debug. The
 * selftests and the "make run" demo turn its messages on and off.
 *
 * The selftests name the probe messages by line, found by their formats
 * (see DRIVER_* in ../functions.sh): they must stay on consecutive lines.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/platform_device.h>

#define DEMO_NAME	"dyndbg-demo"
#define DEMO_CHIP_ID	0x5a17
#define DEMO_CHANNELS	4

struct demo_chip {
	u16 id;
	u8 fw_maj, fw_min, fw_rev;
	unsigned int channels;
};

static struct platform_device *demo_pdev;

/* Stands in for register reads over a bus this board does not have. */
static u16 demo_read_reg(struct device *dev, unsigned int reg)
{
	u16 val = reg == 0 ? DEMO_CHIP_ID : 0x0300 | (reg & 0xff);

	dev_dbg(dev, "reg 0x%02x -> 0x%04x\n", reg, val);
	return val;
}

static int dyndbg_demo_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct demo_chip *chip;
	u16 fw;

	chip = devm_kzalloc(dev, sizeof(*chip), GFP_KERNEL);
	if (!chip)
		return -ENOMEM;
	chip->id = demo_read_reg(dev, 0);
	fw = demo_read_reg(dev, 1);
	chip->fw_maj = fw >> 8;
	chip->fw_min = (fw >> 4) & 0xf;
	chip->fw_rev = fw & 0xf;
	chip->channels = DEMO_CHANNELS;
	platform_set_drvdata(pdev, chip);

	dev_dbg(dev, "probing %s\n", DEMO_NAME);
	dev_dbg(dev, "reading ID register: 0x%04x\n", chip->id);
	dev_dbg(dev, "firmware version %u.%u.%u\n", chip->fw_maj, chip->fw_min, chip->fw_rev);
	dev_dbg(dev, "found %u channels\n", chip->channels);
	dev_dbg(dev, "probe complete\n");
	return 0;
}

static void dyndbg_demo_remove(struct platform_device *pdev)
{
	dev_dbg(&pdev->dev, "removing, %u channels idle\n",
		((struct demo_chip *)platform_get_drvdata(pdev))->channels);
}

static struct platform_driver dyndbg_demo_driver = {
	.probe = dyndbg_demo_probe,
	.remove = dyndbg_demo_remove,
	.driver = {
		.name = DEMO_NAME,
	},
};

static int __init dyndbg_demo_init(void)
{
	int ret;

	pr_debug("registering the %s driver\n", DEMO_NAME);
	ret = platform_driver_register(&dyndbg_demo_driver);
	if (ret)
		return ret;

	demo_pdev = platform_device_register_simple(DEMO_NAME, 0, NULL, 0);
	if (IS_ERR(demo_pdev)) {
		platform_driver_unregister(&dyndbg_demo_driver);
		return PTR_ERR(demo_pdev);
	}
	pr_debug("%s device added\n", dev_name(&demo_pdev->dev));
	return 0;
}

static void __exit dyndbg_demo_exit(void)
{
	platform_device_unregister(demo_pdev);
	platform_driver_unregister(&dyndbg_demo_driver);
	pr_debug("driver unregistered\n");
}

module_init(dyndbg_demo_init);
module_exit(dyndbg_demo_exit);

MODULE_DESCRIPTION("Dynamic debug selftest module laid out like a driver");
MODULE_LICENSE("GPL");
