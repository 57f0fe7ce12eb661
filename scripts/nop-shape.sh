#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host-side check of what a disabled dynamic debug site costs: disassemble
# one function of a built test module and assert that its site is a single
# jump-label NOP on the straight path (x86_64: the 5-byte nopl 0f 1f 44 00
# 00; arm64: nop; riscv64: the 4-byte nop its jump labels use even where
# compressed instructions are on; s390x: brcl 0,TARGET), and that the call to
# __dynamic_pr_debug() is out of line, past the function's return (or in
# another section), reached only through the NOP's jump target. Prints KTAP.
#
# Usage: scripts/nop-shape.sh MODULE.ko [FUNCTION (default sites_fill_report,
# of test_dyndbg_sites.ko, built -O2 as a distribution kernel is)]. OBJDUMP=
# and READELF= (default: GUEST_ARCH's, see lib.sh).

KO=${1:-}
FUNC=${2:-sites_fill_report}
PRINT_FN=__dynamic_pr_debug

. "$(dirname "$0")/lib.sh"
. "$KTAP_HELPERS"
OBJDUMP=${OBJDUMP:-${CROSS_COMPILE:-}objdump}
READELF=${READELF:-${CROSS_COMPILE:-}readelf}

# The module's architecture: its site NOP as objdump prints the bytes (a
# pattern), every form a NOP site may take ("|" between patterns; x86:
# also the 2-byte one objtool puts
# where the jump is a short one), the prefix of its relocation types, and
# what ends the straight path: a return, or a tail call (a jump with a
# relocation, "@" in the disassembly below).
ARCH_NAME=
case "$("$OBJDUMP" -f "$KO" 2>/dev/null | sed -n 's/.*file format //p')" in
elf64-x86-64)
	ARCH_NAME=x86_64 NOP="0f 1f 44 00 00" NOP_NAME="5-byte nopl" NOPS="0f 1f 44 00 00|66 90"
	REL=R_X86_64 END_RE='\\| *(ret|jmp.*@)' ;;
elf64-littleaarch64)
	ARCH_NAME=arm64 NOP=d503201f NOP_NAME=nop NOPS=$NOP
	REL=R_AARCH64 END_RE='\\| *(ret|b .*@)' ;;
elf64-littleriscv)
	ARCH_NAME=riscv64 NOP=00000013 NOP_NAME="4-byte nop" NOPS=$NOP
	REL=R_RISCV END_RE='\\| *(ret|jr )' ;;
elf64-s390)
	# brcl with an empty mask: a 6-byte branch that is never taken, whose
	# offset already names the target (patched to mask 15 to enable it).
	ARCH_NAME=s390x NOP="c0 04 ?? ?? ?? ??" NOP_NAME="brcl 0" NOPS=$NOP
	REL=R_390 END_RE='\\| *(br %r14|jg .*@)' ;;
esac

# skip_rest REASON: report every check not yet run as skipped by REASON.
skip_rest()
{
	while [ "$KTAP_TESTNO" -le "$KSFT_NUM_TESTS" ]; do
		ktap_test_skip "check $KTAP_TESTNO: $1"
	done
	ktap_finished
}

ktap_print_header
if [ ! -f "$KO" ] || [ -z "$ARCH_NAME" ]; then
	ktap_skip_all "usage: $0 MODULE.ko [FUNCTION] (no x86_64, arm64, riscv64 or s390x module '$KO')"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 7
ktap_print_msg "$KO ($ARCH_NAME): function $FUNC"

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
# BYTES... | INSTRUCTION [@SYMBOL]" per instruction, "R SECTION ADDR TYPE
# SYMBOL" per relocation (objdump -w puts them on the instruction's line,
# after the instruction: one field on x86, mnemonic and operands on the
# others).
"$OBJDUMP" -dr -w "$KO" | awk "$AWK_HEX"'
	/^Disassembly of section / { s = $4; sub(/:$/, "", s) }
	/^ *[0-9a-f]+:\t/ {
		n = split($0, a, "\t")
		addr = a[1]; sub(/^ */, "", addr); sub(/:$/, "", addr)
		bytes = a[2]; sub(/ *$/, "", bytes)
		for (r = 3; r <= n && a[r] !~ /^ *[0-9a-f]+: R_/; r++)
			;
		insn = a[3]
		for (i = 4; i < r; i++) insn = insn " " a[i]
		print "I", s, hex(addr), bytes, "|", insn, (r < n ? "@" a[r + 1] : "")
		for (i = r; i < n; i += 2) {	# "OFFSET: TYPE" "SYMBOL"
			r = a[i]; sub(/^ */, "", r); sub(/:.*/, "", r)
			print "R", s, hex(r), a[i], a[i + 1]
		}
	}' > "$TMP/dis"

# Local labels, "NAME SECTION VALUE" (decimal): riscv64's jump table names
# the site and its target by local labels, a pair of relocations per field
# (ADD of the label, SUB of the field's own place), where x86_64's and
# arm64's name their sections.
{ "$READELF" -SW "$KO"; "$READELF" -sW "$KO"; } | awk "$AWK_HEX"'
	/^ *\[ *[0-9]+\] / { sub(/^ *\[ */, ""); sub(/\]/, ""); sect[$1] = $2; next }
	$1 ~ /^[0-9]+:$/ && $4 == "NOTYPE" && ($7 in sect) { print $8, sect[$7], hex($2) }' > "$TMP/syms"

# Jump table entries (code, target, key relative references, 16 bytes
# each): "CODE_SECTION CODE TARGET_SECTION TARGET", addresses in decimal.
"$OBJDUMP" -r -j __jump_table "$KO" 2>/dev/null | awk -v rel="$REL" "$AWK_HEX"'
	index($2, rel) == 1 && $2 !~ /_SUB/ {
		sym = $3; add = 0
		if (match($3, /[+-]0x[0-9a-f]+$/)) {
			sym = substr($3, 1, RSTART - 1); add = hex(substr($3, RSTART + 1))
			if (substr($3, RSTART, 1) == "-") add = -add
		}
		if (hex($1) % 16 == 0) printf "%s %d ", sym, add
		else if (hex($1) % 16 == 4) printf "%s %d\n", sym, add
	}' | awk 'NR == FNR { sect[$1] = $2; val[$1] = $3; next }
	{
		for (i = 1; i <= 3; i += 2) if ($i in sect) { $(i + 1) += val[$i]; $i = sect[$i] }
		print
	}' "$TMP/syms" - > "$TMP/jt"

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
	# shellcheck disable=SC2053 # NOP is a pattern
	[[ $b == $NOP ]] || bad="$bad
site at 0x$(printf %x "$code"): [$b]"
done < "$TMP/sites"
ktap_verdict "the disabled site is a $NOP_NAME ($NOP)" "$bad"

# The straight path ends at the function's first return: a ret, a jump to
# the return thunk, or a tail call.
RET=$(in_func | awk -v re="$END_RE" '$1 == "I" && $0 ~ re { print $2; exit }')
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

# nop_form BYTES: whether BYTES match one of the patterns of NOPS.
nop_form() {
	local p pats

	IFS='|' read -ra pats <<<"$NOPS"
	for p in "${pats[@]}"; do
		# shellcheck disable=SC2053 # p is a pattern
		[[ $1 == $p ]] && return 0
	done
	return 1
}

# Every jump-label site of the module's text is a NOP, of a form NOPS names.
total=0 nops=0 others=
while read -r csect code tsect target; do
	total=$((total + 1))
	b=$(insn_bytes "$csect" "$code")
	if nop_form "$b"; then nops=$((nops + 1)); else others="$others
$csect+0x$(printf %x "$code"): [$b]"; fi
done < "$TMP/jt"
[ "$total" -gt 0 ] && [ -z "$others" ] || others="$nops of $total are NOPs$others"
ktap_verdict "all $total jump-label sites of the module are NOPs" "$others"

ktap_finished
