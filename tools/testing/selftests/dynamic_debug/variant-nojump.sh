#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# For a kernel built with JUMP_LABEL=n, TEST_DYNAMIC_DEBUG=y (variant
# "nojump" of the build matrix, scripts/check.d/matrix.sh): the *_NAMES
# class parameters of the built-in test_dynamic_debug, given on the
# command line (scripts/variants/nojump.append), are parsed before the slab allocator
# exists; the boot completes and they apply once the sites are registered.
# The checks of that are boot-class-names.sh's, which the matrix runs in
# this boot too, after every kselftest.

DIR=$(dirname "$0")
. "$DIR/functions.sh"

ktap_plan 1
ktap_check "nojump: test_dynamic_debug is built in" mod_builtin test_dynamic_debug
ktap_finish
