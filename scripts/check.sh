#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh [--all | --boots | --guest | --boot-test NAME | --kselftest NAME]:
# build IMPL's kernel, boot it for the KUnit suite and every kselftest and
# once per line of boot-tests.list, with the host checks (and for --all
# scripts/check.d/*.sh) beside; all in one KTAP document,
# build/IMPL/check.ktap, then its summary. --boots: the boots alone;
# --guest: the KUnit and kselftest boot alone.

set -uo pipefail
cd "$(dirname "$0")/.." && . scripts/lib.sh || exit 1
setup "$IMPL"
LIST=$SELFTEST_DIR/boot-tests.list
# On our core nothing may skip as a whole; upstream lacks our KUnit suite.
STRICT=-
[ "$IMPL" = ours ] || STRICT=

# boot_tests NAME...: boot once running the guest's run-tests NAME...
boot_tests() {
	local name=$1 append=$2 log=$OUT/check-$1.log rc=0
	shift 2
	printf '#!/bin/sh\nexec run-tests %s\n' "$*" >"$OUT/check-$name.sh"
	msg "BOOT   $* [$append] (console: ${log#"$TOP"/})"
	boot "$OUT/check-$name.sh" "$log" "$append" || rc=$?
	ktap_boot "$log" $rc "$name: clean boot"
	ktap_sections "$log" "$STRICT"
}

# boot_test NAME: one boot test, with its line's kernel arguments.
boot_test() {
	local append
	append=$(awk -v n="$1" '$1 == n { sub(/^[^ \t]+[ \t]+/, ""); print; f = 1 } END { exit !f }' "$LIST") ||
		die "no boot test $1 in $LIST"
	boot_tests "$1" "$append" "$1"
}

# all_boot_tests: one boot per line of boot-tests.list.
all_boot_tests() {
	local name append
	while read -r name append; do
		boot_tests "$name" "$append" "$name"
	done < <(grep -v -e '^#' -e '^[[:space:]]*$' "$LIST")
}

# suites FILE...: run each check.d suite, nested under one result.
suites() {
	local s
	for s in "$@"; do
		msg "SUITE  $s"
		ktap_group "${s#scripts/}" bash "$s"
	done
}

# check.d suites that boot this kernel again: under --all they follow its
# boots in that lane; the other suites (builds of other kernels) run in a
# second lane, beside the host checks.
GUEST_SUITES="compat fuzz bench-smoke"
# The debug kernel's kselftests under check-all (matrix.sh: DEBUG_TESTS).
ALL_DEBUG_TESTS="test-concurrency.sh test-contexts.sh test-stress.sh test-textpoke.sh"

# check [--all]: the boots of this kernel in one lane; beside it, in the
# background, the host checks (and the check.d suites that build other
# kernels) in a second, and the build matrix, which runs longest, in a
# third. A TCG guest keeps one host CPU busy, a build both: the lanes fill
# each other's idle time. make check-all's matrix boots the debug (RT)
# and KCSAN kernels and compiles the core and off ones (MATRIX overrides).
check() {
	local side=$OUT/check-side.ktap matrix=$OUT/check-matrix.ktap s guest=() build=()
	: >"$matrix"
	if [ "$1" = --all ]; then
		for s in scripts/check.d/*.sh; do
			case " $GUEST_SUITES matrix " in
			*" $(basename "$s" .sh) "*) [[ $s = */matrix.sh ]] || guest+=("$s") ;;
			*) build+=("$s") ;;
			esac
		done
		MATRIX=${MATRIX:-debug kcsan core:compile off:compile} DEBUG_TESTS=${DEBUG_TESTS:-$ALL_DEBUG_TESTS} \
			suites scripts/check.d/matrix.sh >"$matrix" &
		{ ktap_group "host checks" scripts/host-checks.sh
		  suites "${build[@]}"; } >"$side" &
	else
		ktap_group "host checks" scripts/host-checks.sh >"$side" &
	fi
	boot_tests main "" kunit kselftests
	all_boot_tests
	[ ${#guest[@]} = 0 ] || suites "${guest[@]}"
	msg "WAIT   host checks${1:+ and scripts/check.d}"
	wait
	cat "$side" "$matrix"
}

msg "CHECK  IMPL=$IMPL $*"
mkdir -p "$OUT"
if ! (do_build && do_initramfs); then
	echo "0 passed, 1 failed (build)"
	exit 1
fi
. "$KTAP_HELPERS"
ktap_print_header >"$OUT/check.ktap"
case "${1:-}" in
--boot-test)	boot_test "$2" ;;
--kselftest)	boot_tests "$2" "" "$2" ;;
--guest)	ktap_test_pass "build and initramfs"
		boot_tests main "" kunit kselftests ;;
--boots)	ktap_test_pass "build and initramfs"
		boot_tests main "" kunit kselftests; all_boot_tests ;;
*)		ktap_test_pass "build and initramfs"
		check "${1:-}" ;;
esac >>"$OUT/check.ktap"
ktap_summary "$OUT/check.ktap"
