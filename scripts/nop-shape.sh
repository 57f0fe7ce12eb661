#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host-side check of what a disabled dynamic debug site costs on x86_64:
# disassemble one function of a built test module and assert that its
# site is a single 5-byte jump-label NOP (0f 1f 44 00 00) on the straight
# path, and that the call to __dynamic_pr_debug() is out of line, past the
# function's return (or in another section), reached only through the
# NOP's jump target. Prints KTAP.
#
# Usage: scripts/nop-shape.sh MODULE.ko [FUNCTION (default sites_fill_report,
# of test_dyndbg_sites.ko, built -O2 as a distribution kernel is)]. OBJDUMP=.

KO=${1:-}
FUNC=${2:-sites_fill_report}
OBJDUMP=${OBJDUMP:-objdump}
PRINT_FN=__dynamic_pr_debug
NOP5="0f 1f 44 00 00"
NOP2="66 90"

. "$(dirname "$0")/lib.sh"
. "$KTAP_HELPERS"

# skip_rest REASON: report every check not yet run as skipped by REASON.
skip_rest()
{
	while [ "$KTAP_TESTNO" -le "$KSFT_NUM_TESTS" ]; do
		ktap_test_skip "check $KTAP_TESTNO: $1"
	done
	ktap_finished
}

ktap_print_header
if [ ! -f "$KO" ] || ! "$OBJDUMP" -f "$KO" | grep -q 'x86-64'; then
	ktap_skip_all "usage: $0 MODULE.ko [FUNCTION] (no x86_64 module '$KO')"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 7
ktap_print_msg "$KO: function $FUNC"

# A hex-to-decimal function for awk scripts (mawk lacks gawk's builtin).
AWK_HEX='function hex(s,  i, v) {
	v = 0; s = tolower(s); sub(/^0x/, "", s)
	for (i = 1; i <= length(s); i++)
		v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v
}'

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# The function's symbol (GCC may add .isra.0, .constprop.0, ...), section,
# start and size, from the symbol table.
"$OBJDUMP" -t "$KO" | awk -v f="$FUNC" '$3 == "F" && ($NF == f || index($NF, f ".") == 1) {
	print $NF, $4, $1, $5; exit }' > "$TMP/sym"
read -r SYM SECT START SIZE < "$TMP/sym"
if [ -z "$SYM" ]; then
	ktap_verdict "$FUNC is in the module" "no function symbol $FUNC in $KO"
	skip_rest "no $FUNC"
fi
ktap_test_pass "$FUNC is in the module ($SYM in $SECT)"
START=$((0x$START))
END=$((START + 0x$SIZE))

# Disassembly of the module, addresses in decimal: "I SECTION ADDR
# BYTES... | INSTRUCTION" per instruction, "R SECTION ADDR TYPE SYMBOL" per
# relocation (objdump -w puts them on the instruction's line).
"$OBJDUMP" -dr -w "$KO" | awk "$AWK_HEX"'
	/^Disassembly of section / { s = $4; sub(/:$/, "", s) }
	/^ *[0-9a-f]+:\t/ {
		n = split($0, a, "\t")
		addr = a[1]; sub(/^ */, "", addr); sub(/:$/, "", addr)
		bytes = a[2]; sub(/ *$/, "", bytes)
		print "I", s, hex(addr), bytes, "|", a[3], (n > 3 ? "@" a[5] : "")
		for (i = 4; i < n; i += 2) {	# "OFFSET: TYPE" "SYMBOL"
			r = a[i]; sub(/^ */, "", r); sub(/:.*/, "", r)
			print "R", s, hex(r), a[i], a[i + 1]
		}
	}' > "$TMP/dis"

# Jump table entries (code, target, key relative references, 16 bytes
# each): "CODE_SECTION CODE TARGET_SECTION TARGET", addresses in hex.
"$OBJDUMP" -r -j __jump_table "$KO" 2>/dev/null | awk "$AWK_HEX"'
	$2 ~ /^R_X86_64/ {
		sym = $3; add = 0
		if (match($3, /[+-]0x[0-9a-f]+$/)) {
			sym = substr($3, 1, RSTART - 1); add = hex(substr($3, RSTART + 1))
			if (substr($3, RSTART, 1) == "-") add = -add
		}
		if (hex($1) % 16 == 0) printf "%s %d ", sym, add
		else if (hex($1) % 16 == 4) printf "%s %d\n", sym, add
	}' > "$TMP/jt"

# Sites of the function: jump entries whose code lies inside it.
awk -v s="$SECT" -v lo="$START" -v hi="$END" \
	'$1 == s && $2 >= lo && $2 < hi' "$TMP/jt" > "$TMP/sites"
if [ ! -s "$TMP/sites" ]; then
	ktap_verdict "$FUNC has a jump-label site" "no __jump_table entry points into $SYM"
	skip_rest "no jump-label site in $FUNC"
fi
ktap_test_pass "$FUNC has a jump-label site ($(wc -l < "$TMP/sites") in __jump_table)"

# hexlist N...: the decimal numbers N as " 0x.." hex.
hexlist() { [ $# = 0 ] || printf ' 0x%x' "$@"; }

# insn_bytes SECTION ADDR: the bytes of the instruction at ADDR (decimal).
insn_bytes() {
	awk -v s="$1" -v a="$2" '$1 == "I" && $2 == s && $3 == a {
		sub(/^I [^ ]+ [0-9]+ /, ""); sub(/ \|.*/, ""); print; exit }' "$TMP/dis"
}

# in_func: the disassembly lines of FUNC, with the fields shifted left by
# one (the section dropped): "I ADDR ...", "R ADDR ...".
in_func() { awk -v s="$SECT" -v lo="$START" -v hi="$END" '$2 == s && $3 >= lo && $3 < hi { $2 = ""; print }' "$TMP/dis"; }

bad=
while read -r csect code tsect target; do
	b=$(insn_bytes "$csect" "$code")
	[ "$b" = "$NOP5" ] || bad="$bad
site at 0x$(printf %x "$code"): [$b]"
done < "$TMP/sites"
ktap_verdict "the disabled site is a 5-byte nopl ($NOP5)" "$bad"

# The straight path ends at the function's first return: a ret, a jump to
# the return thunk, or a tail call (a jmp with a relocation).
RET=$(in_func | awk '$1 == "I" && (/\| *ret/ || /\| *jmp.*@/) { print $2; exit }')
[ -n "$RET" ] || RET=$END

# Calls (or tail jumps) to the print function inside FUNC.
in_func | awk -v fn="$PRINT_FN" '$1 == "R" && index($0, fn) { print $2 }' > "$TMP/calls"
inline=$(awk -v lo="$START" -v r="$RET" '$1 >= lo && $1 < r' "$TMP/calls")
[ -z "$inline" ] || inline="first return at 0x$(printf %x "$RET"); calls at:$(hexlist $inline)"
ktap_verdict "no call to $PRINT_FN before $FUNC returns" "$inline"

bad=
while read -r csect code tsect target; do
	[ "$tsect" != "$SECT" ] || [ "$target" -gt "$RET" ] || bad="$bad target 0x$(printf %x "$target")"
done < "$TMP/sites"
[ -z "$bad" ] || bad="return at 0x$(printf %x "$RET"):$bad"
ktap_verdict "the NOP's jump target is out of line (past the return)" "$bad"

# The out-of-line code the NOP jumps to (in FUNC's section, or in another:
# the .cold part) reaches the print function.
reach=
while read -r csect code tsect target; do
	[ "$tsect" != "$SECT" ] || awk -v t="$target" -v hi="$END" '$1 >= t && $1 < hi' "$TMP/calls" |
		grep -q . || reach="calls at:$(hexlist $(cat "$TMP/calls"))"
done < "$TMP/sites"
ktap_verdict "the jump target leads to the call of $PRINT_FN" "$reach"

# Every jump-label site of the module's text is a NOP: the 5-byte nopl or
# the 2-byte form objtool puts where the jump is a short one.
total=0 nops=0 others=
while read -r csect code tsect target; do
	total=$((total + 1))
	b=$(insn_bytes "$csect" "$code")
	case "$b" in "$NOP5"|"$NOP2") nops=$((nops + 1)) ;; *) others="$others
$csect+0x$(printf %x "$code"): [$b]" ;; esac
done < "$TMP/jt"
[ "$total" -gt 0 ] && [ -z "$others" ] || others="$nops of $total are NOPs$others"
ktap_verdict "all $total jump-label sites of the module are NOPs" "$others"

ktap_finished
