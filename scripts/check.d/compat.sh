#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make compat: prove the drop-in claim against upstream 6.12. Build the
# same config with IMPL=upstream and IMPL=ours, boot each once running the
# same corpus (scripts/compat/corpus, by scripts/compat/runner.sh) and
# compare the transcripts step by step (scripts/compat/compare.py); they
# may differ only where scripts/compat/intended-differences says. Prints
# KTAP: one result per step of the corpus.
#
# Upstream's transcript depends only on the inputs upstream_key hashes.
# One recorded for the same inputs (scripts/compat/upstream.transcript.gz,
# key on its first line) stands in for building and booting upstream's
# kernel; UPSTREAM_LIVE=1 (or COMPAT_LIVE=1), or any changed input, runs
# upstream again and records its transcript there, to be committed.

set -uo pipefail
cd "$(dirname "$0")/../.." && . scripts/lib.sh || exit 1
DIR=scripts/compat
COMPAT_OUT=$BUILD/compat

# The same command line for both kernels: boot-time queries (a good one,
# a bad one, the old ddebug_query= name) and module parameters for a
# built-in and a loadable module.
APPEND='dyndbg="func run_init_process +p" ddebug_query="func tty_release_checks +p" cpuhotplug.dyndbg=+pf test_dyndbg_debug.dyndbg=+mf dyndbg="fiel bad +p"'

# run_impl IMPL: build IMPL and boot it over the corpus (console in
# build/compat/IMPL.log).
run_impl() {
	local rc=0
	setup "$1"
	do_build && do_initramfs || return 1
	msg "BOOT   $1 kernel, compat corpus"
	boot "$COMPAT_OUT/guest.sh" "$COMPAT_OUT/$1.log" "$APPEND" || rc=$?
	ktap_boot "$COMPAT_OUT/$1.log" $rc "compat: $1 boots clean over the corpus"
}

RECORDED=$DIR/upstream.transcript.gz

upstream_key() {
	{ echo "$APPEND"; dpkg-query -W -f='${Version}\n' linux-source-6.12
	  cat "$DIR/corpus" "$DIR/runner.sh" scripts/guest/init scripts/config.fragment \
		"$SELFTEST_DIR"/{config,functions.sh} "$SELFTEST_DIR"/test_modules/*.c; } |
		sha256sum | cut -c1-16
}

# upstream_transcript: the recorded transcript, or a fresh run recorded.
upstream_transcript() {
	local key
	key=$(upstream_key)
	if UPSTREAM_LIVE=${UPSTREAM_LIVE:-${COMPAT_LIVE:-}} record_read "$RECORDED" "$key" \
		>"$COMPAT_OUT/upstream.log"; then
		ktap_test_pass "compat: upstream's transcript, recorded for these inputs ($key)"
		return
	fi
	run_impl upstream || return 1
	grep '^@C ' "$COMPAT_OUT/upstream.log" | record_write "$RECORDED" "$key"
}

mkdir -p "$COMPAT_OUT"
printf '#!/bin/sh\nexec sh /compat/runner.sh /compat/corpus\n' >"$COMPAT_OUT/guest.sh"
do_deps && do_tree || exit 1
. "$KTAP_HELPERS"
ktap_print_header
upstream_transcript && run_impl ours || { ktap_test_fail "compat: build both kernels"; exit 1; }
python3 "$DIR/compare.py" "$DIR/intended-differences" "$COMPAT_OUT/upstream.log" \
	"$COMPAT_OUT/ours.log" "$COMPAT_OUT/report.txt" >"$COMPAT_OUT/compare.out"
ktap_test_result "compat: the transcripts compare" test $? = 0
sed 's/^/# /' "$COMPAT_OUT/compare.out"
while read -r kind step; do
	case $kind in
	identical|intended)	ktap_test_pass "compat: $kind $step" ;;
	unexpected)		ktap_test_fail "compat: $kind $step (see build/compat/report.txt)" ;;
	*)			ktap_test_fail "compat: $kind $step" ;;
	esac
done < <(awk '/^[a-z]/ { print $1, $2 }' "$COMPAT_OUT/report.txt")
ktap_set_plan $((KTAP_TESTNO - 1))
