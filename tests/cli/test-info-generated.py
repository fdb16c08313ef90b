#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""sightline-cli info on generated exports of every layout (2026, 2022,
2020) against the generator's truth manifest: counts, time range, GPUs and
their streams, processes, skipped bad rows."""
import json
import os
import subprocess
import sys
import tempfile

CLI, GEN = sys.argv[1], sys.argv[2]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


CASES = [
    ("current", ["--gpus", "3", "--streams", "2", "--processes", "2", "--threads", "3", "--nccl",
                 "--memcpy", "300", "--memset", "40", "--kernels", "6000", "--bad-rows", "3"]),
    ("2022", ["--gpus", "2", "--processes", "1", "--threads", "2", "--memcpy", "50", "--kernels", "3000"]),
    ("2020", ["--gpus", "2", "--kernels", "2000", "--memcpy", "20"]),
    ("current", ["--no-gpu", "--threads", "2"]),
    ("current", ["--gpus", "1", "--kernels", "500", "--nvtx-depth", "0"]),
]

tmp = tempfile.mkdtemp(prefix="sl-info-gen-")
for n, (layout, args) in enumerate(CASES):
    out = os.path.join(tmp, f"{n}-{layout}.sqlite")
    truth_path = out + ".json"
    subprocess.run([GEN, out, "--layout", layout, "--seed", str(7 + n), "--truth", truth_path, *args], check=True)
    truth = json.load(open(truth_path))
    r = subprocess.run([CLI, "info", "--json", out], capture_output=True, text=True)
    label = f"{layout} {' '.join(args)}"
    check(r.returncode == 0, f"{label}: exit {r.returncode}: {r.stderr}")
    if r.returncode != 0:
        continue
    d = json.loads(r.stdout)
    tc = truth["counts"]
    for key in ("kernels", "memcpy", "memset", "cuda_api", "nvtx_ranges", "nvtx_marks"):
        check(d["counts"][key] == tc[key], f"{label}: counts.{key} {d['counts'][key]} != {tc[key]}")
    check(d["start_ns"] == truth["start_ns"], f"{label}: start_ns")
    check(d["end_ns"] == truth["end_ns"], f"{label}: end_ns")
    check(d["nsys_version"] == truth["nsys_version"], f"{label}: nsys_version")
    want_gpus = [g for g in truth["gpus"] if g["kernels"] + g.get("memcpy", 0) + g.get("memset", 0) > 0]
    check([g["device"] for g in d["gpus"]] == [g["device"] for g in want_gpus], f"{label}: gpu list")
    for got, want in zip(d["gpus"], want_gpus):
        check(got["kernels"] == want["kernels"], f"{label}: gpu {want['device']} kernels")
        check(got["streams"] == sorted(want["streams"]), f"{label}: gpu {want['device']} streams")
        check(got["name"] == want["name"], f"{label}: gpu name")
        check(got["memory_bytes"] == want["memory_bytes"],
              f"{label}: gpu memory_bytes {got['memory_bytes']} != {want['memory_bytes']}")
    want_procs = {p["pid"]: p for p in truth["processes"]}
    for p in d["processes"]:
        w = want_procs.get(p["pid"])
        check(w is not None, f"{label}: unexpected pid {p['pid']}")
        if w:
            check(p["name"] == (w["name"] or w.get("main_thread_name")), f"{label}: process name {p['name']}")
            check(p["threads"] == w["threads"], f"{label}: threads of {p['pid']}")
    bad = tc["bad_rows"]
    if bad["total"]:
        text = " ".join(d["warnings"])
        check(f"Skipped {bad['kernel_end_before_start'] + bad['api_end_before_start']} events whose end" in text,
              f"{label}: bad-time warning in {d['warnings']}")
        check(f"Skipped {bad['kernel_dangling_string'] + bad['api_dangling_string']} events naming" in text,
              f"{label}: dangling-string warning")
    if tc["kernels"] == 0:
        check("no GPU activity" in subprocess.run([CLI, "info", out], capture_output=True, text=True).stdout,
              f"{label}: says there is no GPU activity")

print(f"{0 if failures else 1} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
