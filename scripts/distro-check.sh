#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make distro-check: the series on a real distribution configuration.
# For upstream 6.12 (the pristine tree) and for ours (the series' final
# tree, the branch make patch builds), with Debian's own 6.12 config:
#
#   config  Debian's config; of its 4,000 modules only those defined under
#           DISTRO_DIRS stay modules (the rest are switched off, which
#           Kconfig undoes for what they select); no debug info, no
#           Debian keys, modules neither signed nor compressed (busybox
#           loads plain .ko files); the test modules added.
#   build   vmlinux, bzImage and those modules; every compiler warning
#           kept, tree paths removed (build/distro/IMPL.msgs).
#   boot    QEMU with every module of DISTRO_DIRS installed: modprobe each,
#           count the sites, time func, file and module queries and a
#           read of control (scripts/distro-guest.sh with the bench's
#           timer), then, on ours, run every kselftest.
#
# Fails on a build error, a warning ours has that upstream has not, a
# module that loads on upstream but not on ours, a kernel problem, or a
# failed kselftest. Writes bench/distro.md, which make bench's table
# includes. Hours on 2 CPUs: not part of any check tier.
#
# Environment: DISTRO_ONLY=IMPL (build and boot one), DISTRO_BOOT=0 (build
# only).

set -uo pipefail
cd "$(dirname "$0")/.." && . scripts/lib.sh || exit 1

DEB_CONFIG=/usr/src/linux-config-6.12/config.amd64_none_amd64.xz
DISTRO_DIRS="drivers/gpu/drm drivers/net/wireless fs/btrfs"
# Kconfig directories whose modules the kept ones need (cfg80211 and
# mac80211 for the wireless drivers); kept as modules too.
DEP_DIRS="net/wireless net/mac80211"
D=$BUILD/distro
RESULT=$TOP/bench/distro.md
IMPLS=${DISTRO_ONLY:-upstream ours}

# series_tree: ours is the series' final tree, checked out of make
# patch's repository (patch-check shows git am gives the same tree).
series_tree() {
	local tree=$D/src
	scripts/patch.sh series >/dev/null || return 1
	if [ ! -d "$tree/.git" ]; then
		git clone -q --no-checkout "$BUILD/patch/linux.git" "$tree" || return 1
	fi
	git -C "$tree" fetch -q "$BUILD/patch/linux.git" +refs/heads/series:refs/remotes/origin/series &&
		git -C "$tree" checkout -q -f -B distro origin/series &&
		git -C "$tree" clean -q -fdx
}

# kept_symbols: the Kconfig symbols defined under DISTRO_DIRS and DEP_DIRS.
kept_symbols() {
	local d
	for d in $DISTRO_DIRS $DEP_DIRS; do
		find "$TREE/$d" -name 'Kconfig*' -exec \
			sed -n 's/^[[:space:]]*\(menu\)\{0,1\}config[[:space:]]\{1,\}\([A-Z0-9_]*\).*/\2/p' {} +
	done | sort -u
}

distro_config() {
	local kc=$OUT/kconfig key
	key=$(config_key "$DEB_CONFIG" "$TOP/scripts/distro-check.sh")
	config_is_current "$key" && return 0
	msg "CONFIG ${OBJ#"$TOP"/}/.config (Debian's, modules of: $DISTRO_DIRS)"
	rm -rf "$kc" && mkdir -p "$kc"
	xz -dc "$DEB_CONFIG" |
		awk 'NR == FNR { keep["CONFIG_" $1] = 1; next }
		     /=m$/ { split($0, a, "="); if (!(a[1] in keep)) { print "# " a[1] " is not set"; next } }
		     { print }' <(kept_symbols) - >"$kc/.config"
	"$TREE/scripts/config" --file "$kc/.config" \
		-d DEBUG_INFO -d DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT -d DEBUG_INFO_BTF -e DEBUG_INFO_NONE \
		-d MODULE_SIG -d MODULE_SIG_ALL -d MODULE_COMPRESS -d MODULE_COMPRESS_ALL \
		-e MODULE_COMPRESS_NONE --set-str SYSTEM_TRUSTED_KEYS '' \
		--set-str SYSTEM_REVOCATION_KEYS '' -m TEST_DYNAMIC_DEBUG
	quiet make -C "$TREE" O="$kc" olddefconfig || return 1
	grep -q '^CONFIG_DYNAMIC_DEBUG=y' "$kc/.config" || die "distro: the config lost DYNAMIC_DEBUG"
	# Another config rebuilds everything: its warnings start afresh.
	cmp -s "$kc/.config" "$OBJ/.config" || rm -f "$D/$IMPL.msgs"
	install_config "$key" "$kc"
}

# distro_build IMPL
distro_build() {
	setup "$1"
	OUT=$D/$1 OBJ=$D/$1/obj
	[ "$1" = upstream ] || TREE=$D/src
	mkdir -p "$OUT"
	distro_config || return 1
	msg "BUILD  $1: Debian 6.12 config, vmlinux and $(grep -c '=m$' "$OBJ/.config") modules (log: ${OUT#"$TOP"/}/build.log)"
	kmake bzImage modules >"$OUT/build.log" 2>&1 || { tail -n 30 "$OUT/build.log" >&2; return 1; }
	# make rebuilds only what changed since the last run, so the warnings
	# of earlier runs are kept too (a new config starts the list afresh).
	{
		cat "$D/$1.msgs" 2>/dev/null
		{ grep -E '(warning|error):' "$OUT/build.log" || true; } |
			sed -e "s|$TREE/||g" -e 's|^\.\./||'
	} | sort -u >"$D/$1.msgs.tmp" && mv "$D/$1.msgs.tmp" "$D/$1.msgs"
	do_test_modules
}

# distro_boot IMPL: boot with every module installed; the guest's output
# goes to build/distro/IMPL.txt.
distro_boot() {
	local log=$OUT/boot.log rc=0
	do_initramfs || return 1
	cp "$BUILD/bench/ddbench" "$OUT/initramfs/bin/" 2>/dev/null ||
		gcc -static -O2 -o "$OUT/initramfs/bin/ddbench" scripts/bench/ddbench.c || return 1
	echo "$DISTRO_DIRS" >"$OUT/initramfs/etc/distro-dirs"
	(cd "$OUT/initramfs" && find . -print0 | sort -z | cpio --null -o -H newc --quiet) \
		>"$OUT/initramfs.cpio"
	msg "BOOT   $IMPL: Debian config (console: ${log#"$TOP"/})"
	QEMU_MEM=3072 QEMU_TIMEOUT=${QEMU_TIMEOUT:-5400} boot scripts/distro-guest.sh "$log" \
		"dynamic_debug.verbose=0" || rc=$?
	script_output "$log" >"$D/$IMPL.txt"
	if kernel_problems "$log" >/dev/null; then
		echo "distro: kernel problems in ${log#"$TOP"/}:" >&2
		kernel_problems "$log" | head -n 20 >&2
		rc=1
	fi
	return $rc
}

do_deps && do_tree || exit 1
fail=0
for impl in $IMPLS; do
	if [ "$impl" = ours ]; then
		series_tree || die "distro: cannot check out the series"
	fi
	( distro_build "$impl" && { [ "${DISTRO_BOOT:-1}" = 0 ] || distro_boot; } ) || fail=1
done
python3 scripts/bench/distro-report.py "$D" "$RESULT" $IMPLS || fail=1
exit $fail
