#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""gputrc2graph fidelity (issue 9, item 10).

An independent re-implementation of vLLM's gputrc2graph (semantics from
../shared/rules/SOURCES.md), reading the SQLite export directly, must agree
with `sightline-cli categories --rules FILE --model M --json` per kernel name
and per category (ns, exact) on every real profile and every model of the
rule file; so must the --mapping-csv file and CPU(non-GPU).

What gputrc2graph does, as re-implemented here:
- records: every row of `nsys stats -r cuda_gpu_trace`: kernels named by their
  demangled name (the short name when missing), memcpy as
  "[CUDA memcpy HtoD]"..., unified-memory copies as
  "[CUDA Unified Memory memcpy HtoD]"..., memsets as "[CUDA memset]";
- elapsed time: all records of all GPUs and streams sorted by start (ties:
  end, then name — gputrc2graph's unstable sort leaves them unordered), each
  counting the part past the latest end so far;
- per name: sums of elapsed, of durations, instances;
- category: the first regex of the model (file order) that re.search finds in
  the name, case-sensitive ("other" when none);
- several rule files: dict.update per file (a later engine replaces all of
  an earlier one's models);
- CPU(non-GPU) = wall - GPU; in the CSV both rounded to 0.1 s first and the
  wall raised to the GPU time when below it.

Usage: test-gputrc2graph.py SIGHTLINE_CLI PROFILES_DIR RULES_JSON
"""
import csv
import io
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile

CLI, PROFILES, RULES = sys.argv[1], sys.argv[2], sys.argv[3]
failures = []
n_checks = [0]

MEMCPY = ["Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA", "AtoD", "DtoA", "DtoD", "HtoH", "PtoP"]


def check(ok, what):
    n_checks[0] += 1
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def copy_name(kind):
    if kind is not None and 11 <= kind <= 13:
        return "[CUDA Unified Memory memcpy %s]" % MEMCPY[kind - 10]
    if kind is None or kind >= len(MEMCPY):
        kind = 0
    return "[CUDA memcpy %s]" % MEMCPY[kind]


def has_table(db, name):
    return db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (name,)).fetchone() is not None


def records(path):
    """(start, end, name) of every kernel, memcpy and memset."""
    db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    out = []
    if has_table(db, "CUPTI_ACTIVITY_KIND_KERNEL"):
        out += [(s, e, d if d else sh) for s, e, d, sh in db.execute(
            "SELECT k.start, k.end, d.value, sh.value FROM CUPTI_ACTIVITY_KIND_KERNEL k "
            "LEFT JOIN StringIds d ON d.id = k.demangledName LEFT JOIN StringIds sh ON sh.id = k.shortName")]
    if has_table(db, "CUPTI_ACTIVITY_KIND_MEMCPY"):
        out += [(s, e, copy_name(k)) for s, e, k in
                db.execute("SELECT start, end, copyKind FROM CUPTI_ACTIVITY_KIND_MEMCPY")]
    if has_table(db, "CUPTI_ACTIVITY_KIND_MEMSET"):
        out += [(s, e, "[CUDA memset]") for s, e in db.execute("SELECT start, end FROM CUPTI_ACTIVITY_KIND_MEMSET")]
    db.close()
    return out


def per_name(recs, elapsed):
    """name -> [time_ns, duration_ns, instances]"""
    recs = sorted(recs, key=lambda r: (r[0], r[1], r[2]))
    sums = {}
    current_end = None
    for start, end, name in recs:
        dur = end - start
        if not elapsed:
            t = dur
        elif current_end is None or start > current_end:
            t = dur
            current_end = end
        elif end > current_end:
            t = end - current_end
            current_end = end
        else:
            t = 0
        row = sums.setdefault(name, [0, 0, 0])
        row[0] += t
        row[1] += dur
        row[2] += 1
    return sums


def classify(mapping, name):
    for pattern, category in mapping.items():
        if re.search(pattern, name):
            return category
    return "other"


def run(args, expect_ok=True):
    p = subprocess.run([CLI] + args, capture_output=True, text=True)
    check((p.returncode == 0) == expect_ok, "%s: exit %d %s" % (" ".join(args), p.returncode, p.stderr.strip()))
    return p


def expected_csv(label, sums, mapping, wall_sec):
    rows = [(label, classify(mapping, n), v[2], n, v[0] / 1e9) for n, v in sums.items()]
    gpu_sec = round(sum(v[0] for v in sums.values()) / 1e9, 1)
    total_sec = round(float(wall_sec), 1)
    if total_sec < gpu_sec:
        total_sec = gpu_sec
    rows.append((label, "CPU(non-GPU)", 1, "CPU(non-GPU)", total_sec - gpu_sec))
    rows.sort(key=lambda r: (r[1], -r[4] if r[1] != "CPU(non-GPU)" else 0, r[3]))
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["Model_Engine", "Category", "Instances", "Name", "Elapsed Time (sec)"])
    w.writerows(rows)
    return out.getvalue()


def compare_profile(path, engine, model, mapping, tmp):
    where = "%s %s/%s" % (os.path.basename(path), engine, model)
    sums = per_name(records(path), elapsed=True)
    gpu_ns = sum(v[0] for v in sums.values())
    wall_sec = 0.5 if gpu_ns == 0 else round(gpu_ns / 1e9 * 3 + 0.05, 3)
    csv_path = os.path.join(tmp, "map.csv")
    p = run(["categories", "--json", "--rules", RULES, "--model", "%s/%s" % (engine, model),
             "--wall-time", repr(wall_sec), "--mapping-csv", csv_path, path])
    if p.returncode != 0:
        return
    j = json.loads(p.stdout)
    want_cat = {}
    for name, v in sums.items():
        c = want_cat.setdefault(classify(mapping, name), [0, 0])
        c[0] += v[0]
        c[1] += v[2]
    got_cat = {c["category"]: [c["total_ns"], c["instances"]] for c in j["categories"]}
    check(got_cat == want_cat, "%s: per category %s, want %s" % (where, got_cat, want_cat))
    check(j["total_ns"] == gpu_ns, "%s: total_ns %d, want %d" % (where, j["total_ns"], gpu_ns))
    check(j["time"] == "elapsed" and j["rules"] == "gputrc2graph", "%s: time/rules keys" % where)
    got = {k["name"]: [k["total_ns"], k["duration_ns"], k["instances"], k["category"]] for k in j.get("kernels", [])}
    want = {n: v + [classify(mapping, n)] for n, v in sums.items()}
    for name in sorted(set(got) | set(want)):
        check(got.get(name) == want.get(name), "%s: %.80s: got %s, want %s" % (where, name, got.get(name), want.get(name)))
    want_cpu = max(0, int(wall_sec * 1e9 + 0.5) - gpu_ns)
    check(j["cpu_non_gpu_ns"] == want_cpu, "%s: cpu_non_gpu_ns %s, want %d" % (where, j["cpu_non_gpu_ns"], want_cpu))
    label = "%s_%s_%s_0" % (model, engine, os.path.basename(path)[:-len(".sqlite")])
    with open(csv_path) as f:
        text = f.read()
    check(text == expected_csv(label, sums, mapping, wall_sec), "%s: mapping CSV differs:\n%s" % (where, text[:600]))


def compare_sum(path, engine, model, mapping):
    """--time sum: durations summed, nothing else changes."""
    sums = per_name(records(path), elapsed=False)
    p = run(["categories", "--json", "--time", "sum", "--rules", RULES, "--model", "%s/%s" % (engine, model), path])
    if p.returncode != 0:
        return
    j = json.loads(p.stdout)
    got = {k["name"]: k["total_ns"] for k in j["kernels"]}
    check(got == {n: v[0] for n, v in sums.items()} and j["time"] == "sum", "%s %s: --time sum" % (path, model))


def merged_files(path, tmp):
    """Two rule files: the later one's engine replaces the earlier one's."""
    later = os.path.join(tmp, "later.json")
    extra = os.path.join(tmp, "extra.json")
    with open(later, "w") as f:
        json.dump({"vllm": {"llama": {"sm80_": "G2", "CUDA mem": "copies", ".*": "rest"}}}, f)
    with open(extra, "w") as f:
        json.dump({"sglang": {"ds": {"gemm": "gemm", ".*": "misc"}}}, f)
    run(["categories", "--json", "--rules", RULES, "--rules", later, "--model", "vllm/ds", path], expect_ok=False)
    p = run(["categories", "--json", "--rules", RULES, "--rules", later, "--model", "llama", path])
    if p.returncode == 0:
        cats = {c["category"] for c in json.loads(p.stdout)["categories"]}
        check(cats <= {"G2", "copies", "rest"} and "G2" in cats, "merge: later file wins, got %s" % cats)
    p = run(["categories", "--json", "--rules", RULES, "--rules", extra, "--model", "vllm/ds", path])
    if p.returncode == 0:
        want = per_name(records(path), elapsed=True)
        got = {k["name"]: k["total_ns"] for k in json.loads(p.stdout)["kernels"]}
        check(got == {n: v[0] for n, v in want.items()}, "merge: engines of both files kept")


def bad_usage(path, tmp):
    """Bad values are usage errors that name what is accepted."""
    ours = os.path.join(tmp, "ours.json")
    with open(ours, "w") as f:
        json.dump({"rules": [{"pattern": "gemm", "category": "gemm"}]}, f)
    for args, words in ((["--time", "wall"], "elapsed or sum"), (["--wall-time", "-1"], "seconds"),
                        (["--wall-time", "abc"], "seconds"),
                        (["--rules", ours, "--rules", RULES, "--model", "llama"], "merged")):
        p = run(["categories"] + args + [path], expect_ok=False)
        check(p.returncode == 1 and words in p.stderr, "%s: exit %d, %s" % (args, p.returncode, p.stderr.strip()))
    p = run(["categories", "--rules", RULES, "--model", "llama", "--mapping-csv", "/nonexistent/dir/map.csv", path],
            expect_ok=False)
    check("mapping CSV" in p.stderr, "unwritable --mapping-csv: %s" % p.stderr.strip())


def main():
    with open(RULES) as f:
        engines = json.load(f)
    profiles = sorted(os.path.join(PROFILES, p) for p in os.listdir(PROFILES) if p.endswith(".sqlite"))
    check(len(profiles) >= 5, "real profiles found")
    with tempfile.TemporaryDirectory() as tmp:
        for path in profiles:
            for engine, models in engines.items():
                for model, mapping in models.items():
                    compare_profile(path, engine, model, mapping, tmp)
            compare_sum(path, "vllm", "llama", engines["vllm"]["llama"])
        merged_files(os.path.join(PROFILES, "nsysai-h100-2gpu-1s.sqlite"), tmp)
        bad_usage(os.path.join(PROFILES, "nsysai-mock-rtx3080.sqlite"), tmp)
    if failures:
        print("%d failures" % len(failures))
        sys.exit(1)
    print("gputrc2graph: %d checks agree" % n_checks[0])


main()
