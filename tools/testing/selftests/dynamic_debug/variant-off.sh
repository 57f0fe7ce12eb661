#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# For a kernel built with DYNAMIC_DEBUG=n, DYNAMIC_DEBUG_CORE=n (variant
# "off" of the build matrix, scripts/check.d/matrix.sh): no
# control file, pr_debug() prints nothing, and dyndbg= given to a module
# is reported with a warning and otherwise ignored. Prints KTAP.
# Every kselftest skips, saying why (scripts/check.d/matrix.sh checks).

DIR=$(dirname "$0")
. "$DIR/functions.sh"

ktap_check "off: no control file in debugfs" \
	test ! -e /sys/kernel/debug/dynamic_debug/control
ktap_check "off: no control file in proc" test ! -e /proc/dynamic_debug/control
dmesg -c >/dev/null
insmod "$(find /lib/modules -name test_dyndbg_sites.ko)" dyndbg=+p
ktap_check "off: a module loads with dyndbg=+p" test $? = 0
ktap_check "off: dyndbg= is warned about" \
	sh -c 'dmesg -r | grep "^<4>" | grep -q dyndbg'
ktap_check "off: the module's init pr_debug() printed nothing" \
	test -z "$(dmesg | grep 'sites init')"
dmesg -c >/dev/null
echo 1 >/sys/module/test_dyndbg_sites/parameters/do_prints
ktap_check "off: pr_debug(), dev_dbg() and hex dumps print nothing" \
	test -z "$(dmesg | grep -e 'alpha one' -e 'delta')"
rmmod test_dyndbg_sites
dmesg -c >/dev/null
modprobe test_dyndbg_debug
ktap_check "off: a file with DEBUG defined still prints, as upstream" \
	log_has "debug module init, enabled by DEBUG"
rmmod test_dyndbg_debug

ktap_finish
