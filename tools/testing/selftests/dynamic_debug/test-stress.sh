#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Stress run: for STRESS_SECONDS (default 60), at the same time
#  - three writers, each owning one site of a module that stays loaded,
#    set random flags with '=' and remember the last ones they set;
#  - a fourth writer switches the sites of the modules coming and going;
#  - readers read control and enabled with small and odd read sizes and
#    check every line;
#  - a loader loads and unloads two test modules with dyndbg= arguments;
#  - a printer makes the test modules print and rebinds the driver, so one
#    CPU runs code whose sites another CPU is patching.
# Then: every write succeeded, no line was torn, no kernel report, no site
# listed more often than before, none of an unloaded module, and each
# owned site's flags are the last ones its writer set.

DIR=$(dirname "$0")
. "$DIR/functions.sh"

dd_begin 10 "$SITES_MOD" "$DRIVER_MOD" "$DEBUG_MOD"

SECONDS_LEFT=${STRESS_SECONDS:-60}
TMP=/tmp/dd-stress.$$
mkdir -p "$TMP"
DEBUG_FILE=test_dyndbg_debug.c
OWNED="$(src_line $DEBUG_FILE '"debug module says hello')
$(src_line $DEBUG_FILE '"debug module init')
$(src_line $DEBUG_FILE '"debug module exit')"
# Flag sets a writer cycles through; 'd' (stack dumps) would flood the log.
FLAG_SETS="p pm _ pflmt f ls pt mfs _ plt"

cpus=$(grep -c '^processor' /proc/cpuinfo)
ktap_diag "$cpus CPUs online for ${SECONDS_LEFT}s of stress"
mod_unload "$SITES_MOD"
mod_unload "$DRIVER_MOD"
modprobe "$DEBUG_MOD"
total_before=$(grep -vc '^#' "$DD_CONTROL")
# repeated_sites: the lines listed more than once, flags left out, with
# their counts. A static inline function in a header has one site per
# object that calls it (mptcp's protocol.h in Debian's kernel), so a
# line may repeat from the start; the stress must add no repeat.
repeated_sites() { grep -v '^#' "$DD_CONTROL" | sed 's/ =[^ ]* / /' | sort | uniq -cd; }
repeated_before=$(repeated_sites)
hung=/proc/sys/kernel/hung_task_timeout_secs
hung_was=$(cat $hung 2>/dev/null)
# A debug kernel reports any task blocked for 10 s, not 120.
[ -n "$hung_was" ] && echo 10 > $hung
dmesg -c > /dev/null
run_for "$SECONDS_LEFT"

# sorted FLAGS: the letters of FLAGS in a canonical order.
sorted() { echo "$1" | sed 's/./&\n/g' | sort | tr -d '\n'; }

# owner N LINE: write random flags to one site, remember the last set.
owner()
{
	local n=0 err=0 i=$1 fl k

	while running; do
		k=$(((i + n * 7) % 10 + 1))
		fl=$(echo $FLAG_SETS | cut -d' ' -f$k)
		if echo "module $DEBUG_MOD line $2 =$fl" > "$DD_CONTROL"; then
			echo "$fl" > "$TMP/owner.$2"
		else
			err=$((err + 1))
		fi
		n=$((n + 1))
	done
	echo "$n $err" > "$TMP/writer.$1"
}

# The loader's modules: a query per write, most of them matching nothing
# while the modules are away, which is no error.
switcher()
{
	local n=0 err=0 q

	while running; do
		for q in "module $SITES_MOD +mf" \
			 "file $DRIVER_FILE line $DRIVER_PROBE_FIRST-$DRIVER_PROBE_LAST +p" \
			 "module $SITES_MOD -mf; file $DRIVER_FILE -p"; do
			echo "$q" > "$DD_CONTROL" || err=$((err + 1))
			n=$((n + 1))
		done
	done
	echo "$n $err" > "$TMP/writer.4"
}

loader() { load_cycles +pm > "$TMP/loads"; }

printer()
{
	local n=0

	while running; do
		echo 1 > /sys/module/$DEBUG_MOD/parameters/do_prints
		mod_loaded "$SITES_MOD" && sites_trigger
		mod_loaded "$DRIVER_MOD" && driver_rebind
		n=$((n + 1))
	done 2> /dev/null
	echo "$n" > "$TMP/prints"
}

# reader FILE SIZE...: read FILE with each SIZE of read(2) in turn and
# count reads and bad lines (a missing header counts as one).
reader()
{
	local f=$1 n=0 bad=0 size b r t

	shift
	r=$TMP/read.${f##*/} t=$TMP/torn.${f##*/}
	[ -f "$f" ] || return 0
	while running; do
		for size in "$@"; do
			dd if="$f" of="$r" bs="$size" 2> /dev/null
			n=$((n + 1))
			case "$f" in
			*/control)
				[ "$(head -n 1 "$r")" = "$DD_HEADER" ] ||
					bad=$((bad + 1))
				;;
			esac
			b=$(grep -v '^#' "$r" | grep -cvE "$DD_LINE_RE")
			if [ "$b" != 0 ]; then
				bad=$((bad + b))
				grep -v '^#' "$r" | grep -vE "$DD_LINE_RE" |
					head -n 2 > "$t"
			fi
		done
	done
	echo "$n $bad" > "$TMP/reader.$(basename "$f")"
	[ -s "$t" ] && cat "$t" >> "$TMP/torn"
	rm -f "$r" "$t"
}

i=1
for line in $OWNED; do
	owner $i "$line" &
	i=$((i + 1))
done
switcher &
loader &
printer &
reader "$DD_CONTROL" 1 7 97 4093 &
reader "$DD_DIR/enabled" 3 61 1021 &
wait

# sum FILES...: the sums of the first and second fields of FILES.
sum() { cat "$@" 2> /dev/null | awk '{ a += $1; b += $2 } END { print a + 0, b + 0 }'; }
set -- $(sum "$TMP"/writer.*)
writes=$1 write_errors=$2
set -- $(sum "$TMP"/reader.*)
reads=$1 torn=$2
loads=$(cat "$TMP/loads")
prints=$(cat "$TMP/prints")
ktap_diag "stress: $writes writes, $reads reads, $loads load/unload rounds," \
	"$prints print rounds in ${SECONDS_LEFT}s on $cpus CPUs"

ktap_check "more than one CPU is online ($cpus)" test "$cpus" -gt 1
ktap_check "every part ran ($writes writes, $reads reads, $loads loads, $prints prints)" \
	test "$writes" -gt 0 -a "$reads" -gt 0 -a "$loads" -gt 0 -a "$prints" -gt 0
ktap_expect "every write succeeded" 0 "$write_errors"
[ -s "$TMP/torn" ] && WHY=$(cat "$TMP/torn")
ktap_check "no read returned a torn line or lost its header ($torn bad)" test "$torn" = 0
problems=$(log_reports 'WARNING:|BUG:|Oops|INFO: task .* blocked|UBSAN|list_(add|del) corruption')
WHY=$problems ktap_check "no kernel report in the log" test -z "$problems"

bad=
for line in $OWNED; do
	want=$(sorted "$(cat "$TMP/owner.$line")")
	got=$(sorted "$(dd_flags_at "$DEBUG_MOD" "$line" | tr -d =)")
	[ "$want" = "$got" ] || bad="$bad line $line: want =$want, got =$got;"
done
WHY=$bad ktap_check "each owned site has the flags its writer set last" test -z "$bad"

mod_unload "$SITES_MOD"
mod_unload "$DRIVER_MOD"
ktap_expect "no site of an unloaded module is listed" 0 \
	"$(grep -cE " \[($SITES_MOD|$DRIVER_MOD)\]" "$DD_CONTROL")"
ktap_expect "the registry is whole: as many sites as before" \
	"$total_before" "$(grep -vc '^#' "$DD_CONTROL")"
repeated=$(repeated_sites)
[ "$repeated" = "$repeated_before" ] ||
	WHY="before: $(echo "$repeated_before" | head -n 3) now: $(echo "$repeated" | head -n 3)"
ktap_check "no site is listed more often than before the stress" \
	test "$repeated" = "$repeated_before"
modprobe "$SITES_MOD"
ktap_expect "a module loaded afterwards lists each of its sites once" \
	"$SITES_COUNT" "$(dd_lines "$SITES_MOD" | sort -u | wc -l)"

mod_unload "$SITES_MOD"
dd_write "module $DEBUG_MOD =p"
[ -n "$hung_was" ] && echo "$hung_was" > $hung
rm -rf "$TMP"
ktap_finish
