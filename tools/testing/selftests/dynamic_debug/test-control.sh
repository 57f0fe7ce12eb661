#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The control files as user space reads them: where they are, their modes,
# the header line, one line per site with its flags in a fixed order and
# its format escaped, and the read-only "enabled" list.

DIR=$(dirname "$0")
. "$DIR/functions.sh"

dd_begin 28 "$SITES_MOD"

modprobe "$SITES_MOD"
modprobe "$CLASS_MOD" 2>/dev/null	# classed sites for the listing, if any
M=$SITES_MOD

# --- where the files are, who may read them

ktap_check "control file in debugfs" \
	test -f /sys/kernel/debug/dynamic_debug/control
ktap_check "control file in /proc" test -f "$DD_PROC_CONTROL"

if [ -f "$DD_PROC_CONTROL" ]; then
	ktap_expect "/proc control lists the same sites" \
		"$(dd_lines "$M")" "$(grep -F " [$M]" "$DD_PROC_CONTROL")"
else
	ktap_not_ok "/proc control lists the same sites" "no $DD_PROC_CONTROL"
fi

# Kernels before the enabled file let every user read control (0644).
mode=$(stat -c %a "$DD_CONTROL")
if [ "$mode" = 644 ]; then
	ktap_skip "debugfs control mode is 0600" "control is 0644 on this kernel"
	ktap_skip "/proc control mode is 0600" "control is 0644 on this kernel"
else
	ktap_expect "debugfs control mode is 0600" 600 "$mode"
	ktap_expect "/proc control mode is 0600" 600 \
		"$(stat -c %a "$DD_PROC_CONTROL")"
fi

# --- the listing

ktap_expect "header line" "# filename:lineno [module]function flags format" \
	"$(head -n 1 "$DD_CONTROL")"

CLASS_TAIL='( class:[^ ]+| class unknown, _id:[0-9]+)?'
bad=$(sed 1d "$DD_CONTROL" |
	grep -vE '^[^ ]+:[0-9]+ \[[^] ]+\][^ ]+ =[a-zA-Z_]+ ".*"'"$CLASS_TAIL"'$' |
	head -n 5)
ktap_expect "every site line is 'file:line [module]function =flags \"format\"'" \
	"" "$bad"

ktap_expect "the module lists all its sites" "$SITES_COUNT" "$(dd_count "$M")"

ktap_expect "new sites start with no flags (=_)" "" \
	"$(dd_lines "$M" | grep -v ' =_ ')"

# Each known site at its line, in its function, with its format.
miss=
for want in \
	"$SITES_ALPHA1 [$M]sites_alpha =_ \"alpha one\\n\"" \
	"$SITES_ALPHA2 [$M]sites_alpha =_ \"alpha two n=%d\\n\"" \
	"$SITES_BETA1 [$M]sites_beta =_ \"beta one s=%s\\n\"" \
	"$SITES_BETA2 [$M]sites_beta =_ \"beta two x=0x%x\\n\"" \
	"$SITES_INIT1 [$M]sites_init =_ \"sites init start\\n\"" \
	"$SITES_INIT2 [$M]sites_init =_ \"sites init done\\n\"" \
	"$SITES_EXIT [$M]sites_exit =_ \"sites exit\\n\""; do
	dd_lines "$M" | grep -qF ":$want" || miss="$miss
$want"
done
ktap_expect "known sites at their lines, functions and formats" "" "$miss"

path=$(dd_path "$M")
case "$path" in
*/"$SITES_FILE"|"$SITES_FILE") ktap_ok "source path ends in $SITES_FILE" ;;
*) ktap_not_ok "source path ends in $SITES_FILE" "path: $path" ;;
esac

# --- escaping of formats

gamma_fmt()
{
	dd_lines "$M" | grep -F "]sites_gamma " | grep -F "$1" |
		sed 's/^[^"]*//'
}
ktap_expect "tab in a format shows as \\t" '"gamma tab\there\n"' \
	"$(gamma_fmt 'gamma tab')"
ktap_expect "newline in a format shows as \\n" \
	'"gamma newline\nsecond line\n"' "$(gamma_fmt 'gamma newline')"
ktap_expect "carriage return in a format shows as \\r" \
	'"gamma carriage\r return\n"' "$(gamma_fmt 'gamma carriage')"
ktap_expect "double quote in a format shows as is" \
	'"gamma quote "q" end\n"' "$(gamma_fmt 'gamma quote')"
ktap_expect "percent signs of a format show as written" \
	'"gamma percent 100%% done\n"' "$(gamma_fmt 'gamma percent')"

# --- other kinds of sites

ktap_check "print_hex_dump_debug site listed with its prefix as format" \
	control_has "[$M]sites_delta =_ \"delta hexdump: \""
ktap_check "pr_debug_ratelimited site listed" \
	control_has "[$M]sites_delta =_ \"delta ratelimited\\n\""
ktap_check "dev_dbg site listed" \
	control_has "[$M]sites_delta =_ \"delta device message\\n\""

# --- flags field

dd_write "module $M func sites_alpha =tlsfmp"
ktap_expect "flags are listed in the order p m f s l t" "=pmfslt" \
	"$(dd_flags "$M" 'alpha one')"

if has_flag d; then
	dd_write "module $M func sites_alpha =dtp"
	ktap_expect "stack dump flag d is listed last" "=ptd" \
		"$(dd_flags "$M" 'alpha one')"
	dd_write "module $M func sites_alpha -d"
else
	ktap_skip "stack dump flag d is listed last" "no flag d"
fi

dd_write "module $M func sites_alpha -pmfslt"
ktap_expect "no flags are listed as =_" "=_" "$(dd_flags "$M" 'alpha one')"

if [ -f "$DD_PROC_CONTROL" ] &&
   dd_write_to "$DD_PROC_CONTROL" "module $M func sites_beta +p"; then
	ktap_expect "/proc control accepts queries" "=p" \
		"$(dd_flags "$M" 'beta one')"
else
	ktap_not_ok "/proc control accepts queries" "$DD_ERR"
fi
dd_reset "$M"

# --- the enabled file

E=$DD_DIR/enabled
if has_file enabled; then
	ktap_check "enabled file beside control can be read" sh -c "cat $E > /dev/null"

	mode=$(stat -c %a "$E")
	if [ ! -f "$E" ]; then
		ktap_not_ok "enabled file is read-only" "no $E"
	elif ! echo "module $M +p" > "$E" 2>/dev/null &&
	   [ "$(dd_flags "$M" 'alpha one')" = "=_" ]; then
		case "$mode" in
		*[2367]*) ktap_not_ok "enabled file is read-only" "mode $mode" ;;
		*) ktap_ok "enabled file is read-only" ;;
		esac
	else
		ktap_not_ok "enabled file is read-only" "a write succeeded"
	fi

	dd_write "module $M format 'alpha one' +p"
	dd_write "module $M format 'beta two' +m"
	ktap_expect "enabled lists exactly the sites with flags" \
		"$(grep -v '^#' "$DD_CONTROL" | grep -v ' =_ ' | sort)" \
		"$(grep -v '^#' "$E" | sort)"
	ktap_expect "enabled lines are the control lines" \
		"$(dd_lines "$M" | grep -v ' =_ ')" "$(grep -F " [$M]" "$E")"

	dd_reset "$M"
	ktap_expect "a cleared site leaves enabled" "listed:" \
		"$(grep -qF " [$M]" "$DD_CONTROL" && echo listed):$(grep -F " [$M]" "$E" 2>&1)"
else
	for d in "enabled file beside control can be read" \
		"enabled file is read-only" \
		"enabled lists exactly the sites with flags" \
		"enabled lines are the control lines" \
		"a cleared site leaves enabled"; do
		ktap_skip "$d" "no enabled file"
	done
fi

mod_unload "$M"
mod_unload "$CLASS_MOD"
ktap_finish
