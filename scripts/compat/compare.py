#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare two "make compat" transcripts step by step.

Usage: compare.py RULES UPSTREAM OURS REPORT

UPSTREAM and OURS are transcripts of runner.sh ("@C" lines). After each step
the result, control listing, kernel log and output are compared under the
rules of RULES (see its header); REPORT gets every step's verdict. Exit
status: 0 when no step differs unexpectedly, 1 otherwise, 2 on bad input.
"""

import fnmatch
import os
import re
import sys

FIELDS = ("result", "control", "log", "out")
# Kernel reports that fail a run: the harness's one list of patterns.
with open(os.path.join(os.path.dirname(__file__), "..", "kernel-problems"),
          encoding="utf-8") as _f:
    PROBLEM = re.compile("|".join("(?:%s)" % l.strip() for l in _f
                                  if l.strip() and not l.startswith("#")))


RULE = re.compile(r"(allow|norm) (result|control|log|out|\*) (\S+) "
                  r"(any|drop (.+)|sub (.+) => (.*)) :: \S.* :: \S.*$")


class Rule:
    """One line of the rules file: KIND FIELD STEP-GLOB ACTION :: REASON :: REF."""

    def __init__(self, lineno, text):
        m = RULE.match(text)
        if not m:
            raise ValueError("want KIND FIELD STEP-GLOB ACTION :: REASON :: SPEC reference")
        self.lineno, self.text, self.used = lineno, text, 0
        self.kind, self.field, self.glob, action = m.group(1, 2, 3, 4)
        self.action = action.split(" ", 1)[0]
        self.regex = re.compile(m.group(5) or m.group(6)) if self.action != "any" else None
        self.repl = m.group(7)

    def applies(self, field, step_id):
        return (self.field in ("*", field) and
                fnmatch.fnmatchcase(step_id, self.glob))

    def apply(self, field, value):
        """Return the value with the rule applied, or None for 'any'."""
        if self.action == "any":
            return None
        lines = [value] if field == "result" else sorted(value) if field == "control" else list(value)
        if self.action == "drop":
            lines = [l for l in lines if not self.regex.search(l)]
        else:
            lines = [self.regex.sub(self.repl, l) for l in lines]
            if field in ("log", "out"):
                lines = [l for i, l in enumerate(lines)
                         if i == 0 or l != lines[i - 1]]
        if field == "result":
            return lines[0] if lines else ""
        return frozenset(lines) if field == "control" else tuple(lines)


def load_rules(path):
    rules = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            try:
                if line.strip() and not line.lstrip().startswith("#"):
                    rules.append(Rule(n, line.rstrip("\n")))
            except (ValueError, re.error) as e:
                sys.exit("%s:%d: %s" % (path, n, e))
    return rules


# Corpus commands that write queries: to the control file, or a class parameter.
QUERY_COMMANDS = ("q", "qn", "qe", "qproc", "qlong", "param")


def load_transcript(path):
    """Return (steps, problems): steps is a list of dicts, one per step."""
    steps, problems, state, self_pid, ended = [], [], set(), None, False
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = [l.rstrip("\n")[3:] for l in f if l.startswith("@C ")]
    for tag, _, rest in (l.partition(" ") for l in lines):
        cur = steps[-1] if steps else None
        if tag == "self":
            self_pid = rest
        elif tag == "step":
            if cur:
                cur["control"] = frozenset(state)
            step_id, _, text = rest.partition(" ")
            steps.append({"id": step_id, "text": text, "result": "", "log": [], "out": []})
        elif tag == "end":
            ended = True
        elif cur is None:
            continue
        elif tag == "R":
            cur["result"] = rest
        elif tag in ("C+", "C-"):
            (state.add if tag == "C+" else state.discard)(rest)
        elif tag == "L":
            if self_pid:
                rest = rest.replace("[%s] " % self_pid, "[SELF] ")
            if PROBLEM.search(re.sub(r"^<\d>", "", rest)):
                problems.append("%s: %s" % (cur["id"], rest))
            cur["log"].append(rest)
        elif tag == "O":
            cur["out"].append(rest)
    for s in steps:
        s["log"], s["out"] = tuple(s["log"]), tuple(s["out"])
        s.setdefault("control", frozenset(state))
    if not ended:
        problems.append("transcript ends before the corpus did (%d steps)" % len(steps))
    return steps, problems


def normalise(rules, kind, field, step_id, value, used=None):
    """Apply the rules of KIND to a field's value; None: it may differ."""
    for r in (r for r in rules if r.kind == kind and r.applies(field, step_id)):
        new = r.apply(field, value)
        if new != value:
            r.used += 1
            (used if used is not None else set()).add(r.lineno)
        if new is None:
            return None
        value = new
    return value


def show(field, a, b, limit=12):
    """Lines telling how field value a (upstream) differs from b (ours)."""
    if field == "result":
        return ["      upstream: %s" % a, "      ours:     %s" % b]
    only_a = [l for l in sorted(a) if l not in b]
    only_b = [l for l in sorted(b) if l not in a]
    out = []
    if not only_a and not only_b:
        out, only_a, only_b = ["      (same lines, different order or count)"], list(a), list(b)
    for side, only in (("upstream only: ", only_a), ("ours only:     ", only_b)):
        out += ["      " + side + l for l in only[:limit]]
        if len(only) > limit:
            out.append("      ... %d more" % (len(only) - limit))
    return out


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    report_file = open(sys.argv[4], "w")
    rules = load_rules(sys.argv[1])
    up, up_problems = load_transcript(sys.argv[2])
    ours, ours_problems = load_transcript(sys.argv[3])
    problems = [("upstream", p) for p in up_problems] + [("ours", p) for p in ours_problems]
    for label, p in problems:
        print("  compat: %s: %s" % (label, p))
    bad = bool(problems)
    if [s["id"] for s in up] != [s["id"] for s in ours]:
        print("  compat: the two transcripts ran different steps "
              "(upstream %d, ours %d)" % (len(up), len(ours)))
        bad = True
    counts = {"identical": 0, "intended": 0, "unexpected": 0}
    for a, b in zip(up, ours):
        sid = a["id"]
        if a["id"] != b["id"]:
            break
        kind, report, used = "identical", [], set()
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
        report_file.write("%-10s %s: %s%s\n" % (
            kind, sid, a["text"], " [rules %s]" % ",".join(map(str, sorted(used)))
            if kind == "intended" else ""))
        report_file.write("".join(l + "\n" for l in report))
        counts[kind] += 1
        if kind == "unexpected":
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
          % (steps, queries, counts["identical"], counts["intended"], counts["unexpected"]))
    if counts["unexpected"] or bad:
        sys.exit(1)


if __name__ == "__main__":
    main()
