#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Boot test: boundaries of the boot parameters. Booted twice (see
# boot-tests.list); each check skips unless its parameter is on the
# command line:
#   - ddebug_query= of 1,023 characters and dyndbg= of 1,024 apply (the
#     limit is 4,095; older kernels refuse 1,024 and more);
#   - MODULE.dyndbg= of a loadable module runs once per load, whether
#     modprobe passes it as an argument or a plain insmod loads it, and is
#     kept only for loadable modules;
#   - a.b.dyndbg= is not a dyndbg parameter of a module "a.b": it is
#     ignored.

DIR=$(dirname "$0")
. "$DIR/functions.sh"

require_control
ktap_plan 7

D=$DRIVER_MOD

# value_of NAME: the double-quoted value of NAME= on the command line.
value_of()
{
	sed -n "s/.* $1=\"\\([^\"]*\\)\".*/\\1/p" /proc/cmdline
}

# absent: why a parameter is not on the command line. An unterminated
# quote means the kernel cut the line at its size limit (1,024 bytes on
# riscv64, 2,048 on x86_64 and arm64) before the parameter.
absent()
{
	if [ $(($(tr -cd '"' < /proc/cmdline | wc -c) % 2)) = 1 ]; then
		echo "not on the command line: the kernel cut it at" \
			"$(tr -d '\n' < /proc/cmdline | wc -c) bytes, its limit here"
	else
		echo "not on the command line"
	fi
}

# long_query NAME LENGTH FILE: NAME= of LENGTH characters enabled FILE.
long_query()
{
	local v

	v=$(value_of "$1")
	if [ -z "$v" ]; then
		ktap_skip "$1= of $2 characters applies" "$(absent)"
	elif [ "${#v}" != "$2" ]; then
		ktap_not_ok "$1= of $2 characters applies" \
			"boot-tests.list gives ${#v} characters"
	elif ! boot_param_known "$1"; then
		ktap_skip "$1= of $2 characters applies" "no $1= parameter"
	elif [ "$2" -ge 1024 ] && [ "$(file_flags "$3")" = "=_" ]; then
		ktap_skip "$1= of $2 characters applies" \
			"this kernel takes no query of $2 characters"
	else
		ktap_check "$1= of $2 characters applies" file_flags_are "$3" "=p"
	fi
}

long_query ddebug_query 1023 lib/kobject.c
long_query dyndbg 1024 kernel/async.c

# The boot's messages: before the checks below clear the log.
if grep -qF 'kobject.x.dyndbg=' /proc/cmdline; then
	ktap_expect "kobject.x.dyndbg= is ignored, not run for a module kobject.x" \
		"" "$(log_lines 'kobject.x.dyndbg:')"
else
	ktap_skip "kobject.x.dyndbg= is ignored, not run for a module kobject.x" \
		"$(absent)"
fi

if grep -qF "$D.dyndbg=" /proc/cmdline && insmod_runs_cmdline "$D"; then
	ktap_check "$D.dyndbg= is kept for the loadable $D" \
		log_has "$D.dyndbg: kept for when $D loads"
	ktap_expect "params.dyndbg= is not kept: params is built in" "" \
		"$(log_lines 'params.dyndbg: kept')"

	mod_unload "$D"
	log_clear
	modprobe "$D"
	ktap_expect "modprobe: the command line's bad query is reported once" 1 \
		"$(log_count 'unknown keyword "fiel"')"
	mod_unload "$D"

	log_clear
	insmod "$(mod_ko "$D")"
	ktap_expect "insmod: the remembered bad query is reported once" 1 \
		"$(log_count 'unknown keyword "fiel"')"
	mod_unload "$D"
else
	for d in "$D.dyndbg= is kept for the loadable $D" \
		"params.dyndbg= is not kept: params is built in" \
		"modprobe: the command line's bad query is reported once" \
		"insmod: the remembered bad query is reported once"; do
		ktap_skip "$d" "no $D.dyndbg= on the command line, or plain insmod does not run it"
	done
fi

ktap_finish
