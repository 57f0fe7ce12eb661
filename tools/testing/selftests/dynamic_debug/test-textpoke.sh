#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Other code patching while dynamic debug patches its sites in batches.
# A query that switches many sites queues their jump-label changes and
# applies them in batches of text pokes; tracepoints (their static keys
# and static calls), kprobes and ftrace patch kernel text too, between
# and beside those batches. For TEXTPOKE_SECONDS (default 20), at once:
#  - a tracer switches trace events of several subsystems (and all of
#    them, every fourth round) on and off;
#  - where the kernel has them, kprobes on a few functions are added,
#    enabled, disabled and removed, and the function tracer is started
#    and stopped over a filter that it changes while on;
#  - a writer switches every site of the kernel (T, which patches the
#    site but writes nothing to the log), another p on the sites of
#    lib/ and kernel/module/, a third the test modules' sites;
#  - a loader loads and unloads two test modules with dyndbg= arguments,
#    and a printer runs the test modules' sites.
# Then: every write succeeded, no kernel report, sites switched on print
# and switched off are silent, and control reads back the flags set.

DIR=$(dirname "$0")
. "$DIR/functions.sh"

require_control
require_module "$SITES_MOD"
require_module "$DRIVER_MOD"
require_module "$DEBUG_MOD"

TRACE=
for t in /sys/kernel/tracing /sys/kernel/debug/tracing; do
	[ -d "$t/events" ] && { TRACE=$t; break; }
done
if [ -z "$TRACE" ] && [ -d /sys/kernel/tracing ]; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null &&
		[ -d /sys/kernel/tracing/events ] && TRACE=/sys/kernel/tracing
fi
[ -n "$TRACE" ] || ktap_skip_all "no tracefs with trace events (CONFIG_TRACING?)"
ktap_plan 11

SECONDS_LEFT=${TEXTPOKE_SECONDS:-20}
TMP=/tmp/dd-textpoke.$$
mkdir -p "$TMP"
GROUP=dd_textpoke
DEBUG_HELLO="debug module says hello"

# nap: let the other side run a little (kprobes are optimized, that is
# rewritten into a jump, some jiffies after they are armed).
nap() { usleep 20000 2>/dev/null || sleep 1; }

# tr_write FILE TEXT: write TEXT to tracefs FILE (appending for the
# *_events and filter files, which a plain write would empty).
tr_write()
{
	case "$1" in
	*_events|*_filter)	echo "$2" >> "$TRACE/$1" ;;
	*)			echo "$2" > "$TRACE/$1" ;;
	esac
}

# --- what this kernel can patch besides dynamic debug

# Trace event subsystems switched on and off: a few busy ones every
# round, all every fourth (each by itself: "events/enable" would switch
# the kprobes' events too, which cannot be removed while on). Only those
# that are off now, to leave them as they were.
BUSY=" sched timer irq module workqueue ipi rcu "
SYSTEMS=
ALL_SYSTEMS=
for d in "$TRACE"/events/*/; do
	s=$(basename "$d")
	[ "$(cat "$d/enable" 2>/dev/null)" = 0 ] || continue
	case "$BUSY" in
	*" $s "*)	SYSTEMS="$SYSTEMS $s" ;;
	*)		ALL_SYSTEMS="$ALL_SYSTEMS $s" ;;
	esac
done
ktap_diag "trace events:$SYSTEMS, and every fourth round also:$ALL_SYSTEMS"

# Kprobes: one at the entry of each function (through ftrace where the
# kernel has it) and one inside it (an int3, optimized into a jump).
KPROBES=
if [ -f "$TRACE/kprobe_events" ]; then
	n=0
	for f in kernel_clone do_sys_openat2 vfs_read ksys_write load_module kobject_add; do
		grep -q " $f\$" /proc/kallsyms || continue
		for at in "" +9 +5 +4 +8 +1; do
			tr_write kprobe_events "p:$GROUP/kp$n $f$at" 2>/dev/null ||
				continue
			KPROBES="$KPROBES kp$n:$f$at"
			n=$((n + 1))
			[ -n "$at" ] && break
		done
	done
	tr_write kprobe_events "-:$GROUP/*" 2>/dev/null
	ktap_diag "kprobes:$KPROBES"
else
	ktap_diag "no kprobes (CONFIG_KPROBE_EVENTS): none are switched"
fi

# The function tracer, if it is there and no one uses it.
FTRACE_ON=
FTRACE_FILTERS="ddebug_* kobject_* *jump_label* load_module do_init_module"
set -f
if grep -qw function "$TRACE/available_tracers" 2>/dev/null &&
   [ "$(cat "$TRACE/current_tracer")" = nop ]; then
	for g in $FTRACE_FILTERS; do
		tr_write set_ftrace_filter "$g" 2>/dev/null && FTRACE_ON="$FTRACE_ON $g"
	done
	echo > "$TRACE/set_ftrace_filter"
	ktap_diag "function tracer, filters:$FTRACE_ON"
else
	ktap_diag "no function tracer (CONFIG_FUNCTION_TRACER) or it is busy: not switched"
fi
set +f

# --- what dynamic debug switches

# Every site of the kernel with T, if the core has it and no site has it
# yet; m (no code patching) otherwise.
WHOLE_FLAG=m
enabled_before=$(grep -v '^#' "$DD_DIR/enabled" 2>/dev/null |
	grep -vE " \[($SITES_MOD|$DRIVER_MOD|$DEBUG_MOD)\]")
if has_flag T && ! echo "$enabled_before" | awk '{ print $3 }' | grep -q T; then
	WHOLE_FLAG=T
else
	ktap_diag "no T flag, or a site has it already: the whole kernel gets m (no patching)"
fi
# p on sites of these files, unless one of them is on already.
MID=
for g in "lib/*" "kernel/module/*"; do
	echo "$enabled_before" | grep -q "^${g%\*}" || MID="$MID file $g +p;"
done
MID_OFF=$(echo "$MID" | sed 's/+p;/-p;/g')

cpus=$(grep -c '^processor' /proc/cpuinfo)
ktap_diag "$cpus CPUs, $(grep -vc '^#' "$DD_CONTROL") sites, ${SECONDS_LEFT}s;" \
	"whole kernel: $WHOLE_FLAG; p on:$(echo "$MID" | sed 's/ +p;//g')"
mod_unload "$SITES_MOD"
mod_unload "$DRIVER_MOD"
modprobe "$DEBUG_MOD"
total_before=$(grep -vc '^#' "$DD_CONTROL")
log_clear
run_for "$SECONDS_LEFT"

# count NAME N ERR: the rounds and failed writes of part NAME.
count() { echo "$2 $3" > "$TMP/$1"; }

events()
{
	local n=0 err=0 s v all

	while running; do
		all=
		[ $((n % 4)) = 3 ] && all=$ALL_SYSTEMS
		for v in 1 0; do
			for s in $SYSTEMS $all; do
				tr_write "events/$s/enable" $v || err=$((err + 1))
			done
		done
		n=$((n + 1))
	done 2> "$TMP/events.err"
	count events $n $err
}

kprobes()
{
	local n=0 err=0 p

	while running; do
		for p in $KPROBES; do
			tr_write kprobe_events "p:$GROUP/${p%%:*} ${p#*:}" ||
				err=$((err + 1))
		done
		tr_write "events/$GROUP/enable" 1 || err=$((err + 1))
		[ $((n % 2)) = 1 ] && nap
		tr_write "events/$GROUP/enable" 0 || err=$((err + 1))
		tr_write kprobe_events "-:$GROUP/*" || err=$((err + 1))
		n=$((n + 1))
	done 2> "$TMP/kprobes.err"
	count kprobes $n $err
}

functions()
{
	local n=0 err=0 g

	set -f
	while running; do
		# shellcheck disable=SC2086 # one word per filter
		set -- $FTRACE_ON
		tr_write set_ftrace_filter "$1" || err=$((err + 1))
		tr_write current_tracer function || err=$((err + 1))
		shift
		for g in "$@"; do
			tr_write set_ftrace_filter "$g" || err=$((err + 1))
		done
		tr_write current_tracer nop || err=$((err + 1))
		echo > "$TRACE/set_ftrace_filter" || err=$((err + 1))
		n=$((n + 1))
	done 2> "$TMP/functions.err"
	count functions $n $err
}

# writer NAME QUERY...: write each QUERY in turn, over and over.
writer()
{
	local name="$1" n=0 err=0 q

	shift
	while running; do
		for q in "$@"; do
			dd_write "$q" ||
				{ err=$((err + 1)); echo "$q: $DD_ERR" > "$TMP/dd.$name.err"; }
			n=$((n + 1))
		done
	done
	count "writer.$name" $n $err
}

loader() { count loads "$(load_cycles +p)" 0; }

printer()
{
	local n=0

	while running; do
		echo 1 > "/sys/module/$DEBUG_MOD/parameters/do_prints"
		mod_loaded "$SITES_MOD" && sites_trigger
		n=$((n + 1))
	done 2> /dev/null
	count prints $n 0
}

events &
[ -n "$KPROBES" ] && kprobes &
[ -n "$FTRACE_ON" ] && functions &
writer whole "+$WHOLE_FLAG" "-$WHOLE_FLAG" &
[ -n "$MID" ] && writer mid "$MID" "$MID_OFF" &
writer modules "module $SITES_MOD +pmf" \
	"module $DEBUG_MOD =pl" \
	"file $DRIVER_FILE line $DRIVER_PROBE_FIRST-$DRIVER_PROBE_LAST +p" \
	"module $SITES_MOD -pmf; module $DEBUG_MOD =_" \
	"module $DRIVER_MOD -p" &
loader &
printer &
wait

# Leave tracing and the sites as they were; a failure here is a failed
# write too.
for s in $SYSTEMS $ALL_SYSTEMS; do
	[ "$(cat "$TRACE/events/$s/enable")" = 0 ] ||
		echo "events/$s is still on" >> "$TMP/events.err"
done
[ -z "$FTRACE_ON" ] || [ "$(cat "$TRACE/current_tracer")" = nop ] ||
	echo "the function tracer is still on" >> "$TMP/functions.err"
[ -z "$KPROBES" ] || ! grep -q "$GROUP" "$TRACE/kprobe_events" ||
	echo "kprobes are left" >> "$TMP/kprobes.err"
echo > "$TRACE/trace"
for q in "-$WHOLE_FLAG" ${MID:+"$MID_OFF"}; do
	dd_write "$q" || echo "$q: $DD_ERR" >> "$TMP/dd.cleanup.err"
done
mod_unload "$SITES_MOD"
mod_unload "$DRIVER_MOD"

# rounds NAME: the rounds of part NAME ("-" if it did not run).
rounds() { cut -d' ' -f1 "$TMP/$1" 2> /dev/null || echo -; }
# errors NAMES...: the failed writes of the parts NAMES, summed.
errors() { (cd "$TMP" && cat "$@" 2> /dev/null) | awk '{ e += $2 } END { print e + 0 }'; }

writes=$(cat "$TMP"/writer.* | awk '{ n += $1 } END { print n + 0 }')
ktap_diag "textpoke: $(rounds events) event rounds, $(rounds kprobes) kprobe rounds," \
	"$(rounds functions) function tracer rounds, $writes writes ($(rounds writer.whole)" \
	"whole kernel), $(rounds loads) load/unload rounds, $(rounds prints) print rounds"
ran=yes
for p in events writer.whole writer.modules loads prints \
	 ${KPROBES:+kprobes} ${FTRACE_ON:+functions} ${MID:+writer.mid}; do
	[ "$(rounds "$p")" != - ] && [ "$(rounds "$p")" -gt 0 ] || ran="$ran, not $p"
done
ktap_expect "every part ran" yes "$ran"
WHY=$(cat "$TMP"/dd.*.err 2> /dev/null | grep -v '^$' | head -n 3)
ktap_check "every dynamic debug write succeeded" \
	test "$(errors writer.whole writer.mid writer.modules)" = 0 -a -z "$WHY"
WHY=$(cat "$TMP/events.err" "$TMP/kprobes.err" "$TMP/functions.err" 2> /dev/null |
	grep -v '^$' | head -n 3)
ktap_check "every tracing write succeeded" \
	test "$(errors events kprobes functions)" = 0 -a -z "$WHY"
REPORTS='^(WARNING:|BUG:|kernel BUG|Oops|general protection)|int3:|trap int3|KASAN:|UBSAN:'
REPORTS="$REPORTS|blocked for more than|list_(add|del) corruption"
problems=$(log_reports "$REPORTS")
WHY=$problems ktap_check "no kernel report in the log" test -z "$problems"

# After the storm: sites still switch, both ways.
dd_write "module $DEBUG_MOD =p"
log_clear
echo 1 > "/sys/module/$DEBUG_MOD/parameters/do_prints"
ktap_check "a site switched on prints (its module stayed loaded)" log_has "$DEBUG_HELLO"
dd_write "module $DEBUG_MOD =_"
log_clear
echo 1 > "/sys/module/$DEBUG_MOD/parameters/do_prints"
ktap_check "a site switched off is silent (its module stayed loaded)" \
	sh -c "! dmesg | grep -qF '$DEBUG_HELLO'"

modprobe "$SITES_MOD"
dd_write "module $SITES_MOD =p"
ktap_expect "control reads back p on every site of a module loaded after" \
	"=p $SITES_COUNT" \
	"$(dd_lines "$SITES_MOD" | awk '{ print $3 }' | sort | uniq -c | awk '{ print $2, $1 }')"
log_clear
sites_trigger
SOME_SITES='alpha one|beta two x=0x|gamma percent 100% done'
ktap_expect "its sites switched on print" "$SOME_SITES" \
	"$(log_text | grep -oE "$SOME_SITES" | sort -u | tr '\n' '|' | sed 's/|$//')"
dd_write "module $SITES_MOD =_"
log_clear
sites_trigger
ktap_expect "switched off, they are silent" 0 \
	"$(log_text | grep -cE 'alpha (one|two)|beta (one|two)|gamma ')"
mod_unload "$SITES_MOD"

enabled_after=$(grep -v '^#' "$DD_DIR/enabled" 2>/dev/null |
	grep -vE " \[($SITES_MOD|$DRIVER_MOD|$DEBUG_MOD)\]")
[ "$enabled_after" = "$enabled_before" ] ||
	WHY=$(echo "$enabled_after" | grep -vxF "$enabled_before" | head -n 3)
ktap_check "the other sites' flags read back as before the stress" \
	test "$enabled_after" = "$enabled_before"
ktap_expect "the registry is whole: as many sites as before" \
	"$total_before" "$(grep -vc '^#' "$DD_CONTROL")"

dd_write "module $DEBUG_MOD =p"
rm -rf "$TMP"
ktap_finish
