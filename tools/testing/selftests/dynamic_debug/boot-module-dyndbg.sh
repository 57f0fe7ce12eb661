#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Boot test: MODULE.dyndbg= on the command line, for a built-in module
# (applied at boot) and for loadable ones (applied when they load, even by
# a plain insmod that reads no command line, unless the load gives a
# dyndbg= of its own). Class parameters given on the command line reach a
# module that modprobe loads. See boot-tests.list.

DIR=$(dirname "$0")
. "$DIR/functions.sh"

require_control
require_cmdline 'test_dyndbg_sites.dyndbg="func sites_init +pm"'
ktap_plan 9

M=$SITES_MOD
C=$CLASS_MOD

ktap_check "params.dyndbg=+pl: every kernel/params.c site has p and l" \
	file_flags_are kernel/params.c "=pl"
ktap_check "a built-in module's query stays in that module" \
	file_flags_are lib/kobject.c "=_"
ktap_expect "MODULE.dyndbg of unloaded modules is not reported as unknown" "" \
	"$(log_lines 'Unknown kernel command line' | grep dyndbg)"

RUNS=
insmod_runs_cmdline "$M" && RUNS=1
KO=$(mod_ko "$M")
mod_unload "$M"
log_clear
insmod "$KO"
if [ -n "$RUNS" ]; then
	ktap_check "plain insmod: init messages print with the module name" \
		log_has_line "$M: sites init start"
	ktap_expect "plain insmod: only the sites the query names are on" \
		"$SITES_INIT1 $SITES_INIT2" "$(dd_enabled_lines "$M")"
else
	ktap_skip "plain insmod: init messages print with the module name" \
		"plain insmod does not run MODULE.dyndbg= of the command line"
	ktap_skip "plain insmod: only the sites the query names are on" \
		"plain insmod does not run MODULE.dyndbg= of the command line"
fi
mod_unload "$M"

# A load with a dyndbg= of its own gets only that one: modprobe copies the
# command line's MODULE.dyndbg= into the load's arguments, and it must not
# run twice.
log_clear
insmod "$KO" 'dyndbg="func sites_init +pf"'
ktap_expect "a load's own dyndbg= runs instead of the command line's" \
	"=pf|sites_init: sites init start" \
	"$(dd_flags_at "$M" "$SITES_INIT1")|$(log_lines 'sites init start')"
mod_unload "$M"

KO=$(mod_ko "$C")
mod_unload "$C"
log_clear
if [ -n "$KO" ] && insmod "$KO"; then
	if [ -n "$RUNS" ]; then
		ktap_check "plain insmod $C: init messages with the module name" \
			log_has_line "$C: test_dd: init start"
	else
		ktap_skip "plain insmod $C: init messages with the module name" \
			"plain insmod does not run MODULE.dyndbg= of the command line"
	fi
else
	ktap_not_ok "plain insmod $C: init messages with the module name" \
		"no $C.ko"
fi
mod_unload "$C"

# modprobe reads the command line's ordinary parameters, class bits too.
log_clear
modprobe "$C"
ktap_expect "class bits from the command line apply at modprobe" 0x1 \
	"$(cat "/sys/module/$C/parameters/p_disjoint_bits" 2>/dev/null)"
ktap_check "class sites from the command line print at init" \
	log_has "D2_CORE msg"
mod_unload "$C"

ktap_finish
