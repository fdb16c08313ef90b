#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""ranks and summarize fed hostile rank summaries (issue 15 follow-up).

A good summary is made with summarize from a generated rank; each hostile
file is a copy of it broken in one way (arrays of numbers where objects are
expected, strings for numbers, huge or negative values, missing keys, an
unknown version, an empty or truncated file, ...).  For each:
- ranks GOOD1 BAD GOOD2 does not crash (no signal, no sanitizer report),
  exits 4, names the bad file and the problem (the field and what is
  wrong with it), and still shows the two good ranks;
- summarize BAD -o OUT fails with the same message and writes nothing.
Run by the ASan build too, where a read out of bounds would abort.

  test-hostile-summaries.py CLI GEN"""
import copy
import json
import os
import subprocess
import sys
import tempfile

CLI, GEN = sys.argv[1], sys.argv[2]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def good_summary(tmp, rank):
    prof = os.path.join(tmp, f"rank{rank}.sqlite")
    out = os.path.join(tmp, f"rank{rank}.json")
    subprocess.run([GEN, prof, "--gpus", "1", "--kernels", "600", "--nccl", "--rank", str(rank)], check=True)
    subprocess.run([CLI, "summarize", prof, "-o", out], check=True)
    return out


def setter(path, value):
    """A change to a summary: set the member at @path (keys and indices) to @value."""
    def apply(d):
        node = d
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
        return d
    return apply


def deleter(path):
    def apply(d):
        node = d
        for key in path[:-1]:
            node = node[key]
        del node[path[-1]]
        return d
    return apply


def duplicate_first_step(d):
    d["iterations"]["steps"][1]["index"] = d["iterations"]["steps"][0]["index"]
    return d


STEP0 = ["iterations", "steps", 0]
# (label, the change or the file's text, phrases the message must contain)
CASES = [
    ("empty file", "", ["empty"]),
    ("blank file", "  \n", ["empty"]),
    ("truncated JSON", None, ["not valid JSON"]),
    ("top level an array of numbers", "[1, 2, 3]", ["expected an object", "an array"]),
    ("version 99", setter(["version"], 99), ["version 99", "version 1"]),
    ("version a string", setter(["version"], "1"), ["version", "expected an integer", "a string"]),
    ("no format", deleter(["format"]), ["format", "missing"]),
    ("other format", setter(["format"], "perfetto"), ["not a Sightline rank summary"]),
    ("steps an array of numbers", setter(["iterations", "steps"], [1, 2, 3]),
     ["iterations.steps[0]", "expected an object", "a number"]),
    ("top kernels an array of numbers", setter(["top_kernels"], [7]),
     ["top_kernels[0]", "expected an object"]),
    ("gpus an array of strings", setter(["gpus"], ["H100"]), ["gpus[0]", "expected an object", "a string"]),
    ("categories an object", setter(["categories"], {"gemm": 1}), ["categories", "expected an array"]),
    ("a step null", setter(STEP0, None), ["iterations.steps[0]", "expected an object", "null"]),
    ("end a string", setter(STEP0 + ["end_ns"], "12345"),
     ["iterations.steps[0].end_ns", "expected an integer", "a string"]),
    ("start a fraction", setter(STEP0 + ["start_ns"], 1.5), ["iterations.steps[0].start_ns", "expected an integer"]),
    ("index huge", setter(STEP0 + ["index"], 4294967295), ["iterations.steps[0].index", "out of range"]),
    ("index negative", setter(STEP0 + ["index"], -1), ["iterations.steps[0].index", "out of range"]),
    ("index beyond int64", setter(STEP0 + ["index"], 10 ** 30), ["iterations.steps[0].index"]),
    ("end huge", setter(STEP0 + ["end_ns"], 9 * 10 ** 18), ["iterations.steps[0].end_ns", "out of range"]),
    ("end before start", setter(STEP0 + ["end_ns"], -5), ["iterations.steps[0]", "ends before it starts"]),
    ("busy negative", setter(STEP0 + ["busy_ns"], -1), ["iterations.steps[0].busy_ns", "out of range"]),
    ("duplicate index", duplicate_first_step, ["iterations.steps[1].index", "increasing"]),
    ("step without end", deleter(STEP0 + ["end_ns"]), ["iterations.steps[0]", "missing \u201cend_ns\u201d"]),
    ("no iterations", deleter(["iterations"]), ["missing \u201citerations\u201d"]),
    ("rank huge", setter(["rank"], 10 ** 15), ["rank", "out of range"]),
    ("rank a string", setter(["rank"], "3"), ["rank", "expected an integer"]),
    ("session start negative", setter(["session_start_utc_ns"], -10 ** 18),
     ["session_start_utc_ns", "out of range"]),
    ("session start huge", setter(["session_start_utc_ns"], 9223372036854775807),
     ["session_start_utc_ns", "out of range"]),
    ("kernel name a number", setter(["top_kernels", 0, "name"], 5), ["top_kernels[0].name", "expected a string"]),
    ("instances negative", setter(["top_kernels", 0, "instances"], -3), ["top_kernels[0].instances", "out of range"]),
    ("device huge", setter(["gpus", 0, "device"], 10 ** 12), ["gpus[0].device", "out of range"]),
]


def write_case(tmp, i, base_text, change):
    bad = os.path.join(tmp, f"bad{i}.json")
    if change is None:
        text = base_text[: len(base_text) // 2]
    elif isinstance(change, str):
        text = change
    else:
        text = json.dumps(change(copy.deepcopy(json.loads(base_text))))
    with open(bad, "w") as f:
        f.write(text)
    return bad


def no_crash(r, label):
    check(r.returncode >= 0, f"{label}: killed by signal {-r.returncode}")
    check("Sanitizer" not in r.stderr and "runtime error" not in r.stderr,
          f"{label}: sanitizer report: {r.stderr[-2000:]}")


def run_case(tmp, i, goods, base_text, label, change, phrases):
    bad = write_case(tmp, i, base_text, change)
    r = subprocess.run([CLI, "ranks", "--json", goods[0], bad, goods[1]], capture_output=True, text=True)
    no_crash(r, f"ranks, {label}")
    check(r.returncode == 4, f"ranks, {label}: exit 4 (partial), got {r.returncode}: {r.stderr}")
    check(bad in r.stderr, f"ranks, {label}: the message names {bad}: {r.stderr}")
    for p in phrases:
        check(p in r.stderr, f"ranks, {label}: the message says “{p}”: {r.stderr}")
    try:
        shown = [row["rank"] for row in json.loads(r.stdout)["ranks"]]
    except (ValueError, KeyError, TypeError):
        shown = None
    check(shown == [0, 1], f"ranks, {label}: the two good ranks still shown: {shown}")
    out = os.path.join(tmp, f"out{i}.json")
    s = subprocess.run([CLI, "summarize", bad, "-o", out], capture_output=True, text=True)
    no_crash(s, f"summarize, {label}")
    check(s.returncode != 0 and not os.path.exists(out), f"summarize, {label}: fails, writes nothing")
    check(all(p in s.stderr for p in phrases), f"summarize, {label}: same message: {s.stderr}")


def main():
    tmp = tempfile.mkdtemp(prefix="sl-hostile-sum-")
    goods = [good_summary(tmp, 0), good_summary(tmp, 1)]
    base_text = open(goods[0]).read()
    base = json.loads(base_text)
    check(len(base["iterations"]["steps"]) >= 2 and base["top_kernels"] and base["gpus"],
          "the generated summary has steps, kernels and GPUs to break")
    r = subprocess.run([CLI, "ranks", "--json", *goods], capture_output=True, text=True)
    check(r.returncode == 0, f"the good summaries read: exit {r.returncode}: {r.stderr}")
    for i, (label, change, phrases) in enumerate(CASES):
        run_case(tmp, i, goods, base_text, label, change, phrases)
    if failures:
        print(f"{len(failures)} failure(s)")
        sys.exit(1)
    print(f"ok: {len(CASES)} hostile summaries")


main()
