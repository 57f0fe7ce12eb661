#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The control file under load: reads and writes racing with modules being
# loaded and unloaded must neither tear a line nor lose one of the sites
# that stay, and the registry must be whole when the dust settles. Any
# kernel warning, lockdep report or oops on the way fails the harness's
# console check as well.

DIR=$(dirname "$0")
. "$DIR/functions.sh"

dd_begin 7 "$SITES_MOD" "$DRIVER_MOD"

ROUNDS=${ROUNDS:-120}	# the debug kernel boots with ROUNDS=40 (much slower there)
TMP=/tmp/dd-concurrency.$$
mkdir -p "$TMP"


mod_unload "$SITES_MOD"
mod_unload "$DRIVER_MOD"
modprobe "$DEBUG_MOD" 2>/dev/null
stay_before=$(dd_count "$DEBUG_MOD")
total_before=$(grep -vc '^#' "$DD_CONTROL")

# Loader: load and unload two modules, over and over.
(
	i=0
	while [ $i -lt "$ROUNDS" ]; do
		modprobe "$SITES_MOD" dyndbg=+p
		modprobe "$DRIVER_MOD"
		rmmod "$SITES_MOD"
		rmmod "$DRIVER_MOD"
		i=$((i + 1))
	done
	echo done >"$TMP/loader-done"
) >/dev/null 2>&1 &
loader=$!

# Writer: queries that touch the modules coming and going.
(
	n=0
	while [ ! -f "$TMP/loader-done" ]; do
		echo "module $SITES_MOD +mf" >"$DD_CONTROL" || n=$((n + 1))
		echo "file $DRIVER_FILE line $DRIVER_PROBE_FIRST-$DRIVER_PROBE_LAST +p" \
			>"$DD_CONTROL" || n=$((n + 1))
		echo "module $SITES_MOD -mf" >"$DD_CONTROL" || n=$((n + 1))
	done
	echo $n >"$TMP/writer-errors"
) >/dev/null 2>&1 &
writer=$!

# Reader (this shell): reads of control and enabled, checked line by
# line, while the others run. Every other read uses small read(2) calls,
# so that a read resumes many times while the registry changes under it.
reads=0
torn=0
headerless=0
lost=0
while [ ! -f "$TMP/loader-done" ]; do
	if [ $((reads % 2)) = 0 ]; then
		cat "$DD_CONTROL" >"$TMP/read" 2>/dev/null
	else
		dd if="$DD_CONTROL" of="$TMP/read" bs=97 2>/dev/null
	fi
	reads=$((reads + 1))
	[ "$(head -n 1 "$TMP/read")" = "$DD_HEADER" ] ||
		headerless=$((headerless + 1))
	bad=$(sed 1d "$TMP/read" | grep -cvE "$DD_LINE_RE")
	if [ "$bad" != 0 ]; then
		torn=$((torn + bad))
		sed 1d "$TMP/read" | grep -vE "$DD_LINE_RE" | head -n 3 |
			sed 's/^/# torn: /'
	fi
	stay=$(grep -cF " [$DEBUG_MOD]" "$TMP/read")
	[ "$stay" = "$stay_before" ] || lost=$((lost + 1))
	if [ -f "$DD_DIR/enabled" ]; then
		cat "$DD_DIR/enabled" >"$TMP/enabled" 2>/dev/null
		bad=$(sed 1d "$TMP/enabled" | grep -cvE "$DD_LINE_RE")
		torn=$((torn + bad))
	fi
done
wait $loader
wait $writer

ktap_check "$reads reads of control ran alongside $ROUNDS load/unload rounds" \
	test "$reads" -gt 0
ktap_expect "every read started with the header line" 0 "$headerless"
ktap_expect "no read returned a torn or malformed line" 0 "$torn"
ktap_expect "no read lost a site of a module that stayed loaded" 0 "$lost"
ktap_expect "every racing write succeeded" 0 "$(cat "$TMP/writer-errors")"

mod_unload "$SITES_MOD"
mod_unload "$DRIVER_MOD"
ktap_expect "the registry is whole again: same number of sites as before" \
	"$total_before" "$(grep -vc '^#' "$DD_CONTROL")"

modprobe "$SITES_MOD"
ktap_expect "a module loaded afterwards lists all its sites" \
	"$SITES_COUNT" "$(dd_lines "$SITES_MOD" | wc -l)"
mod_unload "$SITES_MOD"
mod_unload "$DEBUG_MOD"
rm -rf "$TMP"
ktap_finish
