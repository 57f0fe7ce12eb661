#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Placeholder demo: list enabled sites.
c=/sys/kernel/debug/dynamic_debug/control
grep -v ' =_ ' $c | head -20
