#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tools/dyndbg, the command-line front-end, driven as users drive it: every
# command, its output and exit status, bad input, and that the state it
# changes for a while (run, trace) comes back; also the kernel's preview
# file it is built on, which must select as control does and change nothing.

DIR=$(dirname "$0")
. "$DIR/functions.sh"

require_control
[ -f "$DD_DIR/preview" ] || ktap_skip_all "no preview file beside control"
DYNDBG=$(command -v dyndbg) ||
	ktap_skip_all "the dyndbg tool is not installed (make -C tools/dyndbg)"
require_module "$SITES_MOD"
ktap_plan 53

M=$SITES_MOD
Q="module $M"
T=$(mktemp -d)
modprobe "$M"
dd_write "$Q =_"

# on_count: how many of M's sites have p.
on_count()
{
	dd_lines "$M" | grep -c ' =[^ ]*p'
}

# --- help and bad input

out=$($DYNDBG help)
ktap_check "help exits 0 and names every command" sh -c '
	for c in list on off set save restore diff top trace run persist doctor
	do echo "$1" | grep -q "dyndbg $c" || exit 1; done' - "$out"
ktap_check "help run shows the usage of run" \
	sh -c "$DYNDBG help run | grep -q 'run QUERY FLAGS -- COMMAND'"
err=$($DYNDBG frobnicate 2>&1); rc=$?
ktap_expect "unknown command: status 2" 2 "$rc"
ktap_check "unknown command: message names it" \
	sh -c 'echo "$1" | grep -q "unknown command .frobnicate."' - "$err"

# --- the preview file

exec 3<>"$DD_DIR/preview"
echo "$Q +p" >&3
prev=$(cat <&3)
exec 3>&-
ktap_expect "preview lists every site the query selects" \
	$((SITES_COUNT + 1)) "$(echo "$prev" | wc -l)"
ktap_expect "preview shows the flags the sites would get" \
	"$SITES_COUNT" "$(echo "$prev" | grep -c ' =p ')"
ktap_expect "preview changes nothing" 0 "$(on_count)"
ktap_check "preview rejects a bad query" \
	sh -c "! echo 'mdl $M +p' > $DD_DIR/preview 2>/dev/null"
ktap_check "preview of a bad query: the same message as control" \
	log_has "unknown keyword"
ktap_expect "preview of a bad query changes nothing" 0 "$(on_count)"
ktap_expect "preview has control's mode" \
	"$(stat -c %a "$DD_CONTROL")" "$(stat -c %a "$DD_DIR/preview")"

# --- list

ktap_expect "list QUERY: one line per site" "$SITES_COUNT" \
	"$($DYNDBG list "$Q" | wc -l)"
ktap_expect "list: every site of control" \
	"$(grep -vc '^#' "$DD_CONTROL")" "$($DYNDBG list | wc -l)"
json=$($DYNDBG --json list "$Q")
ktap_check "list --json: an array" \
	sh -c "echo '$json' | head -n 1 | grep -q '^\[' &&
	       echo '$json' | tail -n 1 | grep -q '^\]$'"
obj="^,*{\"file\":\".*\",\"line\":[0-9]*,\"module\":\"$M\","
obj="$obj\"function\":\"[^\"]*\",\"flags\":\"_\",\"format\":"
ktap_expect "list --json: one object per site, with its module" \
	"$SITES_COUNT" "$(echo "$json" | grep -c "$obj")"
ktap_expect "list --enabled: nothing on yet" "" "$($DYNDBG list --enabled "$Q")"

# --- on, off, set, --dry-run

out=$($DYNDBG on --dry-run "$Q" | tail -n 1)
ktap_expect "on --dry-run: says what would change" \
	"$SITES_COUNT sites matched, $SITES_COUNT would change" "$out"
ktap_expect "on --dry-run changes nothing" 0 "$(on_count)"
dry=$($DYNDBG on --dry-run "$Q" | grep -v 'sites matched')
out=$($DYNDBG on "$Q")
ktap_expect "on: matched and changed" \
	"$SITES_COUNT sites matched, $SITES_COUNT changed" "$out"
ktap_expect "on: --dry-run listed what control now shows" \
	"$(dd_lines "$M")" "$dry"
ktap_expect "on again: nothing changed" \
	"$SITES_COUNT sites matched, 0 changed" "$($DYNDBG on "$Q")"
ktap_expect "list agrees with control" "$(dd_lines "$M")" "$($DYNDBG list "$Q")"
out=$($DYNDBG set "$Q func sites_init" =pmf)
ktap_check "set: applies exact flags" \
	sh -c "grep -F ' [$M]sites_init ' $DD_CONTROL | grep -q ' =pmf '"
$DYNDBG off "$Q" >/dev/null
ktap_expect "off: no site prints" 0 "$(on_count)"
err=$($DYNDBG on "mdl $M" 2>&1); rc=$?
ktap_check "bad query: non-zero status and a message" \
	[ "$rc" != 0 -a -n "$err" ]
ktap_expect "bad query changes nothing" 0 "$(on_count)"
out=$($DYNDBG on "module no_such_mod")
ktap_check "query of a module not loaded: says so, suggests persist" \
	sh -c "echo '$out' | grep -q 'not loaded' && echo '$out' | grep -q persist"

# --- save, diff, restore

dd_write "$Q func sites_init +p"
$DYNDBG save "$T/saved"
ktap_expect "save: the enabled sites" "$(dd_lines "$M" | grep -v ' =_ ')" \
	"$(grep -F " [$M]" "$T/saved")"
$DYNDBG diff "$T/saved" >/dev/null
ktap_expect "diff of an unchanged setup: status 0" 0 "$?"
dd_write "$Q =_"
dd_write "$Q func sites_exit +p"
out=$($DYNDBG diff "$T/saved"); rc=$?
ktap_check "diff of a changed setup: status 1 and both sides" \
	[ "$rc" = 1 -a "$(echo "$out" | grep -c '^[-+]')" -ge 2 ]
$DYNDBG restore "$T/saved" >/dev/null
ktap_expect "restore: the saved setup exactly" \
	"$(grep -F " [$M]" "$T/saved")" "$(dd_lines "$M" | grep -v ' =_ ')"
$DYNDBG restore "$T/no-such-file" 2>/dev/null
ktap_check "restore of an unreadable file fails" [ $? != 0 ]

# --- run

dd_write "$Q =_"
dd_write "$Q func sites_init =pf"
before=$(dd_lines "$M")
n=$($DYNDBG run "$Q" +p -- sh -c "grep -F ' [$M]' $DD_CONTROL | grep -c ' =[^ ]*p'")
ktap_expect "run: the sites are on while the command runs" "$SITES_COUNT" "$n"
ktap_expect "run: the exact flags come back" "$before" "$(dd_lines "$M")"
$DYNDBG run "$Q" +p -- sh -c 'exit 3'
ktap_expect "run: exits with the command's status" 3 "$?"
ktap_expect "run: flags come back after a failing command" "$before" \
	"$(dd_lines "$M")"
for sig in INT TERM; do
	$DYNDBG run "$Q" +p -- sleep 30 &
	pid=$!
	sleep 1
	kill -$sig "$pid"
	wait "$pid"
	ktap_expect "run: flags come back on SIG$sig" "$before" "$(dd_lines "$M")"
done

# --- top

dd_write "$Q +p"
echo 0 > "$DD_DIR/hits"
$DYNDBG top --once --interval 2 > "$T/top" &
pid=$!
sleep 1
sites_trigger
wait "$pid"
ktap_check "top --once: a site that fired, with its count" \
	grep -q " \[$M\]" "$T/top"
$DYNDBG top --once --interval 2 -n 1 > "$T/top1" 2>&1 &
pid=$!
sleep 1
sites_trigger
wait "$pid"; rc=$?
ktap_expect "top -n 1: exactly one site, status 0" "1 0" \
	"$(grep -c " \[$M\]" "$T/top1") $rc"
dd_write "$Q =_"

# --- trace

EV=
for t in /sys/kernel/tracing /sys/kernel/debug/tracing; do
	[ -f "$t/events/dyndbg/enable" ] && EV=$t/events/dyndbg/enable && break
done
if [ -n "$EV" ]; then
	ev_before=$(cat "$EV")
	$DYNDBG trace "$Q" > "$T/trace" &
	pid=$!
	sleep 1
	sites_trigger
	sleep 1
	kill -INT "$pid"
	wait "$pid"
	ktap_check "trace: streams the query's messages" grep -q 'alpha one' "$T/trace"
	ktap_expect "trace: flags come back on SIGINT" 0 \
		"$(dd_lines "$M" | grep -c ' =[^_ ]')"
	ktap_expect "trace: event state comes back" "$ev_before" "$(cat "$EV")"
else
	ktap_skip "trace: streams the query's messages" "no dyndbg trace events"
	ktap_skip "trace: flags come back on SIGINT" "no dyndbg trace events"
	ktap_skip "trace: event state comes back" "no dyndbg trace events"
fi

# --- persist

DYNDBG_MODPROBE_DIR=$T $DYNDBG persist "func sites_init" +p --module "$M" >/dev/null
ktap_expect "persist: the modprobe.d line" \
	"options $M dyndbg=\"func sites_init +p\"" "$(cat "$T/dyndbg.conf")"
ktap_expect "persist --list" "options $M dyndbg=\"func sites_init +p\"" \
	"$($DYNDBG persist --list --dir "$T")"
ktap_expect "persist --boot: command-line text, inner quotes single" \
	"$M.dyndbg=\"format 'a b' +p\"" \
	"$($DYNDBG persist format '"a b"' +p --module "$M" --boot)"
mkdir -p /etc/modprobe.d
$DYNDBG persist "func sites_init" +p --module "$M" --dir /etc/modprobe.d >/dev/null
mod_unload "$M"
modprobe "$M"
ktap_check "persist: applies at the module's next load" \
	sh -c "grep -F ' [$M]sites_init ' $DD_CONTROL | grep -q ' =p '"
$DYNDBG persist --remove "$M" --dir /etc/modprobe.d
$DYNDBG persist --remove "$M" --dir "$T"
ktap_expect "persist --remove" "" "$(cat "$T/dyndbg.conf")"

# --- doctor

dd_write "$Q =_"
out=$($DYNDBG doctor "$Q")
ktap_check "doctor: one verdict per line" \
	sh -c "echo '$out' | grep -qv '^ok \|^FAIL \|^note ' && exit 1 || exit 0"
ktap_check "doctor: counts the matched sites" \
	sh -c "echo '$out' | grep -q '^ok   query matches sites ($SITES_COUNT)'"
ktap_check "doctor: sites without p, with the fix" \
	sh -c "echo '$out' | grep -q '^FAIL sites have p set (0 of $SITES_COUNT): dyndbg on'"

# --- not root

if id nobody >/dev/null 2>&1; then
	err=$(su -s /bin/sh nobody -c "$DYNDBG on '$Q'" 2>&1); rc=$?
	ktap_check "not root: refused with a message" \
		sh -c "[ $rc != 0 ] && echo '$err' | grep -q 'permission denied'"
else
	ktap_skip "not root: refused with a message" "no user nobody"
fi
ktap_expect "not root: nothing changed" 0 "$(on_count)"

rm -rf "$T"
mod_unload "$M"
ktap_finish
