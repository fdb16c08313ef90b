#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The Flatpak manifests cannot be built here (no runtime download), so
check what can be: each parses, every module and local source it names
exists in the tree, its runtime provides GTK >= 4.8, its command is a
program the build installs, and it asks for no broad file access.

  test-flatpak.py SOURCE_ROOT
"""
import json
import os
import re
import sys

top = sys.argv[1]
# GTK 4 in each GNOME runtime (from the GNOME release notes): 43 is the
# first with 4.8, the version Sightline is written against.
GNOME_RUNTIME_GTK = {
    '42': (4, 6), '43': (4, 8), '44': (4, 10), '45': (4, 12), '46': (4, 14),
    '47': (4, 16), '48': (4, 18), '49': (4, 20), 'master': (4, 99),
}
MANIFESTS = ['io.github.sightline.Sightline.json', 'io.github.sightline.Sightline.Devel.json']
PASSED = FAILED = 0


def check(cond, what):
    global PASSED, FAILED
    PASSED, FAILED = PASSED + bool(cond), FAILED + (not cond)
    print(('ok - ' if cond else 'FAIL - ') + what, flush=True)


def installed_programs():
    """Names of executable() targets with install: true in the meson files."""
    names = set()
    for dirpath, _, files in os.walk(os.path.join(top, 'app')):
        if 'meson.build' in files:
            text = open(os.path.join(dirpath, 'meson.build'), encoding='utf-8').read()
            for m in re.finditer(r"executable\(\s*'([^']+)'(.*?)\n\)", text, re.S):
                if re.search(r'install\s*:\s*true', m.group(2)):
                    names.add(m.group(1))
    return names


def check_module(module, base, name):
    if isinstance(module, str):   # a module in a file of its own
        path = os.path.join(base, module)
        check(os.path.isfile(path), f'{name}: module file {module} exists')
        if os.path.isfile(path):
            check_module(json.load(open(path)), os.path.dirname(path), name)
        return
    for source in module.get('sources', []):
        if isinstance(source, str) or source.get('type') in ('dir', 'file', 'patch', 'script') and 'path' in source:
            path = os.path.join(base, source if isinstance(source, str) else source['path'])
            check(os.path.exists(path), f'{name}: source {os.path.relpath(path, top)} of {module["name"]} exists')
        else:
            check('url' in source, f'{name}: remote source of {module["name"]} has a url')
    if module.get('buildsystem') == 'meson':
        check(any(os.path.isfile(os.path.join(base, s['path'], 'meson.build'))
                  for s in module.get('sources', []) if isinstance(s, dict) and s.get('type') == 'dir'),
              f'{name}: the meson module {module["name"]} builds a tree with a meson.build')
    for sub in module.get('modules', []):
        check_module(sub, base, name)


def main():
    programs = installed_programs()
    for name in MANIFESTS:
        path = os.path.join(top, 'flatpak', name)
        try:
            manifest = json.load(open(path, encoding='utf-8'))
        except (OSError, ValueError) as e:
            check(False, f'{name} parses: {e}')
            continue
        check(manifest.get('id') + '.json' == name, f'{name}: id matches the file name')
        check(manifest.get('runtime') == 'org.gnome.Platform' and manifest.get('sdk') == 'org.gnome.Sdk',
              f'{name}: GNOME runtime and SDK')
        gtk = GNOME_RUNTIME_GTK.get(str(manifest.get('runtime-version')))
        check(gtk is not None and gtk >= (4, 8),
              f'{name}: runtime {manifest.get("runtime-version")} provides GTK >= 4.8 ({gtk})')
        check(manifest.get('command') in programs, f'{name}: command {manifest.get("command")} is installed by meson')
        broad = [a for a in manifest.get('finish-args', [])
                 if re.match(r'--filesystem=(host|home|host-os|host-etc)\b', a)]
        check(not broad, f'{name}: no broad file access (the file chooser portal opens files): {broad}')
        modules = manifest.get('modules', [])
        check(len(modules) > 0, f'{name}: has modules')
        for module in modules:
            check_module(module, os.path.dirname(path), name)
    print(f'{PASSED} passed, {FAILED} failed')
    return 1 if FAILED else 0


sys.exit(main())
