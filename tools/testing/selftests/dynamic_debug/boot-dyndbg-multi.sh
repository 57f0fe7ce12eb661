#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Boot test: dyndbg= holding several queries, beside ddebug_query=; each
# query applies to built-in sites during boot, and only to the sites it
# selects. See boot-tests.list.

DIR=$(dirname "$0")
. "$DIR/functions.sh"

require_control
BOOT_QUERIES='file drivers/base/dd.c +pl; func kobject_add_internal +p; module params +pf'
require_cmdline "dyndbg=\"$BOOT_QUERIES\""
ktap_plan 8

DD=drivers/base/dd.c

ktap_check "first query: every $DD site has p and l" \
	file_flags_are "$DD" "=pl"
ktap_expect "second query: kobject_add_internal has p" "=p" \
	"$(grep -F ']kobject_add_internal =' "$DD_CONTROL" | awk '{ print $3 }' |
		sort -u)"
ktap_check "third query: every kernel/params.c site has p and f" \
	file_flags_are kernel/params.c "=pf"
ktap_expect "other kobject.c sites are untouched" "=_" \
	"$(grep -F 'lib/kobject.c:' "$DD_CONTROL" |
		grep -vF ']kobject_add_internal =' | grep -vF ']kobject_cleanup =' |
		awk '{ print $3 }' | sort -u)"

# The sites printed while the kernel booted, with the flags asked for.
probe_line=$(grep -F "$DD:" "$DD_CONTROL" | grep -F 'probing driver %s with device' |
	sed 's/^[^:]*:\([0-9]*\) .*/\1/')
ktap_check "$DD messages printed during boot with their line number" \
	log_has_all "$probe_line: " "probing driver"
ktap_check "kobject_add_internal printed during boot" \
	log_has "kobject_add_internal: parent:"
ktap_expect "dyndbg is not reported as an unknown parameter" "" \
	"$(log_lines 'Unknown kernel command line' | grep dyndbg)"

if boot_param_known ddebug_query; then
	ktap_expect "ddebug_query beside dyndbg also applies" "=pm" \
		"$(grep -F ']kobject_cleanup =' "$DD_CONTROL" | awk '{ print $3 }' |
			sort -u)"
else
	ktap_skip "ddebug_query beside dyndbg also applies" \
		"no ddebug_query= parameter"
fi

ktap_finish
