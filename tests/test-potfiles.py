#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""po/POTFILES.in lists every source with translatable strings, is sorted,
and names only files that exist."""
import os
import re
import sys

top = sys.argv[1]
listed = [l.strip() for l in open(os.path.join(top, "po", "POTFILES.in")) if l.strip() and not l.startswith("#")]
failures = []
if listed != sorted(listed):
    failures.append("POTFILES.in is not sorted")
for f in listed:
    if not os.path.exists(os.path.join(top, f)):
        failures.append(f"listed but missing: {f}")
marker_c = re.compile(r'(?<![A-Za-z0-9_])(_|N_|ngettext|C_)\s*\(\s*"')
for room in ("analysis", "app", "widgets"):
    for dirpath, _, files in os.walk(os.path.join(top, room)):
        if "/tests" in dirpath:
            continue
        for name in files:
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, top)
            text = open(path, encoding="utf-8", errors="replace").read()
            has = (name.endswith(".c") and marker_c.search(text)) or \
                  (name.endswith(".ui") and 'translatable="yes"' in text)
            if has and rel not in listed:
                failures.append(f"has translatable strings but is not in POTFILES.in: {rel}")
# the desktop file, the AppStream metainfo and the settings schema carry
# strings people read too (software centres, dconf-editor)
for name in sorted(os.listdir(os.path.join(top, "data"))):
    rel = os.path.join("data", name)
    if name.endswith((".desktop.in", ".metainfo.xml.in", ".gschema.xml")) and rel not in listed:
        failures.append(f"has translatable strings but is not in POTFILES.in: {rel}")
for f in failures:
    print("FAIL:", f)
print(f"{0 if failures else 1} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
