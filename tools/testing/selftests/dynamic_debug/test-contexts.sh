#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Enabled sites print from every context a caller may be in: task context,
# preemption disabled, a raw spinlock held with interrupts off, a timer's
# softirq and a hard interrupt (test_dyndbg_contexts; on PREEMPT_RT the
# last three are where a sleeping lock must not be taken). Each output is
# checked there: the log (p, with decorations, with the r rate limit),
# the trace buffer (T) and hit counts. A lockdep or sleep-in-atomic
# report while the sites run fails too.

DIR=$(dirname "$0")
. "$DIR/functions.sh"

M=test_dyndbg_contexts
PARAMS=/sys/module/$M/parameters
DD_PARAMS=/sys/module/dynamic_debug/parameters
CONTEXTS="task preempt rawlock softirq hardirq"
PLAIN_LINE=$(src_line test_dyndbg_contexts.c '"contexts plain %s %u\n"')
# The kernel's reports of locking and context bugs.
REPORTS='BUG: |WARNING: |Invalid wait context|scheduling while atomic'
REPORTS="$REPORTS|possible (recursive|circular) locking|inconsistent lock state"
REPORTS="$REPORTS|suspicious RCU usage"
SEEN=/tmp/dyndbg-contexts.$$

require_control
require_module "$M"
modprobe "$M"
: > "$SEEN"
ktap_plan 42

# run CONTEXT N: run every site of the module N times in CONTEXT; fails
# if they did not run there. Keeps any kernel report that came with it.
run()
{
	local rc

	echo "$2" > "$PARAMS/$1"
	rc=$?
	log_reports "$REPORTS" >> "$SEEN"
	return $rc
}

# set_sites QUERY...: clear every site of the module (dropping what their
# old flags kept, a rate limit's state), then apply each "FUNCTION FLAGS"
# to the site in contexts_FUNCTION.
set_sites()
{
	local s

	dd_reset "$M"
	for s in "$@"; do
		dd_write "module $M func contexts_$s" ||
			ktap_diag "query 'func contexts_$s' failed: $DD_ERR"
	done
}

# log_matches REGEX: a line of the kernel log, timestamp removed, matches.
log_matches()
{
	log_text | grep -qE -- "$1"
}

# suppressed_reported CONTEXT: the log has the rate limit's report of 15
# suppressed messages, then the message that ran in CONTEXT.
suppressed_reported()
{
	log_has "contexts_plain: 15 callbacks suppressed" &&
		log_has "contexts plain $1 1"
}

# traced_and_printed CONTEXT: the two sites that ran in CONTEXT are in
# the trace buffer, and the pr_debug() is in the log too.
traced_and_printed()
{
	trace_has "prdbg: contexts plain $1 1" &&
		trace_has "devdbg: dyndbg-contexts: contexts device $1 1" &&
		log_has "contexts plain $1 1"
}

# traced_only CONTEXT: the two sites that ran in CONTEXT, the first one
# decorated with mf, are in the trace buffer; the log has nothing of them.
traced_only()
{
	trace_has "prdbg: $M:contexts_plain: contexts plain $1 1" &&
		trace_has "devdbg: dyndbg-contexts: contexts device $1 1" &&
		[ -z "$(log_lines 'contexts')" ]
}

# irq_or_pid CONTEXT: what the t flag shows first in CONTEXT, as a regex.
irq_or_pid()
{
	case "$1" in
	softirq|hardirq)	echo '<intr>' ;;
	*)			echo '\[[0-9]+\]' ;;
	esac
}

# --- the contexts themselves, with every site disabled

set_sites
log_clear
for c in $CONTEXTS; do
	ktap_check "$c: the module runs its sites in $c context" run "$c" 1
done
WHY=$(log_lines 'contexts ')
ktap_check "disabled sites print nothing in any context" [ -z "$WHY" ]

# --- p: every kind of site prints

set_sites "plain =p" "device =p" "ratelimited =p" "hexdump =p"
for c in $CONTEXTS; do
	log_clear
	run "$c" 1
	WHY=
	for want in "contexts plain $c 1" "dyndbg-contexts: contexts device $c 1" \
		    "contexts ratelimited $c 1" "contexts hexdump $c: 64 79 6e 64"; do
		log_has "$want" || WHY="$WHY${WHY:+
}missing: $want"
	done
	ktap_check "p: pr_debug, dev_dbg, pr_debug_ratelimited, hexdump print in $c" \
		[ -z "$WHY" ]
done

# --- pmflt: the decorations, "<intr>" for t in interrupts

set_sites "plain =pmflt"
for c in $CONTEXTS; do
	log_clear
	run "$c" 1
	want="^$(irq_or_pid "$c") $M:contexts_plain:$PLAIN_LINE: contexts plain $c 1\$"
	WHY="want /$want/, got: $(log_lines "contexts plain $c")"
	ktap_check "pmflt: decorated in $c" log_matches "$want"
done

# --- pr: the rate limit, and its report of what it suppressed

if has_flag r && [ -w "$DD_PARAMS/ratelimit_burst" ]; then
	burst=$(cat "$DD_PARAMS/ratelimit_burst")
	interval=$(cat "$DD_PARAMS/ratelimit_interval_ms")
	echo 5 > "$DD_PARAMS/ratelimit_burst"
	for c in $CONTEXTS; do
		echo 600000 > "$DD_PARAMS/ratelimit_interval_ms"
		set_sites "plain =pr"
		log_clear
		run "$c" 20
		ktap_expect "pr: 5 of 20 messages pass in $c" 5 \
			"$(log_count "contexts plain $c ")"
		echo 1 > "$DD_PARAMS/ratelimit_interval_ms"
		sleep 1
		log_clear
		run "$c" 1
		WHY=$(log_lines 'contexts')
		ktap_check "pr: the next interval reports the 15 suppressed in $c" \
			suppressed_reported "$c"
	done
	echo "$burst" > "$DD_PARAMS/ratelimit_burst"
	echo "$interval" > "$DD_PARAMS/ratelimit_interval_ms"
else
	for c in $CONTEXTS; do
		ktap_skip "pr: 5 of 20 messages pass in $c" "no flag r"
		ktap_skip "pr: the next interval reports the 15 suppressed in $c" "no flag r"
	done
fi

# --- T: the trace buffer, besides the log and instead of it

TRACE=$(tracefs_dir)
if has_flag T && [ -n "$TRACE" ] && [ -d "$TRACE/events/dyndbg" ]; then
	echo 1 > "$TRACE/events/dyndbg/enable"
	for c in $CONTEXTS; do
		set_sites "plain =pT" "device =pT"
		echo > "$TRACE/trace"
		log_clear
		run "$c" 1
		WHY="trace: $(grep -F 'contexts' "$TRACE/trace")"
		ktap_check "pT: traced and printed in $c" traced_and_printed "$c"

		set_sites "plain =Tmf" "device =T"
		echo > "$TRACE/trace"
		log_clear
		run "$c" 1
		WHY="trace: $(grep -F 'contexts' "$TRACE/trace")
log: $(log_lines 'contexts')"
		ktap_check "T: traced, not printed, in $c" traced_only "$c"
	done
	echo 0 > "$TRACE/events/dyndbg/enable"
	echo > "$TRACE/trace"
else
	for c in $CONTEXTS; do
		ktap_skip "pT: traced and printed in $c" "no flag T or no dyndbg trace events"
		ktap_skip "T: traced, not printed, in $c" "no flag T or no dyndbg trace events"
	done
fi

# --- hit counts

# hits_of FUNCTION: the hit count of the module's site in contexts_FUNCTION.
hits_of()
{
	grep -F " [$M]contexts_$1 " "$DD_DIR/hits" | awk '{ print $1 }'
}

if has_file hits; then
	set_sites "plain =p" "device =p" "hexdump =p"
	for c in $CONTEXTS; do
		echo 0 > "$DD_DIR/hits"
		run "$c" 3
		ktap_expect "hits: each site counts its 3 calls in $c" \
			"plain=3 device=3 hexdump=3" \
			"plain=$(hits_of plain) device=$(hits_of device) hexdump=$(hits_of hexdump)"
	done
else
	for c in $CONTEXTS; do
		ktap_skip "hits: each site counts its 3 calls in $c" "no hits file"
	done
fi

set_sites
mod_unload "$M"
WHY=$(sort -u "$SEEN")
ktap_check "no lockdep, sleep-in-atomic or warning report came with them" [ -z "$WHY" ]
rm -f "$SEEN"
ktap_finish
