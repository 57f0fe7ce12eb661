#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build matrix, variant "nojump" (JUMP_LABEL=n): every kselftest of
# dynamic_debug passes, as with jump labels.

for t in /selftests/dynamic_debug/test-*.sh; do
	name=$(basename "$t")
	out=$(cd /selftests/dynamic_debug && sh "./$name" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep '^not ok' | sed "s|^|# $name: |"
	case $rc in
	0) echo "ok - nojump: kselftest $name" ;;
	4) echo "ok - nojump: kselftest $name # SKIP" ;;
	*) echo "not ok - nojump: kselftest $name (exit $rc)" ;;
	esac
done
