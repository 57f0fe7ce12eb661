#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of "make compat": run every step of the corpus (read from
# standard input) against the dynamic debug core of the running kernel and
# print, after each step, what a user could observe:
#
#   @C step ID CMD ARGS	the step
#   @C R RESULT		ok, an errno name, or rc=N for commands
#   @C C+ LINE / C- LINE	control lines added / removed since the last step
#   @C L <LEVEL>TEXT		kernel log lines the step produced (no timestamp)
#   @C O TEXT		what a shell or read step printed
#
# Usage: runner.sh CORPUS. The host (scripts/check.d/compat.sh) compares the
# transcripts of two kernels. Written for BusyBox ash.

DIR=/kselftest/dynamic_debug
. "$DIR/functions.sh"		# errno_of, mod_ko
T=/tmp/compat
DD=/sys/kernel/debug/dynamic_debug
CTL=$DD/control
[ -f "$CTL" ] || CTL=/proc/dynamic_debug/control
PROC_CTL=/proc/dynamic_debug/control
CONF=/etc/modprobe.d/compat.conf
NL='
'

mkdir -p "$T"
: >"$T/prev"

# Keep kernel messages off the console: they are collected from the log.
dmesg -n 1

# write_to FILE TEXT: one write(2) of TEXT; print the result.
write_to()
{
	local err

	# echo, unlike printf, reports a failed write(2) in BusyBox ash
	err=$( { echo -n "$2" > "$1"; } 2>&1 )
	err=$(errno_of "$err")
	echo "@C R ${err:-ok}"
}

# run_cmd CMD...: run a command, print its output and exit status.
run_cmd()
{
	local out rc

	out=$(eval "$*" 2>&1)
	rc=$?
	[ -z "$out" ] || printf '%s\n' "$out" | sed 's/^/@C O /'
	echo "@C R rc=$rc"
}

step_end()
{
	sort "$CTL" >"$T/cur"
	if ! cmp -s "$T/prev" "$T/cur"; then
		diff -U0 "$T/prev" "$T/cur" |
			sed -n -e '1,2d' -e 's/^+/@C C+ /p' -e 's/^-/@C C- /p'
		mv "$T/cur" "$T/prev"
	fi
	dmesg -c -r | sed -e 's/^\(<[0-9]*>\)\[[^]]*\] \{0,1\}/\1/' \
		-e 's/^/@C L /'
}

# do_step CMD ARGS: one step of the corpus.
do_step()
{
	local cmd=$1 arg m p len q

	shift
	arg=$*
	case "$cmd" in
	q)	# write ARG and a newline to the control file
		write_to "$CTL" "$arg$NL" ;;
	qn)	# write ARG without a newline
		write_to "$CTL" "$arg" ;;
	qe)	# write ARG with printf escapes (\n, \\, \t) interpreted
		write_to "$CTL" "$(printf '%b' "$arg")$NL" ;;
	qproc)	# write ARG and a newline to /proc/dynamic_debug/control
		write_to "$PROC_CTL" "$arg$NL" ;;
	qlong)	# qlong N QUERY: QUERY padded with blanks to N bytes
		len=${arg%% *} q=${arg#* }
		write_to "$CTL" "$(printf "%-$((len - ${#q} - 1))s" "") $q" ;;
	param)	# param MODULE NAME VALUE: write a module parameter
		set -- $arg; m=$1 p=$2; shift 2
		write_to "/sys/module/$m/parameters/$p" "$*$NL" ;;
	read)	# read FILE: print it
		run_cmd cat "$arg" ;;
	trig)	# trig MODULE: run every call site of MODULE (its do_prints)
		write_to "/sys/module/$arg/parameters/do_prints" "1$NL" ;;
	insmod)	# insmod MODULE ARGS: load by path
		set -- $arg; m=$1; shift
		run_cmd insmod "$(mod_ko "$m")" "$*" ;;
	modprobe) run_cmd modprobe "$arg" ;;
	rmmod)	run_cmd rmmod "$arg" ;;
	options) # options LINE: the only line of /etc/modprobe.d/compat.conf
		{ [ -n "$arg" ] && echo "$arg" >"$CONF"; } || rm -f "$CONF"
		echo "@C R ok" ;;
	rebind)	# rebind DRIVER DEVICE: unbind and bind, running remove/probe
		set -- $arg
		run_cmd "echo $2 > /sys/bus/platform/drivers/$1/unbind &&
			 echo $2 > /sys/bus/platform/drivers/$1/bind" ;;
	sh)	run_cmd "$arg" ;;
	*)	echo "@C R badstep($cmd)" ;;
	esac
}

# The boot log is kept for the corpus to grep; only the control listing
# of the boot state is compared.
dmesg -r >"$T/bootlog"
dmesg -c >/dev/null
echo "@C self $$"
printf '@C step initial - boot state\n@C R ok\n'
step_end
n=0
exec 3<"$1"
while IFS= read -r line <&3; do
	case "$line" in ''|'#'*) continue ;; esac
	id=${line%% *}
	rest=${line#* }
	cmd=${rest%% *}
	args=${rest#"$cmd"}
	args=${args# }
	n=$((n + 1))
	echo "@C step $id $rest"
	do_step "$cmd" "$args" </dev/null
	step_end
done
exec 3<&-
rm -f "$CONF"
echo "@C end $n"
