#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Helpers of the build matrix's guest scripts; scripts/check.d/matrix.sh
# puts this file in front of scripts/variants/VARIANT.guest.sh. Results are
# "ok - DESC" / "not ok - DESC" lines, numbered by the host.

check()		# check DESC COMMAND...
{
	local d=$1

	shift
	if "$@"; then echo "ok - $d"; else echo "not ok - $d"; fi
}

logged()	{ dmesg | grep -qF -- "$1"; }

# run_kselftests VARIANT SKIPPERS: run every dynamic debug kselftest. The
# scripts named in SKIPPERS (space separated, or "all") must skip as a
# whole, with the reason they give; every other one must pass.
run_kselftests()
{
	local v=$1 skippers=$2 t name out rc why

	for t in /selftests/dynamic_debug/test-*.sh; do
		name=$(basename "$t")
		out=$(cd /selftests/dynamic_debug && sh "./$name" 2>&1)
		rc=$?
		printf '%s\n' "$out" | grep '^not ok' | sed "s|^|# $name: |"
		why=$(printf '%s\n' "$out" | sed -n 's/^1\.\.0 # SKIP //p')
		case " $skippers " in
		" all "|*" $name "*)
			if [ $rc = 4 ] && [ -n "$why" ]; then
				echo "ok - $v: kselftest $name skips: $why"
			else
				echo "not ok - $v: kselftest $name should skip (exit $rc)"
			fi
			;;
		*)
			if [ $rc = 0 ]; then
				echo "ok - $v: kselftest $name"
			else
				echo "not ok - $v: kselftest $name (exit $rc${why:+, skipped: $why})"
			fi
			;;
		esac
	done
}
