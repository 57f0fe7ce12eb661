#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A site whose flags are only T records trace events and never writes to
# the kernel log, also where the caller tests the site and prints on its
# own (DYNAMIC_DEBUG_BRANCH(), _dynamic_func_call(), the *_ratelimited()
# helpers, whose rate limit must not run either).

DIR=$(dirname "$0")
. "$DIR/functions.sh"

M=test_dyndbg_callers
PARAMS=/sys/module/$M/parameters
SITES="branch func_call ratelimited dev_ratelimited"

require_control
require_module "$M"
modprobe "$M"
dd_write "module $M =T" ||
	ktap_skip_all "the T flag is not available: $DD_ERR"
ktap_plan 9

# set_site SITE FLAGS: give the site of callers_SITE() exactly FLAGS.
set_site()
{
	dd_write "module $M func callers_$1 $2" ||
		ktap_diag "query 'func callers_$1 $2' failed: $DD_ERR"
}

# run SITE N: run callers_SITE() N times.
run()
{
	echo "$2" > "$PARAMS/$1"
}

# The checks below mean something only if each site prints with p.
for s in $SITES; do
	set_site "$s" =p
	log_clear
	run "$s" 1
	ktap_check "with p, callers_$s() prints" log_has "callers $(echo "$s" | tr _ ' ') 1"
	set_site "$s" =_
done

log_clear
for s in $SITES; do
	set_site "$s" =T
	run "$s" 20
	WHY=$(log_text | grep -F 'callers ')
	ktap_check "with T alone, callers_$s() writes nothing to the log" \
		[ -z "$WHY" ]
done

# A rate limit that ran would report what it suppressed at the next call
# after its interval (5 s).
sleep 6
run ratelimited 1
run dev_ratelimited 1
WHY=$(log_text | grep -F 'callbacks suppressed')
ktap_check "with T alone, no rate limit of a *_ratelimited() site runs" [ -z "$WHY" ]

dd_write "module $M =_"
mod_unload "$M"
ktap_finish
