// SPDX-License-Identifier: GPL-2.0
/*
 * What dynamic debug keeps about call sites beyond their descriptors: how
 * often each enabled site fired (hit counts), and the rate limit of each
 * site with the 'r' flag.  Neither grows the descriptor.
 */

#define pr_fmt(fmt) "dyndbg: " fmt

#include <linux/atomic.h>
#include <linux/jiffies.h>
#include <linux/lockdep.h>
#include <linux/maple_tree.h>
#include <linux/moduleparam.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/xarray.h>

#include "ddebug.h"

/*
 * Hit counts live in one array per table, allocated the first time one of
 * the table's sites is enabled (or at registration, for sites that start
 * enabled) and freed with the table: a table whose sites were never
 * enabled costs nothing, one that was costs a counter per site.  The
 * printing path finds the array from the descriptor's address through a
 * maple tree of the tables' address ranges, under RCU, without
 * ddebug_lock: the descriptor itself has no room for a pointer.
 */
struct ddebug_counts {
	const struct _ddebug *sites;
	unsigned int num_sites;
	struct rcu_head rcu;
	atomic_long_t hits[] __counted_by(num_sites);
};

/* Address ranges of tables with counters; readers use RCU. */
static struct maple_tree counted_tables = MTREE_INIT(counted_tables,
						     MT_FLAGS_USE_RCU);

/*
 * The counters found last, tried before the tree: a site that fires
 * usually fires again, or one of its table does.  A reader may store
 * counters just detached (it found them before they left the tree), so
 * detaching clears this twice, before and one grace period after, and
 * frees a grace period later (counts_free()).
 */
static struct ddebug_counts __rcu *last_counts;

/*
 * The rate limit of a site that has 'r', allocated when the flag is set
 * and freed (after an RCU grace period) when it is cleared or the table
 * goes.  Kept in an xarray indexed by the descriptor's address divided by
 * its size: distinct descriptors never share an index.
 */
struct site_ratelimit {
	raw_spinlock_t lock;
	unsigned long begin;	/* jiffies when the interval began, or 0 */
	unsigned int printed;	/* messages let through in this interval */
	atomic_t missed;	/* suppressed since the last report */
	struct rcu_head rcu;
};

/* Rate limits by site_key(); changed under ddebug_lock, read under RCU. */
static DEFINE_XARRAY(ratelimits);

/* Default rate limit, as printk_ratelimited() has it. */
static unsigned int ratelimit_burst = 10;
module_param(ratelimit_burst, uint, 0644);
MODULE_PARM_DESC(ratelimit_burst,
		 "messages an 'r' site prints per interval (default 10)");

static unsigned int ratelimit_interval_ms = 5000;
module_param(ratelimit_interval_ms, uint, 0644);
MODULE_PARM_DESC(ratelimit_interval_ms,
		 "interval of the 'r' rate limit in milliseconds, 0 for none (default 5000)");

static unsigned long site_key(const struct _ddebug *dp)
{
	return (unsigned long)dp / sizeof(*dp);
}

static int counts_attach(struct ddebug_table *dt)
{
	struct ddebug_counts *c;
	unsigned long first = (unsigned long)dt->sites;
	size_t size = struct_size(c, hits, dt->num_sites);
	int ret;

	c = kvzalloc(size, GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	c->sites = dt->sites;
	c->num_sites = dt->num_sites;
	ret = mtree_insert_range(&counted_tables, first,
				 first + dt->num_sites * sizeof(*dt->sites) - 1,
				 c, GFP_KERNEL);
	if (ret) {
		kvfree(c);
		return ret;
	}
	dt->counts = c;
	ddebug_vlog(DDEBUG_V_MODULES, "%s: hit counters, %zu bytes\n",
		    dt->mod_name, size);
	return 0;
}

static void counts_forget(struct ddebug_counts *c)
{
	/* Only this pointer's own value is compared: no dereference. */
	cmpxchg((struct ddebug_counts __force **)&last_counts, c, NULL);
}

static void counts_free(struct rcu_head *rcu)
{
	struct ddebug_counts *c = container_of(rcu, struct ddebug_counts, rcu);

	counts_forget(c);
	kvfree_rcu(c, rcu);
}

static void counts_detach(struct ddebug_table *dt)
{
	struct ddebug_counts *c = dt->counts;

	if (!c)
		return;
	mtree_erase(&counted_tables, (unsigned long)dt->sites);
	dt->counts = NULL;
	counts_forget(c);
	call_rcu(&c->rcu, counts_free);
}

static bool counts_cover(const struct ddebug_counts *c,
			 const struct _ddebug *dp)
{
	return c && dp >= c->sites && dp < c->sites + c->num_sites;
}

/* Context: rcu_read_lock() held. */
static void count_hit(const struct _ddebug *dp)
{
	struct ddebug_counts *c = rcu_dereference(last_counts);

	if (!counts_cover(c, dp)) {
		c = mtree_load(&counted_tables, (unsigned long)dp);
		if (!c)
			return;
		rcu_assign_pointer(last_counts, c);
	}
	atomic_long_inc(&c->hits[dp - c->sites]);
}

/**
 * ddebug_site_hits - how often a site fired since its table was counted
 * @dt: the site's table
 * @dp: the site
 *
 * Context: ddebug_lock held.
 * Return: the count, 0 if the table's sites were never enabled.
 */
unsigned long ddebug_site_hits(const struct ddebug_table *dt,
			       const struct _ddebug *dp)
{
	lockdep_assert_held(&ddebug_lock);
	if (!dt->counts)
		return 0;
	return atomic_long_read(&dt->counts->hits[dp - dt->sites]);
}

/**
 * ddebug_hits_reset - set the hit counts of a table's sites to zero
 * @dt: the table
 *
 * Context: ddebug_lock held.
 */
void ddebug_hits_reset(struct ddebug_table *dt)
{
	unsigned int i;

	lockdep_assert_held(&ddebug_lock);
	if (!dt->counts)
		return;
	for (i = 0; i < dt->num_sites; i++)
		atomic_long_set(&dt->counts->hits[i], 0);
}

static int ratelimit_attach(const struct _ddebug *dp)
{
	struct site_ratelimit *rl;
	int ret;

	rl = kzalloc(sizeof(*rl), GFP_KERNEL);
	if (!rl)
		return -ENOMEM;
	raw_spin_lock_init(&rl->lock);
	ret = xa_err(xa_store(&ratelimits, site_key(dp), rl, GFP_KERNEL));
	if (ret)
		kfree(rl);
	return ret;
}

static void ratelimit_detach(const struct _ddebug *dp)
{
	struct site_ratelimit *rl = xa_erase(&ratelimits, site_key(dp));

	if (rl)
		kfree_rcu(rl, rcu);
}

/*
 * Let a message through if the interval's burst is not used up.  A new
 * interval hands back, in @missed, how many the last one suppressed.
 * Never waits: a message that finds the state busy (another CPU, or this
 * one interrupted) is suppressed and counted.
 */
static bool ratelimit_pass(struct site_ratelimit *rl, unsigned int *missed)
{
	unsigned long interval = msecs_to_jiffies(READ_ONCE(ratelimit_interval_ms));
	unsigned int burst = READ_ONCE(ratelimit_burst);
	unsigned long flags;
	bool pass;

	if (!interval)
		return true;
	if (!raw_spin_trylock_irqsave(&rl->lock, flags)) {
		atomic_inc(&rl->missed);
		return false;
	}
	if (!rl->begin || time_after(jiffies, rl->begin + interval)) {
		*missed = atomic_xchg(&rl->missed, 0);
		rl->begin = jiffies;
		rl->printed = 0;
	}
	pass = rl->printed < burst;
	if (pass)
		rl->printed++;
	else
		atomic_inc(&rl->missed);
	raw_spin_unlock_irqrestore(&rl->lock, flags);
	return pass;
}

/**
 * ddebug_site_fire - count a call of an enabled site, and rate limit it
 * @dp: the site
 * @flags: its flags, as the caller read them
 * @missed: set to the number of messages suppressed since the last
 *	report, when that report is due now; else to 0
 *
 * Context: any; takes no sleeping lock.
 * Return: true if the message goes out, false if 'r' suppresses it.
 */
bool ddebug_site_fire(const struct _ddebug *dp, unsigned int flags,
		      unsigned int *missed)
{
	struct site_ratelimit *rl;
	bool pass = true;

	*missed = 0;
	rcu_read_lock();
	count_hit(dp);
	if (flags & DDEBUG_FLAG(RATELIMIT)) {
		rl = xa_load(&ratelimits, site_key(dp));
		if (rl)
			pass = ratelimit_pass(rl, missed);
	}
	rcu_read_unlock();
	return pass;
}

/**
 * ddebug_state_prepare - get ready for a site's new flags
 * @dt: the site's table
 * @dp: the site
 * @newflags: the flags it is about to get
 *
 * Gives the table its counters when the site is about to be enabled, and
 * the site its rate limit when it is about to get 'r'.  Test tables
 * (keyless) keep no state.  The caller reports what is lacking; a site
 * whose rate limit is lacking must not get 'r'.
 *
 * Context: ddebug_lock held; may sleep.
 * Return: the flags of @newflags whose state could not be allocated: its
 * enabled flags if the table has no counters, 'r' if the site has no rate
 * limit; 0 if nothing lacks.
 */
unsigned int ddebug_state_prepare(struct ddebug_table *dt,
				  const struct _ddebug *dp,
				  unsigned int newflags)
{
	unsigned int oldflags = site_flags(dp);
	unsigned int lacking = 0;

	lockdep_assert_held(&ddebug_lock);
	if (dt->keyless)
		return 0;
	if ((newflags & _DPRINTK_FLAGS_ENABLED) && !dt->counts &&
	    counts_attach(dt))
		lacking |= newflags & _DPRINTK_FLAGS_ENABLED;
	if ((newflags & ~oldflags & DDEBUG_FLAG(RATELIMIT)) &&
	    ratelimit_attach(dp))
		lacking |= DDEBUG_FLAG(RATELIMIT);
	return lacking;
}

/**
 * ddebug_state_release - drop what a site's old flags needed
 * @dt: the site's table
 * @dp: the site, which has its new flags
 * @oldflags: the flags it had
 *
 * Context: ddebug_lock held.
 */
void ddebug_state_release(struct ddebug_table *dt, const struct _ddebug *dp,
			  unsigned int oldflags)
{
	lockdep_assert_held(&ddebug_lock);
	if (!dt->keyless &&
	    (oldflags & ~site_flags(dp) & DDEBUG_FLAG(RATELIMIT)))
		ratelimit_detach(dp);
}

/**
 * ddebug_state_table_init - state for the sites a table starts with
 * @dt: a new table, not yet registered
 *
 * Sites compiled with DEBUG start enabled: their table is counted from
 * the start.
 *
 * Return: 0, or -ENOMEM.
 */
int ddebug_state_table_init(struct ddebug_table *dt)
{
	unsigned int i;

	for (i = 0; i < dt->num_sites; i++)
		if (site_flags(&dt->sites[i]) & _DPRINTK_FLAGS_ENABLED)
			return counts_attach(dt);
	return 0;
}

/**
 * ddebug_state_table_free - drop the state of a table's sites
 * @dt: a table that is no longer registered
 *
 * Memory that the printing path may still be reading is freed after an
 * RCU grace period.
 */
void ddebug_state_table_free(struct ddebug_table *dt)
{
	unsigned int i;

	counts_detach(dt);
	for (i = 0; i < dt->num_sites; i++)
		if (site_flags(&dt->sites[i]) & DDEBUG_FLAG(RATELIMIT))
			ratelimit_detach(&dt->sites[i]);
}
