#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Modules and dynamic debug: sites appear on load and go on unload, files
# with DEBUG defined start enabled, and the dyndbg= module parameter given
# to insmod, to modprobe or in /etc/modprobe.d is applied before the
# module's init runs, restricted to that module, with bad values reported
# but never stopping the load.

DIR=$(dirname "$0")
. "$DIR/functions.sh"

dd_begin 34 "$SITES_MOD"

M=$SITES_MOD
KO=$(mod_ko "$M")
CONF=/etc/modprobe.d/dyndbg-selftest.conf
ALL=

# fresh_insmod ARGS...: unload M, clear the log, insmod M with ARGS.
fresh_insmod()
{
	mod_unload "$M"
	log_clear
	insmod "$KO" "$@"
}

# fresh_modprobe MODULE ARGS...
fresh_modprobe()
{
	local mod=$1

	mod_unload "$mod"
	log_clear
	modprobe "$@"
}

# --- sites come and go with the module

mod_unload "$M"
ktap_expect "no sites before the module loads" 0 "$(dd_count "$M")"
modprobe "$M"
ktap_expect "sites appear when the module loads" "$SITES_COUNT" "$(dd_count "$M")"
ALL=$(dd_lines "$M" | sed 's/^[^:]*:\([0-9]*\) .*/\1/' | sort -n |
	tr '\n' ' ' | sed 's/ $//')
dd_write "module $M +p"
mod_unload "$M"
ktap_expect "sites go when the module unloads" 0 "$(dd_count "$M")"
modprobe "$M"
ktap_expect "flags are not kept across a reload" "" "$(dd_enabled_lines "$M")"

# --- DEBUG defined: sites start enabled

D=$DEBUG_MOD
fresh_modprobe "$D"
ktap_expect "sites of a DEBUG file start with p" "" \
	"$(dd_lines "$D" | grep -v ' =p ')"
ktap_check "its init message prints with no query" \
	log_has "debug module init, enabled by DEBUG"
log_clear
echo 1 > "/sys/module/$D/parameters/do_prints"
ktap_check "its sites print when run" log_has "debug module says hello"
dd_write "module $D -p"
log_clear
echo 1 > "/sys/module/$D/parameters/do_prints"
ktap_expect "-p silences them" "" "$(log_lines 'debug module says hello')"
dd_write "module $D +p"
log_clear
mod_unload "$D"
ktap_check "exit-time messages print" log_has "debug module exit"

# --- insmod m.ko dyndbg=...

if [ -z "$KO" ]; then
	ktap_diag "no $M.ko under /lib/modules/$(uname -r)"
	KO=/nonexistent/$M.ko
fi

fresh_insmod dyndbg=+p
ktap_check "insmod dyndbg=+p: init-time messages print" \
	log_has_line "sites init done"
ktap_expect "insmod dyndbg=+p: every site is on" "$ALL" \
	"$(dd_enabled_lines "$M")"
log_clear
mod_unload "$M"
ktap_check "insmod dyndbg=+p: the exit message prints" log_has_line "sites exit"

fresh_insmod dyndbg
ktap_check "insmod bare dyndbg means +p" log_has_line "sites init start"

fresh_insmod 'dyndbg="func sites_init +pm"'
ktap_check "insmod quoted query: init messages with module name" \
	log_has_line "$M: sites init start"
ktap_expect "insmod quoted query: other sites untouched" \
	"$SITES_INIT1 $SITES_INIT2" "$(dd_enabled_lines "$M")"

fresh_insmod 'dyndbg="func sites_init +p; func sites_alpha +l"'
ktap_expect "insmod with two queries applies both" \
	"$SITES_INIT1 $SITES_INIT2|$SITES_ALPHA1 $SITES_ALPHA2" \
	"$(dd_enabled_lines "$M")|$(dd_enabled_lines "$M" l)"

mod_unload "$DRIVER_MOD"
modprobe "$DRIVER_MOD"
fresh_insmod dyndbg=+p
ktap_expect "the query is restricted to the loading module" "" \
	"$(dd_enabled_lines "$DRIVER_MOD")"

fresh_insmod "dyndbg=\"module $DRIVER_MOD +p\""
ktap_expect "a query naming another module applies to it" \
	"$(dd_count "$DRIVER_MOD")|" \
	"$(dd_lines "$DRIVER_MOD" | grep -c ' =p ')|$(dd_enabled_lines "$M")"
mod_unload "$DRIVER_MOD"

# --- modprobe m dyndbg=... and /etc/modprobe.d

fresh_modprobe "$M" dyndbg=+pf
ktap_check "modprobe dyndbg=+pf: init messages with function name" \
	log_has_line "sites_init: sites init start"

# modprobe quotes a value holding spaces itself, as kmod does.
fresh_modprobe "$M" 'dyndbg=format init +p'
ktap_expect "modprobe with a quoted query" "$SITES_INIT1 $SITES_INIT2" \
	"$(dd_enabled_lines "$M")"

mkdir -p /etc/modprobe.d
echo "options $M dyndbg=+pm" > "$CONF"
fresh_modprobe "$M"
ktap_check "options in /etc/modprobe.d apply at load" \
	log_has_line "$M: sites init start"
echo "options $M dyndbg=\"func sites_init +pl\"" > "$CONF"
fresh_modprobe "$M"
ktap_check "quoted query in /etc/modprobe.d" \
	log_has_line "$SITES_INIT1: sites init start"
rm -f "$CONF"

# --- bad values never stop a load

fresh_insmod 'dyndbg="fiel x +p"'
ktap_check "insmod with a bad query still loads" mod_loaded "$M"
ktap_check "the bad query is logged" log_has "fiel"
ktap_expect "the bad query applies nothing" "|" \
	"$(dd_enabled_lines "$M")|$(log_lines 'sites init')"

fresh_modprobe "$M" dyndbg=+x
ktap_expect "modprobe with bad flags loads and applies nothing" "yes|" \
	"$(mod_loaded "$M" && echo yes)|$(dd_enabled_lines "$M")"

# all_or_nothing leaves $M loaded, with its sites as they were.
if all_or_nothing "$M"; then
	fresh_insmod 'dyndbg="+p; fiel x +p"'
	ktap_expect "a bad query cancels the good ones beside it" "yes||" \
		"$(mod_loaded "$M" && echo yes)|$(dd_enabled_lines "$M")|$(log_lines 'sites init')"
else
	ktap_skip "a bad query cancels the good ones beside it" \
		"this kernel applies the good queries of a bad write"
fi
mod_unload "$M"

# --- long queries: up to 1023 characters work

# pad N: N bytes of comment text.
pad()
{
	head -c "$1" /dev/zero | tr '\0' a
}

q="func sites_init +p #"
q="$q$(pad $((1023 - ${#q})))"
fresh_insmod "dyndbg=\"$q\""
ktap_expect "a 1023-character module query works" \
	"$SITES_INIT1 $SITES_INIT2" "$(dd_enabled_lines "$M")"
if all_or_nothing "$M"; then
	q="func sites_init +p #$(pad 5000)"
	fresh_insmod "dyndbg=\"$q\""
	ktap_expect "a 5000-character module query is refused, the module loads" \
		"yes||yes" "$(mod_loaded "$M" && echo yes)|$(dd_enabled_lines "$M")|$(
		log_has "$M" && echo yes)"
else
	ktap_skip "a 5000-character module query is refused, the module loads" \
		"this kernel applies the good queries of a bad write"
fi
mod_unload "$M"

# --- class parameters and dyndbg= of upstream's test_dynamic_debug

C=$CLASS_MOD
if ! mod_builtin "$C" && modprobe "$C" 2>/dev/null; then
	fresh_modprobe "$C" p_disjoint_bits=0x1
	ktap_expect "class bits at load print at init" "D2_CORE msg|" \
		"$(log_lines 'D2_CORE msg' | sed 's/^test_dd: //')|$(log_lines 'D2_DRIVER msg')"
	ktap_expect "class bits at load read back" 0x1 \
		"$(cat "/sys/module/$C/parameters/p_disjoint_bits")"
	fresh_modprobe "$C" dyndbg=+p
	ktap_expect "dyndbg=+p leaves classed sites alone" "yes|" \
		"$(log_has 'init start' && echo yes)|$(log_lines 'D2_CORE msg')"
	fresh_modprobe "$C" 'dyndbg=class D2_KMS +p'
	ktap_expect "dyndbg= with a class query" "yes|" \
		"$(log_has 'D2_KMS msg' && echo yes)|$(log_lines 'D2_CORE msg')"
	mod_unload "$C"
else
	for d in "class bits at load print at init" \
		"class bits at load read back" \
		"dyndbg=+p leaves classed sites alone" \
		"dyndbg= with a class query"; do
		ktap_skip "$d" "no loadable $C module"
	done
fi

# --- the driver-like module narrates its probe at load

fresh_modprobe "$DRIVER_MOD" dyndbg=+p
want="$DRIVER_MOD: registering the $DRIVER_NAME driver"
want="$want|$DRIVER_NAME $DRIVER_DEV: probe complete"
ktap_expect "driver init and probe messages at load" "$want" \
	"$(log_lines 'registering the')|$(log_lines 'probe complete')"
mod_unload "$DRIVER_MOD"

ktap_finish
