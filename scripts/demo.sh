#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The 'make run' demo, run as root in the guest: the workflow of the 2011
# article on a module laid out like a platform driver.

DIR=/kselftest/dynamic_debug
. "$DIR/functions.sh"
CTL=/sys/kernel/debug/dynamic_debug/control
MOD=$DRIVER_MOD
SRC=$DRIVER_FILE
DEV=$DRIVER_DEV
DRV=/sys/bus/platform/drivers/$DRIVER_NAME
LINES=$DRIVER_PROBE_FIRST-$DRIVER_PROBE_LAST

say()  { printf '\n\033[1m%s\033[0m\n' "$*"; }
show() { printf '  # %s\n' "$*"; sh -c "$*" 2>&1 | sed 's/^/  /'; }
query() {
	printf '  # echo %s > %s\n' "'$1'" "$CTL"
	echo "$1" >"$CTL" || { echo "  (rejected: see the kernel log below)"
		dmesg | tail -n 1 | sed 's/^\[[^]]*\] /  /'; }
}
# What the driver printed since the last call, as a syslog reader sees it.
kernel_log() { dmesg -c | sed -n 's/^\[[^]]*\] /  | /p'; }
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

say "Done. Try it yourself: make shell"
