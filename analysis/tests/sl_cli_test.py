# SPDX-License-Identifier: GPL-3.0-or-later
"""What the CLI test scripts share: a failure list, running sightline-cli, reading its JSON.

A script sets `sl_cli_test.CLI` to the sightline-cli path (its first argument), calls
check/run/run_json, and ends with `sys.exit(sl_cli_test.finish())`."""
import json
import subprocess
import unicodedata

CLI = None
failures = []


def check(cond, what):
    """Records @what as a failure when @cond is false; returns @cond."""
    if not cond:
        failures.append(what)
        print("FAIL:", what)
    return cond


def run(*args):
    """sightline-cli with @args; a crash (killed by a signal) is a failure."""
    p = subprocess.run([CLI, *args], capture_output=True, text=True)
    check(p.returncode >= 0, f"{args}: killed by signal {-p.returncode}: {p.stderr[-400:]}")
    return p


def run_json(*args):
    """The JSON sightline-cli prints for @args, or None (a failure) when it exits non-zero."""
    p = run(*args)
    if not check(p.returncode == 0, f"{args}: exit {p.returncode}: {p.stderr.strip()}"):
        return None
    try:
        return json.loads(p.stdout)
    except ValueError as e:
        check(False, f"{args}: not JSON ({e}): {p.stdout[:200]}")
        return None


def text_columns(text):
    """Terminal columns of @text by Python's own Unicode tables: East Asian wide and fullwidth
    characters take two, combining marks and format characters none, the rest one."""
    width = 0
    for c in text:
        if unicodedata.combining(c) or unicodedata.category(c) in ("Mn", "Me", "Cf"):
            continue
        width += 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1
    return width


def finish():
    """The exit status: 1 when anything failed."""
    print(f"{len(failures)} failures")
    return 1 if failures else 0
