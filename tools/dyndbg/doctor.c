// SPDX-License-Identifier: GPL-2.0
/* doctor: why a query prints nothing, one check per line with its fix. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dyndbg.h"

static int problems;

static void check(bool ok, const char *what, const char *fix)
{
	printf("%-4s %s%s%s\n", ok ? "ok" : "FAIL", what, ok ? "" : ": ",
	       ok ? "" : fix);
	problems += !ok;
}

static bool mounted(const char *fs)
{
	struct text t = {};
	bool found;

	if (read_file("/proc/mounts", &t))
		return false;
	found = t.buf && strstr(t.buf, fs);
	text_free(&t);
	return found;
}

/* The console loglevel, first number of /proc/sys/kernel/printk. */
static int console_loglevel(void)
{
	struct text t = {};
	int level = -1;

	if (!read_file("/proc/sys/kernel/printk", &t) && t.buf)
		level = atoi(t.buf);
	text_free(&t);
	return level;
}

static void check_sites(const char *query)
{
	struct text t = {};
	struct site *s = NULL;
	char msg[512];
	int i, n, on = 0, traced = 0;
	const char *m;

	n = query_sites(query, "+_", &t, &s);
	if (n < 0) {
		check(false, "query is valid", "see dmesg for the reason the kernel gives");
		return;
	}
	m = strstr(query, "module ");
	if (m && !n) {
		snprintf(msg, sizeof(msg),
			 "load the module, or apply at its next load: dyndbg persist '%s' +p --module NAME",
			 query);
		check(false, "module loaded", msg);
	}
	snprintf(msg, sizeof(msg), "query matches sites (%d)", n);
	check(n > 0, msg, "check the names with 'dyndbg list'");
	for (i = 0; i < n; i++) {
		on += !!strchr(s[i].flags, 'p');
		traced += !!strchr(s[i].flags, 'T');
	}
	snprintf(msg, sizeof(msg), "sites have p set (%d of %d)", on, n);
	if (n)
		check(on == n || traced, msg, "dyndbg on QUERY (flags '+p' add; '=p' replaces)");
	if (traced) {
		struct text ev = {};
		bool enabled = !read_file("/sys/kernel/tracing/events/dyndbg/enable", &ev) &&
			       ev.buf && *ev.buf == '1';

		snprintf(msg, sizeof(msg), "%d T sites: dyndbg events enabled", traced);
		check(enabled, msg, "echo 1 > /sys/kernel/tracing/events/dyndbg/enable");
		text_free(&ev);
	}
	free(s);
	text_free(&t);
}

static void check_ratelimit(void)
{
	struct text t = {};
	struct site *s = NULL;
	int i, n, limited = 0;

	if (ddebug_read("enabled", &t))
		return;
	n = sites_split(&t, &s, false);
	for (i = 0; i < n; i++)
		limited += !!strchr(s[i].flags, 'r');
	if (limited)
		printf("note %d rate-limited sites (r): %s\n", limited,
		       "messages over the limit are dropped; dmesg says how many");
	free(s);
	text_free(&t);
}

int do_doctor(int argc, char **argv)
{
	char control[512], msg[256];
	char *query = join_args(argc, argv);
	int level;

	if (!query)
		return 1;
	problems = 0;
	snprintf(control, sizeof(control), "%s/control", ddebug_dir());
	check(mounted(" debugfs "), "debugfs mounted",
	      "mount -t debugfs none /sys/kernel/debug (/proc/dynamic_debug/control works without it)");
	check(access(control, F_OK) == 0, "kernel built with dynamic debug",
	      "build with CONFIG_DYNAMIC_DEBUG=y (or _CORE=y)");
	check(access(control, W_OK) == 0, "control writable",
	      "run as root");
	level = console_loglevel();
	snprintf(msg, sizeof(msg), "console loglevel %d shows KERN_DEBUG", level);
	check(level > 7, msg,
	      "messages are in dmesg only; to see them on the console: dmesg -n 8");
	if (*query && access(control, R_OK) == 0)
		check_sites(query);
	if (access(control, R_OK) == 0)
		check_ratelimit();
	free(query);
	return problems ? 1 : 0;
}
