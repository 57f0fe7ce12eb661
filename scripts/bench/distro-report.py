#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# The table of "make distro-check": read build/distro/IMPL.txt (what
# scripts/distro-guest.sh printed) and build/distro/IMPL.msgs (the build's
# warnings) for upstream and ours, write bench/distro.md and print it.
# Exits 1 if a result is missing, ours adds a compiler warning, a module
# that loads on upstream fails on ours, or a kselftest failed on ours.
#
# Usage: distro-report.py BUILD_DIR OUT IMPL...

import datetime
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import load, ratio, time_cell  # noqa: E402


def main():
    d, out, impls = sys.argv[1], sys.argv[2], sys.argv[3:]
    data = {i: load(os.path.join(d, i + ".txt")) for i in impls}
    msgs = {}
    for i in impls:
        try:
            msgs[i] = set(open(os.path.join(d, i + ".msgs")).read().splitlines())
        except FileNotFoundError:
            msgs[i] = None
    problems = ["%s: no results" % i for i in impls if not data[i]]
    up, ours = data.get("upstream"), data.get("ours")
    g = lambda x, kind, key: (x or {}).get(kind, {}).get(key)

    def failed_modules(x):
        return {k.split(":", 1)[1] for k in (x or {}).get("info", {})
                if k.startswith("modprobe_failed:")}

    rows = []

    def value_row(label, key):
        rows.append((label, g(up, "value", key) or "–", g(ours, "value", key) or "–", "–"))

    def time_row(label, key):
        cu, mu = time_cell(g(up, "sample", key)) if up else ("not run", None)
        co, mo = time_cell(g(ours, "sample", key)) if ours else ("not run", None)
        rows.append((label, cu, co, ratio(mu, mo)))

    def target(key):
        t = (g(ours or up, "info", key) or "? ?").split()
        return t[0], t[1] if len(t) > 1 else "?"

    value_row("modules loaded from the three directories", "modules_loaded")
    def failed_cell(x):
        if not x:
            return "–"
        why = ["%s: %s" % (k.split(":", 1)[1], v.rsplit(": ", 1)[-1].strip())
               for k, v in sorted(x.get("info", {}).items())
               if k.startswith("modprobe_failed:")]
        n = g(x, "value", "modules_failed") or "?"
        return "%s (%s)" % (n, "; ".join(why)) if why else n

    rows.append(("modules that failed to load", failed_cell(up), failed_cell(ours), "–"))
    value_row("`wc -l control` with them loaded", "control_lines")
    for key, what in (("func", "func"), ("file", "file"), ("module", "module")):
        name, n = target("target_" + key)
        time_row("`%s %s +p` (%s sites)" % (what, name, n), key + "_on")
        time_row("`%s %s -p`" % (what, name), key + "_off")
    time_row("read all of `control`", "control")
    if msgs.get("upstream") is not None and msgs.get("ours") is not None:
        new = sorted(msgs["ours"] - msgs["upstream"])
        rows.append(("compiler warnings (new in ours)", str(len(msgs["upstream"])),
                     "%d (%d new)" % (len(msgs["ours"]), len(new)), "–"))
        problems += ["new warning: %s" % w for w in new]
    else:
        problems += ["%s: no list of compiler warnings (%s.msgs)" % (i, i)
                     for i in impls if msgs.get(i) is None]
    if ours:
        k = g(ours, "value", "kselftests_failed")
        rows.append(("kselftests failed", "–", k if k is not None else "not run", "–"))
        if k != "0":
            problems.append("ours: kselftests failed: %s" % k)
    if up and ours:
        lost = sorted(failed_modules(ours) - failed_modules(up))
        problems += ["ours: %s loads on upstream only" % m for m in lost]

    lines = ["# `make distro-check`: Debian's 6.12 config, ours against upstream", "",
             "- date: %s" % datetime.datetime.now(datetime.timezone.utc)
             .strftime("%Y-%m-%d %H:%M UTC"),
             "- kernel: %s" % (g(ours or up, "info", "kernel") or "?"),
             "- config: Debian's `config.amd64_none_amd64` (linux-config-6.12) with "
             "the modules of drivers/gpu/drm, drivers/net/wireless and fs/btrfs "
             "(and cfg80211, mac80211) kept, the other modules off, no debug info, "
             "modules neither signed nor compressed",
             "- modules: every .ko under the three directories, loaded with "
             "modprobe (dependencies included); one that fails on both kernels "
             "for want of its platform (drm_xen_front outside a Xen guest) is "
             "listed with its error; one that loads on upstream only fails the check",
             "- guest: QEMU TCG, 2 CPUs, 3 GiB; times: the fastest of 5 repetitions "
             "(the median and the slowest); ratio: upstream / ours, of the fastest",
             "", "| | upstream 6.12 | ours | ratio |", "| --- | --- | --- | --- |"]
    lines += ["| %s | %s | %s | %s |" % r for r in rows]
    if problems:
        lines += ["", "Problems:"] + ["- %s" % p for p in problems]
    text = "\n".join(lines) + "\n"
    print(text, end="")
    with open(out, "w") as f:
        f.write(text)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
