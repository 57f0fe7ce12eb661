#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build matrix of "make check": our core in the configurations users
# build, each a full kernel build of its own (build/ours-VARIANT/) with
# the fragment scripts/variants/VARIANT.config, booted once running
# scripts/variants/common.sh + VARIANT.guest.sh:
#
#   nojump  JUMP_LABEL=n: the KUnit suite and every kselftest pass
#   core    DYNAMIC_DEBUG=n, DYNAMIC_DEBUG_CORE=y: only modules built with
#           -DDYNAMIC_DEBUG_MODULE have call sites; the KUnit suite and
#           the kselftests pass (their modules are built that way), the
#           class tests skip (lib/test_dynamic_debug.ko needs DYNAMIC_DEBUG)
#   off     both off: pr_debug() is compiled away, dyndbg= warns, every
#           kselftest skips
#   builtin TEST_DYNAMIC_DEBUG=y: class parameters of a built-in module on
#           the command line (scripts/variants/builtin.append) apply
#
# The variants are of IMPL (ours unless IMPL=upstream make check, which
# runs the same checks on the pristine core as a baseline; our KUnit suite
# is then absent). Runs under build/.lock (from scripts/check.sh): calls
# the harness functions directly. Prints KTAP (plan last).
# MATRIX="nojump core off" picks variants.

set -uo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
cd "$TOP"

VARIANTS=${MATRIX:-nojump core off builtin}
MATRIX_IMPL=${IMPL:-ours}
N=0
RESULTS=$(mktemp)
trap 'rm -f "$RESULTS"' EXIT

result() {	# result ok|not-ok DESC
	N=$((N + 1))
	if [ "$1" = ok ]; then
		echo "ok $N - $2"
	else
		echo "not ok $N - $2"
	fi
}

# plain_module: build a copy of the selftests' sites module, named
# test_dyndbg_plain, without -DDYNAMIC_DEBUG_MODULE (which the selftests'
# Makefile adds on a core-only kernel), into the variant's test_modules so
# that the initramfs carries it.
plain_module() {
	local d=$OUT/test_modules_plain
	rm -rf "$d"
	mkdir -p "$d"
	cp "$SELFTEST_DIR/test_modules/test_dyndbg_sites.c" "$d/test_dyndbg_plain.c"
	echo 'obj-m += test_dyndbg_plain.o' >"$d/Makefile"
	quiet kmake M="$d" modules
	mkdir -p "$OUT/test_modules"
	cp "$d/test_dyndbg_plain.ko" "$OUT/test_modules/"
}

# kunit_suite LOG: the KUnit suite's verdict in a variant's console.
kunit_suite() {
	local totals
	totals=$(sed -n 's/.*# dynamic_debug: \(pass:[0-9]* fail:[0-9]*\).*/\1/p' "$1")
	if [ -z "$totals" ]; then
		result not-ok "$v: the KUnit suite ran"
	elif grep -qE '^\[ *[0-9.]+\] ok [0-9]+ dynamic_debug$' "$1"; then
		result ok "$v: the KUnit suite passes ($totals)"
	else
		result not-ok "$v: the KUnit suite passes ($totals)"
	fi
}

# off_costs_nothing: the sites module of the "off" build carries no
# dynamic debug descriptors and no calls into a core.
off_costs_nothing() {
	local ko=$OUT/test_modules/test_dyndbg_sites.ko
	[ -f "$ko" ] || return 1
	! objdump -h "$ko" | grep -q '__dyndbg' &&
		! nm "$ko" | grep -q '__dynamic_'
}

run_variant() {	# run_variant NAME
	local v=$1 t0=$SECONDS log rc=0 guest
	(
		IMPL=$MATRIX_IMPL
		VARIANT=$v
		. scripts/lib.sh
		# As in check.sh: no set -e, each step's failure ends the chain.
		do_all_build || exit 1
		if [ "$v" = core ]; then
			plain_module || exit 1
		fi
		do_initramfs
	) >"$RESULTS.build" 2>&1
	rc=$?
	IMPL=$MATRIX_IMPL
	VARIANT=$v
	. scripts/lib.sh
	if [ $rc != 0 ]; then
		result not-ok "$v: builds"
		tail -n 20 "$RESULTS.build" | sed 's/^/# /'
		return
	fi
	result ok "$v: builds ($((SECONDS - t0))s)"

	if [ "$v" = off ]; then
		if off_costs_nothing; then
			result ok "$v: a module's pr_debug() leaves no descriptor or call"
		else
			result not-ok "$v: a module's pr_debug() leaves no descriptor or call"
		fi
	fi

	guest=$OUT/matrix-guest.sh
	cat scripts/variants/common.sh "scripts/variants/$v.guest.sh" >"$guest"
	log=$OUT/matrix.log
	t0=$SECONDS
	rc=0
	boot_script "$guest" "$log" "$(cat "scripts/variants/$v.append" 2>/dev/null)" \
		>/dev/null </dev/null || rc=$?
	if [ $rc = 124 ] || [ $rc = 125 ] || kernel_problems "$log" >/dev/null; then
		result not-ok "$v: boots clean"
		kernel_problems "$log" | head -n 10 | sed 's/^/# /'
		[ $rc = 124 ] && echo "# guest timed out"
		[ $rc = 125 ] && tail -n 15 "$log" | sed 's/^/# /'
	else
		result ok "$v: boots clean ($((SECONDS - t0))s)"
	fi
	[ "$v" = off ] || [ "$IMPL" != ours ] || kunit_suite "$log"
	script_output "$log" | grep '^# ' | head -n 20
	while IFS= read -r line; do
		case "$line" in
		"ok - "*)	result ok "${line#ok - }" ;;
		"not ok - "*)	result not-ok "${line#not ok - }" ;;
		esac
	done < <(script_output "$log")
}

echo "KTAP version 1"
start=$SECONDS
for v in $VARIANTS; do
	run_variant "$v"
done
echo "# matrix: $VARIANTS took $((SECONDS - start))s"
echo "1..$N"
