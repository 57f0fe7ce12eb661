#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host-side checks of our kernel sources, printed as KTAP: checkpatch
# --strict and kernel-doc for every C file and header we ship, then
# (once the kernel is built) sparse and W=1 for the core's objects and the
# jump-label NOP shape of a test module.
#
# Usage: host-checks.sh [--build]   (--build adds the checks that need one)

set -uo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP"
. scripts/lib.sh

with_build=0
[ "${1:-}" = --build ] && with_build=1

n=0
ok()     { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; }
skip()   { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }

sources() {
	{
		ls include/linux/dynamic_debug.h lib/dynamic_debug/*.[ch]
		ls "$SELFTEST_DIR"/test_modules/*.c
	} 2>/dev/null
}

echo "KTAP version 1"
for f in $(sources); do
	ignore=$(awk -v f="$f" '$1 == f { printf "%s%s", sep, $2; sep = "," }' \
		scripts/checkpatch-exceptions)
	out=$(perl "$PRISTINE/scripts/checkpatch.pl" --strict --no-tree \
		--quiet --no-summary --show-types ${ignore:+--ignore "$ignore"} \
		-f "$f" 2>&1)
	if [ -z "$out" ]; then
		ok "checkpatch --strict $f"
	else
		echo "$out" | sed 's/^/# /'
		not_ok "checkpatch --strict $f"
	fi
	out=$(perl "$PRISTINE/scripts/kernel-doc" -none -Wall "$f" 2>&1)
	if [ -z "$out" ]; then
		ok "kernel-doc $f"
	else
		echo "$out" | sed 's/^/# /'
		not_ok "kernel-doc $f"
	fi
done

if [ $with_build = 1 ]; then
	if [ "$IMPL" != ours ]; then
		skip "sparse and W=1 on lib/dynamic_debug" "IMPL=$IMPL"
	elif [ ! -d lib/dynamic_debug ] || ! ls lib/dynamic_debug/*.c >/dev/null 2>&1; then
		not_ok "sparse and W=1 on lib/dynamic_debug (no sources)"
	else
		# C=2 runs sparse without recompiling; .s targets compile
		# with W=1 without touching the objects the kernel links.
		log=$(mktemp)
		kmake C=2 lib/dynamic_debug/ >"$log" 2>&1
		rc=$?
		warn=$(grep -E '(warning|error):' "$log" | grep 'lib/dynamic_debug' || true)
		if [ $rc = 0 ] && [ -z "$warn" ]; then
			ok "sparse (C=2) lib/dynamic_debug"
		else
			echo "$warn" | sed 's/^/# /'
			not_ok "sparse (C=2) lib/dynamic_debug"
		fi
		targets=$(cd lib/dynamic_debug && ls *.c | sed 's|^\(.*\)\.c$|lib/dynamic_debug/\1.s|')
		kmake W=1 $targets >"$log" 2>&1
		rc=$?
		warn=$(grep -E '(warning|error):' "$log" || true)
		if [ $rc = 0 ] && [ -z "$warn" ]; then
			ok "W=1 lib/dynamic_debug"
		else
			echo "$warn" | sed 's/^/# /'
			not_ok "W=1 lib/dynamic_debug"
		fi
		rm -f "$log"
	fi
	nop=$SELFTEST_DIR/check_nop_shape.sh
	if [ -x "$nop" ] || [ -f "$nop" ]; then
		ko=$(ls "$OUT"/test_modules/test_dyndbg_sites.ko 2>/dev/null | head -n 1)
		if [ -n "$ko" ]; then
			out=$(sh "$nop" "$ko" 2>&1)
			rc=$?
			echo "$out" | sed 's/^/# /'
			if [ $rc = 0 ]; then
				ok "jump-label NOP shape ($nop)"
			else
				not_ok "jump-label NOP shape ($nop)"
			fi
		else
			not_ok "jump-label NOP shape: no test_dyndbg_sites.ko"
		fi
	fi
fi
echo "1..$n"
