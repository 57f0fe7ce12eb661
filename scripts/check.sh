#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: host checks, then boots of the test kernel running the KUnit
# suite and the kselftests, then the boot-parameter boots. Prints one line
# per failure and, last, "N passed, N failed[, N skipped]".

set -uo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP"
. scripts/lib.sh

PASS=0
FAIL=0
SKIP=0
FAILED_NAMES=()

tally() {	# tally PASS FAIL SKIP LABEL
	PASS=$((PASS + $1))
	FAIL=$((FAIL + $2))
	SKIP=$((SKIP + $3))
	[ "$2" = 0 ] || FAILED_NAMES+=("$4")
	printf '  %-44s %4d passed, %d failed, %d skipped\n' "$4" "$1" "$2" "$3"
}

summary() {
	local s="$PASS passed, $FAIL failed"
	[ $SKIP = 0 ] || s="$s, $SKIP skipped"
	if [ $FAIL != 0 ]; then
		echo "FAILED: ${FAILED_NAMES[*]}"
	fi
	echo "$s"
	[ $FAIL = 0 ]
}

# ktap_count TEXTFILE LABEL: count top-level KTAP results; print failures.
ktap_count() {
	local f=$1 label=$2 counts p fl s plan got
	counts=$(awk '
		/^ok [0-9]+/     { if ($0 ~ /# *SKIP/) s++; else p++; next }
		/^not ok [0-9]+/ { if ($0 ~ /# *SKIP/) s++; else f++; next }
		/^1\.\.[0-9]+/   { split($0, a, /\.\./); plan = a[2] + 0; hp = 1 }
		END { printf "%d %d %d %d %d\n", p, f, s, hp ? plan : -1, p + f + s }' "$f")
	read -r p fl s plan got <<<"$counts"
	grep -E '^not ok [0-9]+' "$f" | grep -v '# *SKIP' | sed "s|^|    $label: |"
	if [ "$plan" -ge 0 ] && [ "$plan" != "$got" ]; then
		echo "    $label: plan says $plan checks, saw $got"
		fl=$((fl + 1))
	fi
	if [ "$got" = 0 ] && [ "$plan" != 0 ]; then
		echo "    $label: no KTAP results"
		fl=$((fl + 1))
	fi
	tally "$p" "$fl" "$s" "$label"
}

# A boot must finish and leave no kernel warning, oops, BUG... behind.
boot_verdict() {	# boot_verdict LOG RC LABEL
	local log=$1 rc=$2 label=$3 bad=0
	case $rc in
	124) echo "    $label: guest timed out"; bad=1 ;;
	125) echo "    $label: guest crashed or died (see ${log#"$TOP"/})"
	     tail -n 30 "$log" | sed 's/^/    | /'; bad=1 ;;
	esac
	if kernel_problems "$log" >/dev/null; then
		echo "    $label: kernel problems in ${log#"$TOP"/}:"
		kernel_problems "$log" | head -n 20 | sed 's/^/    | /'
		bad=1
	fi
	if [ $bad = 0 ]; then
		tally 1 0 0 "$label: clean boot"
	else
		tally 0 1 0 "$label: clean boot"
	fi
}

# Run each selftest section of a log through ktap_count.
selftest_sections() {	# selftest_sections LOG PREFIX
	local log=$1 prefix=$2 name rc tmp
	tmp=$(mktemp)
	for name in $(sed -n 's/^@@KSELFTEST-BEGIN \(.*\)@@$/\1/p' "$log"); do
		sed -n "/^@@KSELFTEST-BEGIN $name@@\$/,/^@@KSELFTEST-END $name /p" \
			"$log" | sed '1d;$d' >"$tmp"
		rc=$(sed -n "s/^@@KSELFTEST-END $name rc=\([0-9]*\)@@\$/\1/p" "$log")
		if [ -z "$rc" ]; then
			echo "    $prefix$name: did not finish"
			tally 0 1 0 "$prefix$name"
			continue
		fi
		if [ "$rc" = 4 ] && ! grep -qE '^(not )?ok ' "$tmp"; then
			tally 0 0 1 "$prefix$name (skipped)"
			continue
		fi
		if [ "$rc" != 0 ] && [ "$rc" != 4 ] && ! grep -qE '^not ok ' "$tmp"; then
			echo "    $prefix$name: exited $rc"
			tally 0 1 0 "$prefix$name exit status"
		fi
		ktap_count "$tmp" "$prefix$name"
	done
	rm -f "$tmp"
}

kunit_results() {	# kunit_results LOG
	local log=$1 line p f s c
	line=$(python3 "$PRISTINE/tools/testing/kunit/kunit.py" parse "$log" 2>&1 |
		sed 's/\x1b\[[0-9;]*m//g' | grep -E 'Testing complete|Ran [0-9]+ tests' | tail -n 1)
	if [ "$IMPL" != ours ]; then
		tally 0 0 0 "kunit (IMPL=$IMPL has no suite)"
		return
	fi
	if ! grep -q 'KTAP version\|TAP version' "$log" || ! grep -qE '# Subtest: dynamic_debug|ok [0-9]+ dynamic_debug' "$log"; then
		echo "    kunit: suite dynamic_debug did not run"
		tally 0 1 0 "kunit"
		return
	fi
	p=$(echo "$line" | sed -n 's/.*passed: \([0-9]*\).*/\1/p')
	f=$(echo "$line" | sed -n 's/.*failed: \([0-9]*\).*/\1/p')
	c=$(echo "$line" | sed -n 's/.*crashed: \([0-9]*\).*/\1/p')
	s=$(echo "$line" | sed -n 's/.*skipped: \([0-9]*\).*/\1/p')
	f=$(( ${f:-0} + ${c:-0} ))
	if [ $f != 0 ]; then
		python3 "$PRISTINE/tools/testing/kunit/kunit.py" parse "$log" 2>&1 |
			sed 's/\x1b\[[0-9;]*m//g' | grep -E 'FAILED|CRASHED|Expected|at lib/' |
			head -n 40 | sed 's/^/    kunit: /'
	fi
	tally "${p:-0}" "$f" "${s:-0}" "kunit"
}

# ------------------------------------------------------------------ main --

echo "make check: IMPL=$IMPL"
if ! (do_all_build && do_initramfs); then
	tally 0 1 0 "build"
	summary
	exit 1
fi
tally 1 0 0 "build"

# The suites that need no boot of this kernel (host checks, then the
# further suites of scripts/check.d/: callers, build matrix) run in the
# background while the main kernel boots; their reports are read, in this
# order, once the boots are done.
LANE=$(mktemp -d)
trap 'rm -rf "$LANE"' EXIT
(
	scripts/host-checks.sh --build >"$LANE/host-checks" 2>&1
	for extra in scripts/check.d/*.sh; do
		[ -f "$extra" ] || continue
		bash "$extra" >"$LANE/$(basename "$extra" .sh)" 2>&1
	done
) </dev/null &
lane=$!

log=$OUT/check-main.log
msg "BOOT   KUnit + kselftests (console: ${log#"$TOP"/})"
rc=0
boot_script scripts/guest/run-selftests.sh "$log" "$APPEND" >/dev/null || rc=$?
boot_verdict "$log" "$rc" "main boot"
kunit_results "$log"
selftest_sections "$log" ""

# Boot-parameter tests: lines "SCRIPT APPEND" in boot-tests.list.
list=$SELFTEST_DIR/boot-tests.list
if [ -f "$list" ]; then
	i=0
	while read -r script append; do
		case "$script" in ''|'#'*) continue ;; esac
		i=$((i + 1))
		blog=$OUT/check-boot-$i.log
		guest=$(mktemp)
		# Wrap the script so its KTAP lands in a selftest section.
		cat >"$guest" <<-WRAP
		#!/bin/sh
		echo "@@KSELFTEST-BEGIN $script@@"
		(cd /selftests/dynamic_debug && sh ./$script)
		rc=\$?
		echo "@@KSELFTEST-END $script rc=\$rc@@"
		exit \$rc
		WRAP
		msg "BOOT   $script [$append]"
		rc=0
		boot_script "$guest" "$blog" "$append" >/dev/null </dev/null || rc=$?
		rm -f "$guest"
		boot_verdict "$blog" "$rc" "boot $script"
		selftest_sections "$blog" "boot "
	done <"$list"
fi

msg "WAIT   host checks and scripts/check.d suites"
wait "$lane"
grep '^# ' "$LANE/host-checks" | head -n 60 | sed 's/^/    /'
ktap_count "$LANE/host-checks" "host checks"
for extra in scripts/check.d/*.sh; do
	[ -f "$extra" ] || continue
	name=$(basename "$extra" .sh)
	grep -E '^#|^  [A-Z]+ ' "$LANE/$name" | head -n 40 | sed 's/^/    /'
	ktap_count "$LANE/$name" "$name"
done

summary
