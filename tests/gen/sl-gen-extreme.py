#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Profiles with absurd times, made from a profile sightline-gen wrote.

    sl-gen-extreme.py BASE.sqlite OUTDIR

writes OUTDIR/VARIANT.sqlite for every variant below.  Each copies BASE,
lifts the NOT NULL constraints of the activity tables (real exports have
NULL ends, a damaged one can have anything) and adds copies of existing rows
with other times:

  bounds   every activity table gets rows at and beyond ±2^62 ns (up to
           ±(2^63 - 1) and -2^63), start > end, NULL start, NULL end, and a
           2^62 ns duration from a normal start: none of them is plausible.
  capture  ANALYSIS_DETAILS gives the capture's duration; kernels and calls
           far longer than it (2^61 ns, 2^62 ns, 1000 s) but inside ±2^62.
  sums     no capture duration: 40 plausible events per table, each nearly
           2^63 ns long (from -2^62 to 2^62 - 1), so every sum of durations
           overflows 64 bits.
  long     durations around 2^32 ns (4.29 s: the model's long-duration side
           table) among the normal events.
  span     two short kernels (and calls, ranges, marks) at -2^62 and
           2^62 - 1 ns: the profile spans 2^63 - 1 ns.
  details  ANALYSIS_DETAILS rows that cannot be right (negative, zero and
           2^63 - 1 durations) are ignored: no event is skipped for them.

The rules a test checks the CLI against are in plausible() below."""
import os
import re
import shutil
import sqlite3
import sys

MAX = 2**63 - 1
MIN = -2**63
B = 2**62

GPU_TABLES = ["CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET",
              "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"]
TIMED_TABLES = GPU_TABLES + ["CUPTI_ACTIVITY_KIND_RUNTIME", "NVTX_EVENTS"]
NVTX_PUSHPOP, NVTX_MARK = 59, 34


def max_duration(capture_ns):
    """The longest plausible event for a capture of @capture_ns (None: no
    capture duration in the file), as the loader decides it."""
    if capture_ns is None or capture_ns <= 0 or capture_ns >= B:
        return None
    return 2 * capture_ns + 1_000_000_000


def capture_duration(db):
    try:
        row = db.execute("SELECT max(duration) FROM ANALYSIS_DETAILS").fetchone()
    except sqlite3.OperationalError:
        return None
    return row[0] if row and isinstance(row[0], int) else None


def plausible(start, end, capture_ns, mark=False):
    """Whether the loader keeps an event of [start, end], or a @mark at start."""
    if start is None or not -B <= start < B:
        return False
    if mark:
        return True
    if end is None or not -B <= end < B or end < start:
        return False
    bound = max_duration(capture_ns)
    return bound is None or end - start <= bound


def lift_not_null(db):
    """Rebuilds each activity table with its own DDL minus NOT NULL."""
    for table in TIMED_TABLES:
        row = db.execute("SELECT sql FROM sqlite_master WHERE type='table' AND name=?", (table,)).fetchone()
        if row is None:
            continue
        ddl = re.sub(r"\bNOT\s+NULL\b", "", row[0], flags=re.I)
        db.execute(f"ALTER TABLE {table} RENAME TO {table}_old")
        db.execute(ddl)
        db.execute(f"INSERT INTO {table} SELECT * FROM {table}_old ORDER BY rowid")
        db.execute(f"DROP TABLE {table}_old")


class Rows:
    """Adds copies of a table's rows with new times (and, for GPU work and
    calls, new correlation ids so they pair with nothing)."""

    def __init__(self, db, table, where="1"):
        self.db, self.table = db, table
        self.columns = [r[1] for r in db.execute(f"PRAGMA table_info({table})")]
        self.rowids = [r[0] for r in db.execute(f"SELECT rowid FROM {table} WHERE {where} ORDER BY start LIMIT 64")]
        self.next_corr = 1 + (db.execute(f"SELECT max(correlationId) FROM {table}").fetchone()[0] or 0) \
            if "correlationId" in self.columns else None
        self.used = 0

    def add(self, start, end, **more):
        if not self.rowids:
            return
        rowid = self.rowids[self.used % len(self.rowids)]
        self.used += 1
        values = {"start": start, "end": end, **more}
        if self.next_corr is not None:
            values["correlationId"] = 10_000_000 + self.next_corr + self.used
        cols = ", ".join(f'"{c}"' for c in self.columns)
        exprs = ", ".join("?" if c in values else f'"{c}"' for c in self.columns)
        params = [values[c] for c in self.columns if c in values]
        self.db.execute(f'INSERT INTO {self.table} ({cols}) SELECT {exprs} FROM {self.table} WHERE rowid = ?',
                        params + [rowid])


def tables(db):
    """A Rows per activity table; NVTX split in ranges and marks."""
    have = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    out = {t: Rows(db, t) for t in GPU_TABLES + ["CUPTI_ACTIVITY_KIND_RUNTIME"] if t in have}
    if "NVTX_EVENTS" in have:
        out["nvtx"] = Rows(db, "NVTX_EVENTS", f"eventType = {NVTX_PUSHPOP}")
        out["marks"] = Rows(db, "NVTX_EVENTS", f"eventType = {NVTX_MARK}")
    return out


def first_start(db):
    return db.execute("SELECT min(start) FROM CUPTI_ACTIVITY_KIND_KERNEL").fetchone()[0]


def set_capture(db, durations):
    db.execute("CREATE TABLE IF NOT EXISTS ANALYSIS_DETAILS (globalVid INTEGER NOT NULL, duration INTEGER NOT NULL, "
               "startTime INTEGER NOT NULL, stopTime INTEGER NOT NULL)")
    for d in durations:
        db.execute("INSERT INTO ANALYSIS_DETAILS VALUES (?, ?, ?, ?)", (1 << 48, d, 0, d))


def variant_bounds(db):
    t = first_start(db) + 1_000_000
    spans = [(-B, B), (-MAX, MAX), (MIN, MIN + 10), (MAX - 10, MAX), (B, B + 10), (-B - 10, -B - 1),
             (B - 10, B), (t + 1000, t), (None, t), (t, None), (None, None), (t, t + B), (MIN, MAX)]
    for name, rows in tables(db).items():
        if name == "marks":
            for s in (MIN, -B - 1, B, MAX, None):
                rows.add(s, None)
            continue
        for s, e in spans:
            rows.add(s, e)


def variant_capture(db):
    t = first_start(db)
    end = db.execute("SELECT max(end) FROM CUPTI_ACTIVITY_KIND_KERNEL").fetchone()[0]
    set_capture(db, [end - t + 20_000_000])
    for name, rows in tables(db).items():
        if name == "marks":
            continue
        for s, e in [(t, t + 2**61), (-2**61, 2**61), (t, t + 1000 * 10**9), (-B, B - 1)]:
            rows.add(s, e)


def variant_sums(db):
    for name, rows in tables(db).items():
        if name == "marks":
            continue
        for i in range(40):
            rows.add(-B + 1000 * i, B - 1 - 1000 * i)


def variant_long(db):
    t = first_start(db) + 5_000_000
    for name, rows in tables(db).items():
        if name == "marks":
            continue
        for i, d in enumerate([2**32 - 2, 2**32 - 1, 2**32, 2**32 + 1, 2**33, 2**40]):
            rows.add(t + 100_000 * i, t + 100_000 * i + d)


def variant_span(db):
    for name, rows in tables(db).items():
        if name == "marks":
            rows.add(-B, None)
            rows.add(B - 1, None)
            continue
        rows.add(-B, -B + 1000)
        rows.add(B - 1001, B - 1)


def variant_details(db):
    set_capture(db, [-5, 0, MAX])
    variant_long(db)


VARIANTS = {
    "bounds": variant_bounds,
    "capture": variant_capture,
    "sums": variant_sums,
    "long": variant_long,
    "span": variant_span,
    "details": variant_details,
}


def write_variant(base, outdir, name):
    path = os.path.join(outdir, name + ".sqlite")
    shutil.copyfile(base, path)
    db = sqlite3.connect(path)
    lift_not_null(db)
    VARIANTS[name](db)
    db.commit()
    db.execute("VACUUM")
    db.close()
    return path


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 1
    os.makedirs(sys.argv[2], exist_ok=True)
    for name in VARIANTS:
        print(write_variant(sys.argv[1], sys.argv[2], name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
