#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Valid but unusual SQLite files, and damaged ones (issue 10, items 6-8).

Every case is derived from a small generated profile with Python's sqlite3:
page sizes, reserved bytes, auto-vacuum, freelists, overflow chains, added,
dropped and renamed columns, every integer serial type, TEXT/REAL/BLOB/NULL
where integers are expected, views, WITHOUT ROWID, odd primary keys, UTF-16,
a -wal with committed and uncommitted frames, a hot rollback journal.  For each:
  * info/kernels/api/nvtx/memcpy --json give the same output with the page
    reader and with SQLite alone (SL_LOADER_SQLITE_ONLY=1);
  * kernels per name (count, total time) and CUDA API calls per name equal
    SQL over the database as SQLite shows it after recovery (a private copy
    opened normally), with SQLite's INTEGER affinity deciding what is a number;
  * the profile's folder is unchanged: same listing, same sha256 of every
    file (no -shm created, no rollback written), and no private copy is left.
Damaged files (truncated at page boundaries, bits flipped in the kernel
table's interior and leaf pages) must exit 2 with one line on stderr, or exit 0
with SQLite's answer for that file; never crash or hang.

Usage: test-hostile-sqlite.py SIGHTLINE-CLI SIGHTLINE-GEN
       test-hostile-sqlite.py --corpus DIR SIGHTLINE-GEN   (fuzzing seeds)"""
import concurrent.futures
import hashlib
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sl_cli_test as t  # noqa: E402

KERNEL = "CUPTI_ACTIVITY_KIND_KERNEL"
RUNTIME = "CUPTI_ACTIVITY_KIND_RUNTIME"
NVTX = "NVTX_EVENTS"
COMMANDS = ("info", "kernels", "api", "nvtx", "memcpy")
TIMEOUT = 120   # seconds per run: a hang is a failure, not a stuck suite
WIDE = 1 << 32  # string ids above 32 bits


# ---- building the cases -----------------------------------------------------

def connect(path):
    return sqlite3.connect(path, isolation_level=None)


def edit(path, script):
    db = connect(path)
    db.executescript(script)
    db.close()


def vacuum(path, *pragmas):
    db = connect(path)
    for p in pragmas:
        db.execute(p)
    db.execute("VACUUM")
    db.close()


def columns(db, table):
    """[(name, declared type)] of @table."""
    return [(r[1], r[2]) for r in db.execute(f'PRAGMA table_info("{table}")')]


def recreate(db, table, types=None, add=(), pk=None, suffix="", exprs=None, insert="INSERT"):
    """Rebuilds @table with other declared types (and no NOT NULL), extra
    leading columns @add [(name, type, expr)], a primary key clause and a
    suffix (WITHOUT ROWID), copying the rows through @exprs."""
    types, exprs = types or {}, exprs or {}
    cols = columns(db, table)
    defs = [f'"{n}" {ty}' for n, ty, _ in add] + [f'"{n}" {types.get(n, ty)}' for n, ty in cols]
    if pk:
        defs.append(f"PRIMARY KEY({pk})")
    names = [n for n, _, _ in add] + [n for n, _ in cols]
    sel = [e for _, _, e in add] + [exprs.get(n, f'"{n}"') for n, _ in cols]
    db.execute(f'ALTER TABLE "{table}" RENAME TO "{table}_old"')
    db.execute(f'CREATE TABLE "{table}" ({", ".join(defs)}){suffix}')
    db.execute(f'{insert} INTO "{table}" ({", ".join(chr(34) + n + chr(34) for n in names)}) '
               f'SELECT {", ".join(sel)} FROM "{table}_old" ORDER BY rowid')
    db.execute(f'DROP TABLE "{table}_old"')


def with_db(fn):
    """A case builder from a function of an open connection."""
    def build(path):
        db = connect(path)
        fn(db)
        db.close()
    return build


def page_size(size, *extra):
    return lambda p: vacuum(p, f"PRAGMA page_size={size}", *extra)


def reserved_bytes(path):
    vacuum(path, "PRAGMA page_size=1024")
    subprocess.run(["sqlite3", path, ".filectrl reserve_bytes 40", "VACUUM"], check=True, capture_output=True)
    with open(path, "rb") as f:
        assert f.read(21)[20] == 40, "reserved bytes not set"


def auto_vacuum(mode):
    def build(path):
        vacuum(path, "PRAGMA page_size=1024", f"PRAGMA auto_vacuum={mode}")
        edit(path, f"DELETE FROM {KERNEL} WHERE rowid % 5 = 0; DELETE FROM {RUNTIME} WHERE rowid % 3 = 0;"
                   + ("PRAGMA incremental_vacuum(4);" if mode == "INCREMENTAL" else ""))
    return build


def freelist(path):
    vacuum(path, "PRAGMA page_size=1024")
    edit(path, f"DELETE FROM {RUNTIME} WHERE rowid % 3 = 0; DELETE FROM {KERNEL} WHERE rowid % 5 = 0;"
               "DELETE FROM CUPTI_ACTIVITY_KIND_MEMCPY;")
    db = connect(path)
    assert db.execute("PRAGMA freelist_count").fetchone()[0] > 0
    db.close()


def overflow_names(big):
    """Kernel names and NVTX texts of 10 kB and @big bytes: overflow chains."""
    def build(path):
        vacuum(path, "PRAGMA page_size=1024")
        db = connect(path)
        ids = [r[0] for r in db.execute(f"SELECT DISTINCT shortName FROM {KERNEL} ORDER BY shortName LIMIT 2")]
        db.execute("UPDATE StringIds SET value = value || '_' || printf('%.*c', 10000, 'k') WHERE id = ?", (ids[0],))
        db.execute("UPDATE StringIds SET value = value || '_' || printf('%.*c', ?, 'm') WHERE id = ?", (big, ids[1]))
        db.execute(f"UPDATE {NVTX} SET text = printf('%.*c', 10000, 't') WHERE rowid % 7 = 1 AND text IS NOT NULL")
        db.execute(f"UPDATE {NVTX} SET text = 'huge ' || printf('%.*c', ?, 'h') "
                   f"WHERE rowid = (SELECT min(rowid) FROM {NVTX} WHERE text IS NOT NULL AND eventType = 59)", (big,))
        db.close()
    return build


def add_column_short_rows(db):
    """Rows written before ALTER TABLE ADD COLUMN lack the column (NULL)."""
    db.execute(f"ALTER TABLE {KERNEL} DROP COLUMN shortName")
    db.execute(f"ALTER TABLE {KERNEL} ADD COLUMN shortName INTEGER")
    db.execute(f"CREATE TEMP TABLE x AS SELECT * FROM {KERNEL} WHERE rowid % 3 = 0")
    db.execute("UPDATE temp.x SET shortName = demangledName, demangledName = 1")
    db.execute(f"INSERT INTO {KERNEL} SELECT * FROM temp.x")


def add_column_default(db):
    """An added column with a DEFAULT: old rows read the default."""
    name = db.execute(f"SELECT min(shortName) FROM {KERNEL}").fetchone()[0]
    db.execute(f"ALTER TABLE {KERNEL} DROP COLUMN shortName")
    db.execute(f"ALTER TABLE {KERNEL} ADD COLUMN shortName INTEGER DEFAULT {name}")


def dropped_renamed(db):
    db.execute(f"ALTER TABLE {KERNEL} DROP COLUMN greenContextId")
    db.execute(f"ALTER TABLE {KERNEL} DROP COLUMN contextId")
    db.execute(f"ALTER TABLE {KERNEL} RENAME COLUMN registersPerThread TO regs")
    db.execute(f"ALTER TABLE {RUNTIME} DROP COLUMN eventClass")


def serial_types(db):
    """Starts of every integer width (1-6 bytes, 8 bytes), 0 and 1, negatives."""
    values = [0, 1, 100, -100, 30000, -30000, 8000000, 2000000000, -2000000000, 100000000000,
              140000000000000, -140000000000000, 1 << 50]
    cases = " ".join(f"WHEN {i} THEN {v}" for i, v in enumerate(values))
    db.execute(f"UPDATE {KERNEL} SET start = CASE rowid % 20 {cases} ELSE start END, "
               f"end = CASE rowid % 20 {cases} ELSE start END + (end - start)")
    db.execute(f"UPDATE {KERNEL} SET end = start WHERE rowid % 20 = 15")
    db.execute(f"UPDATE {KERNEL} SET start = 0, end = 1 WHERE rowid % 20 = 16")


def odd_values(db):
    """TEXT, REAL, BLOB and NULL where integers are expected, in INTEGER
    columns (numeric text is converted on insert, other text stays)."""
    recreate(db, KERNEL)  # drops NOT NULL
    db.execute(f"""UPDATE {KERNEL} SET
        start = CASE rowid % 16 WHEN 1 THEN NULL WHEN 2 THEN 'abc' WHEN 3 THEN x'0102'
                WHEN 4 THEN start + 0.5 WHEN 5 THEN start * 1.0 WHEN 6 THEN '12abc' ELSE start END,
        end = CASE rowid % 16 WHEN 7 THEN NULL WHEN 8 THEN ' ' || end WHEN 9 THEN x'' ELSE end END,
        shortName = CASE rowid % 16 WHEN 10 THEN 'name' WHEN 11 THEN x'05' WHEN 12 THEN NULL
                    WHEN 13 THEN shortName * 1.0 ELSE shortName END,
        demangledName = CASE rowid % 16 WHEN 12 THEN 'x' WHEN 10 THEN x'07' ELSE demangledName END""")
    recreate(db, RUNTIME)
    db.execute(f"UPDATE {RUNTIME} SET nameId = CASE rowid % 9 WHEN 1 THEN 'n' WHEN 2 THEN x'01' "
               f"ELSE nameId END, start = CASE rowid % 9 WHEN 3 THEN NULL ELSE start END")


def untyped_columns(db):
    """No declared types (BLOB affinity): numbers stored as TEXT and REAL stay so."""
    recreate(db, KERNEL, types={"start": "", "end": "", "shortName": "", "demangledName": "", "deviceId": ""})
    db.execute(f"""UPDATE {KERNEL} SET
        start = CASE rowid % 12 WHEN 1 THEN CAST(start AS TEXT) WHEN 2 THEN ' ' || start || ' '
                WHEN 3 THEN start * 1.0 WHEN 4 THEN printf('%.6e', start) WHEN 5 THEN '+' || start
                WHEN 6 THEN start || '.0' WHEN 7 THEN start || '.5' WHEN 8 THEN '0x10'
                WHEN 9 THEN '99999999999999999999' ELSE start END,
        end = CASE rowid % 12 WHEN 1 THEN CAST(end AS TEXT) WHEN 10 THEN CAST(end AS BLOB) ELSE end END,
        shortName = CASE rowid % 12 WHEN 2 THEN CAST(shortName AS TEXT) WHEN 3 THEN shortName * 1.0
                    WHEN 4 THEN ' ' || shortName ELSE shortName END,
        deviceId = CASE rowid % 12 WHEN 5 THEN CAST(deviceId AS TEXT) ELSE deviceId END""")


def declared_text(db):
    """Integer columns declared TEXT: every number is stored as text."""
    recreate(db, KERNEL, types={c: "TEXT" for c in ("start", "end", "deviceId", "streamId", "shortName",
                                                    "demangledName", "correlationId")})
    recreate(db, RUNTIME, types={"start": "VARCHAR(20)", "end": "CLOB", "nameId": "TEXT"})


def declared_real(db):
    """REAL affinity: integral values are stored as integers and read back as
    REAL; names in a REAL or NUMERIC text column."""
    recreate(db, KERNEL, types={"start": "REAL", "end": "DOUBLE", "shortName": "FLOAT"})
    recreate(db, NVTX, types={"text": "REAL"})
    db.execute(f"UPDATE {NVTX} SET text = CASE rowid % 3 WHEN 0 THEN '42' WHEN 1 THEN '4.5' ELSE text END "
               "WHERE text IS NOT NULL")


def nvtx_numeric_text(db):
    recreate(db, NVTX, types={"text": "NUMERIC"})
    db.execute(f"UPDATE {NVTX} SET text = CASE rowid % 4 WHEN 0 THEN '42' WHEN 1 THEN '1e300' "
               "WHEN 2 THEN x'414243' ELSE text END WHERE text IS NOT NULL")


def null_start(db):
    recreate(db, KERNEL)
    db.execute(f"UPDATE {KERNEL} SET start = NULL WHERE rowid % 10 = 3")
    db.execute(f"UPDATE {KERNEL} SET end = NULL WHERE rowid % 10 = 4")


def wide_name_ids(db):
    """String ids above 2^32, and ids that are not in StringIds but equal
    another name's id in their low 32 bits (dangling)."""
    a, b = [r[0] for r in db.execute(f"SELECT DISTINCT shortName FROM {KERNEL} ORDER BY shortName LIMIT 2")]
    db.execute("UPDATE StringIds SET id = id + ? WHERE id = ?", (WIDE, a))
    db.execute(f"UPDATE {KERNEL} SET shortName = shortName + ? WHERE shortName = ?", (WIDE, a))
    db.execute(f"UPDATE {KERNEL} SET demangledName = demangledName + ? WHERE demangledName = ?", (WIDE, a))
    db.execute(f"UPDATE {KERNEL} SET shortName = ? + ?, demangledName = ? + ? WHERE rowid % 25 = 0",
               (WIDE, b, 2 * WIDE, b))
    db.execute(f"UPDATE {RUNTIME} SET nameId = nameId + ? WHERE rowid % 11 = 0", (WIDE,))


def control_characters(db):
    """Names with every control character: the JSON must still parse."""
    ids = [r[0] for r in db.execute(f"SELECT DISTINCT shortName FROM {KERNEL} ORDER BY shortName LIMIT 3")]
    for i, ident in enumerate(ids):
        db.execute("UPDATE StringIds SET value = ? WHERE id = ?",
                   ("ctl" + "".join(chr(c) for c in range(1 + 11 * i, 12 + 11 * i) if c < 32) + "\x7f", ident))
    db.execute(f"UPDATE {NVTX} SET text = 'nvtx' || char(31) || char(9) WHERE text IS NOT NULL AND rowid % 3 = 0")


def text_string_ids(db):
    """StringIds ids declared TEXT: stored as text, read as numbers."""
    recreate(db, "StringIds", types={"id": "TEXT", "value": "TEXT"})


def as_view(db):
    db.execute(f"ALTER TABLE {KERNEL} RENAME TO kernel_rows")
    db.execute(f"CREATE VIEW {KERNEL} AS SELECT * FROM kernel_rows")


def lowercase_name(db):
    db.execute(f"ALTER TABLE {KERNEL} RENAME TO k_tmp")
    db.execute(f"ALTER TABLE k_tmp RENAME TO {KERNEL.lower()}")
    db.execute(f"ALTER TABLE {NVTX} RENAME TO n_tmp")
    db.execute("ALTER TABLE n_tmp RENAME TO nvtx_events")


def uppercase_columns(db):
    for old, new in (("start", "START"), ("end", "End"), ("shortName", "SHORTNAME"), ("deviceId", "DEVICEID")):
        db.execute(f'ALTER TABLE {KERNEL} RENAME COLUMN "{old}" TO "{new}"')
    db.execute(f'ALTER TABLE {NVTX} RENAME COLUMN "text" TO "TEXT"')
    db.execute(f'ALTER TABLE {NVTX} RENAME COLUMN "eventType" TO "EVENTTYPE"')


def composite_pk(db):
    recreate(db, KERNEL, pk="start, correlationId, deviceId", insert="INSERT OR IGNORE")


def pk_desc(db):
    recreate(db, KERNEL, types={"start": "INTEGER PRIMARY KEY DESC"}, insert="INSERT OR IGNORE")


def rowid_alias(db):
    recreate(db, KERNEL, types={"start": "INTEGER PRIMARY KEY"}, insert="INSERT OR IGNORE")


def without_rowid_kernel(db):
    recreate(db, KERNEL, add=[("rid", "INTEGER", "rowid")], pk="start, rid", suffix=" WITHOUT ROWID")


def without_rowid_nvtx(db):
    recreate(db, NVTX, add=[("rid", "INTEGER", "rowid")], pk="rid", suffix=" WITHOUT  ROWID")


def utf16(encoding):
    def build(path):
        tmp = path + ".src"
        os.rename(path, tmp)
        src, db = connect(tmp), connect(path)
        db.execute(f"PRAGMA encoding='{encoding}'")
        # ATTACH needs one encoding: copy the rows through Python.
        for name, sql in src.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'").fetchall():
            db.execute(sql)
            rows = src.execute(f'SELECT * FROM "{name}"').fetchall()
            if rows:
                db.execute("BEGIN")
                db.executemany(f'INSERT INTO "{name}" VALUES ({", ".join("?" * len(rows[0]))})', rows)
                db.execute("COMMIT")
        src.close()
        db.execute(f"UPDATE {NVTX} SET text = text || ' ünï' WHERE rowid % 2 = 0")
        db.close()
        os.unlink(tmp)
    return build


def in_child(fn):
    """Runs @fn in a child process that dies without closing its connection,
    as a crashed writer would."""
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            fn()
        except BaseException:
            traceback.print_exc()
            code = 1
        os._exit(code)
    assert os.waitpid(pid, 0)[1] == 0, "the writer failed"


def wal(path):
    """Committed frames in a -wal never checkpointed, then an uncommitted
    transaction whose pages spilled into the -wal; no -shm."""
    def writer():
        db = connect(path)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA wal_autocheckpoint=0")
        db.execute("INSERT INTO StringIds VALUES (900001, 'kernel_committed_in_wal')")
        db.execute(f"CREATE TEMP TABLE x AS SELECT * FROM {KERNEL} WHERE rowid % 4 = 0")
        db.execute("UPDATE temp.x SET shortName = 900001, demangledName = 900001")
        db.execute(f"INSERT INTO {KERNEL} SELECT * FROM temp.x")
        db.execute(f"UPDATE {KERNEL} SET end = end + 1000 WHERE rowid % 7 = 0")
        db.execute(f"DELETE FROM {RUNTIME} WHERE rowid % 5 = 0")
        db.execute("PRAGMA cache_size=2")
        db.execute("BEGIN")
        db.execute(f"UPDATE {KERNEL} SET end = end + 5000000, shortName = demangledName")
        db.execute(f"DELETE FROM {NVTX}")
    in_child(writer)
    if os.path.exists(path + "-shm"):
        os.unlink(path + "-shm")
    assert os.path.getsize(path + "-wal") > 0, "no WAL"


def hot_journal(path):
    """A big uncommitted change spilled into the database file; the
    rollback journal beside it is hot."""
    with open(path, "rb") as f:
        before = f.read()

    def writer():
        db = connect(path)
        db.execute("PRAGMA journal_mode=DELETE")
        db.execute("PRAGMA cache_size=2")
        db.execute("BEGIN")
        db.execute(f"UPDATE {KERNEL} SET end = end + 5000000, shortName = demangledName")
        db.execute(f"DELETE FROM {RUNTIME}")
        db.execute(f"DELETE FROM {NVTX}")
    in_child(writer)
    with open(path, "rb") as f:
        assert f.read() != before, "the uncommitted change did not reach the database file"
    assert os.path.getsize(path + "-journal") > 0, "no journal"


CASES = [
    ("plain", lambda p: None),
    ("page-512", page_size(512)),
    ("page-1024", page_size(1024)),
    ("page-8192", page_size(8192)),
    ("page-65536", page_size(65536)),
    ("reserved-bytes", reserved_bytes),
    ("auto-vacuum-full", auto_vacuum("FULL")),
    ("auto-vacuum-incremental", auto_vacuum("INCREMENTAL")),
    ("freelist", freelist),
    ("overflow-names", overflow_names(1000000)),
    ("add-column-short-rows", with_db(add_column_short_rows)),
    ("add-column-default", with_db(add_column_default)),
    ("dropped-renamed-columns", with_db(dropped_renamed)),
    ("serial-types", with_db(serial_types)),
    ("odd-values", with_db(odd_values)),
    ("untyped-columns", with_db(untyped_columns)),
    ("declared-text", with_db(declared_text)),
    ("declared-real", with_db(declared_real)),
    ("nvtx-numeric-text", with_db(nvtx_numeric_text)),
    ("null-start", with_db(null_start)),
    ("wide-name-ids", with_db(wide_name_ids)),
    ("string-ids-as-text", with_db(text_string_ids)),
    ("control-characters", with_db(control_characters)),
    ("kernel-view", with_db(as_view)),
    ("lowercase-tables", with_db(lowercase_name)),
    ("uppercase-columns", with_db(uppercase_columns)),
    ("composite-pk-start", with_db(composite_pk)),
    ("pk-desc", with_db(pk_desc)),
    ("rowid-alias", with_db(rowid_alias)),
    ("without-rowid-kernel", with_db(without_rowid_kernel)),
    ("without-rowid-nvtx", with_db(without_rowid_nvtx)),
    ("utf16le", utf16("UTF-16le")),
    ("utf16be", utf16("UTF-16be")),
    ("wal", wal),
    ("hot-journal", hot_journal),
]


# ---- the truth: SQL over the database as SQLite shows it ------------------

def open_recovered(folder, scratch):
    """The profile in @folder as SQLite shows it after recovery: a copy of
    the folder (profile, -wal, -journal) opened normally."""
    if os.path.exists(scratch):
        shutil.rmtree(scratch)
    shutil.copytree(folder, scratch)
    db = sqlite3.connect(os.path.join(scratch, "profile.sqlite"))
    # A damaged name is still a name: the loader shows it made valid UTF-8.
    db.text_factory = lambda b: b.decode("utf-8", "replace")
    return db


def column_sql(db, table, column):
    """@column of @table as SQL, found in any case, or NULL."""
    for name, _ in columns(db, table):
        if name.lower() == column.lower():
            return f'"{name}"'
    return "NULL"


def kernel_truth(db):
    """{name: [count, total_ns]}: integers after SQLite's INTEGER affinity,
    end >= start, named by shortName or else demangledName in StringIds."""
    c = {n: column_sql(db, KERNEL, n) for n in ("start", "end", "shortName", "demangledName")}
    db.execute("CREATE TEMP TABLE k(s INTEGER, e INTEGER, short INTEGER, demangled INTEGER)")
    db.execute(f"INSERT INTO temp.k SELECT {c['start']}, {c['end']}, {c['shortName']}, {c['demangledName']} "
               f"FROM main.{KERNEL}")
    rows = db.execute("""
        SELECT COALESCE(sn.value, dn.value) AS name, count(*), sum(k.e - k.s) FROM temp.k k
          LEFT JOIN main.StringIds sn ON typeof(k.short) = 'integer' AND sn.id = k.short
          LEFT JOIN main.StringIds dn ON typeof(k.demangled) = 'integer' AND dn.id = k.demangled
         WHERE typeof(k.s) = 'integer' AND typeof(k.e) = 'integer' AND k.e >= k.s AND name IS NOT NULL
         GROUP BY name""").fetchall()
    return {str(n): [cnt, tot] for n, cnt, tot in rows}


def api_truth(db):
    """{name: [count, total_ns]} of runtime and driver calls."""
    c = {n: column_sql(db, RUNTIME, n) for n in ("start", "end", "eventClass", "nameId")}
    db.execute("CREATE TEMP TABLE a(s INTEGER, e INTEGER, cls INTEGER, name INTEGER)")
    db.execute(f"INSERT INTO temp.a SELECT {c['start']}, {c['end']}, {c['eventClass']}, {c['nameId']} "
               f"FROM main.{RUNTIME}")
    rows = db.execute("""
        SELECT sn.value, count(*), sum(a.e - a.s) FROM temp.a a
          JOIN main.StringIds sn ON typeof(a.name) = 'integer' AND sn.id = a.name
         WHERE (typeof(a.cls) != 'integer' OR a.cls IN (0, 1))
           AND typeof(a.s) = 'integer' AND typeof(a.e) = 'integer' AND a.e >= a.s
         GROUP BY sn.value""").fetchall()
    return {str(n): [cnt, tot] for n, cnt, tot in rows}


def cpu_truth(db):
    """(CPU samples, OS runtime calls) the CPU loader keeps: integer thread
    and times, a call's end not before its start, no start/finish markers."""
    samples = db.execute("SELECT count(*) FROM main.COMPOSITE_EVENTS WHERE typeof(globalTid) = 'integer' "
                         "AND typeof(start) = 'integer'").fetchone()[0]
    calls = db.execute("SELECT count(*) FROM main.OSRT_API WHERE typeof(globalTid) = 'integer' "
                       "AND typeof(start) = 'integer' AND typeof(\"end\") = 'integer' AND \"end\" >= start "
                       "AND eventClass NOT IN (31, 32)").fetchone()[0]
    return samples, calls


def truth(folder, scratch, with_api=True):
    """(kernels, api) truth, or None when SQLite itself cannot read the file."""
    try:
        db = open_recovered(folder, scratch)
        try:
            return kernel_truth(db), api_truth(db) if with_api else None, cpu_truth(db)
        finally:
            db.close()
    except sqlite3.DatabaseError:
        return None


# ---- running the CLI -----------------------------------------------------------

def run_cli(command, path, sqlite_only, env):
    env = dict(env)
    if sqlite_only:
        env["SL_LOADER_SQLITE_ONLY"] = "1"
    try:
        p = subprocess.run([t.CLI, command, "--json", path], capture_output=True, text=True,
                           env=env, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return None
    return p


def parse(p, what):
    """The JSON of a run, or None (a failure) when it is not JSON."""
    try:
        return json.loads(p.stdout)
    except ValueError as e:
        t.check(False, f"{what}: not JSON: {e}")
        return None


def per_name(entries):
    return {e["name"]: [e["instances"], e["total_ns"]] for e in entries}


def snapshot(folder):
    """The folder's listing and the sha256 of every file in it."""
    result = {}
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name), "rb") as f:
            result[name] = hashlib.sha256(f.read()).hexdigest()
    return result


def check_valid_case(name, folder, want, outputs):
    path = os.path.join(folder, "profile.sqlite")
    for command in COMMANDS:
        a, b = outputs[(command, False)], outputs[(command, True)]
        if not t.check(a is not None and b is not None, f"{name}: {command} timed out"):
            continue
        for mode, p in (("page reader", a), ("SQLite only", b)):
            t.check(p.returncode == 0, f"{name}: {command} ({mode}) exit {p.returncode}: {p.stderr.strip()[:300]}")
        t.check(a.stdout == b.stdout, f"{name}: {command} differs between the page reader and SQLite alone")
    if want is None:
        t.check(False, f"{name}: SQLite cannot read the case")
        return
    kernels, api, cpu = want
    out = outputs[("kernels", False)]
    got = parse(out, f"{name}: kernels") if out is not None and out.returncode == 0 else None
    if got is not None:
        t.check(per_name(got["kernels"]) == kernels,
                f"{name}: kernels per name differ from SQL: {diff(per_name(got['kernels']), kernels)}")
        t.check(got["total_ns"] == sum(v[1] for v in kernels.values()), f"{name}: kernels total_ns")
    out = outputs[("api", False)]
    got = parse(out, f"{name}: api") if out is not None and out.returncode == 0 else None
    if got is not None:
        got = per_name(got["calls"])
        t.check(got == api, f"{name}: api per name differs from SQL: {diff(got, api)}")
    out = outputs[("info", False)]
    got = parse(out, f"{name}: info") if out is not None and out.returncode == 0 else None
    if got is not None:
        t.check(got["counts"]["kernels"] == sum(v[0] for v in kernels.values()),
                f"{name}: info counts.kernels")
        t.check(cpu is None or (got["counts"].get("cpu_samples"), got["counts"].get("osrt_calls")) == cpu,
                f"{name}: info counts of the CPU side {got['counts'].get('cpu_samples')}, "
                f"{got['counts'].get('osrt_calls')} != SQL {cpu}")
    del path


def diff(got, want):
    keys = sorted(set(got) | set(want), key=str)
    return "; ".join(f"{k[:60]!r}: {got.get(k)} != {want.get(k)}" for k in keys if got.get(k) != want.get(k))[:600]


def check_damaged_case(name, folder, want, outputs):
    """Exit 2 with one line, or exit 0 with SQLite's answer."""
    for (command, sqlite_only), p in outputs.items():
        what = f"{name}: {command} ({'SQLite only' if sqlite_only else 'page reader'})"
        if not t.check(p is not None, f"{what}: hung"):
            continue
        if p.returncode == 2:
            lines = p.stderr.strip().splitlines()
            t.check(len(lines) == 1 and "profile.sqlite" in lines[0], f"{what}: not one clear line: {p.stderr[:300]}")
            continue
        if not t.check(p.returncode == 0, f"{what}: exit {p.returncode}: {p.stderr[-300:]}"):
            continue
        if not t.check(want is not None, f"{what}: exit 0 where SQLite cannot read the file"):
            continue
        got = parse(p, what)
        if got is None:
            continue
        if command == "kernels":
            t.check(per_name(got["kernels"]) == want[0],
                    f"{what}: a different answer than SQLite's: {diff(per_name(got['kernels']), want[0])}")
        else:
            t.check(got["counts"]["kernels"] == sum(v[0] for v in want[0].values()),
                    f"{what}: counts.kernels differs from SQLite's")


# ---- damaged files ---------------------------------------------------------------

def kernel_pages(path):
    """(interior pages, leaf pages) of the kernel table."""
    db = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
    rows = db.execute("SELECT pageno, pagetype FROM dbstat WHERE name = ? ORDER BY pageno", (KERNEL,)).fetchall()
    db.close()
    return [p for p, ty in rows if ty == "internal"], [p for p, ty in rows if ty == "leaf"]


def damaged_cases(base, work):
    """[(name, folder)]: truncations and bit flips of a 1 KiB-page copy."""
    src = os.path.join(work, "damaged-base.sqlite")
    shutil.copy(base, src)
    vacuum(src, "PRAGMA page_size=1024")
    with open(src, "rb") as f:
        data = f.read()
    pages = len(data) // 1024
    interior, leaves = kernel_pages(src)
    assert interior and len(leaves) > 4, "the kernel table should have interior pages"
    out = []

    def emit(name, content):
        folder = os.path.join(work, name)
        os.mkdir(folder)
        with open(os.path.join(folder, "profile.sqlite"), "wb") as f:
            f.write(content)
        out.append((name, folder))

    for k in (1, pages // 3, pages - 1):
        emit(f"truncated-at-page-{k}", data[:k * 1024])
    stale = bytearray(data)
    stale[92:96] = (int.from_bytes(stale[92:96], "big") + 1).to_bytes(4, "big")  # header size no longer trusted
    emit("truncated-stale-header", bytes(stale[:(pages - 2) * 1024]))

    def flip(label, page, offset, mask):
        content = bytearray(data)
        content[(page - 1) * 1024 + offset] ^= mask
        emit(f"flip-{label}", bytes(content))

    # A schema SQLite cannot resolve: the kernel table a view of a dropped table.
    broken = os.path.join(work, "broken-view.sqlite")
    shutil.copy(base, broken)
    edit(broken, f"ALTER TABLE {KERNEL} RENAME TO kernel_rows; CREATE VIEW {KERNEL} AS SELECT * FROM kernel_rows;"
                 "PRAGMA legacy_alter_table=1; DROP TABLE kernel_rows;")
    with open(broken, "rb") as f:
        emit("view-of-a-dropped-table", f.read())

    root, leaf, mid = interior[0], leaves[1], leaves[len(leaves) // 2]
    first_cell = lambda p: int.from_bytes(data[(p - 1) * 1024 + 8:(p - 1) * 1024 + 10], "big")
    flip("interior-type", root, 0, 0x08)
    flip("interior-cell-count", root, 4, 0x40)
    flip("interior-cell-pointer", root, 13, 0x10)
    flip("interior-right-child", root, 11, 0x01)
    flip("interior-child", root, int.from_bytes(data[(root - 1) * 1024 + 12:(root - 1) * 1024 + 14], "big") + 3, 0x02)
    flip("leaf-type", leaf, 0, 0x01)
    flip("leaf-cell-count", leaf, 4, 0x20)
    flip("leaf-cell-pointer", mid, 9, 0x80)
    flip("leaf-payload-size", mid, first_cell(mid), 0x04)
    flip("leaf-record-header", mid, first_cell(mid) + 4, 0x08)
    flip("leaf-record-body", mid, first_cell(mid) + 60, 0x10)
    flip("leaf-freeblock", leaf, 1, 0x02)
    # And seeded random bits: in the kernel table, then anywhere.
    rng = random.Random(10)
    for i in range(24):
        flip(f"random-kernel-{i}", rng.choice(interior + leaves), rng.randrange(1024), 1 << rng.randrange(8))
    for i in range(12):
        flip(f"random-any-{i}", rng.randrange(2, pages + 1), rng.randrange(1024), 1 << rng.randrange(8))
    return out


# ---- main ------------------------------------------------------------------------

def build_cases(base, work, cases):
    built = []
    for name, builder in cases:
        folder = os.path.join(work, name)
        os.mkdir(folder)
        path = os.path.join(folder, "profile.sqlite")
        shutil.copy(base, path)
        builder(path)
        built.append((name, folder))
    return built


def generate(gen, work, kernels=600):
    base = os.path.join(work, "base.sqlite")
    subprocess.run([gen, "--kernels", str(kernels), "--memcpy", "40", "--memset", "20", "--iterations", "3",
                    "--nvtx-depth", "3", "--nccl", "--seed", "7",
                    # the CPU side and GPU metrics (issue 12): info reads them too
                    "--osrt", "30", "--cpu-samples", "600", "--gpu-metrics", "2000", base],
                   check=True, capture_output=True)
    return base


def make_corpus(out_dir, gen, max_len=400000):
    """Fuzzing seeds: every case small enough for the fuzzer, from a smaller
    profile; a -wal or -journal rides after its database in an SLSIDE input
    (tests/fuzz/fuzz-loader.c)."""
    work = tempfile.mkdtemp(prefix="sl-hostile-corpus-")
    try:
        base = generate(gen, work, kernels=150)
        for name, folder in build_cases(base, work, CASES + [("overflow-20k", overflow_names(20000))]):
            with open(os.path.join(folder, "profile.sqlite"), "rb") as f:
                data = f.read()
            for suffix, kind in (("-wal", b"w"), ("-journal", b"j")):
                side = os.path.join(folder, "profile.sqlite" + suffix)
                if os.path.exists(side):
                    with open(side, "rb") as f:
                        data = b"SLSIDE" + kind + len(data).to_bytes(4, "little") + data + f.read()
            if len(data) <= max_len:
                with open(os.path.join(out_dir, f"hostile-{name}.sqlite"), "wb") as f:
                    f.write(data)
    finally:
        shutil.rmtree(work)


def main():
    if sys.argv[1] == "--corpus":
        make_corpus(sys.argv[2], sys.argv[3])
        return 0
    t.CLI, gen = sys.argv[1], sys.argv[2]
    work = tempfile.mkdtemp(prefix="sl-hostile-")
    cache = os.path.join(work, "cache")
    env = dict(os.environ, XDG_CACHE_HOME=cache, SL_LOADER_THREADS="2")
    try:
        base = generate(gen, work)
        valid = build_cases(base, work, CASES)
        damaged = damaged_cases(base, work)
        before = {folder: snapshot(folder) for _, folder in valid + damaged}
        wants = {name: truth(folder, os.path.join(work, "truth"), not name.startswith(("flip", "trunc", "view-of")))
                 for name, folder in valid + damaged}
        jobs = [(name, folder, command, only) for name, folder in valid for command in COMMANDS for only in (False, True)]
        jobs += [(name, folder, command, only) for name, folder in damaged for command in ("info", "kernels")
                 for only in (False, True)]
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            results = list(pool.map(lambda j: run_cli(j[2], os.path.join(j[1], "profile.sqlite"), j[3], env), jobs))
        outputs = {}
        for (name, _, command, only), p in zip(jobs, results):
            outputs.setdefault(name, {})[(command, only)] = p
        for name, folder in valid:
            check_valid_case(name, folder, wants[name], outputs[name])
        for name, folder in damaged:
            check_damaged_case(name, folder, wants[name], outputs[name])
        for name, folder in valid + damaged:
            t.check(snapshot(folder) == before[folder], f"{name}: the profile's folder changed: "
                    f"{sorted(before[folder])} -> {sorted(snapshot(folder))}")
        recovered = os.path.join(cache, "sightline", "recovered")
        t.check(not os.path.isdir(recovered) or not os.listdir(recovered),
                f"private copies left behind: {os.listdir(recovered) if os.path.isdir(recovered) else ''}")
        print(f"{len(valid)} valid cases, {len(damaged)} damaged, {len(jobs)} runs")
    finally:
        shutil.rmtree(work)
    return t.finish()


if __name__ == "__main__":
    sys.exit(main())
