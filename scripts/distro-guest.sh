#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of make distro-check (scripts/distro-check.sh), run as
# /run.sh on a kernel built with Debian's config: load every module of the
# directories in /etc/distro-dirs, count the sites, time a func, file and
# module query (the ones with the most sites) and a read of control with
# the bench's timer, then run every kselftest on ours. Prints "info",
# "value" and "sample" lines as the bench does; exits with the number of
# failed kselftests.

CTL=/proc/dynamic_debug/control
REPS=5
kver=$(uname -r)
impl=$(cat /etc/dyndbg-impl)

dmesg -n 1
# The kernel's own module requests (crypto-crc32c for libcrc32c, which
# btrfs needs) run /sbin/modprobe, as on the distribution.
[ -e /sbin/modprobe ] || ln -s /bin/busybox /sbin/modprobe
echo "info kernel $kver"
echo "value sites_before $(grep -vc '^#' $CTL)"
loaded=0 failed=0
for d in $(cat /etc/distro-dirs); do
	for m in $(find "/lib/modules/$kver/kernel/$d" -name '*.ko' | sort); do
		n=$(basename "$m" .ko)
		if modprobe "$n" 2>/tmp/err; then
			loaded=$((loaded + 1))
		else
			failed=$((failed + 1))
			echo "info modprobe_failed:$n $(head -c 160 /tmp/err | tr '\n' ' ')"
		fi
	done
done
echo "value modules_loaded $loaded"
echo "value modules_failed $failed"
echo "value modules_listed $(wc -l </proc/modules)"
echo "value control_lines $(wc -l <$CTL)"
echo "value sites $(grep -vc '^#' $CTL)"

# most COLUMN-EXPRESSION: the most frequent value of a control field.
most() { sed -n "$1" $CTL | sort | uniq -c | sort -rn | head -n 1 | awk '{ print $2, $1 }'; }
set -- $(most 's/^[^ ]* \[\([^]]*\)\].*/\1/p')
mod=$1 mod_sites=$2
set -- $(most 's/^\([^:]*\):.*/\1/p')
file=$1 file_sites=$2
set -- $(most 's/^[^ ]* \[[^]]*\]\([^ ]*\) .*/\1/p')
func=$1 func_sites=$2
echo "info target_func $func $func_sites"
echo "info target_file $file $file_sites"
echo "info target_module $mod $mod_sites"
ddbench query $CTL $REPS func_on "func $func +p" func_off "func $func -p"
ddbench query $CTL $REPS file_on "file $file +p" file_off "file $file -p"
ddbench query $CTL $REPS module_on "module $mod +p" module_off "module $mod -p"
ddbench read $CTL $REPS control

if [ "$impl" = ours ]; then
	run-tests kselftests
	echo "value kselftests_failed $?"
fi
exit 0
