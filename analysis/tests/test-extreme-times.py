#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Issue 10: absurd times never crash and never corrupt the answers.

Profiles from tests/gen/sl-gen-extreme.py (times at and beyond ±2^62 ns,
start > end, NULL times, events longer than the capture, sums of durations
beyond 64 bits, a 2^63 ns span, durations around 2^32 ns) go through every
sightline-cli command, as a table and as JSON, whole and with --gpu and
--range; each must exit 0 with nothing from a sanitizer or GLib on stderr.
The plausible events' answers (counts, totals, spans) are computed here from
the SQL and compared; a sum beyond 2^63 - 1 ns is reported as 2^63 - 1.
With --probe, the timeline's renderer (widgets/tests/timeline-probe) draws
each profile offscreen at several zooms under the same rules.

    test-extreme-times.py --gen SIGHTLINE-GEN --extreme SL-GEN-EXTREME.PY
                          [--cli SIGHTLINE-CLI] [--probe TIMELINE-PROBE]"""
import argparse
import importlib.util
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import sl_cli_test
from sl_cli_test import check, run

MAX = 2**63 - 1
COMMANDS = ["info", "kernels", "api", "nvtx", "memcpy", "gaps", "overlap", "nccl", "iterations", "launch",
            "categories", "tree"]
# Signs of undefined behaviour, a sanitizer report or a failed GLib check.
ALARMS = ["runtime error", "Sanitizer", "CRITICAL", "WARNING **", "Segmentation", "Aborted"]

args = argparse.ArgumentParser()
args.add_argument("--gen", required=True)
args.add_argument("--extreme", required=True)
args.add_argument("--cli")
args.add_argument("--probe")
opts = args.parse_args()
sl_cli_test.CLI = opts.cli

spec = importlib.util.spec_from_file_location("sl_gen_extreme", opts.extreme)
extreme = importlib.util.module_from_spec(spec)
spec.loader.exec_module(extreme)


def quiet(p, what, codes=(0,)):
    """@p exited with one of @codes and its stderr raises no alarm."""
    check(p.returncode in codes, f"{what}: exit {p.returncode}: {p.stderr.strip()[-600:]}")
    alarms = [a for a in ALARMS if a in p.stderr]
    check(not alarms, f"{what}: {alarms} on stderr: {p.stderr[:1500]}")
    if p.returncode != 0:
        check(p.stderr.count("\n") == 1, f"{what}: an error is one line: {p.stderr!r}")


def cli_json(*argv):
    p = run(*argv)
    quiet(p, " ".join(argv[:-1]))
    try:
        return json.loads(p.stdout) if p.returncode == 0 else None
    except ValueError as e:
        check(False, f"{argv}: not JSON ({e})")
        return None


def saturated(total):
    return min(total, MAX)


class Truth:
    """The plausible events of a profile, by SQL and sl-gen-extreme's rule."""

    def __init__(self, path):
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        cap = extreme.capture_duration(db)
        self.impossible = 0

        def rows(query):
            out = []
            for r in db.execute(query):
                if extreme.plausible(r[0], r[1], cap):
                    out.append(r)
                elif r[0] is not None and r[1] is not None and r[1] >= r[0]:
                    self.impossible += 1   # not "end before start": absurd
            return out

        self.kernels = rows("SELECT k.start, k.end, s.value, k.deviceId FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                            "JOIN StringIds s ON s.id = k.shortName")
        self.memcpy = rows("SELECT start, end, deviceId FROM CUPTI_ACTIVITY_KIND_MEMCPY")
        self.memset = rows("SELECT start, end, deviceId FROM CUPTI_ACTIVITY_KIND_MEMSET")
        self.api = rows("SELECT start, end FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE eventClass IN (0, 1)")
        self.nvtx = rows("SELECT start, end FROM NVTX_EVENTS WHERE eventType IN (59, 60) AND end IS NOT NULL")
        self.syncs = rows("SELECT start, end FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION")
        marks = [r for r in db.execute("SELECT start, NULL FROM NVTX_EVENTS WHERE eventType = 34")]
        self.marks = [r for r in marks if extreme.plausible(r[0], None, cap, mark=True)]
        self.impossible += sum(1 for r in marks if r[0] is not None and r not in self.marks)
        db.close()
        every = self.kernels + self.memcpy + self.memset + self.api + self.nvtx + self.syncs
        self.start = min([r[0] for r in every + self.marks])
        self.end = max([r[1] for r in every] + [r[0] for r in self.marks])

    def device_span(self, device):
        rows = [r for r in self.kernels + self.memcpy + self.memset if r[-1] == device]
        return max(r[1] for r in rows) - min(r[0] for r in rows)


def check_info(path, t, label):
    j = cli_json("info", "--json", path)
    if j is None:
        return
    c = j["counts"]
    for key, want in [("kernels", len(t.kernels)), ("memcpy", len(t.memcpy)), ("memset", len(t.memset)),
                      ("cuda_api", len(t.api)), ("nvtx_ranges", len(t.nvtx)), ("nvtx_marks", len(t.marks))]:
        check(c[key] == want, f"{label} info: counts.{key} {c[key]}, plausible rows {want}")
    check((j["start_ns"], j["end_ns"]) == (t.start, t.end),
          f"{label} info: [{j['start_ns']}, {j['end_ns']}] != plausible [{t.start}, {t.end}]")
    check(j["duration_ns"] == t.end - t.start, f"{label} info: duration_ns {j['duration_ns']}")
    said = [w for w in j["warnings"] if "impossible time" in w]
    if t.impossible:
        check(len(said) == 1 and f"Skipped {t.impossible} " in said[0],
              f"{label} info: {t.impossible} impossible times, warnings {j['warnings']}")
    else:
        check(not said, f"{label} info: no impossible times, warnings {j['warnings']}")


def check_kernels(path, t, label):
    j = cli_json("kernels", "--json", path)
    if j is None:
        return
    check(sum(k["instances"] for k in j["kernels"]) == len(t.kernels), f"{label} kernels: instances")
    check(j["total_ns"] == saturated(sum(r[1] - r[0] for r in t.kernels)), f"{label} kernels: total_ns {j['total_ns']}")
    for k in j["kernels"]:
        durs = [r[1] - r[0] for r in t.kernels if r[2] == k["name"]]
        w = f"{label} kernels {k['name']}"
        if not check(durs, f"{w}: no such plausible kernel"):
            continue
        check(k["instances"] == len(durs), f"{w}: instances {k['instances']} != {len(durs)}")
        check(k["total_ns"] == saturated(sum(durs)), f"{w}: total_ns {k['total_ns']} != {saturated(sum(durs))}")
        check((k["min_ns"], k["max_ns"]) == (min(durs), max(durs)), f"{w}: min/max")
        check(abs(k["avg_ns"] - sum(durs) / len(durs)) <= max(1, 1e-12 * abs(sum(durs) / len(durs))),
              f"{w}: avg_ns {k['avg_ns']} != {sum(durs) / len(durs)}")
        if len(durs) >= 2:
            sd = statistics.stdev(durs)
            check(abs(k["stddev_ns"] - sd) <= max(1, 1e-9 * sd), f"{w}: stddev_ns {k['stddev_ns']} != {sd}")
        check(0 <= k["time_pct"] <= 100, f"{w}: time_pct {k['time_pct']}")


def check_api_memcpy_gaps(path, t, label):
    j = cli_json("api", "--json", path)
    if j is not None:
        check(sum(c["instances"] for c in j["calls"]) == len(t.api), f"{label} api: instances")
        check(j["total_ns"] == saturated(sum(r[1] - r[0] for r in t.api)), f"{label} api: total_ns")
    j = cli_json("memcpy", "--json", path)
    if j is not None:
        check(sum(o["count"] for o in j["operations"]) == len(t.memcpy) + len(t.memset), f"{label} memcpy: count")
        want = saturated(sum(r[1] - r[0] for r in t.memcpy + t.memset))
        got = sum(o["total_ns"] for o in j["operations"])
        check(got == want or (got >= MAX and want == MAX), f"{label} memcpy: total {got} != {want}")
    j = cli_json("gaps", "--json", path)
    if j is not None:
        for d in j["devices"]:
            w = f"{label} gaps GPU {d['device']}"
            check(d["span_ns"] == t.device_span(d["device"]), f"{w}: span_ns {d['span_ns']}")
            check(0 <= d["kernel_busy_ns"] <= d["busy_ns"] <= d["span_ns"], f"{w}: busy within the span")
            check(d["idle_ns"] == d["span_ns"] - d["busy_ns"], f"{w}: idle_ns")
            check(0 <= d["utilization_pct"] <= 100 and 0 <= d["any_busy_pct"] <= 100, f"{w}: percentages")


def check_every_command(path, base, t, label):
    """Every command, table and JSON, whole, on GPU 0, and in windows."""
    ranges = [["--range", "+0", "+50ms"], ["--range", str(t.start), str(t.end)],
              ["--range", str(-2**62), str(2**62 - 1)]]
    for cmd in COMMANDS:
        for extra in [[], ["--gpu", "0"]] + ranges:
            if cmd == "info" and extra:
                continue
            for js in ([], ["--json"]):
                quiet(run(cmd, *extra, *js, path), f"{label}: {cmd} {' '.join(extra + js)}")
    for js in ([], ["--json"]):
        for pattern in ["kernel", "/^nccl/i", "layer"]:
            quiet(run("search", *js, pattern, path), f"{label}: search {pattern} {' '.join(js)}")
            quiet(run("search", "--range", "+0", "+1s", *js, pattern, path), f"{label}: search --range {pattern}")
        quiet(run("compare", *js, base, path), f"{label}: compare base {label}")
        quiet(run("compare", *js, path, base, path), f"{label}: compare {label} base {label}")
    # Each command's own options, and scopes (NVTX, category, stream).
    stream = str(t.kernels and sqlite3.connect(path).execute(
        "SELECT streamId FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY rowid LIMIT 1").fetchone()[0])
    for argv in [["kernels", "--top", "3", "--names", "demangled"], ["gaps", "--count-copies"],
                 ["gaps", "--min-gap", "1ms", "--top", "3"], ["iterations", "--method", "nvtx"],
                 ["iterations", "--method", "kernels"], ["iterations", "--method", "gaps"],
                 ["iterations", "--method", "gaps", "--min-gap", "1ms"], ["launch", "--names", "demangled"],
                 ["tree", "--depth", "2", "--min-dur", "1us"], ["search", "--limit", "0", "kernel"],
                 ["compare", "--top", "3", "--names", "demangled", base],
                 ["kernels", "--nvtx", "iteration_*"], ["gaps", "--exclude-nvtx", "layer*"],
                 ["nvtx", "--nvtx", "forward"], ["tree", "--nvtx", "iteration_*"], ["api", "--nvtx", "iteration_*"],
                 ["categories", "--category", "gemm"], ["overlap", "--exclude-category", "gemm"],
                 ["launch", "--stream", stream], ["iterations", "--stream", stream], ["memcpy", "--stream", stream]]:
        for js in ([], ["--json"]):
            quiet(run(*argv, *js, path), f"{label}: {' '.join(argv + js)}")
    # Windows at the ends of the clock: refused (exit 1) or answered, never wrong.
    for lo, hi in [("-9223372036854775808", "9223372036854775807"), ("+9223372036854775807ns", "+9223372036854775807ns"),
                   ("-9.3e18", "9.3e18"), ("+0", "+9223372036854775807ns"), ("+-9223372036854775807ns", "+0")]:
        for cmd in ["kernels", "gaps", "tree", "iterations"]:
            quiet(run(cmd, "--json", f"--range={lo},{hi}", path), f"{label}: {cmd} --range {lo} {hi}", codes=(0, 1))


def check_probe(path, label):
    p = subprocess.run([opts.probe, path], capture_output=True, text=True)
    quiet(p, f"{label}: timeline-probe")


with tempfile.TemporaryDirectory() as tmp:
    base = os.path.join(tmp, "base.sqlite")
    subprocess.run([opts.gen, base, "--gpus", "2", "--streams", "2", "--kernels", "3000", "--nccl", "--memcpy", "60",
                    "--memset", "20", "--iterations", "4", "--nvtx-depth", "3", "--seed", "7"],
                   check=True, stdout=subprocess.DEVNULL)
    for name in extreme.VARIANTS:
        path = extreme.write_variant(base, tmp, name)
        t = Truth(path)
        print(f"{name}: {len(t.kernels)} plausible kernels, {t.impossible} impossible rows, "
              f"span {t.end - t.start} ns")
        if opts.cli:
            check_info(path, t, name)
            check_kernels(path, t, name)
            check_api_memcpy_gaps(path, t, name)
            check_every_command(path, base, t, name)
        if opts.probe:
            check_probe(path, name)

sys.exit(sl_cli_test.finish())
