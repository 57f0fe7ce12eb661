#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Other architectures (issue 20): our kernel built with Debian's cross
# compiler for each of ARCHES (default arm64) and booted under QEMU
# (GUEST_ARCH in scripts/lib.sh, build/ours-ARCH/), running the KUnit
# suite and every kselftest, and with ARCH_BOOT_TESTS=1 (make arches:
# arm64, riscv64 and s390x) the boot tests of boot-tests.list too. Per
# architecture, beside that run's results: the jump-label NOP shape of
# its test module, and that a site switched on prints and switched off
# stops (test-flags.sh's checks, picked out of the run). Prints KTAP.

set -uo pipefail
cd "$(dirname "$0")/../.." && . scripts/lib.sh || exit 1

# arch_run ARCH: check.sh on ARCH's kernel, its KTAP document, and the
# end of its output when it failed before writing one.
arch_run() {
	local out=$BUILD/$IMPL-$1 log rc=0 mode=--guest
	[ "${ARCH_BOOT_TESTS:-0}" = 1 ] && mode=--boots
	log=$(mktemp)
	rm -f "$out/check.ktap"
	GUEST_ARCH=$1 scripts/check.sh $mode >"$log" 2>&1 || rc=$?
	if [ -f "$out/check.ktap" ]; then
		sed '1d' "$out/check.ktap"
	else
		tail -n 30 "$log" | sed 's/^/# /'
	fi
	rm -f "$log"
	return $rc
}

# site_switches LOG: test-flags.sh passed "p prints the message" (a site
# switched on prints) and "-p stops the printing" in the run of LOG.
site_switches() {
	local sec
	sec=$(sed -n '/^@@KTAP-BEGIN test-flags.sh@@$/,/^@@KTAP-END test-flags.sh /p' "$1")
	grep -qE '^ok [0-9]+ p prints the message$' <<<"$sec" &&
		grep -qE '^ok [0-9]+ -p stops the printing$' <<<"$sec"
}

# nop_shape ARCH: scripts/nop-shape.sh on ARCH's sites test module.
nop_shape() {
	GUEST_ARCH=$1 scripts/nop-shape.sh "$BUILD/$IMPL-$1/test_modules/test_dyndbg_sites.ko"
}

boots=
[ "${ARCH_BOOT_TESTS:-0}" = 1 ] && boots=", boot tests"
. "$KTAP_HELPERS"
ktap_print_header
for a in ${ARCHES:-arm64}; do
	case "$a" in
	x86_64)	die "x86_64 is make check's" ;;
	esac
	ktap_group "$a: build, KUnit, kselftests$boots" arch_run "$a"
	ktap_test_result "$a: a site switched on prints, switched off stops (test-flags.sh)" \
		site_switches "$BUILD/$IMPL-$a/check-main.log"
	ktap_group "$a: jump-label NOP shape" nop_shape "$a"
done
ktap_set_plan $((KTAP_TESTNO - 1))
