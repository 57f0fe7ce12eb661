#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Classes, with upstream's unchanged lib/test_dynamic_debug.ko: classed
# sites are listed with their class, "class NAME" queries and the class
# parameters of all four map types switch them, and queries that name no
# class leave them alone.

DIR=$(dirname "$0")
. "$DIR/functions.sh"

require_control
mod_builtin "$CLASS_MOD" && ktap_skip_all "$CLASS_MOD is built in: this test loads and unloads it"
require_module "$CLASS_MOD"
ktap_plan 23

C=$CLASS_MOD
PARAMS=/sys/module/$C/parameters
modprobe "$C"

# cflags NAME: the flags of the site printing "NAME msg".
cflags()
{
	dd_flags "$C" "$1 msg"
}

# cflags_of NAME...: "NAME=flags" for each NAME, space separated.
cflags_of()
{
	local out= n

	for n in "$@"; do
		out="$out $n$(cflags "$n")"
	done
	echo "${out# }"
}

# printed NAME...: which of the NAMEs printed "NAME msg" after a run.
printed()
{
	local out= n

	log_clear
	echo 1 > "$PARAMS/do_prints"
	for n in "$@"; do
		log_has "$n msg" && out="$out $n"
	done
	echo "${out# }"
}

# setp PARAM VALUE: write a class parameter.
setp()
{
	echo "$2" > "$PARAMS/$1" || ktap_diag "writing $2 to $1 failed"
}

# --- the listing

ktap_expect "a classed site ends with class:NAME" \
	"\"D2_CORE msg\\n\" class:D2_CORE" \
	"$(dd_line "$C" 'D2_CORE msg' | sed 's/^[^"]*//')"
# (The third DISJOINT_NAMES site's id is past its map: no class name.)
ktap_expect "sites of all four class maps are listed with a class" \
	"2 10 7 7" "$(for c in 'MID\|HI' 'D2_' 'V[0-9]' 'L[0-9]'; do
		dd_lines "$C" | grep -c " class:\($c\)"; done | tr '\n' ' ' |
		sed 's/ $//')"
ktap_expect "unclassed sites have no class" "" \
	"$(dd_lines "$C" | grep -F 'doing ' | grep ' class:')"

# --- DISJOINT_BITS

setp p_disjoint_bits 0x3
ktap_expect "disjoint bits 0x3 turn on classes 0 and 1" \
	"D2_CORE=p D2_DRIVER=p D2_KMS=_" "$(cflags_of D2_CORE D2_DRIVER D2_KMS)"
ktap_expect "only those classes print" "D2_CORE D2_DRIVER" \
	"$(printed D2_CORE D2_DRIVER D2_KMS D2_DRMRES)"
ktap_expect "disjoint bits read back" 0x3 "$(cat "$PARAMS/p_disjoint_bits")"

# --- queries without a class leave classed sites alone

dd_write "module $C +p"
ktap_expect "module query turns on unclassed sites only" "=p D2_KMS=_" \
	"$(dd_flags "$C" 'doing categories') $(cflags_of D2_KMS)"
dd_write "module $C -p"
ktap_expect "module query does not turn classed sites off" \
	"=_ D2_CORE=p" "$(dd_flags "$C" 'doing categories') $(cflags_of D2_CORE)"
dd_write "module $C format D2_VBL +p"
ktap_expect "format query does not reach a classed site" "D2_VBL=_" \
	"$(cflags_of D2_VBL)"
dd_write "func do_cats +p"
ktap_expect "func query does not reach classed sites" "=p D2_STATE=_" \
	"$(dd_flags "$C" 'doing categories') $(cflags_of D2_STATE)"
dd_write "func do_cats -p"

# --- class queries

dd_write "class D2_KMS +p"
ktap_expect "class NAME +p" "D2_KMS=p" "$(cflags_of D2_KMS)"
dd_write "module $C class D2_PRIME +pm"
ktap_expect "module and class together" "D2_PRIME=pm D2_ATOMIC=_" \
	"$(cflags_of D2_PRIME D2_ATOMIC)"
ktap_expect "class-enabled sites print" "D2_KMS D2_PRIME" \
	"$(printed D2_KMS D2_PRIME D2_ATOMIC)"
dd_write "class D2_KMS -p"
dd_write "class D2_PRIME -pm"
ktap_expect "class NAME -p" "D2_KMS=_ D2_PRIME=_" \
	"$(cflags_of D2_KMS D2_PRIME)"

setp p_disjoint_bits 0
ktap_expect "disjoint bits 0 turn the classes off" "D2_CORE=_ D2_DRIVER=_" \
	"$(cflags_of D2_CORE D2_DRIVER)"

# --- DISJOINT_NAMES

setp p_disjoint_names +LOW,+HI
ktap_expect "disjoint names +LOW,+HI" "MID=_ HI=p" "$(dd_class_flags "$C" MID HI)"
ktap_expect "disjoint names read back as bits" 0x5 \
	"$(cat "$PARAMS/p_disjoint_names")"
setp p_disjoint_names +MID,-HI
ktap_expect "disjoint names +MID,-HI" "MID=p HI=_" "$(dd_class_flags "$C" MID HI)"
setp p_disjoint_names -MID

# --- LEVEL_NUM

setp p_level_num 3
ktap_expect "level 3 turns on the classes below it" "V1=p V2=p V3=_" \
	"$(cflags_of V1 V2 V3)"
ktap_expect "level read back" 3 "$(cat "$PARAMS/p_level_num")"
setp p_level_num 1
ktap_expect "a lower level turns the upper classes off" "V1=_ V2=_" \
	"$(cflags_of V1 V2)"
setp p_level_num 0

# --- LEVEL_NAMES

setp p_level_names L3
ktap_expect "level name L3 turns on L1 to L3" "L1 L2 L3" \
	"$(printed L1 L2 L3 L4 L7)"
ktap_expect "level name read back as a level" 4 \
	"$(cat "$PARAMS/p_level_names")"
setp p_level_names L0

mod_unload "$C"
ktap_finish
