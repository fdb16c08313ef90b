#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The text of `tree` is its `--json` tree laid out as the README shows.

The text writer formats a million lines for a big profile and so builds each
line by hand; this checks it against an independent rendering of the same
nodes in Python, line for line:
  - two spaces of indentation per level, then the name; a kernel adds
    "  [GPU d · stream s]";
  - labels padded to the widest label in terminal columns (at most 110; a
    CJK character takes two), then two spaces and the CPU duration
    right-aligned in 12 columns, in the unit of its magnitude with three
    decimals ("12 ns", "120.441 µs");
  - a range with GPU work adds "  (GPU <its GPU projection>)".
On every real profile, on a generated one, and on a copy of it with
non-ASCII names (widths count terminal columns, not bytes or characters) and names longer than
the 110-character cap; with --depth and --min-dur as well; and again with
the paths of big trees forced on: a whole tree streamed by two workers as it
is walked, and the lines kept by two walks and written in chunks in turn."""
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import sl_cli_test
from sl_cli_test import check, failures, run, run_json, text_columns

CLI, PROFILES, GEN = sys.argv[1], sys.argv[2], sys.argv[3]
sl_cli_test.CLI = CLI


def duration(ns):
    a = abs(ns)
    if a >= 1_000_000_000:
        return "%.3f s" % (ns / 1e9)
    if a >= 1_000_000:
        return "%.3f ms" % (ns / 1e6)
    if a >= 1000:
        return "%.3f µs" % (ns / 1e3)
    return "%d ns" % ns


def label(node, level):
    text = "  " * level + node["name"]
    if node["kind"] == "kernel":
        text += f"  [GPU {node['device']} · stream {node['stream']}]"
    return text


def flatten(nodes, level, out):
    for n in nodes:
        out.append((level, n))
        flatten(n["children"], level + 1, out)
    return out


def render(tree):
    nodes = flatten(tree["roots"], 0, [])
    labels = [label(n, level) for level, n in nodes]
    width = min(max((text_columns(t) for t in labels), default=0), 110)
    lines = []
    for text, (level, n) in zip(labels, nodes):
        dur = duration(n["end_ns"] - n["start_ns"])
        line = text + " " * (max(width - text_columns(text), 0) + 2) + " " * max(12 - text_columns(dur), 0) + dur
        if n["kind"] == "range" and n["gpu_start_ns"] is not None:
            line += f"  (GPU {duration(n['gpu_end_ns'] - n['gpu_start_ns'])})"
        lines.append(line + "\n")
    return "".join(lines), len(nodes)


def check_profile(path, what):
    for extra in ([], ["--depth", "2"], ["--min-dur", "20us"], ["--exact-names"]):
        tree = run_json("tree", "--json", *extra, path)
        text = run("tree", *extra, path)
        if tree is None or text.returncode != 0:
            check(False, f"{what} {extra}: tree failed: {text.stderr.strip()}")
            continue
        want, n = render(tree)
        got = text.stdout
        if n == 0:
            # the message that says so, in the user's language
            check(len(got.splitlines()) == 1 and not profile_has_kernels(path) or extra,
                  f"{what} {extra}: no nodes, and it printed {got[:200]!r}")
            continue
        if got != want:
            g, w = got.splitlines(), want.splitlines()
            first = next((i for i in range(min(len(g), len(w))) if g[i] != w[i]), min(len(g), len(w)))
            check(False, f"{what} {extra}: line {first + 1} of {len(g)} (want {len(w)}):\n"
                         f"  got  {g[first] if first < len(g) else None!r}\n"
                         f"  want {w[first] if first < len(w) else None!r}")


def profile_has_kernels(path):
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        try:
            return db.execute("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL").fetchone()[0] > 0
        except sqlite3.Error:
            return False


def rename_ranges(path):
    """Gives NVTX ranges non-ASCII names, short and beyond the width cap."""
    with sqlite3.connect(path) as db:
        names = [r[0] for r in db.execute("SELECT DISTINCT text FROM NVTX_EVENTS WHERE text IS NOT NULL ORDER BY 1")]
        check(len(names) >= 3, f"the generated profile has {len(names)} inline NVTX names")
        for i, old in enumerate(names):
            new = ("schritt_µ_%d" % i) if i % 3 == 0 else ("ébène_層_%d_" % i) * (1 if i % 3 == 1 else 20)
            db.execute("UPDATE NVTX_EVENTS SET text = ? WHERE text = ?", (new, old))


with tempfile.TemporaryDirectory() as tmp:
    gen = os.path.join(tmp, "gen.sqlite")
    subprocess.run([GEN, gen, "--gpus", "2", "--streams", "2", "--processes", "2", "--threads", "3",
                    "--iterations", "3", "--kernels", "3000", "--nccl", "--memcpy", "20", "--seed", "12"],
                   check=True)
    wide = os.path.join(tmp, "wide.sqlite")
    shutil.copy(gen, wide)
    rename_ranges(wide)
    # one pass, then big trees' path: a whole tree streamed by two workers
    # taking a root each, the others (and with SL_TREE_TEXT_KEEP_LINES the
    # whole tree too) walked in two halves at once and formatted in chunks of
    # 7 lines by two workers
    for parts, keep in (("", ""), ("1", ""), ("1", "1")):
        os.environ["SL_TREE_TEXT_SMALL_PARTS"] = parts
        os.environ["SL_TREE_TEXT_KEEP_LINES"] = keep
        how = (" (two walks, chunks)" if keep else " (two workers, streamed)") if parts else ""
        for name in sorted(os.listdir(PROFILES)):
            if name.endswith(".sqlite"):
                check_profile(os.path.join(PROFILES, name), name + how)
        check_profile(gen, "generated" + how)
        check_profile(wide, "generated, non-ASCII names" + how)

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("tree's text is its JSON laid out: indentation, names, places, padding, durations, GPU projections")
