#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Bookmarks from the CLI (issue 13, parts 3 and 5), with XDG_DATA_HOME in a temporary folder.

  - identity: a bookmark added on a copy of a real profile is listed for another copy at another
    path; a copy changed by SQLite (one more table) has none;
  - "+TIME" of `bookmarks add --range` is from the start of all of the profile's events, as SQL
    finds it (the minimum start over the activity tables);
  - `--bookmark NAME` prints byte for byte what `--range START END` prints, for several commands on
    every real profile with GPU work, and for compare;
  - unknown and ambiguous names, --range with --bookmark: usage errors listing the bookmarks;
  - a corrupt file is kept aside and reported, not overwritten by the next add;
  - atomic write: with the bookmarks folder read-only, add fails with a clear message, the old file
    is intact and no temporary file is left."""
import glob
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import sl_cli_test
from sl_cli_test import check, run, run_json

CLI, PROFILES = sys.argv[1], sys.argv[2]
sl_cli_test.CLI = CLI
TMP = tempfile.mkdtemp(prefix="sl-bookmarks-")
os.environ["HOME"] = TMP
os.environ["XDG_DATA_HOME"] = os.path.join(TMP, "data")
os.environ["XDG_CACHE_HOME"] = os.path.join(TMP, "cache")
FOLDER = os.path.join(TMP, "data", "sightline", "bookmarks")
TABLES = ["CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET",
          "CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_DRIVER", "NVTX_EVENTS",
          "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"]


def sql_start(path):
    """The earliest start over the activity tables, by SQL."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    have = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    starts = [db.execute(f"SELECT MIN(start) FROM {t}").fetchone()[0] for t in TABLES if t in have]
    return min(s for s in starts if s is not None)


def has_kernels(path):
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    have = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    return "CUPTI_ACTIVITY_KIND_KERNEL" in have


def copy(src, name):
    dst = os.path.join(TMP, name)
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    shutil.copyfile(src, dst)
    os.chmod(dst, 0o644)
    return dst


def listed(path):
    out = run_json("bookmarks", path, "--json")
    return [b["name"] for b in out["bookmarks"]] if out else None


def test_identity(src):
    a = copy(src, "a.sqlite")
    added = run_json("bookmarks", "add", a, "--name", "step 412", "--range", "+0.1s", "+0.2s",
                     "--note", "slow\nall-reduce", "--json")
    if not check(added is not None, "add on the copy"):
        return
    start = sql_start(a)
    check(added["start_ns"] == start + 100_000_000 and added["end_ns"] == start + 200_000_000,
          f"+0.1s +0.2s from the SQL start {start}: {added}")
    check(added["start_rel_ns"] == 100_000_000, f"relative start: {added}")
    moved = copy(a, "elsewhere/renamed.sqlite")
    check(listed(moved) == ["step 412"], f"a moved copy keeps its bookmarks: {listed(moved)}")
    changed = copy(a, "changed.sqlite")
    db = sqlite3.connect(changed)
    db.execute("CREATE TABLE sl_changed (x)")
    db.commit()
    db.close()
    check(listed(changed) == [], f"a changed copy has none: {listed(changed)}")
    os.remove(a)
    check(listed(moved) == ["step 412"], "still there once the first copy is gone")


COMMANDS = [["kernels"], ["api"], ["nvtx"], ["memcpy"], ["gaps"], ["tree"], ["launch"], ["overlap"]]


def test_same_as_range(path):
    """--bookmark output == --range output, text and JSON."""
    added = run_json("bookmarks", "add", path, "--name", "window", "--range", "+0.05s", "+0.4s", "--json")
    if not check(added is not None, f"add on {path}"):
        return
    rng = [str(added["start_ns"]), str(added["end_ns"])]
    for cmd in COMMANDS:
        for extra in ([], ["--json"]):
            by_range = run(*cmd, path, "--range", *rng, *extra)
            by_mark = run(*cmd, path, "--bookmark", "window", *extra)
            check(by_range.returncode == by_mark.returncode and by_range.stdout == by_mark.stdout,
                  f"{cmd} {extra} on {os.path.basename(path)}: --bookmark differs from --range "
                  f"({by_mark.returncode}: {by_mark.stderr.strip()[:200]})")
            check(by_range.stdout.strip() != "", f"{cmd} printed something")
    other = copy(path, "compare-other.sqlite")
    by_range = run("compare", path, other, "--range", *rng, "--json")
    by_mark = run("compare", path, other, "--bookmark", "window", "--json")
    check(by_range.returncode == 0 and by_range.stdout == by_mark.stdout, "compare --bookmark == --range")


def test_usage(path):
    run_json("bookmarks", "add", path, "--name", "stall A", "--range", "+0s", "+0.01s", "--json")
    run_json("bookmarks", "add", path, "--name", "stall B", "--range", "+0.02s", "+0.03s", "--json")
    p = run("kernels", path, "--bookmark", "nothing like it")
    check(p.returncode == 1 and "stall A" in p.stderr and "stall B" in p.stderr,
          f"unknown name: exit {p.returncode}, {p.stderr.strip()}")
    p = run("kernels", path, "--bookmark", "stall")
    check(p.returncode == 1 and "stall A" in p.stderr, f"ambiguous name: exit {p.returncode}, {p.stderr}")
    p = run("kernels", path, "--bookmark", "STALL a")
    check(p.returncode == 0, f"a name in another case: exit {p.returncode}, {p.stderr}")
    p = run("kernels", path, "--bookmark", "stall A", "--range", "1", "2")
    check(p.returncode == 1 and "--bookmark" in p.stderr, f"--range with --bookmark: {p.returncode}")
    p = run("bookmarks", "remove", path, "--name", "stall B")
    check(p.returncode == 0 and "stall B" not in listed(path), f"remove: {p.returncode} {p.stderr}")


def bookmark_file(path):
    ident = run_json("bookmarks", path, "--json")["profile"]["content_id"]
    return os.path.join(FOLDER, ident + ".json")


def test_corrupt(path):
    file = bookmark_file(path)
    garbage = b'{"format": "sightline-bookmarks", "version": 1, "bookm'
    with open(file, "wb") as f:
        f.write(garbage)
    p = run("bookmarks", path)
    check(p.returncode == 0 and ".corrupt-" in p.stderr, f"corrupt file reported: {p.stderr}")
    kept = glob.glob(file + ".corrupt-*")
    check(len(kept) == 1 and open(kept[0], "rb").read() == garbage, f"kept aside: {kept}")
    future = b'{"format": "sightline-bookmarks", "version": 2, "bookmarks": []}'
    with open(file, "wb") as f:
        f.write(future)
    p = run("bookmarks", "add", path, "--name", "after", "--range", "+0s", "+1ms")
    check(p.returncode == 0 and "version 2" in p.stderr, f"future version reported: {p.stderr}")
    kept = glob.glob(file + ".corrupt-*")
    check(len(kept) == 2 and {open(k, "rb").read() for k in kept} == {garbage, future},
          f"both kept, untouched by the add: {kept}")
    check(listed(path) == ["after"], "the add wrote a new file")


def as_nobody():
    os.setgid(65534)
    os.setuid(65534)


def test_read_only_folder(path):
    file = bookmark_file(path)
    before = open(file, "rb").read()
    if os.geteuid() == 0:
        # root writes anywhere: the CLI runs as nobody, owning the folder it may not write
        for root, dirs, files in os.walk(TMP):
            for n in dirs + files:
                os.chown(os.path.join(root, n), 65534, 65534)
        os.chown(TMP, 65534, 65534)
    os.chmod(FOLDER, 0o500)
    p = subprocess.run([CLI, "bookmarks", "add", path, "--name", "denied", "--range", "+0s", "+1ms",
                        "--no-cache"], capture_output=True, text=True,
                       preexec_fn=as_nobody if os.geteuid() == 0 else None)
    os.chmod(FOLDER, 0o700)
    check(p.returncode == 2 and "could not save" in p.stderr, f"read-only: exit {p.returncode} {p.stderr}")
    check(open(file, "rb").read() == before, "the old file is intact")
    left = [n for n in os.listdir(FOLDER) if not n.endswith(".json") and ".corrupt-" not in n]
    check(left == [], f"no temporary file left: {left}")


def main():
    real = sorted(p for p in glob.glob(os.path.join(PROFILES, "*.sqlite")) if has_kernels(p))
    test_identity(os.path.join(PROFILES, "nsysai-h100-2gpu-1s.sqlite"))
    for p in real:
        test_same_as_range(p)
    usage = copy(real[0], "usage.sqlite")
    test_usage(usage)
    test_corrupt(usage)
    test_read_only_folder(usage)
    shutil.rmtree(TMP, ignore_errors=True)
    return sl_cli_test.finish()


sys.exit(main())
