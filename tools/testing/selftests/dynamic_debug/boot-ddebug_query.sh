#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Boot test: ddebug_query="file kobject.c +p" (the 2.6.39 name) enables
# every lib/kobject.c site during early boot, so they print while the
# kernel starts, and touches nothing else. See boot-tests.list.

DIR=$(dirname "$0")
. "$DIR/functions.sh"

require_control
require_cmdline 'ddebug_query="file kobject.c +p"'
ktap_plan 5

K=lib/kobject.c

if ! boot_param_known ddebug_query; then
	for d in "every $K site is on after boot" \
		"$K sites printed during boot" \
		"sites of other files are untouched" \
		"ddebug_query is not reported as unknown"; do
		ktap_skip "$d" "no ddebug_query= parameter"
	done
else
	ktap_check "every $K site is on after boot" file_flags_are "$K" "=p"
	ktap_check "$K sites printed during boot" \
		log_has "kobject_add_internal: parent:"
	ktap_expect "sites of other files are untouched" "=_|=_" \
		"$(file_flags kernel/params.c)|$(file_flags drivers/base/dd.c)"
	ktap_expect "ddebug_query is not reported as unknown" "" \
		"$(log_lines 'Unknown kernel command line' | grep ddebug_query)"
fi

# Whatever the core, the boot parameter must leave the control file usable.
dd_write "file $K -p"
ktap_check "control file still accepts queries" file_flags_are "$K" "=_"

ktap_finish
