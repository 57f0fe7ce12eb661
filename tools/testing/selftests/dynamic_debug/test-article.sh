#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Every example of "The dynamic debugging interface" (LWN, 2011), run on
# test_dyndbg_driver, a module laid out like a driver whose probe reports
# a made-up device on consecutive dev_dbg() lines. The device is unbound
# and bound again to run the probe after each query.

DIR=$(dirname "$0")
. "$DIR/functions.sh"

dd_begin 16 "$DRIVER_MOD"

D=$DRIVER_MOD
F=$DRIVER_FILE
A=$DRIVER_PROBE_FIRST
B=$DRIVER_PROBE_LAST
DEV="$DRIVER_NAME $DRIVER_DEV:"
PROBE_LOG="$DEV probing $DRIVER_NAME
$DEV reading ID register: 0x5a17
$DEV firmware version 3.0.1
$DEV found 4 channels
$DEV probe complete"

modprobe "$D"

# reprobe: clear the log, unbind and bind the device (from this shell, so
# the thread id is $$); OUT gets the driver's messages the log then holds.
reprobe()
{
	log_clear
	driver_rebind || ktap_diag "rebinding $DRIVER_DEV failed"
	OUT=$(log_lines "$DEV")
}

# article QUERY: write QUERY the way the article does, as separate words
# echoed into the control file (so no quoting inside it).
article()
{
	dd_reset "$D"
	# shellcheck disable=SC2086
	DD_ERR=$( { echo $1 > "$DD_CONTROL"; } 2>&1 ) ||
		ktap_diag "echo $1 failed: $DD_ERR"
}

# --- reading the control file

miss=
for l in $(seq "$A" "$B"); do
	case "$(dd_line_at "$D" "$l")" in
	*"$F:$l [$D]$DRIVER_PROBE_FN =_ \""*) ;;
	*) miss="$miss $l" ;;
	esac
done
ktap_expect "control lists the probe's call sites on lines $A-$B" "" "$miss"

reprobe
ktap_expect "nothing prints before a query" "" "$OUT"

# --- file X line N / file X line A-B

article "file $F line $A +p"
reprobe
ktap_expect "file $F line $A +p: one message" "$DEV probing $DRIVER_NAME" \
	"$OUT"

article "file $F line $A-$B +p"
reprobe
ktap_expect "file $F line $A-$B +p: the whole probe run" "$PROBE_LOG" \
	"$OUT"

article "file $F line $A-$B -p"
reprobe
ktap_expect "-p turns the output off again" "" "$OUT"

# --- file X function F

if has_keyword function; then
	article "file $F function $DRIVER_PROBE_FN +p"
	reprobe
	ktap_expect "file $F function $DRIVER_PROBE_FN +p" "$PROBE_LOG" \
		"$OUT"
else
	ktap_skip "file $F function $DRIVER_PROBE_FN +p" \
		"no keyword function (only func)"
fi
article "file $F func $DRIVER_PROBE_FN +p"
reprobe
ktap_expect "file $F func $DRIVER_PROBE_FN +p" "$PROBE_LOG" "$OUT"

# --- module M, format fmt, several selectors

article "module $D +p"
reprobe
ktap_expect "module $D +p: remove, register reads and probe" \
	"$DEV removing, 4 channels idle
$DEV reg 0x00 -> 0x5a17
$DEV reg 0x01 -> 0x0301
$PROBE_LOG" "$OUT"

article "module $D format channels +p"
reprobe
ktap_expect "format channels +p: every message about channels" \
	"$DEV removing, 4 channels idle
$DEV found 4 channels" "$OUT"

article "func $DRIVER_PROBE_FN format channels +p"
reprobe
ktap_expect "all selectors must match" "$DEV found 4 channels" "$OUT"

# --- flags: f l m t, =plm, -pflmt

C=$((A + 3))
article "file $F line $C +pft"
reprobe
ktap_expect "+pft adds thread id and function name" \
	"[$$] $DRIVER_PROBE_FN: $DEV found 4 channels" "$OUT"
dd_write "file $F line $C =plm"
ktap_expect "=plm sets exactly p, l and m" "=pml" \
	"$(dd_flags_at "$D" "$C")"
reprobe
ktap_expect "=plm output has module name and line number" \
	"$D:$C: $DEV found 4 channels" "$OUT"
dd_write "file $F line $C +pflmt"
dd_write "file $F line $C -pflmt"
ktap_expect "-pflmt clears every flag" "=_" "$(dd_flags_at "$D" "$C")"
reprobe
ktap_expect "-pflmt: the line no longer prints" "" "$OUT"

# --- the module's own init and exit

dd_write "module $D +p"
log_clear
mod_unload "$D"
ktap_check "exit message prints on unload" log_has "$D: driver unregistered"

ktap_finish
