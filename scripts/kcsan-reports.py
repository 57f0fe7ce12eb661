#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Sort the KCSAN reports of a console log into ours and the others.

A KCSAN kernel boots a whole kernel, and 6.12 has data races of its own
that the tests only happen to run into: a page fault in shmem against the
maple tree, the event tracer's switches against the ring buffer, module
loading against a jump label update's __module_address(). Those must not
fail dynamic debug's run, and a race of dynamic debug's code must.

A report prints the stack of each of its two accesses, the function
that made the access on top. Ours are the functions named in SYMBOLS
(one per line: the core's objects, the objects our patches change, the
test modules). A report is ours when
 - ours made either access: the top frame of a stack is ours (a helper
   inlined into it, list_add() say, is part of it); or
 - both stacks went through ours: two of our own paths met in code they
   share, which only we could have kept apart.
A race in code of 6.12 between one of our paths and one of its own is
6.12's: the code that raced keeps its own data. Every access to a
descriptor outside the core is a READ_ONCE() of the macros, and two
reads never race, so a race on a descriptor has the core on top.

A stack through a trace event's probe (trace_event_raw_event_*,
perf_trace_*, __bpf_trace_*, __traceiter_*) goes through ours only above
the probe: below it is the code that emitted the event, the T flag's
output for one, and a tracepoint may be called from anywhere. Likewise
an interrupt's stack goes through ours only above its entry (asm_*):
below it is the code it interrupted, not its caller.

Usage: kcsan-reports.py LOG SYMBOLS
Prints one line per report, tab-separated: "ours" or "other", the
kselftest that was running (from the @@KTAP-BEGIN markers; "-" before
the first), the report's title, and for ours, the frames that made it so
(its top frames, or the frames of ours in each stack, "|" between them).
Exit status 0 when no report is ours, 1 when one is, 2 on a usage error
or a report cut off before its end.
"""
import re
import sys

STAMP = re.compile(r"^\[ *\d+\.\d+\] ?")
FRAME = re.compile(r"^ +(?:\? )?([A-Za-z_][\w.$]*)\+0x[0-9a-f]+/0x[0-9a-f]+")
# The line before each stack: "read-write (marked) to 0x... by task 1 on cpu 0:".
ACCESS = re.compile(r"^\S.* to 0x[0-9a-f]+ .*:$")
PROBE = re.compile(r"^(trace_event_raw_event_|perf_trace_|__bpf_trace_|__traceiter_)")
# Entry from an interrupt or exception: below it, the code it interrupted.
ENTRY = re.compile(r"^asm_(common_interrupt|sysvec_|exc_)")


def base(name):
    """The function a compiler's clone belongs to: foo.constprop.0 is foo."""
    return name.split(".", 1)[0]


def through(stack, ours):
    """The frames of ours a stack went through, above any trace probe."""
    mine = []
    for frame in stack:
        if PROBE.match(frame) or ENTRY.match(frame):
            break
        if base(frame) in ours:
            mine.append(frame)
    return mine


def whose(stacks, ours):
    """The frames that make a report ours, or an empty list."""
    tops = [st[0] for st in stacks if st and base(st[0]) in ours]
    if tops:
        return tops
    paths = [through(st, ours) for st in stacks]
    if len(paths) >= 2 and all(paths):
        return [" ".join(sorted(set(p))) + " |" for p in paths]
    return []


def reports(lines):
    """Yield (section, title, stacks) for each report, or raise ValueError."""
    section = "-"
    title = None
    stacks = []
    for raw in lines:
        line = STAMP.sub("", raw.rstrip("\n"), count=1)
        if title is None:
            m = re.match(r"^@@KTAP-BEGIN (\S+)@@", line)
            if m:
                section = m.group(1)
            m = re.match(r"^BUG: KCSAN: (.*)", line)
            if m:
                title, stacks = m.group(1), []
            continue
        if line.startswith("=================="):
            yield section, title, stacks
            title = None
        elif ACCESS.match(line):
            stacks.append([])
        elif stacks and FRAME.match(line):
            stacks[-1].append(FRAME.match(line).group(1))
    if title is not None:
        raise ValueError("the log ends inside the report: " + title)


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__.split("\n\n")[-1] + "\n")
        return 2
    with open(argv[2], encoding="utf-8") as f:
        ours = {base(s.strip()) for s in f if s.strip()}
    if not ours:
        sys.stderr.write("kcsan-reports: no symbols in %s\n" % argv[2])
        return 2
    found = 0
    try:
        with open(argv[1], encoding="utf-8", errors="replace") as f:
            for section, title, stacks in reports(f):
                mine = " ".join(whose(stacks, ours)).rstrip(" |")
                if mine:
                    found = 1
                    print("ours\t%s\t%s\t%s" % (section, title, mine))
                else:
                    print("other\t%s\t%s" % (section, title))
    except ValueError as err:
        sys.stderr.write("kcsan-reports: %s\n" % err)
        return 2
    return found


if __name__ == "__main__":
    sys.exit(main(sys.argv))
