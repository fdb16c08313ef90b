#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""NVTX push/pop ranges nest the same whatever order the file stores them in.

The loader orders each thread's ranges by (start asc, end desc, file order)
before it nests them with a stack; ranges that come nearly in that order (as
exports store them, or with the outer ranges after the ranges they enclose,
as a tool writes them when they end) take a shorter way than ranges in any
order.  Every way must give the nesting of that rule, computed here from the
rows themselves: on a copy of a real profile with its NVTX rows stored
sorted, with each range moved after the ranges it encloses, reversed and
shuffled; and again with times coarsened so that many ranges share their
start, their end or both.  Compared per range as (thread, start, end, depth,
parent's start and end), which ties in the order cannot change."""
import os
import random
import shutil
import sqlite3
import sys
import tempfile
import sl_cli_test
from sl_cli_test import check, run_json

CLI, PROFILES = sys.argv[1], sys.argv[2]
sl_cli_test.CLI = CLI
SOURCE = os.path.join(PROFILES, "nsysai-h100-2gpu-1s.sqlite")
MAX_DEPTH = 1024


def expected_nesting(rows):
    """rows: (file position, globalTid, start, end) of push/pop ranges."""
    by_thread = {}
    for pos, tid, start, end in rows:
        by_thread.setdefault(tid, []).append((start, -end, pos))
    out = []
    for tid, ranges in by_thread.items():
        stack = []
        for start, neg_end, pos in sorted(ranges):
            end = -neg_end
            while stack and stack[-1][1] <= start:
                stack.pop()
            parent = (stack[-1][0], stack[-1][1]) if stack else None
            out.append((tid & 0xFFFFFF, start, end, min(len(stack), MAX_DEPTH - 1), parent))
            if len(stack) < MAX_DEPTH:
                stack.append((start, end))
    return sorted(out, key=repr)


def shown_nesting(path):
    tree = run_json("tree", "--json", "--exact-names", path)
    out = []

    def walk(node, depth, parent):
        if node["kind"] != "range":
            return
        out.append((node["tid"], node["start_ns"], node["end_ns"], depth, parent))
        for child in node["children"]:
            walk(child, depth + 1, (node["start_ns"], node["end_ns"]))

    for root in tree["roots"]:
        walk(root, 0, None)
    return sorted(out, key=repr)


def after_enclosed(rows, outermost_only=False):
    """Each range (or each range no other range encloses) moved after the
    last range it encloses on its thread; @rows sorted by (start, -end)."""
    open_until = {}
    keyed = []
    for i, (rowid, tid, start, end) in enumerate(rows):
        last = i
        outermost = open_until.get(tid, start) <= start
        if outermost:
            open_until[tid] = end
        if outermost or not outermost_only:
            for j in range(i + 1, len(rows)):
                if rows[j][2] >= end:
                    break
                if rows[j][1] == tid and rows[j][3] <= end:
                    last = j
        keyed.append((last, -i, rows[i]))
    return [r for _, _, r in sorted(keyed)]


def store(path, order):
    """Rewrites NVTX_EVENTS with its rows in @order (rowids in that order)."""
    db = sqlite3.connect(path)
    cols = [c[1] for c in db.execute("PRAGMA table_info(NVTX_EVENTS)")]
    quoted = ", ".join('"%s"' % c for c in cols)
    rows = {r[0]: r[1:] for r in db.execute(f"SELECT rowid, {quoted} FROM NVTX_EVENTS")}
    db.execute("DELETE FROM NVTX_EVENTS")
    marks = ", ".join("?" for _ in cols)
    db.executemany(f"INSERT INTO NVTX_EVENTS ({quoted}) VALUES ({marks})", [rows[r] for r in order])
    db.commit()
    db.close()


def coarsen(path, grid):
    db = sqlite3.connect(path)
    db.execute('UPDATE NVTX_EVENTS SET start = start / ?1 * ?1, "end" = ("end" + ?1 - 1) / ?1 * ?1',
               (grid,))
    db.commit()
    db.close()


def push_pop_rows(path):
    db = sqlite3.connect(path)
    rows = list(db.execute('SELECT rowid, globalTid, start, "end" FROM NVTX_EVENTS '
                           'WHERE eventType = 59 ORDER BY rowid'))
    db.close()
    return rows


def orders(rows):
    by_start = [r[0] for r in sorted(rows, key=lambda r: (r[2], -r[3], r[0]))]
    shuffled = [r[0] for r in rows]
    random.Random(7).shuffle(shuffled)
    return {
        "sorted": by_start,
        "outer ranges last": [r[0] for r in after_enclosed(sorted(rows, key=lambda r: (r[2], -r[3])))],
        "outermost ranges last": [r[0] for r in after_enclosed(sorted(rows, key=lambda r: (r[2], -r[3])),
                                                               outermost_only=True)],
        "reversed": by_start[::-1],
        "shuffled": shuffled,
    }


def check_orders(tmp, label, grid):
    base = os.path.join(tmp, "base.sqlite")
    shutil.copy(SOURCE, base)
    if grid:
        coarsen(base, grid)
    rows = push_pop_rows(base)
    check(len(rows) > 10000, f"{label}: the profile has push/pop ranges ({len(rows)})")
    if grid:
        starts = {(r[1], r[2]) for r in rows}
        spans = {(r[1], r[2], r[3]) for r in rows}
        check(len(starts) < len(rows) / 2 and len(spans) < len(rows) * 0.9,
              f"{label}: many ranges share a start ({len(rows) - len(starts)}) "
              f"or start and end ({len(rows) - len(spans)})")
    for name, order in orders(rows).items():
        path = os.path.join(tmp, "p.sqlite")
        shutil.copy(base, path)
        store(path, order)
        stored = push_pop_rows(path)
        # the file's order after the rewrite: rowids follow @order
        expected = expected_nesting([(i, r[1], r[2], r[3]) for i, r in enumerate(stored)])
        shown = shown_nesting(path)
        check(len(shown) == len(expected), f"{label}, {name}: {len(shown)} ranges shown, {len(expected)} stored")
        diff = [(a, b) for a, b in zip(shown, expected) if a != b]
        check(not diff, f"{label}, {name}: nesting as the rule gives it"
                        + (f" (first difference: shown {diff[0][0]}, expected {diff[0][1]})" if diff else ""))
        if grid == 0 and name == "sorted":
            depths = {e[3] for e in expected}
            check(max(depths) >= 3, f"{label}: ranges nest several levels deep ({max(depths)})")
        os.unlink(path)


with tempfile.TemporaryDirectory() as tmp:
    os.environ["SIGHTLINE_NO_CACHE"] = "1"
    check_orders(tmp, "as captured", 0)
    check_orders(tmp, "times on a 200 µs grid", 200_000)
sys.exit(sl_cli_test.finish())
