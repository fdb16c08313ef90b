#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The search page's search (sl-name-search) against independent routes.

On every real profile and a few patterns (substrings and regexes): the
kernels and NVTX ranges it finds are exactly those `sightline-cli search
--json --limit 0` lists; the CUDA API calls it finds are as many as SQL
counts (CUPTI_ACTIVITY_KIND_RUNTIME rows of eventClass 0/1 whose name
matches, matched here with Python's own substring and regex); its groups
hold every hit once, by start, with their summed durations."""
import collections
import json
import os
import re
import sqlite3
import subprocess
import sys
import sl_cli_test
from sl_cli_test import check, run_json

CLI, DUMP, PROFILES = sys.argv[1], sys.argv[2], sys.argv[3]
sl_cli_test.CLI = CLI
PATTERNS = ['gemm', 'KERNEL', 'cuda', 'nccl', 'a', '/^cuda(Launch|Memcpy)/', '/Kernel$/i', '/^[a-z]+_/']


def matcher(pattern):
    m = re.fullmatch(r'/(.*)/(i?)', pattern)
    if m:
        rx = re.compile(m.group(1), re.I if m.group(2) else 0)
        return lambda name: rx.search(name) is not None
    return lambda name: pattern.lower() in name.lower()


def sql_api_count(path, pattern):
    match = matcher(pattern)
    with sqlite3.connect(f'file:{path}?mode=ro', uri=True) as db:
        if not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'CUPTI_ACTIVITY_KIND_RUNTIME'").fetchone():
            return 0
        rows = db.execute('SELECT s.value, count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s '
                          'ON s.id = r.nameId WHERE (r.eventClass IS NULL OR r.eventClass IN (0, 1)) '
                          'AND r.end >= r.start GROUP BY s.value').fetchall()
    return sum(n for name, n in rows if match(name))


def dump(path, pattern):
    p = subprocess.run([DUMP, path, pattern], capture_output=True, text=True)
    if not check(p.returncode == 0, f'{path} {pattern}: dump exit {p.returncode}: {p.stderr[-300:]}'):
        return None
    return json.loads(p.stdout)


def check_groups(tag, d):
    hits, seen = d['hits'], 0
    for kind, name, n, total, indexes in d['groups']:
        seen += n
        check(len(indexes) == n, f'{tag}: group {name} lists its {n} hits')
        check(all(hits[i][4] == d['groups'].index([kind, name, n, total, indexes]) for i in indexes[:50]),
              f'{tag}: group {name}: its hits point back at it')
        check(all(hits[i][1] == name for i in indexes), f'{tag}: group {name}: its hits have its name')
        check([hits[i][2] for i in indexes] == sorted(hits[i][2] for i in indexes), f'{tag}: group {name} by start')
        check(total == sum(hits[i][3] - hits[i][2] for i in indexes), f'{tag}: group {name}: total time')
    check(seen == len(hits), f'{tag}: the groups hold every hit once ({seen} of {len(hits)})')
    check(len(set(i for g in d['groups'] for i in g[4])) == len(hits), f'{tag}: no hit in two groups')
    totals = [g[3] for g in d['groups']]
    check(totals == sorted(totals, reverse=True), f'{tag}: groups by total time')


def check_profile(path):
    for pattern in PATTERNS:
        tag = f'{os.path.basename(path)} {pattern!r}'
        d = dump(path, pattern)
        cli = run_json('search', '--json', '--limit', '0', pattern, path)
        if d is None or cli is None:
            continue
        mine = collections.Counter((h[0], h[1], h[2], h[3]) for h in d['hits'] if h[0] != 'api')
        theirs = collections.Counter((m['kind'], m['name'], m['start_ns'], m['end_ns']) for m in cli['matches'])
        check(mine == theirs, f'{tag}: kernels and ranges as sightline-cli search finds them '
              f'({sum(mine.values())} vs {sum(theirs.values())}; {list((mine - theirs).items())[:2]} '
              f'{list((theirs - mine).items())[:2]})')
        check(d['n_kernels'] + d['n_ranges'] == cli['total'], f'{tag}: total {cli["total"]}')
        check(d['n_api'] == sql_api_count(path, pattern), f'{tag}: {d["n_api"]} API calls as SQL counts')
        starts = [h[2] for h in d['hits']]
        check(starts == sorted(starts), f'{tag}: hits by start')
        check_groups(tag, d)
        print(f'{tag}: {d["n_kernels"]} kernels, {d["n_ranges"]} ranges, {d["n_api"]} API calls, '
              f'{len(d["groups"])} names')


def main():
    paths = sorted(os.path.join(PROFILES, n) for n in os.listdir(PROFILES) if n.endswith('.sqlite'))
    if not paths:
        print('# skip: no profiles in', PROFILES)
        return 77
    for path in paths:
        check_profile(path)
    bad = subprocess.run([DUMP, paths[0], '/(/'], capture_output=True, text=True)
    check(bad.returncode == 1 and 'regular expression' in bad.stderr, 'an invalid regex is an error')
    return sl_cli_test.finish()


if __name__ == '__main__':
    sys.exit(main())
