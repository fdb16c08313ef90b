#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""NVTX names grouped the way a user reads them (issue 9, item 5).

`nvtx` and `tree` group names that differ only by PyTorch's argument items
(", op_id = N", ", seq = N", ", sizes = [...]", ...) unless --exact-names, and
echo "exact_names".  Checked on the h100 capture (PyTorch emit_nvtx) against
SQL with an independent implementation of the rule (a regular expression).
A name has one identity whether a row stores it inline (text) or by textId:
a generated profile stores every other NCCL range name each way."""
import collections
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import sl_cli_test
from sl_cli_test import check, failures, run, run_json

CLI, PROFILES, GEN = sys.argv[1], sys.argv[2], sys.argv[3]
sl_cli_test.CLI = CLI
ARGS = re.compile(r"^(.+?)(?:, (?:(?:stashed )?seq|op_id) = -?\d+|, (?:sizes|input_op_ids) = \[.*\])+$")


def group(name):
    m = ARGS.match(name)
    return m.group(1) if m else name


def sql_ranges(path):
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        return db.execute("SELECT coalesce(e.text, s.value), e.end - e.start FROM NVTX_EVENTS e "
                          "LEFT JOIN StringIds s ON s.id = e.textId WHERE e.eventType IN (59, 60) "
                          "AND e.end IS NOT NULL").fetchall()


def expect(rows, key):
    count, total = collections.Counter(), collections.Counter()
    for name, dur in rows:
        count[key(name)] += 1
        total[key(name)] += dur
    return count, total


def check_nvtx(path, exact):
    what = f"nvtx {os.path.basename(path)}{' --exact-names' if exact else ''}"
    j = run_json("nvtx", "--json", "--top", "0", *(["--exact-names"] if exact else []), path)
    if j is None:
        return
    check(j.get("exact_names") is exact, f"{what}: exact_names {j.get('exact_names')!r}")
    count, total = expect(sql_ranges(path), (lambda n: n) if exact else group)
    got = {r["name"]: r for r in j["ranges"]}
    check(len(got) == len(j["ranges"]) == len(count), f"{what}: {len(j['ranges'])} rows, SQL groups {len(count)}")
    wrong = [n for n in count if got.get(n, {}).get("instances") != count[n] or got[n]["total_ns"] != total[n]]
    check(not wrong, f"{what}: {len(wrong)} rows differ from SQL, e.g. {wrong[:2]}")


def range_names(tree):
    out = []

    def walk(node):
        if node["kind"] == "range":
            out.append(node["name"])
        for c in node["children"]:
            walk(c)

    for r in tree["roots"]:
        walk(r)
    return out


h100 = os.path.join(PROFILES, "nsysai-h100-2gpu-1s.sqlite")
for exact in (False, True):
    check_nvtx(h100, exact)
raw = collections.Counter(n for n, _ in sql_ranges(h100))
for exact in (False, True):
    t = run_json("tree", "--json", *(["--exact-names"] if exact else []), h100)
    if t is not None:
        check(t.get("exact_names") is exact, f"tree --json: exact_names {t.get('exact_names')!r}")
        want = raw if exact else collections.Counter({g: 0 for g in map(group, raw)})
        if not exact:
            for n, c in raw.items():
                want[group(n)] += c
        check(collections.Counter(range_names(t)) == want, f"tree exact={exact}: range names differ from SQL")

with tempfile.TemporaryDirectory() as tmp:
    gen = os.path.join(tmp, "mixed.sqlite")
    subprocess.run([GEN, gen, "--nccl", "--mixed-name-storage", "--iterations", "3", "--kernels", "1200", "--seed", "3",
                    "--truth", gen + ".json"], check=True)
    with open(gen + ".json") as f:
        planted = json.load(f)["counts"]["nvtx_nccl_ranges"]
    with sqlite3.connect(f"file:{gen}?mode=ro", uri=True) as db:
        inline, by_id = db.execute("SELECT count(text), count(textId) FROM NVTX_EVENTS WHERE domainId = 1 "
                                   "AND eventType = 59").fetchone()
    check(inline > 0 and by_id > 0 and inline + by_id == planted, f"mixed storage: {inline} inline, {by_id} by id")
    for exact in (False, True):
        check_nvtx(gen, exact)
        j = run_json("nvtx", "--json", "--top", "0", *(["--exact-names"] if exact else []), gen)
        rows = [r for r in j["ranges"] if r["name"] == "ncclAllReduce"] if j else []
        check(len(rows) == 1 and rows[0]["instances"] == planted,
              f"mixed storage, exact={exact}: ncclAllReduce rows {[r['instances'] for r in rows]}, want [{planted}]")

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("NVTX names are grouped by the rule, or kept exact, in nvtx and tree")
