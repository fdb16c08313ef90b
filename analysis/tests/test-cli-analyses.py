#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""sightline-cli analysis commands end to end: every command on every real
profile (including the one without GPU activity) and on a generated one, as a
table and as JSON with the shapes issue 3 specifies; bad filters and bad
arguments give a clear one-line error and exit 1, filters that match nothing
give an empty result and exit 0, unreadable profiles exit 2.  Nothing may
crash (a signal is a failure)."""
import json
import os
import subprocess
import sys
import tempfile

CLI, PROFILES, GEN = sys.argv[1], sys.argv[2], sys.argv[3]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def run(*args):
    p = subprocess.run([CLI, *args], capture_output=True, text=True)
    check(p.returncode >= 0, f"{args}: killed by signal {-p.returncode}: {p.stderr[-400:]}")
    return p


STATS = {"name", "instances", "total_ns", "avg_ns", "med_ns", "min_ns", "max_ns", "stddev_ns", "time_pct"}


def keys_are(obj, want, what, extra=frozenset()):
    got = set(obj)
    check(want <= got and got <= (want | set(extra)), f"{what}: keys {sorted(got)} want {sorted(want)}")


def ints(obj, names, what, nullable=()):
    for n in names:
        v = obj.get(n)
        if v is None and n in nullable:
            continue
        check(isinstance(v, int) and not isinstance(v, bool), f"{what}: {n} = {v!r} is not an int")


def pct(v, what):
    check(isinstance(v, (int, float)) and -1e-9 <= v <= 100 + 1e-6, f"{what}: percentage {v!r}")


def shape_kernels(j, w):
    keys_are(j, {"total_ns", "kernels"}, w)
    for r in j["kernels"]:
        keys_are(r, STATS, w)
        ints(r, STATS - {"name", "time_pct"}, w)
        pct(r["time_pct"], w)


def shape_api(j, w):
    keys_are(j, {"total_ns", "calls"}, w)
    for r in j["calls"]:
        keys_are(r, STATS, w)
        pct(r["time_pct"], w)


def shape_nvtx(j, w):
    keys_are(j, {"ranges", "exact_names"}, w)
    for r in j["ranges"]:
        keys_are(r, STATS | {"gpu_total_ns"}, w)
        ints(r, {"gpu_total_ns", "instances", "total_ns"}, w)


def shape_memcpy(j, w):
    keys_are(j, {"operations"}, w)
    for r in j["operations"]:
        keys_are(r, {"kind", "count", "bytes", "total_ns", "gbps"}, w)
        ints(r, {"count", "bytes", "total_ns"}, w)


def shape_gaps(j, w):
    keys_are(j, {"busy", "devices"}, w)
    for d in j["devices"]:
        keys_are(d, {"device", "span_ns", "kernel_busy_ns", "copy_busy_ns", "busy_ns", "idle_ns",
                     "utilization_pct", "any_busy_pct", "gaps"}, w)
        ints(d, {"device", "span_ns", "busy_ns", "idle_ns"}, w)
        pct(d["utilization_pct"], w)
        check(d["span_ns"] == d["busy_ns"] + d["idle_ns"], f"{w}: span != busy + idle")
        check(len(d["gaps"]) <= 10, f"{w}: default --top is 10")
        for g in d["gaps"]:
            keys_are(g, {"start_ns", "end_ns", "dur_ns", "copy_ns", "before", "after", "cpu"}, w)
            check(g["end_ns"] - g["start_ns"] == g["dur_ns"] > 0, f"{w}: gap length")
            check(len(g["cpu"]) <= 3, f"{w}: at most 3 CPU calls per gap")
            for c in g["cpu"]:
                keys_are(c, {"name", "overlap_ns"}, w)


def shape_overlap(j, w):
    keys_are(j, {"devices"}, w)
    for d in j["devices"]:
        keys_are(d, {"device", "compute_ns", "nccl_ns", "overlap_ns", "compute_only_ns", "nccl_only_ns",
                     "overlap_pct"}, w)
        check(d["compute_only_ns"] + d["overlap_ns"] == d["compute_ns"], f"{w}: compute split")
        pct(d["overlap_pct"], w)


def shape_nccl(j, w):
    keys_are(j, {"total_ns", "count", "collectives", "nvtx"}, w)
    for r in j["collectives"]:
        keys_are(r, {"device", "pid", "stream", "collective", "count", "total_ns", "avg_ns", "min_ns", "max_ns",
                     "time_pct"}, w)
        check(r["collective"] in {"AllReduce", "AllGather", "ReduceScatter", "Broadcast", "Reduce", "SendRecv",
                                  "AllToAll", "other"}, f"{w}: collective {r['collective']}")


def shape_iterations(j, w):
    keys_are(j, {"method", "name", "iterations", "summary", "full_steps", "partial", "period", "confidence",
                 "reason"}, w)
    check(j["method"] in ("nvtx", "kernels", "gaps"), f"{w}: method")
    check(j["method"] == "nvtx" or j["name"] is None, f"{w}: only nvtx has a name")
    check(j["full_steps"] == len(j["iterations"]) and 0 <= j["confidence"] <= 1, f"{w}: full_steps, confidence")
    if j["period"] is not None:
        keys_are(j["period"], {"unit", "median_ns", "p10_ns", "p90_ns", "spread_ns", "kernels"}, w)
        check(j["period"]["unit"] in ("step", "block"), f"{w}: period unit")
    for it in j["iterations"] + j["partial"]:
        keys_are(it, {"index", "pid", "name", "cpu_start_ns", "cpu_end_ns", "gpu_start_ns", "gpu_end_ns",
                      "kernels", "gpu_busy_ns", "nccl_ns"}, w)
        ints(it, {"index", "pid", "kernels", "gpu_busy_ns", "nccl_ns", "cpu_start_ns", "cpu_end_ns",
                  "gpu_start_ns", "gpu_end_ns"}, w, nullable={"cpu_start_ns", "cpu_end_ns", "gpu_start_ns", "gpu_end_ns"})
    keys_are(j["summary"], {"count", "mean_ns", "median_ns", "min_ns", "max_ns", "stddev_ns", "slowest_index"}, w,
             extra={"slowest_pid"})
    check(j["summary"]["count"] == len(j["iterations"]), f"{w}: summary count")


def shape_launch(j, w):
    keys_are(j, {"totals", "kernels"}, w)
    for r in j["kernels"]:
        keys_are(r, {"name", "launches", "api_mean_ns", "queue_mean_ns", "queue_p95_ns", "kernel_mean_ns",
                     "launch_bound"}, w)
        check(isinstance(r["launch_bound"], bool), f"{w}: launch_bound is a boolean")


def shape_categories(j, w):
    keys_are(j, {"total_ns", "categories", "time", "rules", "kernels", "wall_time_ns", "cpu_non_gpu_ns"}, w)
    for c in j["categories"]:
        keys_are(c, {"category", "total_ns", "pct", "instances", "top"}, w)
        pct(c["pct"], w)
        for t in c["top"]:
            keys_are(t, {"name", "total_ns"}, w)
    check(sum(c["total_ns"] for c in j["categories"]) == j["total_ns"], f"{w}: categories add up")
    for k in j["kernels"]:
        keys_are(k, {"name", "category", "instances", "total_ns", "duration_ns"}, w)
    check(sum(k["total_ns"] for k in j["kernels"]) == j["total_ns"], f"{w}: kernels add up")
    check(j["time"] in ("sum", "elapsed") and j["rules"] in ("sightline", "gputrc2graph"), f"{w}: time, rules")


def shape_compare(j, w, n):
    keys_are(j, {"profiles", "basis", "step", "categories", "kernels", "iteration_median_ns", "verdict",
                 "comparability"}, w)
    check(len(j["profiles"]) == n and len(j["iteration_median_ns"]) == n, f"{w}: one entry per profile")
    for p in j["profiles"]:
        keys_are(p, {"path", "iterations"}, w)
        if p["iterations"] is not None:
            keys_are(p["iterations"], {"count", "median_ns", "p10_ns", "p90_ns", "method"}, w)
            it = p["iterations"]
            check(it["p10_ns"] <= it["median_ns"] <= it["p90_ns"], f"{w}: p10 <= median <= p90")
    per_iteration = all(p["iterations"] is not None for p in j["profiles"])
    check(j["basis"] == ("per_iteration" if per_iteration else "per_call"), f"{w}: basis")
    check((j["step"] is not None) == per_iteration, f"{w}: step only with iterations")
    if j["step"] is not None:
        keys_are(j["step"], {"median_ns", "change_pct"}, w)
        check(j["step"]["change_pct"][0] == 0, f"{w}: step change against the first")
    check(j["verdict"] in ("regressed", "improved", "neutral"), f"{w}: verdict")
    keys_are(j["comparability"], {"score", "reasons"}, w)
    check(0 <= j["comparability"]["score"] <= 1 and j["comparability"]["reasons"], f"{w}: comparability")
    for c in j["categories"]:
        keys_are(c, {"category", "total_ns"}, w)
        check(len(c["total_ns"]) == n, f"{w}: category totals per profile")
    extra = {"deltas_ns", "ratios", "statuses"} if n > 2 else set()
    for k in j["kernels"]:
        keys_are(k, {"name", "total_ns", "instances", "calls", "per_call_ns", "per_iteration_ns", "change_pct",
                     "delta_ns", "ratio", "status"}, w, extra=extra)
        check(k["status"] in ("added", "removed", "faster", "slower", "same", "calls"), f"{w}: status {k['status']}")
        check(k["delta_ns"] == k["total_ns"][-1] - k["total_ns"][0], f"{w}: delta")
        check(k["calls"] == k["instances"], f"{w}: calls")
        check((k["per_iteration_ns"] is not None) == per_iteration, f"{w}: per_iteration_ns with iterations")


def shape_tree_node(node, w, depth=0):
    base = {"kind", "name", "start_ns", "end_ns", "gpu_start_ns", "gpu_end_ns", "pid", "tid", "children"}
    if node["kind"] == "kernel":
        keys_are(node, base | {"device", "stream", "correlation_id"}, w)
        check(node["children"] == [], f"{w}: kernels are leaves")
    else:
        check(node["kind"] == "range", f"{w}: kind {node['kind']}")
        keys_are(node, base, w)
    for c in node["children"]:
        check(node["start_ns"] <= c["start_ns"] if c["kind"] == "range" else True, f"{w}: child inside parent")
        shape_tree_node(c, w, depth + 1)


def shape_tree(j, w):
    keys_are(j, {"roots", "exact_names"}, w)
    for r in j["roots"]:
        shape_tree_node(r, w)


def shape_search(j, w):
    keys_are(j, {"pattern", "total", "matches"}, w)
    for m in j["matches"]:
        keys_are(m, {"kind", "name", "start_ns", "end_ns", "dur_ns", "pid", "tid", "device", "stream", "path"}, w)


SHAPES = {
    "kernels": shape_kernels, "api": shape_api, "nvtx": shape_nvtx, "memcpy": shape_memcpy,
    "gaps": shape_gaps, "overlap": shape_overlap, "nccl": shape_nccl, "iterations": shape_iterations,
    "launch": shape_launch, "categories": shape_categories, "tree": shape_tree,
}


def run_json(args, what):
    p = run(*args)
    check(p.returncode == 0, f"{what}: exit {p.returncode}: {p.stderr.strip()}")
    try:
        return json.loads(p.stdout)
    except ValueError as e:
        check(False, f"{what}: not JSON ({e}): {p.stdout[:200]}")
        return None


def one_line_error(p, code, what):
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    check(p.returncode == code, f"{what}: exit {p.returncode}, want {code}: {p.stderr.strip()}")
    check(len(lines) == 1 and lines[0].startswith("sightline-cli"), f"{what}: stderr {p.stderr!r}")


with tempfile.TemporaryDirectory() as tmp:
    gen = os.path.join(tmp, "gen.sqlite")
    subprocess.run([GEN, gen, "--gpus", "2", "--streams", "2", "--processes", "2", "--iterations", "3",
                    "--kernels", "1500", "--nccl", "--memcpy", "20", "--memset", "5", "--gap-ns", "1000000",
                    "--seed", "4"], check=True)
    plain = os.path.join(tmp, "plain.sqlite")
    subprocess.run([GEN, plain, "--kernels", "800", "--iterations", "3", "--nvtx-depth", "0", "--gap-ns", "2000000",
                    "--seed", "2"], check=True)
    rules = os.path.join(tmp, "vllm.json")
    with open(rules, "w") as f:
        json.dump({"vllm": {"llama": {"gemm|nvjet": "gemm", "flash": "attn", "nccl": "comm", ".*": "misc"},
                            "ds": {".*": "misc"}}}, f)
    bad_rules = os.path.join(tmp, "bad.json")
    with open(bad_rules, "w") as f:
        f.write("{\"rules\": [{\"pattern\": \"(\", \"category\": \"x\"}]}")

    profiles = sorted(os.path.join(PROFILES, n) for n in os.listdir(PROFILES) if n.endswith(".sqlite"))
    check(len(profiles) >= 5, "the real profiles are there")
    for path in profiles + [gen, plain]:
        name = os.path.basename(path)
        for cmd, shape in SHAPES.items():
            j = run_json([cmd, "--json", path], f"{cmd} {name}")
            if j is not None:
                shape(j, f"{cmd} --json {name}")
            p = run(cmd, path)
            check(p.returncode == 0 and p.stdout.strip(), f"{cmd} {name} (table): exit {p.returncode} {p.stderr.strip()}")
        j = run_json(["search", "--json", "kernel", path], f"search {name}")
        if j is not None:
            shape_search(j, f"search {name}")
        p = run("search", "/^(nccl|flash)/i", path)
        check(p.returncode == 0, f"search regex {name}")
        j = run_json(["compare", "--json", path, gen], f"compare {name}")
        if j is not None:
            shape_compare(j, f"compare {name}", 2)
        j = run_json(["categories", "--json", "--rules", rules, "--model", "llama", path], f"categories vllm {name}")
        if j is not None:
            shape_categories(j, f"categories vllm {name}")
            check(all(c["category"] in ("gemm", "attn", "comm", "misc") for c in j["categories"]),
                  f"categories vllm {name}: only the file's categories")

    # profiles without GPU work: empty results with a message, exit 0
    jacc = os.path.join(PROFILES, "jacc-cg-cpu-sampling-only.sqlite")
    for cmd in SHAPES:
        p = run(cmd, jacc)
        check(p.returncode == 0 and p.stdout.startswith("No "), f"{cmd} on a CPU-only profile: {p.stdout[:80]!r}")

    # three profiles
    j = run_json(["compare", "--json", gen, plain, gen], "compare three")
    if j is not None:
        shape_compare(j, "compare three", 3)
        check(all(k["status"] == "same" for k in j["kernels"]), "compare A B A: last vs first is the same")

    # captures of different work: the table says the verdict says little; a self-compare does not
    fuser, h100 = (os.path.join(PROFILES, n) for n in ("fuser-report2-h100.sqlite", "nsysai-h100-2gpu-1s.sqlite"))
    if os.path.exists(fuser) and os.path.exists(h100):
        p = run("compare", fuser, h100)
        check(p.returncode == 0 and "verdict says little" in p.stdout, f"compare fuser h100: {p.stdout[-300:]!r}")
        p = run("compare", h100, h100)
        check(p.returncode == 0 and "verdict says little" not in p.stdout and "same capture" in p.stdout,
              f"compare h100 h100: {p.stdout[-300:]!r}")

    # a gputrc2graph model per profile: A llama, B ds (everything misc)
    j = run_json(["compare", "--json", "--rules", rules, "--model", "A=llama", "--model", "B=ds", gen, gen],
                 "compare models")
    if j is not None:
        shape_compare(j, "compare models", 2)
        cats = {c["category"]: c["total_ns"] for c in j["categories"]}
        total = sum(k["total_ns"][1] for k in j["kernels"])
        check(cats.get("misc", [0, 0])[1] == total and cats.get("gemm", [0, 0])[1] == 0
              and cats.get("gemm", [0, 0])[0] > 0, f"compare --model A=llama --model B=ds: {cats}")
    for args in (["--model", "C=llama"], ["--model", "a=llama"], ["--model", "A=llama", "--model", "A=ds"],
                 ["--model", "A=nope"], ["--model", "A=llama"]):
        p = run("compare", "--rules", rules, *args, gen, gen)
        check(p.returncode == 1 and p.stderr.count("\n") == 1, f"compare {args}: exit {p.returncode} {p.stderr!r}")

    # a GPU or pid that is not in the profile: exit 1, one line listing what is (issue 9);
    # a window with nothing in it: exit 0, empty result, a message naming the filter
    for cmd in SHAPES:
        p = run(cmd, "--gpu", "99", gen)
        one_line_error(p, 1, f"{cmd} --gpu 99")
        check("99" in p.stderr and "0, 1" in p.stderr, f"{cmd} --gpu 99 lists the GPUs: {p.stderr!r}")
        p = run(cmd, "--range", "1s", "2s", gen)
        check(p.returncode == 0 and "No " in p.stdout and "[1000000000, 2000000000) ns" in p.stdout,
              f"{cmd} --range 1s 2s: {p.returncode} {p.stdout[:120]!r}")
        j = run_json([cmd, "--json", "--range", "1s", "2s", gen], f"{cmd} empty filter")
    # a range name that names nothing: exit 1, the outermost names listed (the generator's are
    # iteration_N and layer_N_backward)
    for opt in ("--name", "--step-range"):
        p = run("iterations", opt, "no_such_range", gen)
        one_line_error(p, 1, f"iterations {opt} no_such_range")
        check("iteration_#" in p.stderr and "layer_#_backward" in p.stderr, f"iterations {opt} lists names: {p.stderr!r}")
    j = run_json(["kernels", "--json", "--range", "1s", "2s", gen], "kernels --range 1s 2s --json")
    check(j == {"total_ns": 0, "kernels": []}, f"kernels --range 1s 2s --json: {j}")

    # the same window in ns and in seconds; repeated --gpu
    full = run_json(["kernels", "--json", gen], "kernels")
    a = run_json(["kernels", "--json", "--range", "20000000000", "30000000000", gen], "range ns")
    b = run_json(["kernels", "--json", "--range", "20s", "30s", gen], "range s")
    c = run_json(["kernels", "--json", "--range=20000ms 30000000us", gen], "range ms/us")
    check(a == b == c and a["total_ns"] > 0, "--range in ns, s, ms/us agree")
    g0 = run_json(["kernels", "--json", "--gpu", "0", gen], "gpu 0")
    g1 = run_json(["kernels", "--json", "--gpu", "1", gen], "gpu 1")
    g01 = run_json(["kernels", "--json", "--gpu", "0", "--gpu", "1", gen], "gpu 0 1")
    check(g0["total_ns"] + g1["total_ns"] == g01["total_ns"] == full["total_ns"], "--gpu is repeatable")
    top = run_json(["kernels", "--json", "--top", "3", gen], "top")
    check(len(top["kernels"]) == 3 and top["total_ns"] == full["total_ns"], "--top keeps totals")

    # bad arguments: exit 1, one line on stderr
    bad = [
        ["kernels", "--gpu", "abc", gen], ["kernels", "--pid", "-3", gen], ["kernels", "--range", "5s", "4s", gen],
        ["kernels", "--range", "1s", gen], ["kernels", "--range", "1x", "2s", gen], ["kernels", "--names", "long", gen],
        ["kernels", "--top", "many", gen], ["kernels", gen, gen], ["kernels"], ["gaps", "--min-gap", "soon", gen],
        ["gaps", "--top", "-1", gen], ["iterations", "--name", "(", gen], ["iterations", "--min-gap", "-5ms", gen],
        ["tree", "--depth", "x", gen], ["tree", "--min-dur", "1 parsec", gen], ["search", gen],
        ["search", "/(/", gen], ["search", "--limit", "x", "a", gen], ["compare", gen],
        ["compare", "--threshold", "abc", gen, gen], ["categories", "--rules", bad_rules, gen],
        ["categories", "--rules", rules, gen],  # two models in the file: --model is needed
        ["categories", "--model", "llama", gen],
        ["categories", "--rules", rules, "--model", "nope", gen], ["categories", "--rules", "/nonexistent.json", gen],
        ["launch", "--names", "x", gen], ["nvtx", "--bogus", gen],
    ]
    for args in bad:
        one_line_error(run(*args), 1, " ".join(args[:3]))

    # unreadable profiles: exit 2, one line
    for cmd in list(SHAPES) + ["search x", "compare"]:
        argv = cmd.split() + ["/nonexistent.sqlite"]
        if cmd == "compare":
            argv.append(gen)
        one_line_error(run(*argv), 2, f"{cmd} on a missing file")
    one_line_error(run("kernels", PROFILES), 2, "kernels on a directory")
    one_line_error(run("kernels", __file__), 2, "kernels on a text file")

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("all analysis commands OK")
