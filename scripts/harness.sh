#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The dyndbg harness: prepare trees, configure, build, make the initramfs,
# boot QEMU and collect results. Called by the top-level Makefile, which
# holds build/.lock around every call.
#
# Environment: IMPL=ours|upstream, V=0|1, SCRIPT=FILE, APPEND="args",
# VARIANT=name (extra config fragment scripts/variants/NAME.config and a
# build directory of its own).

set -euo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP"
. scripts/lib.sh

cmd=${1:-run}

case "$cmd" in
deps)		do_deps ;;
tree)		do_deps; do_tree ;;
config)		do_deps; do_tree; do_config ;;
build)		do_all_build ;;
initramfs)	do_all_build; do_initramfs ;;
host-checks)	do_deps; do_tree; scripts/host-checks.sh ;;
run)		do_all_build; do_initramfs; do_run ;;
shell)		do_all_build; do_initramfs; do_shell ;;
vm-run)		do_all_build; do_initramfs; do_vm_run ;;
check)		scripts/check.sh ;;
compat)		scripts/compat.sh ;;
bench)		scripts/bench.sh ;;
bench-smoke)	BENCH_SMOKE=1 scripts/bench.sh ;;
clean)		do_clean ;;
*)		die "unknown command '$cmd' (see make help)" ;;
esac
