#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The NVTX page's aggregated tree (sl-tree-agg) against an independent route.

For every real profile and two generated ones (NVTX steps, and PyTorch-style
per-op names that group), with grouped and with exact names: the JSON of
`sightline-cli tree --json` is aggregated here, in Python, by path of
(kind, name) (ranges by name, kernels by name under their range), and each
path's instance count, summed CPU time, summed GPU time (a range's GPU
projection, a kernel's duration) and kernel count must equal what
sl_tree_agg_compute() gives (printed by tree-agg-dump).  Every path appears
once in the aggregate (identical paths merged), and the aggregate's kernels
number the kernel rows SQL counts."""
import collections
import glob
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import sl_cli_test
from sl_cli_test import check, run_json

CLI, DUMP, PROFILES, GEN = sys.argv[1:5]
sl_cli_test.CLI = CLI


def aggregate_cli(tree):
    """{path: [instances, cpu_ns, gpu_ns, kernels]} from the unaggregated tree."""
    out = collections.defaultdict(lambda: [0, 0, 0, 0])

    def walk(node, path):
        p = path + ((node["kind"], node["name"]),)
        a = out[p]
        a[0] += 1
        if node["kind"] == "kernel":
            a[2] += node["end_ns"] - node["start_ns"]
            a[3] += 1
            return 1
        a[1] += node["end_ns"] - node["start_ns"]
        if node["gpu_start_ns"] is not None:
            a[2] += node["gpu_end_ns"] - node["gpu_start_ns"]
        k = sum(walk(c, p) for c in node["children"])
        a[3] += k
        return k

    for root in tree["roots"]:
        walk(root, ())
    return dict(out)


def flatten_agg(agg, what):
    out = {}

    def walk(node, path):
        p = path + ((node["kind"], node["name"]),)
        check(p not in out, f"{what}: path {p} appears twice: identical paths not merged")
        out[p] = [node["instances"], node["cpu_ns"], node["gpu_ns"], node["kernels"]]
        for c in node["children"]:
            walk(c, p)

    for root in agg["roots"]:
        walk(root, ())
    return out


def sql_kernels(path):
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        if not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'CUPTI_ACTIVITY_KIND_KERNEL'").fetchone():
            return 0
        return db.execute("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL").fetchone()[0]


def check_profile(path):
    name = os.path.basename(path)
    for exact in (False, True):
        flag = ["--exact-names"] if exact else []
        what = f"{name} exact={exact}"
        tree = run_json("tree", "--json", *flag, path)
        p = subprocess.run([DUMP, path, *flag], capture_output=True, text=True)
        if not check(p.returncode == 0, f"{what}: tree-agg-dump exit {p.returncode}: {p.stderr[-300:]}") or tree is None:
            continue
        agg = json.loads(p.stdout)
        want = aggregate_cli(tree)
        got = flatten_agg(agg, what)
        check(agg["exact_names"] == exact, f"{what}: exact_names {agg['exact_names']}")
        missing = sorted(set(want) - set(got))[:3]
        extra = sorted(set(got) - set(want))[:3]
        check(not missing and not extra, f"{what}: paths differ: missing {missing}, extra {extra}")
        wrong = [(k, got[k], v) for k, v in want.items() if k in got and got[k] != v]
        check(not wrong, f"{what}: {len(wrong)} paths differ, e.g. {wrong[:2]} (got, want)")
        n = sql_kernels(path)
        check(agg["kernels"] == n, f"{what}: aggregate holds {agg['kernels']} kernels, SQL counts {n}")
        check(sum(r["kernels"] for r in agg["roots"]) == n, f"{what}: roots' kernels do not add up to {n}")
        print(f"{what}: {len(got)} paths from {sum(v[0] for v in want.values())} nodes agree")


for path in sorted(glob.glob(os.path.join(PROFILES, "*.sqlite"))):
    check_profile(path)
with tempfile.TemporaryDirectory() as tmp:
    for style in ("steps", "per-op"):
        gen = os.path.join(tmp, f"gen-{style}.sqlite")
        subprocess.run([GEN, gen, "--gpus", "2", "--processes", "2", "--iterations", "4", "--kernels", "3000",
                        "--nccl", "--nvtx-style", style, "--seed", "11"], check=True)
        check_profile(gen)
sys.exit(sl_cli_test.finish())
