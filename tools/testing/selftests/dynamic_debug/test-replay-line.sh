#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A saved control listing, written back, restores each site's own flags,
# even for two sites on one source line (one macro expansion of
# test_modules/test_dyndbg_line.c): the listed format tells them apart.
# A listing line whose format no site at its place has is refused; one
# without its format sets every site at its place.

DIR=$(dirname "$0")
. "$DIR/functions.sh"

M=test_dyndbg_line
LINE=$(src_line test_dyndbg_line.c 'line_pair(n);')
ONE='line pair one\t'		# as the listing shows the formats
TWO='line pair two "'

require_control
require_feature "replay of listing lines" has_replay
require_module "$M"
ktap_plan 9

modprobe "$M"

# flags_of: the flags of site one and site two.
flags_of()
{
	echo "$(dd_flags $M "$ONE") $(dd_flags $M "$TWO")"
}

ktap_expect "both sites are listed at the line of the macro's use" \
	"$LINE $LINE" \
	"$(dd_lines $M | sed 's/^[^:]*:\([0-9]*\) .*/\1/' | tr '\n' ' ' |
		sed 's/ $//')"

dd_write "module $M format 'line pair one' =pm; module $M format 'line pair two' =pl"
SAVED=$(dd_lines $M)
ktap_expect "the two sites have different flags" "=pm =pl" "$(flags_of)"

dd_reset $M
dd_write "$SAVED" || ktap_diag "replay failed: $DD_ERR"
ktap_expect "a saved listing restores each site's own flags" "=pm =pl" \
	"$(flags_of)"

dd_reset $M
dd_write "$(printf '%s\n' "$SAVED" | sed -n '1!G;h;$p')" ||
	ktap_diag "replay failed: $DD_ERR"
ktap_expect "so does the listing in the other order" "=pm =pl" \
	"$(flags_of)"
ktap_expect "the listing reads back as it was saved" "$SAVED" "$(dd_lines $M)"

log_clear
echo 1 > /sys/module/$M/parameters/do_prints
ktap_check "each site prints with its own decorations" \
	log_has "$M: line pair one"
ktap_check "the other site too" log_has "$LINE: line pair two \"1\""

dd_reset $M
BEFORE=$(dd_lines $M)
dd_write "$(printf '%s\n' "$SAVED" | head -n 1 | sed 's/line pair/line pear/')"
ktap_expect "a listing line whose format no site has is refused" \
	"EINVAL $BEFORE" "$DD_ERRNO $(dd_lines $M)"

dd_write "$(printf '%s\n' "$SAVED" | head -n 1 | sed 's/ "line pair.*//')" ||
	ktap_diag "replay failed: $DD_ERR"
ktap_expect "a listing line without its format sets every site there" \
	"$(printf '%s\n' "$SAVED" | head -n 1 | awk '{ print $3, $3 }')" \
	"$(flags_of)"

dd_reset $M
mod_unload "$M"
ktap_finish
