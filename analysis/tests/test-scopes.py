#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Scopes (--nvtx, --exclude-nvtx, --category, --exclude-category, --stream)
on generated profiles with warmup / step_N / forward / backward /
computing_softmax ranges: every number equals SQL over the same scope.

A GPU operation is in an NVTX scope when a push/pop range on the thread of
its launching CUDA call (joined by correlationId within the process) encloses
that call's start and its name matches a glob; it is out when an enclosing
range matches an exclude glob.  Categories of the planted kernels are known
by their names.  Every command echoes the scope; a scope part that matches
nothing is exit 1 with a list of what exists."""
import fnmatch
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
from collections import defaultdict
import sl_cli_test
from sl_cli_test import check, failures, run

CLI, GEN = sys.argv[1], sys.argv[2]
sl_cli_test.CLI = CLI
PROFILES = sys.argv[3] if len(sys.argv) > 3 else None


# Every GPU operation with its launching call and the names of the push/pop
# ranges enclosing that call's start on its thread (eventType 59).
OPS_SQL = """
WITH nv AS (
  SELECT n.start, n.end, n.globalTid, coalesce(n.text, s.value) AS name
  FROM NVTX_EVENTS n LEFT JOIN StringIds s ON s.id = n.textId
  WHERE n.eventType = 59 AND n.end IS NOT NULL),
ops AS (
  SELECT 'kernel' AS kind, k.rowid AS id, k.start, k.end, k.deviceId, k.streamId,
         k.correlationId AS corr, k.globalPid, sn.value AS name, 0 AS bytes
  FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds sn ON sn.id = k.shortName
  UNION ALL
  SELECT 'memcpy', m.rowid, m.start, m.end, m.deviceId, m.streamId, m.correlationId, m.globalPid,
         '', m.bytes FROM CUPTI_ACTIVITY_KIND_MEMCPY m
  UNION ALL
  SELECT 'memset', m.rowid, m.start, m.end, m.deviceId, m.streamId, m.correlationId, m.globalPid,
         '', m.bytes FROM CUPTI_ACTIVITY_KIND_MEMSET m)
SELECT o.kind, o.start, o.end, o.deviceId, o.streamId, o.name, o.bytes, r.start,
       (SELECT group_concat(nv.name, char(31)) FROM nv
        WHERE nv.globalTid = r.globalTid AND nv.start <= r.start AND r.start < nv.end)
FROM ops o LEFT JOIN CUPTI_ACTIVITY_KIND_RUNTIME r
  ON r.correlationId = o.corr AND r.globalTid / 16777216 = o.globalPid / 16777216
"""

# API calls with the ranges enclosing their start.
API_SQL = """
WITH nv AS (
  SELECT n.start, n.end, n.globalTid, coalesce(n.text, s.value) AS name
  FROM NVTX_EVENTS n LEFT JOIN StringIds s ON s.id = n.textId
  WHERE n.eventType = 59 AND n.end IS NOT NULL)
SELECT r.end - r.start,
       (SELECT group_concat(nv.name, char(31)) FROM nv
        WHERE nv.globalTid = r.globalTid AND nv.start <= r.start AND r.start < nv.end)
FROM CUPTI_ACTIVITY_KIND_RUNTIME r
"""

# Push/pop ranges with the names of the ranges enclosing them (themselves included).
RANGES_SQL = """
WITH nv AS (
  SELECT n.start, n.end, n.globalTid, coalesce(n.text, s.value) AS name
  FROM NVTX_EVENTS n LEFT JOIN StringIds s ON s.id = n.textId
  WHERE n.eventType = 59 AND n.end IS NOT NULL)
SELECT a.name, a.end - a.start,
       (SELECT group_concat(b.name, char(31)) FROM nv b
        WHERE b.globalTid = a.globalTid AND b.start <= a.start AND a.end <= b.end)
FROM nv a
"""

# The planted kernels' categories (tests/gen/sl-gen.c ktypes), by short name prefix.
CATEGORY_OF = [("ampere_bf16_s16816gemm", "gemm"), ("nvjet_", "gemm"), ("sm90_xmma_gemm", "gemm"),
               ("softmax_warp_", "softmax"), ("ncclDevKernel", "communication")]


def run_json(*args):
    return sl_cli_test.run_json(*args, "--json") or {}


def category(name):
    for prefix, cat in CATEGORY_OF:
        if name.startswith(prefix):
            return cat
    return None


def load(path):
    db = sqlite3.connect(path)
    db.execute("CREATE INDEX IF NOT EXISTS nv_tid ON NVTX_EVENTS (globalTid, start)")
    ops = [dict(kind=k, start=s, end=e, device=d, stream=st, name=n, bytes=b, launch=ls,
                ranges=set(rs.split("\x1f")) if rs else set())
           for k, s, e, d, st, n, b, ls, rs in db.execute(OPS_SQL)]
    api = [(dur, set(rs.split("\x1f")) if rs else set()) for dur, rs in db.execute(API_SQL)]
    ranges = [(n, dur, set(rs.split("\x1f"))) for n, dur, rs in db.execute(RANGES_SQL)]
    db.close()
    return ops, api, ranges


def in_nvtx(names, include, exclude):
    hit = lambda globs: any(fnmatch.fnmatchcase(n, g) for n in names for g in globs)
    return (not include or hit(include)) and not hit(exclude)


def select(ops, include=(), exclude=(), cats=(), xcats=(), streams=(), gpus=(), window=None, kind="kernel"):
    out = []
    for o in ops:
        if o["kind"] != kind or not in_nvtx(o["ranges"], include, exclude):
            continue
        if kind == "kernel" and ((cats and category(o["name"]) not in cats) or category(o["name"]) in xcats):
            continue
        if kind != "kernel" and cats:
            continue
        if (streams and o["stream"] not in streams) or (gpus and o["device"] not in gpus):
            continue
        if window and not (window[0] <= o["start"] < window[1]):
            continue
        out.append(o)
    return out


def scope_args(include=(), exclude=(), cats=(), xcats=(), streams=(), gpus=(), window=None):
    args = []
    for g in include:
        args += ["--nvtx", g]
    for g in exclude:
        args += ["--exclude-nvtx", g]
    for c in cats:
        args += ["--category", c]
    for c in xcats:
        args += ["--exclude-category", c]
    for s in streams:
        args += ["--stream", str(s)]
    for g in gpus:
        args += ["--gpu", str(g)]
    if window:
        args += ["--range", str(window[0]), str(window[1])]
    return args


def check_kernels(path, ops, label, **scope):
    want = select(ops, **scope)
    j = run_json("kernels", *scope_args(**scope), path)
    if not j:
        return
    per_name = defaultdict(lambda: [0, 0])
    for o in want:
        per_name[o["name"]][0] += 1
        per_name[o["name"]][1] += o["end"] - o["start"]
    got = {r["name"]: [r["instances"], r["total_ns"]] for r in j["kernels"]}
    check(got == dict(per_name), f"{label} kernels {scope}: got {got} want {dict(per_name)}")
    check(j["total_ns"] == sum(v[1] for v in per_name.values()), f"{label} kernels total {scope}")
    check(j["scope"]["nvtx"] == list(scope.get("include", ())) and
          j["scope"]["exclude_category"] == list(scope.get("xcats", ())) and
          j["scope"]["stream"] == list(scope.get("streams", ())) and
          j["scope"]["gpu"] == list(scope.get("gpus", ())), f"{label}: scope echo {j['scope']}")
    # categories, tree and launch see the same kernels
    cat = run_json("categories", *scope_args(**scope), path)
    check(cat.get("total_ns") == j["total_ns"], f"{label} categories total {scope}")
    return len(want)


def check_copies(path, ops, label, **scope):
    j = run_json("memcpy", *scope_args(**scope), path)
    if not j:
        return
    got = defaultdict(lambda: [0, 0, 0])
    for r in j["operations"]:
        key = "memset" if r["kind"] == "memset" else "memcpy"
        got[key][0] += r["count"]
        got[key][1] += r["bytes"]
        got[key][2] += r["total_ns"]
    for kind in ("memcpy", "memset"):
        want = select(ops, kind=kind, **scope)
        w = [len(want), sum(o["bytes"] for o in want), sum(o["end"] - o["start"] for o in want)]
        check(got[kind] == w or (w[0] == 0 and kind not in got), f"{label} {kind} {scope}: got {got[kind]} want {w}")


def check_cpu_side(path, api, ranges, label, include=(), exclude=()):
    j = run_json("api", *scope_args(include, exclude), path)
    want = [d for d, names in api if in_nvtx(names, include, exclude)]
    check(j.get("total_ns") == sum(want) and sum(r["instances"] for r in j.get("calls", [])) == len(want),
          f"{label} api {include} {exclude}: got {j.get('total_ns')} want {sum(want)} ({len(want)} calls)")
    j = run_json("nvtx", *scope_args(include, exclude), path)
    want = defaultdict(lambda: [0, 0])
    for name, dur, names in ranges:
        if in_nvtx(names, include, exclude):
            want[name][0] += 1
            want[name][1] += dur
    got = {r["name"]: [r["instances"], r["total_ns"]] for r in j.get("ranges", [])
           if not r["name"].startswith("batch_")}       # start/end ranges are not scoped
    check(got == dict(want), f"{label} nvtx {include} {exclude}: {len(got)} names, want {len(want)}")


def check_tree(path, ops, label, include):
    j = run_json("tree", *scope_args(include), path)
    leaves = 0

    def walk(nodes):
        nonlocal leaves
        for n in nodes:
            if n.get("kind") == "kernel":
                leaves += 1
            walk(n.get("children", []))
    walk(j.get("roots", j.get("tree", [])))
    check(leaves == len(select(ops, include=include)), f"{label} tree {include}: {leaves} kernel leaves")


def check_errors(path):
    p = run("kernels", "--nvtx", "no_such_range*", path)
    check(p.returncode == 1 and "warmup" in p.stderr and "step_1" in p.stderr,
          f"--nvtx matching nothing: exit {p.returncode}, {p.stderr.strip()}")
    p = run("gaps", "--exclude-nvtx", "nope", path)
    check(p.returncode == 1 and "forward" in p.stderr, f"--exclude-nvtx matching nothing: {p.stderr.strip()}")
    p = run("kernels", "--category", "no_such_category", path)
    check(p.returncode == 1 and "gemm" in p.stderr and "softmax" in p.stderr,
          f"unknown category: exit {p.returncode}, {p.stderr.strip()}")
    p = run("kernels", "--category", "moe", path)
    check(p.returncode == 1 and "gemm" in p.stderr, f"category without kernels: {p.stderr.strip()}")
    p = run("kernels", "--stream", "9999", path)
    check(p.returncode == 1 and "stream" in p.stderr, f"stream without work: {p.stderr.strip()}")
    p = run("kernels", "--stream", "x", path)
    check(p.returncode == 1 and "--stream" in p.stderr, f"bad --stream: {p.stderr.strip()}")
    p = run("compare", "--nvtx", "nothing_here", path, path)
    check(p.returncode == 1 and "warmup" in p.stderr, f"compare --nvtx matching nothing: {p.stderr.strip()}")
    # valid parts that together keep nothing: an empty result that names the scope, exit 0
    p = run("kernels", "--category", "gemm", "--exclude-category", "gemm", path)
    check(p.returncode == 0 and "--category gemm · --exclude-category gemm" in p.stdout,
          f"empty scope names itself: exit {p.returncode}, {p.stdout.strip()}")


def check_every_command(path):
    echo = {"nvtx": ["step_*"], "exclude_nvtx": ["warmup"], "category": [], "exclude_category": ["gemm"],
            "stream": [], "gpu": [0], "pid": [], "range": None}
    args = ["--nvtx", "step_*", "--exclude-nvtx", "warmup", "--exclude-category", "gemm", "--gpu", "0"]
    for cmd in ("kernels", "api", "nvtx", "memcpy", "gaps", "overlap", "nccl", "iterations", "launch",
                "categories", "tree"):
        j = run_json(cmd, *args, path)
        check(j.get("scope") == echo, f"{cmd}: scope echo {j.get('scope')}")
    j = run_json("search", *args, "softmax", path)
    check(j.get("scope") == echo, f"search: scope echo {j.get('scope')}")
    j = run_json("compare", *args, path, path)
    check(j.get("scope") == echo, f"compare: scope echo {j.get('scope')}")
    j = run_json("kernels", path)
    check("scope" not in j, "kernels without a scope has no scope member")


def check_profile(label, gen_args, tmp):
    path = os.path.join(tmp, label + ".sqlite")
    subprocess.run([GEN, "--scope-ranges", *gen_args, path], check=True)
    ops, api, ranges = load(path)
    kernels = [o for o in ops if o["kind"] == "kernel"]
    streams = sorted({o["stream"] for o in kernels})
    mid = sorted(o["start"] for o in kernels)[len(kernels) // 2]
    n = check_kernels(path, ops, label, include=("step_*",))
    check(0 < (n or 0) < len(kernels), f"{label}: step_* keeps part of the kernels ({n})")
    check_kernels(path, ops, label, exclude=("warmup",))
    check_kernels(path, ops, label, include=("forward",))
    check_kernels(path, ops, label, include=("backward", "optimizer"))
    n = check_kernels(path, ops, label, include=("computing_softmax",))
    check((n or 0) > 0, f"{label}: computing_softmax launched kernels")
    check_kernels(path, ops, label, include=("attention",), cats=("softmax", "gemm"))
    check_kernels(path, ops, label, include=("layer_?",), exclude=("warmup", "computing_*"))
    check_kernels(path, ops, label, xcats=("gemm",), streams=(streams[-1],))
    if any(category(o["name"]) == "communication" for o in kernels):
        check_kernels(path, ops, label, cats=("communication",), exclude=("warmup",))
    last_gpu = max(o["device"] for o in kernels)     # a GPU this profile has (a missing one is an error)
    check_kernels(path, ops, label, include=("step_*",), gpus=(last_gpu,), window=(mid, mid + 10**9))
    check_copies(path, ops, label, include=("step_*",))
    check_copies(path, ops, label, exclude=("step_1",), streams=(streams[0],))
    check_copies(path, ops, label, cats=("gemm",))
    check_cpu_side(path, api, ranges, label, include=("forward",))
    check_cpu_side(path, api, ranges, label, include=("step_*",), exclude=("optimizer",))
    check_tree(path, ops, label, ("computing_softmax",))
    return path


def check_real_profiles():
    """On the real profiles: --nvtx over the top-level range names, against SQL."""
    if PROFILES is None or not os.path.isdir(PROFILES):
        return
    for name, globs in (("nsysai-h100-2gpu-1s.sqlite", ["FSDP*", "aten::linear*", "aten::*"]),
                        ("fuser-report2-h100.sqlite", ["*"])):
        path = os.path.join(PROFILES, name)
        if not os.path.exists(path):
            continue
        with tempfile.TemporaryDirectory() as tmp:
            copy = os.path.join(tmp, name)      # never index the shared profile itself
            with open(path, "rb") as src, open(copy, "wb") as dst:
                dst.write(src.read())
            ops, api, ranges = load(copy)
            for g in globs:
                check_kernels(path, ops, name, include=(g,))


def main():
    with tempfile.TemporaryDirectory() as tmp:
        two = check_profile("two-threads", ["--iterations", "4", "--kernels", "3000", "--memcpy", "40",
                                            "--memset", "20", "--nccl", "--streams", "2"], tmp)
        check_profile("one-thread", ["--threads", "1", "--iterations", "3", "--kernels", "2000",
                                     "--memcpy", "12", "--gpus", "1", "--seed", "7"], tmp)
        check_errors(two)
        check_every_command(two)
    check_real_profiles()
    print(f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
