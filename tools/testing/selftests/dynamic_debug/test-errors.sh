#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Bad writes to the control file: each malformed query fails with EINVAL
# and changes nothing, a write with one bad query among good ones changes
# nothing at all, the error is logged, and an over-long write fails with
# E2BIG.

DIR=$(dirname "$0")
. "$DIR/functions.sh"

dd_begin 25 "$SITES_MOD"

modprobe "$SITES_MOD"
M=$SITES_MOD

# A known starting state: one site with flags, the rest without.
baseline()
{
	dd_reset "$M"
	dd_write "module $M format 'alpha one' =pm"
	BASE=$(dd_lines "$M")
	log_clear
}

# expect_einval DESC QUERY: QUERY fails with EINVAL, leaves the sites as
# they were and logs an error.
expect_einval()
{
	baseline
	if dd_write "$2"; then
		ktap_not_ok "$1" "the write succeeded: $2"
	elif [ "$DD_ERRNO" != EINVAL ]; then
		ktap_not_ok "$1" "errno $DD_ERRNO, want EINVAL: $DD_ERR"
	elif [ "$(dd_lines "$M")" != "$BASE" ]; then
		ktap_not_ok "$1" "sites changed: $(dd_lines "$M" | grep -v ' =_ ')"
	elif [ -z "$(log_text)" ]; then
		ktap_not_ok "$1" "nothing was logged"
	else
		ktap_ok "$1"
	fi
}

# --- malformed queries

expect_einval "unknown keyword" "fiel $SITES_FILE +p"
expect_einval "unknown flag letter" "module $M +x"
expect_einval "unknown flag letter after good ones" "module $M =pmz"
expect_einval "flags without an operator" "module $M p"
expect_einval "no flags at all" "module $M"
expect_einval "a selector without its value" "module $M func +p"
expect_einval "words after the flags" "module $M +p extra"
expect_einval "same selector twice" "func sites_alpha func sites_beta +p"
expect_einval "line that is not a number" "module $M line abc +p"
expect_einval "line range that ends before it starts" \
	"module $M line 30-20 +p"
expect_einval "line number that overflows" "module $M line 99999999999 +p"
expect_einval "line range with junk" "module $M line 10-20x +p"
expect_einval "unclosed quote" "module $M format 'alpha +p"

# --- all or nothing (some kernels apply the good queries of a bad write)

dd_reset "$M"
if all_or_nothing "$M"; then
	expect_einval "a bad second query cancels the first" \
		"module $M +p; fiel x +p"
	expect_einval "a bad first query cancels the second" \
		"fiel x +p; module $M +p"
	expect_einval "a bad query on the next line cancels the write" \
		"module $M func sites_beta +p
module $M line 9-8 +p
module $M func sites_gamma +p"
else
	for d in "a bad second query cancels the first" \
		"a bad first query cancels the second" \
		"a bad query on the next line cancels the write"; do
		ktap_skip "$d" "this kernel applies the good queries of a bad write"
	done
fi

# A bad query among good ones still fails the write, on any core.
baseline
if dd_write "module $M func sites_beta +p; fiel x +p"; then
	ktap_not_ok "a write with a bad query fails" "it succeeded"
else
	ktap_expect "a write with a bad query fails" EINVAL "$DD_ERRNO"
fi

# --- precise messages: probed by whether an error names its query

if errors_name_query; then
	baseline
	dd_write "module $M +p; fiel x +p"
	ktap_check "message names the query number and the unknown keyword" \
		log_has_all "query 2" "fiel"
	baseline
	dd_write "module $M line 30-20 +p"
	ktap_check "message names the bad line range" \
		log_has_all "query 1" "30-20"
	baseline
	dd_write "module $M =pz"
	ktap_check "message names the bad flags" log_has_all "query 1" "=pz"
else
	for d in "message names the query number and the unknown keyword" \
		"message names the bad line range" \
		"message names the bad flags"; do
		ktap_skip "$d" "errors do not name their query"
	done
fi

# --- size limit

# pad N: N bytes of comment text.
pad()
{
	head -c "$1" /dev/zero | tr '\0' a
}

baseline
if dd_write "module $M format 'beta one' +p # $(pad 5000)"; then
	ktap_not_ok "a write over 4 KiB fails with E2BIG" "it succeeded"
else
	ktap_expect "a write over 4 KiB fails with E2BIG" E2BIG "$DD_ERRNO"
fi
ktap_expect "an over-long write changes nothing" "$BASE" "$(dd_lines "$M")"
ktap_check "an over-long write is logged" test -n "$(log_text)"

baseline
if dd_write "module $M format 'beta one' +p # $(pad 3900)"; then
	ktap_expect "a write just under 4 KiB works" "=p" \
		"$(dd_flags "$M" 'beta one')"
else
	ktap_not_ok "a write just under 4 KiB works" "$DD_ERR"
fi

baseline
ktap_check "an empty write succeeds" dd_write ""

dd_reset "$M"
mod_unload "$M"
ktap_finish
