#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# For the KCSAN kernel (variant "kcsan" of the build matrix, scripts/
# check.d/matrix.sh), run after KUnit, test-concurrency.sh, test-stress.sh
# and test-textpoke.sh: a bounded run of the control-file fuzzer, then a
# look at KCSAN's own counters, to show that the detector was watching
# all along. A KCSAN report ("BUG: KCSAN: data-race in ...") on the
# console fails the boot (scripts/kernel-problems).

DIR=$(dirname "$0")
. "$DIR/functions.sh"

KCSAN=/sys/kernel/debug/kcsan
COUNT=${FUZZ_COUNT:-5000}
SEED=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')

ktap_plan 3
modprobe test_dyndbg_sites && modprobe test_dyndbg_driver
dmesg -n 1
ktap_diag "fuzz: seed $SEED, $COUNT writes, $(grep -c ^processor /proc/cpuinfo) CPUs"
dyndbg_fuzz -s "$SEED" -n "$COUNT" test_dyndbg_sites test_dyndbg_driver >/tmp/fuzz.out 2>&1
rc=$?
# The kernel's warnings and worse that the fuzzer passed on, as the kernel
# printed them, for the host to find as on the console.
grep -E '^\[ *[0-9]+\.[0-9]+\] ' /tmp/fuzz.out
grep -vE '^\[ *[0-9]+\.[0-9]+\] ' /tmp/fuzz.out | sed 's/^/# /' | tail -n 20
ktap_check "kcsan: fuzzer, $COUNT writes, invariants hold" test $rc = 0
rmmod test_dyndbg_driver test_dyndbg_sites
dmesg -n 7

# KCSAN's counters: it is enabled, and it set up watchpoints meanwhile.
cat "$KCSAN" >/tmp/kcsan 2>/dev/null
sed 's/^/# /' /tmp/kcsan | head -n 20
ktap_check "kcsan: the detector is enabled" grep -q '^enabled: 1' /tmp/kcsan
setup=$(sed -n "s/^setup_watchpoints: *//p" /tmp/kcsan)
races=$(sed -n 's/^data_races: *//p' /tmp/kcsan)
ktap_diag "kcsan: $setup watchpoints set up, $races data races reported"
ktap_check "kcsan: it watched memory during the tests" test "${setup:-0}" -gt 0
ktap_finish
