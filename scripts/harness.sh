#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The harness's commands, called by the top-level Makefile under
# build/.lock. Environment: IMPL=ours|upstream, V=1, SCRIPT=FILE,
# APPEND="kernel args", NAME=boot test.

set -uo pipefail
cd "$(dirname "$0")/.." && . scripts/lib.sh || exit 1
setup "$IMPL"

# vm_run SCRIPT APPEND: boot, run SCRIPT, print its output; fail with its
# status, or when the guest hung, died or showed a kernel problem.
vm_run() {
	local log=$OUT/vm-run.log rc=0
	[ -f "$1" ] || die "usage: make vm-run SCRIPT=FILE [APPEND=...]"
	do_build && do_initramfs || exit 1
	boot "$1" "$log" "$2" || rc=$?
	script_output "$log"
	kernel_problems "$log" >/dev/null && echo "harness: kernel problems in ${log#"$TOP"/}:" >&2 &&
		kernel_problems "$log" >&2 && [ $rc = 0 ] && rc=1
	[ $rc = 0 ] || echo "harness: guest script exited with status $rc (log: ${log#"$TOP"/})" >&2
	return $rc
}

case "${1:-run}" in
deps)		do_deps ;;
tree)		do_deps && do_tree ;;
config)		do_deps && do_tree && do_config ;;
build)		do_build ;;
initramfs)	do_build && do_initramfs ;;
run)		msg "BOOT   $IMPL kernel, demo (console: build/$IMPL/vm-run.log)"
		vm_run scripts/demo.sh "ddebug_query=\"file kobject.c +p\" ${APPEND:-}" |
			if [ -t 1 ]; then cat; else sed 's/\x1b\[[0-9;]*m//g'; fi ;;
vm-run)		vm_run "${SCRIPT:-}" "${APPEND:-}" ;;
shell)		do_build && do_initramfs || exit 1
		payload scripts/guest/shell.sh >"$OUT/shell.cpio"
		qemu_cmd "${APPEND:-}" "$OUT/shell.cpio" && "${QEMU[@]}" ;;
check)		scripts/check.sh ;;
check-all)	scripts/check.sh --all ;;
arches)		ARCHES=${ARCHES:-arm64 riscv64 s390x} ARCH_BOOT_TESTS=1 scripts/check.d/arches.sh >"$BUILD/arches.ktap"
		grep -E '^(not )?ok ' "$BUILD/arches.ktap"
		echo "# the whole KTAP document: ${BUILD#"$TOP"/}/arches.ktap"
		ktap_summary "$BUILD/arches.ktap" ;;
matrix)		scripts/check.d/matrix.sh >"$BUILD/matrix.ktap"
		grep -E '^(not )?ok ' "$BUILD/matrix.ktap"
		echo "# the whole KTAP document: ${BUILD#"$TOP"/}/matrix.ktap"
		ktap_summary "$BUILD/matrix.ktap" ;;
boot-test|kselftest) scripts/check.sh --$1 "${NAME:?usage: make $1 NAME=FILE}" ;;
host-checks)	do_build && scripts/host-checks.sh ;;
compat)		scripts/check.d/compat.sh && scripts/check.d/callers.sh ;;
bench)		scripts/bench.sh ;;
bench-smoke)	BENCH_SMOKE=1 scripts/bench.sh ;;
fuzz)		scripts/fuzz.sh ;;
patch)		do_deps && scripts/patch.sh series ;;
patch-check)	do_deps && scripts/patch.sh check ;;
apply)		do_deps && scripts/patch.sh apply "${2:-}" ;;
distro-check)	scripts/distro-check.sh ;;
cross-check)	scripts/cross-check.sh; rc=$?; scripts/cross-check.sh report; exit $rc ;;
clean)		rm -rf "$OUT" ;;
*)		die "unknown command '$1' (see make help)" ;;
esac
