// SPDX-License-Identifier: GPL-2.0
/*
 * What an enabled call site prints: the decorations chosen by its flags,
 * then the message, at KERN_DEBUG ('p') and as a trace event ('T');
 * dev_dbg(), netdev_dbg() and ibdev_dbg() keep the prefixes of their
 * subsystems.  Every call is counted, and 'r' may suppress it.
 */

#define pr_fmt(fmt) "dyndbg: " fmt

#include <linux/device.h>
#include <linux/hardirq.h>
#include <linux/kernel.h>
#include <linux/netdevice.h>
#include <linux/printk.h>
#include <linux/sched.h>

#include <rdma/ib_verbs.h>

#include "ddebug.h"

#define CREATE_TRACE_POINTS
#include <trace/events/dyndbg.h>

/* Longest decoration; longer ones are cut. */
#define PREFIX_SIZE	128

struct prefix {
	char buf[PREFIX_SIZE];
	size_t len;
};

static __printf(2, 3) void prefix_add(struct prefix *px, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	px->len += vscnprintf(px->buf + px->len, sizeof(px->buf) - px->len,
			      fmt, args);
	va_end(args);
}

/*
 * "[PID] " or "<intr> " for 't'; then "NAME:" for each of 'm', 'f', 's',
 * 'l' in that order, and one space after them if any was written.
 */
static void prefix_decorate(struct prefix *px, const struct _ddebug *dp,
			    unsigned int flags)
{
	size_t names;

	if (flags & DDEBUG_FLAG(TID)) {
		if (in_interrupt())
			prefix_add(px, "<intr> ");
		else
			prefix_add(px, "[%d] ", task_pid_vnr(current));
	}
	names = px->len;
	if (flags & DDEBUG_FLAG(MODNAME))
		prefix_add(px, "%s:", site_modname(dp));
	if (flags & DDEBUG_FLAG(FUNCNAME))
		prefix_add(px, "%s:", site_function(dp));
	if (flags & DDEBUG_FLAG(SOURCE))
		prefix_add(px, "%s:", ddebug_site_file(dp));
	if (flags & DDEBUG_FLAG(LINENO))
		prefix_add(px, "%u:", site_lineno(dp));
	if (px->len != names)
		prefix_add(px, " ");
}

/* Inline: most sites print undecorated, and then this is two stores. */
static __always_inline void prefix_build(struct prefix *px,
					 const struct _ddebug *dp,
					 unsigned int flags)
{
	px->buf[0] = '\0';
	px->len = 0;
	if (unlikely(flags & DDEBUG_DECORATIONS))
		prefix_decorate(px, dp, flags);
}

/* printk() by another name: the messages of pr_debug() itself. */
static __printf(1, 2) void debug_printk(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vprintk(fmt, args);
	va_end(args);
}

#define emit_debug(fmt, ...)	debug_printk(KERN_DEBUG fmt, ##__VA_ARGS__)

/* The 'T' flag: a trace event; @dev names the device, NULL for none. */
static __printf(2, 3) void emit_trace(const char *dev, const char *fmt, ...)
{
	struct va_format vaf = { .fmt = fmt };
	va_list args;

	va_start(args, fmt);
	vaf.va = &args;
	if (dev)
		trace_devdbg(dev, &vaf);
	else
		trace_prdbg(&vaf);
	va_end(args);
}

/* The 'd' flag: a stack dump after a message printed to the log. */
static void after_message(unsigned int flags)
{
	if (unlikely((flags & DDEBUG_FLAG(STACK)) &&
		     (flags & DDEBUG_FLAG(PRINT))))
		dump_stack_lvl(KERN_DEBUG);
}

/*
 * After suppressed messages, say how many, in the words of
 * printk_ratelimited(), to the outputs the next message goes to.
 */
static noinline void report_suppressed(const struct _ddebug *dp,
				       unsigned int flags, const char *dev,
				       unsigned int missed)
{
	struct prefix px;

	prefix_build(&px, dp, flags);
	if (flags & DDEBUG_FLAG(PRINT))
		emit_debug("%s%s: %u callbacks suppressed\n", px.buf,
			   site_function(dp), missed);
	if (flags & DDEBUG_FLAG(TRACE))
		emit_trace(dev, "%s%s: %u callbacks suppressed", px.buf,
			   site_function(dp), missed);
}

/* Count the call and ask the rate limit: false if it is suppressed. */
static bool site_enter(const struct _ddebug *dp, unsigned int flags,
		       const char *dev)
{
	unsigned int missed;

	if (!ddebug_site_fire(dp, flags, &missed))
		return false;
	if (unlikely(missed))
		report_suppressed(dp, flags, dev, missed);
	return true;
}

/**
 * __dynamic_pr_debug - print the message of an enabled pr_debug() site
 * @descriptor: the call site
 * @fmt: format, already passed through pr_fmt()
 * @...: arguments
 */
void __dynamic_pr_debug(struct _ddebug *descriptor, const char *fmt, ...)
{
	unsigned int flags = site_flags(descriptor);
	struct va_format vaf = { .fmt = fmt };
	struct prefix px;
	va_list args;

	if (!site_enter(descriptor, flags, NULL))
		return;
	prefix_build(&px, descriptor, flags);
	va_start(args, fmt);
	vaf.va = &args;
	if (flags & DDEBUG_FLAG(PRINT))
		emit_debug("%s%pV", px.buf, &vaf);
	if (flags & DDEBUG_FLAG(TRACE))
		emit_trace(NULL, "%s%pV", px.buf, &vaf);
	va_end(args);
	after_message(flags);
}
EXPORT_SYMBOL(__dynamic_pr_debug);

/**
 * struct subject - what a dev_dbg(), netdev_dbg() or ibdev_dbg() is about
 * @kind: shown as "(NULL @kind): " when the caller passed no object
 * @present: the caller passed an object
 * @parent: device shown with its driver and name, as dev_printk() does;
 *	NULL to show only @name, without decorations
 * @name: name shown after the parent device, or NULL
 * @state: text right after @name (a network device's registration state)
 */
struct subject {
	const char *kind;
	bool present;
	const struct device *parent;
	const char *name;
	const char *state;
};

static void log_about(const struct subject *s, const char *prefix,
		      struct va_format *vaf)
{
	const struct device *parent = s->parent;

	if (!s->present)
		emit_debug("(NULL %s): %pV", s->kind, vaf);
	else if (!parent)
		emit_debug("%s%s: %pV", s->name, s->state, vaf);
	else if (!s->name)
		dev_printk_emit(LOGLEVEL_DEBUG, parent, "%s%s %s: %pV",
				prefix, dev_driver_string(parent),
				dev_name(parent), vaf);
	else
		dev_printk_emit(LOGLEVEL_DEBUG, parent, "%s%s %s %s%s: %pV",
				prefix, dev_driver_string(parent),
				dev_name(parent), s->name, s->state, vaf);
}

/* The event carries the device's name; the message, the rest. */
static void trace_about(const struct subject *s, const char *prefix,
			struct va_format *vaf)
{
	char null_name[24];

	if (!s->present) {
		snprintf(null_name, sizeof(null_name), "(NULL %s)", s->kind);
		emit_trace(null_name, "%pV", vaf);
	} else if (!s->parent) {
		emit_trace(s->name, "%s%pV", s->state, vaf);
	} else if (!s->name) {
		emit_trace(dev_name(s->parent), "%s%pV", prefix, vaf);
	} else {
		emit_trace(dev_name(s->parent), "%s%s%s: %pV", prefix,
			   s->name, s->state, vaf);
	}
}

/* The message of @fmt and @args, about @s, where @dp's flags send it. */
static void emit_about(const struct _ddebug *dp, const struct subject *s,
		       const char *fmt, va_list *args)
{
	unsigned int flags = site_flags(dp);
	struct va_format vaf = { .fmt = fmt, .va = args };
	struct prefix px;

	if (!site_enter(dp, flags, s->parent ? dev_name(s->parent) : s->name))
		return;
	prefix_build(&px, dp, flags);
	if (flags & DDEBUG_FLAG(PRINT))
		log_about(s, px.buf, &vaf);
	if (flags & DDEBUG_FLAG(TRACE))
		trace_about(s, px.buf, &vaf);
	after_message(flags);
}

/**
 * __dynamic_dev_dbg - print the message of an enabled dev_dbg() site
 * @descriptor: the call site
 * @dev: the device, or NULL
 * @fmt: format
 * @...: arguments
 *
 * The device's driver and name follow the decorations, as dev_printk()
 * shows them.
 */
void __dynamic_dev_dbg(struct _ddebug *descriptor, const struct device *dev,
		       const char *fmt, ...)
{
	struct subject s = { .kind = "device *", .present = dev, .parent = dev };
	va_list args;

	va_start(args, fmt);
	emit_about(descriptor, &s, fmt, &args);
	va_end(args);
}
EXPORT_SYMBOL(__dynamic_dev_dbg);

#ifdef CONFIG_NET
/**
 * __dynamic_netdev_dbg - print the message of an enabled netdev_dbg() site
 * @descriptor: the call site
 * @dev: the network device, or NULL
 * @fmt: format
 * @...: arguments
 *
 * Shows the parent device as dev_printk() would, then the interface name
 * and registration state, as netdev_printk() does.
 */
void __dynamic_netdev_dbg(struct _ddebug *descriptor,
			  const struct net_device *dev, const char *fmt, ...)
{
	struct subject s = { .kind = "net_device" };
	va_list args;

	if (dev) {
		s.present = true;
		s.parent = dev->dev.parent;
		s.name = netdev_name(dev);
		s.state = netdev_reg_state(dev);
	}
	va_start(args, fmt);
	emit_about(descriptor, &s, fmt, &args);
	va_end(args);
}
EXPORT_SYMBOL(__dynamic_netdev_dbg);
#endif /* CONFIG_NET */

#if IS_ENABLED(CONFIG_INFINIBAND)
/**
 * __dynamic_ibdev_dbg - print the message of an enabled ibdev_dbg() site
 * @descriptor: the call site
 * @ibdev: the RDMA device, or NULL
 * @fmt: format
 * @...: arguments
 *
 * Shows the parent device as dev_printk() would, then the RDMA device name.
 */
void __dynamic_ibdev_dbg(struct _ddebug *descriptor,
			 const struct ib_device *ibdev, const char *fmt, ...)
{
	const struct device *ib = ibdev ? &ibdev->dev : NULL;
	struct subject s = {
		.kind = "ib_device", .present = ib, .state = "",
		.parent = ib ? ib->parent : NULL, .name = ib ? dev_name(ib) : NULL,
	};
	va_list args;

	va_start(args, fmt);
	emit_about(descriptor, &s, fmt, &args);
	va_end(args);
}
EXPORT_SYMBOL(__dynamic_ibdev_dbg);
#endif /* CONFIG_INFINIBAND */

/**
 * __dynamic_func_call_allowed - whether an enabled "_no_desc" site may call
 * @descriptor: the call site
 *
 * Counts the call.  Such a site calls its own function (print_hex_dump()
 * for print_hex_dump_debug()), which prints to the log: it runs only if
 * the site has 'p' and its rate limit, if any, lets it through.  'T'
 * records nothing for these sites.
 *
 * Return: true if the caller may run its function.
 */
bool __dynamic_func_call_allowed(struct _ddebug *descriptor)
{
	unsigned int flags = site_flags(descriptor);
	unsigned int missed;

	if (!ddebug_site_fire(descriptor, flags, &missed))
		return false;
	if (!(flags & DDEBUG_FLAG(PRINT)))
		return false;
	if (missed)
		emit_debug("%s: %u callbacks suppressed\n",
			   site_function(descriptor), missed);
	return true;
}
EXPORT_SYMBOL(__dynamic_func_call_allowed);
