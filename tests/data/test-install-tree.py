#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`meson install --destdir` gives a complete tree: every file a desktop
needs is there, and each validates as installed (desktop file, AppStream,
schema, man pages, the completion knows every command of the installed CLI).

  test-install-tree.py BUILD_DIR GUI(true|false)
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

BUILD, GUI = sys.argv[1], sys.argv[2] == 'true'
APP_ID = 'io.github.sightline.Sightline'
PASSED = FAILED = 0


def check(cond, what):
    global PASSED, FAILED
    PASSED, FAILED = PASSED + bool(cond), FAILED + (not cond)
    print(('ok - ' if cond else 'FAIL - ') + what, flush=True)


def expected():
    files = ['bin/sightline-cli', 'share/man/man1/sightline-cli.1', 'share/sightline/categories.json',
             f'share/glib-2.0/schemas/{APP_ID}.gschema.xml', 'share/locale/de/LC_MESSAGES/sightline.mo']
    if GUI:
        files += ['bin/sightline', 'share/man/man1/sightline.1',
                  f'share/applications/{APP_ID}.desktop', f'share/metainfo/{APP_ID}.metainfo.xml',
                  f'share/mime/packages/{APP_ID}.mime.xml',
                  f'share/icons/hicolor/scalable/apps/{APP_ID}.svg',
                  f'share/icons/hicolor/symbolic/apps/{APP_ID}-symbolic.svg']
    return files


def find_prefix(dest):
    for root, _, files in os.walk(dest):
        if 'sightline-cli' in files and os.path.basename(root) == 'bin':
            return os.path.dirname(root)
    return None


def validate(prefix):
    share = os.path.join(prefix, 'share')
    tools = [(['glib-compile-schemas', '--strict', '--dry-run', os.path.join(share, 'glib-2.0', 'schemas')],
              'the installed schema compiles with --strict')]
    if GUI:
        tools += [(['desktop-file-validate', os.path.join(share, 'applications', APP_ID + '.desktop')],
                   'the installed desktop file validates'),
                  (['appstreamcli', 'validate', '--no-net', '--pedantic', os.path.join(share, 'metainfo', APP_ID + '.metainfo.xml')],
                   'the installed metainfo validates')]
    for man in ('sightline', 'sightline-cli') if GUI else ('sightline-cli',):
        tools.append((['groff', '-man', '-ww', '-z', os.path.join(share, 'man', 'man1', man + '.1')],
                      f'{man}(1) formats without warnings'))
    for cmd, what in tools:
        if shutil.which(cmd[0]) is None:
            print(f'# skip: {cmd[0]} is not installed')
            continue
        run = subprocess.run(cmd, capture_output=True, text=True)
        check(run.returncode == 0 and not run.stderr.strip(), what + (f': {run.stdout}{run.stderr}' if run.returncode or run.stderr.strip() else ''))


def completes(prefix, words):
    """What bash completion offers after WORDS (the last one being completed)."""
    script = os.path.join(prefix, 'share', 'bash-completion', 'completions', 'sightline-cli')
    cli = os.path.join(prefix, 'bin', 'sightline-cli')
    words = [cli] + words
    line = ' '.join(f"'{w}'" for w in words)
    prog = (f'source {script}; COMP_WORDS=({line}); COMP_CWORD={len(words) - 1}; '
            '_sightline_cli; printf "%s\\n" "${COMPREPLY[@]}"')
    return subprocess.run(['bash', '-c', prog], capture_output=True, text=True).stdout.split()


def check_completion(prefix):
    cli = os.path.join(prefix, 'bin', 'sightline-cli')
    help_text = subprocess.run([cli, '--help'], capture_output=True, text=True,
                               env=dict(os.environ, LANGUAGE='C')).stdout
    commands = re.findall(r'^  ([a-z][a-z-]*)  ', help_text, re.M)
    check(len(commands) >= 10, f'sightline-cli --help lists its commands ({len(commands)})')
    check(set(completes(prefix, [''])) >= set(commands), 'completion offers every command')
    man = open(os.path.join(prefix, 'share', 'man', 'man1', 'sightline-cli.1'), encoding='utf-8').read()
    check(all(f'.B {c}\n' in man for c in commands), 'the man page has a section for every command')
    check('--names' in completes(prefix, ['kernels', '--n']), 'completion offers kernels --names')
    check(completes(prefix, ['kernels', '--names', '']) == ['short', 'demangled'], 'completion offers --names values')


def main():
    if shutil.which('meson') is None:
        print('# skip: meson is not installed')
        return 77
    with tempfile.TemporaryDirectory(prefix='sightline-tree-') as dest:
        subprocess.run(['meson', 'install', '-C', BUILD, '--destdir', dest, '--no-rebuild', '--quiet'],
                       check=True, stdout=subprocess.DEVNULL)
        prefix = find_prefix(dest)
        if prefix is None:
            check(False, 'sightline-cli is installed in a bin folder')
            return 1
        for rel in expected():
            check(os.path.isfile(os.path.join(prefix, rel)), f'installed: {rel}')
        completion = os.path.join(prefix, 'share', 'bash-completion', 'completions', 'sightline-cli')
        check(os.path.isfile(completion), 'installed: the bash completion')
        validate(prefix)
        if os.path.isfile(completion):
            check_completion(prefix)
    print(f'{PASSED} passed, {FAILED} failed')
    return 1 if FAILED else 0


sys.exit(main())
