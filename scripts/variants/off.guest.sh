# SPDX-License-Identifier: GPL-2.0
#
# Build matrix, variant "off" (DYNAMIC_DEBUG=n, DYNAMIC_DEBUG_CORE=n): no
# control file, pr_debug() prints nothing, and dyndbg= given to a module
# is reported with a warning and otherwise ignored. Prints "ok"/"not ok"
# lines; the host numbers them. Every kselftest skips, saying why.

check "off: no control file in debugfs" \
	test ! -e /sys/kernel/debug/dynamic_debug/control
check "off: no control file in proc" test ! -e /proc/dynamic_debug/control
dmesg -c >/dev/null
insmod "$(find /lib/modules -name test_dyndbg_sites.ko)" dyndbg=+p
check "off: a module loads with dyndbg=+p" test $? = 0
check "off: dyndbg= is warned about" \
	sh -c 'dmesg -r | grep "^<4>" | grep -q dyndbg'
check "off: the module's init pr_debug() printed nothing" \
	test -z "$(dmesg | grep 'sites init')"
dmesg -c >/dev/null
echo 1 >/sys/module/test_dyndbg_sites/parameters/do_prints
check "off: pr_debug(), dev_dbg() and hex dumps print nothing" \
	test -z "$(dmesg | grep -e 'alpha one' -e 'delta')"
rmmod test_dyndbg_sites
dmesg -c >/dev/null
modprobe test_dyndbg_debug
check "off: a file with DEBUG defined still prints, as upstream" \
	logged "debug module init, enabled by DEBUG"
rmmod test_dyndbg_debug

run_kselftests off all
