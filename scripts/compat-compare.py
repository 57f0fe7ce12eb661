#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare two "make compat" transcripts step by step.

Usage: compat-compare.py RULES UPSTREAM OURS [REPORT]

UPSTREAM and OURS are the guest transcripts printed by
tools/testing/selftests/dynamic_debug/compat/runner.sh ("@C ..." lines).
After every step four fields are compared: the result, the control
listing (the whole sorted set of lines, rebuilt from the printed
changes), the kernel log lines and the output of the step.

RULES is the one file that says which differences are allowed. Each
entry is one line:

    KIND FIELD STEP-GLOB ACTION :: REASON :: SPEC-REFERENCE

KIND is "allow" (an intended difference between the implementations) or
"norm" (noise that is not the implementations' doing, such as process ids
or the build directory of the test modules; normalised on both sides
before anything is compared). FIELD is result, control, log, out or *.
STEP-GLOB matches step ids (fnmatch). ACTION is one of

    any                     the field may differ entirely
    drop REGEX              lines matching REGEX are left out on both sides
    sub REGEX => REPL       re.sub on every line of both sides, after which
                            adjacent duplicate log lines collapse to one

A step is identical when every field is equal after the norm rules,
intended when it is not but the allow rules make it equal, and
unexpected otherwise. Exit status: 0 when nothing is unexpected, 1
otherwise, 2 on bad input. REPORT, if given, receives every step's
verdict and, for intended differences, the rules that allowed them.
"""

import fnmatch
import re
import sys

FIELDS = ("result", "control", "log", "out")
PROBLEM = re.compile(r"^<\d>(WARNING:|BUG:|Oops|Kernel panic|kernel BUG|"
                     r"general protection fault|Unable to handle|UBSAN:|"
                     r".*KASAN:|.*possible recursive locking|"
                     r".*possible circular locking|.*inconsistent lock state|"
                     r".*suspicious RCU usage|.*list_(add|del) corruption|"
                     r".*refcount_t:)")


class Rule:
    """One line of the rules file."""

    def __init__(self, lineno, text):
        self.lineno = lineno
        self.text = text
        self.used = 0
        head, sep, rest = text.partition(" :: ")
        reason, sep2, ref = rest.partition(" :: ")
        if not sep or not sep2 or not reason.strip() or not ref.strip():
            raise ValueError("want 'RULE :: REASON :: SPEC reference'")
        self.reason = reason.strip()
        self.ref = ref.strip()
        words = head.split(None, 3)
        if len(words) < 4:
            raise ValueError("want KIND FIELD STEP-GLOB ACTION")
        self.kind, self.field, self.glob, action = words
        if self.kind not in ("allow", "norm"):
            raise ValueError("kind must be allow or norm")
        if self.field != "*" and self.field not in FIELDS:
            raise ValueError("unknown field " + self.field)
        self.regex = self.repl = None
        if action == "any":
            self.action = "any"
        elif action.startswith("drop "):
            self.action = "drop"
            self.regex = re.compile(action[5:])
        elif action.startswith("sub "):
            pat, arrow, repl = action[4:].partition(" => ")
            if not arrow:
                raise ValueError("sub wants 'REGEX => REPLACEMENT'")
            self.action = "sub"
            self.regex = re.compile(pat)
            self.repl = repl
        else:
            raise ValueError("unknown action " + action)

    def applies(self, field, step_id):
        return (self.field in ("*", field) and
                fnmatch.fnmatchcase(step_id, self.glob))

    def apply(self, field, value):
        """Return the value with the rule applied, or None for 'any'."""
        if self.action == "any":
            return None
        if field == "result":
            lines = [value]
        elif field == "control":
            lines = sorted(value)
        else:
            lines = list(value)
        if self.action == "drop":
            lines = [l for l in lines if not self.regex.search(l)]
        else:
            lines = [self.regex.sub(self.repl, l) for l in lines]
            if field in ("log", "out"):
                lines = [l for i, l in enumerate(lines)
                         if i == 0 or l != lines[i - 1]]
        if field == "result":
            return lines[0] if lines else ""
        if field == "control":
            return frozenset(lines)
        return tuple(lines)


def load_rules(path):
    rules = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            try:
                rules.append(Rule(n, line))
            except (ValueError, re.error) as e:
                sys.exit("%s:%d: %s" % (path, n, e))
    return rules


# Corpus commands that write queries (runner.sh): to the control file in
# its several ways, or to a class parameter.
QUERY_COMMANDS = ("q", "qn", "qe", "qproc", "qlong", "param")


def load_transcript(path):
    """Return (steps, problems): steps is a list of dicts, one per step."""
    steps, problems = [], []
    state = set()
    cur = None
    self_pid = None
    ended = False
    with open(path, encoding="utf-8", errors="replace") as f:
        for raw in f:
            raw = raw.rstrip("\n")
            if not raw.startswith("@C "):
                continue
            tag, _, rest = raw[3:].partition(" ")
            if tag == "self":
                self_pid = rest
            elif tag == "step":
                if cur:
                    cur["control"] = frozenset(state)
                step_id, _, text = rest.partition(" ")
                cur = {"id": step_id, "text": text, "result": "",
                       "log": [], "out": []}
                steps.append(cur)
            elif tag == "end":
                ended = True
            elif cur is None:
                continue
            elif tag == "R":
                cur["result"] = rest
            elif tag == "C+":
                state.add(rest)
            elif tag == "C-":
                state.discard(rest)
            elif tag == "L":
                if self_pid:
                    rest = rest.replace("[%s] " % self_pid, "[SELF] ")
                if PROBLEM.search(rest):
                    problems.append("%s: %s" % (cur["id"], rest))
                cur["log"].append(rest)
            elif tag == "O":
                cur["out"].append(rest)
    if cur:
        cur["control"] = frozenset(state)
    for s in steps:
        s["log"] = tuple(s["log"])
        s["out"] = tuple(s["out"])
    if not ended:
        problems.append("transcript ends before the corpus did (%d steps)"
                        % len(steps))
    return steps, problems


def normalise(rules, kind, field, step_id, value, used=None):
    for r in rules:
        if r.kind == kind and r.applies(field, step_id):
            new = r.apply(field, value)
            if new != value:
                r.used += 1
                if used is not None:
                    used.add(r.lineno)
            if new is None:
                return None
            value = new
    return value


def show(field, a, b, limit=12):
    """Lines telling how field value a (upstream) differs from b (ours)."""
    out = []
    if field == "result":
        return ["      upstream: %s" % a, "      ours:     %s" % b]
    if field == "control":
        only_a, only_b = sorted(a - b), sorted(b - a)
    else:
        only_a = [l for l in a if l not in b]
        only_b = [l for l in b if l not in a]
        if not only_a and not only_b:
            out.append("      (same lines, different order or count)")
            only_a, only_b = list(a), list(b)
    for l in only_a[:limit]:
        out.append("      upstream only: " + l)
    if len(only_a) > limit:
        out.append("      ... %d more" % (len(only_a) - limit))
    for l in only_b[:limit]:
        out.append("      ours only:     " + l)
    if len(only_b) > limit:
        out.append("      ... %d more" % (len(only_b) - limit))
    return out


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    report_file = open(sys.argv[4], "w") if len(sys.argv) == 5 else None
    rules = load_rules(sys.argv[1])
    up, up_problems = load_transcript(sys.argv[2])
    ours, ours_problems = load_transcript(sys.argv[3])
    bad = False

    for label, probs in (("upstream", up_problems), ("ours", ours_problems)):
        for p in probs:
            print("  compat: %s: %s" % (label, p))
            bad = True

    if [s["id"] for s in up] != [s["id"] for s in ours]:
        print("  compat: the two transcripts ran different steps "
              "(upstream %d, ours %d)" % (len(up), len(ours)))
        bad = True

    identical = intended = unexpected = 0
    for a, b in zip(up, ours):
        sid = a["id"]
        if a["id"] != b["id"]:
            break
        kind = "identical"
        report = []
        used = set()
        for field in FIELDS:
            va = normalise(rules, "norm", field, sid, a[field])
            vb = normalise(rules, "norm", field, sid, b[field])
            if va == vb:
                continue
            na = normalise(rules, "allow", field, sid, va, used)
            nb = normalise(rules, "allow", field, sid, vb, used)
            if na is None or nb is None or na == nb:
                if kind == "identical":
                    kind = "intended"
                continue
            kind = "unexpected"
            report.append("    %s differs:" % field)
            report += show(field, na, nb)
        if report_file:
            report_file.write("%-10s %s: %s%s\n" % (
                kind, sid, a["text"],
                " [rules %s]" % ",".join(map(str, sorted(used)))
                if kind == "intended" else ""))
            if report:
                report_file.write("\n".join(report) + "\n")
        if kind == "identical":
            identical += 1
        elif kind == "intended":
            intended += 1
        else:
            unexpected += 1
            print("  compat: UNEXPECTED %s: %s" % (sid, a["text"]))
            print("\n".join(report))

    for r in rules:
        if r.kind == "allow" and not r.used:
            print("  compat: note: rule at line %d changed nothing: %s"
                  % (r.lineno, r.text.partition(" :: ")[0]))

    steps = min(len(up), len(ours))
    queries = sum(1 for s in up[:steps]
                  if s["text"].split(" ", 1)[0] in QUERY_COMMANDS)
    print("compat: %d steps (%d queries), %d identical, %d intended "
          "differences, %d unexpected differences"
          % (steps, queries, identical, intended, unexpected))
    if unexpected or bad:
        sys.exit(1)


if __name__ == "__main__":
    main()
