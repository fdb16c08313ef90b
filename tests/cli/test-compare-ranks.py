#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""compare --fail-if-slower and ranks/summarize on generated profiles with
PLANTED changes (issue 15):
- a pair where one kernel is 30 % slower per call, one is dropped, one
  added: compare finds exactly those (status and name), every other kernel
  "same"; the gate trips below the step-time change (measured here from
  the NVTX iteration ranges with SQL) and not above;
- 6 ranks whose session starts differ by known offsets, one late by a
  known amount at a known step: ranks names exactly that straggler,
  iteration and amount, the offsets, and the same with summaries mixed in;
  a bad file is reported, the others shown (exit 4).

  test-compare-ranks.py CLI GEN"""
import json
import os
import sqlite3
import statistics
import shutil
import subprocess
import sys
import tempfile

CLI, GEN = sys.argv[1], sys.argv[2]
failures = []
SLOW = "flash_fwd_kernel"
GEMM = "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas"


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def gen(path, *args):
    subprocess.run([GEN, path, "--gpus", "1", "--kernels", "3000", "--nccl", "--gap-ns", "5000000", *args],
                   check=True)


def step_median(path):
    """Median duration of the iteration_N NVTX ranges, straight from SQL."""
    db = sqlite3.connect(path)
    rows = db.execute("SELECT end - start FROM NVTX_EVENTS WHERE text LIKE 'iteration\\_%' ESCAPE '\\'").fetchall()
    db.close()
    return statistics.median(r[0] for r in rows)


def compare(a, b, *args):
    return subprocess.run([CLI, "compare", *args, a, b], capture_output=True, text=True)


def test_planted_pair(tmp):
    a, b = os.path.join(tmp, "a.sqlite"), os.path.join(tmp, "b.sqlite")
    gen(a)
    gen(b, "--slow-kernel", SLOW + "=1.3", "--drop-kernel", "reduce_kernel", "--add-kernel", "planted_new_kernel")
    r = compare(a, b, "--json")
    check(r.returncode == 0, f"compare --json: exit {r.returncode}: {r.stderr}")
    kernels = {k["name"]: k for k in json.loads(r.stdout)["kernels"]}
    changed = {n: k["status"] for n, k in kernels.items() if k["status"] != "same"}
    check(changed == {SLOW: "slower", "reduce_kernel": "removed", "planted_new_kernel": "added"},
          f"planted changes found: {changed}")
    check(abs(kernels[SLOW]["change_pct"] - 30.0) < 0.1, f"{SLOW} change {kernels[SLOW]['change_pct']}")


def test_gate(tmp):
    a, b = os.path.join(tmp, "a.sqlite"), os.path.join(tmp, "g.sqlite")
    # the GPU-bound step: the largest GEMM 30 % slower makes the step slower
    gen(b, "--slow-kernel", GEMM + "=1.3", "--add-kernel", "planted_new_kernel")
    change = (step_median(b) / step_median(a) - 1) * 100
    check(change > 3, f"the planted slowdown shows in the step time ({change:.2f} %)")
    below = compare(a, b, "--fail-if-slower", f"{change - 1:.2f}")
    check(below.returncode == 3, f"gate at {change - 1:.2f} % < {change:.2f} %: exit {below.returncode}")
    check(GEMM in below.stderr and "planted_new_kernel" in below.stderr, f"offenders listed: {below.stderr}")
    offenders = [l for l in below.stderr.splitlines() if l.startswith("  +")]
    check(len(offenders) == 2 and GEMM in offenders[0], f"offenders by added time: {offenders}")
    above = compare(a, b, "--fail-if-slower", f"{change + 1:.2f}")
    check(above.returncode == 0, f"gate at {change + 1:.2f} % > {change:.2f} %: exit {above.returncode}")
    same = compare(a, a, "--fail-if-slower", "0")
    check(same.returncode == 0, f"a profile against itself passes a 0 % gate: exit {same.returncode}")
    bad = compare(a, b, "--fail-if-slower", "fast")
    check(bad.returncode == 1, f"--fail-if-slower fast: usage error, exit {bad.returncode}")


N_RANKS, LATE_RANK, LATE_STEP, LATE_NS, OFFSET_NS = 6, 4, 3, 2500000, 1700000
BASE_UTC = 1779630000000000000


def make_ranks(tmp, n=N_RANKS):
    """Rank files: the same work (same seed), session r started r x OFFSET_NS
    later, rank LATE_RANK's step LATE_STEP LATE_NS late."""
    paths = []
    for r in range(n):
        p = os.path.join(tmp, f"job-rank{r}.sqlite")
        late = ["--late-step", f"{LATE_STEP}:{LATE_NS}"] if r == LATE_RANK else []
        gen(p, "--rank", str(r), "--session-start-ns", str(BASE_UTC + r * OFFSET_NS), *late)
        paths.append(p)
    return paths


def ranks(*args):
    r = subprocess.run([CLI, "ranks", "--json", *args], capture_output=True, text=True)
    return r.returncode, (json.loads(r.stdout) if r.stdout.strip() else None), r.stderr


def check_ranks(d, label):
    check([row["rank"] for row in d["ranks"]] == list(range(N_RANKS)), f"{label}: ranks in order")
    check([row["offset_ns"] for row in d["ranks"]] == [r * OFFSET_NS for r in range(N_RANKS)],
          f"{label}: offsets {[row['offset_ns'] for row in d['ranks']]}")
    for it in d["iterations"]:
        s = it["straggler"]
        if it["index"] == LATE_STEP:
            check(s is not None and s["rank"] == LATE_RANK and s["late_ns"] == LATE_NS,
                  f"{label}: straggler of step {LATE_STEP}: {s}")
        else:
            check(s is None, f"{label}: no straggler at step {it['index']}: {s}")


def test_ranks(tmp):
    paths = make_ranks(tmp)
    status, profiles_only, err = ranks(*paths)
    check(status == 0, f"ranks: exit {status}: {err}")
    check_ranks(profiles_only, "profiles")
    mixed = []
    for i, p in enumerate(paths):
        if i % 2:
            out = p.replace(".sqlite", ".json")
            subprocess.run([CLI, "summarize", p, "-o", out], check=True)
            mixed.append(out)
        else:
            mixed.append(p)
    status, d, err = ranks(*mixed)
    check(status == 0, f"ranks (mixed): exit {status}: {err}")
    strip = lambda d: [{k: v for k, v in row.items() if k != "path"} for row in d["ranks"]]
    check(strip(d) == strip(profiles_only) and d["iterations"] == profiles_only["iterations"],
          "summaries and profiles mixed give the same result as profiles only")
    # a manual offset moves that rank's clock: rank 0 now ends last everywhere
    status, d, err = ranks("--offset", f"{paths[0]}=10ms", *paths)
    check(d["ranks"][0]["offset_ns"] == 10000000, f"--offset: {d['ranks'][0]['offset_ns']}")
    bad = os.path.join(tmp, "broken.sqlite")
    open(bad, "w").write("not a profile")
    status, d, err = ranks(paths[0], bad, paths[1])
    check(status == 4, f"one bad file: exit 4 (partial), got {status}")
    check("broken.sqlite" in err, f"the bad file is named: {err}")
    check(d is not None and len(d["ranks"]) == 2, "the other files are still shown")


def test_rank_from_name(tmp):
    """Without RANK in the captured environment the rank comes from the file name, but only
    from digits after a rank marker: "h100" or "rtx3080" in a name is no rank."""
    src = os.path.join(tmp, "src.sqlite")
    gen(src, "--gpus", "1", "--kernels", "200")
    cases = {"job-Rank_07.sqlite": 7, "report.proc12.sqlite": 12, "run-h100-2gpu-1s.sqlite": None,
             "mock-rtx3080.sqlite": None, "pipit-saxpy-mpi-rank0.sqlite": 0}
    for name, want in cases.items():
        path = os.path.join(tmp, name)
        shutil.copy(src, path)
        out = os.path.join(tmp, name + ".summary.json")
        subprocess.run([CLI, "summarize", path, "-o", out], check=True, capture_output=True)
        got = json.load(open(out)).get("rank")
        check(got == want, f"the rank of {name} from its name: {got} (want {want})")


def test_far_apart(tmp):
    """Files whose sessions started hours apart are not one job: ranks says so on stderr."""
    a, b = os.path.join(tmp, "far-rank0.sqlite"), os.path.join(tmp, "far-rank1.sqlite")
    gen(a, "--gpus", "1", "--kernels", "200", "--session-start-ns", str(BASE_UTC))
    gen(b, "--gpus", "1", "--kernels", "200", "--session-start-ns", str(BASE_UTC + 2 * 3600 * 10**9))
    r = subprocess.run([CLI, "ranks", a, b], capture_output=True, text=True)
    check(r.returncode == 0 and "not the ranks of one job" in r.stderr, f"ranks warns of sessions 2 h apart: {r.stderr!r}")
    c = os.path.join(tmp, "near-rank1.sqlite")
    gen(c, "--gpus", "1", "--kernels", "200", "--session-start-ns", str(BASE_UTC + 5 * 10**9))
    r = subprocess.run([CLI, "ranks", a, c], capture_output=True, text=True)
    check(r.returncode == 0 and "not the ranks of one job" not in r.stderr, f"and not of sessions 5 s apart: {r.stderr!r}")


def kernel_totals_sql(path):
    """Per short name: kernel time, straight from SQL."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    rows = db.execute("SELECT s.value, sum(k.end - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                      "JOIN StringIds s ON s.id = k.shortName GROUP BY s.value").fetchall()
    db.close()
    return dict(rows)


def test_loaded_together(tmp):
    """compare loads its two profiles at once (one thread each): the first
    file given stays profile A whichever load ends first, each profile's
    numbers are its own (SQL), and a file that cannot be loaded is reported
    as if they were loaded one after the other: the first failing one, once."""
    big, small = os.path.join(tmp, "together-big.sqlite"), os.path.join(tmp, "together-small.sqlite")
    gen(big, "--kernels", "200000", "--seed", "3")
    gen(small, "--kernels", "500", "--seed", "4")
    truth = {big: kernel_totals_sql(big), small: kernel_totals_sql(small)}
    for a, b in ((big, small), (small, big)):
        r = compare(a, b, "--json")
        check(r.returncode in (0, 3), f"compare {os.path.basename(a)} {os.path.basename(b)}: exit {r.returncode}")
        d = json.loads(r.stdout)
        check([p["path"] for p in d["profiles"]] == [a, b], f"profiles in the order given: {d['profiles']}")
        for side, path in ((0, a), (1, b)):
            got = {k["name"]: k["total_ns"][side] for k in d["kernels"] if k["total_ns"][side]}
            check(got == truth[path], f"profile {'AB'[side]} ({os.path.basename(path)}): its kernels are its own")
    bad = os.path.join(tmp, "together-broken.sqlite")
    open(bad, "w").write("not a profile")
    missing = os.path.join(tmp, "together-missing.sqlite")
    for args, named in (((bad, big), bad), ((big, bad), bad), ((missing, bad), missing), ((bad, missing), bad)):
        r = compare(*args)
        lines = [line for line in r.stderr.splitlines() if line.strip()]
        check(r.returncode == 2, f"compare {[os.path.basename(x) for x in args]}: exit 2 (input), got {r.returncode}")
        check(len(lines) == 1 and os.path.basename(named) in lines[0],
              f"compare {[os.path.basename(x) for x in args]}: one message, naming {os.path.basename(named)}: {lines}")
        check(r.stdout == "", "nothing printed on stdout")


REAL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "profiles")


def test_ranks_without_steps(tmp):
    """A rank whose profile has no iterations (nsysai-h100: no step ranges,
    no kernel cadence, as `iterations` says) has no median step: null in
    JSON and "–" in the table, not a 0 ns step beside a real rank's."""
    quiet = os.path.join(REAL, "nsysai-h100-2gpu-1s.sqlite")
    steps = os.path.join(tmp, "with-steps.sqlite")
    gen(steps, "--seed", "8")
    it = json.loads(subprocess.run([CLI, "iterations", "--json", quiet], capture_output=True, text=True).stdout)
    check(it["full_steps"] == 0, f"nsysai-h100 has no full steps: {it['full_steps']}")
    status, d, err = ranks(steps, quiet)
    rows = {os.path.basename(r["path"]): r for r in d["ranks"]}
    check(rows["nsysai-h100-2gpu-1s.sqlite"]["step_median_ns"] is None, f"no steps, no median: {rows}")
    check((rows["with-steps.sqlite"]["step_median_ns"] or 0) > 0, f"the rank with steps has its median: {rows}")
    text = subprocess.run([CLI, "ranks", steps, quiet], capture_output=True, text=True).stdout
    line = next((x for x in text.splitlines() if x.endswith("nsysai-h100-2gpu-1s.sqlite")), "")
    check(" – " in line and " 0 ns  " not in line.split("–")[0][-12:], f"the table shows – for its step: {line!r}")


def main():
    tmp = tempfile.mkdtemp(prefix="sl-cmp-ranks-")
    test_ranks_without_steps(tmp)
    test_loaded_together(tmp)
    test_far_apart(tmp)
    test_rank_from_name(tmp)
    test_planted_pair(tmp)
    test_gate(tmp)
    test_ranks(tmp)
    if failures:
        print(f"{len(failures)} failure(s)")
        sys.exit(1)
    print("ok")


main()
