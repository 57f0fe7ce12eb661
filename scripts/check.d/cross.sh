#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The cross builds most at risk, ours against upstream 6.12 (a subset of
# make cross-check, objects only): 32-bit x86 and s390x, the names records
# in position-independent code (i386 and arm64 -fPIC, riscv64 -fPIE) and
# clang. Upstream's side comes from its records in scripts/cross-upstream/
# while their inputs are unchanged: only ours is compiled. CROSS_CHECK_TARGETS
# overrides the list. Prints KTAP.

CROSS_TARGETS=${CROSS_CHECK_TARGETS:-i386 s390x x86_64:llvm i386:pic arm64:pic riscv64:pie} \
	CROSS_WHOLE=0 exec "$(dirname "$0")/../cross-check.sh"
