#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Interactive shell for 'make shell'.
dmesg -n 7
echo "dyndbg: $(cat /etc/dyndbg-impl) core, kernel $(uname -r)."
echo "Control file: /sys/kernel/debug/dynamic_debug/control. Exit the shell to power off."
setsid cttyhack sh -l
