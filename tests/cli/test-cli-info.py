#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""sightline-cli info: the JSON contract on every real profile, checked
against independent SQL, and exit status 2 with one specific stderr line for
every kind of bad input."""
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

CLI, PROFILES = sys.argv[1], sys.argv[2]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def run(*args, env=None):
    return subprocess.run([CLI, *args], capture_output=True, text=True, env=env)


def sql(path, query):
    db = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
    try:
        return db.execute(query).fetchone()[0]
    except sqlite3.OperationalError:
        return 0
    finally:
        db.close()


CONTRACT = {"path", "nsys_version", "schema_version", "start_ns", "end_ns", "duration_ns",
            "gpus", "processes", "counts", "warnings",
            "cpu_warnings"}  # issue 12: the CPU side's own warnings
GPU_KEYS = {"device", "name", "sm_count", "memory_bytes", "kernels", "streams"}
COUNT_KEYS = {"kernels", "memcpy", "memset", "cuda_api", "nvtx_ranges", "nvtx_marks",
              # issue 12: the CPU side and GPU metrics
              "osrt_calls", "cpu_samples", "sched_events", "gpu_metric_series", "gpu_metric_samples"}

for name in sorted(os.listdir(PROFILES)):
    if not name.endswith(".sqlite"):
        continue
    path = os.path.join(PROFILES, name)
    r = run("info", "--json", path)
    check(r.returncode == 0, f"{name}: exit {r.returncode} {r.stderr}")
    d = json.loads(r.stdout)
    check(set(d) == CONTRACT, f"{name}: top-level keys {sorted(d)}")
    check(set(d["counts"]) == COUNT_KEYS, f"{name}: counts keys")
    for key, table in (("cpu_samples", "COMPOSITE_EVENTS"), ("sched_events", "SCHED_EVENTS"),
                       ("osrt_calls", "OSRT_API"), ("gpu_metric_samples", "GPU_METRICS")):
        check(d["counts"].get(key) == sql(path, f"SELECT count(*) FROM {table}"),
              f"{name}: counts.{key} {d['counts'].get(key)} != SQL")
    check(d["duration_ns"] == d["end_ns"] - d["start_ns"], f"{name}: duration")
    check(d["counts"]["kernels"] == sql(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"),
          f"{name}: counts.kernels")
    check(d["counts"]["memcpy"] == sql(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY"), f"{name}: memcpy")
    # GPUs with activity, sorted, each with its kernel count and streams.
    devices = [g["device"] for g in d["gpus"]]
    check(devices == sorted(devices), f"{name}: gpus sorted")
    want = {row[0]: row[1] for row in sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True).execute(
        "SELECT deviceId, count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL GROUP BY deviceId")} \
        if sql(path, "SELECT count(*) FROM sqlite_master WHERE name='CUPTI_ACTIVITY_KIND_KERNEL'") else {}
    for g in d["gpus"]:
        check(set(g) == GPU_KEYS, f"{name}: gpu keys {sorted(g)}")
        check(g["kernels"] == want.get(g["device"], 0), f"{name}: gpu {g['device']} kernels")
        check(g["streams"] == sorted(g["streams"]), f"{name}: streams sorted")
    if d["counts"]["kernels"] == 0 and d["counts"]["memcpy"] == 0:
        text = run("info", path).stdout
        check("no GPU activity" in text, f"{name}: readable output says there is no GPU activity")
    for p in d["processes"]:
        check(set(p) == {"pid", "name", "threads"}, f"{name}: process keys")

# A real 2022 export with backtrace duplicates: cuda_api counts eventClass 0/1 only.
pipit = os.path.join(PROFILES, "pipit-saxpy-mpi-rank0.sqlite")
d = json.loads(run("info", "--json", pipit).stdout)
check(d["counts"]["cuda_api"] == sql(pipit, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE eventClass IN (0,1)"),
      "pipit: backtrace rows removed")
check(d["counts"]["cuda_api"] < sql(pipit, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME"), "pipit: has duplicates")

# A capture of CPU samples only: its time range is the samples' (what the
# timeline shows), not 0 ns, and its processes are listed from the CPU side.
jacc = os.path.join(PROFILES, "jacc-cg-cpu-sampling-only.sqlite")
d = json.loads(run("info", "--json", jacc).stdout)
check((d["start_ns"], d["end_ns"]) == (sql(jacc, "SELECT min(start) FROM COMPOSITE_EVENTS"),
                                       sql(jacc, "SELECT max(start) FROM COMPOSITE_EVENTS")),
      f"jacc: [{d['start_ns']}, {d['end_ns']}] != the CPU samples' range")
text = run("info", jacc).stdout
check("Duration:        6.023 s" in text, "jacc: readable duration of the samples")
check("3692659  julia" in text and "7 threads (no CUDA or NVTX events)" in text,
      f"jacc: CPU-only process listed: {text!r}")
# Elsewhere the range covers the CPU samples too (pipit's begin before its first CUDA call).
d = json.loads(run("info", "--json", pipit).stdout)
check(d["start_ns"] == min(sql(pipit, "SELECT min(start) FROM COMPOSITE_EVENTS"),
                           sql(pipit, "SELECT min(start) FROM CUPTI_ACTIVITY_KIND_RUNTIME")),
      f"pipit: start_ns {d['start_ns']} is not the earliest sample or call")
check("1 thread\n" in run("info", pipit).stdout, "pipit: one thread in the singular")

# ---- bad input: exit 2, exactly one line on stderr, specific message ----
tmp = tempfile.mkdtemp(prefix="sl-cli-test-")
os.chmod(tmp, 0o755)


def bad(path, needle, label, env=None, as_user=None):
    args = ["info", path]
    if as_user is not None:
        cmd = ["setpriv", f"--reuid={as_user}", f"--regid={as_user}", "--clear-groups", CLI, *args]
        r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    else:
        r = run(*args, env=env)
    lines = r.stderr.strip().splitlines()
    check(r.returncode == 2, f"{label}: exit {r.returncode}")
    check(len(lines) == 1, f"{label}: stderr has {len(lines)} lines: {r.stderr!r}")
    check(needle in r.stderr, f"{label}: {needle!r} not in {r.stderr!r}")
    check("AddressSanitizer" not in r.stderr and "runtime error" not in r.stderr, f"{label}: sanitizer report")


def write(name, data):
    p = os.path.join(tmp, name)
    with open(p, "wb") as f:
        f.write(data)
    return p


real = os.path.join(PROFILES, "nsysai-h100-2gpu-1s.sqlite")
blob = open(real, "rb").read()

bad(os.path.join(tmp, "missing.sqlite"), "does not exist", "missing file")
bad(tmp, "folder", "directory")
bad(write("empty.sqlite", b""), "empty", "empty file")
bad(write("notes.sqlite", b"just some notes\n"), "text file", "text file")
bad(write("image.sqlite", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR" + b"\0" * 40), "PNG", "png")
contacts = os.path.join(tmp, "contacts.sqlite")
db = sqlite3.connect(contacts)
db.execute("CREATE TABLE people(name TEXT)")
db.commit()
db.close()
bad(contacts, "not an Nsight Systems export", "sqlite, not nsight")
nostr = write("nostrings.sqlite", open(os.path.join(PROFILES, "nsysai-mock-rtx3080.sqlite"), "rb").read())
db = sqlite3.connect(nostr)
db.execute("DROP TABLE StringIds")
db.commit()
db.close()
bad(nostr, "StringIds", "StringIds missing")
bad(write("half.sqlite", blob[: len(blob) // 2]), "truncated", "truncated")
corrupt = bytearray(blob)
for i in range(len(blob) // 4, 3 * len(blob) // 4):
    corrupt[i] = (i * 131 + 7) & 0xFF
bad(write("corrupt.sqlite", bytes(corrupt)), "damaged", "corrupt pages")
env = dict(os.environ, PATH="/nonexistent")
bad(write("run.nsys-rep", b"report"), "nsys export --type sqlite", "nsys-rep without nsys", env=env)
secret = write("secret.sqlite", blob)
os.chmod(secret, 0)
if os.geteuid() == 0 and shutil.which("setpriv"):
    bad(secret, "permission denied", "no read permission", as_user=65534)
elif os.geteuid() != 0:
    bad(secret, "permission denied", "no read permission")
else:
    check(False, "cannot test permissions: running as root without setpriv")

# Usage errors are not input errors.
r = run("info")
check(r.returncode == 1, "info without a profile exits 1")

shutil.rmtree(tmp, ignore_errors=True)
print(f"{0 if failures else 1} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
