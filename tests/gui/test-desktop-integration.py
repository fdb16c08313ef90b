#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Double-click integration: install into a temporary prefix and check that
both profile types resolve to Sightline.

  test-desktop-integration.py BUILD_DIR
"""
import os
import shutil
import subprocess
import sys
import tempfile

BUILD = sys.argv[1]
APP_ID = 'io.github.sightline.Sightline'
PASSED = FAILED = 0


def check(cond, what):
    global PASSED, FAILED
    PASSED, FAILED = PASSED + bool(cond), FAILED + (not cond)
    print(('ok - ' if cond else 'FAIL - ') + what, flush=True)


def main():
    for tool in ('meson', 'gio', 'update-mime-database', 'update-desktop-database'):
        if shutil.which(tool) is None:
            print(f'# skip: {tool} is not installed')
            return 77
    with tempfile.TemporaryDirectory(prefix='sightline-install-') as tmp:
        dest = os.path.join(tmp, 'root')
        subprocess.run(['meson', 'install', '-C', BUILD, '--destdir', dest, '--no-rebuild', '--quiet'],
                       check=True, stdout=subprocess.DEVNULL)
        share = None
        for root, dirs, files in os.walk(dest):
            if APP_ID + '.desktop' in files and os.path.basename(root) == 'applications':
                share = os.path.dirname(root)
        if not share:
            check(False, 'the desktop file is installed')
            return 1
        check(os.path.exists(os.path.join(share, 'mime', 'packages', APP_ID + '.mime.xml')),
              'the MIME definition is installed')
        check(os.path.exists(os.path.join(share, 'icons', 'hicolor', 'scalable', 'apps', APP_ID + '.svg')),
              'the icon is installed')
        check(os.path.exists(os.path.join(share, 'metainfo', APP_ID + '.metainfo.xml')),
              'the AppStream metainfo is installed')
        subprocess.run(['update-mime-database', os.path.join(share, 'mime')], check=True)
        subprocess.run(['update-desktop-database', os.path.join(share, 'applications')], check=True)

        empty = os.path.join(tmp, 'empty')
        os.makedirs(empty)
        # GIO ignores a launcher whose Exec is not on PATH
        bindir = os.path.join(os.path.dirname(share), 'bin')
        env = dict(os.environ, PATH=bindir + ':' + os.environ.get('PATH', ''),
                   XDG_DATA_DIRS=share + ':/usr/share', XDG_DATA_HOME=empty,
                   XDG_CONFIG_HOME=empty, XDG_CONFIG_DIRS=empty, GIO_USE_VFS='local')

        for mime in ('application/x-nsys-rep', 'application/vnd.sqlite3'):
            out = subprocess.run(['gio', 'mime', mime], env=env, capture_output=True, text=True).stdout
            first = out.splitlines()[0] if out else ''
            check(APP_ID + '.desktop' in first, f'{mime} opens with Sightline: {first.strip()}')

        rep = os.path.join(tmp, 'run.nsys-rep')
        with open(rep, 'wb') as f:
            f.write(b'\x00NSYS report' + bytes(200))
        db = os.path.join(tmp, 'run.sqlite')
        with open(db, 'wb') as f:
            f.write(b'SQLite format 3\x00' + bytes(4080))
        for path, mime in ((rep, 'application/x-nsys-rep'), (db, 'application/vnd.sqlite3')):
            out = subprocess.run(['gio', 'info', '-a', 'standard::content-type', path], env=env,
                                 capture_output=True, text=True).stdout
            check(f'standard::content-type: {mime}' in out, f'{os.path.basename(path)} is {mime}')
    print(f'{PASSED} passed, {FAILED} failed')
    return 1 if FAILED else 0


if __name__ == '__main__':
    sys.exit(main())
