#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Features that older kernels lack (skipped when absent): T records messages in the trace buffer,
# r rate limits a site, the hits file counts the calls of enabled sites,
# a saved control listing written back restores it, and the spellings of
# newer kernels (commas between words, '-' for '_' in module names).

DIR=$(dirname "$0")
. "$DIR/functions.sh"

require_control
require_feature "hits file" has_file hits
require_feature "flag r" has_flag r
require_module test_dyndbg_loop
ktap_plan 34

M=test_dyndbg_loop
PARAMS=/sys/module/$M/parameters
DD_PARAMS=/sys/module/dynamic_debug/parameters
HITS=$DD_DIR/hits
modprobe "$M"
modprobe "$SITES_MOD"

# run SITE N: run the module's SITE (plain, device, hexdump) N times.
run()
{
	echo "$2" > "$PARAMS/$1"
}

# set_plain FLAGS: give the loop's pr_debug() site exactly FLAGS.
set_plain()
{
	dd_write "module $M func loop_plain $1" ||
		ktap_diag "query 'func loop_plain $1' failed: $DD_ERR"
}

# --- T: the trace buffer

TRACE=$(tracefs_dir)
if [ -n "$TRACE" ] && [ -d "$TRACE/events/dyndbg" ]; then
	echo 1 > "$TRACE/events/dyndbg/enable"
	echo > "$TRACE/trace"
	log_clear
	set_plain =T
	run plain 1
	ktap_check "T records the message in the trace buffer" \
		trace_has "prdbg: loop plain 1"
	ktap_expect "T alone prints nothing to the log" "" \
		"$(log_lines 'loop plain')"

	echo > "$TRACE/trace"
	log_clear
	set_plain =pT
	run plain 1
	ktap_check "pT records the message" trace_has "prdbg: loop plain 1"
	ktap_expect "pT prints it to the log too" "loop plain 1" \
		"$(log_lines 'loop plain')"

	echo > "$TRACE/trace"
	set_plain =Tmf
	run plain 1
	ktap_check "decorations apply to the trace event" \
		trace_has "prdbg: $M:loop_plain: loop plain 1"

	echo > "$TRACE/trace"
	dd_write "module $M func loop_device =T"
	run device 1
	ktap_check "dev_dbg() sites record devdbg events with the device" \
		trace_has "devdbg: dyndbg-loop: loop device 1"

	echo > "$TRACE/trace"
	echo 0 > "$TRACE/events/dyndbg/enable"
	run plain 1
	ktap_expect "a disabled event records nothing" "" \
		"$(grep -F 'loop plain' "$TRACE/trace")"
	echo 1 > "$TRACE/events/dyndbg/prdbg/enable"
	echo 'msg ~ "*plain 7*"' > "$TRACE/events/dyndbg/prdbg/filter"
	set_plain =T
	run plain 8
	ktap_expect "events are filtered like any other" "prdbg: loop plain 7" \
		"$(grep -o 'prdbg: loop plain.*' "$TRACE/trace")"
	echo 0 > "$TRACE/events/dyndbg/prdbg/filter"
	echo 0 > "$TRACE/events/dyndbg/enable"
	dd_write "module $M =_"
	ktap_expect "T shows after the older letters in control" "=pdT" \
		"$(dd_write "module $M func loop_plain =dpT"; dd_flags_at $M \
		   "$(src_line test_dyndbg_loop.c '"loop plain')")"
	set_plain =_
else
	for d in "T records the message in the trace buffer" \
		 "T alone prints nothing to the log" "pT records the message" \
		 "pT prints it to the log too" \
		 "decorations apply to the trace event" \
		 "dev_dbg() sites record devdbg events with the device" \
		 "a disabled event records nothing" \
		 "events are filtered like any other" \
		 "T shows after the older letters in control"; do
		ktap_skip "$d" "no tracefs with dyndbg events"
	done
fi
if [ -n "$TRACE" ]; then
	ktap_skip "without tracing, T is refused" "this kernel has tracing"
else
	log_clear
	dd_write "module $M +T"
	WHY="$DD_ERRNO $(log_lines 'dyndbg:')"
	ktap_check "without tracing, T is refused" \
		sh -c "[ '$DD_ERRNO' = EINVAL ] && dmesg | grep -qF CONFIG_TRACING"
fi

# --- r: the rate limit

ktap_expect "the default rate limit is 10 messages per 5000 ms" "10 5000" \
	"$(cat "$DD_PARAMS/ratelimit_burst") $(cat "$DD_PARAMS/ratelimit_interval_ms")"
echo 5 > "$DD_PARAMS/ratelimit_burst"
echo 600000 > "$DD_PARAMS/ratelimit_interval_ms"
log_clear
set_plain =pr
run plain 100
ktap_expect "r lets a burst through in a tight loop" 5 \
	"$(log_count 'loop plain')"
echo 1 > "$DD_PARAMS/ratelimit_interval_ms"
sleep 1
log_clear
run plain 1
ktap_check "r reports how many it suppressed" \
	log_has "loop_plain: 95 callbacks suppressed"
ktap_expect "r lets messages through again after the interval" 1 \
	"$(log_count 'loop plain')"
echo 600000 > "$DD_PARAMS/ratelimit_interval_ms"
set_plain -r
log_clear
run plain 20
ktap_expect "-r stops limiting" 20 "$(log_count 'loop plain')"
set_plain +r
log_clear
run plain 20
ktap_expect "r set again starts a fresh burst" 5 "$(log_count 'loop plain')"
echo 10 > "$DD_PARAMS/ratelimit_burst"
echo 5000 > "$DD_PARAMS/ratelimit_interval_ms"
set_plain =_

# --- hit counts

# hits_of FORMAT: the count of the hits line whose format starts FORMAT.
hits_of()
{
	grep -F " [$M]" "$HITS" | grep -F " \"$1" | awk '{ print $1 }'
}

echo 0 > "$HITS"
ktap_expect "writing 0 to hits resets every count" "" \
	"$(grep -F " [$M]" "$HITS")"
set_plain =p
run plain 7
ktap_expect "a hit count equals the calls made" 7 "$(hits_of 'loop plain')"
set_plain =_
run plain 5
ktap_expect "a disabled site does not count" 7 "$(hits_of 'loop plain')"
dd_write "module $M func loop_hexdump =p"
run hexdump 3
ktap_expect "print_hex_dump_debug() sites count too" 3 \
	"$(hits_of 'loop hexdump')"
dd_write "module $M func loop_hexdump =_"
ktap_expect "after the count, a hits line is the site's control line" \
	"$(dd_line $M 'loop plain')" \
	"$(grep -F " [$M]" "$HITS" | grep -F 'loop plain' | cut -d' ' -f2-)"
set_plain =p
run plain 20
ktap_expect "every hits line starts with its count, for sort -n" 0 \
	"$(grep -vc '^[1-9][0-9]* [^ ]*:[0-9]* \[' "$HITS")"
dd_write_to "$HITS" 1
ktap_expect "hits refuses anything but 0" EINVAL "$DD_ERRNO"
echo 0 > "$HITS"
ktap_expect "hits lists nothing of a reset site" "" "$(hits_of 'loop plain')"
set_plain =_
rmmod "$M"
modprobe "$M"
ktap_expect "an unloaded module's counts go with it" "" \
	"$(grep -F " [$M]" "$HITS")"

# --- replaying a saved listing

SAVED=/tmp/dyndbg-saved.$$
dd_write "module $M func loop_plain =pmf; module $M func loop_device =pr"
dd_write "module $SITES_MOD format 'alpha one' =plt"
dd_write "func kobject_add_internal =pm"
grep -v ' =_ ' "$DD_CONTROL" > "$SAVED"
dd_write "module $M =_; module $SITES_MOD =_; func kobject_add_internal =_"
rmmod "$M"
modprobe "$M"
cat "$SAVED" > "$DD_CONTROL"
ktap_expect "a saved listing restores exactly the saved flags" \
	"$(cat "$SAVED")" "$(grep -v ' =_ ' "$DD_CONTROL")"

dd_write "module $M =_; module $SITES_MOD =_; func kobject_add_internal =_"
BEFORE=$(grep -v ' =_ ' "$DD_CONTROL")
N=$(wc -l < "$SAVED")
echo "nosuch.c:12 [$M]loop_gone =p \"gone\\n\"" >> "$SAVED"
log_clear
dd_write "$(cat "$SAVED")"
ktap_expect "a listing naming a missing site is refused" EINVAL "$DD_ERRNO"
ktap_check "the refusal names the query, line and site" \
	log_has "query $N (line $((N + 1))): no such site nosuch.c:12 [$M]loop_gone"
ktap_expect "a refused listing changes nothing" "$BEFORE" \
	"$(grep -v ' =_ ' "$DD_CONTROL")"
sed -i '$d' "$SAVED"
rmmod "$M"
log_clear
dd_write "$(cat "$SAVED")"
ktap_check "a listing of an unloaded module is refused" \
	log_has "module not loaded, for site"
modprobe "$M"
rm -f "$SAVED"

# --- spellings of newer kernels

dd_write "module,$M,func,loop_plain,=pl"
ktap_expect "commas separate words" "=pl" \
	"$(dd_flags $M 'loop plain')"
dd_write "module test-dyndbg-loop func loop_plain =m"
ktap_expect "dashes in module names are underscores" "=m" \
	"$(dd_flags $M 'loop plain')"
dd_write "module $M format 'loop plain,' =p"
ktap_expect "quoted values keep their commas" "=m" \
	"$(dd_flags $M 'loop plain')"
modprobe -r "$M"
modprobe "$M" dyndbg=func,loop_plain,+pf
ktap_expect "a comma-separated dyndbg= needs no quoting" "=pf" \
	"$(dd_flags $M 'loop plain')"

dd_reset "$M"
mod_unload "$M"
dd_reset "$SITES_MOD"
mod_unload "$SITES_MOD"
ktap_finish
