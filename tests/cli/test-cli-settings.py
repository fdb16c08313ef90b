#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""sightline-cli honours the Preferences' kernel-names default (and --names
wins over it), checked against the profile's own StringIds.

  test-cli-settings.py SIGHTLINE_CLI SCHEMA_DIR PROFILE
"""
import json
import os
import sqlite3
import subprocess
import sys
import tempfile

CLI, SCHEMA_DIR, PROFILE = sys.argv[1:4]
PASSED = FAILED = 0


def check(cond, what):
    global PASSED, FAILED
    PASSED, FAILED = PASSED + bool(cond), FAILED + (not cond)
    print(('ok - ' if cond else 'FAIL - ') + what, flush=True)


def names(env, *extra):
    out = subprocess.run([CLI, 'kernels', '--json', *extra, PROFILE], env=env, check=True,
                         capture_output=True, text=True).stdout
    return {k['name'] for k in json.loads(out)['kernels']}


def main():
    db = sqlite3.connect(f'file:{PROFILE}?mode=ro&immutable=1', uri=True)
    q = 'SELECT DISTINCT s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.{}'
    short = {r[0] for r in db.execute(q.format('shortName'))}
    demangled = {r[0] for r in db.execute(q.format('demangledName'))}
    with tempfile.TemporaryDirectory(prefix='sightline-settings-') as tmp:
        env = dict(os.environ, GSETTINGS_SCHEMA_DIR=SCHEMA_DIR, GSETTINGS_BACKEND='keyfile',
                   XDG_CONFIG_HOME=tmp, SIGHTLINE_NO_CACHE='1')
        check(names(env) == short, 'the schema\'s default: short names')
        subprocess.run(['gsettings', 'set', 'io.github.sightline.Sightline', 'kernel-names', 'demangled'],
                       env=env, check=True)
        check(os.path.exists(os.path.join(tmp, 'glib-2.0', 'settings', 'keyfile')), 'the setting is stored')
        check(names(env) == demangled, 'kernel-names=demangled: demangled names without --names')
        check(names(env, '--names', 'short') == short, '--names short wins over the setting')
        no_schema = dict(env, GSETTINGS_SCHEMA_DIR=tmp, XDG_DATA_DIRS=tmp)
        check(names(no_schema) == short, 'without the schema: short names, no abort')
    print(f'{PASSED} passed, {FAILED} failed')
    return 1 if FAILED else 0


sys.exit(main())
