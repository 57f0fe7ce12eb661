#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run every kselftest of dynamic_debug in the guest. Each script prints its
# own KTAP between markers the host parses; the exit status is the number
# of scripts that failed.

dir=/selftests/dynamic_debug
failed=0
for t in "$dir"/test-*.sh; do
	[ -f "$t" ] || continue
	name=$(basename "$t")
	echo "@@KSELFTEST-BEGIN $name@@"
	(cd "$dir" && sh "./$name")
	rc=$?
	echo "@@KSELFTEST-END $name rc=$rc@@"
	[ $rc = 0 ] || [ $rc = 4 ] || failed=$((failed + 1))
done
exit $failed
