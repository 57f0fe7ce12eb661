#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build matrix: our core (or IMPL's) in the configurations users build,
# nojump (JUMP_LABEL=n), core (DYNAMIC_DEBUG_CORE alone) and off, each a
# kernel of its own (build/IMPL-VARIANT/, fragment scripts/variants/
# VARIANT.config, kernel arguments VARIANT.append) booted once running the
# KUnit suite, the kselftest variant-VARIANT.sh and every kselftest; which
# of them must skip is below. nojump also builds lib/test_dynamic_debug.c
# in, for its class parameters on the command line (boot-class-names.sh).
# debug is our kernel under KASAN, UBSAN, kmemleak and lockdep, built
# PREEMPT_RT (where spinlock_t sleeps and interrupt handlers run in
# threads) with the raw-lock nesting checks and DEBUG_ATOMIC_SLEEP: every
# kselftest (the stress runs among them; test-contexts.sh prints from
# hard interrupts and under raw spinlocks), then variant-debug.sh (the
# fuzzer and a kmemleak scan) and variant-rt.sh (the fuzzer again, then
# lockdep's state). One kernel for both keeps make check-all within CI's
# time, as does DEBUG_TESTS there: the kselftests of locking, contexts,
# stress and text patching, where every kselftest would triple the
# guest's time (make matrix runs them all). The non-RT side of sleeping
# in atomic context is the KCSAN kernel's DEBUG_ATOMIC_SLEEP. kcsan is
# our kernel under KCSAN (exclusive with KASAN, so a kernel of its own):
# KUnit, the concurrency, contexts, stress and text-patching kselftests,
# then variant-kcsan.sh (the fuzzer); a data race report of dynamic
# debug's code fails it, one of 6.12's own is listed (see kcsan_races). Prints KTAP. MATRIX="debug
# kcsan nojump core off" picks variants (the default: all, as make matrix
# runs them); NAME:compile configures and compiles NAME without booting
# it (see compile), as make check-all does for core and off.

set -uo pipefail
cd "$(dirname "$0")/../.." && . scripts/lib.sh || exit 1

# plain_module: a copy of the sites module, test_dyndbg_plain, built
# without -DDYNAMIC_DEBUG_MODULE, for the core variant's guest.
plain_module() {
	local d=$OUT/test_modules_plain
	rm -rf "$d" && mkdir -p "$d"
	cp "$SELFTEST_DIR/test_modules/test_dyndbg_sites.c" "$d/test_dyndbg_plain.c" &&
		cp "$SELFTEST_DIR/test_modules/test_dyndbg.h" "$d/" || return 1
	echo 'obj-m += test_dyndbg_plain.o' >"$d/Makefile"
	quiet kmake M="$d" modules && cp "$d/test_dyndbg_plain.ko" "$OUT/test_modules/"
}

# off_costs_nothing: the sites module of the "off" build carries no
# dynamic debug descriptors and no calls into a core.
off_costs_nothing() {
	local ko=$OUT/test_modules/test_dyndbg_sites.ko
	[ -f "$ko" ] && ! has_descriptors "$ko" && ! nm "$ko" | grep -q '__dynamic_'
}

# start NAME [TESTS]: build one variant, then boot it in the background
# running KUnit and TESTS (default: variant-NAME.sh and every kselftest),
# so that the next variant builds while it runs (a TCG guest keeps one
# host CPU busy, a build both).
start() {
	local v=$1 log t0=$SECONDS append
	setup "$IMPL" "$v"
	log=$OUT/matrix.log
	rm -f "$OUT/matrix.rc"
	# In a subshell: a harness error (die) fails this variant, not the
	# matrix with the guests it has started.
	if ! (do_build && { [ "$v" != core ] || plain_module; } && do_initramfs) >"$log" 2>&1; then
		tail -n 20 "$log" | sed 's/^/# /'
		ktap_test_fail "$v: builds"
		return
	fi
	ktap_test_pass "$v: builds ($((SECONDS - t0))s)"
	[ "$v" != off ] || ktap_test_result "$v: a module's pr_debug() leaves no descriptor or call" off_costs_nothing
	# scripts/variants/NAME.guest, if any, runs in the guest first.
	{ echo '#!/bin/sh'; cat "scripts/variants/$v.guest" 2>/dev/null
	  echo "exec run-tests kunit ${2:-variant-$v.sh kselftests}"; } >"$OUT/matrix.sh"
	append=$(cat "scripts/variants/$v.append" 2>/dev/null)
	{ boot "$OUT/matrix.sh" "$log" "$append"; echo $? >"$OUT/matrix.rc"; } &
	BOOTING[$v]=$!
}

# Compiled, not booted (make check-all's cheaper rows; MATRIX=NAME boots
# them): the variant's configuration, our core, the objects below that
# use it, and the selftests' modules, with modpost's unresolved symbols
# only warned about (no vmlinux is linked for them).
VARIANT_OBJS="lib/kobject.o drivers/base/dd.o kernel/params.o kernel/module/main.o kernel/jump_label.o"

# has_descriptors KO: KO has a __dyndbg* section (descriptors, classes).
has_descriptors() { objdump -h "$1" | grep -q ' __dyndbg'; }

# core_split: the core variant's modules: descriptors in the one built
# with DYNAMIC_DEBUG_MODULE, none in the plain copy.
core_split() {
	has_descriptors "$OUT/test_modules/test_dyndbg_sites.ko" &&
		! has_descriptors "$OUT/test_modules/test_dyndbg_plain.ko"
}

# nojump_branches: with JUMP_LABEL=n, the sites module has descriptors
# and no jump table.
nojump_branches() {
	local ko=$OUT/test_modules/test_dyndbg_sites.ko
	has_descriptors "$ko" && ! objdump -h "$ko" | grep -q ' __jump_table '
}

# compile NAME: configure and compile one variant without booting it.
compile() {
	local v=$1 log t0=$SECONDS objs=$VARIANT_OBJS
	setup "$IMPL" "$v"
	log=$OUT/matrix.log
	[ "$v" = off ] || objs="lib/dynamic_debug/ $objs"
	[ "$v" != nojump ] || objs="$objs lib/test_dynamic_debug.o"
	if ! (do_deps && do_tree && do_config && quiet kmake modules_prepare &&
	      kmake $objs 2>&1 | tee "$OUT/objects.msgs" | { ! grep -E '(warning|error):'; } &&
	      KBUILD_MODPOST_WARN=1 do_test_modules &&
	      { [ "$v" != core ] || KBUILD_MODPOST_WARN=1 plain_module; }) >"$log" 2>&1; then
		tail -n 20 "$log" | sed 's/^/# /'
		ktap_test_fail "$v: compiles (not booted): its objects and the test modules"
		return
	fi
	ktap_test_pass "$v: compiles (not booted, $((SECONDS - t0))s): its objects and the test modules"
	case $v in
	off)	ktap_test_result "$v: a module's pr_debug() leaves no descriptor or call" off_costs_nothing ;;
	core)	ktap_test_result "$v: only the DYNAMIC_DEBUG_MODULE module has descriptors" core_split ;;
	nojump)	ktap_test_result "$v: the sites module has descriptors and no jump table" nojump_branches ;;
	esac
}

# kcsan_symbols: the functions whose data races are ours, one per line:
# the core's, those of the objects our patches change (jump labels and
# text poking), the test modules'.
kcsan_symbols() {
	local o objs=("$OBJ"/lib/dynamic_debug/*.o "$OBJ/kernel/jump_label.o" "$OUT"/test_modules/*.ko)
	for o in "$OBJ"/arch/*/kernel/{alternative,jump_label}.o "$OBJ/lib/test_dynamic_debug.ko"; do
		[ -f "$o" ] && objs+=("$o")
	done
	nm --defined-only "${objs[@]}" | awk '$2 ~ /^[tTwW]$/ { print $3 }' | sort -u
}

# kcsan_races: the KCSAN kernel's data race reports. Ours fail (our code
# made an access, or both stacks went through it: scripts/
# kcsan-reports.py); the others are 6.12's own, between subsystems the
# tests only run beside, and are listed.
kcsan_races() {
	local rc=0 list=$OUT/kcsan-reports ours other
	if ! kcsan_symbols >"$OUT/kcsan.syms" || [ ! -s "$OUT/kcsan.syms" ]; then
		ktap_test_fail "kcsan: no data race in dynamic debug's code (no symbol list)"
		return
	fi
	python3 scripts/kcsan-reports.py "$OUT/matrix.log" "$OUT/kcsan.syms" >"$list" || rc=$?
	ours=$(grep -c '^ours' "$list") other=$(grep -c '^other' "$list")
	[ "$other" = 0 ] || ktap_print_msg "$other data race reports of 6.12's own code:"
	sed -n 's/^other\t\([^\t]*\)\t\(.*\)/#   \2 (during \1)/p' "$list"
	if [ $rc = 0 ]; then
		ktap_test_pass "kcsan: no data race in dynamic debug's code ($(wc -l <"$OUT/kcsan.syms") functions)"
	else
		ktap_test_fail "kcsan: no data race in dynamic debug's code: $ours reported"
		sed -n 's/^ours\t\([^\t]*\)\t\([^\t]*\)\t\(.*\)/#   \2 (during \1; ours: \3)/p' "$list"
		[ $rc = 1 ] || echo "#   the console ends inside a report"
	fi
}

# finish NAME MUST_SKIP: wait for the variant's boot and report it.
finish() {
	local v=$1 must=${2:--}
	setup "$IMPL" "$v"
	[ -n "${BOOTING[$v]:-}" ] || return 0	# it did not build
	wait "${BOOTING[$v]}"
	if [ "$v" = kcsan ]; then
		PROBLEMS_EXCEPT='^BUG: KCSAN: ' ktap_boot "$OUT/matrix.log" "$(cat "$OUT/matrix.rc")" \
			"$v: boots clean (data race reports: the next check)"
		kcsan_races
	else
		ktap_boot "$OUT/matrix.log" "$(cat "$OUT/matrix.rc")" "$v: boots clean"
	fi
	# On upstream's core, or with dynamic debug off, there is no KUnit suite.
	[ "$v" != off ] && [ "$IMPL" = ours ] || must="$must kunit"
	ktap_sections "$OUT/matrix.log" "$must" "$v: "
}

declare -A BOOTING
do_deps && do_tree || exit 1
. "$KTAP_HELPERS"
ktap_print_header
t0=$SECONDS
# Longest guest first, the debug kernel's (every kselftest under KASAN
# and lockdep), so that the short ones fill in behind it.
variants=" ${MATRIX:-debug kcsan nojump core off} "
for v in debug kcsan nojump core off; do
	[[ $variants = *" $v:compile "* ]] && compile $v
	[[ $variants = *" $v "* ]] || continue
	case $v in
	nojump)	start nojump "variant-nojump.sh kselftests boot-class-names.sh" ;;
	debug)	QEMU_TIMEOUT=${QEMU_TIMEOUT:-2700} \
			start debug "${DEBUG_TESTS:-kselftests} variant-debug.sh variant-rt.sh" ;;
	kcsan)	QEMU_TIMEOUT=${QEMU_TIMEOUT:-2700} start kcsan \
			"test-concurrency.sh test-contexts.sh test-stress.sh test-textpoke.sh variant-kcsan.sh" ;;
	*)	start $v ;;
	esac
done
for v in debug kcsan nojump core off; do
	[[ $variants = *" $v "* ]] || continue
	case $v in
	nojump)	finish nojump test-classes.sh ;;
	core)	finish core test-classes.sh ;;
	off)	finish off all ;;
	debug)	finish debug ;;
	kcsan)	finish kcsan ;;
	esac
done
ktap_print_msg "matrix:$variants took $((SECONDS - t0))s"
ktap_set_plan $((KTAP_TESTNO - 1))
