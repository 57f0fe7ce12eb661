#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What each flag does to the printed line, read back from the kernel log:
# p prints, m f s l t decorate in a fixed order, d adds a stack dump, and
# the + - = operators add, remove and set flags.

DIR=$(dirname "$0")
. "$DIR/functions.sh"

dd_begin 28 "$SITES_MOD"

modprobe "$SITES_MOD"
M=$SITES_MOD
P=$(dd_path "$M")
L=$SITES_ALPHA1

# set_alpha FLAGS: from all off, give the "alpha one" site FLAGS (with its
# operator), clear the log and run every site once.
set_alpha()
{
	dd_reset "$M"
	dd_write "module $M format 'alpha one' $1" ||
		ktap_diag "query '$1' failed: $DD_ERR"
	log_clear
	sites_trigger
}

# set_site FORMAT FLAGS: the same for another site.
set_site()
{
	dd_reset "$M"
	dd_write "module $M format '$1' $2" ||
		ktap_diag "query '$2' failed: $DD_ERR"
	log_clear
	sites_trigger
}

# --- p

set_alpha +p
ktap_expect "p prints the message" "alpha one" "$(log_lines 'alpha one')"
ktap_expect "sites without p print nothing" "" \
	"$(log_lines 'alpha two'; log_lines 'beta ')"
if dmesg -r >/dev/null 2>&1; then
	ktap_check "the message is at KERN_DEBUG" \
		sh -c "dmesg -r | grep -q '^<7>.*alpha one'"
else
	ktap_skip "the message is at KERN_DEBUG" "dmesg has no -r"
fi

alpha_two_formatted()
{
	log_lines 'alpha two' | grep -qE '^alpha two n=[0-9]+$'
}
set_site 'alpha two' +p
WHY=$(log_lines 'alpha two')
ktap_check "%d arguments are formatted" alpha_two_formatted

dd_write "module $M format 'alpha one' +p"
dd_write "module $M format 'alpha one' -p"
log_clear
sites_trigger
ktap_expect "-p stops the printing" "" "$(log_lines 'alpha one')"

# --- decorations, one at a time and all together

set_alpha =pm
ktap_expect "m prefixes the module name" "$M: alpha one" \
	"$(log_lines 'alpha one')"
set_alpha =pf
ktap_expect "f prefixes the function name" "sites_alpha: alpha one" \
	"$(log_lines 'alpha one')"
set_alpha =ps
ktap_expect "s prefixes the source file" "$P: alpha one" \
	"$(log_lines 'alpha one')"
set_alpha =pl
ktap_expect "l prefixes the line number" "$L: alpha one" \
	"$(log_lines 'alpha one')"
set_alpha =pt
ktap_expect "t prefixes the thread id" "[$$] alpha one" \
	"$(log_lines 'alpha one')"
set_alpha =pmfslt
ktap_expect "all decorations in the order t m f s l" \
	"[$$] $M:sites_alpha:$P:$L: alpha one" "$(log_lines 'alpha one')"
set_alpha =plm
ktap_expect "=plm gives module and line" "$M:$L: alpha one" \
	"$(log_lines 'alpha one')"
set_alpha =mfslt
ktap_expect "decorations without p print nothing" "" \
	"$(log_lines 'alpha one')"

# --- operators

set_alpha =pm
dd_write "module $M format 'alpha one' +l"
ktap_expect "+ adds flags to the ones set" "=pml" "$(dd_flags "$M" 'alpha one')"
log_clear
sites_trigger
ktap_expect "added flag shows in the output" "$M:$L: alpha one" \
	"$(log_lines 'alpha one')"
dd_write "module $M format 'alpha one' =pmfl"
dd_write "module $M format 'alpha one' -f"
ktap_expect "- removes only the flags named" "=pml" \
	"$(dd_flags "$M" 'alpha one')"
dd_write "module $M format 'alpha one' =pt"
ktap_expect "= sets exactly the flags named" "=pt" \
	"$(dd_flags "$M" 'alpha one')"
dd_write "module $M format 'alpha one' +_"
ktap_expect "+_ changes nothing" "=pt" "$(dd_flags "$M" 'alpha one')"
dd_write "module $M format 'alpha one' =_"
ktap_expect "=_ clears every flag" "=_" "$(dd_flags "$M" 'alpha one')"
log_clear
sites_trigger
ktap_expect "a cleared site prints nothing" "" "$(log_lines 'alpha one')"

# --- d: a stack dump after the message ("Call Trace:", or "Call trace:"
# as arm64 spells it)

if has_flag d; then
	set_alpha =pd
	after=$(log_text | sed -n '/^alpha one$/,$p')
	case "$after" in
	*"Call "[Tt]"race:"*) ktap_ok "d dumps the stack after the message" ;;
	*) ktap_not_ok "d dumps the stack after the message" \
		"$(log_text | head -n 20)" ;;
	esac
	case "$after" in
	*sites_alpha*) ktap_ok "the stack dump shows the calling function" ;;
	*) ktap_not_ok "the stack dump shows the calling function" \
		"$(log_text | head -n 40)" ;;
	esac
	set_alpha =p
	ktap_expect "without d there is no stack dump" "" \
		"$(log_text | grep -i 'call trace:')"
else
	ktap_skip "d dumps the stack after the message" "no flag d"
	ktap_skip "the stack dump shows the calling function" "no flag d"
	ktap_skip "without d there is no stack dump" "no flag d"
fi

# --- other kinds of sites

set_site 'delta device message' +p
ktap_expect "dev_dbg adds driver and device names" \
	"platform dyndbg-sites: delta device message" \
	"$(log_lines 'delta device message')"
set_site 'delta device message' =pmf
ktap_expect "dev_dbg decorations come before the device names" \
	"$M:sites_delta: platform dyndbg-sites: delta device message" \
	"$(log_lines 'delta device message')"
set_site 'delta hexdump' +p
ktap_expect "print_hex_dump_debug prints every row" \
	"delta hexdump: 00000000: 64 79 6e 64 62 67 00 01 02 03 04 05 06 07 08 09
delta hexdump: 00000010: 0a 0b 0c 0d" "$(log_lines 'delta hexdump')"
set_site 'delta ratelimited' +p
ktap_expect "pr_debug_ratelimited prints" "delta ratelimited" \
	"$(log_lines 'delta ratelimited')"
set_site 'beta one' +p
ktap_expect "%s arguments are formatted" "beta one s=bee" \
	"$(log_lines 'beta one')"

dd_reset "$M"
mod_unload "$M"
ktap_finish
