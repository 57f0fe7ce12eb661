#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Boot test: malformed dynamic debug parameters on the command line. The
# boot completes, each error is logged naming its parameter, nothing from
# a bad parameter is applied, and the other parameters still work. See
# boot-tests.list.

DIR=$(dirname "$0")
. "$DIR/functions.sh"

require_control
require_cmdline 'kobject.dyndbg=+x'
ktap_plan 11

M=$SITES_MOD

ktap_check "the core came up despite the bad values: built-in sites listed" \
	grep -q '^[^/#][^ ]*:[0-9]* \[' "$DD_CONTROL"
ktap_check "bad ddebug_query applied nothing" file_flags_are lib/kobject.c "=_"
ktap_check "async.dyndbg=+p after the bad ones still applies" \
	file_flags_are kernel/async.c "=p"
if [ -f /proc/sys/kernel/domainname ]; then
	ktap_expect "a sysctl after the bad ones still applies" dyndbg-bad \
		"$(cat /proc/sys/kernel/domainname)"
else
	ktap_skip "a sysctl after the bad ones still applies" "no sysctl"
fi

if errors_name_query; then
	ktap_check "ddebug_query error is logged with its source" \
		log_has_all ddebug_query fiel
	ktap_check "dyndbg= with one bad query applies none of them" \
		file_flags_are kernel/params.c "=_"
	ktap_check "dyndbg error is logged with its source" \
		log_has_all dyndbg 9-8
	ktap_check "kobject.dyndbg error is logged with its source" \
		log_has_all kobject.dyndbg +x
else
	for d in "ddebug_query error is logged with its source" \
		"dyndbg= with one bad query applies none of them" \
		"dyndbg error is logged with its source" \
		"kobject.dyndbg error is logged with its source"; do
		ktap_skip "$d" "errors do not name their query or source"
	done
fi

RUNS=
insmod_runs_cmdline "$M" && RUNS=1
log_clear
mod_unload "$M"
insmod "$(mod_ko "$M")"
ktap_check "a module with a bad remembered query still loads" mod_loaded "$M"
ktap_expect "the bad remembered query applies nothing" "|" \
	"$(dd_enabled_lines "$M")|$(log_lines 'sites init')"
if [ -n "$RUNS" ]; then
	ktap_check "the module's query error is logged with its source" \
		log_has "$M.dyndbg"
else
	ktap_skip "the module's query error is logged with its source" \
		"plain insmod does not run MODULE.dyndbg= of the command line"
fi
mod_unload "$M"

ktap_finish
