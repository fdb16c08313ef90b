#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The CPU side and GPU metrics (issue 12) against SQL over the same file.

For the real profiles that have them (jacc: samples and sched; pipit: samples,
sched, an empty OSRT_API and a tool-added symbolName column; fuser: sched only)
and generated ones (current and 2022 layouts, OSRT, samples, metrics), the
loader's view (cpu-activity-dump) must equal what SQL says:
  * per thread: every sample (time, state, cpu, frames leaf first as symbol
    and module text), every OS runtime call (name, start, end, dense depth,
    frames), every context switch;
  * every GPU metric series (device = typeId & 0xFF, name and unit split out
    of metricName) with its times and values;
  * `info --json` counts; `cpu --json` (self, total once per sample, %) with
    and without --range / --pid; `gaps --stacks --json` (samples and top 5
    stacks inside each gap, in the processes owning that GPU).
Hostile copies (missing tables and columns, dangling ids, NULLs, text and
absurd values, negative and reversed times, chains out of order) must load,
with the rows SQL's rules keep and a warning for the others.

Usage: test-cpu-loader.py CPU-ACTIVITY-DUMP SIGHTLINE-CLI SIGHTLINE-GEN PROFILES-DIR"""
import collections
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sl_cli_test as t  # noqa: E402

DUMP = None
MAX_ABS = 1 << 62
UNKNOWN = "[unknown]"


def ro(path):
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True)


def has_table(db, name):
    return db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (name,)).fetchone() is not None


def columns(db, table):
    return {r[1] for r in db.execute(f"PRAGMA table_info({table})")}


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def sane(v):
    return is_int(v) and -MAX_ABS <= v < MAX_ABS


def strings(db):
    return dict(db.execute("SELECT id, value FROM StringIds")) if has_table(db, "StringIds") else {}


def chains(db, table, names):
    """{chain id: ((symbol, module), ...)} leaf first, as SQL orders them."""
    out = collections.defaultdict(list)
    if not has_table(db, table) or "id" not in columns(db, table):
        return {}
    for cid, depth, sym, mod in db.execute(f"SELECT id, stackDepth, symbol, module FROM {table} "
                                           "WHERE typeof(id) = 'integer' ORDER BY id, stackDepth"):
        out[cid].append((names.get(sym, UNKNOWN) if is_int(sym) else UNKNOWN,
                         (names.get(mod, UNKNOWN) if is_int(mod) else None)))
    return {k: tuple(v) for k, v in out.items()}


def sql_samples(db, names):
    """{gtid: sorted [(time, state, cpu, frames)]}."""
    out = collections.defaultdict(list)
    if not has_table(db, "COMPOSITE_EVENTS") or "start" not in columns(db, "COMPOSITE_EVENTS"):
        return {}
    stacks = chains(db, "SAMPLING_CALLCHAINS", names)
    for sid, start, cpu, state, gtid in db.execute(
            "SELECT id, start, cpu, threadState, globalTid FROM COMPOSITE_EVENTS"):
        if not is_int(gtid) or not sane(start):
            continue
        state = state if is_int(state) and 0 <= state <= 10 else 0
        cpu = cpu if is_int(cpu) and 0 <= cpu < 0xFFFF else 0xFFFF
        out[gtid].append((start, state, cpu, stacks.get(sid) if is_int(sid) else None))
    return {k: sorted(v, key=repr) for k, v in out.items()}


def sql_osrt(db, names):
    """{gtid: sorted [(name, start, end, depth, frames)]}, depth the rank of nestingLevel in its thread."""
    out = collections.defaultdict(list)
    if not has_table(db, "OSRT_API") or "start" not in columns(db, "OSRT_API"):
        return {}
    stacks = chains(db, "OSRT_CALLCHAINS", names)
    cols = columns(db, "OSRT_API")
    level_col = "nestingLevel" if "nestingLevel" in cols else "NULL"
    for s, e, cls, gtid, name, level, chain in db.execute(
            f"SELECT start, \"end\", eventClass, globalTid, nameId, {level_col}, callchainId FROM OSRT_API"):
        if cls in (31, 32) or not is_int(gtid) or not (sane(s) and sane(e)) or e < s:
            continue
        level = level if is_int(level) and 0 <= level <= 1024 else 0
        out[gtid].append([names.get(name, UNKNOWN) if is_int(name) else UNKNOWN, s, e, level,
                          stacks.get(chain) if is_int(chain) else None])
    result = {}
    for gtid, calls in out.items():
        rank = {lv: i for i, lv in enumerate(sorted({c[3] for c in calls}))}
        result[gtid] = sorted((tuple(c[:3]) + (rank[c[3]], c[4]) for c in calls), key=repr)
    return result


def sql_sched(db):
    out = collections.defaultdict(list)
    if not has_table(db, "SCHED_EVENTS") or "start" not in columns(db, "SCHED_EVENTS"):
        return {}
    for s, cpu, sin, gtid in db.execute("SELECT start, cpu, isSchedIn, globalTid FROM SCHED_EVENTS"):
        if not is_int(gtid) or not sane(s):
            continue
        cpu = cpu if is_int(cpu) and 0 <= cpu < 0xFFFF else 0xFFFF
        out[gtid].append((s, 1 if (sin is not None and sin != 0) else 0, cpu))
    return {k: sorted(v) for k, v in out.items()}


def split_name(text):
    if text.endswith("]") and "[" in text:
        i = text.rindex("[")
        return text[:i].strip(), text[i + 1:-1]
    return text.strip(), ""


def sql_metrics(db):
    """{(device, metric_id): (name, unit, [(time, value)] sorted)}."""
    if not has_table(db, "TARGET_INFO_GPU_METRICS") or not has_table(db, "GPU_METRICS"):
        return {}
    listed = {}
    for type_id, metric_id, name in db.execute("SELECT typeId, metricId, metricName FROM TARGET_INFO_GPU_METRICS"):
        if is_int(type_id) and is_int(metric_id) and (type_id, metric_id) not in listed:
            listed[(type_id, metric_id)] = split_name(name if isinstance(name, str) else f"Metric {metric_id}")
    series = collections.defaultdict(list)
    for ts, type_id, metric_id, value in db.execute("SELECT timestamp, typeId, metricId, value FROM GPU_METRICS"):
        if not sane(ts) or ts < 0 or (type_id, metric_id) not in listed:
            continue
        if isinstance(value, str):
            try:
                value = float(value)
            except ValueError:
                continue
        if not isinstance(value, (int, float)) or value != value or value in (float("inf"), float("-inf")):
            continue
        series[(type_id & 0xFF, metric_id)].append((ts, value))
    return {(ty & 0xFF, m): nu + (sorted(series[(ty & 0xFF, m)], key=lambda x: x[0]),)
            for (ty, m), nu in listed.items()}


def dump(path, env=None):
    p = subprocess.run([DUMP, path], capture_output=True, text=True, env=env)
    if not t.check(p.returncode == 0, f"{path}: cpu-activity-dump exit {p.returncode}: {p.stderr[-300:]}"):
        return None
    return json.loads(p.stdout)


def mine(d):
    stacks = [tuple((s, m) for s, m in st) for st in d["stacks"]]
    fr = lambda i: stacks[i] if i >= 0 else None
    samples = {th["global_tid"]: sorted(((s[0], s[1], s[2], fr(s[3])) for s in th["samples"]), key=repr)
               for th in d["threads"] if th["samples"]}
    osrt = {th["global_tid"]: sorted(((o[0], o[1], o[2], o[3], fr(o[4])) for o in th["osrt"]), key=repr)
            for th in d["threads"] if th["osrt"]}
    sched = {th["global_tid"]: sorted(tuple(x) for x in th["sched"]) for th in d["threads"] if th["sched"]}
    return samples, osrt, sched


def first_diff(a, b):
    for k in sorted(set(a) | set(b)):
        if a.get(k) != b.get(k):
            x, y = a.get(k) or [], b.get(k) or []
            return f"thread {k}: {len(x)} vs {len(y)}; first: {next((p for p in zip(x, y) if p[0] != p[1]), None)}"
    return ""


def check_loader(name, path, expect_warnings=False):
    d = dump(path)
    if d is None:
        return None
    db = ro(path)
    names = strings(db)
    samples, osrt, sched = mine(d)
    want_samples, want_osrt, want_sched = sql_samples(db, names), sql_osrt(db, names), sql_sched(db)
    t.check(samples == want_samples, f"{name}: samples differ from SQL: {first_diff(samples, want_samples)}")
    t.check(osrt == want_osrt, f"{name}: OS runtime calls differ from SQL: {first_diff(osrt, want_osrt)}")
    t.check(sched == want_sched, f"{name}: sched events differ from SQL: {first_diff(sched, want_sched)}")
    t.check(d["n_samples"] == sum(map(len, want_samples.values())), f"{name}: n_samples")
    t.check(d["n_osrt"] == sum(map(len, want_osrt.values())), f"{name}: n_osrt")
    t.check(d["n_sched"] == sum(map(len, want_sched.values())), f"{name}: n_sched")
    for th in d["threads"]:
        t.check(th["pid"] == (th["global_tid"] >> 24) & 0xFFFFFF and th["tid"] == th["global_tid"] & 0xFFFFFF,
                f"{name}: pid/tid of {th['global_tid']}")
        t.check([x[0] for x in th["samples"]] == sorted(x[0] for x in th["samples"]), f"{name}: samples unsorted")
    if db.execute("SELECT count(*) FROM sqlite_master WHERE name = 'ThreadNames'").fetchone()[0]:
        # the last ThreadNames row of a thread, as the app's loader keeps it
        want_names = {gt: names.get(nid) for gt, nid in db.execute("SELECT globalTid, nameId FROM ThreadNames")}
        for th in d["threads"]:
            t.check(th["name"] == want_names.get(th["global_tid"]),
                    f"{name}: thread {th['tid']} named {th['name']!r}, ThreadNames says {want_names.get(th['global_tid'])!r}")
    keys = [(th["pid"], th["tid"]) for th in d["threads"]]
    t.check(keys == sorted(keys), f"{name}: threads not sorted by (pid, tid)")
    t.check(len(set(map(lambda s: tuple(map(tuple, s)), d["stacks"]))) == len(d["stacks"]),
            f"{name}: a stack is stored twice")
    metrics = {(m["device"], m["metric_id"]): (m["name"], m["unit"], list(zip(m["times"], m["values"])))
               for m in d["metrics"]}
    want = sql_metrics(db)
    t.check(set(metrics) == set(want), f"{name}: metric series {sorted(metrics)} != {sorted(want)}")
    for k in set(metrics) & set(want):
        got_n, got_u, got_v = metrics[k]
        w_n, w_u, w_v = want[k]
        t.check((got_n, got_u) == (w_n, w_u), f"{name}: metric {k} named {got_n!r} [{got_u!r}], want {w_n!r} [{w_u!r}]")
        t.check([x[0] for x in got_v] == [x[0] for x in w_v] and
                all(abs(a[1] - b[1]) <= 1e-6 * max(1, abs(b[1])) for a, b in zip(got_v, w_v)),
                f"{name}: metric {k} samples differ from SQL")
        m = next(m for m in d["metrics"] if (m["device"], m["metric_id"]) == k)
        t.check(m["percent"] == ("%" in w_u), f"{name}: metric {k} percent flag")
        t.check(not w_v or abs(m["max"] - max(0, max(v for _, v in w_v))) < 1e-3, f"{name}: metric {k} max")
    if not expect_warnings:
        t.check(not d["cpu_warnings"] and not d["metric_warnings"],
                f"{name}: unexpected warnings {d['cpu_warnings'] + d['metric_warnings']}")
    db.close()
    return d


# ---- the analyses through the CLI -----------------------------------------------

def sample_rows(db, names):
    """[(time, pid, frames)] of every kept sample, frames as (symbol, module) leaf first."""
    out = []
    for gtid, rows in sql_samples(db, names).items():
        out += [(r[0], (gtid >> 24) & 0xFFFFFF, r[3]) for r in rows]
    return out


def functions(rows):
    self_c, total = collections.Counter(), collections.Counter()
    for _, _, frames in rows:
        if not frames:
            continue
        self_c[frames[0][0]] += 1
        for sym in {f[0] for f in frames}:
            total[sym] += 1
    return self_c, total


def check_cpu(name, path, env, rng=None, pid=None):
    db = ro(path)
    rows = sample_rows(db, strings(db))
    db.close()
    args = ["cpu", "--json", "--limit", "0"]
    if rng is not None:
        args += ["--range", str(rng[0]), str(rng[1])]
        rows = [r for r in rows if rng[0] <= r[0] < rng[1]]
    if pid is not None:
        args += ["--pid", str(pid)]
        rows = [r for r in rows if r[1] == pid]
    got = t.run_json(*args, path)
    if got is None:
        return
    what = f"{name}: cpu {' '.join(args[1:])}"
    t.check(got["samples"] == len(rows), f"{what}: samples {got['samples']} != {len(rows)}")
    self_c, total = functions(rows)
    # Names merged by text: a name the file stores twice still counts once.
    t.check({f["name"]: (f["self"], f["total"]) for f in got["functions"]} ==
            {n: (self_c[n], total[n]) for n in total}, f"{what}: self/total per function differ from SQL")
    keys = [(-f["self"], -f["total"]) for f in got["functions"]]
    t.check(keys == sorted(keys), f"{what}: not sorted by self, then total")
    for f in got["functions"]:
        t.check(abs(f["self_pct"] - 100.0 * f["self"] / max(1, len(rows))) < 1e-9, f"{what}: self_pct")
    top = t.run_json("cpu", "--json", "--limit", "3", path)
    t.check(top is not None and len(top["functions"]) <= 3, f"{name}: cpu --limit 3")


def gpu_pids(db):
    """{device: pids of its streams} from the activity tables."""
    out = collections.defaultdict(set)
    for table in ("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET"):
        if has_table(db, table):
            for dev, pid in db.execute(f"SELECT DISTINCT deviceId, (globalPid >> 24) & 16777215 FROM {table}"):
                out[dev].add(pid)
    return out


def check_gap_stacks(name, path, expect_samples, pid=None):
    """With @pid: `--pid PID` keeps that process's samples only (and its GPU work)."""
    db = ro(path)
    names = strings(db)
    rows = sample_rows(db, names)
    owners = gpu_pids(db)
    db.close()
    if pid is not None:
        owners = {dev: {p for p in ps if p == pid} for dev, ps in owners.items()}
        name = f"{name} --pid {pid}"
    got = t.run_json("gaps", "--stacks", "--json", "--top", "6", *(["--pid", str(pid)] if pid is not None else []), path)
    if got is None:
        return
    n_gaps = 0
    for dev in got["devices"]:
        pids = owners.get(dev["device"])
        for gap in dev["gaps"]:
            n_gaps += 1
            inside = [r for r in rows if gap["start_ns"] <= r[0] < gap["end_ns"] and (not pids or r[1] in pids)]
            counts = collections.Counter(r[2] for r in inside if r[2])
            what = f"{name}: gap at {gap['start_ns']} on GPU {dev['device']}"
            t.check(gap.get("samples") == len(inside), f"{what}: samples {gap.get('samples')} != {len(inside)}")
            stacks = gap.get("stacks", [])
            t.check(len(stacks) == min(5, len(counts)), f"{what}: {len(stacks)} stacks, want {min(5, len(counts))}")
            ranked = sorted(counts.values(), reverse=True)
            t.check([s["samples"] for s in stacks] == ranked[:len(stacks)], f"{what}: stack counts differ from SQL")
            for s in stacks:
                match = [c for fr, c in counts.items() if [f[0] for f in fr] == s["frames"]]
                t.check(s["samples"] in match, f"{what}: stack {s['frames'][:3]} not sampled {s['samples']} times")
    t.check(n_gaps > 0, f"{name}: no gaps to check")
    if expect_samples:
        t.check(any(g["samples"] > 0 for d in got["devices"] for g in d["gaps"]), f"{name}: no gap has samples")


def check_shared_gpu_pid(gen, work):
    """Two processes on one GPU: `gaps --stacks --pid P` counts P's samples only."""
    path = os.path.join(work, "gen-shared-gpu.sqlite")
    subprocess.run([gen, path, "--gpus", "1", "--processes", "2", "--threads", "2", "--kernels", "3000",
                    "--iterations", "4", "--gap-ns", "3000000", "--cpu-samples", "12000", "--seed", "5"],
                   check=True, capture_output=True)
    db = ro(path)
    owners = gpu_pids(db)
    db.close()
    t.check(len(owners.get(0, ())) == 2, f"shared GPU: two processes own GPU 0 ({owners.get(0)})")
    check_gap_stacks("generated shared GPU", path, expect_samples=True, pid=max(owners.get(0, {0})))


def check_info(name, path, d):
    got = t.run_json("info", "--json", path)
    if got is None:
        return
    c = got["counts"]
    t.check((c.get("osrt_calls"), c.get("cpu_samples"), c.get("sched_events")) ==
            (d["n_osrt"], d["n_samples"], d["n_sched"]), f"{name}: info counts of the CPU side")
    t.check(c.get("gpu_metric_series") == len(d["metrics"]), f"{name}: info gpu_metric_series")
    text = t.run("info", path).stdout
    t.check("CPU samples" in text and "OS runtime" in text, f"{name}: info text lacks the CPU counts")


# ---- hostile copies ---------------------------------------------------------------

def loosen(db, table):
    """The table again without its constraints, so that NULLs and text can go in."""
    db.executescript(f"CREATE TABLE loose AS SELECT * FROM {table}; DROP TABLE {table}; "
                     f"ALTER TABLE loose RENAME TO {table};")


def hostile_cases():
    big = 1 << 63 - 1
    return [
        ("no-callchains", "DROP TABLE SAMPLING_CALLCHAINS; DROP TABLE OSRT_CALLCHAINS;"),
        ("no-metric-list", "DROP TABLE TARGET_INFO_GPU_METRICS;"),
        ("no-sampling", "DROP TABLE COMPOSITE_EVENTS; DROP TABLE SCHED_EVENTS; DROP TABLE OSRT_API;"),
        ("no-nesting-column", "ALTER TABLE OSRT_API DROP COLUMN nestingLevel;"),
        ("dangling-ids", "UPDATE SAMPLING_CALLCHAINS SET symbol = 987654321 WHERE id % 7 = 0;"
                         "UPDATE SAMPLING_CALLCHAINS SET module = 987654322 WHERE id % 5 = 0;"
                         "UPDATE OSRT_API SET nameId = 987654323 WHERE rowid % 9 = 0;"
                         "UPDATE OSRT_API SET callchainId = 987654 WHERE rowid % 4 = 0;"
                         "UPDATE COMPOSITE_EVENTS SET id = id + 50000000 WHERE id % 13 = 0;"
                         "UPDATE GPU_METRICS SET metricId = 77 WHERE rowid % 10 = 0;"),
        ("nulls-and-garbage", [("COMPOSITE_EVENTS", "UPDATE COMPOSITE_EVENTS SET globalTid = NULL WHERE id % 11 = 0;"
                                "UPDATE COMPOSITE_EVENTS SET start = NULL WHERE id % 17 = 0;"
                                "UPDATE COMPOSITE_EVENTS SET start = 'soon' WHERE id % 19 = 0;"
                                f"UPDATE COMPOSITE_EVENTS SET start = {big} WHERE id % 23 = 0;"
                                "UPDATE COMPOSITE_EVENTS SET threadState = 99, cpu = -3 WHERE id % 29 = 0;"
                                "UPDATE COMPOSITE_EVENTS SET cpu = 1e9 WHERE id % 31 = 0;"),
                               ("OSRT_API", "UPDATE OSRT_API SET \"end\" = start - 5 WHERE rowid % 7 = 0;"
                                "UPDATE OSRT_API SET start = NULL WHERE rowid % 11 = 0;"
                                "UPDATE OSRT_API SET globalTid = NULL WHERE rowid % 13 = 0;"
                                "UPDATE OSRT_API SET nestingLevel = -4 WHERE rowid % 17 = 0;"
                                "UPDATE OSRT_API SET nestingLevel = 100000 WHERE rowid % 19 = 0;"
                                f"UPDATE OSRT_API SET \"end\" = {big} WHERE rowid % 23 = 0;"
                                "UPDATE OSRT_API SET eventClass = 31 WHERE rowid % 29 = 0;"),
                               ("SCHED_EVENTS", "UPDATE SCHED_EVENTS SET start = -start WHERE rowid % 7 = 0;"
                                "UPDATE SCHED_EVENTS SET isSchedIn = NULL, cpu = NULL WHERE rowid % 5 = 0;"
                                "UPDATE SCHED_EVENTS SET globalTid = 'x' WHERE rowid % 11 = 0;"),
                               ("SAMPLING_CALLCHAINS", "UPDATE SAMPLING_CALLCHAINS SET symbol = NULL WHERE id % 9 = 0;"
                                "UPDATE SAMPLING_CALLCHAINS SET module = 'libx' WHERE id % 10 = 0;"),
                               ("GPU_METRICS", "UPDATE GPU_METRICS SET timestamp = -timestamp WHERE rowid % 7 = 0;"
                                "UPDATE GPU_METRICS SET timestamp = NULL WHERE rowid % 11 = 0;"
                                "UPDATE GPU_METRICS SET value = value + 0.25 WHERE rowid % 5 = 0;"
                                "UPDATE GPU_METRICS SET value = 'n/a' WHERE rowid % 13 = 0;"
                                "UPDATE GPU_METRICS SET value = NULL WHERE rowid % 17 = 0;"),
                               ("TARGET_INFO_GPU_METRICS", "UPDATE TARGET_INFO_GPU_METRICS SET metricName = 'Bare name' "
                                "WHERE metricId = 3; UPDATE TARGET_INFO_GPU_METRICS SET metricName = NULL WHERE metricId = 4;")]),
        ("unsorted", "CREATE TABLE c2 AS SELECT * FROM SAMPLING_CALLCHAINS ORDER BY id DESC, stackDepth DESC;"
                     "DROP TABLE SAMPLING_CALLCHAINS; ALTER TABLE c2 RENAME TO SAMPLING_CALLCHAINS;"
                     "CREATE TABLE e2 AS SELECT * FROM COMPOSITE_EVENTS ORDER BY start DESC;"
                     "DROP TABLE COMPOSITE_EVENTS; ALTER TABLE e2 RENAME TO COMPOSITE_EVENTS;"
                     "CREATE TABLE o2 AS SELECT * FROM OSRT_API ORDER BY start DESC;"
                     "DROP TABLE OSRT_API; ALTER TABLE o2 RENAME TO OSRT_API;"
                     "CREATE TABLE m2 AS SELECT * FROM GPU_METRICS ORDER BY timestamp DESC;"
                     "DROP TABLE GPU_METRICS; ALTER TABLE m2 RENAME TO GPU_METRICS;"),
    ]


def check_hostile(base, work, env):
    for name, script in hostile_cases():
        path = os.path.join(work, f"hostile-{name}.sqlite")
        shutil.copy(base, path)
        db = sqlite3.connect(path, isolation_level=None)
        if isinstance(script, list):
            for table, sql in script:
                loosen(db, table)
                db.executescript(sql)
        else:
            db.executescript(script)
        db.close()
        d = check_loader(f"hostile {name}", path, expect_warnings=True)
        if d is not None and name in ("dangling-ids", "nulls-and-garbage"):
            t.check(d["cpu_warnings"] and d["metric_warnings"], f"hostile {name}: skipped rows not told as warnings")
        check_cpu(f"hostile {name}", path, env)


def main():
    global DUMP
    DUMP, t.CLI, gen, profiles = sys.argv[1:5]
    work = tempfile.mkdtemp(prefix="sl-cpu-loader-")
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(work, "cache"))
    os.environ.update(env)
    try:
        real = {}
        for name in ("jacc-cg-cpu-sampling-only", "pipit-saxpy-mpi-rank0", "fuser-report2-h100",
                     "nsysai-h100-2gpu-1s"):
            path = os.path.join(profiles, name + ".sqlite")
            real[name] = d = check_loader(name, path)
            if d is not None:
                check_info(name, path, d)
                check_cpu(name, path, env)
        jacc, pipit = real["jacc-cg-cpu-sampling-only"], real["pipit-saxpy-mpi-rank0"]
        # The brief's facts about the real files, as a guard on the SQL above.
        t.check(jacc is not None and jacc["n_samples"] == 5094 and jacc["n_sched"] == 11166, "jacc counts")
        t.check(jacc is not None and sum(len(s) for s in jacc["stacks"]) <= 27090, "jacc frames stored once")
        t.check(pipit is not None and pipit["n_samples"] == 5451 and pipit["n_sched"] == 3238 and pipit["n_osrt"] == 0,
                "pipit counts")
        pp = os.path.join(profiles, "pipit-saxpy-mpi-rank0.sqlite")
        db = ro(pp)
        lo, hi = db.execute("SELECT min(start), max(start) FROM COMPOSITE_EVENTS").fetchone()
        pid = db.execute("SELECT (globalTid >> 24) & 16777215 FROM COMPOSITE_EVENTS LIMIT 1").fetchone()[0]
        db.close()
        check_cpu("pipit", pp, env, rng=(lo + (hi - lo) // 3, lo + (hi - lo) // 2))
        check_cpu("pipit", pp, env, pid=pid)
        check_gap_stacks("pipit", pp, expect_samples=True)
        p = t.run("gaps", "--stacks", os.path.join(profiles, "nsysai-h100-2gpu-1s.sqlite"))
        t.check(p.returncode == 0 and p.stdout.count("No CPU samples in this profile") == 1,
                "gaps --stacks without samples: said once")
        p = t.run("gaps", "--stacks", "--json", os.path.join(profiles, "nsysai-h100-2gpu-1s.sqlite"))
        g = json.loads(p.stdout) if p.returncode == 0 else None
        t.check(g is not None and all(x["samples"] == 0 and x["stacks"] == [] for d in g["devices"] for x in d["gaps"])
                and "no CPU samples" in p.stderr, "gaps --stacks --json without samples: empty stacks, said on stderr")

        for layout in ("current", "2022"):
            path = os.path.join(work, f"gen-{layout}.sqlite")
            subprocess.run([gen, path, "--layout", layout, "--gpus", "2", "--processes", "2", "--threads", "2",
                            "--kernels", "3000", "--iterations", "4", "--gap-ns", "3000000", "--osrt", "150",
                            "--cpu-samples", "12000", "--gpu-metrics", "10000", "--seed", "5"],
                           check=True, capture_output=True)
            d = check_loader(f"generated {layout}", path)
            if d is None:
                continue
            t.check(d["n_osrt"] > 600 and max(th["osrt"][-1][3] for th in d["threads"] if th["osrt"]) == 2,
                    f"generated {layout}: nested OS runtime calls")
            t.check(len(d["metrics"]) == 12 and d["metrics"][1]["name"] == "SM Active"
                    and d["metrics"][1]["unit"] == "Throughput %", f"generated {layout}: metric series")
            check_info(f"generated {layout}", path, d)
            check_cpu(f"generated {layout}", path, env)
            check_gap_stacks(f"generated {layout}", path, expect_samples=True)
            if layout == "current":
                check_shared_gpu_pid(gen, work)
            if layout == "current":
                check_hostile(path, work, env)
                e = dict(env, SL_CPU_CANCEL="1")
                p = subprocess.run([DUMP, path], capture_output=True, text=True, env=e)
                t.check(p.returncode == 3, f"cancelled load: exit {p.returncode} ({p.stderr.strip()})")
    finally:
        shutil.rmtree(work)
    return t.finish()


if __name__ == "__main__":
    sys.exit(main())
