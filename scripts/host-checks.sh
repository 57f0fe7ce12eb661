#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host checks, as KTAP: checkpatch --strict (waivers: scripts/checkpatch-exceptions)
# on every C file, header and selftest script we ship (tools/dyndbg too,
# which must also build warning-free), kernel-doc on the C ones; sparse and
# W=1 for the core's objects, that patch 0007's text poking still reads
# back what it writes (textpoke-readback.py), where and how the names
# records are laid out, the jump-label NOP shape of a test module
# (nop-shape.sh), and how the KCSAN kernel's reports are sorted.

set -uo pipefail
cd "$(dirname "$0")/.." && . scripts/lib.sh || exit 1
setup "$IMPL"
. "$KTAP_HELPERS"

ktap_print_header
for f in include/linux/dynamic_debug.h include/trace/events/dyndbg.h lib/dynamic_debug/*.[ch] \
	"$SELFTEST_DIR"/test_modules/*.[ch] "$SELFTEST_DIR"/fuzz/*.c "$SELFTEST_DIR"/*.sh \
	tools/dyndbg/*.[ch]; do
	ignore=$(awk -v f="$f" '$1 == f { printf "%s%s", sep, $2; sep = "," }' scripts/checkpatch-exceptions)
	ktap_verdict "checkpatch --strict $f" "$(perl "$PRISTINE/scripts/checkpatch.pl" --strict --no-tree \
		--quiet --no-summary --show-types ${ignore:+--ignore "$ignore"} -f "$f" 2>&1)"
	[[ $f = *.sh ]] ||
		ktap_verdict "kernel-doc $f" "$(perl "$PRISTINE/scripts/kernel-doc" -none -Wall "$f" 2>&1)"
done

tool_out=$(mktemp -d)
ktap_verdict "tools/dyndbg builds with -Wall -Wextra, no warning" \
	"$(make -s -C tools/dyndbg OUTPUT="$tool_out/" CFLAGS='-O2 -Werror' 2>&1)"
rm -rf "$tool_out"

if [ "$IMPL" = ours ]; then
	# C=2 runs sparse without recompiling; .s targets compile with W=1
	# without touching the objects the kernel links.
	ktap_verdict "sparse (C=2) lib/dynamic_debug" \
		"$(kmake C=2 lib/dynamic_debug/ 2>&1 | grep -E '(warning|error):' | grep lib/dynamic_debug)"
	ktap_verdict "W=1 lib/dynamic_debug" "$(kmake W=1 $(ls lib/dynamic_debug/*.c | sed 's/\.c$/.s/') 2>&1 |
		grep -E '(warning|error):')"
	ktap_verdict "x86 text poking reads back every write (patch 0007)" \
		"$(scripts/textpoke-readback.py "$TREE/arch/x86/kernel/alternative.c")"
else
	ktap_test_skip "sparse and W=1 on lib/dynamic_debug: IMPL=$IMPL"
fi
# names_records KO: how the names records of KO were written: "data" when
# they are C objects (each has a symbol), "asm" when none has one.
names_records() {
	local n
	n=$(objdump -t "$1" | awk '$4 == ".init.dyndbg" && $NF != ".init.dyndbg"' | wc -l)
	objdump -h "$1" | grep -q ' \.init\.dyndbg ' || { echo none; return; }
	[ "$n" -gt 0 ] && echo data || echo asm
}
tm=$OUT/test_modules
what="names records: asm in test_dyndbg_sites.ko, C objects in test_dyndbg_driver.ko"
if [ "$IMPL" = ours ]; then
	ktap_verdict "$what" \
		"$(for m in sites:asm driver:data callers:data; do
			got=$(names_records "$tm/test_dyndbg_${m%%:*}.ko")
			[ "$got" = "${m#*:}" ] || echo "test_dyndbg_${m%%:*}.ko: $got, expected ${m#*:}"
		done)"
else
	ktap_test_skip "$what: upstream has no names records"
fi
# The names records are read in place as pointer-sized words: their
# section must be aligned on purpose, not by what precedes it.
what="names records: .init.dyndbg aligned to 8 in vmlinux.lds and in the modules"
if [ "$IMPL" = ours ]; then
	ktap_verdict "$what" \
		"$(lds=$(ls "$OBJ"/arch/*/kernel/vmlinux.lds)
		grep -o '[^;]*; *__start___dyndbg_names = \.' "$lds" | grep -q 'ALIGN(8)' ||
			echo "${lds#"$OBJ"/}: no ALIGN(8) right before __start___dyndbg_names"
		for m in sites driver; do
			al=$(readelf -SW "$tm/test_dyndbg_$m.ko" |
				awk '{ for (i = 1; i < NF; i++) if ($i == ".init.dyndbg") print $NF }')
			[ "${al:-0}" -ge 8 ] || echo "test_dyndbg_$m.ko: .init.dyndbg aligned to ${al:-?}"
		done)"
else
	ktap_test_skip "$what: upstream has no names records"
fi
# The KCSAN kernel's data race reports are sorted by their stacks (make
# matrix): a canned console with reports of both kinds, its first part
# (none of ours) and a copy cut inside a report.
fx=scripts/fixtures
ktap_verdict "kcsan-reports.py: data race reports sorted by their stacks" \
	"$(k() { python3 scripts/kcsan-reports.py "$1" $fx/kcsan-ours.syms 2>&1; echo "exit $?"; }
	diff -u <(cat $fx/kcsan-console.expected; echo 'exit 1') <(k $fx/kcsan-console.log)
	diff -u <(head -n 1 $fx/kcsan-console.expected; echo 'exit 0') \
		<(k <(sed '/^@@KTAP-BEGIN test-stress/q' $fx/kcsan-console.log))
	k <(sed '/by task 1201/q' $fx/kcsan-console.log) | tail -n 1 | grep -vx 'exit 2')"
ktap_group "jump-label NOP shape" scripts/nop-shape.sh "$OUT/test_modules/test_dyndbg_sites.ko"
ktap_set_plan $((KTAP_TESTNO - 1))
