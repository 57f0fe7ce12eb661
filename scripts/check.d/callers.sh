#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# In-tree callers of the dynamic debug API compile against our core with
# Debian's 6.12 configuration, with no warning upstream does not have
# (scripts/callers.sh; KTAP). Runs under build/.lock from scripts/check.sh.

cd "$(dirname "$0")/../.." && exec scripts/callers.sh
