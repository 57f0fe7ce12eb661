#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# For the KCSAN kernel (variant "kcsan" of the build matrix, scripts/
# check.d/matrix.sh), run after KUnit, test-concurrency.sh,
# test-contexts.sh, test-stress.sh and test-textpoke.sh: a bounded run of
# the control-file fuzzer, then a look at KCSAN's own counters, to show
# that the detector was watching all along. The host reads the data race
# reports ("BUG: KCSAN: data-race in ...") from the console and fails the
# run for those of dynamic debug's code (scripts/kcsan-reports.py says
# which are).

DIR=$(dirname "$0")
. "$DIR/fuzz-run.sh"

KCSAN=/sys/kernel/debug/kcsan

ktap_plan 3
fuzz_run kcsan "${FUZZ_COUNT:-5000}"

# KCSAN's counters: it is enabled, and it set up watchpoints meanwhile.
cat "$KCSAN" >/tmp/kcsan 2>/dev/null
sed 's/^/# /' /tmp/kcsan | head -n 20
ktap_check "kcsan: the detector is enabled" grep -q '^enabled: 1' /tmp/kcsan
setup=$(sed -n "s/^setup_watchpoints: *//p" /tmp/kcsan)
races=$(sed -n 's/^data_races: *//p' /tmp/kcsan)
ktap_diag "kcsan: $setup watchpoints set up, $races data races reported"
ktap_check "kcsan: it watched memory during the tests" test "${setup:-0}" -gt 0
ktap_finish
