#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The profile cache end to end through sightline-cli (issue 10, item 5).

  test-cli-cache.py SIGHTLINE_CLI PROFILES_DIR SIGHTLINE_GEN SAMPLE_SQLITE

For the real profiles, the sample profile and a generated one with what
real ones rarely have (durations over 4.29 s, start/end ranges, marks,
kernels without their launching call, skipped rows): every command's --json
output is byte-identical between a load from the export (--no-cache), the
run that writes the entry and runs that read it.  Which of these a run was
is read from the loader's SL_LOADER_TIMING lines, never from timing.  Also:
--no-cache and SIGHTLINE_NO_CACHE=1 write nothing, damaged entries are
rebuilt with the same answers, an entry with every part replaces one with
fewer, the least recently used entries go first, and nothing is written
beside a profile."""
import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

CLI, PROFILES, GEN, SAMPLE = sys.argv[1:5]
failures = []
TMP = tempfile.mkdtemp(prefix='sl-cli-cache-')
CACHE_HOME = os.path.join(TMP, 'cache')
ENTRIES = os.path.join(CACHE_HOME, 'sightline', 'profiles')

ENV = dict(os.environ, XDG_CACHE_HOME=CACHE_HOME, SL_LOADER_TIMING='1')
ENV.pop('SIGHTLINE_NO_CACHE', None)
ENV.pop('SIGHTLINE_CACHE_SIZE', None)

COMMANDS = [['info'], ['kernels'], ['api'], ['nvtx'], ['memcpy'], ['gaps'], ['overlap'], ['nccl'],
            ['iterations'], ['launch'], ['categories'], ['tree'], ['search', 'a']]


def check(cond, what):
    if not cond:
        failures.append(what)
        print('FAIL:', what)


def run(args, **env):
    p = subprocess.run([CLI, *args], capture_output=True, text=True, env=dict(ENV, **env))
    check(p.returncode >= 0, f'{args}: killed by signal {-p.returncode}: {p.stderr[-400:]}')
    events = [line.split()[2].rstrip(':') for line in p.stderr.splitlines()
              if line.startswith('sl-loader: cache ')]
    return p, events


def entries():
    return sorted(os.listdir(ENTRIES)) if os.path.isdir(ENTRIES) else []


def clear_entries():
    for name in entries():
        os.unlink(os.path.join(ENTRIES, name))


def folder_state(folder, prefix=''):
    """Names and SHA-256 of what is in @folder (whose name starts with @prefix)."""
    state = {}
    for name in sorted(os.listdir(folder)):
        if name.startswith(prefix):
            with open(os.path.join(folder, name), 'rb') as f:
                state[name] = hashlib.sha256(f.read()).hexdigest()
    return state


def hostile_profile():
    folder = os.path.join(TMP, 'gen')
    os.mkdir(folder)
    path = os.path.join(folder, 'hostile.sqlite')
    subprocess.run([GEN, path, '--gpus', '2', '--streams', '2', '--processes', '2', '--threads', '3',
                    '--iterations', '12', '--kernels', '6000', '--nvtx-depth', '4', '--nccl', '--memcpy', '120',
                    '--memset', '40', '--async-ranges', '3', '--stall-ns', '5000000000', '--stall-step', '3',
                    '--bad-rows', '3', '--seed', '7'], check=True, capture_output=True)
    db = sqlite3.connect(path)
    db.executescript("""
        UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = start + 6000000000 WHERE rowid = 5;
        UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET end = start + 5000000000 WHERE rowid = 7;
        UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET end = start + 4400000000 WHERE rowid = 1;
        UPDATE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION SET end = start + 4300000000 WHERE rowid = 1;
        DELETE FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE rowid % 97 = 0;""")
    db.commit()
    db.close()
    return path


def check_profile(path):
    """Fresh, writing and reading runs of every command agree byte for byte."""
    name = os.path.basename(path)
    clear_entries()
    writing, events = run(['info', '--json', path])
    check(events == ['miss', 'written'], f'{name}: the first run wrote no entry: {events}')
    check(len(entries()) == 1, f'{name}: entries after the first run: {entries()}')
    fresh, events = run(['info', '--json', '--no-cache', path])
    check(events == [], f'{name}: --no-cache used the cache: {events}')
    check(writing.stdout == fresh.stdout, f'{name}: info --json differs between the writing run and --no-cache')
    for command in COMMANDS:
        fresh, fresh_events = run([*command, '--json', '--no-cache', path])
        cached, events = run([*command, '--json', path])
        what = f'{name}: {" ".join(command)} --json'
        check(fresh_events == [], f'{what}: --no-cache used the cache: {fresh_events}')
        check(events == ['hit'], f'{what}: did not read the entry: {events}')
        check(fresh.returncode == cached.returncode, f'{what}: exit {fresh.returncode} vs {cached.returncode}')
        check(fresh.stdout == cached.stdout, f'{what}: output differs with the cache')
    fresh, _ = run(['info', '--no-cache', path])
    cached, events = run(['info', path])
    check(events == ['hit'] and fresh.stdout == cached.stdout, f'{name}: info table differs with the cache')


def check_compare(a, b):
    run(['info', a])
    run(['info', b])
    fresh, _ = run(['compare', '--json', '--no-cache', a, b])
    cached, events = run(['compare', '--json', a, b])
    check(events.count('hit') == 2, f'compare: did not read both entries: {events}')
    check(fresh.stdout == cached.stdout and fresh.returncode == cached.returncode, 'compare --json differs')


def check_switched_off(path):
    clear_entries()
    run(['kernels', '--no-cache', path])
    run(['info', '--no-cache', path])
    run(['kernels', path], SIGHTLINE_NO_CACHE='1')
    check(entries() == [], f'--no-cache / SIGHTLINE_NO_CACHE=1 wrote {entries()}')


def damage(entry, how):
    with open(entry, 'r+b') as f:
        size = os.fstat(f.fileno()).st_size
        if how == 'flip':
            f.seek(size // 2)
            byte = f.read(1)
            f.seek(size // 2)
            f.write(bytes([byte[0] ^ 0xff]))
        elif how == 'truncate':
            f.truncate(size - 8)
        elif how == 'header':
            f.seek(20)
            f.write(b'\xff')


def check_damaged(path):
    """A damaged entry is refused, the answers stay exact, the entry is rebuilt."""
    clear_entries()
    run(['info', path])
    entry = os.path.join(ENTRIES, entries()[0])
    with open(entry, 'rb') as f:
        good = f.read()
    fresh, _ = run(['info', '--json', '--no-cache', path])
    for how in ('flip', 'truncate', 'header'):
        damage(entry, how)
        cached, events = run(['info', '--json', path])
        check(events == ['rejected', 'miss', 'written'], f'damaged ({how}): {events}')
        check(cached.stdout == fresh.stdout, f'damaged ({how}): output differs')
        with open(entry, 'rb') as f:
            check(f.read() == good, f'damaged ({how}): the entry was not rebuilt')


def check_parts(path):
    """A command that loads fewer parts writes an entry of those; one with
    every part replaces it and then serves every command."""
    clear_entries()
    _, events = run(['kernels', '--json', path])
    first = entries()
    check(events == ['miss', 'written'] and len(first) == 1 and not first[0].endswith('-1f.slc'),
          f'parts: kernels wrote {first} ({events})')
    _, events = run(['info', '--json', path])
    check(events == ['miss', 'written'] and len(entries()) == 1 and entries()[0].endswith('-1f.slc'),
          f'parts: info left {entries()} ({events})')
    fresh, _ = run(['kernels', '--json', '--no-cache', path])
    cached, events = run(['kernels', '--json', path])
    check(events == ['hit'] and cached.stdout == fresh.stdout, f'parts: kernels from the whole entry: {events}')


def check_eviction(paths):
    """Entries A, B, C used in the order B, C, A; D's entry over the bound evicts B only."""
    clear_entries()
    names = []
    for p in paths:
        before = set(entries())
        run(['info', p])
        names.append((set(entries()) - before).pop())
    sizes = [os.path.getsize(os.path.join(ENTRIES, n)) for n in names]
    os.unlink(os.path.join(ENTRIES, names[3]))
    for i, stamp in enumerate((1000000000, 1000000100, 1000000200)):
        os.utime(os.path.join(ENTRIES, names[i]), (stamp, stamp))
    _, events = run(['info', paths[0]])
    check(events == ['hit'], f'eviction: A was not read from its entry: {events}')
    run(['info', paths[3]], SIGHTLINE_CACHE_SIZE=str(sizes[0] + sizes[2] + sizes[3]))
    check(entries() == sorted([names[0], names[2], names[3]]), f'eviction: left {entries()}, B should go')


def main():
    real = sorted(os.path.join(PROFILES, n) for n in os.listdir(PROFILES) if n.endswith('.sqlite'))
    hostile = hostile_profile()
    # The sample sits in the build tree among other files: what starts with its name.
    folders = {(d, p): folder_state(d, p) for d, p in ((PROFILES, ''), (os.path.dirname(hostile), ''),
                                                      (os.path.dirname(SAMPLE), 'sample'))}
    for path in [*real, SAMPLE, hostile]:
        check_profile(path)
    check_compare(real[0], hostile)
    check_switched_off(real[0])
    check_damaged(hostile)
    check_parts(hostile)
    check_eviction(real[:4])
    for (folder, prefix), state in folders.items():
        check(folder_state(folder, prefix) == state, f'something was written beside the profiles in {folder}')
    shutil.rmtree(TMP)
    if failures:
        print(f'{len(failures)} failure(s)')
        sys.exit(1)
    print('ok')


main()
