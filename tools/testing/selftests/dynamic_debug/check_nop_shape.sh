#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Host-side check of what a disabled dynamic debug site costs on x86_64:
# disassemble one function of a built test module and assert that its
# site is a single 5-byte jump-label NOP (0f 1f 44 00 00) on the straight
# path, and that the call to __dynamic_pr_debug() is out of line, past the
# function's return (or in another section), reached only through the
# NOP's jump target. Prints KTAP.
#
# Usage: check_nop_shape.sh MODULE.ko [FUNCTION]
#   FUNCTION defaults to sites_fill_report (test_dyndbg_sites.ko, built
#   -O2 so the shape is the one a distribution kernel gets).
#   OBJDUMP names the objdump to use (default: objdump).

KO=${1:-}
FUNC=${2:-sites_fill_report}
OBJDUMP=${OBJDUMP:-objdump}
PRINT_FN=__dynamic_pr_debug
NOP5="0f 1f 44 00 00"
NOP2="66 90"

PLAN=7
NUM=0
FAILED=0
SKIPPED=0

ok()
{
	NUM=$((NUM + 1))
	echo "ok $NUM - $1"
}

not_ok()
{
	NUM=$((NUM + 1))
	FAILED=$((FAILED + 1))
	echo "not ok $NUM - $1"
	[ -z "${2:-}" ] || printf '%s\n' "$2" | sed 's/^/# /'
}

# skip_rest REASON: report every check not yet run as skipped by REASON.
skip_rest()
{
	while [ "$NUM" -lt "$PLAN" ]; do
		NUM=$((NUM + 1))
		SKIPPED=$((SKIPPED + 1))
		echo "ok $NUM - check $NUM # SKIP $1"
	done
}

finish()
{
	echo "# Totals: pass:$((NUM - FAILED - SKIPPED)) fail:$FAILED xfail:0 xpass:0 skip:$SKIPPED error:0"
	[ "$FAILED" -eq 0 ]
	exit $?
}

echo "KTAP version 1"
if [ -z "$KO" ] || [ ! -f "$KO" ]; then
	echo "1..0 # SKIP usage: $0 MODULE.ko [FUNCTION] (no module '$KO')"
	exit 4
fi
if ! command -v "$OBJDUMP" >/dev/null 2>&1; then
	echo "1..0 # SKIP no $OBJDUMP"
	exit 4
fi
if ! "$OBJDUMP" -f "$KO" | grep -q 'x86-64'; then
	echo "1..0 # SKIP $KO is not an x86_64 object"
	exit 4
fi
echo "1..$PLAN"
echo "# $KO: function $FUNC"

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
"$OBJDUMP" -t "$KO" | awk -v f="$FUNC" '
	$3 == "F" && ($NF == f || index($NF, f ".") == 1) {
		print $NF, $4, $1, $5; exit
	}' > "$TMP/sym"
read -r SYM SECT START SIZE < "$TMP/sym"
if [ -z "$SYM" ]; then
	not_ok "$FUNC is in the module" "no function symbol $FUNC in $KO"
	skip_rest "no $FUNC"
	finish
fi
ok "$FUNC is in the module ($SYM in $SECT)"
START=$((0x$START))
END=$((START + 0x$SIZE))

# Disassembly of the function's section, addresses in decimal: "I ADDR
# BYTES... | INSTRUCTION" per instruction, "R ADDR TYPE SYMBOL" per
# relocation (objdump -w puts them on the instruction's line).
"$OBJDUMP" -dr -w -j "$SECT" "$KO" | awk "$AWK_HEX"'
	/^ *[0-9a-f]+:\t/ {
		n = split($0, a, "\t")
		addr = a[1]; sub(/^ */, "", addr); sub(/:$/, "", addr)
		bytes = a[2]; sub(/ *$/, "", bytes)
		print "I", hex(addr), bytes, "|", a[3], (n > 3 ? "@" a[5] : "")
		for (i = 4; i < n; i += 2) {	# "OFFSET: TYPE" "SYMBOL"
			r = a[i]; sub(/^ */, "", r); sub(/:.*/, "", r)
			print "R", hex(r), a[i], a[i + 1]
		}
	}' > "$TMP/dis"

# Jump table entries (code, target, key relative references, 16 bytes
# each): "CODE_SECTION CODE TARGET_SECTION TARGET", addresses in hex.
"$OBJDUMP" -r -j __jump_table "$KO" 2>/dev/null | awk '
	$2 ~ /^R_X86_64/ {
		off = $1; val = $3
		sym = val; add = "0"
		if (match(val, /[+-]0x[0-9a-f]+$/)) {
			sym = substr(val, 1, RSTART - 1)
			add = substr(val, RSTART + 1)
			if (substr(val, RSTART, 1) == "-")
				add = "-" add
		}
		print off, sym, add
	}' | while read -r off sym add; do
		o=$((0x$off % 16))
		a=$(printf '%d' "$add" 2>/dev/null || echo 0)
		case $o in
		0) printf '%s %d ' "$sym" "$a" ;;
		4) printf '%s %d\n' "$sym" "$a" ;;
		esac
	done > "$TMP/jt"

# Sites of the function: jump entries whose code lies inside it.
awk -v s="$SECT" -v lo="$START" -v hi="$END" \
	'$1 == s && $2 >= lo && $2 < hi' "$TMP/jt" > "$TMP/sites"
if [ ! -s "$TMP/sites" ]; then
	not_ok "$FUNC has a jump-label site" \
		"no __jump_table entry points into $SYM"
	skip_rest "no jump-label site in $FUNC"
	finish
fi
ok "$FUNC has a jump-label site ($(wc -l < "$TMP/sites") in __jump_table)"

# hexlist N...: the decimal numbers N as " 0x.." hex.
hexlist()
{
	for n in "$@"; do
		printf ' 0x%x' "$n"
	done
}

# insn_bytes ADDR: the bytes of the instruction at ADDR (decimal).
insn_bytes()
{
	awk -v a="$1" '$1 == "I" && $2 == a {
		sub(/^I [0-9]+ /, ""); sub(/ \|.*/, ""); print; exit }' \
		"$TMP/dis"
}

bad=
while read -r csect code tsect target; do
	b=$(insn_bytes "$code")
	[ "$b" = "$NOP5" ] || bad="$bad
site at 0x$(printf %x "$code"): [$b]"
done < "$TMP/sites"
if [ -z "$bad" ]; then
	ok "the disabled site is a 5-byte nopl ($NOP5)"
else
	not_ok "the disabled site is a 5-byte nopl ($NOP5)" "$bad"
fi

# The straight path ends at the function's first return: a ret, a jump to
# the return thunk, or a tail call (a jmp with a relocation).
RET=$(awk -v lo="$START" -v hi="$END" '
	$1 == "I" && $2 >= lo && $2 < hi && (/\| *ret/ || /\| *jmp.*@/) {
		print $2; exit
	}' "$TMP/dis")
[ -n "$RET" ] || RET=$END

# Calls (or tail jumps) to the print function inside FUNC.
awk -v lo="$START" -v hi="$END" -v fn="$PRINT_FN" '
	$1 == "R" && $2 >= lo && $2 < hi && index($0, fn) { print $2 }' \
	"$TMP/dis" > "$TMP/calls"
inline=$(awk -v lo="$START" -v r="$RET" '$1 >= lo && $1 < r' "$TMP/calls")
if [ -z "$inline" ]; then
	ok "no call to $PRINT_FN before $FUNC returns"
else
	not_ok "no call to $PRINT_FN before $FUNC returns" \
		"first return at 0x$(printf %x "$RET"); calls at:$(hexlist $inline)"
fi

bad=
while read -r csect code tsect target; do
	if [ "$tsect" = "$SECT" ] && [ "$target" -le "$RET" ]; then
		bad="$bad target 0x$(printf %x "$target")"
	fi
done < "$TMP/sites"
if [ -z "$bad" ]; then
	ok "the NOP's jump target is out of line (past the return)"
else
	not_ok "the NOP's jump target is out of line (past the return)" \
		"return at 0x$(printf %x "$RET"):$bad"
fi

# The out-of-line code the NOP jumps to reaches the print function.
reach=
while read -r csect code tsect target; do
	if [ "$tsect" = "$SECT" ]; then
		awk -v t="$target" -v hi="$END" '$1 >= t && $1 < hi' \
			"$TMP/calls" | grep -q . && reach="$reach y" ||
			reach="$reach n"
	else
		reach="$reach y"	# another section: the .cold part
	fi
done < "$TMP/sites"
case "$reach" in
*n*|"") not_ok "the jump target leads to the call of $PRINT_FN" \
	"calls at:$(hexlist $(cat "$TMP/calls"))" ;;
*) ok "the jump target leads to the call of $PRINT_FN" ;;
esac

# Every jump-label site of the module's text is a NOP: the 5-byte nopl or
# the 2-byte form objtool puts where the jump is a short one.
"$OBJDUMP" -dr -w "$KO" | awk "$AWK_HEX"'
	/^Disassembly of section / { s = $4; sub(/:$/, "", s) }
	/^ *[0-9a-f]+:\t/ {
		split($0, a, "\t")
		addr = a[1]; sub(/^ */, "", addr); sub(/:$/, "", addr)
		b = a[2]; sub(/ *$/, "", b)
		print s, hex(addr), b
	}' > "$TMP/all"
total=0
nops=0
others=
while read -r csect code tsect target; do
	total=$((total + 1))
	b=$(awk -v s="$csect" -v a="$code" '$1 == s && $2 == a {
		$1 = ""; $2 = ""; sub(/^ */, ""); print; exit }' "$TMP/all")
	case "$b" in
	"$NOP5"|"$NOP2") nops=$((nops + 1)) ;;
	*) others="$others
$csect+0x$(printf %x "$code"): [$b]" ;;
	esac
done < "$TMP/jt"
if [ "$total" -gt 0 ] && [ -z "$others" ]; then
	ok "all $total jump-label sites of the module are NOPs"
else
	not_ok "all jump-label sites of the module are NOPs" \
		"$nops of $total are NOPs$others"
fi

finish
