#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of "make bench", run as /run.sh. /bench holds the timer
# (ddbench), the generated modules, bench.env (the load: names, targets,
# expected counts) and run.env (REPS, HEAVY_REPS for enabling every site,
# LOCK_REPS, LOCK_DELAY_MS, LOCK_BYTES).
#
# Prints "sample ..." and "value ..." lines (see ddbench.c), "info KEY
# TEXT" lines, and one "check ok - ..." or "check not ok - ..." line per
# functional check (site counts, CPUs, clocksource, the dyndbg tool's
# listings against control); exits 1 if a check failed. Nothing here
# judges timings.

. /bench/bench.env
. /bench/run.env

B=/bench/ddbench
CTL=/sys/kernel/debug/dynamic_debug/control
[ -f "$CTL" ] || CTL=/proc/dynamic_debug/control
ENABLED=$(dirname "$CTL")/enabled
PREVIEW=$(dirname "$CTL")/preview
VERBOSE=/sys/module/dynamic_debug/parameters/verbose
fail=0

check()		# check DESC COMMAND...
{
	local d=$1

	shift
	if "$@"; then
		echo "check ok - $d"
	else
		echo "check not ok - $d"
		fail=1
	fi
}

timer()		# timer ARGS...: run ddbench, a failure is a failed check
{
	"$B" "$@" || { echo "check not ok - ddbench $1 ($2 ...) ran"; fail=1; }
}

# icount_rows: under QEMU's -icount (bench.sh's last boot of each kernel,
# with ddbench.icount=1 on its command line) the guest's clock advances one
# nanosecond per instruction, so its "times" count instructions, the same
# on every run. The short paths, where TCG's timing noise is as large as
# the difference, are measured there: a write's fixed cost, a query over
# the small module, one call of a site.
icount_rows()
{
	check "insmod $SMALL" insmod /bench/$SMALL.ko
	timer query "$CTL" "$REPS" ic_floor_comment "# nothing"
	timer query "$CTL" "$REPS" ic_floor_nomatch "module no_such_module +t"
	timer query "$CTL" "$REPS" ic_small_ton "module $SMALL +t" ic_small_toff "module $SMALL -t"
	check "modprobe test_dyndbg_loop" modprobe test_dyndbg_loop
	dmesg -n 1
	for f in _ p; do
		echo "module test_dyndbg_loop =$f" >"$CTL"
		timer query /sys/module/test_dyndbg_loop/parameters/plain "$REPS" "ic_site_$f" 10000
	done
	echo "module test_dyndbg_loop =_" >"$CTL"
}

# on MODULE: how many sites of MODULE have exactly the flag p.
on()		{ grep -c "\[$1\].* =p \"" "$CTL"; }
sites_of()	{ grep -c "\[$1\]" "$CTL"; }

# agree SELECTORS EXPECTED: the tool against the kernel. What "dyndbg set
# --dry-run SELECTORS +p" prints before the write and "dyndbg list
# SELECTORS" after it must be, line for line, the sites of $BIG that
# control shows with p after "SELECTORS +p"; EXPECTED of them.
agree()
{
	local sel=$1 want=$2 t=/tmp/agree

	mkdir -p $t
	dyndbg set --dry-run "$sel" +p >$t/dry
	echo "$sel +p" >"$CTL"
	grep "\[$BIG\].* =p \"" "$CTL" >$t/control
	dyndbg list "$sel" >$t/list
	echo "$sel -p" >"$CTL"
	check "control shows $want sites with p after '$sel +p'" \
		test "$(grep -c . $t/control)" = "$want"
	check "dyndbg set --dry-run '$sel' +p: $want sites, would change" \
		test "$(tail -n 1 $t/dry)" = "$want sites matched, $want would change"
	sed '$d' $t/dry >$t/dry.sites
	check "dyndbg set --dry-run '$sel' +p: the lines control shows after the write" \
		cmp -s $t/dry.sites $t/control
	check "dyndbg list '$sel': the lines control shows" cmp -s $t/list $t/control
	rm -rf $t
}

# targeted NAME SELECTORS EXPECTED [MODULE]: check that SELECTORS match
# EXPECTED sites, then time "+p" and "-p" of them.
targeted()
{
	local name=$1 sel=$2 want=$3 mod=${4:-$BIG}

	echo "$sel +p" >"$CTL"
	check "'$sel' enables $want sites" test "$(on "$mod")" = "$want"
	echo "$sel -p" >"$CTL"
	check "'$sel -p' disables them" test "$(on "$mod")" = 0
	timer query "$CTL" "$REPS" "${name}_on" "$sel +p" "${name}_off" "$sel -p"
	# The same selection with a decoration: no code to patch, so this is
	# the query itself (finding the sites, changing their flags).
	timer query "$CTL" "$REPS" "${name}_ton" "$sel +t" "${name}_toff" "$sel -t"
}

if grep -q 'ddbench\.icount=1' /proc/cmdline; then
	icount_rows
	exit $fail
fi

echo "info guest_cpu $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)"
echo "info clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
echo "info cpus_online $(cat /sys/devices/system/cpu/online)"
cpus=$(grep -c '^processor' /proc/cpuinfo)
echo "value cpus $cpus"
echo "info control $CTL"
echo "info reps $REPS (every site: $HEAVY_REPS; lock-wait batch: $LOCK_REPS, no warm-up)"
check "at least 2 CPUs online ($cpus)" test "$cpus" -ge 2
check "a fine clocksource (not jiffies)" \
	grep -qvE 'jiffies' /sys/devices/system/clocksource/clocksource0/current_clocksource

# How fast the host runs this guest, at the start and at the end: the
# same loop gives the same figure on both kernels unless the host's load
# changed (the report shows it beside the others).
timer spin spin "$REPS"

check "insmod $SMALL" insmod /bench/$SMALL.ko
check "insmod $BIG" insmod /bench/$BIG.ko
check "$BIG has $SITES sites" test "$(sites_of "$BIG")" = "$SITES"
check "$SMALL has $SMALL_SITES sites" test "$(sites_of "$SMALL")" = "$SMALL_SITES"

# The tool (tools/dyndbg, in /bin) agrees with the kernel, on every site
# of the big module, a file and a function of it; it needs the preview
# file.
if [ -f "$PREVIEW" ]; then
	agree "module $BIG" "$SITES"
	agree "file $FILE" "$FILE_SITES"
	agree "func $FUNC" "$FUNC_SITES"
else
	echo "info agree skipped: no $PREVIEW"
fi

# Code-patching synchronisations: each is an IPI to every other CPU.
timer ipi "$CTL" cal_noop "module no_such_module +p"
timer ipi "$CTL" cal_noop2 "module no_such_module +p"
timer ipi "$CTL" cal_all_on "module $BIG +p"
check "'module $BIG +p' enables $SITES sites" test "$(on "$BIG")" = "$SITES"
timer ipi "$CTL" cal_all_off "module $BIG -p"
check "'module $BIG -p' disables them" test "$(on "$BIG")" = 0
timer ipi "$CTL" cal_small_on "module $SMALL +p"
timer ipi "$CTL" cal_small_off "module $SMALL -p"

targeted func "func $FUNC" "$FUNC_SITES"
targeted file "file $FILE" "$FILE_SITES"
targeted small "module $SMALL" "$SMALL_SITES" "$SMALL"
targeted lines "module $BIG file $FILE line $LINES" "$LINES_SITES"
targeted wild "func $WILD" "$WILD_SITES"

timer query "$CTL" "$REPS" format "format $NO_MATCH +p"
# What every write pays before any site: the system call with a text of
# only a comment, and a query whose module no table has.
timer query "$CTL" "$REPS" floor_comment "# nothing"
timer query "$CTL" "$REPS" floor_nomatch "module no_such_module +t"
check "'format $NO_MATCH' matches nothing" test "$(on "$BIG")" = 0

# The two writes of the CAL count above were these same queries: they
# are this metric's warm-up.
export DDBENCH_WARMUP=0
timer query "$CTL" "$HEAVY_REPS" all_on "module $BIG +p" all_off "module $BIG -p"
unset DDBENCH_WARMUP
check "every site is off again" test "$(on "$BIG")" = 0

# Reading: 1% of the big module's sites on.
echo "module $BIG file $PCT_FILE line $PCT_LINES +p" >"$CTL"
check "1% of the sites on ($PCT_SITES)" test "$(on "$BIG")" = "$PCT_SITES"
timer read "$CTL" "$REPS" control
if [ -f "$ENABLED" ]; then
	timer read "$ENABLED" "$REPS" enabled
	check "enabled lists the $PCT_SITES sites" \
		test "$(grep -c "\[$BIG\]" "$ENABLED")" = "$PCT_SITES"
else
	echo "info enabled absent"
fi
# The tool's listing: all of control parsed and printed; and one module,
# whose sites the kernel selects through preview (ours only).
timer exec list_all "$REPS" dyndbg list
if [ -f "$PREVIEW" ]; then
	timer exec list_module "$REPS" dyndbg list "module $BIG"
else
	echo "info list_module refused"
fi
echo "module $BIG -p" >"$CTL"

# The core's own allocations for the module, as it reports them at
# verbose=1 (a line "dyndbg: ... index N bytes"; upstream has none).
check "rmmod $BIG" rmmod $BIG
dmesg -c >/dev/null
echo 1 >"$VERBOSE"
insmod /bench/$BIG.ko
# Hit counters: allocated the first time one of the module's sites is
# enabled, kept until it unloads (a line "dyndbg: M: hit counters, N bytes").
echo "module $BIG func bench_f000_fn00 +p" >"$CTL"
echo "module $BIG -p" >"$CTL"
echo 0 >"$VERBOSE"
n=$(dmesg | sed -n 's/.*dyndbg:.* index \([0-9]*\) bytes.*/\1/p' | tail -n 1)
echo "value index_bytes ${n:-none}"
n=$(dmesg | sed -n 's/.*dyndbg:.* hit counters, \([0-9]*\) bytes.*/\1/p' | tail -n 1)
echo "value counter_bytes ${n:-none}"
dmesg | grep -F "$BIG" | grep -F dyndbg | head -n 3 | sed 's/^/info verbose_log /'
check "rmmod $BIG" rmmod $BIG

timer load /bench/$BIG.ko "$BIG" "$REPS"

# A reader's wait during the first lookup of a literal function name in
# a module just loaded (ours sorts the module's index for it).
timer firstlookup "$CTL" /bench/$BIG.ko "$BIG" "$REPS" "func $FUNC +p"

# One call of an enabled site, by its flags: test_dyndbg_loop runs its
# pr_debug() site N times for each write of N to its parameter. The log
# goes to the buffer only (console level 1); T records into the trace
# buffer with the dyndbg events on; "pr" is past its burst, so it shows
# what a suppressed call costs. T and r are ours only.
CALLS=10000
echo "value site_calls $CALLS"
if modprobe test_dyndbg_loop; then
	dmesg -n 1
	tr=/sys/kernel/tracing
	mount -t tracefs nodev $tr 2>/dev/null
	[ ! -d $tr/events/dyndbg ] || echo 1 >$tr/events/dyndbg/enable
	for f in _ p T pr; do
		if echo "module test_dyndbg_loop =$f" >"$CTL" 2>/dev/null; then
			timer query /sys/module/test_dyndbg_loop/parameters/plain \
				"$REPS" "site_$f" "$CALLS"
		else
			echo "info site_$f refused"
		fi
	done
	echo "module test_dyndbg_loop =_" >"$CTL"
	rmmod test_dyndbg_loop
	dmesg -n 5
else
	check "modprobe test_dyndbg_loop" false
fi

# Lock wait: the big module is gone, so the batch covers the built-in
# sites and the small module's.
echo "value lock_sites $(grep -vc '^#' "$CTL")"
timer lockwait "$CTL" /bench/$SMALL.ko "$SMALL" "$LOCK_REPS" "$LOCK_DELAY_MS" "+p;-p;" "$LOCK_BYTES"
echo "-p" >"$CTL"

timer spin spin "$REPS"
exit $fail
