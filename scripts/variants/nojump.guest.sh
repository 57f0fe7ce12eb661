# SPDX-License-Identifier: GPL-2.0
#
# Build matrix, variant "nojump" (JUMP_LABEL=n): every kselftest of
# dynamic_debug passes, as with jump labels.

run_kselftests nojump ""
