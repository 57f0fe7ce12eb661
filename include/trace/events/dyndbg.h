/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trace events of dynamic debug: what a call site with the 'T' flag
 * records instead of (or, with 'p', besides) printing it to the log.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM dyndbg

#if !defined(_TRACE_DYNDBG_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_DYNDBG_H

#include <linux/printk.h>
#include <linux/tracepoint.h>

#ifndef _TRACE_DYNDBG_TRIM
#define _TRACE_DYNDBG_TRIM
/*
 * The message is formatted straight into the event, cut at
 * TRACE_EVENT_STR_MAX bytes; one trailing newline is dropped, since every
 * event is shown on a line of its own.
 */
static inline void dyndbg_trim_newline(char *msg)
{
	size_t n = strlen(msg);

	if (n && msg[n - 1] == '\n')
		msg[n - 1] = '\0';
}
#endif

/* A pr_debug() message, with the decorations its site's flags ask for. */
TRACE_EVENT(prdbg,
	TP_PROTO(struct va_format *vaf),
	TP_ARGS(vaf),

	TP_STRUCT__entry(
		__vstring(msg, vaf->fmt, vaf->va)
	),

	TP_fast_assign(
		__assign_vstr(msg, vaf->fmt, vaf->va);
		dyndbg_trim_newline(__get_str(msg));
	),

	TP_printk("%s", __get_str(msg))
);

/*
 * A dev_dbg(), netdev_dbg() or ibdev_dbg() message: the device's name, and
 * the message with its decorations (and the interface name, if any).
 */
TRACE_EVENT(devdbg,
	TP_PROTO(const char *dev, struct va_format *vaf),
	TP_ARGS(dev, vaf),

	TP_STRUCT__entry(
		__string(dev, dev)
		__vstring(msg, vaf->fmt, vaf->va)
	),

	TP_fast_assign(
		__assign_str(dev);
		__assign_vstr(msg, vaf->fmt, vaf->va);
		dyndbg_trim_newline(__get_str(msg));
	),

	TP_printk("%s: %s", __get_str(dev), __get_str(msg))
);

#endif /* _TRACE_DYNDBG_H */

#include <trace/define_trace.h>
