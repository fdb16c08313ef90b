#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Issue 9, item 4 and parts of item 7, end to end through sightline-cli.

- `gaps`: utilization is kernel time over the span; copies are reported
  beside it, and gaps are gaps in kernel activity with the copy time inside
  them.  Checked on a generated copy-bound GPU (the truth planted by the
  generator) and on every real profile against unions computed here from the
  export's own tables by SQL.
- `--range` forms: ns, exponents, units, +offsets from the profile start;
  anything else (bare fractions) is refused with a message naming the forms.
- GPU / pid / name filters that match nothing are an error (exit 1) that
  lists what the profile holds, in every command."""
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import sl_cli_test
from sl_cli_test import check, failures, run, run_json

CLI, PROFILES, GEN = sys.argv[1], sys.argv[2], sys.argv[3]
sl_cli_test.CLI = CLI


def table_exists(db, name):
    return db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (name,)).fetchone() is not None


def intervals(db, tables, device):
    rows = []
    for t in tables:
        if table_exists(db, t):
            rows += db.execute(f"SELECT start, end FROM {t} WHERE deviceId = ? AND end >= start", (device,)).fetchall()
    return sorted(rows)


def union(rows):
    """Disjoint runs of the union of [s, e) intervals."""
    runs = []
    for s, e in rows:
        if runs and s <= runs[-1][1]:
            runs[-1][1] = max(runs[-1][1], e)
        else:
            runs.append([s, e])
    return runs


def inside(runs, a, b):
    return sum(max(0, min(e, b) - max(s, a)) for s, e in runs)


KERNEL = ["CUPTI_ACTIVITY_KIND_KERNEL"]
COPIES = ["CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET"]


def check_gaps_against_sql(path, label):
    """Every device's kernel, copy and any-work busy time, span, utilization
    and its longest kernel gap with the copy time inside it, from SQL."""
    j = run_json("gaps", "--json", "--top", "3", path)
    if j is None:
        return
    check(j.get("busy") == "kernels", f"{label}: busy definition {j.get('busy')}")
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    for d in j["devices"]:
        dev, w = d["device"], f"{label} GPU {d['device']}"
        if "kernel_busy_ns" not in d:
            check(False, f"{w}: no kernel_busy_ns")
            continue
        k = union(intervals(db, KERNEL, dev))
        c = union(intervals(db, COPIES, dev))
        a = union(intervals(db, KERNEL + COPIES, dev))
        span = max(e for _, e in a) - a[0][0]
        kbusy, cbusy, busy = (sum(e - s for s, e in r) for r in (k, c, a))
        check(d["kernel_busy_ns"] == kbusy, f"{w}: kernel_busy_ns {d['kernel_busy_ns']} != SQL {kbusy}")
        check(d["copy_busy_ns"] == cbusy, f"{w}: copy_busy_ns {d['copy_busy_ns']} != SQL {cbusy}")
        check(d["busy_ns"] == busy, f"{w}: busy_ns {d['busy_ns']} != SQL {busy}")
        check(d["span_ns"] == span, f"{w}: span_ns")
        check(abs(d["utilization_pct"] - 100.0 * kbusy / span) < 1e-6, f"{w}: utilization_pct {d['utilization_pct']}")
        check(abs(d["any_busy_pct"] - 100.0 * busy / span) < 1e-6, f"{w}: any_busy_pct {d['any_busy_pct']}")
        kgaps = sorted(((k[i + 1][0] - k[i][1], k[i][1], k[i + 1][0]) for i in range(len(k) - 1)),
                       key=lambda g: (-g[0], g[1]))
        check(len(d["gaps"]) == min(3, len(kgaps)), f"{w}: {len(d['gaps'])} gaps, SQL {len(kgaps)}")
        for got, (dur, s, e) in zip(d["gaps"], kgaps):
            check((got["start_ns"], got["end_ns"], got["dur_ns"]) == (s, e, dur), f"{w}: gap {got} != SQL {(s, e)}")
            check(got["copy_ns"] == inside(c, s, e), f"{w}: gap copy_ns {got['copy_ns']} != SQL {inside(c, s, e)}")
        print(f"{w}: utilization {d['utilization_pct']:.2f}% (kernels), any work {d['any_busy_pct']:.2f}%")
    db.close()


with tempfile.TemporaryDirectory() as tmp:
    # A GPU that computes ~3 % of the time and copies the rest.
    heavy, truth_path = os.path.join(tmp, "copy-heavy.sqlite"), os.path.join(tmp, "copy-heavy.json")
    subprocess.run([GEN, heavy, "--gpus", "2", "--streams", "2", "--iterations", "5", "--kernels", "200",
                    "--copy-ns", "40000000", "--memcpy", "10", "--memset", "4", "--seed", "3",
                    "--truth", truth_path], check=True)
    truth = {g["device"]: g for g in json.load(open(truth_path))["gpus"]}
    j = run_json("gaps", "--json", heavy)
    for d in (j or {}).get("devices", []):
        t, w = truth[d["device"]], f"copy-heavy GPU {d['device']}"
        want = 100.0 * t["kernel_busy_ns"] / t["span_ns"]
        check(want < 5, f"{w}: the planted GPU computes {want:.1f} % of the time")
        check(abs(d["utilization_pct"] - want) < 1e-6, f"{w}: utilization_pct {d['utilization_pct']:.2f}, planted {want:.2f}")
        check(d.get("kernel_busy_ns") == t["kernel_busy_ns"], f"{w}: kernel_busy_ns")
        check(d.get("copy_busy_ns") == t["copy_busy_ns"], f"{w}: copy_busy_ns")
        check(d["busy_ns"] == t["busy_ns"], f"{w}: busy_ns (any work)")
        check(abs(d.get("any_busy_pct", -1) - 100.0 * t["busy_ns"] / t["span_ns"]) < 1e-6, f"{w}: any_busy_pct")
        # the planted 40 ms copies sit in gaps between steps' kernels
        check(d["gaps"] and d["gaps"][0].get("copy_ns", 0) >= 40000000, f"{w}: longest gap holds a planted copy")
    # --count-copies: any GPU work is busy, as before
    j = run_json("gaps", "--json", "--count-copies", heavy)
    for d in (j or {}).get("devices", []):
        t = truth[d["device"]]
        check(abs(d["utilization_pct"] - 100.0 * t["busy_ns"] / t["span_ns"]) < 1e-6, "--count-copies utilization")
        check(all(g["copy_ns"] == 0 for g in d["gaps"]), "--count-copies: no copy inside a gap")
    p = run("gaps", heavy)
    check("utilization 2." in p.stdout and "gaps in kernel activity" in p.stdout, f"gaps table: {p.stdout[:200]!r}")
    check_gaps_against_sql(heavy, "copy-heavy")

    profiles = sorted(os.path.join(PROFILES, n) for n in os.listdir(PROFILES) if n.endswith(".sqlite"))
    for path in profiles:
        check_gaps_against_sql(path, os.path.basename(path))

    # the gap count in the plural it needs, with and without --count-copies
    # (the mock RTX 3080 has one gap between its two kernels, the H100 many)
    counts = set()
    for extra, noun in (([], " in kernel activity"), (["--count-copies"], "")):
        for path in profiles:
            for line in (l for l in run("gaps", *extra, path).stdout.splitlines() if l.startswith("GPU ")):
                n = int(line.rsplit(", ", 1)[1].split(" ")[0])
                counts.add(n)
                want = f", {n} gap{'' if n == 1 else 's'}{noun}"
                check(line.endswith(want), f"gaps {extra} {os.path.basename(path)}: {line!r} does not end {want!r}")
    check(1 in counts and any(n > 1 for n in counts), f"gap counts seen: {sorted(counts)[:10]}")

    # --range forms, against the planted start and SQL counts
    start = json.load(open(truth_path))["start_ns"]
    db = sqlite3.connect(f"file:{heavy}?mode=ro", uri=True)

    def kernels_in(a, b):
        return db.execute("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE start >= ? AND start < ?",
                          (a, b)).fetchone()[0]

    def count(*rng):
        j = run_json("kernels", "--json", "--range", *rng, heavy)
        return sum(k["instances"] for k in j["kernels"]) if j else None

    a, b = start + 50_000_000, start + 150_000_000
    want = kernels_in(a, b)
    check(want > 0, "the window holds kernels")
    ua, ub = round(a / 1e3), round(b / 1e3)   # whole µs
    ma, mb = round(a / 1e6), round(b / 1e6)   # whole ms
    forms = [  # (START, END) as written, and the window they mean
        ((str(a), str(b)), (a, b)),
        ((f"{ma}e6", f"{mb}e6"), (ma * 10**6, mb * 10**6)),
        ((f"{ma}ms", f"{mb}ms"), (ma * 10**6, mb * 10**6)),
        ((f"{ma / 1e3:.3f}s", f"{mb / 1e3:.3f}s"), (ma * 10**6, mb * 10**6)),
        ((f"{ua}µs", f"{ub}us"), (ua * 1000, ub * 1000)),
        (("+50ms", "+150ms"), (a, b)), (("+0.05s", "+1.5e8"), (a, b)), (("+5e7", "+150000000ns"), (a, b)),
        ((f"{a}", "+150ms"), (a, b)),
    ]
    for f, (lo, hi) in forms:
        got = count(*f)
        check(got == kernels_in(lo, hi), f"--range {f}: {got} kernels, SQL {kernels_in(lo, hi)}")
    db.close()
    for bad in (["2.9", "3.3"], ["1.5", "2s"], ["1s", "2.0"], ["+1.2", "+2s"], ["1e-3", "1s"], ["+-1s", "+2s"]):
        p = run("kernels", "--range", *bad, heavy)
        check(p.returncode == 1 and "is not a time" in p.stderr and "+1.2s" in p.stderr and "1.5e9" in p.stderr
              and "ms" in p.stderr, f"--range {bad}: exit {p.returncode}: {p.stderr.strip()!r}")
    p = run("kernels", "--range", "+2s", "+1s", heavy)
    check(p.returncode == 1 and "must be after" in p.stderr, f"--range +2s +1s: {p.stderr!r}")
    # compare: "+" times are refused when the profiles start at different times
    other = os.path.join(tmp, "other.sqlite")
    subprocess.run([GEN, other, "--kernels", "300", "--iterations", "2", "--seed", "8"], check=True)
    p = run("compare", "--range", "+0", "+1s", heavy, other)
    check(p.returncode == 1 and "different times" in p.stderr, f"compare with +times: {p.stderr!r}")
    p = run("compare", "--json", "--range", "+0", "+1s", heavy, heavy)
    check(p.returncode == 0, f"compare of one start with +times: {p.stderr!r}")

    # filters that name nothing in the profile: exit 1, one line listing what exists
    commands = ["kernels", "api", "nvtx", "memcpy", "gaps", "overlap", "nccl", "iterations", "launch",
                "categories", "tree"]
    for cmd in commands + ["search x", "compare"]:
        argv = cmd.split() + ["--gpu", "99", heavy] + ([heavy] if cmd == "compare" else [])
        p = run(*argv)
        lines = [l for l in p.stderr.splitlines() if l.strip()]
        check(p.returncode == 1 and len(lines) == 1 and "--gpu 99" in p.stderr and "GPUs: 0, 1" in p.stderr
              and not p.stdout, f"{cmd} --gpu 99: exit {p.returncode}: {p.stderr!r} {p.stdout[:80]!r}")
        argv = cmd.split() + ["--pid", "1", heavy] + ([heavy] if cmd == "compare" else [])
        p = run(*argv)
        check(p.returncode == 1 and "--pid 1" in p.stderr and "processes:" in p.stderr,
              f"{cmd} --pid 1: exit {p.returncode}: {p.stderr!r}")
    pid = json.load(open(truth_path))["processes"][0]["pid"]
    p = run("kernels", "--pid", "1", heavy)
    check(str(pid) in p.stderr, f"the error lists pid {pid}: {p.stderr!r}")
    check(run("kernels", "--gpu", "1", "--pid", str(pid), heavy).returncode == 0, "existing GPU and pid pass")

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("utilization, ranges and filters OK")
