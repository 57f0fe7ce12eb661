#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Other architectures and compilers (issue 20): for each TARGET, configure
# both trees with that architecture's defconfig plus DYNAMIC_DEBUG=y and
# the test module, compile lib/dynamic_debug/ (W=1) and the objects that
# use the API, and fail on errors and on any warning ours has that
# upstream does not. Prints KTAP; writes bench/arches.md.
#
# CROSS_TARGETS="arm64 i386 ..." chooses a subset (default: all of them).
# A target is ARCH[:llvm][:thinlto].

set -uo pipefail
cd "$(dirname "$0")/.." && . scripts/lib.sh || exit 1

CROSS_PACKAGES="gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf gcc-riscv64-linux-gnu \
gcc-s390x-linux-gnu gcc-powerpc64le-linux-gnu gcc-i686-linux-gnu clang lld llvm"
ALL_TARGETS="x86_64 i386 arm64 arm riscv64 s390x powerpc64le x86_64:llvm arm64:llvm x86_64:llvm:thinlto"
TARGETS=${CROSS_TARGETS:-$ALL_TARGETS}

# Objects that use the API, beyond lib/dynamic_debug/: generic users
# every architecture builds, then each architecture's own.
COMMON_OBJS="lib/kobject.o drivers/base/dd.o drivers/base/core.o net/core/dev.o
lib/test_dynamic_debug.o mm/page_alloc.o kernel/module/main.o kernel/jump_label.o"
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
		echo "Written by \`scripts/cross-check.sh report\` on $(date -u '+%Y-%m-%d %H:%M UTC'), from the"
		echo "rows left by \`make cross-check\` (\`CROSS_TARGETS=... scripts/cross-check.sh\`) runs."
		echo "Each row: the architecture's defconfig plus DYNAMIC_DEBUG=y, JUMP_LABEL=y and"
		echo "TEST_DYNAMIC_DEBUG=m, the core (W=1) and the API users of scripts/cross-check.sh"
		echo "compiled against upstream 6.12 and against ours. Warnings: distinct messages,"
		echo "upstream / ours. Sites: descriptors in lib/test_dynamic_debug.o; bytes per"
		echo "site from its sections: upstream's __dyndbg (6.12 pointer layout), ours"
		echo "__dyndbg (compact layout) plus the names records in .init.dyndbg, freed after"
		echo "init (built in) or after loading (module)."
		echo
		echo "| arch | compiler | config | ours builds, no new warning | warnings | sites | upstream B/site | ours B/site | time |"
		echo "|---|---|---|---|---|---|---|---|---|"
		for t in $ALL_TARGETS; do
			cat "$BUILD/cross/${t//:/-}.row" 2>/dev/null || echo "| ${t%%:*} | $t | not run | | | | | | |"
		done
	} >"$f"
	msg "WROTE  $f"
}

# cross_deps: the cross compilers, installed like do_deps installs the rest.
cross_deps() {
	local missing stamp=$BUILD/.cross-deps-ok
	[ "$(cat "$stamp" 2>/dev/null)" = "$CROSS_PACKAGES" ] && return 0
	missing=$(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' $CROSS_PACKAGES 2>&1 | awk '!/^ii/ { print $NF }')
	if [ -n "$missing" ]; then
		msg "APT    installing:" $missing
		DEBIAN_FRONTEND=noninteractive quiet apt-get update -q && DEBIAN_FRONTEND=noninteractive \
			quiet apt-get install -y -q --no-install-recommends $missing || die "could not install:" $missing
	fi
	mkdir -p "$BUILD" && echo "$CROSS_PACKAGES" >"$stamp"
}

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

# cross_build TARGET IMPL: configure (once) and compile the objects of
# TARGET against IMPL's tree; messages, tree paths removed, in $OUT.msgs.
cross_build() {
	local t=$1 impl=$2 key dd objs
	target_env "$t"
	TREE=$OURS_TREE; [ "$impl" = ours ] || TREE=$PRISTINE
	OUT=$BUILD/cross/${t//:/-}/$impl OBJ=$BUILD/cross/${t//:/-}/$impl/obj
	mkdir -p "$OBJ"
	key="$t $DEFCONFIG $(sha1sum "$TOP/scripts/cross-check.sh" | cut -c1-12)"
	if ! config_is_current "$key"; then
		quiet xmake "$DEFCONFIG" || return 1
		"$TREE/scripts/config" --file "$OBJ/.config" -e DYNAMIC_DEBUG -m TEST_DYNAMIC_DEBUG -e JUMP_LABEL
		case "$t" in *:thinlto) "$TREE/scripts/config" --file "$OBJ/.config" -d LTO_NONE -e LTO_CLANG_THIN ;; esac
		quiet xmake olddefconfig || return 1
		grep -q '^CONFIG_DYNAMIC_DEBUG=y' "$OBJ/.config" || die "cross-check: $t lost DYNAMIC_DEBUG"
		case "$t" in *:thinlto) grep -q '^CONFIG_LTO_CLANG_THIN=y' "$OBJ/.config" ||
			die "cross-check: $t lost LTO_CLANG_THIN" ;; esac
		echo "$key" >"$OUT/config.key"
	fi
	quiet xmake prepare || return 1
	dd=lib/dynamic_debug/; [ "$impl" = ours ] || dd=lib/dynamic_debug.o
	objs="$COMMON_OBJS $(arch_objs "${t%%:*}")"
	msg "CC     $t ($impl): $dd W=1 and $(echo $objs | wc -w) objects"
	(cd "$OBJ" && rm -rf lib/dynamic_debug lib/dynamic_debug.o $objs)
	{ xmake -k W=1 "$dd"; xmake -k $objs; } 2>&1 | grep -E '(warning|error):' |
		sed -e "s|$TREE/||g" -e "s|^\.\./||" -e 's|lib/dynamic_debug/|lib/dynamic_debug|' >"$OUT.msgs"
	OBJS_BUILT=$objs
	return 0
}

# site_bytes DIR OBJ: "sites resident init" for one built object: sites
# counted from upstream's descriptor symbols, bytes from our sections.
sec_size() {
	local h
	h=$(${READELF:-readelf} -SW "$1" 2>/dev/null | sed 's/^ *\[ *[0-9]*\] *//' | awk -v s="$2" '$1 == s { print $5; exit }')
	[ -n "$h" ] && echo $((16#$h))
}

. "$KTAP_HELPERS"
cross_deps && do_tree || exit 1
ktap_print_header
mkdir -p "$BUILD/cross"
for t in $TARGETS; do
	REPORT=$BUILD/cross/${t//:/-}.row
	start=$SECONDS
	if ! cross_build "$t" upstream; then ktap_test_fail "cross: $t: configure upstream"; continue; fi
	up=$OUT
	if ! cross_build "$t" ours; then ktap_test_fail "cross: $t: configure ours"; continue; fi
	ours=$OUT
	fail=0
	for o in $OBJS_BUILT; do
		[ -s "$up/obj/$o" ] || { msg "$t: $o does not build upstream (skipped)"; continue; }
		[ -s "$ours/obj/$o" ] || { msg "$t: $o fails against ours"; fail=1; }
	done
	[ -s "$ours/obj/lib/dynamic_debug/built-in.a" ] || { msg "$t: lib/dynamic_debug/ fails"; fail=1; }
	grep 'error:' "$ours.msgs" | head -n 5 | sed 's/^/# /'
	new=$(sort -u "$ours.msgs" | grep -vxF -f <(sort -u "$up.msgs"))
	[ -z "$new" ] || { echo "$new" | head -n 10 | sed 's/^/# new: /'; fail=1; }
	# bytes per site in lib/test_dynamic_debug.o
	tobj=lib/test_dynamic_debug.o
	rd=readelf; [ -z "$CROSS" ] || rd=${CROSS}readelf
	command -v "$rd" >/dev/null || rd=llvm-readelf
	n=$(nm -S "$up/obj/$tobj" 2>/dev/null | grep -c '__UNIQUE_ID_ddebug')
	usz=$(READELF=$rd sec_size "$up/obj/$tobj" __dyndbg)
	osz=$(READELF=$rd sec_size "$ours/obj/$tobj" __dyndbg)
	isz=$(READELF=$rd sec_size "$ours/obj/$tobj" .init.dyndbg)
	per() { [ -n "$1" ] && [ "${n:-0}" -gt 0 ] && echo $(( $1 / n )) || echo "?"; }
	echo "| ${t%%:*} | $(case $t in *:thinlto) echo 'clang 14 ThinLTO';; *:llvm) echo 'clang 14';; *) echo 'gcc 12';; esac) | $DEFCONFIG + DYNAMIC_DEBUG | $( [ $fail = 0 ] && echo yes || echo NO ) | $(sort -u "$up.msgs" | wc -l) / $(sort -u "$ours.msgs" | wc -l) | $n | $(per "$usz") | $(per "$osz") + $(per "$isz") init | $((SECONDS - start)) s |" >"$REPORT"
	if [ $fail = 0 ]; then ktap_test_pass "cross: $t: ours builds, no new warning"; else ktap_test_fail "cross: $t: ours builds, no new warning"; fi
done
ktap_set_plan $((KTAP_TESTNO - 1))
[ "$KTAP_CNT_FAIL" = 0 ]
