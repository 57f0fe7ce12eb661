#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make fuzz [SEED=N] [COUNT=N]: boot the test kernel and run the grammar-
# aware fuzzer of tools/testing/selftests/dynamic_debug/fuzz/ on the
# control file, COUNT writes (default 50000) from SEED (default: random;
# the run prints it, and the same SEED and COUNT replay the same writes on
# a fresh boot). Prints KTAP; exits non-zero when an invariant broke or
# the kernel reported a problem. Called under build/.lock (by the Makefile
# or by scripts/check.d/fuzz.sh).

set -uo pipefail
cd "$(dirname "$0")/.." && . scripts/lib.sh || exit 1
setup "$IMPL"

SEED=${SEED:-}
COUNT=${COUNT:-50000}

[ -n "$SEED" ] || SEED=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
case "$SEED$COUNT" in
*[!0-9]*) die "SEED and COUNT must be numbers" ;;
esac

# From scripts/check.d/fuzz.sh the kernel and initramfs are built already,
# and boots of make check are reading the initramfs: leave it alone.
if [ -z "${FUZZ_PREBUILT:-}" ]; then
	(do_build && do_initramfs) >/dev/null || die "build failed (run make build)"
fi
[ -f "$OUT/initramfs.cpio" ] || die "no initramfs (run make initramfs)"
mkdir -p "$OUT/fuzz"
# The initramfs carries the fuzzer (/bin/dyndbg_fuzz, built by do_initramfs).
guest=$OUT/fuzz/guest.sh
cat >"$guest" <<GUEST
#!/bin/sh
modprobe test_dyndbg_sites && modprobe test_dyndbg_driver || exit 1
echo "# fuzz: \$(grep -c processor /proc/cpuinfo) CPUs online"
# Each refused write logs an error: keep them off the slow console
# (the fuzzer prints warnings and worse itself).
dmesg -n 1
/bin/dyndbg_fuzz -s $SEED -n $COUNT test_dyndbg_sites test_dyndbg_driver
GUEST

log=$OUT/fuzz/console.log
msg "FUZZ   seed $SEED, $COUNT writes (console: ${log#"$TOP"/})" >&2
echo "KTAP version 1"
rc=0
start=$SECONDS
boot "$guest" "$log" "" >/dev/null </dev/null || rc=$?
out=$(script_output "$log")
printf '%s\n' "$out" | grep '^# '
echo "# fuzz: took $((SECONDS - start))s; replay: make fuzz SEED=$SEED COUNT=$COUNT"
line=$(printf '%s\n' "$out" | grep -E '^(ok|not ok) - fuzz' | tail -n 1)
case "$line" in
"ok - "*)	echo "ok 1 - ${line#ok - }"; rc=0 ;;
"not ok - "*)	echo "not ok 1 - ${line#not ok - }"; rc=1 ;;
*)		echo "not ok 1 - fuzz: did not finish (guest status $rc)"
		[ $rc = 125 ] && tail -n 15 "$log" | sed 's/^/# /'
		rc=1 ;;
esac
if kernel_problems "$log" >/dev/null; then
	echo "not ok 2 - fuzz: kernel problems"
	kernel_problems "$log" | head -n 10 | sed 's/^/# /'
	rc=1
else
	echo "ok 2 - fuzz: no kernel warning, oops or lockdep report"
fi
echo "1..2"
exit $(( rc != 0 ))
