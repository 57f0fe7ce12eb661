#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Boot test: lines of a saved control listing given as dyndbg= restore
# their sites' flags on a fresh boot (one line with commas for blanks, as
# a boot line needs no quoting then), and a line naming a site this kernel
# lacks is refused with its line and site named. See boot-tests.list.

DIR=$(dirname "$0")
. "$DIR/functions.sh"

require_control
require_cmdline 'dyndbg="lib/kobject.c:235 [kobject]kobject_add_internal =pm;'
ktap_plan 4

if ! has_replay; then
	for d in "a listing line restores its site's flags at boot" \
		 "a comma-separated listing line restores its site" \
		 "other sites of the file are untouched" \
		 "a listing line of a missing site is refused with its site"; do
		ktap_skip "$d" "listing lines are not taken as queries"
	done
	ktap_finish
fi

ktap_expect "a listing line restores its site's flags at boot" "=pm" \
	"$(dd_flags_at kobject 235)"
ktap_expect "a comma-separated listing line restores its site" "=pl" \
	"$(dd_flags_at kobject 139)"
ktap_expect "other sites of the file are untouched" "=_" \
	"$(dd_lines kobject | grep -v -e ':235 ' -e ':139 ' | awk '{ print $3 }' | sort -u)"
ktap_check "a listing line of a missing site is refused with its site" \
	log_has "query 1 (line 1): no such site lib/nosuch.c:1 [params]nofunc"

dd_write "module kobject =_"
ktap_finish
