# SPDX-License-Identifier: GPL-2.0
#
# Build matrix, variant "builtin" (TEST_DYNAMIC_DEBUG=y): the *_NAMES class
# parameters of the built-in test_dynamic_debug, given on the command line
# (builtin.append), are parsed before the slab allocator exists; the boot
# completes and they apply once the sites are registered. The checks are
# boot-class-names.sh's, run here.

out=$(cd /selftests/dynamic_debug && sh ./boot-class-names.sh 2>&1)
rc=$?
printf '%s\n' "$out" | sed -n -e 's/^ok [0-9]* - /ok - builtin: /p' \
	-e 's/^not ok [0-9]* - /not ok - builtin: /p' -e 's/^# /# builtin: /p'
check "builtin: test_dynamic_debug is built in" \
	sh -c '! grep -q "^test_dynamic_debug " /proc/modules && [ -d /sys/module/test_dynamic_debug ]'
check "builtin: boot-class-names.sh passes (exit $rc)" test "$rc" = 0
