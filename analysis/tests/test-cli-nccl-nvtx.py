#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`nccl` lists NCCL's NVTX calls even when the profile lacks the row that
names NCCL's domain (issue 9, item 7): sliced captures keep the ranges, with
their domain id, but not the NvtxDomainCreate row.  Generated twice, with and
without the domain-create rows: both list the same calls, whose count is the
planted one (truth) and whose total is what SQL sums."""
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import sl_cli_test
from sl_cli_test import check, failures, run

CLI, GEN = sys.argv[1], sys.argv[2]
sl_cli_test.CLI = CLI


def nccl_calls(path):
    p = subprocess.run([CLI, "nccl", "--json", path], capture_output=True, text=True)
    check(p.returncode == 0, f"nccl {path}: exit {p.returncode}: {p.stderr.strip()}")
    return {r["name"]: r for r in json.loads(p.stdout)["nvtx"]} if p.returncode == 0 else {}


def sql_calls(path):
    """NCCL's ranges by SQL: the domain the generator plants them in (1), names by textId."""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        rows = db.execute("SELECT coalesce(e.text, s.value), count(*), sum(e.end - e.start) FROM NVTX_EVENTS e "
                          "LEFT JOIN StringIds s ON s.id = e.textId WHERE e.eventType = 59 AND e.domainId = 1 "
                          "GROUP BY 1").fetchall()
        creates = db.execute("SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 75").fetchone()[0]
    return {n: (c, t) for n, c, t in rows}, creates


with tempfile.TemporaryDirectory() as tmp:
    for extra in ([], ["--no-domain-names"]):
        path = os.path.join(tmp, f"nccl{len(extra)}.sqlite")
        truth_path = path + ".json"
        subprocess.run([GEN, path, "--gpus", "2", "--processes", "2", "--iterations", "3", "--kernels", "1200",
                        "--nccl", "--seed", "7", "--truth", truth_path, *extra], check=True)
        with open(truth_path) as f:
            planted = json.load(f)["counts"]["nvtx_nccl_ranges"]
        want, creates = sql_calls(path)
        what = "without domain-create rows" if extra else "with domain-create rows"
        check((creates == 0) == bool(extra), f"{what}: {creates} domain-create rows")
        check(planted > 0 and sum(c for c, _ in want.values()) == planted, f"{what}: SQL sees the planted ranges")
        got = nccl_calls(path)
        check(set(got) == set(want), f"{what}: NVTX calls {sorted(got)}, want {sorted(want)}")
        for name, (count, total) in want.items():
            row = got.get(name, {})
            check(row.get("count") == count and row.get("total_ns") == total,
                  f"{what}: {name}: count {row.get('count')} total {row.get('total_ns')}, want {count} {total}")

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("NCCL's NVTX calls are found with and without the domain-create rows")
