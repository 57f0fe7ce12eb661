#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-all: the bench's smoke run (make bench-smoke): our kernel alone
# with 100,000 sites; passes when every metric was produced, every site
# count is right and the dyndbg tool's listings match control. It judges
# no timing: the figures live in make bench.

cd "$(dirname "$0")/../.." && . scripts/lib.sh || exit 1
echo "KTAP version 1"
if [ "$IMPL" != ours ]; then
	echo "1..0 # SKIP the bench's smoke run is of our core"
	exit 0
fi
echo "1..1"
log=build/bench-smoke.log
if BENCH_SMOKE=1 scripts/bench.sh >"$log" 2>&1; then
	echo "ok 1 - bench smoke run: every metric at 100,000 sites"
else
	tail -n 20 "$log" | sed 's/^/# /'
	echo "not ok 1 - bench smoke run (log: $log)"
fi
