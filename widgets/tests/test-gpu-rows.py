#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Issue 12 item 4: the timeline's GPU rows against SQL (python's sqlite3).

Utilization: for each GPU, the union of its kernels' intervals (all streams
together) measured in each column of the whole run, computed here from
CUPTI_ACTIVITY_KIND_KERNEL; the model's exact route must match closely and
its table route (interpolated inside bins) within a bin's share.
Projected NVTX: for each push/pop range, the first start and last end of the
GPU work (kernels, memcpy, memset) launched on that GPU by runtime calls that
start inside the range on its thread (joined by correlationId); and the
range's GPU time, the sum of those kernels' durations.
Usage: test-gpu-rows.py GPU_ROWS_DUMP SIGHTLINE_GEN"""
import bisect, json, os, sqlite3, subprocess, sys, tempfile

DUMP, GEN = sys.argv[1], sys.argv[2]
PROFILES = os.environ.get('SL_PROFILES_DIR', os.path.join(os.path.dirname(__file__), '../../../shared/profiles'))
N = 700


def union_per_column(intervals, t0, px, n):
    out = [0.0] * n
    cur = None
    def add(s, e):
        a, b = (s - t0) / px, (e - t0) / px
        i = max(int(a // 1), 0)
        while i < n and i <= b:
            lo, hi = max(a, i), min(b, i + 1)
            if hi > lo:
                out[i] += hi - lo
            i += 1
    for s, e in sorted(intervals):
        if cur and s <= cur[1]:
            cur[1] = max(cur[1], e)
            continue
        if cur:
            add(*cur)
        cur = [s, e]
    if cur:
        add(*cur)
    return [min(v, 1.0) for v in out]


def tables(db):
    return {r[0] for r in db.execute("select name from sqlite_master where type in ('table','view')")}


def check_util(db, dump):
    for gpu in dump['util']:
        ks = db.execute('select start, end from CUPTI_ACTIVITY_KIND_KERNEL where deviceId = ? and end > start',
                        (gpu['device'],)).fetchall()
        want = union_per_column(ks, gpu['t0'], gpu['px_ns'], N)
        exact, table = gpu['exact'], gpu['table']
        worst = max(abs(a - b) for a, b in zip(want, exact))
        assert worst < 1e-3, f"GPU {gpu['device']}: exact route off by {worst}"
        # the table interpolates inside the two bins a column's edges cut
        slack = 2 * gpu['bin_ns'] / gpu['px_ns'] + 1e-3
        worst_t = max(abs(a - b) for a, b in zip(want, table))
        assert worst_t <= slack, f"GPU {gpu['device']}: table off by {worst_t} > {slack}"
        print(f"GPU {gpu['device']}: {len(ks)} kernels, mean busy {sum(want) / N:.4f}, "
              f"exact max err {worst:.2e}, table max err {worst_t:.2e} (slack {slack:.2e})")


def gpu_ops(db):
    """(globalPid, correlationId) -> [(device, start, end, is_kernel)]"""
    ops = {}
    t = tables(db)
    for table, kernel in (('CUPTI_ACTIVITY_KIND_KERNEL', True), ('CUPTI_ACTIVITY_KIND_MEMCPY', False),
                          ('CUPTI_ACTIVITY_KIND_MEMSET', False)):
        if table not in t:
            continue
        for dev, s, e, corr, gpid in db.execute(f'select deviceId, start, end, correlationId, globalPid from {table}'):
            ops.setdefault((gpid, corr), []).append((dev, s, e, kernel))
    return ops


def expected_projection(db):
    ops = gpu_ops(db)
    calls = {}
    for gtid, s, corr in db.execute('select globalTid, start, correlationId from CUPTI_ACTIVITY_KIND_RUNTIME'):
        calls.setdefault(gtid, []).append((s, corr))
    for v in calls.values():
        v.sort()
    want = {}
    for gtid, s, e in db.execute('select globalTid, start, end from NVTX_EVENTS where eventType = 59 and end is not null'):
        cl = calls.get(gtid, [])
        i = bisect.bisect_left(cl, (s, -1))
        spans = {}
        while i < len(cl) and cl[i][0] <= e:
            pid = gtid >> 24 << 24
            for dev, os_, oe, kernel in ops.get((pid, cl[i][1]), []):
                lo, hi, kt = spans.get(dev, (os_, oe, 0))
                spans[dev] = (min(lo, os_), max(hi, oe), kt + (oe - os_ if kernel else 0))
            i += 1
        for dev, span in spans.items():
            want[(dev, gtid & 0xFFFFFF, s)] = want.get((dev, gtid & 0xFFFFFF, s), []) + [span]
    return want


def check_projected(db, dump):
    want = expected_projection(db)
    got = {}
    for p in dump['projected']:
        got.setdefault((p['device'], p['tid'], p['start']), []).append((p['gpu_start'], p['gpu_end'], p['gpu_time']))
    assert len(got) > 0, 'no projected spans'
    assert set(got) == set(want), f"ranges differ: {len(set(got) - set(want))} extra, {len(set(want) - set(got))} missing"
    for k, v in want.items():
        assert sorted(v) == sorted(got[k]), f'{k}: want {sorted(v)}, got {sorted(got[k])}'
    print(f'{len(got)} projected spans match SQL')


def run(path):
    dump = json.loads(subprocess.run([DUMP, path, str(N)], check=True, capture_output=True, text=True).stdout)
    db = sqlite3.connect(f'file:{path}?mode=ro', uri=True)
    print(os.path.basename(path))
    assert dump['util'], 'no utilization rows'
    check_util(db, dump)
    check_projected(db, dump)


def main():
    run(os.path.join(PROFILES, 'nsysai-h100-2gpu-1s.sqlite'))
    with tempfile.TemporaryDirectory() as tmp:
        gen = os.path.join(tmp, 'gen.sqlite')
        subprocess.run([GEN, '--gpus=2', '--kernels=20000', '--memcpy=300', '--nvtx-depth=4',
                        '--cuda-graph=8x5', gen], check=True, capture_output=True)
        run(gen)


main()
