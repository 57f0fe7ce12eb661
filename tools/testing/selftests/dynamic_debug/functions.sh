#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Shared helpers of the dynamic debug selftests: KTAP output, the control
# file, the kernel log and the test modules. Sourced by test-*.sh and
# boot-*.sh; written for BusyBox ash (no bash).

# Sourced with DIR set to the directory of this file.
. "$DIR/../kselftest/ktap_helpers.sh"

# ------------------------------------------------------ known call sites --
# The sites of test_modules/*.c, found by their format strings in the
# sources, installed beside the tests (TEST_FILES) or in test_modules/.

# src_line FILE TEXT: the first line of test module source FILE holding TEXT.
src_line()
{
	local f=$DIR/test_modules/$1

	[ -f "$f" ] || f=$DIR/$1
	grep -nF -- "$2" "$f" | head -n 1 | cut -d: -f1
}

SITES_MOD=test_dyndbg_sites
SITES_FILE=test_dyndbg_sites.c
SITES_ALPHA1=$(src_line $SITES_FILE '"alpha one\n"')
SITES_ALPHA2=$(src_line $SITES_FILE '"alpha two n=%d\n"')
SITES_BETA1=$(src_line $SITES_FILE '"beta one s=%s\n"')
SITES_BETA2=$(src_line $SITES_FILE '"beta two x=0x%x\n"')
SITES_GAMMA_FIRST=$(src_line $SITES_FILE '"gamma tab')	# tab, quote, newline,
SITES_GAMMA_LAST=$(src_line $SITES_FILE '"gamma percent')	# CR, percent
SITES_INIT1=$(src_line $SITES_FILE '"sites init start\n"')
SITES_INIT2=$(src_line $SITES_FILE '"sites init done\n"')
SITES_EXIT=$(src_line $SITES_FILE '"sites exit\n"')
SITES_COUNT=16		# every site of the module

DRIVER_MOD=test_dyndbg_driver
DRIVER_FILE=test_dyndbg_driver.c
DRIVER_PROBE_FN=dyndbg_demo_probe
DRIVER_PROBE_FIRST=$(src_line $DRIVER_FILE '"probing %s\n"')	# .. "probe complete\n",
DRIVER_PROBE_LAST=$(src_line $DRIVER_FILE '"probe complete\n"')	# consecutive
DRIVER_READREG_LINE=$(src_line $DRIVER_FILE '"reg 0x%02x -> 0x%04x\n"')
DRIVER_NAME=dyndbg-demo
DRIVER_DEV=dyndbg-demo.0

DEBUG_MOD=test_dyndbg_debug

CLASS_MOD=test_dynamic_debug

# ---------------------------------------------------------------- KTAP --
# Our names for the kernel's KTAP helpers (kselftest/ktap_helpers.sh),
# which print descriptions unquoted: globbing stays off while they do.

# ktap_plan N: print the version line and the plan.
ktap_plan()
{
	ktap_print_header
	ktap_set_plan "$1"
}

# ktap_skip_all REASON: nothing can run here; exit with KSFT_SKIP.
ktap_skip_all()
{
	ktap_print_header
	ktap_set_plan "0 # SKIP $*"
	exit "$KSFT_SKIP"
}

# ktap_diag TEXT...: a diagnostic line.
ktap_diag()
{
	set -f
	ktap_print_msg "$*"
	set +f
}

ktap_ok()
{
	set -f
	ktap_test_pass "$1"
	set +f
}

# ktap_not_ok DESC [WHY]: a failed check, with an optional diagnostic.
ktap_not_ok()
{
	set -f
	ktap_test_fail "$1"
	set +f
	[ -z "${2:-}" ] || printf '%s\n' "$2" | sed 's/^/# /'
}

# ktap_skip DESC REASON
ktap_skip()
{
	set -f
	__ktap_test ok "$1" "SKIP $2"
	set +f
	KTAP_CNT_SKIP=$((KTAP_CNT_SKIP + 1))
}

# ktap_check DESC COMMAND...: ok if COMMAND succeeds, not ok otherwise.
ktap_check()
{
	local desc=$1

	shift
	if "$@"; then
		ktap_ok "$desc"
	else
		ktap_not_ok "$desc" "${WHY:-}"
	fi
	WHY=
}

# ktap_expect DESC WANT GOT: ok if the two strings are equal.
ktap_expect()
{
	if [ "$2" = "$3" ]; then
		ktap_ok "$1"
	else
		ktap_not_ok "$1" "want: [$2]
got:  [$3]"
	fi
}

# ktap_finish: totals, then exit 0 if every planned check passed or was
# skipped, 1 otherwise (including a plan the script did not keep). A
# script that made no plan gets one for the checks it ran.
ktap_finish()
{
	local ran=$((KTAP_TESTNO - 1))

	[ "$KSFT_NUM_TESTS" != 0 ] || ktap_set_plan "$ran"
	[ "$ran" = "$KSFT_NUM_TESTS" ] ||
		ktap_print_msg "planned $KSFT_NUM_TESTS checks but ran $ran"
	ktap_finished
}

# --------------------------------------------------------- prerequisites --

DD_DIR=
DD_CONTROL=
DD_PROC_CONTROL=/proc/dynamic_debug/control

# require_control: find the control file or skip the whole script.
require_control()
{
	[ "$(id -u)" = 0 ] || ktap_skip_all "must be run as root"
	if [ -d /sys/kernel/debug ] &&
	   ! grep -q ' /sys/kernel/debug debugfs ' /proc/mounts; then
		mount -t debugfs none /sys/kernel/debug 2>/dev/null
	fi
	if [ -f /sys/kernel/debug/dynamic_debug/control ]; then
		DD_DIR=/sys/kernel/debug/dynamic_debug
	elif [ -f "$DD_PROC_CONTROL" ]; then
		DD_DIR=/proc/dynamic_debug
	else
		ktap_skip_all "no dynamic debug control file (CONFIG_DYNAMIC_DEBUG_CORE?)"
	fi
	DD_CONTROL=$DD_DIR/control
}

# require_module NAME: skip the whole script if NAME cannot be loaded, or
# if it has no call sites (with CONFIG_DYNAMIC_DEBUG_CORE alone, only code
# built with -DDYNAMIC_DEBUG_MODULE has them). Call require_control first.
require_module()
{
	local n

	mod_unload "$1"
	modprobe "$1" 2>/dev/null ||
		ktap_skip_all "module $1 is not available"
	n=$(dd_count "$1")
	mod_unload "$1"
	[ "$n" != 0 ] ||
		ktap_skip_all "module $1 has no call sites (built without dynamic debug)"
}

# dd_begin PLAN MODULE...: require the control file and each MODULE
# (skipping the whole script without them), then plan PLAN tests.
dd_begin()
{
	local plan=$1 m

	shift
	require_control
	for m in "$@"; do
		require_module "$m"
	done
	ktap_plan "$plan"
}

# ---------------------------------------------------------- features --
# Not every kernel's dynamic debug has everything the tests check: each
# probe below says whether this one has a feature, and a test that needs
# one it lacks skips, giving the probe's reason.

# has_file NAME: the control file has a sibling NAME ("enabled", "hits").
has_file()
{
	[ -f "$DD_DIR/$1" ]
}

# has_flag LETTER: queries take flag LETTER (the probe removes it from a
# function no site has, so nothing changes).
has_flag()
{
	dd_write "func dd_probe_no_such_function -$1"
}

# has_keyword WORD: queries take WORD as a keyword naming a function.
has_keyword()
{
	dd_write "$1 dd_probe_no_such_function -p"
}

# all_or_nothing MODULE: a write whose second query is bad leaves the
# sites of MODULE (loaded, none of its sites with t) as they were.
all_or_nothing()
{
	local before

	before=$(dd_lines "$1")
	dd_write "module $1 +t
dd_probe_no_such_keyword x +p"
	[ "$(dd_lines "$1")" = "$before" ] && return 0
	dd_write "module $1 -t"
	return 1
}

# errors_name_query: the message for a bad query names it ("query 1").
errors_name_query()
{
	local n

	n=$(log_count "query 1")
	dd_write "dd_probe_no_such_keyword x +p"
	[ "$(log_count "query 1")" -gt "$n" ]
}

# has_replay: a line of the control listing, written back, is taken as a
# query for its site.
has_replay()
{
	dd_write "$(grep -v '^#' "$DD_CONTROL" | head -n 1)"
}

# insmod_runs_cmdline MODULE: a plain insmod of MODULE (unloaded again)
# runs the command line's MODULE.dyndbg=: a site is on, or the query is
# reported.
insmod_runs_cmdline()
{
	local n ran=

	n=$(log_count "$1.dyndbg")
	mod_unload "$1"
	insmod "$(mod_ko "$1")" 2>/dev/null || return 1
	if [ -n "$(dd_enabled_lines "$1")" ] ||
	   [ "$(log_count "$1.dyndbg")" -gt "$n" ]; then
		ran=1
	fi
	mod_unload "$1"
	[ -n "$ran" ]
}

# boot_param_known NAME: the kernel took NAME= from its command line (it
# did not pass it on to init as an unknown parameter).
boot_param_known()
{
	! log_lines 'Unknown kernel command line' | grep -qE "[\" ]$1="
}

# tracefs_dir: the directory of tracefs, mounted if it was not; nothing
# on a kernel without tracing.
tracefs_dir()
{
	local t

	for t in /sys/kernel/tracing /sys/kernel/debug/tracing; do
		[ -d "$t/events" ] && { echo "$t"; return 0; }
	done
	[ -d /sys/kernel/tracing ] &&
		mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null &&
		[ -d /sys/kernel/tracing/events ] && echo /sys/kernel/tracing
}

# trace_has TEXT: the trace buffer of tracefs directory $TRACE holds a
# line containing TEXT.
trace_has()
{
	grep -qF -- "$1" "$TRACE/trace"
}

# require_feature WHAT PROBE...: skip the whole script unless PROBE
# succeeds; WHAT names the feature in the reason.
require_feature()
{
	local what=$1

	shift
	"$@" || ktap_skip_all "this kernel has no $what"
}

# ---------------------------------------------------------- control file --

DD_ERR=
DD_ERRNO=

# dd_write TEXT: write TEXT (plus a newline) to the control file in one
# write(2). Returns the write's success; on failure DD_ERR holds the
# shell's message and DD_ERRNO the symbolic errno.
dd_write()
{
	dd_write_to "$DD_CONTROL" "$1"
}

# dd_write_to FILE TEXT: as dd_write, to another file.
dd_write_to()
{
	DD_ERR=$( { echo "$2" > "$1"; } 2>&1 )
	local rc=$?

	DD_ERRNO=$(errno_of "$DD_ERR")
	[ $rc = 0 ] && [ -z "$DD_ERR" ]
}

# errno_of MESSAGE: the symbolic errno of a shell error message.
errno_of()
{
	case "$1" in
	"")				echo "" ;;
	*"Invalid argument"*)		echo EINVAL ;;
	*"Argument list too long"*)	echo E2BIG ;;
	*"Permission denied"*)		echo EACCES ;;
	*"Operation not permitted"*)	echo EPERM ;;
	*"No such file"*)		echo ENOENT ;;
	*"No such device"*)		echo ENODEV ;;
	*"Read-only file system"*)	echo EROFS ;;
	*"Bad address"*)		echo EFAULT ;;
	*"Out of memory"*|*"Cannot allocate"*) echo ENOMEM ;;
	*"No space left"*)		echo ENOSPC ;;
	*"File exists"*)		echo EEXIST ;;
	*)				echo "other($1)" ;;
	esac
}

# dd_reset MODULE: clear the flags of every unclassed site of MODULE.
dd_reset()
{
	dd_write "module $1 =_" || ktap_diag "reset of $1 failed: $DD_ERR"
}

# dd_lines MODULE: the control lines of MODULE's sites.
dd_lines()
{
	grep -F " [$1]" "$DD_CONTROL"
}

# dd_line MODULE FORMAT: the control line of MODULE's site whose format
# starts with FORMAT (as shown in the control file, escapes included).
dd_line()
{
	dd_lines "$1" | grep -F " \"$2" | head -n 1
}

# dd_line_at MODULE LINE: the control line of MODULE's site at LINE.
dd_line_at()
{
	dd_lines "$1" | grep -E "^[^ ]*:$2 \[" | head -n 1
}

# dd_flags MODULE FORMAT: the flags field ("=pml") of that site.
dd_flags()
{
	dd_line "$1" "$2" | awk '{ print $3 }'
}

# dd_flags_at MODULE LINE: the flags field of MODULE's site at LINE.
dd_flags_at()
{
	dd_line_at "$1" "$2" | awk '{ print $3 }'
}

# dd_path MODULE: the source path MODULE's sites are listed under.
dd_path()
{
	dd_lines "$1" | head -n 1 | sed 's/:[0-9]* \[.*//'
}

# dd_enabled_lines MODULE [LETTER]: line numbers (sorted, space separated)
# of MODULE's unclassed sites whose flags hold LETTER (default p).
dd_enabled_lines()
{
	dd_lines "$1" | grep -v ' class:' |
		awk -v f="${2:-p}" '{
			split($1, a, ":");
			if (index(substr($3, 2), f)) print a[2]
		}' | sort -n | uniq | tr '\n' ' ' | sed 's/ $//'
}

# control_has TEXT: some control line contains TEXT.
control_has()
{
	grep -qF -- "$1" "$DD_CONTROL"
}

# A well-formed control line: path:line [module]function =flags "format"[ class...]
DD_LINE_RE='^[^ ]+:[0-9]+ \[[^]]+\][^ ]* =[a-zA-Z_]+ ".*"( class[: ].*)?$'
DD_HEADER='# filename:lineno [module]function flags format'

# dd_class_flags MODULE CLASS...: "CLASS=flags" of MODULE's first site of
# each CLASS. (The class test module numbers its DISJOINT_NAMES enum one
# above the map's base, so "LOW msg" is in class MID and "MID msg" in HI.)
dd_class_flags()
{
	local m=$1 out= n

	shift
	for n in "$@"; do
		out="$out $n$(dd_lines "$m" | grep " class:$n\$" | head -n 1 |
			awk '{ print $3 }')"
	done
	echo "${out# }"
}

# dd_count MODULE: how many sites MODULE has in the control file.
dd_count()
{
	dd_lines "$1" | wc -l | tr -d ' '
}

# ------------------------------------------------------------ kernel log --

# log_clear: empty the kernel ring buffer.
log_clear()
{
	dmesg -c > /dev/null
}

# log_text: the kernel log without timestamps.
log_text()
{
	dmesg | sed 's/^\[[^]]*\] \{0,1\}//'
}

# log_reports REGEX: the lines of the log (without timestamps) matching
# the extended REGEX, a test's kernel reports. With KCSAN_REPORTS=host
# (the build matrix's KCSAN guest, scripts/variants/kcsan.guest), data
# race reports are left out: the host reads their stacks from the console
# and fails the run for those in dynamic debug's code, not for 6.12's own.
log_reports()
{
	local skip='^$'

	[ "${KCSAN_REPORTS:-}" = host ] && skip='^BUG: KCSAN: '
	log_text | grep -E -- "$1" | grep -v -- "$skip"
}

# log_has TEXT: the log holds a line containing TEXT.
log_has()
{
	log_text | grep -qF -- "$1"
}

# log_has_line TEXT: the log holds a line that is exactly TEXT.
log_has_line()
{
	log_text | grep -qxF -- "$1"
}

# log_has_all TEXT...: some log line contains every TEXT.
log_has_all()
{
	local lines

	lines=$(log_text)
	for t in "$@"; do
		lines=$(printf '%s\n' "$lines" | grep -F -- "$t")
	done
	[ -n "$lines" ]
}

# log_count TEXT: how many log lines contain TEXT.
log_count()
{
	log_text | grep -cF -- "$1"
}

# log_lines TEXT: the log lines that contain TEXT.
log_lines()
{
	log_text | grep -F -- "$1"
}

# ------------------------------------------------------------- modules --

# mod_ko NAME: the path of NAME.ko.
mod_ko()
{
	find "/lib/modules/$(uname -r)" -name "$1.ko*" 2>/dev/null | head -n 1
}

mod_loaded()
{
	[ -d "/sys/module/$1" ] && grep -q "^$1 " /proc/modules
}

# mod_builtin NAME: NAME is built into the kernel (it cannot be loaded
# with arguments nor unloaded).
mod_builtin()
{
	[ -d "/sys/module/$1" ] && ! grep -q "^$1 " /proc/modules
}

# mod_unload NAME: remove NAME if it is loaded.
mod_unload()
{
	if mod_loaded "$1"; then
		rmmod "$1" 2>/dev/null || ktap_diag "rmmod $1 failed"
	fi
	return 0
}

# run_for SECONDS: from now on, running is true for SECONDS.
run_for() { DD_END=$(($(date +%s) + $1)); }
running() { [ "$(date +%s)" -lt "$DD_END" ]; }

# load_cycles FLAGS: while running, load the sites module with dyndbg=+p
# and the driver with FLAGS for its probe function, then unload both;
# print the number of rounds.
load_cycles()
{
	local n=0

	while running; do
		modprobe "$SITES_MOD" dyndbg=+p
		modprobe "$DRIVER_MOD" dyndbg="func $DRIVER_PROBE_FN $1"
		rmmod "$SITES_MOD"
		rmmod "$DRIVER_MOD"
		n=$((n + 1))
	done
	echo "$n"
}

# sites_trigger: run every site of the sites module once.
sites_trigger()
{
	echo 1 > "/sys/module/$SITES_MOD/parameters/do_prints"
}

# driver_rebind: unbind and bind the demo device, running remove and probe.
driver_rebind()
{
	local d=/sys/bus/platform/drivers/$DRIVER_NAME

	echo "$DRIVER_DEV" > "$d/unbind" && echo "$DRIVER_DEV" > "$d/bind"
}

# ---------------------------------------------------------- boot tests --

# require_cmdline TEXT: skip the whole script unless the kernel was booted
# with TEXT on its command line (see boot-tests.list).
require_cmdline()
{
	grep -qF -- "$1" /proc/cmdline ||
		ktap_skip_all "not booted with $1 (see boot-tests.list)"
}

# file_flags PATH: the distinct flags of the sites of source file PATH
# (relative to the source root, as listed), one per line.
file_flags()
{
	awk -v p="$1:" 'index($1, p) == 1 { print $3 }' "$DD_CONTROL" | sort -u
}

# file_flags_are PATH FLAGS: PATH has sites and all of them have FLAGS.
file_flags_are()
{
	local got

	got=$(file_flags "$1")
	WHY="$1: $(echo $got)"
	[ "$got" = "$2" ]
}
