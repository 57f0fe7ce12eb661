#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The 'make run' demo, run as root in the guest: the workflow of the 2011
# article on a module laid out like a platform driver, then the dyndbg
# tool (tools/dyndbg) on a module whose sites fire on demand: top, the r
# flag, trace, save and restore across a reload, doctor.

DIR=/kselftest/dynamic_debug
. "$DIR/functions.sh"
CTL=/sys/kernel/debug/dynamic_debug/control
MOD=$DRIVER_MOD
SRC=$DRIVER_FILE
DEV=$DRIVER_DEV
DRV=/sys/bus/platform/drivers/$DRIVER_NAME
LINES=$DRIVER_PROBE_FIRST-$DRIVER_PROBE_LAST
LOOP_MOD=test_dyndbg_loop
LOOP=/sys/module/$LOOP_MOD/parameters
RL=/sys/module/dynamic_debug/parameters
EVENTS=/sys/kernel/debug/tracing/events/dyndbg/enable

say()  { printf '\n\033[1m%s\033[0m\n' "$*"; }
show() { printf '  # %s\n' "$*"; sh -c "$*" 2>&1 | sed 's/^/  /'; }
query() {
	printf '  # echo %s > %s\n' "'$1'" "$CTL"
	echo "$1" >"$CTL" || { echo "  (rejected: see the kernel log below)"
		dmesg | tail -n 1 | sed 's/^\[[^]]*\] /  /'; }
}
# What the driver printed since the last call, as a syslog reader sees it.
kernel_log() { dmesg -c | sed -n 's/^\[[^]]*\] /  | /p'; }
# loop SITE N: run the loop module's SITE (plain, device) N times.
loop() { echo "$2" >"$LOOP/$1"; }
reprobe() {
	dmesg -c >/dev/null
	printf '  # echo %s > %s/unbind; echo %s > %s/bind\n' "$DEV" "$DRV" "$DEV" "$DRV"
	echo "$DEV" >"$DRV/unbind"
	echo "$DEV" >"$DRV/bind"
	echo "  kernel log:"
	kernel_log
}

say "Dynamic debug demo: $(cat /etc/dyndbg-impl) core, Linux $(uname -r)"
echo "Every pr_debug()/dev_dbg() in the kernel is a call site that can be"
echo "switched on at run time by writing a query to $CTL."

say "1. The kernel was booted with a query on its command line:"
grep -oE '(ddebug_query|dyndbg)="[^"]*"' /proc/cmdline | sed 's/^/  /'
echo "   so these sites were enabled before user space started:"
show "grep -v ' =_ ' $CTL | head -n 8"
echo "  ($(grep -vc ' =_ ' $CTL) lines with flags set, of $(wc -l <$CTL) in all;"
echo "   init/main.c says #define DEBUG, so its sites start enabled)"
echo "  Enough of kobject's chatter; turn it off again:"
query "file kobject.c -p"

say "2. Load a driver. Its debug messages are compiled in, but off (=_):"
show "modprobe $MOD"
show "grep '\[$MOD\]' $CTL"
reprobe
echo "  (nothing: every site is off, each costs one NOP in the driver)"

say "3. Turn on the run of dev_dbg() lines in probe, by file and line range:"
query "file $SRC line $LINES +p"
reprobe

say "4. Add decorations: f function, l line, m module, t thread id:"
query "file $SRC line $LINES +pflmt"
reprobe

say "5. By function: the register reads, with =p to set exactly 'p':"
query "file $SRC line $LINES -pflmt"
query "file $SRC func demo_read_reg =p"
reprobe

say "6. By module, then unload and reload it: init and exit messages too:"
query "module $MOD +pf"
dmesg -c >/dev/null
show "rmmod $MOD"
show "modprobe $MOD dyndbg=+pf"
echo "  kernel log:"
kernel_log

say "7. Turn everything off again; the control file shows =_ for each site:"
query "module $MOD -pflmt"
show "grep '\[$MOD\]' $CTL"
reprobe
echo "  (silent again)"

# The front-end (tools/dyndbg) on a module whose sites fire on demand.
tool_demo() {
	say "8. The dyndbg tool: find the noisiest site with 'dyndbg top'."
	echo "  A module whose sites run N times for each write of N to a parameter:"
	show "modprobe $LOOP_MOD"
	show "dyndbg on 'module $LOOP_MOD'"
	printf '  # dyndbg top --once --interval 2   (meanwhile: 500 plain, 3 device)\n'
	dyndbg top --once --interval 2 >/tmp/top &
	sleep 1
	loop plain 500
	loop device 3
	wait $!
	sed 's/^/  /' /tmp/top
	dmesg -c >/dev/null

	say "9. Tame it with the r flag: a burst of messages per interval, the rest dropped:"
	show "echo 3 > $RL/ratelimit_burst; echo 1000 > $RL/ratelimit_interval_ms"
	show "dyndbg set 'module $LOOP_MOD func loop_plain' +r"
	printf '  # echo 500 > %s/plain; sleep 1; echo 1 > %s/plain\n' "$LOOP" "$LOOP"
	loop plain 500
	sleep 1
	loop plain 1
	echo "  kernel log:"
	kernel_log
	echo "  (3 of the 500 let through; the drops are counted, then reported)"

	say "10. Send the module's messages to the trace buffer with 'dyndbg trace':"
	printf "  # dyndbg trace 'module %s' &   (then 2 plain, 2 device; then kill -INT)\n" "$LOOP_MOD"
	dyndbg trace "module $LOOP_MOD" >/tmp/trace &
	pid=$!
	sleep 1
	loop plain 2
	loop device 2
	sleep 1
	kill -INT $pid
	wait $pid
	sed 's/^.*\] [^ ]* *//; s/^/  | /' /tmp/trace
	dmesg -c >/dev/null
	echo "  On exit it put the flags (no T) and the trace events back as they were:"
	show "dyndbg list 'module $LOOP_MOD'"
	show "cat $EVENTS"

	say "11. Save the setup, reload the module (its sites start off), restore it:"
	show "dyndbg save /tmp/setup"
	echo "  ($(grep -vc '^#' /tmp/setup) sites with flags, $(grep -c "\[$LOOP_MOD\]" /tmp/setup) of them the loop module's)"
	show "rmmod $LOOP_MOD; modprobe $LOOP_MOD"
	show "dyndbg diff /tmp/setup"
	show "dyndbg restore /tmp/setup"
	show "dyndbg list --enabled 'module $LOOP_MOD'"

	say "12. A query that prints nothing? 'dyndbg doctor' says why:"
	show "dyndbg doctor 'module $LOOP_MOD func loop_device'"
	echo "  (p is set, but the console shows only levels below 5: see dmesg)"
	show "dyndbg doctor 'module test_dyndbg_lop' | grep -v '^ok'"
	dyndbg off "module $LOOP_MOD" >/dev/null
	rmmod $LOOP_MOD
	echo 10 >$RL/ratelimit_burst
	echo 5000 >$RL/ratelimit_interval_ms
}

if [ -e "$(dirname "$CTL")/preview" ]; then
	tool_demo
else
	say "8. (The dyndbg tool needs the preview file, which this core lacks.)"
fi

say "Done. Try it yourself: make shell (man page: Documentation/tools/dyndbg/dyndbg.rst)"
