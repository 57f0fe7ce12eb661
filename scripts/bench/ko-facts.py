#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# What a built module spends on its dynamic debug sites, read from the .ko
# on the host for "make bench":
#
#   value sect:NAME BYTES	every section named __jump_table or with
#				"dyndbg" or "ddebug" in its name (not their
#				relocations, which loading consumes)
#   value jump_entries N	16-byte entries of __jump_table
#   value nop5 N / nop2 N	entries whose code is the 5-byte nopl
#				(0f 1f 44 00 00) / the 2-byte NOP (66 90)
#   value nop_other N		entries whose code is anything else
#
# Usage: ko-facts.py MODULE.ko   (OBJDUMP, READELF name the tools)

import os
import re
import subprocess
import sys

OBJDUMP = os.environ.get("OBJDUMP", "objdump")
READELF = os.environ.get("READELF", "readelf")
NOP5 = "0f 1f 44 00 00"
NOP2 = "66 90"


def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def sections(ko):
    out = {}
    for line in run(READELF, "-S", "-W", ko).splitlines():
        m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)", line)
        if m:
            out[m.group(1)] = int(m.group(2), 16)
    return out


def jump_sites(ko):
    """{(section, address)} of the code of every __jump_table entry."""
    sites = set()
    for line in run(OBJDUMP, "-r", "-j", "__jump_table", ko).splitlines():
        f = line.split()
        if len(f) != 3 or not f[1].startswith("R_X86_64"):
            continue
        if int(f[0], 16) % 16 != 0:		# the code field of an entry
            continue
        m = re.match(r"(.+?)(?:([+-])0x([0-9a-f]+))?$", f[2])
        add = int(m.group(3), 16) if m.group(3) else 0
        if m.group(2) == "-":
            add = -add
        sites.add((m.group(1), add))
    return sites


def site_bytes(ko, sites):
    """{(section, address): instruction bytes} for the given sites."""
    found = {}
    sect = None
    proc = subprocess.Popen([OBJDUMP, "-d", "-w", ko], stdout=subprocess.PIPE, text=True)
    for line in proc.stdout:
        if line.startswith("Disassembly of section "):
            sect = line.split()[3].rstrip(":")
            continue
        if not line.startswith(" ") or ":\t" not in line:
            continue
        parts = line.split("\t")
        try:
            addr = int(parts[0].strip().rstrip(":"), 16)
        except ValueError:
            continue
        if (sect, addr) in sites:
            found[(sect, addr)] = parts[1].strip()
    proc.wait()
    return found


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: ko-facts.py MODULE.ko")
    ko = sys.argv[1]
    for name, size in sorted(sections(ko).items()):
        if name.startswith(".rela"):	# relocations: freed after loading
            continue
        if name == "__jump_table" or "dyndbg" in name or "ddebug" in name:
            print("value sect:%s %d" % (name, size))
    sites = jump_sites(ko)
    code = site_bytes(ko, sites)
    kinds = [code.get(s, "") for s in sites]
    print("value jump_entries %d" % len(sites))
    print("value nop5 %d" % kinds.count(NOP5))
    print("value nop2 %d" % kinds.count(NOP2))
    print("value nop_other %d" % (len(kinds) - kinds.count(NOP5) - kinds.count(NOP2)))


if __name__ == "__main__":
    main()
