#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Each sightline-cli command reads only the tables it needs (issue 10, item 1), and answers
exactly as if it had read them all.

For every command and a set of option variants, on the real profiles and on generated ones
(CUDA graphs, a capture cut so that kernels lack their launching call, start/end ranges,
copies), the output with the command's own parts equals the output with SL_CLI_LOAD_ALL=1.
The loader's debug log names the tables read: `kernels` reads the kernel table alone,
`memcpy` the copy tables alone.

Usage: test-cli-parts.py SIGHTLINE-CLI PROFILES-DIR SIGHTLINE-GEN"""
import glob
import os
import re
import sqlite3
import subprocess
import sys
import tempfile

import sl_cli_test
from sl_cli_test import check

CLI, PROFILES, GEN = sys.argv[1:4]
sl_cli_test.CLI = CLI

VARIANTS = [
    ["info", "--json"], ["kernels", "--json"], ["kernels", "--gpu", "0"], ["kernels", "--names", "demangled"],
    ["api", "--json"], ["api", "--gpu", "0", "--json"], ["nvtx", "--json"], ["memcpy", "--json"],
    ["gaps", "--json"], ["overlap", "--json"], ["nccl", "--json"], ["iterations", "--json"],
    ["launch", "--json"], ["categories", "--json"], ["tree", "--json"], ["tree", "--depth", "3"],
    ["search", "--json", "--limit", "0", "a"], ["kernels", "--json", "--nvtx", "*"],
    ["kernels", "--json", "--range", "+0ms", "+50ms"], ["gaps", "--json", "--category", "gemm"],
    ["launch", "--json", "--stream", "7"], ["nvtx", "--json", "--exclude-nvtx", "forward*"],
]


def run(args, env_extra):
    env = dict(os.environ, **env_extra)
    p = subprocess.run([CLI, *args], capture_output=True, text=True, env=env)
    check(p.returncode >= 0, f"{args}: killed by signal {-p.returncode}")
    return p.returncode, p.stdout, p.stderr


def compare_all(profile):
    """Every variant: the command's parts give the same answer as all parts."""
    name = os.path.basename(profile)
    for variant in VARIANTS:
        cmd, rest = variant[0], variant[1:]
        args = [cmd, *rest, profile]
        if cmd == "search":
            args = [cmd, *rest[:-1], rest[-1], profile]
        got = run(args, {})
        want = run(args, {"SL_CLI_LOAD_ALL": "1"})
        check(got == want, f"{name}: {' '.join(variant)}: own parts {got[0]} {got[1][:120]!r} {got[2][:200]!r}, "
                           f"all parts {want[0]} {want[1][:120]!r} {want[2][:200]!r}")
    got = run(["compare", "--json", profile, profile], {})
    want = run(["compare", "--json", profile, profile], {"SL_CLI_LOAD_ALL": "1"})
    check(got == want, f"{name}: compare differs with all parts")


def tables_read(args):
    """The tables the loader read for @args, from its debug log."""
    _, _, err = run(args, {"G_MESSAGES_DEBUG": "sightline-loader"})
    return sorted(set(re.findall(r"reading (\w+):", err)))


def generated(tmp):
    """Generated profiles with what real ones rarely have."""
    out = []
    for name, extra in [("graphs", ["--cuda-graph", "5x10", "--memcpy", "40", "--memset", "8"]),
                        ("async", ["--async-ranges", "3", "--nccl", "--processes", "2"]),
                        ("copies", ["--copy-ns", "200000", "--memcpy", "100", "--gpus", "2"])]:
        path = os.path.join(tmp, name + ".sqlite")
        subprocess.run([GEN, path, "--kernels", "3000", *extra], check=True, capture_output=True)
        out.append(path)
    # A capture cut in time: the first third of the API calls are gone, so their kernels
    # have no launching call.
    cut = os.path.join(tmp, "cut.sqlite")
    subprocess.run([GEN, cut, "--kernels", "3000"], check=True, capture_output=True)
    db = sqlite3.connect(cut)
    db.execute("DELETE FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE rowid % 3 = 0")
    db.commit()
    db.close()
    out.append(cut)
    return out


def main():
    with tempfile.TemporaryDirectory() as tmp:
        profiles = sorted(glob.glob(os.path.join(PROFILES, "*.sqlite"))) + generated(tmp)
        for profile in profiles:
            compare_all(profile)
        sample = profiles[-1]
        check(tables_read(["kernels", sample]) == ["CUPTI_ACTIVITY_KIND_KERNEL"],
              f"kernels read {tables_read(['kernels', sample])}")
        check(tables_read(["memcpy", sample]) == ["CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET"],
              f"memcpy read {tables_read(['memcpy', sample])}")
        check(tables_read(["overlap", sample]) == ["CUPTI_ACTIVITY_KIND_KERNEL"],
              f"overlap read {tables_read(['overlap', sample])}")
        check("NVTX_EVENTS" in tables_read(["tree", sample]), "tree did not read NVTX_EVENTS")
    sys.exit(sl_cli_test.finish())


main()
