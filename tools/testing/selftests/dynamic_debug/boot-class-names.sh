#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Boot test: class parameters of the *_NAMES types given on the command
# line. For a built-in test_dynamic_debug (CONFIG_TEST_DYNAMIC_DEBUG=y,
# the "nojump" variant of the build matrix) they are parsed before the
# slab allocator exists, so they must be kept and applied once the sites
# are registered; for a loadable one, modprobe passes them at load. See
# boot-tests.list and scripts/variants/nojump.*.

DIR=$(dirname "$0")
. "$DIR/functions.sh"

require_control
require_cmdline 'test_dynamic_debug.p_disjoint_names=LOW,HI'
ktap_plan 4

C=$CLASS_MOD
PARAMS=/sys/module/$C/parameters

builtin=
if [ -d "$PARAMS" ] && ! grep -q "^$C " /proc/modules; then
	builtin=1
	ktap_diag "$C is built in: its parameters were set in early boot"
elif ! modprobe "$C" 2>/dev/null; then
	ktap_skip_all "no $C, built in or loadable"
fi

# Some kernels set the class parameters of a built-in module from the
# command line before its sites are registered: the parameter reads back,
# but no site took it.
if [ -n "$builtin" ] && [ "$(dd_class_flags "$C" MID HI)" = "MID=_ HI=_" ] &&
   [ "$(cat "$PARAMS/p_disjoint_names")" = 0x5 ]; then
	for d in "disjoint names LOW,HI from the command line" \
		"disjoint names read back as bits" \
		"level name L3 from the command line" \
		"level name read back as a level"; do
		ktap_skip "$d" "class parameters set before the sites existed"
	done
	ktap_finish
fi

ktap_expect "disjoint names LOW,HI from the command line" "MID=_ HI=p" \
	"$(dd_class_flags "$C" MID HI)"
ktap_expect "disjoint names read back as bits" 0x5 \
	"$(cat "$PARAMS/p_disjoint_names")"
ktap_expect "level name L3 from the command line" "L1=p L2=p L3=p L4=_" \
	"$(dd_class_flags "$C" L1 L2 L3 L4)"
ktap_expect "level name read back as a level" 4 \
	"$(cat "$PARAMS/p_level_names")"

[ -n "$builtin" ] || mod_unload "$C"
ktap_finish
