/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the dynamic debug selftest modules share: the write-only parameters
 * through which the selftests run their call sites, and the platform
 * device that their dev_dbg() sites print about.
 */
#ifndef TEST_DYNDBG_H
#define TEST_DYNDBG_H

#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/platform_device.h>

/* A write-only parameter @name, set through @ops with @arg. */
#define DYNDBG_TEST_PARAM(name, ops, arg, desc)				\
	module_param_cb(name, ops, arg, 0200);				\
	MODULE_PARM_DESC(name, desc)

/*
 * What a parameter runs: @site(1), ..., @site(N) for a write of N, or
 * @all() once for a write of anything.
 */
struct dyndbg_test_runner {
	void (*site)(unsigned int i);
	void (*all)(void);
};

static inline int dyndbg_test_run(const char *val,
				  const struct kernel_param *kp)
{
	const struct dyndbg_test_runner *r = kp->arg;
	unsigned int i, n;
	int ret;

	ret = kstrtouint(val, 0, &n);
	if (ret)
		return ret;
	for (i = 1; i <= n; i++)
		r->site(i);
	return 0;
}

static inline int dyndbg_test_run_all(const char *val,
				      const struct kernel_param *kp)
{
	const struct dyndbg_test_runner *r = kp->arg;

	r->all();
	return 0;
}

/* A parameter @name whose writes call @setter with @runner. */
#define DYNDBG_TEST_RUNNER_PARAM(name, setter, runner, desc)		\
	static struct dyndbg_test_runner name##_runner = runner;	\
	static const struct kernel_param_ops name##_runner_ops = {	\
		.set = setter,						\
	};								\
	DYNDBG_TEST_PARAM(name, &name##_runner_ops, &name##_runner, desc)

/* A parameter @name: writing N to it runs @fn N times. */
#define DYNDBG_TEST_RUNNER(name, fn, desc)				\
	DYNDBG_TEST_RUNNER_PARAM(name, dyndbg_test_run, { .site = fn }, desc)

/* A parameter do_prints: writing anything to it calls @fn() once. */
#define DYNDBG_TEST_DO_PRINTS(fn, desc)					\
	DYNDBG_TEST_RUNNER_PARAM(do_prints, dyndbg_test_run_all,	\
				 { .all = fn }, desc)

/*
 * The module's init and exit, which only register and unregister the
 * platform device @pdev named @devname.
 */
#define DYNDBG_TEST_DEVICE_MODULE(pdev, devname)			\
	static int __init pdev##_init(void)				\
	{								\
		pdev = platform_device_register_simple(devname,		\
						       PLATFORM_DEVID_NONE, \
						       NULL, 0);	\
		return PTR_ERR_OR_ZERO(pdev);				\
	}								\
	module_init(pdev##_init);					\
	static void __exit pdev##_exit(void)				\
	{								\
		platform_device_unregister(pdev);			\
	}								\
	module_exit(pdev##_exit)

#endif /* TEST_DYNDBG_H */
