#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every in-tree caller compiles: with Debian's own 6.12 configuration,
# compile objects that use the dynamic debug API in every way, against the
# pristine tree (its result recorded, see upstream_callers) and against
# ours (build/callers-IMPL). Fails on any error and on any warning ours
# has that upstream does not. Prints KTAP.

set -uo pipefail
cd "$(dirname "$0")/../.." && . scripts/lib.sh || exit 1
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
OBJECTS=$(echo "$CALLER_OBJS" | awk 'NF { print $1 }')

# callers_config: Debian's config plus the test module, made again only
# when its inputs changed.
callers_config() {
	local kc=$OUT/kconfig key
	key=$(config_key "$DEB_CONFIG" "$TOP/scripts/check.d/callers.sh")
	config_is_current "$key" && return 0
	rm -rf "$kc" && mkdir -p "$kc"
	xz -dc "$DEB_CONFIG" >"$kc/.config"
	"$TREE/scripts/config" --file "$kc/.config" -m TEST_DYNAMIC_DEBUG
	quiet make -C "$TREE" O="$kc" olddefconfig || return 1
	grep -q '^CONFIG_DYNAMIC_DEBUG=y' "$kc/.config" && grep -q '^CONFIG_TEST_DYNAMIC_DEBUG=m' "$kc/.config" ||
		die "callers: Debian's config lost DYNAMIC_DEBUG or TEST_DYNAMIC_DEBUG"
	install_config "$key" "$kc"
}

# build_callers IMPL: compile every object in one make (removed first, so
# that ccache replays the compiler's messages); leave the messages, tree
# paths removed, in $OUT.msgs. What is missing afterwards failed.
build_callers() {
	setup "$1"
	OUT=$BUILD/callers-$1 OBJ=$BUILD/callers-$1/obj
	do_deps && do_tree && callers_config || return 1
	msg "CC     callers ($1): Debian 6.12 config, $(echo "$OBJECTS" | wc -l) objects"
	(cd "$OBJ" 2>/dev/null && rm -f $OBJECTS)
	kmake -k $OBJECTS 2>&1 | grep -E '(warning|error):' | sed -e "s|$TREE/||g" -e "s|^\.\./||" >"$OUT.msgs"
	return 0
}

# upstream_callers: upstream's messages in $up.msgs and the objects that
# compiled in UP_BUILT, recorded in scripts/callers-upstream.txt for
# inputs this project never changes (scripts/lib.sh: record_read), or
# compiled again and recorded.
upstream_callers() {
	local rec=$TOP/scripts/callers-upstream.txt key body o
	key=$(record_key "$OBJECTS" "$(declare -f callers_config build_callers)")
	if body=$(record_read "$rec" "$key"); then
		sed -n 's/^@M //p' <<<"$body" >"$up.msgs"
		UP_BUILT=$(sed -n 's/^@B //p' <<<"$body")
		msg "CC     callers (upstream): recorded in ${rec#"$TOP"/}"
		return 0
	fi
	build_callers upstream || return 1
	UP_BUILT=
	for o in $OBJECTS; do [ ! -s "$up/obj/$o" ] || UP_BUILT="$UP_BUILT $o"; done
	{ echo "@B${UP_BUILT}"; sed 's/^/@M /' "$up.msgs"; } | record_write "$rec" "$key"
}

do_deps && do_tree || exit 1
. "$KTAP_HELPERS"
ktap_print_header
up=$BUILD/callers-upstream
ours=$BUILD/callers-ours
upstream_callers && build_callers ours || { ktap_test_fail "callers: build the trees"; exit 1; }
for o in $OBJECTS; do
	if [[ " $UP_BUILT " != *" $o "* ]]; then
		ktap_test_fail "callers: $o compiles against upstream (harness problem)"
	elif [ -s "$ours/obj/$o" ]; then
		ktap_test_pass "callers: $o compiles against ours"
	else
		# An error in a header does not name the object.
		{ grep -F "${o%.o}" "$ours.msgs" | grep 'error:' || grep 'error:' "$ours.msgs"; } |
			head -n 5 | sed 's/^/# /'
		ktap_test_fail "callers: $o compiles against ours"
	fi
done
new=$(sort -u "$ours.msgs" | grep -vxF -f <(sort -u "$up.msgs"))
desc="callers: ours adds no warning ($(sort -u "$up.msgs" | wc -l) upstream messages)"
if [ -z "$new" ]; then ktap_test_pass "$desc"; else echo "$new" | head -n 20 | sed 's/^/# /'; ktap_test_fail "$desc"; fi
ktap_set_plan $((KTAP_TESTNO - 1))
