#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The rooms of the source tree and what each may include (README,
"Architecture"), and no concepts that include each other, directly or
through others.

  test-rooms.py SOURCE_ROOT

A concept is a header and its sources: sl-x.h, sl-x-private.h, sl-x.c.
Data flows one way, file -> loader -> model -> analyses -> session ->
views/exports; a room may include its own headers and those of the rooms
before it, never after.
"""
import os
import re
import sys

ROOT = sys.argv[1]
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)

# room -> rooms whose headers it may include (besides its own)
ALLOWED = {
    'analysis/model': set(),
    'analysis/loader': {'analysis/model'},
    'analysis/analyses': {'analysis/model'},
    'analysis/export': {'analysis/model', 'analysis/analyses'},
    'analysis': {'analysis/model', 'analysis/loader', 'analysis/analyses', 'analysis/export'},
    'widgets': {'analysis', 'analysis/model', 'analysis/loader', 'analysis/analyses', 'analysis/export'},
    'app/cli': {'analysis', 'analysis/model', 'analysis/loader', 'analysis/analyses', 'analysis/export'},
    'app/gui': {'analysis', 'analysis/model', 'analysis/loader', 'analysis/analyses', 'analysis/export',
                'widgets'},
}
# system headers a room must not use: the library never sees GTK
FORBIDDEN_SYSTEM = {
    'analysis': ('gtk/', 'gdk/', 'cairo'),
    'app/cli': ('gtk/', 'gdk/', 'cairo'),
}


def room_of(rel):
    parts = rel.split('/')
    if parts[0] == 'analysis':
        return 'analysis/' + parts[1] if len(parts) > 2 and parts[1] in ('model', 'loader', 'analyses', 'export') \
            else 'analysis'
    if parts[0] == 'app':
        return 'app/gui' if parts[1] == 'gui' else 'app/cli'
    return parts[0]


def concept_of(name):
    base = os.path.splitext(os.path.basename(name))[0]
    return base[:-len('-private')] if base.endswith('-private') else base


def cycles(edges):
    """Every group of concepts that reach each other through includes
    (strongly connected components of more than one concept)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def sources():
    for top in ('analysis', 'widgets', 'app'):
        for dirpath, dirs, files in os.walk(os.path.join(ROOT, top)):
            dirs[:] = [d for d in dirs if d != 'tests']
            for name in files:
                if name.endswith(('.c', '.h')):
                    path = os.path.join(dirpath, name)
                    yield os.path.relpath(path, ROOT), open(path, encoding='utf-8').read()


def main():
    files = dict(sources())
    header_room = {os.path.basename(rel): room_of(rel) for rel in files if rel.endswith('.h')}
    failures = []
    edges = {}
    for rel, text in files.items():
        room = room_of(rel)
        for kind, name in INCLUDE.findall(text):
            if kind == '<':
                if any(name.startswith(bad) for bad in FORBIDDEN_SYSTEM.get(room, ())):
                    failures.append(f'{rel}: {room}/ must not include <{name}>')
                continue
            target = header_room.get(os.path.basename(name))
            if target is None:
                continue   # generated (resources) or a test header
            if target != room and target not in ALLOWED.get(room, set()):
                failures.append(f'{rel}: {room}/ may not include {name} (from {target}/)')
            a, b = concept_of(rel), concept_of(name)
            if a != b:
                edges.setdefault(a, set()).add(b)
    failures += [f"concepts that include each other: {', '.join(group)}" for group in cycles(edges)]
    for f in failures:
        print('FAIL:', f)
    print(f'{len(files)} files checked, {len(failures)} failures')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
