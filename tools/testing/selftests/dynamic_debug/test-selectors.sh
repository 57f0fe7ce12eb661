#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Each selector of the query language picks exactly the sites it names:
# file (full, relative, basename, wildcards, F:FUNC, F:N-M), func and its
# "function" alias, module, format (substring, ^ anchor, quotes, escapes),
# line ranges, several selectors at once, several queries per write,
# comments, and queries that match nothing.

DIR=$(dirname "$0")
. "$DIR/functions.sh"

dd_begin 45 "$SITES_MOD"

modprobe "$SITES_MOD"
M=$SITES_MOD
F=$SITES_FILE

# The sites module's line numbers, all of them and the ones not pinned
# in functions.sh.
ALL=$(dd_lines "$M" | sed 's/^[^:]*:\([0-9]*\) .*/\1/' | sort -n | tr '\n' ' ' |
	sed 's/ $//')
HEX=$(dd_line "$M" 'delta hexdump' | sed 's/^[^:]*:\([0-9]*\) .*/\1/')
GAMMA=$(seq -s ' ' "$SITES_GAMMA_FIRST" "$SITES_GAMMA_LAST")
G_TAB=$SITES_GAMMA_FIRST		# "gamma tab\there\n"
G_QUOTE=$((SITES_GAMMA_FIRST + 1))	# "gamma quote \"q\" end\n"
G_PERCENT=$SITES_GAMMA_LAST		# "gamma percent 100%% done\n"

# expect_sites DESC QUERY WANT: from all sites off, QUERY must succeed and
# leave exactly the sites at lines WANT with p set.
expect_sites()
{
	dd_reset "$M"
	if ! dd_write "$2"; then
		ktap_not_ok "$1" "query failed: $DD_ERR"
		return
	fi
	ktap_expect "$1" "$3" "$(dd_enabled_lines "$M")"
}

# --- file

path=$(dd_path "$M")
expect_sites "file with the full path as listed" "file $path +p" "$ALL"
expect_sites "file with the basename" "file $F +p" "$ALL"
expect_sites "file with a * and ? wildcard" "file *dyndbg_site?.c +p" "$ALL"
expect_sites "file with a wildcard that does not match" \
	"file *dyndbg_site?.h +p" ""
expect_sites "file F:FUNC" "file $F:sites_beta +p" \
	"$SITES_BETA1 $SITES_BETA2"
expect_sites "file F:FUNC with a wildcard" "file $F:sites_b* +p" \
	"$SITES_BETA1 $SITES_BETA2"
expect_sites "file F:N-M" "file $F:$SITES_ALPHA1-$SITES_ALPHA2 +p" \
	"$SITES_ALPHA1 $SITES_ALPHA2"

# A built-in file listed relative to the source root (the test modules are
# built outside it). Turn m on and off again to leave it as it was.
rel=$(sed 1d "$DD_CONTROL" | awk '{ print $1 }' | sed 's/:[0-9]*$//' |
	grep '^[^/].*/' | grep -v "$F" | head -n 1)
rel_flags()
{
	awk -v p="$rel:" 'index($1, p) == 1 { print $3 }' "$DD_CONTROL"
}
if [ -z "$rel" ]; then
	ktap_skip "file with the path relative to the source root" \
		"no built-in site with a relative path"
else
	n_all=$(rel_flags | wc -l)
	was_m=$(rel_flags | grep -c m)
	if [ "$was_m" != 0 ]; then
		ktap_skip "file with the path relative to the source root" \
			"$rel already has m set"
	elif dd_write "file $rel +m"; then
		n_m=$(rel_flags | grep -c m)
		dd_write "file $rel -m"
		ktap_expect "file with the path relative to the source root ($rel)" \
			"$n_all" "$n_m"
	else
		ktap_not_ok "file with the path relative to the source root" \
			"$DD_ERR"
	fi
fi

# --- func and function

expect_sites "func exact" "func sites_gamma +p" "$GAMMA"
expect_sites "func with ?" "func sites_?eta +p" "$SITES_BETA1 $SITES_BETA2"
expect_sites "func with *" "func *_alpha +p" "$SITES_ALPHA1 $SITES_ALPHA2"
expect_sites "func of an __init function" "func sites_init +p" \
	"$SITES_INIT1 $SITES_INIT2"
if has_keyword function; then
	expect_sites "function is an alias of func" "function sites_beta +p" \
		"$SITES_BETA1 $SITES_BETA2"
else
	ktap_skip "function is an alias of func" "no keyword function"
fi

# --- module

expect_sites "module exact" "module $M +p" "$ALL"
expect_sites "module with wildcards" "module test_dyndbg_s?t* +p" "$ALL"
expect_sites "module with another name leaves these sites alone" \
	"module ${M}x +p" ""

# --- format

expect_sites "format substring, double quoted" "module $M format \"alpha two\" +p" \
	"$SITES_ALPHA2"
expect_sites "format substring, single quoted" "module $M format 'beta one' +p" \
	"$SITES_BETA1"
expect_sites "format substring, one word" "module $M format alpha +p" \
	"$SITES_ALPHA1 $SITES_ALPHA2"
expect_sites "format substring anywhere in the format" \
	"module $M format one +p" "$SITES_ALPHA1 $SITES_BETA1 $G_PERCENT $SITES_INIT2"
expect_sites "format ^ anchors at the start" "module $M format ^beta +p" \
	"$SITES_BETA1 $SITES_BETA2"
expect_sites "format ^ does not match later in the format" \
	"module $M format ^one +p" ""
expect_sites "format with a \\t escape" "module $M format 'tab\\there' +p" $G_TAB
expect_sites "format with an octal escape" "module $M format tab\\011here +p" $G_TAB
expect_sites "format with \\\" escapes" "module $M format \\\"q\\\" +p" $G_QUOTE
expect_sites "format with a double quote inside single quotes" \
	"module $M format '\"q\"' +p" $G_QUOTE
expect_sites "format with %% and spaces" "module $M format '100%% done' +p" $G_PERCENT
expect_sites "format of a hex dump site is its prefix" \
	"module $M format 'delta hexdump' +p" "$HEX"

# --- line

expect_sites "line N" "file $F line $SITES_ALPHA2 +p" "$SITES_ALPHA2"
expect_sites "line N-M" "file $F line $SITES_BETA1-$SITES_BETA2 +p" \
	"$SITES_BETA1 $SITES_BETA2"
expect_sites "line N-N" "file $F line $SITES_ALPHA1-$SITES_ALPHA1 +p" \
	"$SITES_ALPHA1"
expect_sites "line -M" "module $M line -$SITES_ALPHA2 +p" \
	"$SITES_ALPHA1 $SITES_ALPHA2"
expect_sites "line N-" "module $M line $SITES_INIT1- +p" \
	"$SITES_INIT1 $SITES_INIT2 $SITES_EXIT"
expect_sites "line range between sites" \
	"module $M line $((SITES_ALPHA2 + 1))-$((SITES_BETA1 - 1)) +p" ""

# --- combinations

expect_sites "selectors are ANDed" \
	"module $M func sites_gamma format quote +p" $G_QUOTE
expect_sites "selectors that exclude each other match nothing" \
	"func sites_alpha line $SITES_BETA1-$SITES_BETA2 +p" ""
expect_sites "queries split by ;" \
	"module $M format 'alpha one' +p; module $M format 'beta two' +p" \
	"$SITES_ALPHA1 $SITES_BETA2"
expect_sites "queries split by newline" \
	"module $M format 'alpha one' +p
module $M format 'beta two' +p" "$SITES_ALPHA1 $SITES_BETA2"
expect_sites "blank queries are ignored" \
	";; module $M func sites_alpha +p ;
;" "$SITES_ALPHA1 $SITES_ALPHA2"
expect_sites "a comment ends the query" \
	"module $M func sites_beta +p # func sites_alpha" \
	"$SITES_BETA1 $SITES_BETA2"
expect_sites "a query that is only a comment" "# module $M +p" ""

# --- matching nothing

for q in "module no_such_module_dd +p" "func no_such_function_dd +p" \
	"file no_such_file_dd.c +p" "module $M line 9999 +p"; do
	dd_reset "$M"
	if dd_write "$q"; then
		ktap_expect "query matching nothing succeeds: $q" "" \
			"$(dd_enabled_lines "$M")"
	else
		ktap_not_ok "query matching nothing succeeds: $q" "$DD_ERR"
	fi
done

dd_reset "$M"
mod_unload "$M"
ktap_finish
