#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: our core against upstream 6.12 on a generated load, in one
# run. For each implementation (upstream, then ours) with the harness's
# config: build the kernel, generate and build the load
# (scripts/bench/gen-module.py: bench_big with SITES sites, bench_small
# with 10) against it and read the module's section sizes and NOP shape
# on the host. Then boot the kernels in turn, upstream then ours, for
# each round, with the timer (scripts/bench/ddbench.c) and
# scripts/bench/guest.sh: a change in the host's speed during the run
# then falls on both alike. Then one boot of each under QEMU's -icount,
# where the short paths are counted in instructions, which no change of
# the host's speed or of code layout moves. Last, print one table of
# every round's repetitions and write it to bench/results.md
# (scripts/bench/report.py).
#
# Environment:
#   SITES=N          sites of the big module (default 100000)
#   BENCH_ONLY=IMPL  run one implementation (its table goes to
#                    build/bench/results-IMPL-N.md, not bench/results.md)
#   BENCH_ROUNDS=N   boots of each kernel, alternating (2)
#   BENCH_REPS=N     timed repetitions per metric and boot, after one
#                    warm-up (4)
#   BENCH_HEAVY_REPS=N  the same for enabling and disabling every site (3)
#   BENCH_LOCK_REPS=N  repetitions of the lock-wait batch per boot (2)
#   BENCH_LOCK_BYTES=N  size of that batch (4095: 682 queries)
#   BENCH_SMOKE=1    SITES=100000, ours only, one round of 3 repetitions
#                    (1 of every site and of the batch, which is 60
#                    bytes): checks that every metric is produced, every
#                    site count is right and dyndbg list and set --dry-run
#                    print what control shows, on 100,000 sites; judges no
#                    timing (~3 minutes; SITES=1000 for a quicker run)
#   BENCH_RESULTS=FILE  where the table goes
#   BENCH_REUSE="IMPL..."  take these implementations' figures from the
#                    last run at the same SITES (build/bench/IMPL-SITES-rN.txt)
#                    instead of measuring them again
#
# Called by scripts/harness.sh with build/.lock held. Exits non-zero if a
# build, a boot or a guest check failed or a metric is missing.

set -uo pipefail
cd "$(dirname "$0")/.." && . scripts/lib.sh || exit 1

if [ "${BENCH_SMOKE:-0}" = 1 ]; then
	SITES=${SITES:-100000}
	BENCH_ONLY=${BENCH_ONLY:-ours}
	BENCH_ROUNDS=${BENCH_ROUNDS:-1}
	BENCH_REPS=${BENCH_REPS:-3}
	BENCH_HEAVY_REPS=${BENCH_HEAVY_REPS:-1}
	BENCH_LOCK_REPS=${BENCH_LOCK_REPS:-1}
	BENCH_LOCK_BYTES=${BENCH_LOCK_BYTES:-60}
fi
SITES=${SITES:-100000}
BENCH_ONLY=${BENCH_ONLY:-}
ROUNDS=${BENCH_ROUNDS:-2}
REPS=${BENCH_REPS:-4}
HEAVY_REPS=${BENCH_HEAVY_REPS:-3}
LOCK_REPS=${BENCH_LOCK_REPS:-2}
LOCK_BYTES=${BENCH_LOCK_BYTES:-4095}
LOCK_DELAY_MS=50
# The same kernel command line for both: a fine clocksource (TSC, trusted
# without the watchdog that would otherwise drop it under emulation).
BENCH_APPEND="tsc=reliable clocksource=tsc"
export QEMU_TIMEOUT=${QEMU_TIMEOUT:-3600}

# A smoke run keeps its figures apart from a full run's at the same SITES.
BENCH_OUT=$TOP/build/bench
[ "${BENCH_SMOKE:-0}" != 1 ] || BENCH_OUT=$TOP/build/bench/smoke
IMPLS=${BENCH_ONLY:-upstream ours}
if [ -n "$BENCH_ONLY" ]; then
	RESULTS=${BENCH_RESULTS:-$BENCH_OUT/results-$BENCH_ONLY-$SITES.md}
else
	RESULTS=${BENCH_RESULTS:-bench/results.md}
fi
case "$SITES" in
''|*[!0-9]*|0) echo "bench: SITES must be a positive number" >&2; exit 2 ;;
esac
case "$ROUNDS" in
''|*[!0-9]*|0) echo "bench: BENCH_ROUNDS must be a positive number" >&2; exit 2 ;;
esac
for impl in $IMPLS; do
	case $impl in
	ours|upstream) ;;
	*) echo "bench: BENCH_ONLY must be ours or upstream" >&2; exit 2 ;;
	esac
done

if [ "${BENCH_SMOKE:-0}" = 1 ]; then
	COMMAND="make bench-smoke"
else
	COMMAND="make bench SITES=$SITES"
	[ -z "$BENCH_ONLY" ] || COMMAND="$COMMAND BENCH_ONLY=$BENCH_ONLY"
	[ -z "${BENCH_ROUNDS:-}" ] || COMMAND="$COMMAND BENCH_ROUNDS=$ROUNDS"
	[ -z "${BENCH_REPS:-}" ] || COMMAND="$COMMAND BENCH_REPS=$REPS"
	[ -z "${BENCH_HEAVY_REPS:-}" ] || COMMAND="$COMMAND BENCH_HEAVY_REPS=$HEAVY_REPS"
	[ -z "${BENCH_LOCK_REPS:-}" ] || COMMAND="$COMMAND BENCH_LOCK_REPS=$LOCK_REPS"
	[ -z "${BENCH_LOCK_BYTES:-}" ] || COMMAND="$COMMAND BENCH_LOCK_BYTES=$LOCK_BYTES"
	[ -z "${BENCH_REUSE:-}" ] || COMMAND="$COMMAND BENCH_REUSE='$BENCH_REUSE'"
fi

# The timer, built once for the host's libc.
build_timer() {
	local src=scripts/bench/ddbench.c bin=$BENCH_OUT/ddbench
	mkdir -p "$BENCH_OUT"
	if [ ! -x "$bin" ] || [ "$src" -nt "$bin" ]; then
		echo "  CC     ${bin#"$TOP"/} (static)"
		gcc -static -O2 -Wall -o "$bin" "$src" || return 1
	fi
}

# The size of upstream's one allocation per module, struct ddebug_table,
# compiled from its definition in the pristine tree (a list_head is two
# pointers; the host and the guest are both x86_64).
upstream_table_bytes() {
	local tmp
	tmp=$(mktemp -d)
	{
		echo '#include <stdio.h>'
		echo 'struct list_head { void *next, *prev; };'
		sed -n '/^struct ddebug_table {/,/^};/p' "$PRISTINE/lib/dynamic_debug.c"
		echo 'int main(void) { printf("%zu\n", sizeof(struct ddebug_table)); return 0; }'
	} >"$tmp/t.c"
	gcc -o "$tmp/t" "$tmp/t.c" && "$tmp/t"
	rm -rf "$tmp"
}

# host_facts MODDIR: what the built modules spend, read from the .ko files.
host_facts() {
	local mod=$1
	python3 scripts/bench/ko-facts.py "$mod/bench_big.ko" || return 1
	# The shape check of the selftests, on one generated function. Its
	# check 3 wants the 5-byte form; objtool writes the 2-byte one (66 90)
	# where the out-of-line code is near, as in a function this small:
	# that too is one inline NOP, so only the other checks decide here.
	bash scripts/nop-shape.sh "$mod/bench_small.ko" \
		bench_small_sites >"$mod/nop-shape.ktap" 2>&1
	if ! grep -q '^ok 1 ' "$mod/nop-shape.ktap" ||
	   grep '^not ok' "$mod/nop-shape.ktap" | grep -qv '^not ok 3 ' ||
	   grep '^# site at ' "$mod/nop-shape.ktap" | grep -qv '\[66 90\]'; then
		echo "value nop_shape fail"
		grep '^not ok' "$mod/nop-shape.ktap" | sed 's/^/info nop_shape /'
	else
		echo "value nop_shape ok"
	fi
	if [ "$IMPL" = upstream ]; then
		echo "value table_bytes $(upstream_table_bytes)"
	fi
	sed -n "s/^\([A-Z_]*\)='\(.*\)'\$/info env_\1 \2/p" "$mod/bench.env"
	echo "info kernel $(cat "$OBJ/include/config/kernel.release")"
	echo "info release $(cat "$OBJ/include/config/kernel.release")"
}

# bench_initramfs MODDIR DEST: the harness's initramfs plus /bench.
bench_initramfs() {
	local mod=$1 dest=$2 stage
	stage=$(mktemp -d)
	mkdir -p "$stage/bench"
	cp "$BENCH_OUT/ddbench" "$mod/bench_big.ko" "$mod/bench_small.ko" \
		"$mod/bench.env" "$stage/bench/"
	printf 'REPS=%s\nHEAVY_REPS=%s\nLOCK_REPS=%s\nLOCK_DELAY_MS=%s\nLOCK_BYTES=%s\n' \
		"$REPS" "$HEAVY_REPS" "$LOCK_REPS" "$LOCK_DELAY_MS" "$LOCK_BYTES" \
		>"$stage/bench/run.env"
	(cd "$stage" && find bench | sort | cpio -o -H newc --quiet) >"$stage/b.cpio"
	cat "$OUT/initramfs.cpio" "$stage/b.cpio" >"$dest/initramfs.cpio"
	rm -rf "$stage"
}

# prepare_impl IMPL: build the kernel and the load, measure the modules on
# the host (build/bench/IMPL-SITES/host.txt) and make the initramfs.
prepare_impl() {
	(
		setup "$1"
		local mod=$OUT/bench/sites-$SITES res=$BENCH_OUT/$1-$SITES
		do_build && do_initramfs || exit 1
		msg "GEN    $SITES sites -> ${mod#"$TOP"/}"
		python3 scripts/bench/gen-module.py "$SITES" "$mod" || exit 1
		msg "BUILD  bench modules ($IMPL)"
		# The sites' file names, as control lists them, must not depend
		# on the tree's path or on whether ccache (CCACHE_BASEDIR) made
		# the source path relative: both spellings lose their directory.
		quiet kmake M="$mod" KCFLAGS="-fmacro-prefix-map=$mod/= -fmacro-prefix-map=../bench/sites-$SITES/=" modules
		mkdir -p "$res"
		host_facts "$mod" >"$res/host.txt" || exit 1
		bench_initramfs "$mod" "$res" || exit 1
	)
}

# boot_impl IMPL ROUND: boot the kernel and measure in the guest; the
# round's figures land in $BENCH_OUT/IMPL-SITES-rROUND.txt (one file per
# site count; a smoke run has a $BENCH_OUT of its own). ROUND "icount"
# is the last boot of each kernel, under QEMU's -icount, whose clock
# counts the guest's instructions (guest.sh: icount_rows).
boot_impl() {
	(
		setup "$1"
		local res=$BENCH_OUT/$1-$SITES name=$1-$SITES-r$2
		local log=$BENCH_OUT/$name.log rc=0 t1=$SECONDS
		local append=$BENCH_APPEND
		if [ "$2" = icount ]; then
			QEMU_ARCH+=(-icount shift=0,align=off,sleep=off)
			append="$append ddbench.icount=1"
		fi
		msg "BOOT   $IMPL kernel, bench round $2 (console: ${log#"$TOP"/})"
		# boot appends to $OUT/initramfs.cpio: point it at ours.
		OUT=$res boot scripts/bench/guest.sh "$log" "$append" \
			>/dev/null || rc=$?
		script_output "$log" >"$res/guest.txt"
		grep '^check not ok' "$res/guest.txt" | sed "s/^/  $IMPL: /" >&2
		if kernel_problems "$log" >/dev/null; then
			echo "bench: kernel problems in ${log#"$TOP"/}:" >&2
			kernel_problems "$log" | head -n 20 >&2
			rc=1
		fi
		{
			cat "$res/host.txt"
			grep -E '^\[ *[0-9.]+\] clocksource: Switched' "$log" |
				sed 's/^/info console /'
			echo "info boot_seconds $((SECONDS - t1))"
			cat "$res/guest.txt"
		} >"$BENCH_OUT/$name.txt"
		[ $rc = 0 ] || echo "bench: the $IMPL guest failed (status $rc; log: ${log#"$TOP"/})" >&2
		exit $rc
	)
}

start=$SECONDS
fail=0
build_timer || exit 1
measure=()
for impl in $IMPLS; do
	reuse=1
	for r in $(seq "$ROUNDS") icount; do
		[ -f "$BENCH_OUT/$impl-$SITES-r$r.txt" ] || reuse=0
	done
	case " ${BENCH_REUSE:-} " in
	*" $impl "*)
		if [ $reuse = 1 ]; then
			echo "  REUSE  build/bench/$impl-$SITES-r*.txt (measured $(date -r "$BENCH_OUT/$impl-$SITES-r1.txt" -u '+%F %H:%M UTC'))"
			continue
		fi
		;;
	esac
	rm -f "$BENCH_OUT/$impl-$SITES"-r*.txt
	if prepare_impl "$impl"; then
		measure+=("$impl")
	else
		fail=1
	fi
done
for r in $(seq "$ROUNDS") icount; do
	for impl in "${measure[@]}"; do
		boot_impl "$impl" "$r" || fail=1
	done
done
args=()
for impl in $IMPLS; do
	files=$(seq -f "$BENCH_OUT/$impl-$SITES-r%g.txt" -s, "$ROUNDS")
	args+=("$impl=$files,$BENCH_OUT/$impl-$SITES-ricount.txt")
done
mkdir -p "$(dirname "$RESULTS")"
python3 scripts/bench/report.py --sites "$SITES" --command "$COMMAND" \
	--rounds "$ROUNDS" --seconds $((SECONDS - start)) --out "$RESULTS" \
	"${args[@]}" || fail=1
echo "  bench: ${RESULTS#"$TOP"/} ($((SECONDS - start))s)"
exit $fail
