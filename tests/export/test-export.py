#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""sightline-cli export against SQL over the same file (issue 14, items 5-8).

* Perfetto: one complete event per kernel, memcpy, memset, CUDA API call and
  NVTX range, their times equal to the file's to the nanosecond (ts/dur read
  with Decimal), every flow with both ends; .json.gz is the same trace gzipped.
* CSV: one row per kernel (Python's csv module), hostile names intact (markup,
  </script>, quotes, commas, newlines, U+2028, invalid UTF-8, leading = + - @
  which get a ' in front); a folder gets the summary tables.
* Launch configuration: kernels.csv's grid, block, registers, static_smem,
  dynamic_smem and the Perfetto kernels' args equal the kernel table's
  columns (SQL) for every kernel of every real profile, the generated one,
  and a copy whose kernel rows are stored backwards (the loader sorts them).
* Privacy: the exports of every real profile hold none of its capture
  metadata (META_DATA_CAPTURE, TARGET_INFO_SYSTEM_ENV values), and with
  --include-environment they hold all of it.

Usage: test-export.py SIGHTLINE-CLI SIGHTLINE-GEN PROFILES-DIR"""
import collections
import csv
import gzip
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from decimal import Decimal

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "analysis", "tests"))
import sl_cli_test as t  # noqa: E402

HOSTILE = [
    "<img src=x onerror=alert(1)>", "</script><script>alert(2)</script>", 'say "hi", then',
    "two\nlines\r\nand more", "sep\u2028arator\u2029", "=HYPERLINK(\"http://x\")", "+1+2", "-3-4", "@SUM(A1)",
]
INVALID = b"bad \xff byte"


def ns(us):
    """Exact nanoseconds of a JSON µs number (kept as text by the parser)."""
    return int(Decimal(us) * 1000)


def expected_cell(name):
    return "'" + name if name[:1] in ("=", "+", "-", "@", "\t", "\r") else name


def make_hostile(gen, tmp):
    path = os.path.join(tmp, "hostile.sqlite")
    subprocess.run([gen, path, "--kernels", "3000", "--memcpy", "200", "--memset", "40",
                    "--async-ranges", "3", "--iterations", "6"], check=True, capture_output=True)
    db = sqlite3.connect(path)
    ids = [r[0] for r in db.execute("SELECT DISTINCT shortName FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY 1")]
    t.check(len(ids) > len(HOSTILE), f"generator gives {len(ids)} kernel names")
    for sid, name in zip(ids, HOSTILE):
        db.execute("UPDATE StringIds SET value = ? WHERE id = ?", (name, sid))
    db.execute("UPDATE StringIds SET value = CAST(? AS TEXT) WHERE id = ?", (INVALID, ids[len(HOSTILE)]))
    db.commit()
    db.close()
    return path


def sql_kernels(path):
    db = sqlite3.connect(path)
    db.text_factory = lambda b: b.decode("utf-8", "replace")
    rows = db.execute("""SELECT k.start, k.end, k.deviceId, k.streamId, s.value, d.value
                         FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName
                         JOIN StringIds d ON d.id = k.demangledName""").fetchall()
    db.close()
    return rows


def sql_count(path, sql):
    db = sqlite3.connect(path)
    try:
        return db.execute(sql).fetchone()[0]
    except sqlite3.OperationalError:
        return 0
    finally:
        db.close()


def check_csv(cli, path, tmp):
    out = os.path.join(tmp, "kernels.csv")
    p = t.run("export", path, "-o", out)
    if not t.check(p.returncode == 0, f"csv export: {p.stderr}"):
        return
    with open(out, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    want = collections.Counter((s, e, dev, st, expected_cell(n), expected_cell(d))
                               for s, e, dev, st, n, d in sql_kernels(path))
    got = collections.Counter((int(r["start_ns"]), int(r["end_ns"]), int(r["device"]), int(r["stream"]),
                               r["name"], r["demangled_name"]) for r in rows)
    t.check(len(rows) == sum(want.values()), f"csv: {len(rows)} rows for {sum(want.values())} kernels")
    t.check(got == want, f"csv rows differ from SQL: {list((got - want).items())[:3]} / {list((want - got).items())[:3]}")
    names = {r["name"] for r in rows}
    for h in HOSTILE + [INVALID.decode("utf-8", "replace")]:
        t.check(expected_cell(h) in names, f"csv: hostile name {h!r} not intact")
    t.check(all(int(r["duration_ns"]) == int(r["end_ns"]) - int(r["start_ns"]) for r in rows), "csv: duration")
    folder = os.path.join(tmp, "tables") + "/"
    p = t.run("export", path, "--format", "csv", "-o", folder)
    t.check(p.returncode == 0, f"csv folder export: {p.stderr}")
    for table in ("kernels", "api", "nvtx", "memcpy", "categories", "iterations", "gaps"):
        t.check(os.path.exists(os.path.join(folder, f"{table}-summary.csv")), f"csv folder: no {table}-summary.csv")
    summary = t.run_json("kernels", path, "--json")
    with open(os.path.join(folder, "kernels-summary.csv"), newline="", encoding="utf-8") as f:
        srows = list(csv.DictReader(f))
    if summary is not None:
        t.check([expected_cell(k["name"]) for k in summary["kernels"]] == [r["name"] for r in srows]
                and list(srows[0].keys()) == list(summary["kernels"][0].keys()),
                "kernels-summary.csv: not the rows and columns of kernels --json")


def load_trace(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return json.load(f, parse_float=str)   # µs as text: exact, no float


def spans(events, cat):
    return collections.Counter((ns(str(e["ts"])), ns(str(e["ts"])) + ns(str(e["dur"])))
                               for e in events if e["ph"] == "X" and e["cat"] == cat)


def sql_spans(path, table, where="1"):
    db = sqlite3.connect(path)
    try:
        return collections.Counter(db.execute(f"SELECT start, end FROM {table} WHERE {where}").fetchall())
    except sqlite3.OperationalError:
        return collections.Counter()
    finally:
        db.close()


def check_perfetto(path, tmp):
    out = os.path.join(tmp, "trace.json")
    p = t.run("export", path, "-o", out)
    if not t.check(p.returncode == 0, f"perfetto export: {p.stderr}"):
        return
    trace = load_trace(out)
    ev = trace["traceEvents"]
    api = sql_spans(path, "CUPTI_ACTIVITY_KIND_RUNTIME") + sql_spans(path, "CUPTI_ACTIVITY_KIND_DRIVER")
    for cat, want in (("kernel", sql_spans(path, "CUPTI_ACTIVITY_KIND_KERNEL")),
                      ("memcpy", sql_spans(path, "CUPTI_ACTIVITY_KIND_MEMCPY")),
                      ("memset", sql_spans(path, "CUPTI_ACTIVITY_KIND_MEMSET")),
                      ("cuda_api", api),
                      ("nvtx", sql_spans(path, "NVTX_EVENTS", "eventType IN (59, 60) AND end IS NOT NULL"))):
        got = spans(ev, cat)
        t.check(sum(want.values()) > 0 or cat == "memset", f"perfetto: the fixture has no {cat}")
        t.check(got == want, f"perfetto {cat}: {sum(got.values())} events, {sum(want.values())} in SQL; "
                f"extra {list((got - want).items())[:2]} missing {list((want - got).items())[:2]}")
    starts = collections.Counter(e["id"] for e in ev if e["ph"] == "s")
    ends = collections.Counter(e["id"] for e in ev if e["ph"] == "f")
    t.check(len(starts) > 0, "perfetto: no flow")
    t.check(starts == ends and set(starts.values()) == {1}, "perfetto: a flow without both ends")
    t.check(all(e.get("bp") == "e" for e in ev if e["ph"] == "f"), "perfetto: a flow end without bp e")
    names = {e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "process_name"}
    t.check(any(n.startswith("GPU ") for n in names), f"perfetto: no GPU process in {names}")
    kernel_names = {e["name"] for e in ev if e["cat"] == "kernel"}
    for h in HOSTILE:
        t.check(h in kernel_names, f"perfetto: hostile name {h!r} not intact")
    t.check(trace["metadata"]["environment included"] is False, "perfetto: environment flag")
    gz = os.path.join(tmp, "trace.json.gz")
    p = t.run("export", path, "-o", gz)
    t.check(p.returncode == 0 and load_trace(gz) == trace, "perfetto .json.gz: not the same trace gzipped")
    with open(gz, "rb") as f:
        t.check(f.read(2) == b"\x1f\x8b", ".json.gz is not gzip")


LAUNCH_COLUMNS = ("gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ",
                  "registersPerThread", "staticSharedMemory", "dynamicSharedMemory")


def sql_launch(path):
    """(start, end, grid, block, registers, static, dynamic) per kernel, as
    the CSV writes them: XxYxZ, "" for a column this nsys version lacks."""
    db = sqlite3.connect(path)
    try:
        have = {r[1] for r in db.execute("PRAGMA table_info(CUPTI_ACTIVITY_KIND_KERNEL)")}
        cols = ", ".join(c if c in have else "NULL" for c in LAUNCH_COLUMNS)
        rows = db.execute(f"SELECT start, end, {cols} FROM CUPTI_ACTIVITY_KIND_KERNEL").fetchall()
    except sqlite3.OperationalError:
        return collections.Counter()
    finally:
        db.close()

    def dim3(v):
        return "" if None in v else "x".join(str(x) for x in v)

    def count(v):
        return "" if v is None else str(v)
    return collections.Counter((r[0], r[1], dim3(r[2:5]), dim3(r[5:8]), count(r[8]), count(r[9]), count(r[10]))
                               for r in rows)


def perfetto_launch(ev):
    def dim3(v):
        return "" if v is None else "x".join(str(x) for x in v)

    def count(v):
        return "" if v is None else str(v)
    got = collections.Counter()
    for e in ev:
        if e["ph"] == "X" and e["cat"] == "kernel":
            a, ts = e["args"], ns(str(e["ts"]))
            got[(ts, ts + ns(str(e["dur"])), dim3(a.get("grid")), dim3(a.get("block")), count(a.get("registers")),
                 count(a.get("static shared memory")), count(a.get("dynamic shared memory")))] += 1
    return got


def reversed_copy(path, tmp):
    """The kernel rows stored last-first: the loader sorts every stream, and
    the launch table must still file each row under its kernel."""
    out = os.path.join(tmp, "reversed.sqlite")
    shutil.copyfile(path, out)
    db = sqlite3.connect(out)
    db.executescript("""CREATE TABLE k2 AS SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY start DESC;
                        DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL;
                        ALTER TABLE k2 RENAME TO CUPTI_ACTIVITY_KIND_KERNEL;""")
    db.commit()
    db.close()
    return out


def check_launch(paths, tmp):
    checked = 0
    for path in paths:
        want = sql_launch(path)
        if sum(want.values()) == 0:
            continue
        name = os.path.basename(path)
        out = os.path.join(tmp, "launch.csv")
        p = t.run("export", path, "-o", out)
        if not t.check(p.returncode == 0, f"{name}: csv export: {p.stderr}"):
            continue
        with open(out, newline="", encoding="utf-8") as f:
            got = collections.Counter((int(r["start_ns"]), int(r["end_ns"]), r["grid"], r["block"], r["registers"],
                                       r["static_smem"], r["dynamic_smem"]) for r in csv.DictReader(f))
        t.check(got == want, f"{name}: csv launch columns differ from SQL: "
                f"{list((got - want).items())[:2]} / {list((want - got).items())[:2]}")
        t.check(any(k[2] for k in got), f"{name}: no grid in the csv")
        out = os.path.join(tmp, "launch.json")
        p = t.run("export", path, "-o", out)
        if t.check(p.returncode == 0, f"{name}: perfetto export: {p.stderr}"):
            got = perfetto_launch(load_trace(out)["traceEvents"])
            t.check(got == want, f"{name}: perfetto launch args differ from SQL: "
                    f"{list((got - want).items())[:2]} / {list((want - got).items())[:2]}")
        checked += 1
    t.check(checked >= 3, f"launch configuration checked on {checked} profiles")


def secrets(path):
    """The capture metadata of @path that no export may show: values long and
    particular enough to be found by a search, and not a name the profile shows
    anyway (a kernel, process or GPU called like a value)."""
    db = sqlite3.connect(path)
    db.text_factory = lambda b: b.decode("utf-8", "replace")
    values = set()
    for table in ("META_DATA_CAPTURE", "TARGET_INFO_SYSTEM_ENV"):
        try:
            values |= {str(v) for (v,) in db.execute(f"SELECT value FROM {table}") if v is not None}
        except sqlite3.OperationalError:
            pass
    shown = [v for (v,) in db.execute("SELECT value FROM StringIds")]
    for sql in ("SELECT name FROM PROCESSES", "SELECT name FROM TARGET_INFO_GPU"):
        try:   # process and GPU names are what every view shows: not secrets
            shown += [v for (v,) in db.execute(sql) if v]
        except sqlite3.OperationalError:
            pass
    db.close()
    shown_text = "\n".join(shown)

    def particular(v):
        return len(v) >= 6 and v.lower() not in ("true", "false") \
            and not v.replace(".", "").replace("-", "").isdigit() and v not in shown_text
    # Values may hold binary data (a GPU's properties, NUL-separated
    # variables): look for their printable runs.
    runs = {r for v in values for r in re.findall(r"[\x20-\x7e]{6,}", v)}
    return sorted(r for r in runs if particular(r))


def export_texts(path, tmp, *extra):
    """Every file of the CSV-folder and Perfetto exports (and HTML when built), as text."""
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    texts = {}
    for fmt, out in (("csv", os.path.join(tmp, "csv") + "/"), ("perfetto", os.path.join(tmp, "t.json")),
                     ("html", os.path.join(tmp, "r.html"))):
        p = t.run("export", path, "--format", fmt, "-o", out, *extra)
        if fmt == "html" and p.returncode != 0 and "not built yet" in p.stderr:
            continue   # the HTML report's branch brings it and its own checks
        if not t.check(p.returncode == 0, f"{path} {fmt} {extra}: exit {p.returncode}: {p.stderr}"):
            continue
    for root, _, files in os.walk(tmp):
        for name in files:
            with open(os.path.join(root, name), encoding="utf-8", errors="replace") as f:
                texts[os.path.join(root, name)] = f.read()
    return texts


def check_privacy(profiles, tmp):
    for name in sorted(os.listdir(profiles)):
        if not name.endswith(".sqlite"):
            continue
        path = os.path.join(profiles, name)
        hidden = secrets(path)
        t.check(len(hidden) > 0 or name.startswith("pipit"), f"{name}: no capture metadata to look for")
        texts = export_texts(path, os.path.join(tmp, "privacy"))
        for v in hidden:
            forms = {v, json.dumps(v)[1:-1]}
            leaks = [f for f, text in texts.items() if any(x in text for x in forms)]
            t.check(not leaks, f"{name}: capture metadata {v[:60]!r} leaked into {leaks}")
        texts = export_texts(path, os.path.join(tmp, "privacy"), "--include-environment")
        trace = json.loads(texts[os.path.join(tmp, "privacy", "t.json")])
        env = "\n".join(trace["metadata"].get("environment", []))
        t.check(trace["metadata"]["environment included"] is True, f"{name}: environment flag not set")
        with open(os.path.join(tmp, "privacy", "csv", "export-info.csv"), newline="", encoding="utf-8") as f:
            info = "\n".join(r["value"] for r in csv.DictReader(f) if r["key"] == "environment")
        for v in hidden:
            t.check(v in env and v in info, f"{name}: --include-environment lacks {v[:60]!r}")
        print(f"{name}: {len(hidden)} metadata values checked")


def check_usage(path, tmp):
    p = t.run("export", path, "-o", os.path.join(tmp, "x.unknown"))
    t.check(p.returncode == 1, f"unknown extension: exit {p.returncode}")
    p = t.run("export", path, "--format", "pdf", "-o", os.path.join(tmp, "x.pdf"))
    t.check(p.returncode == 1, f"unknown format: exit {p.returncode}")
    p = t.run("export", path, "--format", "perfetto", "-o", "/dev/stdout")
    t.check(p.returncode == 0 and json.loads(p.stdout)["traceEvents"], "export to /dev/stdout: no trace")
    t.check(os.path.exists("/dev/stdout") and not os.path.isfile("/dev/stdout"), "/dev/stdout was replaced")
    p = t.run("export", path, "-o", "/proc/x.json")
    t.check(p.returncode == 2 and "/proc/x.json" in p.stderr and "read-only" in p.stderr,
            f"read-only folder: exit {p.returncode}: {p.stderr}")


def main():
    t.CLI, gen, profiles = sys.argv[1:4]
    tmp = tempfile.mkdtemp(prefix="sl-export-test-")
    try:
        hostile = make_hostile(gen, tmp)
        check_csv(t.CLI, hostile, tmp)
        check_perfetto(hostile, tmp)
        check_usage(hostile, tmp)
        reals = sorted(os.path.join(profiles, f) for f in os.listdir(profiles) if f.endswith(".sqlite"))
        check_launch(reals + [hostile, reversed_copy(hostile, tmp)], tmp)
        check_privacy(profiles, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return t.finish()


if __name__ == "__main__":
    sys.exit(main())
