#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# For a PREEMPT_RT kernel under lockdep (with its raw-lock nesting checks)
# and DEBUG_ATOMIC_SLEEP (the debug kernel of the build matrix, scripts/
# check.d/matrix.sh), run after KUnit and every kselftest (test-contexts.sh
# among them, which prints from hard interrupts and under raw spinlocks):
# a bounded run of the control-file fuzzer, then a look at lockdep, to
# show that it was watching all along. A report ("BUG: sleeping function
# called from invalid context", "Invalid wait context", ...) on the
# console fails the boot (scripts/kernel-problems).

DIR=$(dirname "$0")
. "$DIR/fuzz-run.sh"

STATS=/proc/lockdep_stats

uname -v | grep -q PREEMPT_RT || ktap_skip_all "not a PREEMPT_RT kernel"
[ -r "$STATS" ] || ktap_skip_all "no lockdep ($STATS)"

ktap_plan 3
fuzz_run rt "${FUZZ_COUNT:-5000}"

# Lockdep turns itself off at its first report: still on means it saw
# nothing wrong, and its counters show it saw the locks.
sed 's/^/# /' "$STATS" | grep -E 'debug_locks|lock-classes|direct dependencies'
ktap_expect "rt: lockdep is still on after every test" 1 \
	"$(awk '/debug_locks:/ { print $2 }' "$STATS")"
classes=$(awk '/lock-classes:/ { split($2, a, "["); print a[1] + 0 }' "$STATS")
ktap_check "rt: lockdep tracked lock classes meanwhile ($classes)" \
	test "${classes:-0}" -gt 0
ktap_finish
