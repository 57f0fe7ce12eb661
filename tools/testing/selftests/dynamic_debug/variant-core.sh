#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# For a kernel built with DYNAMIC_DEBUG=n, DYNAMIC_DEBUG_CORE=y (variant
# "core" of the build matrix, scripts/check.d/matrix.sh):
# the control file exists, built-in code and ordinary modules have no
# call sites, and only modules built with -DDYNAMIC_DEBUG_MODULE have them
# and print when enabled. The selftests' modules are built that way (see
# their Makefile); test_dyndbg_plain, a copy of test_dyndbg_sites made by
# scripts/check.d/matrix.sh, is not. Then the kselftests run and pass,
# except the class tests: lib/test_dynamic_debug.ko needs DYNAMIC_DEBUG.

DIR=$(dirname "$0")
. "$DIR/functions.sh"

require_control
CTL=$DD_CONTROL
sites()		{ grep -vc '^#' "$CTL"; }

ktap_check "core: the control file exists" test -f "$CTL"
ktap_check "core: built-in code has no call sites" test "$(sites)" = 0
modprobe test_dyndbg_plain
ktap_check "core: a module without DYNAMIC_DEBUG_MODULE has no sites" \
	test "$(dd_count test_dyndbg_plain)" = 0
dmesg -c >/dev/null
echo 1 >/sys/module/test_dyndbg_plain/parameters/do_prints
ktap_check "core: its pr_debug() prints nothing" test -z "$(dmesg | grep 'alpha one')"
rmmod test_dyndbg_plain

modprobe test_dyndbg_sites
n=$(dd_count test_dyndbg_sites)
ktap_check "core: the DYNAMIC_DEBUG_MODULE module has sites ($n)" test "$n" -gt 0
ktap_check "core: they are the only sites" test "$(sites)" = "$n"
dmesg -c >/dev/null
echo 1 >/sys/module/test_dyndbg_sites/parameters/do_prints
ktap_check "core: its sites start disabled" test -z "$(dmesg | grep 'alpha one')"
echo 'module test_dyndbg_sites func sites_alpha +p' >"$CTL"
echo 1 >/sys/module/test_dyndbg_sites/parameters/do_prints
ktap_check "core: an enabled site prints" log_has "alpha one"
rmmod test_dyndbg_sites
dmesg -c >/dev/null
insmod "$(find /lib/modules -name test_dyndbg_sites.ko)" dyndbg=+p
ktap_check "core: dyndbg= applies before its init" log_has "sites init start"
rmmod test_dyndbg_sites
echo 'fiel x +p' >"$CTL" 2>/dev/null
ktap_check "core: bad queries still fail" test $? != 0

ktap_finish
