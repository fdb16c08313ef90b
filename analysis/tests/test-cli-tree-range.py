#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`tree --range A B` keeps whole NVTX paths (issue 9, item 3).

A window counts a kernel by its GPU start time, like `kernels --range`, and
hangs it under its full NVTX path as computed on the whole profile, even when
the enclosing ranges began or ended (on the CPU) outside the window.  For many
windows, on the h100 profile and on a generated one:
  - the kernel leaves of `tree --range` number what SQL counts in the window
    (and what `kernels --range` counts);
  - every leaf's path of range names equals its path in the unwindowed tree."""
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


def leaves(tree):
    """{(device, correlation_id, start_ns): path of range names} of every kernel."""
    out = {}

    def walk(node, path):
        if node["kind"] == "kernel":
            out[(node["device"], node["correlation_id"], node["start_ns"])] = tuple(path)
            return
        for child in node["children"]:
            walk(child, path + [node["name"]])

    for root in tree["roots"]:
        walk(root, [])
    return out


def sql_count(path, a, b):
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        return db.execute("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE start >= ? AND start < ?",
                          (a, b)).fetchone()[0]


def windows(path):
    """The issue's window (h100) and a table of cuts across the GPU span:
    halves, tenths, thin slices and windows that cut into ranges."""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        lo, hi = db.execute("SELECT min(start), max(end) FROM CUPTI_ACTIVITY_KIND_KERNEL").fetchone()
    span = hi - lo
    w = [(lo, hi + 1), (lo, lo + span // 2), (lo + span // 2, hi + 1), (lo + span // 3, lo + 2 * span // 3)]
    w += [(lo + i * span // 10, lo + (i + 1) * span // 10) for i in range(10)]
    w += [(lo + f * span // 1000, lo + f * span // 1000 + 1000000) for f in (1, 137, 500, 731, 999)]
    return w


def check_profile(path, extra_windows=()):
    name = os.path.basename(path)
    whole = run_json("tree", "--json", path)
    full = leaves(whole)
    for a, b in list(extra_windows) + windows(path):
        what = f"{name} --range {a} {b}"
        tree = run_json("tree", "--json", "--range", str(a), str(b), path)
        kernels = run_json("kernels", "--json", "--range", str(a), str(b), path)
        if tree is None or kernels is None:
            continue
        got = leaves(tree)
        want = sql_count(path, a, b)
        check(sum(k["instances"] for k in kernels["kernels"]) == want, f"{what}: kernels --range counts {want}")
        check(len(got) == want, f"{what}: tree has {len(got)} kernel leaves, SQL counts {want} kernels")
        check(all(a <= key[2] < b for key in got), f"{what}: a leaf starts outside the window")
        moved = [k for k, p in got.items() if full.get(k) != p]
        check(not moved, f"{what}: {len(moved)} kernels lost part of their NVTX path, e.g. {moved[:1]}")


h100 = os.path.join(PROFILES, "nsysai-h100-2gpu-1s.sqlite")
check_profile(h100, [(155600000000, 156100000000)])
with tempfile.TemporaryDirectory() as tmp:
    gen = os.path.join(tmp, "gen.sqlite")
    subprocess.run([GEN, gen, "--gpus", "2", "--streams", "2", "--processes", "2", "--iterations", "3",
                    "--kernels", "1500", "--nccl", "--memcpy", "20", "--gap-ns", "1000000", "--seed", "4"],
                   check=True)
    check_profile(gen)

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("tree --range keeps every kernel of the window with its whole NVTX path")
