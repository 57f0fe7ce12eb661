#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Sourced by the variant-*.sh tests of checker kernels, in place of
# functions.sh (which it sources; DIR is this directory).
# fuzz_run NAME COUNT runs COUNT writes of the control-file fuzzer
# (dyndbg_fuzz, in PATH) from a random seed on the two test modules, with
# the console quiet from then on (dmesg -n 1), and reports it as one
# KTAP check.

. "$DIR/functions.sh"

fuzz_run()
{
	local name=$1 count=$2 seed rc

	seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
	modprobe test_dyndbg_sites && modprobe test_dyndbg_driver
	dmesg -n 1
	ktap_diag "fuzz: seed $seed, $count writes, $(grep -c ^processor /proc/cpuinfo) CPUs"
	dyndbg_fuzz -s "$seed" -n "$count" test_dyndbg_sites test_dyndbg_driver \
		>/tmp/fuzz.out 2>&1
	rc=$?
	# The kernel's warnings and worse that the fuzzer passed on, as the
	# kernel printed them: the host finds reports among them as on the
	# console (scripts/kernel-problems).
	grep -E '^\[ *[0-9]+\.[0-9]+\] ' /tmp/fuzz.out
	grep -vE '^\[ *[0-9]+\.[0-9]+\] ' /tmp/fuzz.out | sed 's/^/# /' | tail -n 20
	ktap_check "$name: fuzzer, $count writes, invariants hold" test $rc = 0
	rmmod test_dyndbg_driver test_dyndbg_sites
}
