#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# The table of "make bench": read what scripts/bench.sh collected for each
# implementation (build/bench/IMPL-SITES-rN.txt, one file per boot:
# "sample", "value", "info" and "check" lines), print one table, ours
# against upstream, and write it as Markdown. The samples of every boot
# of an implementation are pooled; single values and facts come from its
# first boot. Exits 1 if a guest check failed or a metric is missing for
# an implementation that ran; judges no timing.
#
# Usage: report.py --sites N --command CMD --rounds R --seconds S --out FILE
#	IMPL=FILE[,FILE...]...
# BENCH_NOTE in the environment adds a "Notes on this run" section.

import argparse
import datetime
import os
import re
import statistics
import sys

METHOD = """
## How it is measured

- Load: `scripts/bench/gen-module.py` writes `bench_big` (SITES sites: files
  of 50 functions of 20 `pr_debug()` sites, every format distinct) and
  `bench_small` (10 sites); both are built out of tree (`-O2`) against each
  kernel. Query targets: the middle file and its function 25, five of its
  functions by line range, `format` text no site has, `func *_fn25` (one
  function per file).
- Kernels: `IMPL=upstream` and ours with the harness's config (tinyconfig +
  `scripts/config.fragment`; ours adds only its KUnit suite, which runs at
  boot before the bench starts). The same QEMU command for both (the
  harness's `boot_script`: TCG, `-cpu max -smp 2 -m 1024`) and the same
  kernel command line, `tsc=reliable clocksource=tsc`: the TSC, trusted
  without the clocksource watchdog, instead of a jiffies clock of 4 ms
  steps; the guest reports the clocksource it uses (above; `tsc-early`
  is the same counter before its calibration is refined, which a kernel
  that boots faster may still use when the bench starts).
- Timer: `scripts/bench/ddbench.c`, static, in the initramfs:
  `clock_gettime(CLOCK_MONOTONIC)` around the `write()` of a query (one
  `write()` per query, the file opened before), around open+read-to-EOF
  for the reads, around `finit_module()` / `delete_module()`.
- Stability under TCG: the guest runs nothing but the bench (init, a shell
  and the timer; the console quiet at loglevel 5; no `pr_debug()` site of
  the load is ever executed); every metric runs once as a discarded
  warm-up (for enabling and disabling every site, the two writes that
  count IPIs are that warm-up), then the repetitions above. Each kernel
  boots more than once, the two in turn (upstream, ours, upstream,
  ours): the host is a shared virtual machine whose speed can change
  for minutes at a time, and alternating boots make such a change fall
  on both kernels alike instead of on whichever ran then. The table
  pools every boot's repetitions and compares the fastest: the host's
  interference only ever adds time, so the fastest repetition is the best
  estimate of the work itself, and the one that stays put from run to run
  (medians of upstream's full scans moved by 1.8x from one boot to the
  next in a run whose host-speed row did not move; the fastest moved by
  less than 20%). The median and the slowest show the spread.
- Instructions: a last boot of each kernel runs under QEMU's `-icount
  shift=0` (`ddbench.icount=1` on its command line), where the guest's
  clock advances one nanosecond per instruction executed. There the short
  paths (a write's fixed cost, a query over the small module, one call of
  a site) are counted, not timed: each repetition gives the same count,
  which neither the host's load nor where the code landed in memory
  moves. Timed, those paths differ by as much from one kernel's code
  layout to the other's as from one core to the other: the disabled site
  runs the same NOP in both kernels and the same instruction count, yet
  its timed row has come out from 0.92x to 1.00x.
  The first row times a fixed loop of user-space arithmetic at the start
  and the end of every boot: it involves no kernel code, so the two
  columns differ only as the host's speed did. Its ratio compares the
  medians: away from 1, it says the host was slower for one kernel's boots
  for a long while, and the run's other ratios are skewed too (a run
  where it read 0.88x, the host slower during ours' boots, had ratios
  up to 1.6x below the next run's). Counts (IPIs,
  bytes, NOPs) come from the first boot.
- text_poke_sync rounds: the change of the `CAL` (function call
  interrupts) line of `/proc/interrupts`, summed over the CPUs, around the
  write; every round sends one IPI to each other CPU, so rounds = IPIs /
  (CPUs - 1). The "noise" row is the same count around a write that
  matches nothing. IPIs are a count emulation cannot distort; on a real
  machine each round costs an IPI to every online CPU and a wait for all
  of them, so the round count times the CPU count decides the cost there.
- `enabled`: ours only (upstream has no such file).
- `dyndbg list`: the front-end of `tools/dyndbg` (static, in the
  initramfs) run by the timer with its output on `/dev/null`, from
  `fork()` to its exit, 1% of the sites on. With a query it asks the
  kernel's `preview` file for the sites, which upstream lacks.
- One call of a site: `test_dyndbg_loop` (a test module of the
  selftests) runs its `pr_debug()` site 10,000 times per write to its
  `plain` parameter; the write is timed and divided by the calls. With
  `p` the message goes to the log buffer (console level 1: not to the
  serial console); with `T` to the trace buffer (the `dyndbg` events
  on); `pr` has the rate limit past its burst of 10, so nearly every
  call is a suppressed one. `T` and `r` exist only in ours; their
  figures are also given against ours' `p`.
- Lock wait: with `bench_big` unloaded, one process writes a batch of
  `+p;-p;` in one `write()` (4 KiB, 682 queries, unless the table says
  otherwise; each query changes every site of the kernel and of
  `bench_small`, so ours' KUnit sites count there too); 50 ms after
  it starts, a second process opens `control` and reads 1 byte and a third
  unloads `bench_small`; each one's latency is reported, and the batch's.
  First lookup: `bench_big` is loaded afresh and a process opens
  `control` and reads 1 byte in a loop while `func NAME +p`, the first
  query of that module naming a literal function (ours sorts the
  module's index for it, in bounded holds of its lock), is written; the
  reader's longest wait that ended after the write began is reported,
  then the module is unloaded; as many repetitions as the queries.
- Bytes per site: section sizes of `bench_big.ko` (`__jump_table` and
  every section whose name has `dyndbg` or `ddebug`, from `readelf -S`)
  divided by the site count. Sections whose names start with `.init` go
  to the module's init layout, which the module loader frees once the
  module's init function has run: they are listed but not kept.
  Run-time allocations: upstream makes one
  `kzalloc(sizeof(struct ddebug_table))` per module (its size compiled on
  the host from the struct in the pristine `lib/dynamic_debug.c`, rounded
  up to its kmalloc cache); ours reports what it allocates at
  `dynamic_debug.verbose=1` ("dyndbg: ... index N bytes"), n/a if absent.
  Hit counters: ours allocates one array per module (8 bytes a site and a
  small header) the first time one of its sites is enabled, reported at
  `verbose=1` ("hit counters, N bytes") after one function of `bench_big`
  is switched on and off; the last row counts it in.
- NOPs: every `__jump_table` entry of `bench_big.ko` is looked up in
  `objdump -d` (`scripts/bench/ko-facts.py`): each must be the 5-byte
  `nopl` (`0f 1f 44 00 00`) or the 2-byte NOP (`66 90`) that objtool
  writes where the out-of-line code is within a short jump; both are one
  inline NOP. The shape (the NOP on the straight path, the call to
  `__dynamic_pr_debug()` out of line, reached through the NOP's target) is
  checked by `scripts/nop-shape.sh`
  on `bench_small.ko`, generated and built the same way (its check of the
  5-byte form is waived when the sites it lists are all `66 90`).
"""

KMALLOC = [8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096, 8192]


def load(paths):
    d = {"sample": {}, "value": {}, "info": {}, "check": []}
    lines = []
    try:
        for path in paths.split(","):
            lines += open(path).read().splitlines()
    except FileNotFoundError:
        return None
    for line in lines:
        f = line.split(" ", 2)
        if f[0] == "sample" and len(f) == 3:
            d["sample"].setdefault(f[1], []).extend(int(x) for x in f[2].split())
        elif f[0] == "value" and len(f) == 3:
            d["value"].setdefault(f[1], f[2])
        elif f[0] == "info" and len(f) >= 2:
            d["info"].setdefault(f[1], f[2] if len(f) == 3 else "")
        elif f[0] == "check":
            d["check"].append(line)
    return d


def ms(ns):
    v = ns / 1e6
    if v >= 1000:
        return "%.2f s" % (v / 1000)
    if v >= 100:
        return "%.0f ms" % v
    if v >= 10:
        return "%.1f ms" % v
    if v >= 1:
        return "%.2f ms" % v
    return "%.3f ms" % v


# A cell shows the fastest repetition, then the median and the slowest;
# ratios compare the fastest ones (see METHOD).
def time_cell(s):
    if not s:
        return "n/a", None
    return "%s (median %s, max %s)" % (ms(min(s)), ms(statistics.median(s)),
                                       ms(max(s))), min(s)


def ratio(up, ours):
    if up is None or ours is None or ours == 0:
        return "–"
    return "%.2fx" % (up / ours)


# Why a metric may come out below 1.00x (ours slower, larger or needing
# more), by its key; the report lists every such row with its reason, or
# says that none is given.
BELOW_ONE = {
    "spin":
        "Not dynamic debug: the host's own speed while each kernel ran. "
        "Below 1.00x the host was slower during ours' boots, which skews "
        "every timed row of the run against ours by about as much.",
    "floor_comment":
        "A text that holds no query, timed: see its instruction count below.",
    "ic_floor_comment":
        "A text that holds no query. 6.12 stops at the '#'; ours reads the "
        "comment to its end with the lexer every query goes through (quotes, "
        "comments, all-or-nothing checks), about 140 instructions more. Any "
        "text with a query pays it back: the `module no_such_module +t` and "
        "`module bench_small +t` rows take fewer instructions than 6.12's.",
    "floor_nomatch":
        "Timed, a few hundred nanoseconds in either direction from one run to "
        "the next: ours takes fewer instructions (the row below).",
    "small_ton":
        "Timed, within the noise of code layout under TCG: ours takes fewer "
        "instructions than 6.12 for this query (the row below).",
    "site__":
        "The same NOP in both kernels, and the same 11 instructions per call "
        "under -icount (below): what the timed row shows is where the code "
        "landed, not what it runs.",
    "site_p":
        "Printing: ours counts the hit (an RCU read section, a lookup of the "
        "table's counters, one atomic increment) and tests for a rate limit "
        "before the same printk(): about 100 instructions of 5,100 (the "
        "instruction row below), the price of the `hits` file.",
    "ic_site_p":
        "The hit count and the rate-limit test, about 100 instructions of "
        "5,100 per message printed (see the timed row above).",
    "insmod":
        "Loading also builds the module's index (one pass over its sites, "
        "runs of one function and file) and reads its names records from "
        ".init.dyndbg: a few percent, as large as the spread from run to "
        "run (this row has come out from 0.94x to 1.05x).",
    "alloc":
        "The index that makes targeted queries 20 to 450 times faster: runs "
        "of sites, and two sorted orders once a name is looked up (24 bytes "
        "a run of sites of one function). The total rows below count it.",
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sites", type=int, required=True)
    ap.add_argument("--command", required=True)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--seconds", type=int, default=0)
    ap.add_argument("--out", required=True)
    ap.add_argument("runs", nargs="+")
    a = ap.parse_args()

    data, ran = {}, []
    for r in a.runs:
        impl, path = r.split("=", 1)
        ran.append(impl)
        data[impl] = load(path)
    up, ours = data.get("upstream"), data.get("ours")
    missing, failed = [], []
    for impl in ran:
        if data[impl] is None:
            missing.append("%s: no results at all" % impl)
            continue
        failed += ["%s: %s" % (impl, c) for c in data[impl]["check"]
                   if c.startswith("check not ok")]

    env = {}
    for impl in ran:
        if data[impl] is not None:
            env = data[impl]["info"]
            break
    sites = a.sites
    g = lambda d, kind, key: (d or {}).get(kind, {}).get(key) if d else None

    def v(d, key):
        x = g(d, "value", key)
        try:
            return int(x)
        except (TypeError, ValueError):
            return None

    rows = []

    def need(impl, kind, key):
        d = data.get(impl)
        if d is not None and g(d, kind, key) is None:
            missing.append("%s: %s %s" % (impl, kind, key))

    def trow(label, key, only=None, by_median=False):
        for impl in ran:
            if only is None or impl in only:
                need(impl, "sample", key)
        su, so = g(up, "sample", key), g(ours, "sample", key)
        cu, mu = time_cell(su) if up else ("not run", None)
        co, mo = time_cell(so) if ours else ("not run", None)
        if by_median and su and so:
            mu, mo = statistics.median(su), statistics.median(so)
        rows.append((label, cu, co, ratio(mu, mo)))
        below(label, key, mu, mo)

    def crow(label, cu, co, ru=None, ro=None, key=None):
        rows.append((label, cu, co, ratio(ru, ro)))
        below(label, key, ru, ro)

    slower = []

    def below(label, key, ru, ro):
        if ru is not None and ro and ru / ro < 0.995:
            slower.append((label, BELOW_ONE.get(key, "no reason given")))

    def env_of(key, default=""):
        return env.get(key, default)

    # The load, as gen-module.py described it (bench.env).
    e = lambda k: env_of("env_" + k, "?")
    trow("host speed: a fixed user-space loop in the guest, no system call "
         "(not dynamic debug; ratio of the medians)", "spin", by_median=True)
    for sel, key, n in (
            ("func %s" % e("FUNC"), "func", e("FUNC_SITES")),
            ("file %s" % e("FILE"), "file", e("FILE_SITES")),
            ("module %s" % e("SMALL"), "small", e("SMALL_SITES")),
            ("module %s file %s line %s" % (e("BIG"), e("FILE"), e("LINES")),
             "lines", e("LINES_SITES"))):
        trow("`%s +p` (%s sites)" % (sel, n), key + "_on")
        trow("`%s -p`" % sel, key + "_off")
        trow("`%s +t` (the query alone: no code patched)" % sel, key + "_ton")
    trow("`# nothing` (a comment alone: the write's own cost)", "floor_comment")
    trow("`module no_such_module +t` (no table matches)", "floor_nomatch")
    trow("`format %s +p` (scan, 0 sites)" % e("NO_MATCH"), "format")
    trow("`func %s +p` (wildcard, %s sites)" % (e("WILD"), e("WILD_SITES")), "wild_on")
    trow("`func %s -p`" % e("WILD"), "wild_off")
    trow("`module %s +p` (every site, %d)" % (e("BIG"), sites), "all_on")
    trow("`module %s -p`" % e("BIG"), "all_off")

    def cal(d, key):
        x = v(d, key)
        cpus = v(d, "cpus")
        if x is None:
            return "n/a", None
        if cpus and cpus > 1:
            return "%d IPIs = %d rounds" % (x, x // (cpus - 1)), x
        return "%d IPIs" % x, x

    for impl in ran:
        for k in ("cal_all_on", "cal_all_off", "cal_noop", "cpus"):
            need(impl, "value", k)
    cu, ru = cal(up, "cal_all_on") if up else ("not run", None)
    co, ro = cal(ours, "cal_all_on") if ours else ("not run", None)
    crow("text_poke_sync rounds, `module BIG +p` (CAL delta)", cu, co, ru, ro)
    cu, ru = cal(up, "cal_all_off") if up else ("not run", None)
    co, ro = cal(ours, "cal_all_off") if ours else ("not run", None)
    crow("text_poke_sync rounds, `module BIG -p`", cu, co, ru, ro)
    for key, label in (("cal_small_on", "`module SMALL +p` (%s sites)" % e("SMALL_SITES")),
                       ("cal_small_off", "`module SMALL -p`")):
        for impl in ran:
            need(impl, "value", key)
        cu, ru = cal(up, key) if up else ("not run", None)
        co, ro = cal(ours, key) if ours else ("not run", None)
        crow("text_poke_sync rounds, " + label, cu, co, ru, ro)
    def noise(d):
        if not d:
            return "not run"
        return "%s, then %s IPIs" % (v(d, "cal_noop"), v(d, "cal_noop2"))

    crow("CAL noise: two writes matching nothing", noise(up), noise(ours))

    trow("read all of `control` (%s sites on)" % e("PCT_SITES"), "control")
    for impl in ran:
        need(impl, "value", "control_bytes")
    bu, bo = v(up, "control_bytes"), v(ours, "control_bytes")
    crow("`control` size", "%s bytes" % bu if bu is not None else
         ("n/a" if up else "not run"),
         "%s bytes" % bo if bo is not None else ("n/a" if ours else "not run"),
         bu, bo)
    trow("read all of `enabled` (%s sites on)" % e("PCT_SITES"), "enabled",
         only=("ours",))
    trow("`dyndbg list` (every site: `control` read, parsed, printed)", "list_all")
    trow("`dyndbg list module %s` (%d sites, selected through `preview`)"
         % (e("BIG"), sites), "list_module", only=("ours",))
    trow("`insmod %s`" % e("BIG"), "insmod")
    trow("`rmmod %s`" % e("BIG"), "rmmod")
    # One call of a site, by flags: the loop's total over the calls.
    calls = v(ours or up, "site_calls") or 1
    p_ours = g(ours, "sample", "site_p")

    def per_call(d, key, base=None):
        s = g(d, "sample", key) if d else None
        if not d:
            return "not run", None
        if not s:
            return ("refused" if g(d, "info", key) == "refused" else "n/a"), None
        low = min(s) / calls
        txt = "%.0f ns (median %.0f, max %.0f)" % (low, statistics.median(s) / calls,
                                                  max(s) / calls)
        if base:
            txt += ", %.2f x `p`" % (low / (min(base) / calls))
        return txt, low

    for impl in ran:
        for k in ("site__", "site_p"):
            need(impl, "sample", k)
    need("ours", "sample", "site_T")
    need("ours", "sample", "site_pr")
    for label, key in (("disabled (`=_`)", "site__"), ("`=p` (to the log buffer)", "site_p"),
                       ("`=T` (to the trace buffer)", "site_T"),
                       ("`=pr` past its burst (suppressed)", "site_pr")):
        base = p_ours if key in ("site_T", "site_pr") else None
        cu, mu = per_call(up, key)
        co, mo = per_call(ours, key, base)
        crow("one call of a site, %s, per call" % label, cu, co, mu, mo, key)

    # The same short paths in instructions, from the boot under -icount
    # (one guest nanosecond per instruction): every repetition gives the
    # same count, so the fewest is the count.
    def instr(d, key, per=1):
        s = g(d, "sample", key) if d else None
        if not d:
            return "not run", None
        if not s:
            return "n/a", None
        return "%d instructions" % round(min(s) / per), min(s) / per

    for label, key, per in (
            ("`# nothing`", "ic_floor_comment", 1),
            ("`module no_such_module +t`", "ic_floor_nomatch", 1),
            ("`module %s +t`" % e("SMALL"), "ic_small_ton", 1),
            ("`module %s -t`" % e("SMALL"), "ic_small_toff", 1),
            ("one call of a site, disabled (`=_`)", "ic_site__", calls),
            ("one call of a site, `=p`", "ic_site_p", calls)):
        for impl in ran:
            need(impl, "sample", key)
        cu, mu = instr(up, key, per)
        co, mo = instr(ours, key, per)
        crow("instructions (QEMU -icount): %s" % label, cu, co, mu, mo, key)

    q = v(ours or up, "lock_batch_queries")
    ls = v(ours or up, "lock_sites")
    trow("lock wait: `open`+`read(1)` of `control` during a batch", "lock_reader")
    trow("lock wait: `rmmod %s` during a batch" % e("SMALL"), "lock_rmmod")
    trow("the batch itself: %s bytes, `+p;-p;` x %s over %s sites"
         % (v(ours or up, "lock_batch_bytes"), q, ls),
         "lock_writer")
    trow("lock wait: `open`+`read(1)` of `control` during the first "
         "`func %s +p` after `%s` loaded (ours sorts its index then)"
         % (e("FUNC"), e("BIG")), "first_reader")
    trow("that first `func %s +p` itself" % e("FUNC"), "first_writer")

    # Bytes per site.
    def sects(d):
        return {k[5:]: int(x) for k, x in (d or {}).get("value", {}).items()
                if k.startswith("sect:")}

    su, so = sects(up), sects(ours)
    for name in sorted(set(su) | set(so)):
        pu = su.get(name)
        po = so.get(name)
        freed = " (freed once the module has loaded)" if name.startswith(".init") else ""
        crow("bytes per site: `%s`%s" % (name, freed),
             "%.2f" % (pu / sites) if pu is not None else ("–" if up else "not run"),
             "%.2f" % (po / sites) if po is not None else ("–" if ours else "not run"),
             pu or None, po or None)
    # What stays: the module loader frees the sections named .init* (its
    # init layout) after the module's init function ran.
    kept = lambda d: sum(x for k, x in d.items() if not k.startswith(".init"))
    tu = kept(su) if up else None
    to = kept(so) if ours else None
    crow("bytes per site: sections kept, total",
         "%.2f" % (tu / sites) if tu is not None else "not run",
         "%.2f" % (to / sites) if to is not None else "not run", tu, to)
    if up:
        tb = v(up, "table_bytes")
        slab = next((k for k in KMALLOC if tb and k >= tb), None)
        au = ("%d B (struct ddebug_table, kmalloc-%s) = %.4f" % (tb, slab, slab / sites)
              if tb else "n/a")
    else:
        au, slab = "not run", None
    if ours:
        ib = v(ours, "index_bytes")
        ao = "%d B = %.4f" % (ib, ib / sites) if ib is not None else \
            "n/a (no \"index N bytes\" line at verbose=1)"
    else:
        ao, ib = "not run", None
    crow("run-time allocations per module (per site)", au, ao, slab, ib,
         "alloc")
    if up and ours and tu is not None and to is not None:
        crow("bytes per site kept: total, before any site is enabled", "%.2f" % ((tu + (slab or 0)) / sites),
             "%.2f" % ((to + (ib or 0)) / sites), tu + (slab or 0), to + (ib or 0))

    # Ours adds a hit counter per site once any site of the module was
    # enabled; upstream counts nothing and allocates nothing more.
    if ours:
        cb = v(ours, "counter_bytes")
        if cb is None:
            missing.append("ours: value counter_bytes (no \"hit counters, N "
                           "bytes\" line at verbose=1)")
        else:
            crow("hit counters, allocated when a site of the module is first "
                 "enabled (per site)", "none" if up else "not run",
                 "%d B = %.2f" % (cb, cb / sites))
            if to is not None:
                crow("bytes per site kept: total, once a site was enabled",
                     "%.2f" % ((tu + (slab or 0)) / sites) if tu is not None
                     else "not run",
                     "%.2f" % ((to + (ib or 0) + cb) / sites),
                     tu + (slab or 0) if tu is not None else None,
                     to + (ib or 0) + cb)

    def nops(d):
        if not d:
            return "not run"
        n, e = v(d, "nop5"), v(d, "jump_entries")
        if n is None or e is None:
            return "n/a"
        return "%d/%d 5-byte nopl, %s 2-byte, %s other; shape %s" % (
            n, e, v(d, "nop2"), v(d, "nop_other"), g(d, "value", "nop_shape"))

    for impl in ran:
        for k in ("nop5", "nop2", "nop_other", "jump_entries", "nop_shape"):
            need(impl, "value", k)
        d = data.get(impl)
        if d is not None:
            if v(d, "jump_entries") != sites or v(d, "nop_other") != 0:
                failed.append("%s: %s jump entries, %s not NOPs (want %d NOPs)" % (
                    impl, v(d, "jump_entries"), v(d, "nop_other"), sites))
            if g(d, "value", "nop_shape") != "ok":
                failed.append("%s: nop-shape.sh failed on bench_small.ko" % impl)
    crow("disabled sites are inline NOPs (bench_big.ko)", nops(up), nops(ours))

    # The table.
    d0 = up or ours or {"info": {}, "value": {}}
    lines = []
    lines.append("# `make bench`: dynamic debug, ours against upstream 6.12")
    lines.append("")
    lines.append("- date: %s" % datetime.datetime.now(datetime.timezone.utc)
                 .strftime("%Y-%m-%d %H:%M UTC"))
    lines.append("- kernel: Linux %s (%s)" % (env_of("kernel", "?"),
                 " / ".join("%s %s" % (i, data[i]["info"].get("release", "?"))
                            for i in ran if data[i])))
    lines.append("- sites: %d in bench_big (%s files x 50 functions x 20 sites),"
                 " 10 in bench_small" % (sites, e("FILES")))
    host_cpu = "?"
    try:
        m = re.search(r"^model name\s*:\s*(.*)$", open("/proc/cpuinfo").read(), re.M)
        host_cpu = m.group(1) if m else "?"
    except OSError:
        pass
    lines.append("- host CPU: %s" % host_cpu)
    lines.append("- guest CPU: %s, %s online, clocksource %s" % (
        env_of("guest_cpu", "?"), env_of("cpus_online", "?"),
        " / ".join("%s %s" % (i, data[i]["info"].get("clocksource", "?"))
                   for i in ran if data[i])))
    lines.append("- repetitions: %d boot%s of each kernel%s, each %s" % (
        a.rounds, "s" if a.rounds > 1 else "",
        " (upstream, ours, upstream, ...)" if a.rounds > 1 and len(ran) > 1 else "",
        env_of("reps", "?")))
    lines.append("- command: `%s` (took %d s)" % (a.command, a.seconds))
    lines.append("")
    lines.append("Times: the fastest repetition (the median and the slowest), "
                 "measured in the guest. Ratio: upstream / ours, of the fastest "
                 "repetitions; above 1 means ours is faster, smaller or needs "
                 "fewer.")
    lines.append("")
    lines.append("| metric | upstream 6.12 | ours | ratio |")
    lines.append("| --- | --- | --- | --- |")
    for r in rows:
        lines.append("| %s | %s | %s | %s |" % r)
    lines.append("")
    if slower:
        lines.append("Rows below 1.00x, and why:")
        lines.append("")
        lines += ["- %s: %s" % r for r in slower]
        lines.append("")
    lines += METHOD.splitlines()
    distro = os.path.join(os.path.dirname(os.path.abspath(a.out)), "distro.md")
    if os.path.exists(distro):
        lines += ["", "## A distribution kernel (`make distro-check`, its own run)", ""]
        lines += open(distro).read().splitlines()[2:]
    if os.environ.get("BENCH_NOTE"):
        lines += ["", "## Notes on this run", ""] + os.environ["BENCH_NOTE"].splitlines()
    if missing or failed:
        lines.append("")
        lines.append("Problems:")
        lines += ["- %s" % x for x in missing + failed]
    text = "\n".join(lines) + "\n"
    print(text, end="")
    with open(a.out, "w") as f:
        f.write(text)
    return 1 if (missing or failed) else 0


if __name__ == "__main__":
    sys.exit(main())
