#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build matrix: our core (or IMPL's) in the configurations users build,
# nojump (JUMP_LABEL=n), core (DYNAMIC_DEBUG_CORE alone) and off, each a
# kernel of its own (build/IMPL-VARIANT/, fragment scripts/variants/
# VARIANT.config, kernel arguments VARIANT.append) booted once running the
# KUnit suite, VARIANT.sh and every kselftest; which of them must skip is
# below. nojump also builds lib/test_dynamic_debug.c in, for its class
# parameters on the command line (boot-class-names.sh). debug is our
# kernel under KASAN, lockdep, kmemleak and UBSAN: every kselftest (the
# stress run among them), then the fuzzer and a kmemleak scan
# (variants/debug-final.sh). Prints KTAP. MATRIX="nojump core off debug"
# picks variants.

set -uo pipefail
cd "$(dirname "$0")/../.." && . scripts/lib.sh || exit 1

# plain_module: a copy of the sites module, test_dyndbg_plain, built
# without -DDYNAMIC_DEBUG_MODULE, for the core variant's guest.
plain_module() {
	local d=$OUT/test_modules_plain
	rm -rf "$d" && mkdir -p "$d"
	cp "$SELFTEST_DIR/test_modules/test_dyndbg_sites.c" "$d/test_dyndbg_plain.c"
	echo 'obj-m += test_dyndbg_plain.o' >"$d/Makefile"
	quiet kmake M="$d" modules && cp "$d/test_dyndbg_plain.ko" "$OUT/test_modules/"
}

# off_costs_nothing: the sites module of the "off" build carries no
# dynamic debug descriptors and no calls into a core.
off_costs_nothing() {
	local ko=$OUT/test_modules/test_dyndbg_sites.ko
	[ -f "$ko" ] && ! objdump -h "$ko" | grep -q '__dyndbg' && ! nm "$ko" | grep -q '__dynamic_'
}

# variant NAME MUST_SKIP [TESTS]: build, boot and test one variant: KUnit,
# its VARIANT.sh if there is one, and TESTS (default: every kselftest).
variant() {
	local v=$1 log rc=0 t0=$SECONDS must append own=
	setup "${IMPL:-ours}" "$v"
	log=$OUT/matrix.log
	if ! { do_build && { [ "$v" != core ] || plain_module; } && do_initramfs; } >"$log" 2>&1; then
		tail -n 20 "$log" | sed 's/^/# /'
		ktap_test_fail "$v: builds"
		return
	fi
	ktap_test_pass "$v: builds ($((SECONDS - t0))s)"
	[ "$v" != off ] || ktap_test_result "$v: a module's pr_debug() leaves no descriptor or call" off_costs_nothing
	[ ! -f "scripts/variants/$v.sh" ] || own=/variants/$v.sh
	printf '#!/bin/sh\nexec run-tests kunit %s %s\n' "$own" "${3:-kselftests}" >"$OUT/matrix.sh"
	append=$(cat "scripts/variants/$v.append" 2>/dev/null)
	boot "$OUT/matrix.sh" "$log" "$append" || rc=$?
	ktap_boot "$log" $rc "$v: boots clean"
	# On upstream's core, or with dynamic debug off, there is no KUnit suite.
	must=${2:--}
	[ "$v" != off ] && [ "$IMPL" = ours ] || must="$must kunit"
	ktap_sections "$log" "$must" "$v: "
}

do_deps && do_tree || exit 1
. "$KTAP_HELPERS"
ktap_print_header
start=$SECONDS
for v in ${MATRIX:-nojump core off debug}; do
	case $v in
	nojump)	variant nojump test-classes.sh "kselftests boot-class-names.sh" ;;
	core)	variant core "test-classes.sh" ;;
	off)	variant off all ;;
	debug)	QEMU_TIMEOUT=${QEMU_TIMEOUT:-2700} \
		variant debug "" "kselftests /variants/debug-final.sh" ;;
	esac
done
ktap_print_msg "matrix: ${MATRIX:-nojump core off debug} took $((SECONDS - start))s"
ktap_set_plan $((KTAP_TESTNO - 1))
