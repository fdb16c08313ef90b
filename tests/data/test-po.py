#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Every translation in po/LINGUAS compiles with msgfmt --check (headers,
format directives that match the English); the languages named after
--complete must also have no untranslated and no fuzzy string.

  test-po.py SOURCE_ROOT [--complete LANG...]
"""
import os
import re
import shutil
import subprocess
import sys

top = sys.argv[1]
complete = set(sys.argv[3:]) if sys.argv[2:3] == ['--complete'] else set()
if shutil.which('msgfmt') is None:
    print('# skip: msgfmt is not installed')
    sys.exit(77)
linguas = open(os.path.join(top, 'po', 'LINGUAS')).read().split()
failures = []
for lang in linguas:
    po = os.path.join(top, 'po', lang + '.po')
    if not os.path.exists(po):
        failures.append(f'{lang} is in LINGUAS but po/{lang}.po is missing')
        continue
    run = subprocess.run(['msgfmt', '--check', '--statistics', '-o', os.devnull, po],
                         capture_output=True, text=True, env=dict(os.environ, LC_ALL='C'))
    stats = run.stderr.strip().splitlines()[-1] if run.stderr.strip() else ''
    print(f'# {lang}: {stats}')
    if run.returncode != 0:
        failures.append(f'msgfmt --check fails on po/{lang}.po:\n{run.stderr}')
    missing = sum(int(n) for n in re.findall(r'(\d+) (?:untranslated|fuzzy)', stats))
    if lang in complete and missing:
        failures.append(f'po/{lang}.po is not complete: {stats}')
for lang in complete - set(linguas):
    failures.append(f'{lang} must be complete but is not in po/LINGUAS')
for f in failures:
    print('FAIL:', f)
print(f'{0 if failures else 1} passed, {len(failures)} failed')
sys.exit(1 if failures else 0)
