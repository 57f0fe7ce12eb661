#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# For a debug kernel (KASAN, lockdep, kmemleak, UBSAN...: variant "debug"
# of the build matrix, scripts/check.d/matrix.sh), run after KUnit and
# every kselftest (the stress run among them): a bounded run of the
# control-file fuzzer (dyndbg_fuzz, in PATH), then a kmemleak scan. A
# report of any of the kernel's checkers fails the boot (scripts/
# kernel-problems); here a leak whose allocation went through the dynamic
# debug core or its test modules fails, others are listed only.

DIR=$(dirname "$0")
. "$DIR/fuzz-run.sh"

KMEMLEAK=/sys/kernel/debug/kmemleak

ktap_plan 3
fuzz_run debug "${FUZZ_COUNT:-10000}"

# kmemleak reports only objects older than a few seconds, found
# unreferenced by two scans.
ktap_check "debug: kmemleak is on" test -w "$KMEMLEAK"
echo scan >"$KMEMLEAK"
sleep 6
echo scan >"$KMEMLEAK"
cat "$KMEMLEAK" >/tmp/leaks
ktap_diag "kmemleak: $(grep -c '^unreferenced object' /tmp/leaks) unreferenced objects in all"
ours=$(awk '/^unreferenced object/ { if (o) n++; o = 0 } /ddebug|dynamic_debug|dyndbg/ { o = 1 }
	END { if (o) n++; print n + 0 }' /tmp/leaks)
[ "$ours" = 0 ] || sed 's/^/# /' /tmp/leaks | head -n 60
ktap_check "debug: kmemleak finds no leak of dynamic debug ($ours)" test "$ours" = 0
ktap_finish
