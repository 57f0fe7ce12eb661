#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make compat: prove the drop-in claim against upstream 6.12.
#
#  1. Build the same config with IMPL=upstream and IMPL=ours, boot each once
#     running the same corpus (tools/testing/selftests/dynamic_debug/compat/)
#     and compare the two transcripts step by step; differences are allowed
#     only where compat/intended-differences lists them.
#  2. Compile the in-tree callers of the API with Debian's 6.12 config
#     against both trees (scripts/callers.sh); ours may add no warning.
#
# Called by scripts/harness.sh with build/.lock held. COMPAT_SKIP_CALLERS=1
# leaves out step 2.

set -uo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP"

COMPAT_DIR=tools/testing/selftests/dynamic_debug/compat
COMPAT_OUT=$TOP/build/compat
RULES=$COMPAT_DIR/intended-differences

# The same command line for both kernels: boot-time queries (a good one,
# a bad one, the old ddebug_query= name) and module parameters for a
# built-in and a loadable module.
COMPAT_APPEND='dyndbg="func run_init_process +p" ddebug_query="func tty_release_checks +p" cpuhotplug.dyndbg=+pf test_dyndbg_debug.dyndbg=+mf dyndbg="fiel bad +p"'

# guest_script: one script holding the runner and the corpus.
guest_script() {
	echo '#!/bin/sh'
	echo "cat >/tmp/compat-runner.sh <<'__DYNDBG_RUNNER__'"
	cat "$COMPAT_DIR/runner.sh"
	echo '__DYNDBG_RUNNER__'
	echo "cat >/tmp/compat-corpus <<'__DYNDBG_CORPUS__'"
	cat "$COMPAT_DIR/corpus"
	echo '__DYNDBG_CORPUS__'
	echo 'sh /tmp/compat-runner.sh /tmp/compat-corpus'
}

# run_impl IMPL: build IMPL, boot it over the corpus, keep the console
# log as build/compat/IMPL.log. Fails if the build, boot or guest failed.
run_impl() {
	(
		IMPL=$1
		VARIANT=
		. scripts/lib.sh
		# As in check.sh: no set -e, each step's failure ends the chain.
		do_all_build && do_initramfs || exit 1
		local log=$COMPAT_OUT/$IMPL.log rc=0
		msg "BOOT   $IMPL kernel, compat corpus (console: ${log#"$TOP"/})"
		boot_script "$COMPAT_OUT/guest.sh" "$log" "$COMPAT_APPEND" \
			>/dev/null || rc=$?
		if kernel_problems "$log" >/dev/null; then
			echo "compat: kernel problems in ${log#"$TOP"/}:" >&2
			kernel_problems "$log" | head -n 20 >&2
			rc=1
		fi
		exit $rc
	)
}

mkdir -p "$COMPAT_OUT"
guest_script >"$COMPAT_OUT/guest.sh"
fail=0
start=$SECONDS

for impl in upstream ours; do
	if ! run_impl $impl; then
		echo "compat: the $impl run failed" >&2
		fail=1
	fi
done

if [ -f "$COMPAT_OUT/upstream.log" ] && [ -f "$COMPAT_OUT/ours.log" ]; then
	python3 scripts/compat-compare.py "$RULES" \
		"$COMPAT_OUT/upstream.log" "$COMPAT_OUT/ours.log" \
		"$COMPAT_OUT/report.txt" || fail=1
	echo "  compat: every step's verdict: build/compat/report.txt"
else
	fail=1
fi
echo "  compat: differential run took $((SECONDS - start))s"

if [ "${COMPAT_SKIP_CALLERS:-0}" != 1 ]; then
	scripts/callers.sh || fail=1
fi

exit $fail
