#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-all: a bounded run of the control-file fuzzer (scripts/fuzz.sh),
# FUZZ_COUNT writes (default 50000) from a random seed, which it prints
# with the command that replays the run. Runs under build/.lock (from
# scripts/check.sh). The invariants are our core's (all-or-nothing writes,
# NUL bytes refused): on IMPL=upstream it skips.

. "$(dirname "$0")/../lib.sh" || exit 1
if [ "$IMPL" != ours ]; then
	echo "KTAP version 1"
	echo "1..0 # SKIP the fuzzer checks guarantees upstream 6.12 lacks"
	exit 0
fi
COUNT=${FUZZ_COUNT:-50000} SEED=${FUZZ_SEED:-} FUZZ_PREBUILT=1 \
	exec "$(dirname "$0")/../fuzz.sh"
