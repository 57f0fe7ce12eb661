#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Other architectures and compilers (issue 20). For each TARGET, both
# trees (upstream 6.12 and ours), with the same configuration:
#
#   objects  the architecture's defconfig plus DYNAMIC_DEBUG=y, JUMP_LABEL=y
#            and the test module; lib/dynamic_debug/ (W=1) and the objects
#            of COMMON_OBJS and arch_objs() that use the API;
#   kernel   the whole kernel and its modules with the test configuration
#            (the harness's fragments, scripts/arch/ARCH.config if any),
#            unless CROSS_WHOLE=0.
#
# Fails on errors and on any warning ours has that upstream does not.
# Prints KTAP; rows for bench/arches.md go to build/cross/TARGET.row
# ("report" writes the file from them).
#
# A target is ARCH[:llvm][:thinlto][:pic][:pie]: llvm builds with LLVM=1,
# thinlto adds CONFIG_LTO_CLANG_THIN; pic compiles the objects -fPIC with
# jump labels off (their asm needs absolute addresses on i386, arm and
# arm64 as ours does; the names records then fall back to C objects); pie
# is riscv64 with RELOCATABLE, which compiles the kernel -fPIE.
# CROSS_TARGETS="..." chooses a subset (default: all of them).

set -uo pipefail
cd "$(dirname "$0")/.." && . scripts/lib.sh || exit 1

CROSS_PACKAGES="gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf gcc-riscv64-linux-gnu \
gcc-s390x-linux-gnu gcc-powerpc64le-linux-gnu gcc-i686-linux-gnu clang lld llvm"
ALL_TARGETS="x86_64 i386 arm64 arm riscv64 s390x powerpc64le x86_64:llvm arm64:llvm
x86_64:llvm:thinlto i386:pic arm64:pic riscv64:pie"
TARGETS=${CROSS_TARGETS:-$ALL_TARGETS}

# Objects that use the API, beyond lib/dynamic_debug/: generic users
# every architecture builds, then each architecture's own.
COMMON_OBJS="lib/kobject.o drivers/base/dd.o drivers/base/core.o net/core/dev.o
lib/test_dynamic_debug.o mm/page_alloc.o kernel/module/main.o kernel/jump_label.o"
# Compiled -fPIC (the pic targets): the test module's sites and a driver's.
PIC_OBJS="lib/test_dynamic_debug.o drivers/base/dd.o"
arch_objs() {
	case "$1" in
	x86_64|i386) echo "arch/x86/kernel/alternative.o arch/x86/kernel/jump_label.o arch/x86/kernel/apic/apic.o" ;;
	arm64) echo "arch/arm64/kernel/jump_label.o arch/arm64/kernel/module.o drivers/irqchip/irq-gic-v3.o" ;;
	arm) echo "arch/arm/kernel/jump_label.o arch/arm/kernel/module.o arch/arm/mm/fault.o" ;;
	riscv64) echo "arch/riscv/kernel/jump_label.o arch/riscv/kernel/module.o" ;;
	s390x) echo "arch/s390/kernel/jump_label.o arch/s390/kernel/module.o drivers/s390/cio/device.o" ;;
	powerpc64le) echo "arch/powerpc/kernel/jump_label.o arch/powerpc/kernel/module_64.o arch/powerpc/kernel/pci-common.o" ;;
	esac
}

# write_report: bench/arches.md from the rows of the targets that ran.
write_report() {
	local f=$TOP/bench/arches.md t
	{
		echo "<!-- SPDX-License-Identifier: GPL-2.0 -->"
		echo "# Other architectures and compilers"
		echo
		echo "Written by \`scripts/cross-check.sh report\` on $(date -u '+%Y-%m-%d %H:%M UTC') from the rows"
		echo "that \`make cross-check\` (or \`CROSS_TARGETS=... scripts/cross-check.sh\`) left."
		echo "Each row compiles upstream 6.12 and ours with the same configuration:"
		echo "*objects* is the architecture's defconfig plus DYNAMIC_DEBUG, JUMP_LABEL and"
		echo "TEST_DYNAMIC_DEBUG=m, with the core (W=1) and the API users listed in"
		echo "scripts/cross-check.sh; *kernel* is the whole test kernel and its modules."
		echo "Warnings: distinct messages, upstream / ours. Sites: descriptors in"
		echo "lib/test_dynamic_debug.o; bytes per site from its sections: upstream's"
		echo "__dyndbg, ours __dyndbg plus the names records in .init.dyndbg (freed"
		echo "once the kernel or the module has started). Layout: how ours wrote the names"
		echo "records there (asm, or C objects where the compiler cannot: see"
		echo "_DPRINTK_NAMES()). __dyndbg in vmlinux: bytes, upstream / ours (+ the names"
		echo "records, freed after boot)."
		echo
		echo "| arch | compiler | objects | kernel | warnings | sites | upstream B/site | ours B/site | layout | __dyndbg in vmlinux | time |"
		echo "|---|---|---|---|---|---|---|---|---|---|---|"
		for t in $ALL_TARGETS; do
			cat "$BUILD/cross/${t//:/-}.row" 2>/dev/null ||
				echo "| ${t%%:*} | $(compiler_name "$t") | not run | | | | | | | | |"
		done
	} >"$f"
	msg "WROTE  $f"
}

compiler_name() {
	case $1 in
	*:thinlto) echo "clang 14 ThinLTO" ;;
	*:llvm) echo "clang 14" ;;
	*:pic) echo "gcc 12 -fPIC" ;;
	*:pie) echo "gcc 12 -fPIE" ;;
	*) echo "gcc 12" ;;
	esac
}

# cross_deps: the harness's packages and the cross compilers.
cross_deps() { do_deps && apt_install "$BUILD/.cross-deps-ok" $CROSS_PACKAGES; }

[ "${1:-}" = deps ] && { cross_deps; exit; }
[ "${1:-}" = report ] && { write_report; exit; }

# target_env TARGET: set KARCH, CROSS, LLVM_ARGS, DEFCONFIG for a target.
target_env() {
	local arch=${1%%:*}
	LLVM_ARGS=() DEFCONFIG=defconfig CROSS=
	case "$arch" in
	x86_64) KARCH=x86_64 ;;
	i386) KARCH=i386 CROSS=i686-linux-gnu- ;;
	arm64) KARCH=arm64 CROSS=aarch64-linux-gnu- ;;
	arm) KARCH=arm CROSS=arm-linux-gnueabihf- ;;
	riscv64) KARCH=riscv CROSS=riscv64-linux-gnu- ;;
	s390x) KARCH=s390 CROSS=s390x-linux-gnu- ;;
	powerpc64le) KARCH=powerpc CROSS=powerpc64le-linux-gnu- DEFCONFIG=ppc64le_defconfig ;;
	*) die "cross-check: unknown architecture '$arch'" ;;
	esac
	case "$1" in *:llvm*) LLVM_ARGS=(LLVM=1 CC="ccache clang") CROSS= ;; esac
}

# xmake ARGS...: make in $TREE for $OBJ for the current target.
xmake() {
	local cc=(CC="ccache ${CROSS}gcc")
	[ ${#LLVM_ARGS[@]} = 0 ] || cc=("${LLVM_ARGS[@]}")
	CCACHE_BASEDIR=$TOP make -C "$TREE" O="$OBJ" ARCH="$KARCH" ${CROSS:+CROSS_COMPILE=$CROSS} \
		"${cc[@]}" HOSTCC="ccache gcc" -j"$(nproc)" \
		KBUILD_BUILD_TIMESTAMP='2024-11-17 00:00 UTC' KBUILD_BUILD_USER=dyndbg \
		KBUILD_BUILD_HOST=harness "$@"
}

# kconfig OPTIONS...: scripts/config on $OBJ/.config.
kconfig() { "$TREE/scripts/config" --file "$OBJ/.config" "$@"; }

# target_options TARGET: what the target changes over its configuration.
target_options() {
	case "$1" in *:thinlto) kconfig -d LTO_NONE -e LTO_CLANG_THIN ;; esac
	case "$1" in *:pic) kconfig -d JUMP_LABEL ;; esac
	case "$1" in *:pie) kconfig -e RELOCATABLE ;; esac
}

# target_lost TARGET: the options of the target's configuration that
# olddefconfig dropped, if any.
target_lost() {
	local o want=("DYNAMIC_DEBUG=y" "MODULES=y")
	case "$1" in *:pic) ;; *) want+=("JUMP_LABEL=y") ;; esac
	case "$1" in *:thinlto) want+=("LTO_CLANG_THIN=y") ;; esac
	case "$1" in *:pie) want+=("RELOCATABLE=y") ;; esac
	# what makes the architecture the one named (tinyconfig alone gives
	# a 32-bit powerpc and an arm without an MMU, hence no jump labels)
	case "${1%%:*}" in
	x86_64|arm64|riscv64|s390x) want+=("64BIT=y") ;;
	powerpc64le) want+=("PPC64=y" "CPU_LITTLE_ENDIAN=y") ;;
	arm) want+=("MMU=y" "CPU_V7=y") ;;
	i386) want+=("X86_32=y") ;;
	esac
	for o in "${want[@]}"; do grep -qx "CONFIG_$o" "$OBJ/.config" || echo "$o"; done
}

# configure KIND KEY CMD...: make $OBJ/.config with CMD unless KEY says it
# is current; fail if the target's options did not stick.
configure() {
	local kind=$1 key=$2 lost
	shift 2
	config_is_current "$key" && return 0
	"$@" && target_options "$T" && quiet xmake olddefconfig || return 1
	lost=$(target_lost "$T")
	[ -z "$lost" ] || { msg "cross-check: $T ($kind) lost:" $lost; return 1; }
	echo "$key" >"$OUT/config.key"
}

# defconfig_objects: the defconfig, the API's users compiled.
defconfig_objects() {
	quiet xmake "$DEFCONFIG" && kconfig -e DYNAMIC_DEBUG -m TEST_DYNAMIC_DEBUG -e JUMP_LABEL
}

# test_kernel_config: tinyconfig and the harness's fragments (ours adds
# config-ours.fragment, as the harness does), then scripts/arch/ARCH.config.
test_kernel_config() {
	local f=(scripts/config.fragment) a=scripts/arch/${T%%:*}.config
	[ "$IMPL" = upstream ] || f+=(scripts/config-ours.fragment)
	f+=("$SELFTEST_DIR/config")
	[ ! -f "$a" ] || f+=("$a")
	quiet xmake tinyconfig &&
		quiet "$TREE/scripts/kconfig/merge_config.sh" -m -O "$OBJ" "$OBJ/.config" "${f[@]/#/$TOP/}"
}

# messages FILE: compiler messages on stdin, tree paths removed, to FILE.
messages() {
	grep -E '(warning|error):' | sed -e "s|$TREE/||g" -e "s|^\.\./||" \
		-e 's|lib/dynamic_debug/|lib/dynamic_debug|' >"$1"
}

# cross_objects TARGET IMPL: configure (once) and compile the objects of
# TARGET against IMPL's tree; messages in $OUT.msgs.
cross_objects() {
	local t=$1 dd objs kc=()
	T=$t IMPL=$2
	target_env "$t"
	TREE=$OURS_TREE; [ "$IMPL" = ours ] || TREE=$PRISTINE
	OUT=$BUILD/cross/${t//:/-}/$IMPL OBJ=$OUT/obj
	mkdir -p "$OBJ"
	configure objects "$t $DEFCONFIG $(sha1sum "$TOP/scripts/cross-check.sh" | cut -c1-12)" \
		defconfig_objects || return 1
	quiet xmake prepare || return 1
	dd=lib/dynamic_debug/; [ "$IMPL" = ours ] || dd=lib/dynamic_debug.o
	objs="$COMMON_OBJS $(arch_objs "${t%%:*}")"
	case "$t" in *:pic) objs=$PIC_OBJS kc=(KCFLAGS=-fPIC) ;; esac
	msg "CC     $t ($IMPL): $dd W=1 and $(echo $objs | wc -w) objects"
	(cd "$OBJ" && rm -rf lib/dynamic_debug lib/dynamic_debug.o $objs)
	{ xmake -k W=1 "$dd"; xmake -k "${kc[@]}" $objs; } 2>&1 | messages "$OUT.msgs"
	OBJS_BUILT=$objs
}

# cross_kernel TARGET IMPL: the whole test kernel and its modules of
# TARGET against IMPL's tree; messages in $OUT.msgs, KERNEL_OK=1 if built.
cross_kernel() {
	local t=$1
	T=$t IMPL=$2 KERNEL_OK=0
	target_env "$t"
	TREE=$OURS_TREE; [ "$IMPL" = ours ] || TREE=$PRISTINE
	OUT=$BUILD/cross/${t//:/-}/$IMPL-kernel OBJ=$OUT/obj
	mkdir -p "$OBJ"
	configure kernel "$(cd "$TOP" && cat scripts/cross-check.sh scripts/config*.fragment \
		"$SELFTEST_DIR/config" scripts/arch/"${t%%:*}".config 2>/dev/null | sha256sum)" \
		test_kernel_config || return 1
	msg "BUILD  $t ($IMPL): the test kernel and its modules"
	# Every object compiles again, most of them from ccache, which replays
	# their messages: warnings of files an earlier run built still count.
	# A vmlinux or modules.order left by an earlier run would hide a
	# failed link.
	find "$OBJ" -name '*.o' -delete
	rm -f "$OBJ/vmlinux" "$OBJ/modules.order"
	xmake -k all 2>&1 | messages "$OUT.msgs"
	[ -s "$OBJ/vmlinux" ] && [ -f "$OBJ/modules.order" ] && KERNEL_OK=1
	return 0
}

# Upstream's side of a target's objects is recorded in scripts/cross-
# upstream/TARGET.txt (scripts/lib.sh: record_read), keyed on the target,
# its objects, the compiler and how this script configures and compiles
# them: make check-all compiles ours alone. A changed key, a missing
# record or UPSTREAM_LIVE=1 compiles upstream again and rewrites it.
upstream_key() {
	target_env "$1"
	record_key "$1" "$DEFCONFIG" "$COMMON_OBJS $(arch_objs "${1%%:*}") $PIC_OBJS" \
		"$(declare -f target_env defconfig_objects target_options configure cross_objects messages)" \
		"${CROSS}gcc" "$([ ${#LLVM_ARGS[@]} = 0 ] || echo clang)"
}

# upstream_objects TARGET: upstream's facts for TARGET, recorded or live:
# UP_MSGS (a file of its messages), UP_BUILT (the objects that compiled),
# UP_SITES and UP_BYTES (descriptors in lib/test_dynamic_debug.o, and the
# size of its __dyndbg).
upstream_objects() {
	local t=$1 rec=$TOP/scripts/cross-upstream/${1//:/-}.txt key body o
	key=$(upstream_key "$t")
	UP_MSGS=$BUILD/cross/${t//:/-}/upstream.msgs
	mkdir -p "${UP_MSGS%/*}"
	if body=$(record_read "$rec" "$key"); then
		sed -n 's/^@M //p' <<<"$body" >"$UP_MSGS"
		UP_BUILT=$(sed -n 's/^@B //p' <<<"$body")
		read -r UP_SITES UP_BYTES < <(sed -n 's/^@S //p' <<<"$body")
		msg "CC     $t (upstream): recorded in ${rec#"$TOP"/}"
		return 0
	fi
	cross_objects "$t" upstream || return 1
	UP_BUILT=
	for o in $OBJS_BUILT; do [ ! -s "$OUT/obj/$o" ] || UP_BUILT="$UP_BUILT $o"; done
	UP_SITES=$(nm -S "$OUT/obj/lib/test_dynamic_debug.o" 2>/dev/null | grep -c '__UNIQUE_ID_ddebug')
	UP_BYTES=$(READELF=$(tools_for readelf) sec_size "$OUT/obj/lib/test_dynamic_debug.o" __dyndbg)
	{ echo "@B${UP_BUILT}"; echo "@S $UP_SITES ${UP_BYTES:-?}"; sed 's/^/@M /' "$OUT.msgs"; } |
		record_write "$rec" "$key"
}

# tools_for TOOL: the target's binutils TOOL (readelf, objdump, nm), or
# LLVM's where the cross binutils are missing.
tools_for() {
	local x=$1
	[ -z "$CROSS" ] || x=$CROSS$1
	command -v "$x" >/dev/null && echo "$x" || echo "llvm-$1"
}

# sec_size FILE SECTION: the size of SECTION in FILE, in bytes.
sec_size() {
	local h
	h=$(${READELF:-readelf} -SW "$1" 2>/dev/null | sed 's/^ *\[ *[0-9]*\] *//' | awk -v s="$2" '$1 == s { print $5; exit }')
	[ -n "$h" ] && echo $((16#$h))
}

# sym_span FILE NAME: bytes from __start_NAME to __stop_NAME in FILE (a
# linked kernel keeps its tables inside other sections).
sym_span() {
	local a b
	read -r a b < <(${NM:-nm} "$1" 2>/dev/null | awk -v s="__start_$2" -v e="__stop_$2" '
		$3 == s { a = $1 } $3 == e { b = $1 } END { if (a != "" && b != "") print a, b }')
	[ -n "$b" ] && echo $((16#$b - 16#$a))
}

# names_layout OBJ: how OBJ's names records were written: "C objects"
# when they have symbols, "asm" when none has.
names_layout() {
	[ -n "$(sec_size "$1" .init.dyndbg)" ] || { echo "none"; return; }
	if ${OBJDUMP:-objdump} -t "$1" | awk '$4 == ".init.dyndbg" && $NF != ".init.dyndbg"' | grep -q .; then
		echo "C objects"
	else
		echo "asm"
	fi
}

# same_paths: messages on stdin with both trees' paths made equal (a
# whole-kernel build prints them relative to its O= directory).
same_paths() { sed -E 's#^(\.\./)*src/(ours|linux-source-6\.12)/##' | sort -u; }

# new_warnings UP OURS: the messages of OURS that UP does not have.
new_warnings() { same_paths <"$2" | grep -vxF -f <(same_paths <"$1"); }

cross_deps && do_tree || exit 1
. "$KTAP_HELPERS"
ktap_print_header
mkdir -p "$BUILD/cross"
for t in $TARGETS; do
	start=$SECONDS
	fail=0
	if ! upstream_objects "$t"; then ktap_test_fail "cross: $t: configure upstream"; continue; fi
	if ! cross_objects "$t" ours; then ktap_test_fail "cross: $t: configure ours"; continue; fi
	ours=$OUT
	for o in $OBJS_BUILT; do
		[[ " $UP_BUILT " = *" $o "* ]] || { msg "$t: $o does not build upstream (skipped)"; continue; }
		[ -s "$ours/obj/$o" ] || { msg "$t: $o fails against ours"; fail=1; }
	done
	[ -s "$ours/obj/lib/dynamic_debug/built-in.a" ] || { msg "$t: lib/dynamic_debug/ fails"; fail=1; }
	grep 'error:' "$ours.msgs" | head -n 5 | sed 's/^/# /'
	new=$(new_warnings "$UP_MSGS" "$ours.msgs")
	[ -z "$new" ] || { echo "$new" | head -n 10 | sed 's/^/# new: /'; fail=1; }
	ktap_test_result "cross: $t: objects build against ours, no new warning" [ $fail = 0 ]
	warn="$(sort -u "$UP_MSGS" | wc -l) / $(sort -u "$ours.msgs" | wc -l)"
	objects=$([ $fail = 0 ] && echo yes || echo NO)

	# bytes per site in lib/test_dynamic_debug.o
	tobj=lib/test_dynamic_debug.o
	rd=$(tools_for readelf) od=$(tools_for objdump) nmx=$(tools_for nm)
	n=$UP_SITES usz=${UP_BYTES#\?}
	osz=$(READELF=$rd sec_size "$ours/obj/$tobj" __dyndbg)
	isz=$(READELF=$rd sec_size "$ours/obj/$tobj" .init.dyndbg)
	layout=$(READELF=$rd OBJDUMP=$od names_layout "$ours/obj/$tobj")
	per() { [ -n "$1" ] && [ "${n:-0}" -gt 0 ] && echo $(( $1 / n )) || echo "?"; }

	kernel="not built" vml=
	case "$t:${CROSS_WHOLE:-1}" in
	*:pic:*|*:pie:*|*:0) ;;
	*)	kfail=0
		if cross_kernel "$t" upstream && kup=$OUT && [ $KERNEL_OK = 1 ] &&
		   cross_kernel "$t" ours && [ $KERNEL_OK = 1 ]; then
			new=$(new_warnings "$kup.msgs" "$OUT.msgs")
			[ -z "$new" ] || { echo "$new" | head -n 10 | sed 's/^/# new: /'; kfail=1; }
			vml="$(NM=$nmx sym_span "$kup/obj/vmlinux" __dyndbg) / $(NM=$nmx sym_span "$OUT/obj/vmlinux" __dyndbg) + $(NM=$nmx sym_span "$OUT/obj/vmlinux" __dyndbg_names) init"
			warn="$warn; kernel $(sort -u "$kup.msgs" | wc -l) / $(sort -u "$OUT.msgs" | wc -l)"
		else
			grep 'error:' "$OUT.msgs" 2>/dev/null | head -n 5 | sed 's/^/# /'
			kfail=1
		fi
		ktap_test_result "cross: $t: the test kernel and modules build against ours, no new warning" \
			[ $kfail = 0 ]
		kernel=$([ $kfail = 0 ] && echo yes || echo NO)
		;;
	esac
	echo "| ${t%%:*} | $(compiler_name "$t") | $objects | $kernel | $warn | $n | $(per "$usz") | $(per "$osz") + $(per "$isz") init | $layout | $vml | $((SECONDS - start)) s |" \
		>"$BUILD/cross/${t//:/-}.row"
done
ktap_set_plan $((KTAP_TESTNO - 1))
[ "$KTAP_CNT_FAIL" = 0 ]
