# SPDX-License-Identifier: GPL-2.0
#
# Build matrix, variant "core" (DYNAMIC_DEBUG=n, DYNAMIC_DEBUG_CORE=y):
# the control file exists, built-in code and ordinary modules have no
# call sites, and only modules built with -DDYNAMIC_DEBUG_MODULE have them
# and print when enabled. The selftests' modules are built that way (see
# their Makefile); test_dyndbg_plain, a copy of test_dyndbg_sites made by
# scripts/check.d/matrix.sh, is not. Then the kselftests run and pass,
# except the class tests: lib/test_dynamic_debug.ko needs DYNAMIC_DEBUG.

CTL=/proc/dynamic_debug/control
[ -f /sys/kernel/debug/dynamic_debug/control ] &&
	CTL=/sys/kernel/debug/dynamic_debug/control

sites()		{ grep -vc '^#' "$CTL"; }
sites_of()	{ grep -c " \[$1\]" "$CTL"; }

check "core: the control file exists" test -f "$CTL"
check "core: built-in code has no call sites" test "$(sites)" = 0
modprobe test_dyndbg_plain
check "core: a module without DYNAMIC_DEBUG_MODULE has no sites" \
	test "$(sites_of test_dyndbg_plain)" = 0
dmesg -c >/dev/null
echo 1 >/sys/module/test_dyndbg_plain/parameters/do_prints
check "core: its pr_debug() prints nothing" test -z "$(dmesg | grep 'alpha one')"
rmmod test_dyndbg_plain

modprobe test_dyndbg_sites
n=$(sites_of test_dyndbg_sites)
check "core: the DYNAMIC_DEBUG_MODULE module has sites ($n)" test "$n" -gt 0
check "core: they are the only sites" test "$(sites)" = "$n"
dmesg -c >/dev/null
echo 1 >/sys/module/test_dyndbg_sites/parameters/do_prints
check "core: its sites start disabled" test -z "$(dmesg | grep 'alpha one')"
echo 'module test_dyndbg_sites func sites_alpha +p' >"$CTL"
echo 1 >/sys/module/test_dyndbg_sites/parameters/do_prints
check "core: an enabled site prints" logged "alpha one"
rmmod test_dyndbg_sites
dmesg -c >/dev/null
insmod "$(find /lib/modules -name test_dyndbg_sites.ko)" dyndbg=+p
check "core: dyndbg= applies before its init" logged "sites init start"
rmmod test_dyndbg_sites
echo 'fiel x +p' >"$CTL" 2>/dev/null
check "core: bad queries still fail" test $? != 0

run_kselftests core "test-classes.sh"
