#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Analyses whose passes take two cores (issue 10, item 4) answer exactly as on one.

Profiles large enough to be split (over 2^18 kernels, API calls and NVTX ranges) in shapes
that take different paths: alternating kernel names, CUDA graphs (the launch table's
general walk), NCCL and start/end ranges in two processes, long kernels (2^32 ns and more,
the first pass's general case), and a profile whose medians need a histogram pass.  For
each, kernels, api, nvtx, launch and iterations with and without filters, with
SL_ANALYSIS_THREADS=2 against SL_ANALYSIS_THREADS=1; and the two-core per-name counts and
totals of kernels and API calls against SQL.

Usage: test-cli-threads.py SIGHTLINE-CLI SIGHTLINE-GEN"""
import json
import os
import sqlite3
import subprocess
import sys
import tempfile

import sl_cli_test
from sl_cli_test import check

CLI, GEN = sys.argv[1:3]
sl_cli_test.CLI = CLI

KERNELS = 400000   # above the split threshold (2^18) with some room

VARIANTS = [
    ["kernels", "--json"], ["kernels", "--json", "--gpu", "0"], ["kernels", "--json", "--names", "demangled"],
    ["kernels", "--json", "--range", "+0ms", "+300ms"], ["api", "--json"], ["api", "--json", "--gpu", "0"],
    ["nvtx", "--json"], ["nvtx", "--json", "--nvtx", "*"], ["launch", "--json"], ["launch", "--json", "--gpu", "0"],
    ["iterations", "--json"],
]


def run(args, threads):
    env = dict(os.environ, SL_ANALYSIS_THREADS=str(threads), SIGHTLINE_NO_CACHE="1")
    p = subprocess.run([CLI, *args], capture_output=True, text=True, env=env)
    check(p.returncode >= 0, f"{args}: killed by signal {-p.returncode}")
    return p.returncode, p.stdout, p.stderr


def generate(tmp, name, extra):
    path = os.path.join(tmp, name + ".sqlite")
    subprocess.run([GEN, path, "--kernels", str(KERNELS), *extra], check=True, capture_output=True)
    return path


def lengthen_kernels(path):
    """Some kernels of 2^32 ns and more (durations that do not fit 32 bits)."""
    db = sqlite3.connect(path)
    db.execute('UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET "end" = start + 5000000000 + rowid WHERE rowid % 5000 = 0')
    db.commit()
    db.close()


def heavy_tail(path):
    """Durations spread over many powers of two, so that medians take a histogram pass."""
    db = sqlite3.connect(path)
    db.execute('UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET "end" = start + 1000 + (rowid * 2654435761) % (1 << (rowid % 24))')
    db.commit()
    db.close()


def compare_threads(profile):
    name = os.path.basename(profile)
    for variant in VARIANTS:
        one = run([*variant, profile], 1)
        two = run([*variant, profile], 2)
        check(one[0] == 0, f"{name}: {' '.join(variant)} failed: {one[2][:300]}")
        check(one == two, f"{name}: {' '.join(variant)}: two cores {two[1][:200]!r}, one {one[1][:200]!r}")


def check_against_sql(profile):
    """The two-core answers of kernels and api per name, counted and summed by SQL."""
    db = sqlite3.connect(f"file:{profile}?mode=ro", uri=True)
    for command, member, table, name_column in [("kernels", "kernels", "CUPTI_ACTIVITY_KIND_KERNEL", "shortName"),
                                                ("api", "calls", "CUPTI_ACTIVITY_KIND_RUNTIME", "nameId")]:
        want = {row[0]: (row[1], row[2]) for row in db.execute(
            f'SELECT s.value, count(*), sum(t."end" - t.start) FROM {table} t '
            f'JOIN StringIds s ON s.id = t.{name_column} GROUP BY s.value')}
        _, out, _ = run([command, "--json", profile], 2)
        got = {row["name"]: (row["instances"], row["total_ns"]) for row in json.loads(out)[member]}
        check(got == want, f"{os.path.basename(profile)}: {command} per name {sorted(got.items())[:3]} "
                           f"!= SQL {sorted(want.items())[:3]}")
    db.close()


def main():
    with tempfile.TemporaryDirectory() as tmp:
        plain = generate(tmp, "plain", ["--gpus", "1"])   # one device: iterations split too
        graphs = generate(tmp, "graphs", ["--cuda-graph", "20x500", "--memcpy", "2000"])
        ranks = generate(tmp, "ranks", ["--nccl", "--processes", "2", "--async-ranges", "4", "--gpus", "4"])
        long = generate(tmp, "long", ["--seed", "3"])
        lengthen_kernels(long)
        tail = generate(tmp, "tail", ["--seed", "4"])
        heavy_tail(tail)
        for profile in (plain, graphs, ranks, long, tail):
            compare_threads(profile)
        check_against_sql(plain)
        check_against_sql(long)
    sys.exit(sl_cli_test.finish())


main()
