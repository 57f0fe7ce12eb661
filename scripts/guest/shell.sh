#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Interactive shell for 'make shell'.
dmesg -n 7
echo "dyndbg: $(cat /etc/dyndbg-impl) core, kernel $(uname -r)."
echo "Control file: /sys/kernel/debug/dynamic_debug/control. Exit the shell to power off."
echo "kselftests: /kselftest/run_kselftest.sh -c dynamic_debug (or -t dynamic_debug:test-flags.sh)."
setsid cttyhack sh -l
