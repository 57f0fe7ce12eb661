#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Hostile and boundary input to the control files: every write is either
# applied exactly or refused with its errno and no change at all (the whole
# control listing is compared before and after), reads of "enabled" never
# show a stale site, and a user other than root can neither read nor write
# the files, in debugfs or in /proc.

DIR=$(dirname "$0")
. "$DIR/functions.sh"

require_control
require_module "$SITES_MOD"
require_feature "enabled file" has_file enabled
modprobe "$SITES_MOD"
all_or_nothing "$SITES_MOD" || {
	mod_unload "$SITES_MOD"
	ktap_skip_all "this kernel applies the good queries of a bad write"
}
ktap_plan 38

M=$SITES_MOD
TMP=/tmp/dd-robustness.$$
mkdir -p "$TMP"
Q=$TMP/query
DELTA_LINES=
for f in '"delta hexdump: "' '"delta ratelimited\n"' '"delta device message\n"' \
	'"filling report %u\n"'; do
	DELTA_LINES="$DELTA_LINES $(src_line $SITES_FILE "$f")"
done
ALL_LINES="$SITES_ALPHA1 $SITES_ALPHA2 $SITES_BETA1 $SITES_BETA2 \
$(seq -s ' ' "$SITES_GAMMA_FIRST" "$SITES_GAMMA_LAST")$DELTA_LINES \
$SITES_INIT1 $SITES_INIT2 $SITES_EXIT"

# put TEXT: TEXT, with printf %b escapes (\0 is a NUL byte), into $Q.
put()
{
	printf '%b' "$1" >"$Q"
}

# pad_to N PREFIX: PREFIX then 'a's, N bytes in all, into $Q.
pad_to()
{
	{
		printf '%s' "$2"
		head -c $(($1 - ${#2})) /dev/zero | tr '\0' a
	} >"$Q"
}

# write_q [BS]: write $Q to control in one write(2), or in writes of BS
# bytes. On failure DD_ERRNO holds the symbolic errno of the first one.
write_q()
{
	local out rc

	out=$(dd if="$Q" of="$DD_CONTROL" bs="${1:-65536}" 2>&1)
	rc=$?
	DD_ERR=$(printf '%s\n' "$out" | grep -v -e 'records' -e 'copied')
	DD_ERRNO=$(errno_of "$DD_ERR")
	[ $rc = 0 ]
}

# baseline: a known state, with flags that "=_" or "-p" would change.
baseline()
{
	dd_reset "$M"
	dd_write "module $M func sites_beta +pm"
	cat "$DD_CONTROL" >"$TMP/before"
	log_clear
}

# unchanged: the whole listing is as baseline left it.
unchanged()
{
	cat "$DD_CONTROL" >"$TMP/after"
	WHY=$(diff "$TMP/before" "$TMP/after" | grep '^[-+][^-+]' | head -n 4)
	[ -z "$WHY" ]
}

# expect_refused DESC ERRNO [BS]: writing $Q (after baseline) fails with
# ERRNO and changes nothing.
expect_refused()
{
	if write_q "${3:-}"; then
		ktap_not_ok "$1" "the write succeeded"
	elif [ "$DD_ERRNO" != "$2" ]; then
		ktap_not_ok "$1" "errno $DD_ERRNO, want $2: $DD_ERR"
	elif ! unchanged; then
		ktap_not_ok "$1" "control changed: $WHY"
	else
		ktap_ok "$1"
	fi
}

# refused DESC ERRNO TEXT: put TEXT, then expect_refused.
refused()
{
	baseline
	put "$3"
	expect_refused "$1" "$2"
}

# no_op DESC TEXT: writing TEXT succeeds and changes nothing.
no_op()
{
	baseline
	put "$2"
	if ! write_q; then
		ktap_not_ok "$1" "errno $DD_ERRNO: $DD_ERR"
	elif ! unchanged; then
		ktap_not_ok "$1" "control changed: $WHY"
	else
		ktap_ok "$1"
	fi
}

# applied DESC TEXT LINES: writing TEXT succeeds and leaves exactly LINES
# of the module with p.
applied()
{
	dd_reset "$M"
	put "$2"
	if write_q; then
		ktap_expect "$1" "$3" "$(dd_enabled_lines "$M")"
	else
		ktap_not_ok "$1" "errno $DD_ERRNO: $DD_ERR"
	fi
}

# --- a NUL byte: nothing after it may be ignored

refused "a write holding a NUL byte fails with EINVAL, nothing applied" \
	EINVAL "module $M +m\0fiel x +p\n"
refused "a NUL byte at the end of a valid write is refused too" \
	EINVAL "module $M =_\0"

# --- an empty format pattern would select every site

refused "format \"\" fails with EINVAL" EINVAL "module $M format \"\" =_\n"
refused "format \"\\\\000\" =_ fails with EINVAL, wipes nothing" EINVAL \
	'format "\\000" =_\n'
refused "format ^ (an anchor alone) fails with EINVAL" EINVAL \
	"module $M format ^ +p\n"
baseline
put "format '' =_\n"
write_q
ktap_check "an empty format is logged as such" \
	log_has_all "query 1" "empty pattern" "format"

# --- enabled: a read resumed after its site was switched off

dd_reset "$M"
dd_write "module $M func sites_alpha +p"
E=$DD_DIR/enabled
off=$(awk -v m=" [$M]" 'index($0, m) { print n; exit } { n += length($0) + 1 }' "$E")
if [ -n "$off" ]; then
	# One read of exactly the lines before the module's: the file stays
	# positioned on the module's first site, not yet shown.
	exec 3<"$E"
	dd bs="$off" count=1 <&3 >"$TMP/head" 2>/dev/null
	[ "$(wc -c <"$TMP/head")" = "$off" ] ||
		ktap_diag "short first read: $(wc -c <"$TMP/head") of $off bytes"
	dd_write "module $M func sites_alpha -p"
	cat <&3 >"$TMP/tail"
	exec 3<&-
	ktap_expect "enabled never lists a site switched off while a read paused on it" \
		"" "$(cat "$TMP/head" "$TMP/tail" | grep -F " [$M]" | grep -F ' =_ ')"
else
	ktap_not_ok "enabled never lists a site switched off while a read paused on it" \
		"the module's sites are not in $E"
fi

# --- boundaries: each input, its errno, and what changed

baseline
: >"$DD_CONTROL"
ktap_check "an empty write (open, no bytes, close) succeeds, changes nothing" \
	unchanged
no_op "a write of only a newline succeeds, changes nothing" "\n"
baseline
put "module $M +p\n"
expect_refused "a query written one byte at a time fails at once with EINVAL" \
	EINVAL 1

baseline
pad_to 4095 "module $M format 'alpha one' +p #"
if write_q; then
	ktap_expect "a write of 4095 bytes, the limit, is applied" "=p" \
		"$(dd_flags "$M" 'alpha one')"
else
	ktap_not_ok "a write of 4095 bytes, the limit, is applied" "$DD_ERR"
fi
baseline
pad_to 4096 "module $M format 'alpha one' +p #"
expect_refused "a write of 4096 bytes fails with E2BIG" E2BIG

no_op "only whitespace succeeds, changes nothing" " \t \n\t  \n"
no_op "only a comment succeeds, changes nothing" "# module $M =_\n"
applied "line 0 selects every line" "module $M line 0 +p\n" "$ALL_LINES"
refused "line 4294967296 fails with EINVAL" EINVAL \
	"module $M line 4294967296 =_\n"
applied "line - selects every line" "module $M line - +p\n" "$ALL_LINES"
applied "line 5- selects every line from 5" "module $M line 5- +p\n" \
	"$ALL_LINES"
applied "line N- selects the lines from N" "module $M line $SITES_INIT1- +p\n" \
	"$SITES_INIT1 $SITES_INIT2 $SITES_EXIT"
refused "line a-b fails with EINVAL" EINVAL "module $M line a-b =_\n"
refused "a keyword without its value fails with EINVAL" EINVAL \
	"module $M func =_\n"
refused "a keyword given twice fails with EINVAL" EINVAL \
	"module $M module $M =_\n"
refused "an unknown flag fails with EINVAL" EINVAL "module $M =pz\n"
refused "flags without an operator fail with EINVAL" EINVAL "module $M p\n"
no_op "an operator without flags succeeds, changes nothing" "module $M +\n"
baseline
{
	i=0
	while [ $i -lt 999 ]; do
		printf 'x '
		i=$((i + 1))
	done
	printf '=_\n'
} >"$Q"
expect_refused "1,000 words fail with EINVAL" EINVAL
refused "an unclosed double quote fails with EINVAL" EINVAL \
	"module $M format \"alpha =_\n"
refused "an unclosed single quote fails with EINVAL" EINVAL \
	"module $M format 'alpha =_\n"
no_op "class on a module without classes succeeds, changes nothing" \
	"module $M class D2_CORE =_\n"

# --- who may do what: root only, read and write, debugfs and /proc

USER_NAME=nobody
baseline
for f in "$DD_CONTROL" "$DD_DIR/enabled" "$DD_PROC_CONTROL" \
	 /proc/dynamic_debug/enabled; do
	if ! id "$USER_NAME" >/dev/null 2>&1; then
		ktap_skip "$USER_NAME cannot read $f" "no user $USER_NAME"
		ktap_skip "$USER_NAME cannot write $f" "no user $USER_NAME"
		continue
	fi
	err=$(su -s /bin/sh "$USER_NAME" -c "cat $f" 2>&1 >/dev/null)
	ktap_expect "$USER_NAME cannot read $f: EACCES" EACCES "$(errno_of "$err")"
	err=$(su -s /bin/sh "$USER_NAME" -c "echo 'module $M =_' > $f" 2>&1)
	ktap_expect "$USER_NAME cannot write $f: EACCES" EACCES \
		"$(errno_of "$err")"
done
ktap_check "the refused writes of $USER_NAME changed nothing" unchanged

dd_reset "$M"
mod_unload "$M"
rm -rf "$TMP"
ktap_finish
