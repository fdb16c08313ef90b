#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The Summary page's bundle (sl-scope-summary.h) against sightline-cli's JSON
for the same --range, and its duration histograms against SQL, on every real
profile: the whole profile and three windows.

usage: test-scope-summary.py SCOPE_SUMMARY_JSON SIGHTLINE_CLI PROFILES_DIR"""
import json
import math
import os
import sqlite3
import subprocess
import sys

DUMP, CLI, PROFILES = sys.argv[1:4]
FAILED = 0
PASSED = 0


def check(cond, what):
    global FAILED, PASSED
    if cond:
        PASSED += 1
    else:
        FAILED += 1
        print('FAIL -', what)
    return cond


def run_json(*args):
    return json.loads(subprocess.run([*map(str, args)], check=True, capture_output=True, text=True).stdout)


def cli(command, profile, rng):
    return run_json(CLI, command, *(['--range', *rng] if rng else []), profile, '--json')


def rows(table, keys):
    return [tuple(r[k] for k in keys) for r in table]


def compare(profile, rng):
    what = f'{os.path.basename(profile)} {rng or "whole"}'
    s = run_json(DUMP, profile, *(rng or []))
    k = cli('kernels', profile, rng)
    check(s['kernels']['total_ns'] == k['total_ns'], f'{what}: kernel total')
    check(rows(s['kernels']['top'], ('name', 'instances', 'total_ns')) ==
          rows(k['kernels'][:10], ('name', 'instances', 'total_ns')), f'{what}: top kernels')
    g = cli('gaps', profile, rng)
    keys = ('device', 'span_ns', 'kernel_busy_ns', 'copy_busy_ns')
    check(rows(s['gpus'], keys) == rows(g['devices'], keys), f'{what}: utilization and copies per GPU')
    check(all(abs(a['utilization_pct'] - b['utilization_pct']) < 1e-9 for a, b in zip(s['gpus'], g['devices'])),
          f'{what}: utilization %')
    longest = sorted(((x['dur_ns'], x['start_ns']) for d in g['devices'] for x in d['gaps']),
                     key=lambda t: (-t[0], t[1]))[:10]
    check([(x['dur_ns'], x['start_ns']) for x in s['gaps']] == longest, f'{what}: largest gaps')
    a = cli('api', profile, rng)
    check(s['api']['total_ns'] == a['total_ns'] and rows(s['api']['top'], ('name', 'instances', 'total_ns')) ==
          rows(a['calls'][:10], ('name', 'instances', 'total_ns')), f'{what}: CUDA API')
    n = cli('nvtx', profile, rng)
    check(rows(s['nvtx'], ('name', 'instances', 'total_ns')) == rows(n['ranges'][:10], ('name', 'instances', 'total_ns')),
          f'{what}: NVTX ranges')
    o = cli('overlap', profile, rng)
    keys = ('device', 'compute_ns', 'nccl_ns', 'overlap_ns')
    check(rows(s['overlap'], keys) == rows(o['devices'], keys), f'{what}: NCCL overlap')
    c = cli('categories', profile, rng)
    check(rows(s['categories'], ('name', 'total_ns', 'instances')) == rows(c['categories'], ('category', 'total_ns', 'instances')),
          f'{what}: categories')
    it = cli('iterations', profile, rng)
    check(s['iterations']['method'] == it['method'] and len(s['iterations']['items']) == len(it['iterations']),
          f'{what}: iterations ({len(s["iterations"]["items"])} vs {len(it["iterations"])})')
    return s


def compare_sql(profile, s, rng):
    """The index's tables and the GPUs' busy time the independent way: SQL
    sums of the kernels starting in the range, and the union of each GPU's
    kernel intervals starting in it (busy time, the largest gaps) and of its
    copies'."""
    what = f'{os.path.basename(profile)} {rng or "whole"} SQL'
    db = sqlite3.connect(f'file:{profile}?mode=ro&immutable=1', uri=True)
    if not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'CUPTI_ACTIVITY_KIND_KERNEL'").fetchone():
        db.close()
        return
    where, args = ('WHERE k.start >= ? AND k.start < ?', [int(rng[0]), int(rng[1])]) if rng else ('', [])
    total, count = db.execute(f'SELECT TOTAL(k.end - k.start), COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k {where}',
                              args).fetchone()
    check((s['kernels']['total_ns'], s['kernels']['instances']) == (int(total), count),
          f'{what}: kernel total and count')
    by_name = dict(((n, (int(t), c)) for n, t, c in db.execute(
        'SELECT s.value, TOTAL(k.end - k.start), COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k '
        f'JOIN StringIds s ON s.id = k.shortName {where} GROUP BY s.value', args)))
    check(all(by_name.get(r['name']) == (r['total_ns'], r['instances']) for r in s['kernels']['top']),
          f'{what}: top kernels')
    gaps = []
    for g in s['gpus']:
        busy, gpu_gaps = sql_union(db, ['CUPTI_ACTIVITY_KIND_KERNEL'], g['device'], where, args)
        check(g['kernel_busy_ns'] == busy, f'{what}: GPU {g["device"]} busy {g["kernel_busy_ns"]} vs SQL {busy}')
        gaps += [(d, st) for d, st in gpu_gaps]
        copies = [t for t in ('CUPTI_ACTIVITY_KIND_MEMCPY', 'CUPTI_ACTIVITY_KIND_MEMSET')
                  if db.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (t,)).fetchone()]
        copy_busy = sql_union(db, copies, g['device'], where, args)[0] if copies else 0
        check(g['copy_busy_ns'] == copy_busy, f'{what}: GPU {g["device"]} copies {g["copy_busy_ns"]} vs SQL {copy_busy}')
    gaps.sort(key=lambda t: (-t[0], t[1]))
    check([(x['dur_ns'], x['start_ns']) for x in s['gaps']] == gaps[:10], f'{what}: largest gaps')
    db.close()


def sql_union(db, tables, device, where, args):
    """Length of the union of @device's intervals of @tables starting in the
    range (touching ones joined), and its gaps as (dur, start)."""
    cond = where.replace('k.start', 'start') + (' AND' if where else 'WHERE') + ' deviceId = ?'
    sql = ' UNION ALL '.join(f'SELECT start, end FROM {t} {cond}' for t in tables)
    busy, end, gaps = 0, None, []
    for a, b in db.execute(f'SELECT start, end FROM ({sql}) ORDER BY start', (args + [device]) * len(tables)):
        if end is None or a > end:
            if end is not None:
                gaps.append((a - end, end))
            busy, end = busy + (b - a), b
        elif b > end:
            busy, end = busy + (b - end), b
    return busy, gaps


def sql_durations(profile, name, rng):
    db = sqlite3.connect(f'file:{profile}?mode=ro&immutable=1', uri=True)
    sql = ('SELECT k.end - k.start FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName '
           'WHERE s.value = ?')
    args = [name]
    if rng:
        sql += ' AND k.start >= ? AND k.start < ?'
        args += [int(rng[0]), int(rng[1])]
    durs = [r[0] for r in db.execute(sql + ' ORDER BY 1', args)]
    # the percentiles the independent way: the k-th row of the sorted durations
    ranks = {}
    for p in (50, 90, 99):
        k = max(1, min(len(durs), math.ceil(p / 100 * len(durs) - 1e-9))) - 1
        row = db.execute(sql + ' ORDER BY k.end - k.start LIMIT 1 OFFSET ?', args + [k]).fetchone()
        ranks[p] = row[0] if row else None
    db.close()
    return durs, ranks


def compare_histogram(profile, name, rng):
    what = f'{os.path.basename(profile)} {rng or "whole"} histogram of {name[:40]}'
    h = run_json(DUMP, profile, *(rng or []), '--histogram', name)
    durs, ranks = sql_durations(profile, name, rng)
    check(h['n'] == len(durs), f'{what}: {h["n"]} instances, SQL {len(durs)}')
    check(sum(c for _, _, c in h['bins']) == len(durs), f'{what}: every instance in a bin')
    check(all(h['bins'][i][1] == h['bins'][i + 1][0] for i in range(len(h['bins']) - 1)), f'{what}: bins adjoin')
    counts = [sum(1 for d in durs if lo <= d < hi) for lo, hi, _ in h['bins']]
    check(counts == [c for _, _, c in h['bins']], f'{what}: counts per bin')
    for p in (50, 90, 99):
        check(h[f'p{p}_ns'] == (ranks[p] if durs else 0), f'{what}: p{p} {h[f"p{p}_ns"]} vs SQL {ranks[p]}')


def main():
    profiles = sorted(os.path.join(PROFILES, n) for n in os.listdir(PROFILES) if n.endswith('.sqlite'))
    for profile in profiles:
        whole = compare(profile, None)
        compare_sql(profile, whole, None)
        t0, t1 = whole['start_ns'], whole['end_ns']
        span = t1 - t0
        windows = [(t0 + span // 3, t0 + 2 * span // 3), (t0, t0 + span // 10), (t0 + span // 4, t1 + 1)]
        if span < 10:   # nothing timed (a CPU-sampling-only export)
            windows = []
        for rng in windows:
            compare_sql(profile, compare(profile, [str(a) for a in rng]), [str(a) for a in rng])
        for r in whole['kernels']['top'][:3]:
            compare_histogram(profile, r['name'], None)
            for rng in windows[0::2]:
                compare_histogram(profile, r['name'], [str(a) for a in rng])
    print(f'{PASSED} passed, {FAILED} failed')
    return 1 if FAILED else 0


if __name__ == '__main__':
    sys.exit(main())
