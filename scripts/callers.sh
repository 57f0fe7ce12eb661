#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every in-tree caller compiles: with Debian's own 6.12 configuration
# (package linux-config-6.12), compile objects that use the dynamic debug
# API in every way, once against the pristine tree and once against ours,
# in build/callers-upstream and build/callers-ours. Fails on any error and
# on any warning ours has that upstream does not.
#
# Runs with build/.lock held (from scripts/compat.sh or scripts/check.d/).
# Prints KTAP: one result per object, one for the warnings comparison.

set -uo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP"

DEB_CONFIG=/usr/src/linux-config-6.12/config.amd64_none_amd64.xz

# object						what it uses
CALLER_OBJS="
drivers/gpu/drm/drm_print.o				classmap user, drm_dbg
drivers/gpu/drm/drm_crtc_helper.o			DECLARE_DYNDBG_CLASSMAP
drivers/gpu/drm/i915/i915_params.o			DECLARE_DYNDBG_CLASSMAP in a driver
net/core/dev.o						netdev_dbg
drivers/infiniband/core/umem_odp.o			ibdev_dbg
drivers/infiniband/core/ib_core_uverbs.o		ibdev_dbg
drivers/acpi/utils.o					acpi_handle_debug
fs/btrfs/bio.o						_dynamic_func_call_no_desc
fs/btrfs/defrag.o					_dynamic_func_call_no_desc
mm/page_alloc.o						DEFINE_DYNAMIC_DEBUG_METADATA + DYNAMIC_DEBUG_BRANCH
drivers/mmc/host/sdhci.o				DEFINE_DYNAMIC_DEBUG_METADATA + DYNAMIC_DEBUG_BRANCH
drivers/infiniband/ulp/srp/ib_srp.o			DEFINE_DYNAMIC_DEBUG_METADATA + DYNAMIC_DEBUG_BRANCH
drivers/net/wireless/ath/wil6210/fw.o			print_hex_dump_debug
drivers/crypto/ccp/sev-dev.o				print_hex_dump_debug
lib/test_dynamic_debug.o				classes, class parameters
"

objects() {
	echo "$CALLER_OBJS" | awk 'NF { print $1 }'
}

# callers_config: Debian's config plus the test module, regenerated in a
# scratch directory when its inputs changed (config_key), installed only
# when the result differs.
callers_config() {
	local kc=$OBJ-kconfig key
	key=$(config_key "$DEB_CONFIG" "$TOP/scripts/callers.sh")
	config_is_current "$OBJ.config-key" "$key" && return 0
	rm -f "$OBJ.config-key"
	rm -rf "$kc"
	mkdir -p "$kc" "$OBJ"
	xz -dc "$DEB_CONFIG" >"$kc/.config"
	"$TREE/scripts/config" --file "$kc/.config" -m TEST_DYNAMIC_DEBUG
	quiet make -C "$TREE" O="$kc" ARCH=$ARCH CC="${CALLERS_CC}" olddefconfig
	grep -q '^CONFIG_DYNAMIC_DEBUG=y' "$kc/.config" ||
		die "callers: CONFIG_DYNAMIC_DEBUG dropped from Debian's config"
	grep -q '^CONFIG_TEST_DYNAMIC_DEBUG=m' "$kc/.config" ||
		die "callers: CONFIG_TEST_DYNAMIC_DEBUG=m dropped"
	if ! cmp -s "$kc/.config" "$OBJ/.config"; then
		cp "$kc/.config" "$OBJ/.config"
	fi
	rm -rf "$kc"
	echo "$key" >"$OBJ.config-key"
}

# build_callers IMPL: prepare the tree and compile every object; leave
# the compiler's messages, tree paths removed, in build/callers-IMPL.msgs
# and the objects that failed in build/callers-IMPL.failed.
build_callers() {
	(
		IMPL=$1
		VARIANT=
		. scripts/lib.sh
		OBJ=$BUILD/callers-$IMPL
		CALLERS_CC=gcc
		command -v ccache >/dev/null && CALLERS_CC="ccache gcc"
		local o msgs=$OBJ.msgs failed=$OBJ.failed
		do_deps
		do_tree
		callers_config
		: >"$failed"
		msg "CC     callers ($IMPL): Debian 6.12 config, $(objects | wc -l) objects"
		# Remove the objects so that every run sees the compiler's
		# messages (ccache replays them), then build them all in one
		# make: what is missing afterwards failed.
		for o in $(objects); do
			rm -f "$OBJ/$o"
		done
		kmake -k HOSTCC="$CALLERS_CC" $(objects) >"$OBJ.log" 2>&1
		for o in $(objects); do
			[ -s "$OBJ/$o" ] || echo "$o" >>"$failed"
		done
		grep -E '(warning|error):' "$OBJ.log" |
			sed -e "s|$TREE/||g" -e "s|^\.\./||" >"$msgs" || true
		[ -s "$failed" ] && sed 's/^/  callers: failed: /' "$failed" >&2
		return 0
	)
}

start=$SECONDS
build_callers upstream || exit 1
build_callers ours || exit 1

up=$TOP/build/callers-upstream
ours=$TOP/build/callers-ours
n=0
bad=0
echo "KTAP version 1"
echo "1..$(( $(objects | wc -l) + 1 ))"
for o in $(objects); do
	n=$((n + 1))
	grep -qxF "$o" "$ours.failed" "$up.failed" || [ ! -s "$ours/$o" ] && bad=1
	if grep -qxF "$o" "$ours.failed"; then
		echo "not ok $n - callers: $o compiles against ours"
		errs=$(grep -F "${o%.o}" "$ours.msgs" | grep 'error:')
		# An error in a header does not name the object.
		[ -n "$errs" ] || errs=$(grep 'error:' "$ours.msgs")
		echo "$errs" | head -n 5 | sed 's/^/# /'
	elif grep -qxF "$o" "$up.failed"; then
		echo "not ok $n - callers: $o compiles against upstream (harness problem)"
	elif [ ! -s "$ours/$o" ]; then
		echo "not ok $n - callers: $o was not produced against ours"
	else
		echo "ok $n - callers: $o compiles against ours"
	fi
done
n=$((n + 1))
new=$(sort -u "$ours.msgs" | grep -vxF -f <(sort -u "$up.msgs") || true)
if [ -z "$new" ]; then
	echo "ok $n - callers: ours adds no warning ($(sort -u "$up.msgs" | wc -l) upstream messages)"
else
	bad=1
	echo "not ok $n - callers: ours adds $(echo "$new" | wc -l) warnings"
	echo "$new" | head -n 20 | sed 's/^/# /'
fi
echo "# callers took $((SECONDS - start))s"
exit $bad
