// SPDX-License-Identifier: GPL-2.0
/*
 * Dynamic debug call sites run in the contexts an enabled site must print
 * from without sleeping: task context, with preemption disabled, under a
 * raw spinlock with interrupts off, in a timer's softirq, and in a hard
 * interrupt (an hrtimer that expires in hard interrupt context, also on
 * PREEMPT_RT, where spinlock_t sleeps).  Writing N to the parameter named
 * after a context runs every site N times there; the write returns once
 * they ran, and fails if they ran in another context or not at all.
 */

#include <linux/completion.h>
#include <linux/dynamic_debug.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/preempt.h>
#include <linux/printk.h>
#include <linux/spinlock.h>
#include <linux/timer.h>

#include "test_dyndbg.h"

/* Most runs of the sites one write asks for: a hard interrupt is short. */
#define CONTEXTS_MAX_RUNS	100
/* How long a write waits for a timer to run the sites. */
#define CONTEXTS_TIMEOUT	(10 * HZ)

enum contexts_kind {
	CONTEXTS_TASK,
	CONTEXTS_PREEMPT,
	CONTEXTS_RAWLOCK,
	CONTEXTS_SOFTIRQ,
	CONTEXTS_HARDIRQ,
};

/**
 * struct contexts_place - a context that a parameter runs the sites in
 * @kind: which context
 * @name: its name, the parameter's, and the word after each site's own in
 *	the messages ("contexts plain hardirq 3")
 */
struct contexts_place {
	enum contexts_kind kind;
	const char *name;
};

/**
 * struct contexts_run - the run a write asked for
 * @place: where the sites run
 * @count: how many times each site runs
 * @wrong: the sites found themselves in another context than @place
 * @done: completed once the sites ran, from the timers
 */
struct contexts_run {
	const struct contexts_place *place;
	unsigned int count;
	bool wrong;
	struct completion done;
};

static struct platform_device *contexts_pdev;
static const u8 contexts_blob[4] = { 0x64, 0x79, 0x6e, 0x64 };

/* Taken with interrupts off around the sites of the "rawlock" context. */
static DEFINE_RAW_SPINLOCK(contexts_raw_lock);
/* One run at a time: protects contexts_ready, contexts_req and the timers. */
static DEFINE_MUTEX(contexts_mutex);
/* The timers and the device exist: from the end of init to exit. */
static bool contexts_ready;
static struct contexts_run contexts_req;
static struct hrtimer contexts_hrtimer;
static struct timer_list contexts_timer;

static noinline void contexts_plain(const char *ctx, unsigned int i)
{
	pr_debug("contexts plain %s %u\n", ctx, i);
}

static noinline void contexts_device(const char *ctx, unsigned int i)
{
	dev_dbg(&contexts_pdev->dev, "contexts device %s %u\n", ctx, i);
}

/* A DYNAMIC_DEBUG_BRANCH() user: the site's test, then a rate limit. */
static noinline void contexts_ratelimited(const char *ctx, unsigned int i)
{
	pr_debug_ratelimited("contexts ratelimited %s %u\n", ctx, i);
}

/* The core decides, print_hex_dump() prints. */
static noinline void contexts_hexdump(const char *ctx)
{
	char prefix[32];

	snprintf(prefix, sizeof(prefix), "contexts hexdump %s: ", ctx);
	print_hex_dump_debug(prefix, DUMP_PREFIX_NONE, 16, 1, contexts_blob,
			     sizeof(contexts_blob), false);
}

/* Whether the caller runs in the context @kind names. */
static bool contexts_in(enum contexts_kind kind)
{
	switch (kind) {
	case CONTEXTS_TASK:
		return in_task() && !irqs_disabled();
	case CONTEXTS_PREEMPT:
		return in_task() &&
		       (!IS_ENABLED(CONFIG_PREEMPT_COUNT) || preempt_count());
	case CONTEXTS_RAWLOCK:
		return in_task() && irqs_disabled();
	case CONTEXTS_SOFTIRQ:
		return in_serving_softirq() && !in_hardirq();
	case CONTEXTS_HARDIRQ:
		return in_hardirq();
	}
	return false;
}

/* Run every site @req->count times, here; then say it is done. */
static void contexts_sites(struct contexts_run *req)
{
	const char *ctx = req->place->name;
	unsigned int i;

	req->wrong = !contexts_in(req->place->kind);
	for (i = 1; i <= req->count; i++) {
		contexts_plain(ctx, i);
		contexts_device(ctx, i);
		contexts_ratelimited(ctx, i);
		contexts_hexdump(ctx);
	}
	complete(&req->done);
}

static enum hrtimer_restart contexts_hrtimer_fn(struct hrtimer *t)
{
	contexts_sites(&contexts_req);
	return HRTIMER_NORESTART;
}

static void contexts_timer_fn(struct timer_list *t)
{
	contexts_sites(&contexts_req);
}

/* Run the sites of @req where it asks, and wait for them. */
static int contexts_dispatch(struct contexts_run *req)
{
	unsigned long flags;

	switch (req->place->kind) {
	case CONTEXTS_TASK:
		contexts_sites(req);
		break;
	case CONTEXTS_PREEMPT:
		preempt_disable();
		contexts_sites(req);
		preempt_enable();
		break;
	case CONTEXTS_RAWLOCK:
		raw_spin_lock_irqsave(&contexts_raw_lock, flags);
		contexts_sites(req);
		raw_spin_unlock_irqrestore(&contexts_raw_lock, flags);
		break;
	case CONTEXTS_SOFTIRQ:
		mod_timer(&contexts_timer, jiffies + 1);
		break;
	case CONTEXTS_HARDIRQ:
		hrtimer_start(&contexts_hrtimer, ns_to_ktime(100 * NSEC_PER_USEC),
			      HRTIMER_MODE_REL_HARD);
		break;
	}
	if (!wait_for_completion_timeout(&req->done, CONTEXTS_TIMEOUT)) {
		hrtimer_cancel(&contexts_hrtimer);
		timer_delete_sync(&contexts_timer);
		if (!completion_done(&req->done))
			return -ETIMEDOUT;
	}
	return req->wrong ? -EIO : 0;
}

/* Writing N runs the sites N times in the parameter's context. */
static int contexts_set(const char *val, const struct kernel_param *kp)
{
	struct contexts_run *req = &contexts_req;
	struct contexts_place *place = kp->arg;
	unsigned int n;
	int ret;

	ret = kstrtouint(val, 0, &n);
	if (ret)
		return ret;
	if (n > CONTEXTS_MAX_RUNS)
		return -ERANGE;
	mutex_lock(&contexts_mutex);
	if (contexts_ready) {
		req->place = place;
		req->count = n;
		req->wrong = false;
		reinit_completion(&req->done);
		ret = contexts_dispatch(req);
	} else {
		ret = -EAGAIN;	/* a load argument, before init */
	}
	mutex_unlock(&contexts_mutex);
	if (ret == -EIO)
		pr_err("the sites did not run in %s context\n", place->name);
	return ret;
}

static const struct kernel_param_ops contexts_ops = {
	.set = contexts_set,
};

static struct contexts_place task_place = { CONTEXTS_TASK, "task" };
static struct contexts_place preempt_place = { CONTEXTS_PREEMPT, "preempt" };
static struct contexts_place rawlock_place = { CONTEXTS_RAWLOCK, "rawlock" };
static struct contexts_place softirq_place = { CONTEXTS_SOFTIRQ, "softirq" };
static struct contexts_place hardirq_place = { CONTEXTS_HARDIRQ, "hardirq" };

DYNDBG_TEST_PARAM(task, &contexts_ops, &task_place,
		  "run every site N times in task context");
DYNDBG_TEST_PARAM(preempt, &contexts_ops, &preempt_place,
		  "run every site N times with preemption disabled");
DYNDBG_TEST_PARAM(rawlock, &contexts_ops, &rawlock_place,
		  "run every site N times under a raw spinlock, interrupts off");
DYNDBG_TEST_PARAM(softirq, &contexts_ops, &softirq_place,
		  "run every site N times in a timer's softirq");
DYNDBG_TEST_PARAM(hardirq, &contexts_ops, &hardirq_place,
		  "run every site N times in a hard interrupt (hrtimer)");

static int __init contexts_init(void)
{
	init_completion(&contexts_req.done);
	hrtimer_init(&contexts_hrtimer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	contexts_hrtimer.function = contexts_hrtimer_fn;
	timer_setup(&contexts_timer, contexts_timer_fn, 0);
	contexts_pdev = platform_device_register_simple("dyndbg-contexts",
							PLATFORM_DEVID_NONE,
							NULL, 0);
	if (IS_ERR(contexts_pdev))
		return PTR_ERR(contexts_pdev);
	mutex_lock(&contexts_mutex);
	contexts_ready = true;
	mutex_unlock(&contexts_mutex);
	return 0;
}

static void __exit contexts_exit(void)
{
	mutex_lock(&contexts_mutex);
	contexts_ready = false;
	mutex_unlock(&contexts_mutex);
	hrtimer_cancel(&contexts_hrtimer);
	timer_shutdown_sync(&contexts_timer);
	platform_device_unregister(contexts_pdev);
}

module_init(contexts_init);
module_exit(contexts_exit);

MODULE_DESCRIPTION("Dynamic debug selftest sites run in atomic and interrupt contexts");
MODULE_LICENSE("GPL");
