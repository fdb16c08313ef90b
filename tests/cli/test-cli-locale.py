#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""sightline-cli reads the same under de_DE.UTF-8 as under C: --json byte
for byte (machine output never follows the locale), and the text tables
too (the CLI keeps C numbers so scripts can parse them; only the GUI
localizes).  Usage: test-cli-locale.py CLI SL_GEN WITH_DE_LOCALE"""
import os
import subprocess
import sys
import tempfile

CLI, GEN, WITH_DE = sys.argv[1:4]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def run(args, german):
    env = dict(os.environ)
    env.pop("LANGUAGE", None)
    env["LC_MESSAGES"] = "C"      # the German catalogue, if installed, is not the point here
    if german:
        cmd = [WITH_DE, CLI, *args]
    else:
        env["LC_ALL"] = "C"
        cmd = [CLI, *args]
    return subprocess.run(cmd, capture_output=True, env=env)


# the wrapper skips (77) where the locale cannot be built
probe = subprocess.run([WITH_DE, "true"])
if probe.returncode == 77:
    sys.exit(77)

tmp = tempfile.mkdtemp(prefix="sl-cli-locale-")
prof = os.path.join(tmp, "p.sqlite")
subprocess.run([GEN, prof, "--gpus", "2", "--threads", "2", "--nccl", "--memcpy", "200",
                "--kernels", "1500", "--seed", "16"], check=True, capture_output=True)

COMMANDS = [["info"], ["kernels"], ["api"], ["nvtx"], ["memcpy"], ["gaps"], ["overlap"], ["nccl"],
            ["iterations"], ["launch"], ["categories"], ["tree"], ["summarize"]]
compared = 0
for cmd in COMMANDS:
    for json_out in (True, False):
        if json_out and cmd == ["summarize"]:
            continue
        args = [*cmd, *(["--json"] if json_out else []), prof]
        c, de = run(args, False), run(args, True)
        if c.returncode != 0:
            continue
        compared += 1
        label = " ".join(args[:-1])
        check(de.returncode == 0, f"{label}: exit {de.returncode} under de_DE: {de.stderr[:200]}")
        check(c.stdout == de.stdout, f"{label}: output differs under de_DE.UTF-8")
        check(len(c.stdout) > 0, f"{label}: no output")

# a text table with decimals: proof that the comparison above means something
check(any(ch.isdigit() for ch in run(["kernels", prof], False).stdout.decode()), "kernels: no numbers")
check(compared >= 20, f"only {compared} outputs compared")
print(f"{compared} outputs compared")
sys.exit(1 if failures else 0)
