"""The real sightline app under Xvfb, driven with xdotool.

The app writes its state (page, visible range, selection, rows and where the
timeline sits in the window) to $SIGHTLINE_TEST_STATE whenever it changes;
real X events come from xdotool and screenshots from ImageMagick's import.

  xvfb-run -a python3 test-gui.py APP GEN PROFILES_DIR OUT_DIR
"""
import csv
import re
from html import unescape
import json
import math
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import traceback
APP, GEN, PROFILES, OUT = sys.argv[1:5]
REAL = os.path.join(PROFILES, 'nsysai-h100-2gpu-1s.sqlite')
PASSED = FAILED = 0


def log(*args):
    print(*args, flush=True)


def check(cond, what):
    global PASSED, FAILED
    if cond:
        PASSED += 1
        log('ok -', what)
    else:
        FAILED += 1
        log('FAIL -', what)
    return cond


class App:
    def __init__(self, tmp, *args, env=None):
        self.state_path = os.path.join(tmp, 'state.json')
        if os.path.exists(self.state_path):
            os.unlink(self.state_path)
        e = dict(os.environ)
        e.update({'GDK_BACKEND': 'x11', 'GTK_A11Y': 'none', 'NO_AT_BRIDGE': '1',
                  'GSETTINGS_BACKEND': 'memory', 'SIGHTLINE_TEST_STATE': self.state_path,
                  'SIGHTLINE_MEASURE_STALL': '1',
                  'XDG_DATA_HOME': os.path.join(tmp, 'data'),
                  'XDG_CONFIG_HOME': os.path.join(tmp, 'config'),
                  'XDG_CACHE_HOME': os.path.join(tmp, 'cache'),
                  # the remembered side-panel page and the like: each test starts afresh
                  'XDG_STATE_HOME': os.path.join(tmp, 'state'),
                  'GTK_THEME': 'Adwaita'})
        # GTK, fontconfig and Mesa keep caches until exit: not our leaks
        e['ASAN_OPTIONS'] = (e.get('ASAN_OPTIONS', '') + ':detect_leaks=0').lstrip(':')
        e.update(env or {})
        self.log_path = os.path.join(tmp, 'app.log')
        self.log = open(self.log_path, 'w')
        self.proc = subprocess.Popen([APP, *args], env=e, stdout=self.log, stderr=subprocess.STDOUT)

    def state(self):
        try:
            with open(self.state_path) as f:
                return json.load(f)
        except (OSError, ValueError):
            return None

    def wait(self, pred, timeout=60.0):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            s = self.state()
            if s is not None and pred(s):
                return s
            if self.proc.poll() is not None:
                return None
            time.sleep(0.1)
        return None

    def settle(self, quiet=0.4, timeout=10.0):
        """The state once it has not changed for @quiet seconds."""
        end = time.monotonic() + timeout
        last, since = None, time.monotonic()
        while time.monotonic() < end:
            s = self.state()
            if s != last:
                last, since = s, time.monotonic()
            elif time.monotonic() - since >= quiet:
                return s
            time.sleep(0.05)
        return last

    def close(self):
        code = self.proc.poll()
        if code is not None:
            # it ended by itself: a crash, shown with the end of its output
            with open(self.log_path, errors='replace') as f:
                tail = f.readlines()[-15:]
            check(False, f'the app ran until the test closed it (exit status {code}): ' + ''.join(tail))
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        # GTK and GLib warnings and criticals are bugs of ours (a widget drawn
        # before it is allocated, a NULL passed on): none may appear
        with open(self.log_path, errors='replace') as f:
            noise = [l.strip() for l in f if '-WARNING **' in l or '-CRITICAL **' in l]
        check(not noise, 'no GTK or GLib warnings: ' + ' | '.join(noise[:3]))


def xdo(*args):
    subprocess.run(['xdotool', *map(str, args)], check=True)


def screenshot(xid, path):
    """The window's pixels as (width, height, rows of RGB bytes), and a PNG for people."""
    ppm = path + '.ppm'
    # 8 bits per sample: ImageMagick's import writes 16-bit PPM by default
    subprocess.run(['import', '-window', str(xid), '-depth', '8', 'ppm:' + ppm], check=True)
    subprocess.run(['convert', ppm, path], check=False)
    with open(ppm, 'rb') as f:
        data = f.read()
    os.unlink(ppm)
    # binary PPM: P6 w h maxval, one whitespace byte, then the pixels (the
    # pixels may start with bytes that look like whitespace: no split() there)
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    w, h, maxval = int(fields[1]), int(fields[2]), int(fields[3])
    pix = data[pos + 1:]
    if maxval > 255:   # two bytes a sample, most significant first
        pix = pix[0::2]
    assert fields[0] == b'P6' and len(pix) >= w * h * 3, 'not a binary PPM of the window'
    return w, h, pix


def pixel(img, x, y):
    w, h, pix = img
    i = (y * w + x) * 3
    return tuple(pix[i:i + 3])


def colored_pixels(img, x0, x1, y0, y1):
    """Pixels that are neither background white nor a grey (grid, text)."""
    n = 0
    for y in range(y0, y1):
        for x in range(x0, x1):
            r, g, b = pixel(img, x, y)
            if max(r, g, b) - min(r, g, b) > 30:
                n += 1
    return n


def complete(s):
    """The whole profile is shown (a staged load shows its GPU rows first)."""
    return s['page'] == 'profile' and s.get('timeline', {}).get('complete', False)


def timeline_geometry(s):
    tl = s['timeline']
    sc = tl['scale']
    return tl, sc


def body_point(s, frac_x, row):
    """Window coordinates of a point in the body at fraction frac_x of its width, in a row."""
    tl, sc = timeline_geometry(s)
    body_w = tl['width'] - tl['header_width']
    bx = int(body_w * frac_x)
    x = tl['x'] + (tl['header_width'] + bx) / sc
    y = tl['y'] + (row['y'] + row['height'] / 2) / sc
    return int(round(x)), int(round(y))


def body_x_of(s, wx):
    tl, sc = timeline_geometry(s)
    return (wx - tl['x']) * sc - tl['header_width']


def time_at(s, wx):
    tl, _ = timeline_geometry(s)
    return tl['t0'] + body_x_of(s, wx) * tl['px_ns']


def track_rows(s, kinds=('stream',)):
    return [r for r in s['timeline']['rows'] if r['kind'] in kinds and r['y'] >= s['timeline']['body_y']]


def check_rows_drawn(app, s, name):
    img = screenshot(s['xid'], os.path.join(OUT, name + '.png'))
    tl, sc = timeline_geometry(s)
    x0 = int(tl['x'] + tl['header_width'] / sc) + 1
    x1 = int(tl['x'] + tl['width'] / sc) - 1
    drawn = 0
    rows = track_rows(s, ('stream', 'api', 'nvtx'))
    for r in rows:
        y0 = int(tl['y'] + r['y'] / sc) + 2
        y1 = int(tl['y'] + (r['y'] + r['height']) / sc) - 2
        if y1 > img[1] or y0 >= y1:
            continue
        if colored_pixels(img, x0, x1, y0, y1) >= 10:
            drawn += 1
    check(len(rows) > 0 and drawn >= max(1, len(rows) // 2),
          f'{name}: {drawn} of {len(rows)} visible track rows have coloured pixels')
    return img


def generate(tmp):
    profile = os.path.join(tmp, 'generated.sqlite')
    subprocess.run([GEN, profile, '--gpus', '2', '--streams', '2', '--processes', '1', '--threads', '2',
                    '--iterations', '6', '--kernels', '30000', '--nvtx-depth', '3', '--nccl',
                    '--memcpy', '300', '--seed', '7'], check=True, stdout=subprocess.DEVNULL)
    return profile


def test_generated(tmp):
    profile = generate(tmp)
    app = App(tmp, profile)
    try:
        s = app.wait(complete)
        if not check(s is not None, 'generated profile opens'):
            return
        s = app.settle()
        check_rows_drawn(app, s, 'generated')

        # Ctrl+wheel zooms in around the pointer
        streams = track_rows(s)
        px, py = body_point(s, 0.4, streams[0])
        xdo('mousemove', '--window', s['xid'], px, py)
        time.sleep(0.3)
        before = app.state()
        anchor = time_at(before, px)
        xdo('keydown', 'ctrl', 'click', 4, 'keyup', 'ctrl')
        after = app.wait(lambda s: s['timeline']['px_ns'] < before['timeline']['px_ns'] * 0.99, 10)
        if check(after is not None, 'Ctrl+scroll zooms in'):
            ratio = before['timeline']['px_ns'] / after['timeline']['px_ns']
            check(abs(ratio - 2.0) < 0.01, f'one wheel step zooms by 2 (got {ratio:.3f})')
            moved = abs(time_at(after, px) - anchor) / before['timeline']['px_ns']
            check(moved <= 1.0, f'the time under the pointer stays there (moved {moved:.2f} px)')

        # Shift+drag selects a time range
        s = app.state()
        x1, y = body_point(s, 0.2, streams[0])
        x2, _ = body_point(s, 0.5, streams[0])
        xdo('mousemove', '--window', s['xid'], x1, y)
        xdo('keydown', 'shift', 'mousedown', 1)
        for x in range(x1, x2 + 1, max(1, (x2 - x1) // 6)):
            xdo('mousemove', '--window', s['xid'], x, y)
            time.sleep(0.03)
        xdo('mousemove', '--window', s['xid'], x2, y)
        time.sleep(0.1)
        xdo('mouseup', 1, 'keyup', 'shift')
        sel = app.wait(lambda s: s['timeline']['range'] is not None, 10) and app.settle()
        if check(sel is not None, 'Shift+drag selects a range'):
            a, b = sel['timeline']['range']
            px_ns = sel['timeline']['px_ns']
            check(abs(a - time_at(s, x1)) <= 3 * px_ns and abs(b - time_at(s, x2)) <= 3 * px_ns,
                  'the range spans the dragged pixels')
            check(abs(sel['timeline']['t0'] - s['timeline']['t0']) < 1e-6 * px_ns + 1,
                  'selecting does not pan')
        # Z zooms to the selection
        xdo('key', 'z')
        z = app.wait(lambda s: abs(s['timeline']['t0'] - sel['timeline']['range'][0]) < 2 * s['timeline']['px_ns'], 10)
        check(z is not None, 'Z zooms to the selected range')
        # the session's history: Alt+Left goes back to the view before Z, Alt+Right returns
        if z is not None:
            check(z['timeline']['history_back'] == 1, 'zooming to the selection is a step back')
            xdo('key', 'alt+Left')
            back = app.wait(lambda s: abs(s['timeline']['px_ns'] - sel['timeline']['px_ns']) < 0.01 * sel['timeline']['px_ns'], 10)
            if check(back is not None, 'Alt+Left restores the view before the zoom'):
                check(abs(back['timeline']['t0'] - sel['timeline']['t0']) <= 2 * sel['timeline']['px_ns'],
                      'and its start')
                check(back['timeline']['range'] == sel['timeline']['range'], 'and keeps the selected range')
                check(back['timeline']['history_forward'] == 1, 'a step forward is offered')
            xdo('key', 'alt+Right')
            fwd = app.wait(lambda s: abs(s['timeline']['px_ns'] - z['timeline']['px_ns']) < 0.01 * z['timeline']['px_ns'], 10)
            check(fwd is not None, 'Alt+Right goes forward to the zoomed view again')
        # Escape clears it
        xdo('key', 'Escape')
        check(app.wait(lambda s: s['timeline']['range'] is None, 10) is not None, 'Escape clears the range')

        # Home fits everything again
        xdo('key', 'Home')
        fit = app.wait(lambda s: abs(s['timeline']['t0'] - s['timeline']['start_ns']) < 1
                       and abs(s['timeline']['t0'] + s['timeline']['px_ns'] * (s['timeline']['width'] - s['timeline']['header_width']) - s['timeline']['end_ns']) < 2 * s['timeline']['px_ns'], 10)
        check(fit is not None, 'Home fits the whole profile')

        # a plain drag pans
        s = app.state()
        x1, y = body_point(s, 0.6, streams[0])
        xdo('key', 'w', 'key', 'w')
        s = app.wait(lambda t: t['timeline']['px_ns'] < s['timeline']['px_ns'] / 2.2, 10)
        if check(s is not None, 'W zooms in'):
            xdo('mousemove', '--window', s['xid'], x1, y, 'mousedown', 1)
            for dx in range(0, 121, 20):
                xdo('mousemove', '--window', s['xid'], x1 - dx, y)
                time.sleep(0.03)
            xdo('mouseup', 1)
            panned = app.wait(lambda t: t['timeline']['t0'] > s['timeline']['t0'], 10) and app.settle()
            if check(panned is not None, 'dragging the background pans'):
                shift = (panned['timeline']['t0'] - s['timeline']['t0']) / s['timeline']['px_ns'] / s['timeline']['scale']
                check(abs(shift - 120) <= 3, f'the view follows the pointer ({shift:.1f} of 120 px)')

        # clicking an event selects it: find coloured pixels in the stream rows
        s = app.state()
        targets = gpu_targets(s, 'generated-zoomed')
        if check(len(targets) > 0, 'a GPU operation is visible to click'):
            xdo('mousemove', '--window', s['xid'], *targets[0], 'click', 1)
            sel = app.wait(lambda t: t['timeline']['selected'] is not None, 10)
            if check(sel is not None, 'clicking an event selects it'):
                check(sel['timeline']['selected']['kind'] in ('kernel', 'memcpy', 'memset'),
                      'the selected event is a GPU operation: ' + sel['timeline']['selected']['name'][:60])
                check('Duration' in sel['details'], 'the details pane shows the event: ' + ', '.join(sel['details']))
                screenshot(s['xid'], os.path.join(OUT, 'generated-selected.png'))
            check_kernel_details(app, s, targets)
    finally:
        app.close()


def gpu_targets(s, name):
    """The middle of each coloured run in the stream rows, in window coordinates."""
    img = screenshot(s['xid'], os.path.join(OUT, name + '.png'))
    tl, sc = timeline_geometry(s)
    targets = []
    for r in track_rows(s):
        y = int(tl['y'] + (r['y'] + r['height'] / 2) / sc)
        run = []
        for x in range(int(tl['x'] + tl['header_width'] / sc) + 2, int(tl['x'] + tl['width'] / sc) - 2):
            c = pixel(img, x, y)
            if max(c) - min(c) > 60:
                run.append(x)
            elif run:
                if len(run) >= 3:
                    targets.append((run[len(run) // 2], y))
                run = []
    return targets


def launch_config_read(s):
    """Whether the details pane shows a kernel's grid and block as read
    (while they are being read, their rows say so)."""
    return all(detail(s, label) not in (None, 'reading…') for label in ('Grid', 'Block'))


def check_kernel_details(app, s, targets):
    """A kernel's launch configuration is read from the file in a worker and
    then shown in the details pane (the click itself never waits for it)."""
    for target in targets[:40]:
        xdo('mousemove', '--window', s['xid'], *target, 'click', 1)
        sel = app.wait(lambda t: t['timeline']['selected'] is not None
                       and t['timeline']['selected']['kind'] == 'kernel', 3)
        if sel is None:
            continue
        grid = app.wait(lambda t: launch_config_read(t), 10)
        check(grid is not None, 'a kernel\'s grid and block arrive in the details pane')
        if grid is not None:
            check(re.fullmatch(r'\d+ × \d+ × \d+', detail(grid, 'Grid') or '') is not None,
                  f'the grid is three numbers: {detail(grid, "Grid")}')
        return
    check(False, 'one of the coloured pixels is a kernel')


def test_real(tmp):
    """Every real export opens (none is an error), and one is checked for drawn rows."""
    if not os.path.isdir(PROFILES):
        log('# skip: no', PROFILES)
        return
    for name in sorted(os.listdir(PROFILES)):
        if not name.endswith('.sqlite'):
            continue
        app = App(tmp, os.path.join(PROFILES, name))
        try:
            s = app.wait(lambda s: complete(s) or s['page'] == 'error')
            if check(s is not None and s['page'] == 'profile', f'{name} opens'):
                if os.path.join(PROFILES, name) == REAL:
                    # the page shows before the timeline has laid out its rows: on a
                    # loaded machine that can take a while, so wait for the rows
                    app.wait(lambda t: track_rows(t, ('stream', 'api', 'nvtx')), 60)
                    check_rows_drawn(app, app.settle(), 'real')
                else:
                    time.sleep(0.5)
                    screenshot(s['xid'], os.path.join(OUT, 'real-' + name[:-7] + '.png'))
        finally:
            app.close()


# ---- the staged load: GPU rows first ------------------------------------------------
# SL_LOADER_TEST_CPU_GATE holds the CPU side of the load until the gate file
# exists, so the GPU stage lasts as long as the test needs (nothing is timed).

def detail(s, label):
    """The value the details pane shows for @label, or None."""
    for l, v in zip(s.get('details', []), s.get('detail_values', [])):
        if l == label:
            return v
    return None


def gpu_stage(app, name):
    """Waits for the GPU stage and checks it: GPU rows only, the load bar busy."""
    s = app.wait(lambda s: s['page'] == 'profile')
    if not check(s is not None, f'{name}: the GPU rows show before the CPU side is in'):
        return None
    tl = s['timeline']
    kinds = tl['row_kinds']
    check(not tl['complete'] and tl['loading'], f'{name}: the session says more is loading')
    check(kinds['stream'] > 0 and kinds['api'] == 0 and kinds['nvtx'] == 0 and kinds['thread'] == 0,
          f'{name}: only GPU rows so far: {kinds}')
    check(s['load_bar']['state'] == 'loading', f'{name}: the load bar shows the CPU side: ' + s['load_bar']['text'])
    check('loading CPU rows' in s['subtitle'], f'{name}: the subtitle says so: ' + s['subtitle'])
    return s


def select_kernel(app, s, name):
    """Clicks GPU operations until a kernel is selected; its state, or None."""
    for target in gpu_targets(s, name)[:40]:
        xdo('mousemove', '--window', s['xid'], *target, 'click', 1)
        sel = app.wait(lambda t: t['timeline']['selected'] is not None and t['timeline']['selected']['kind'] == 'kernel', 3)
        if sel is not None:
            return sel
    return None


def test_staged(tmp):
    """GPU rows first, the view chosen meanwhile kept when the CPU rows arrive."""
    profile = generate(tmp)
    gate = os.path.join(tmp, 'gate')
    app = App(tmp, profile, env={'SL_LOADER_TEST_CPU_GATE': gate})
    try:
        s = gpu_stage(app, 'staged')
        if s is None:
            return
        # the page shows before the timeline has laid out its rows
        app.wait(lambda t: track_rows(t), 60)
        s = app.settle()
        check_rows_drawn(app, s, 'staged-gpu')
        # zoom in twice with the keyboard, then pick a kernel
        xdo('key', 'w', 'key', 'w')
        z = app.wait(lambda t: t['timeline']['px_ns'] < s['timeline']['px_ns'] / 2.2, 10)
        if not check(z is not None, 'staged: W zooms the GPU rows'):
            return
        z = app.settle()
        sel = select_kernel(app, z, 'staged-gpu-zoomed')
        if check(sel is not None, 'staged: a kernel is selected while the CPU side loads'):
            sel = app.wait(lambda t: detail(t, 'Launched by') is not None, 10) or sel
            check(detail(sel, 'Launched by') == 'still loading (CUDA API calls are being read)',
                  'staged: its launching call is still loading: ' + str(detail(sel, 'Launched by')))
        before = app.settle()
        screenshot(before['xid'], os.path.join(OUT, 'staged-gpu-selected.png'))
        with open(gate, 'w'):
            pass
        done = app.wait(complete, 60)
        if not check(done is not None, 'staged: the CPU rows arrive after'):
            return
        done = app.settle()
        kinds = done['timeline']['row_kinds']
        check(kinds['api'] > 0 and kinds['nvtx'] > 0 and kinds['stream'] == before['timeline']['row_kinds']['stream'],
              f'staged: the CPU rows are added to the same GPU rows: {kinds}')
        check(done['load_bar']['state'] == 'hidden' and not done['timeline']['loading'], 'staged: the load bar is gone')
        check('loading' not in done['subtitle'], 'staged: the subtitle is the plain summary: ' + done['subtitle'])
        px = before['timeline']['px_ns']
        (a0, b0), (a1, b1) = before['timeline']['visible'], done['timeline']['visible']
        check(abs(a1 - a0) <= 2 * px and abs(b1 - b0) <= 2 * px,
              f'staged: the visible range chosen on the GPU rows is kept ({a0}..{b0} -> {a1}..{b1})')
        check(abs(done['timeline']['px_ns'] - px) <= 0.001 * px, 'staged: and so is the zoom')
        check(done['timeline']['history_back'] == before['timeline']['history_back'], 'staged: and the history')
        if sel is not None:
            check(done['timeline']['selected'] == sel['timeline']['selected'],
                  'staged: the selected kernel stays selected: ' + sel['timeline']['selected']['name'][:50])
            launched = detail(done, 'Launched by')
            check(launched is not None and 'loading' not in launched and 'not loaded' not in launched,
                  f'staged: its launching call is now known: {launched}')
        screenshot(done['xid'], os.path.join(OUT, 'staged-complete.png'))
        xdo('key', 'Home')
        fit = app.wait(lambda t: track_rows(t, ('api',)) and t['timeline']['px_ns'] > 2 * px, 10)
        if check(fit is not None, 'staged: Home shows the whole profile with its CPU rows'):
            check_rows_drawn(app, app.settle(), 'staged-complete-fit')
    finally:
        app.close()


def click_bar_button(app, s):
    bar = s['load_bar']
    xdo('mousemove', '--window', s['xid'], int(bar['button_x']), int(bar['button_y']), 'click', 1)


def test_staged_cancel(tmp):
    """Cancel keeps the GPU rows and says the CPU rows were not loaded;
    the bar's button loads them again."""
    profile = generate(tmp)
    gate = os.path.join(tmp, 'gate')
    app = App(tmp, profile, env={'SL_LOADER_TEST_CPU_GATE': gate})
    try:
        if gpu_stage(app, 'cancel') is None:
            return
        s = app.wait(lambda t: 'button_x' in t['load_bar'], 10) and app.settle()
        click_bar_button(app, s)
        c = app.wait(lambda t: t['load_bar']['state'] == 'cancelled', 10)
        if not check(c is not None, 'cancel: the load bar says the CPU side was cancelled'):
            return
        c = app.settle()
        check(c['page'] == 'profile' and not c['timeline']['loading'] and not c['timeline']['complete'],
              'cancel: the GPU rows stay')
        check('cancelled' in c['load_bar']['text'], 'cancel: ' + c['load_bar']['text'])
        check('GPU rows only' in c['subtitle'], 'cancel: the subtitle says GPU rows only: ' + c['subtitle'])
        sel = select_kernel(app, c, 'staged-cancelled-rows')
        if check(sel is not None, 'cancel: a kernel can still be selected'):
            sel = app.wait(lambda t: detail(t, 'Launched by') is not None, 10) or sel
            check(detail(sel, 'Launched by') == 'not loaded (CUDA API calls were not read)',
                  'cancel: its launching call was not loaded: ' + str(detail(sel, 'Launched by')))
        c = app.settle()
        screenshot(c['xid'], os.path.join(OUT, 'staged-cancelled.png'))
        # "Load Them" opens the profile again; this time the gate is open
        with open(gate, 'w'):
            pass
        click_bar_button(app, c)
        check(app.wait(complete, 60) is not None, 'cancel: the bar\'s button loads every row')
    finally:
        app.close()


def test_staged_error(tmp):
    """A CPU side that fails (the file changed while it was read) keeps the
    GPU rows and says why in the bar."""
    profile = generate(tmp)
    gate = os.path.join(tmp, 'gate')
    app = App(tmp, profile, env={'SL_LOADER_TEST_CPU_GATE': gate})
    try:
        if gpu_stage(app, 'error') is None:
            return
        st = os.stat(profile)
        os.utime(profile, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
        with open(gate, 'w'):
            pass
        e = app.wait(lambda t: t['load_bar']['state'] == 'failed', 60)
        if not check(e is not None, 'error: the load bar says the CPU side failed'):
            return
        e = app.settle()
        check(e['page'] == 'profile' and not e['timeline']['complete'], 'error: the GPU rows stay')
        check('GPU rows only' in e['subtitle'], 'error: the subtitle says GPU rows only: ' + e['subtitle'])
        check('generated.sqlite' in e['load_bar']['text'] and 'changed' in e['load_bar']['text'],
              'error: the bar names the file and the cause: ' + e['load_bar']['text'][:120])
        screenshot(e['xid'], os.path.join(OUT, 'staged-failed.png'))
    finally:
        app.close()


def test_bad_file(tmp):
    bad = os.path.join(tmp, 'notes.sqlite')
    with open(bad, 'w') as f:
        f.write('this is not a database\n' * 50)
    app = App(tmp, bad)
    try:
        s = app.wait(lambda s: s['page'] in ('profile', 'error'))
        if check(s is not None and s['page'] == 'error', 'a bad file shows the error page'):
            check('notes.sqlite' in s['error'], 'the error names the file: ' + s['error'][:100])
            screenshot(s['xid'], os.path.join(OUT, 'error.png'))
    finally:
        app.close()


# ---- the search page: Ctrl+F, matches, Enter and F3, the timeline dimmed ------------

def kernel_fragment(path):
    """A part of a real kernel name there: the longest _-separated piece of the
    rarest name of ten kernels or more."""
    import sqlite3
    with sqlite3.connect(f'file:{path}?mode=ro', uri=True) as db:
        rows = db.execute('SELECT s.value, count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s '
                          'ON s.id = k.shortName GROUP BY s.value HAVING count(*) >= 10 ORDER BY count(*), s.value').fetchall()
    return max(rows[0][0].split('_'), key=len)


def saturation(img, s, rows):
    """Mean colourfulness (max - min channel) of the body over @rows."""
    tl, sc = timeline_geometry(s)
    x0, x1 = int(tl['x'] + tl['header_width'] / sc) + 2, int(tl['x'] + tl['width'] / sc) - 2
    total = n = 0
    for r in rows:
        y = int(tl['y'] + (r['y'] + r['height'] / 2) / sc)
        for x in range(x0, x1, 2):
            p = pixel(img, x, y)
            total += max(p) - min(p)
            n += 1
    return total / max(n, 1)


def steady_saturation(app, kinds, path, tries=12):
    """saturation() of the rows of @kinds once the screen is known to show the
    state: the state (frames drawn included) the same before and after two
    screenshots in a row, and the two agreeing (within 3 %). On a loaded machine
    (ASan) rows can still move, or the frame be drawn, a moment after the state
    first settles; the rows are read from the state each screenshot belongs to."""
    last = last_state = now = None
    for _ in range(tries):
        before = app.state()
        if before is None:
            time.sleep(0.3)
            continue
        img = screenshot(before['xid'], path)
        s = app.state()
        if s == before:
            now = saturation(img, s, track_rows(s, kinds))
            if s == last_state and abs(now - last) <= 0.03 * max(last, 1):
                return now
            last, last_state = now, s
        time.sleep(0.3)
    return now


def contains(visible, m):
    return visible[0] <= m['start_ns'] and m['end_ns'] <= visible[1]


def test_search(tmp):
    fragment = kernel_fragment(REAL)
    cli = json.loads(subprocess.run([os.path.join(os.path.dirname(APP), '..', 'sightline-cli'), 'search', '--json',
                                     '--limit', '0', fragment, REAL], capture_output=True, text=True, check=True).stdout)
    app = App(tmp, REAL)
    try:
        s = app.wait(complete)
        if not check(s is not None, 'search: the profile opens'):
            return
        app.wait(lambda t: track_rows(t, ('stream', 'api', 'nvtx')), 60)
        app.wait(lambda t: not t['timeline']['loading'], 60)
        s = app.settle()
        before = steady_saturation(app, ('nvtx', 'api'), os.path.join(OUT, 'search-before.png'))
        tl, sc = timeline_geometry(s)
        xdo('mousemove', '--window', s['xid'], int(tl['x'] + tl['width'] / sc / 2), int(tl['y'] + 200))
        xdo('key', 'ctrl+f')
        s = app.wait(lambda t: t['panel']['page'] == 'search' and t['panel']['search']['focus'], 10)
        if not check(s is not None, 'search: Ctrl+F shows the search page with the focus in its entry'):
            return
        xdo('type', '--delay', 40, fragment)
        s = app.wait(lambda t: t['panel']['search']['text'] == fragment and not t['panel']['search']['searching']
                     and t['panel']['search']['matches'] > 0, 20)
        if not check(s is not None, f'search: typing “{fragment}” finds matches'):
            return
        page = s['panel']['search']
        check(page['kernels'] + page['ranges'] == cli['total'],
              f'search: {page["kernels"]} kernels + {page["ranges"]} ranges, as sightline-cli search: {cli["total"]}')
        check(page['api'] == 0 and page['matches'] == cli['total'], f'search: no API call is named so: {page["api"]}')
        check(sum(g['count'] for g in page['groups']) == cli['total'], 'search: the groups count every match')
        first, second = cli['matches'][0], cli['matches'][1]
        xdo('key', 'Return')
        s = app.wait(lambda t: t['timeline']['selected'] is not None, 10)
        if check(s is not None, 'search: Enter selects the first match'):
            s = app.settle()
            check(page['first']['start_ns'] == first['start_ns'], 'search: the first match is the CLI\'s first')
            check(s['timeline']['selected']['name'] == first['name'], 'search: the selected event is the first match')
            check(contains(s['timeline']['visible'], first), f'search: the view shows it: {s["timeline"]["visible"]} {first["start_ns"]}')
        sel = s['timeline']['selected'] if s else None
        xdo('key', 'F3')
        s = app.wait(lambda t: t['timeline']['selected'] is not None and t['timeline']['selected'] != sel, 10)
        if check(s is not None, 'search: F3 moves to the next match'):
            s = app.settle()
            check(s['timeline']['selected']['name'] == second['name'] and contains(s['timeline']['visible'], second),
                  'search: ... the second by time, in view')
        xdo('key', 'Home')   # the whole profile: the matches among the dimmed rest
        time.sleep(0.3)
        xdo('mousemove', '--window', s['xid'], 5, 5)
        s = app.settle()
        after = steady_saturation(app, ('nvtx', 'api'), os.path.join(OUT, 'search.png'))
        check(after < before * 0.7, f'search: the rows without matches are dimmed ({before:.0f} -> {after:.0f})')
    finally:
        app.close()


def test_welcome(tmp):
    app = App(tmp)
    try:
        s = app.wait(lambda s: s['page'] == 'welcome', 30)
        if check(s is not None, 'without a file the welcome page shows'):
            time.sleep(2)   # the first frame of a new window (software GL under Xvfb)
            screenshot(s['xid'], os.path.join(OUT, 'welcome.png'))
    finally:
        app.close()


# ---- preferences persist across restarts (issue 16) ---------------------------------

def summary_app(tmp, profile):
    """The app on @profile with the side panel showing its Summary page."""
    state = os.path.join(tmp, 'state', 'sightline')
    os.makedirs(state, exist_ok=True)
    with open(os.path.join(state, 'ui.ini'), 'w') as f:
        f.write('[window]\nside-panel-page=summary\nside-panel-shown=true\n')
    return App(tmp, profile, env={'XDG_STATE_HOME': os.path.join(tmp, 'state')})


def cli_json(*args):
    cli = os.path.join(os.path.dirname(os.path.dirname(APP)), 'sightline-cli')
    out = subprocess.run([cli, *map(str, args), '--json'], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def summary_ready(s, scope):
    p = s.get('panel', {}).get('summary') or {}
    return p.get('scope') == scope and not p.get('computing') and p.get('summary') is not None


def check_summary_numbers(summ, a, b, what):
    """The page's numbers are sightline-cli's for --range A B (the whole profile: no --range)."""
    rng = ['--range', a, b] if a is not None else []
    k = cli_json('kernels', *rng, REAL)
    top = [(r['name'], r['instances'], r['total_ns']) for r in k['kernels'][:len(summ['kernels']['top'])]]
    got = [(r['name'], r['instances'], r['total_ns']) for r in summ['kernels']['top']]
    check(summ['kernels']['total_ns'] == k['total_ns'] and got == top and len(got) == min(10, len(k['kernels'])),
          f'{what}: top kernels are `kernels --range` (total {summ["kernels"]["total_ns"]} vs {k["total_ns"]})')
    g = cli_json('gaps', *rng, REAL)
    want = [(d['device'], d['kernel_busy_ns'], d['copy_busy_ns'], round(d['utilization_pct'], 6)) for d in g['devices']]
    have = [(d['device'], d['kernel_busy_ns'], d['copy_busy_ns'], round(d['utilization_pct'], 6)) for d in summ['gpus']]
    check(want == have and want, f'{what}: utilization and copy time per GPU are `gaps --range`: {have}')
    longest = sorted((x['dur_ns'] for d in g['devices'] for x in d['gaps']), reverse=True)[:10]
    check([x['dur_ns'] for x in summ['gaps']] == longest, f'{what}: the largest idle gaps are `gaps --range`\'s')
    api = cli_json('api', *rng, REAL)
    check(summ['api']['total_ns'] == api['total_ns']
          and [r['name'] for r in summ['api']['top']] == [r['name'] for r in api['calls'][:10]],
          f'{what}: CUDA API totals are `api --range` ({summ["api"]["total_ns"]} vs {api["total_ns"]})')


def sql_durations(name, a, b):
    """Durations of the kernels named @name (short name) starting in [a, b), from SQL."""
    import sqlite3
    db = sqlite3.connect(f'file:{REAL}?mode=ro&immutable=1', uri=True)
    rows = db.execute('SELECT k.end - k.start FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName '
                      'WHERE s.value = ? AND k.start >= ? AND k.start < ? ORDER BY k.end - k.start', (name, a, b)).fetchall()
    db.close()
    return [r[0] for r in rows]


def check_histogram(app, s, a, b):
    h = s['panel']['summary']['histogram']
    durs = sql_durations(h['name'], a, b)
    check(h['n'] == len(durs) and h['n'] > 0, f'histogram of {h["name"]}: {h["n"]} instances, SQL {len(durs)}')
    counts = [sum(1 for d in durs if lo <= d < hi) for lo, hi, _ in h['bins']]
    check(counts == [c for _, _, c in h['bins']], 'histogram bins count what SQL counts in their edges')
    for p in (50, 90, 99):
        k = max(1, min(len(durs), math.ceil(p / 100 * len(durs) - 1e-9))) - 1
        check(h[f'p{p}_ns'] == durs[k], f'p{p} is the nearest rank (ORDER BY LIMIT 1 OFFSET {k}): {h[f"p{p}_ns"]}')


def drag_histogram(app, s):
    """Drags across the upper half of the bins; the state after."""
    h = s['panel']['summary']['histogram']
    bins = h['bins_x']
    first, last = len(bins) // 2, len(bins) - 1
    x1, x2, y = int(bins[first][0] + 2), int(bins[last][1] - 2), int(h['y'])
    xdo('mousemove', '--window', s['xid'], x1, y)
    time.sleep(0.2)
    xdo('mousedown', 1)
    for x in range(x1, x2 + 1, max(1, (x2 - x1) // 5)):
        xdo('mousemove', '--window', s['xid'], x, y)
        time.sleep(0.03)
    xdo('mousemove', '--window', s['xid'], x2, y)
    time.sleep(0.1)
    xdo('mouseup', 1)
    return app.wait(lambda t: t['panel']['summary']['histogram']['selected'] is not None, 10) and app.settle()


def test_summary(tmp):
    """Summary page: whole profile, then a Shift+drag selection, equal to sightline-cli; the histogram."""
    app = summary_app(tmp, REAL)
    try:
        s = app.wait(lambda s: complete(s) and summary_ready(s, 'whole'), 60)
        if not check(s is not None, 'the Summary page sums up the whole profile'):
            return
        summ = s['panel']['summary']['summary']
        check_summary_numbers(summ, None, None, 'whole profile')
        check_gap_click(app, s)
        s = app.settle()
        streams = track_rows(s)
        x1, y = body_point(s, 0.15, streams[0])
        x2, _ = body_point(s, 0.6, streams[0])
        xdo('mousemove', '--window', s['xid'], x1, y)
        xdo('keydown', 'shift', 'mousedown', 1)
        for x in range(x1, x2 + 1, max(1, (x2 - x1) // 6)):
            xdo('mousemove', '--window', s['xid'], x, y)
            time.sleep(0.03)
        xdo('mousemove', '--window', s['xid'], x2, y)
        time.sleep(0.1)
        xdo('mouseup', 1, 'keyup', 'shift')
        sel = app.wait(lambda t: t['timeline']['range'] is not None and summary_ready(t, 'selection')
                       and t['panel']['summary']['start_ns'] == t['timeline']['range'][0], 30)
        if not check(sel is not None, 'a Shift+drag selection scopes the summary to it'):
            return
        sel = app.settle()
        a, b = sel['timeline']['range']
        summ = sel['panel']['summary']['summary']
        check((summ['start_ns'], summ['end_ns']) == (a, b) and not summ['whole'], 'the summary covers the selection')
        check_summary_numbers(summ, a, b, 'selection')
        screenshot(sel['xid'], os.path.join(OUT, 'summary.png'))
        # a kernel name clicked in the page: its durations in the selection
        links = sel['panel']['summary']['kernel_links']
        if not check(links, 'the page lists kernel names to click'):
            return
        # (the first is shown before any click: the kernel taking the most time)
        link = links[1] if len(links) > 1 else links[0]
        check(sel['panel']['summary']['histogram']['name'] == links[0]['name'], 'the histogram starts on the top kernel')
        xdo('mousemove', '--window', sel['xid'], int(link['x']), int(link['y']), 'click', 1)
        picked = app.wait(lambda t: t['panel']['summary']['histogram']['name'] == link['name'], 10)
        check(picked is not None, 'clicking a kernel name shows its durations: ' + link['name'])
        h = app.wait(lambda t: t['panel']['summary']['histogram']['n'] > 0 and not t['panel']['summary']['histogram']['computing']
                     and t['panel']['summary']['histogram']['bins_x'], 30)
        if not check(h is not None, 'the histogram shows the selected kernel'):
            log(json.dumps(app.state()['panel']['summary']['histogram'])[:600])
            return
        h = app.settle()
        a, b = h['panel']['summary']['start_ns'], h['panel']['summary']['end_ns']
        check_histogram(app, h, a, b)
        d = drag_histogram(app, h)
        if check(d is not None, 'dragging across bins selects them'):
            hist = d['panel']['summary']['histogram']
            first, last = hist['selected']
            lo, hi = hist['bins'][first][0], hist['bins'][last][1]
            want = [x for x in sql_durations(hist['name'], a, b) if lo <= x < hi]
            check(hist['highlighted'] == len(want) == d['panel']['summary']['session_highlight_n'],
                  f'the highlight holds exactly the kernels of the dragged bins ({hist["highlighted"]}, SQL {len(want)})')
            shot = screenshot(d['xid'], os.path.join(OUT, 'histogram.png'))
            # F3 walks the highlighted kernels
            xdo('key', '--window', d['xid'], 'F3')
            f3 = app.wait(lambda t: t['timeline']['selected'] is not None and t['timeline']['selected']['kind'] == 'kernel', 10)
            check(f3 is not None and f3['timeline']['selected']['name'] == hist['name'], 'F3 selects a highlighted kernel')
            save_readme_shots(d, shot)
            # Outliers: the slowest 1 %
            xdo('mousemove', '--window', d['xid'], int(hist['outliers_x']), int(hist['outliers_y']), 'click', 1)
            durs = sql_durations(hist['name'], a, b)
            k = math.ceil(len(durs) / 100)
            o = app.wait(lambda t: t['panel']['summary']['histogram']['selected'] is not None
                         and t['panel']['summary']['histogram']['selected'][1] == len(hist['bins']) - 1
                         and t['panel']['summary']['histogram']['highlighted'] == k, 10)
            check(o is not None and o['panel']['summary']['session_highlight_n'] == k,
                  f'Outliers highlights the slowest 1 % ({k} of {len(durs)})')
    finally:
        app.close()


def save_readme_shots(s, shot):
    """With SL_README_SHOTS=1: data/screenshots/sightline-summary.png (the window) and
    sightline-histogram.png (the page's bottom) for the README."""
    dest = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'data', 'screenshots')
    if os.environ.get('SL_README_SHOTS') != '1' or not os.path.isdir(dest):
        return
    src = os.path.join(OUT, 'histogram.png')
    subprocess.run(['convert', src, os.path.join(dest, 'sightline-summary.png')], check=False)
    h = s['panel']['summary']['histogram']
    x0 = max(0, int(h['bins_x'][0][0]) - 60)
    y0 = max(0, int(h['y']) - 160)
    subprocess.run(['convert', src, '-crop', f'420x300+{x0}+{y0}', '+repage',
                    os.path.join(dest, 'sightline-histogram.png')], check=False)


# ---- the flame stack (issue 11) --------------------------------------------------------

def flame_pixels(app, s, name):
    """Coloured pixels of the flame stack's canvas in a screenshot."""
    img = screenshot(s['xid'], os.path.join(OUT, name + '.png'))
    x, y, w, h = (int(v) for v in app.state()['flame']['canvas'])
    return colored_pixels(img, x + 1, min(x + w, img[0]) - 1, y + 1, min(y + h, img[1]) - 1)


def flame_axis_aligned(s):
    """(the stack's time axis, the timeline's rows' axis) in window coordinates, and
    whether they are the same: from the label column's edge to the scrollbar."""
    tl, sc = timeline_geometry(s)
    body = (tl['x'] + tl['header_width'] / sc, (tl['width'] - tl['header_width']) / sc)
    axis = s['flame']['axis']
    return axis, body, abs(axis[0] - body[0]) <= 1 and abs(axis[1] - body[1]) <= 1


def check_flame_axis_follows(app):
    """In stack mode the axis is the timeline's, also after the label column is
    dragged wider (a fixed gutter was off by the scrollbar, and by any drag)."""
    s = app.settle()
    axis, body, same = flame_axis_aligned(s)
    check(s['flame']['mode'] == 'stack' and same, f"flame: the stack's time axis is the timeline's: {axis} vs {body}")
    tl, sc = timeline_geometry(s)
    x = int(tl['x'] + tl['header_width'] / sc)
    y = int(tl['y'] + (tl['body_y'] + 30) / sc)
    start, before = tl['label_width'], axis[0]
    drag(s, x, y, x + 80, y)
    # the column takes the asked width once the timeline has room for it (F9
    # hides the side panel)
    app.wait(lambda t: t['timeline']['label_width'] >= start + 79, 10)
    xdo('key', '--window', s['xid'], 'F9')
    w = app.wait(lambda t: t['timeline']['header_width'] / t['timeline']['scale'] >= start + 79
                 and flame_axis_aligned(t)[2], 10)
    axis, body, same = flame_axis_aligned(w or app.state())
    check(w is not None and axis[0] >= before - (s['timeline']['x'] - (w or s)['timeline']['x']) + 79,
          f"flame: with the label column 80 px wider the stack's axis moves with it: {axis} vs {body}")
    xdo('key', '--window', s['xid'], 'F9')


def test_flame(tmp):
    app = App(tmp, REAL)
    try:
        s = app.wait(complete)
        if not check(s is not None, 'flame: the profile opens'):
            return
        check(s.get('flame') is None, 'flame: hidden at first')
        xdo('key', 'ctrl+shift+f')
        f = app.wait(lambda t: t.get('flame') and t['flame']['ready'] and t['flame']['primitives'] > 0, 60)
        if not check(f is not None, 'flame: Ctrl+Shift+F shows the flame stack and it draws'):
            return
        f = app.settle()
        fl = f['flame']
        check(fl['mode'] == 'stack' and fl['nodes'] > 0, f"flame: stack mode with {fl['nodes']} boxes laid out")
        n = flame_pixels(app, f, 'flame-stack')
        check(n > 500, f'flame: the stack has coloured pixels ({n})')

        # the mode switch
        xdo('mousemove', '--window', f['xid'], *map(int, fl['flame_button']), 'click', 1)
        g = app.wait(lambda t: t['flame']['mode'] == 'flame' and t['flame']['primitives'] > 0, 10)
        if check(g is not None, 'flame: the mode switch shows the flame graph'):
            g = app.settle()
            check(g['flame']['nodes'] > 0, f"flame: {g['flame']['nodes']} merged paths")
            n = flame_pixels(app, g, 'flame-graph')
            check(n > 500, f'flame: the flame graph has coloured pixels ({n})')
            # a click zooms into a node: the breadcrumb grows
            depth = g['flame']['depth']
            check(len(g['flame']['boxes']) > 0, 'flame: a node to click')
            xdo('mousemove', '--window', g['xid'], *map(int, g['flame']['boxes'][0]), 'click', 1)
            z = app.wait(lambda t: t['flame']['depth'] > depth, 10)
            if check(z is not None, 'flame: clicking a node zooms into it (breadcrumb deeper)'):
                z = app.settle()
                check(z['flame']['breadcrumb'][-1] == z['flame']['selected'],
                      'flame: the breadcrumb ends at the clicked node: ' + str(z['flame']['breadcrumb']))
                # Show in Timeline selects an instance in the timeline
                xdo('mousemove', '--window', z['xid'], *map(int, z['flame']['show_button']), 'click', 1)
                sel = app.wait(lambda t: t['timeline']['selected'] is not None, 10)
                check(sel is not None, 'flame: Show in Timeline selects an instance in the timeline')
                # the event selected in the timeline is outlined in the graph: its node
                o = sel and app.wait(lambda t: z['flame']['selected'] in t['flame']['outlined'], 10)
                check(o is not None, f"flame: the graph outlines the node of the selected event "
                                     f"({z['flame']['selected']}): {(o or sel or {}).get('flame', {}).get('outlined')}")
                check_flame_menu(app, app.settle())

        # stack mode: a click zooms the shared visible range to the node
        s = app.settle()
        xdo('key', 'Home')
        s = app.settle()
        xdo('mousemove', '--window', s['xid'], *map(int, s['flame']['stack_button']), 'click', 1)
        st = app.wait(lambda t: t['flame']['mode'] == 'stack' and t['flame']['boxes'], 10)
        if check(st is not None, 'flame: back to stack mode'):
            st = app.settle()
            px_ns = st['timeline']['px_ns']
            xdo('mousemove', '--window', st['xid'], *map(int, st['flame']['boxes'][0]), 'click', 1)
            z = app.wait(lambda t: t['flame']['depth'] > st['flame']['depth']
                         and t['timeline']['px_ns'] < px_ns * 0.9, 10)
            check(z is not None, 'flame: clicking a stack node zooms the timeline to it (breadcrumb deeper)')
            # one selection: the clicked node is the timeline's and the details pane's
            # selected event, and the stack outlines it
            z = z and app.wait(lambda t: t['timeline']['selected'] is not None and t['flame']['outlined'], 10)
            check(z is not None and z['timeline']['selected']['name'] == z['flame']['selected']
                  and z['flame']['selected'] in z['flame']['outlined'] and z.get('details'),
                  f"flame: the clicked node is the selected event everywhere: "
                  f"{z and z['timeline']['selected']} / {z and z['flame']['outlined']}")
            # Ctrl+wheel over the stack zooms by the timeline's step (2x a notch)
            z = app.settle()
            if z['flame']['boxes']:
                xdo('mousemove', '--window', z['xid'], *map(int, z['flame']['boxes'][0]))
                time.sleep(0.3)
                before = app.settle()
                xdo('keydown', 'ctrl', 'click', 5, 'keyup', 'ctrl')
                w = app.wait(lambda t: visible_span(t) > visible_span(before) * 1.5, 10) and app.settle()
                ratio = visible_span(w) / visible_span(before) if w else 0
                check(w is not None and abs(ratio / 2 - 1) < 0.01,
                      f'flame: a Ctrl+wheel notch over the stack doubles the span, as in the timeline (got {ratio:.3f})')
        check_flame_axis_follows(app)
    finally:
        app.close()


# ---- the side panel's NVTX tree (issue 11, item 1) -----------------------------------

def aggregate_cli_tree(profile):
    """{path of (kind, name): [instances, cpu_ns, gpu_ns, kernels, first start_ns]} from
    `sightline-cli tree --json`, merged here: the independent route to the page's rows."""
    cli = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(APP))), 'sightline-cli')
    tree = json.loads(subprocess.run([cli, 'tree', '--json', profile], check=True,
                                     capture_output=True, text=True).stdout)
    out = {}

    def walk(node, path):
        p = path + ((node['kind'], node['name']),)
        a = out.setdefault(p, [0, 0, 0, 0, None])
        a[0] += 1
        a[4] = node['start_ns'] if a[4] is None else min(a[4], node['start_ns'])
        if node['kind'] == 'kernel':
            a[2] += node['end_ns'] - node['start_ns']
            a[3] += 1
            return 1
        a[1] += node['end_ns'] - node['start_ns']
        if node['gpu_start_ns'] is not None:
            a[2] += node['gpu_end_ns'] - node['gpu_start_ns']
        k = sum(walk(c, p) for c in node['children'])
        a[3] += k
        return k

    for root in tree['roots']:
        walk(root, ())
    return out


def tree_state(s):
    return (s or {}).get('panel', {}).get('tree') or {}


def tree_ready(s):
    t = tree_state(s)
    return complete(s) and t.get('roots') and not t.get('computing') and t.get('view') and t['view'][2] > 0


def find_path(agg, names):
    """The aggregated path whose names are @names (kinds as they come)."""
    for p, v in agg.items():
        if [n for _, n in p] == names:
            return p, v
    return None, None


def test_tree(tmp):
    """The NVTX page shows the aggregated tree; a selected row highlights its instances."""
    agg = aggregate_cli_tree(REAL)
    want_roots = sorted((p[0][1], v[0], v[1], v[2], v[3]) for p, v in agg.items() if len(p) == 1)
    # the side panel's page is remembered in XDG_STATE_HOME: a fresh one shows the NVTX page
    app = App(tmp, REAL, env={'XDG_STATE_HOME': os.path.join(tmp, 'state')})
    try:
        s = app.wait(lambda s: complete(s), 60)
        if not check(s is not None, 'tree: the profile opens'):
            return
        check(s['panel']['page'] == 'tree', 'tree: the side panel opens on the NVTX page')
        if not s['panel']['shown']:
            xdo('key', '--window', s['xid'], 'F9')
        s = app.wait(tree_ready, 60)
        if not check(s is not None, 'tree: the NVTX page computed its tree'):
            return
        t = tree_state(s)
        got_roots = sorted((r['name'], r['instances'], r['cpu_ns'], r['gpu_ns'], r['kernels']) for r in t['roots'])
        check(got_roots == want_roots,
              f'tree: {len(got_roots)} roots equal `tree --json` merged by path ({len(want_roots)})')
        check(t['kernels'] == sum(v[3] for p, v in agg.items() if len(p) == 1),
              f'tree: the page counts {t["kernels"]} kernels')
        check(t['rows'] > len(t['roots']), f'tree: {t["rows"]} rows shown, the roots opened')
        # zoomed in, so that showing an instance has to move the view
        span = s['timeline']['visible'][1] - s['timeline']['visible'][0]
        for _ in range(6):
            xdo('key', '--window', s['xid'], 'ctrl+equal')
        app.wait(lambda n: n['timeline']['visible'][1] - n['timeline']['visible'][0] < span / 8, 10)
        vx, vy, vw, vh = t['view']
        # the first row sits under the column headers
        xdo('mousemove', '--window', s['xid'], int(vx + 60), int(vy + 44), 'click', 1)
        s = app.wait(lambda s: tree_state(s).get('selected') and tree_state(s).get('highlighted'), 10)
        if not check(s is not None, 'tree: clicking the first row selects it and highlights its instances'):
            return
        check_selected_row(app, s, agg, 'click')
        # keyboard: the next row, then Enter walks to its next instance
        xdo('key', '--window', s['xid'], 'Down')
        s2 = app.wait(lambda n: tree_state(n).get('selected_path') != tree_state(s).get('selected_path')
                      and tree_state(n).get('highlighted'), 10)
        if check(s2 is not None, 'tree: Down selects the next row'):
            first = check_selected_row(app, s2, agg, 'keyboard')
            if first is not None and first[0] > 1:
                xdo('key', '--window', s2['xid'], 'Return')
                s3 = app.wait(lambda n: n['timeline']['selected'] != s2['timeline']['selected'], 10)
                check(s3 is not None, 'tree: Enter shows the next instance')
        shot = app.settle()
        screenshot(shot['xid'], os.path.join(OUT, 'tree.png'))
        check_tree_filter(app, shot)
    finally:
        app.close()


def check_selected_row(app, s, agg, how):
    """The selected row's path exists in the independent aggregation, the
    highlight holds its instances and the timeline shows the first."""
    t = tree_state(s)
    path, v = find_path(agg, t['selected_path'])
    if not check(path is not None, f'tree ({how}): the selected path {t["selected_path"]} is one of `tree --json`'):
        return None
    check(t['highlighted'] == v[0], f'tree ({how}): {t["highlighted"]} highlighted = {v[0]} instances')
    s = app.wait(lambda n: n['timeline']['selected'] is not None
                 and n['timeline']['visible'][0] <= v[4] <= n['timeline']['visible'][1], 10) or s
    lo, hi = s['timeline']['visible']
    check(lo <= v[4] <= hi, f'tree ({how}): the visible range [{lo}, {hi}] holds the first instance ({v[4]})')
    sel = s['timeline']['selected']
    kind = 'nvtx' if path[-1][0] == 'range' else 'kernel'
    check(sel is not None and sel['kind'] == kind, f'tree ({how}): the timeline selected a {kind}: {sel}')
    return v


def check_tree_filter(app, s):
    """Typing in the filter keeps matching rows and their ancestors only."""
    t = tree_state(s)
    ex, ey, ew, eh = t['entry']
    before = t['rows']
    xdo('mousemove', '--window', s['xid'], int(ex + ew / 2), int(ey + eh / 2), 'click', 1)
    xdo('type', '--window', s['xid'], '--delay', '30', 'COPY_')
    s = app.wait(lambda n: tree_state(n).get('filter') == 'COPY_', 10)
    if check(s is not None, 'tree: the filter takes the text'):
        s = app.settle()
        rows = tree_state(s)['rows']
        check(0 < rows < before, f'tree: the filter (any case) leaves {rows} of {before} rows')


# ---- the side panel itself (issue 11): F9, Ctrl+F, the page remembered ----------------

def test_panel(tmp):
    """F9 hides and shows the side panel; Ctrl+F opens its Search page; the page shown
    when the window closes is the one the next window shows (same XDG_STATE_HOME)."""
    app = App(tmp, REAL)
    try:
        s = app.wait(lambda t: complete(t) and t.get('panel') is not None)
        if not check(s is not None, 'panel: the profile opens with the side panel state'):
            return
        check(s['panel']['shown'] == 1 and s['panel']['page'] == 'tree',
              f"panel: shown on the NVTX page at first (shown {s['panel']['shown']}, page {s['panel']['page']})")
        xdo('key', '--window', s['xid'], 'F9')
        h = app.wait(lambda t: t['panel']['shown'] == 0, 10)
        check(h is not None, 'panel: F9 hides it')
        xdo('key', '--window', s['xid'], 'F9')
        v = app.wait(lambda t: t['panel']['shown'] == 1, 10)
        check(v is not None, 'panel: F9 shows it again')
        xdo('key', '--window', s['xid'], 'ctrl+f')
        f = app.wait(lambda t: t['panel']['page'] == 'search', 10)
        check(f is not None, 'panel: Ctrl+F shows the Search page')
        screenshot(s['xid'], os.path.join(OUT, 'panel-search.png'))
    finally:
        app.close()
    again = App(tmp, REAL)
    try:
        s = again.wait(lambda t: complete(t) and t.get('panel') is not None)
        check(s is not None and s['panel']['page'] == 'search',
              f"panel: the next window shows the page left last ({s and s['panel']['page']})")
    finally:
        again.close()


H100 = os.path.join(PROFILES, 'fuser-report2-h100.sqlite')
UNITS = {'ns': 1, 'µs': 1e3, 'ms': 1e6, 's': 1e9}


def visible_span(s):
    a, b = s['timeline']['visible']
    return b - a


def ruler_ticks(s):
    """The ruler's tick labels (the probe lists them, then the range's length)."""
    return s['timeline']['ruler']


def empty_profile(tmp):
    """A generated profile with every timed row deleted (sqlite3, not our code)."""
    import sqlite3
    path = os.path.join(tmp, 'empty.sqlite')
    subprocess.run([GEN, path, '--iterations', '1', '--kernels', '10', '--nvtx-depth', '1'],
                   check=True, stdout=subprocess.DEVNULL)
    db = sqlite3.connect(path)
    for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
        if t.startswith('CUPTI_ACTIVITY_KIND') or t in ('NVTX_EVENTS', 'OSRT_API', 'COMPOSITE_EVENTS', 'SCHED_EVENTS'):
            db.execute(f'DELETE FROM "{t}"')
    db.commit()
    db.close()
    return path


# ---- the CPU side and GPU metrics (issue 12, items 1-3) -------------------------------

def cpu_fixture(tmp):
    """pipit (kernels, CUDA API, CPU samples) with OS runtime calls (two levels, with
    call stacks) and three GPU metrics added: no real export has them."""
    path = os.path.join(tmp, 'cpu-metrics.sqlite')
    shutil.copy(os.path.join(PROFILES, 'pipit-saxpy-mpi-rank0.sqlite'), path)
    os.chmod(path, 0o644)
    db = sqlite3.connect(path)
    gtid, t0, t1 = db.execute('SELECT globalTid, MIN(start), MAX(start) FROM COMPOSITE_EVENTS').fetchone()
    base = db.execute('SELECT MAX(id) FROM StringIds').fetchone()[0] + 1
    names = ['pthread_cond_wait', 'ioctl', 'poll', 'osrt_leaf_fn', 'libc.so.6', 'worker_loop', 'libapp.so']
    sid = {n: base + i for i, n in enumerate(names)}
    db.executemany('INSERT INTO StringIds (id, value) VALUES (?, ?)', [(v, k) for k, v in sid.items()])
    step = (t1 - t0) // 120
    osrt, chains = [], []
    for k in range(120):
        s = t0 + k * step
        osrt.append((s, s + step // 2, gtid, sid['pthread_cond_wait' if k % 2 == 0 else 'ioctl'], 0, k + 1))
        chains += [(k + 1, 0, sid['osrt_leaf_fn'], sid['libc.so.6']), (k + 1, 1, sid['worker_loop'], sid['libapp.so'])]
        if k % 2 == 0:
            osrt.append((s + step // 8, s + step // 4, gtid, sid['poll'], 1, 1000 + k))
            chains.append((1000 + k, 0, sid['poll'], sid['libc.so.6']))
    db.executemany('INSERT INTO OSRT_API (start, end, eventClass, globalTid, nameId, returnValue, nestingLevel, '
                   'callchainId) VALUES (?, ?, 27, ?, ?, 0, ?, ?)', osrt)
    db.executemany('INSERT INTO OSRT_CALLCHAINS (id, stackDepth, symbol, module) VALUES (?, ?, ?, ?)', chains)
    db.execute('CREATE TABLE TARGET_INFO_GPU_METRICS (typeId INTEGER NOT NULL, sourceId INTEGER, typeName TEXT, '
               'metricId INTEGER NOT NULL, metricName TEXT)')
    db.execute('CREATE TABLE GPU_METRICS (timestamp INTEGER, typeId INTEGER NOT NULL, metricId INTEGER NOT NULL, '
               'value INTEGER NOT NULL)')
    metrics = [(1, 'SM Active [Throughput %]'), (2, 'DRAM Read Bandwidth [Throughput %]'),
               (3, 'PCIe Read Requests to BAR1 [Requests]')]
    db.executemany('INSERT INTO TARGET_INFO_GPU_METRICS VALUES (256, 0, \'GPU 0\', ?, ?)', metrics)
    rows = []
    for k in range(0, (t1 - t0) // 1000000):
        t = t0 + k * 1000000
        rows += [(t, 256, 1, int(50 + 50 * math.sin(k / 40))), (t, 256, 2, (k * 7) % 100), (t, 256, 3, (k * 37) % 1000)]
    db.executemany('INSERT INTO GPU_METRICS VALUES (?, ?, ?, ?)', rows)
    db.commit()
    db.close()
    return path


def check_wheel_zoom(app, s, notches):
    """Ctrl+wheel: each notch halves the visible span, anchored at the pointer."""
    tl, sc = timeline_geometry(s)
    px = int(tl['x'] + (tl['header_width'] + (tl['width'] - tl['header_width']) * 0.3) / sc)
    py = int(tl['y'] + (tl['body_y'] + 20) / sc)
    xdo('mousemove', '--window', s['xid'], px, py)
    time.sleep(0.3)
    before = app.settle()
    anchor = time_at(before, px)
    xdo('keydown', 'ctrl', 'click', '--repeat', notches, '--delay', 150, 4, 'keyup', 'ctrl')
    after = app.wait(lambda t: visible_span(t) < visible_span(before) / 2 ** notches * 1.1, 10) and app.settle()
    if check(after is not None, f'{notches} notches of Ctrl+wheel zoom in'):
        ratio = visible_span(before) / visible_span(after)
        check(abs(ratio / 2 ** notches - 1) < 0.01, f'{notches} notches divide the span by 2^{notches} (got {ratio:.3f})')
        moved = abs(time_at(after, px) - anchor) / after['timeline']['px_ns']
        check(moved <= 1.5, f'the time under the pointer stays there (moved {moved:.2f} px)')
    xdo('keydown', 'ctrl', 'click', '--repeat', 2, '--delay', 150, 5, 'keyup', 'ctrl')
    out = app.wait(lambda t: visible_span(t) > visible_span(after) * 3.9, 10) and app.settle()
    if check(out is not None, 'two notches down zoom out'):
        ratio = visible_span(out) / visible_span(after)
        check(abs(ratio / 4 - 1) < 0.01, f'two notches multiply the span by 4 (got {ratio:.3f})')


def check_ruler_units(s, what):
    ticks = ruler_ticks(s)
    units = {t.split(' ')[-1] for t in ticks}
    check(len(ticks) >= 2 and len(units) == 1, f'the ruler {what} uses one unit: {ticks}')


def check_range_after_z(app, s):
    """Drag a range on the ruler, Z: the range's length is on the ruler, and
    inside the range the colours are those of the view without it."""
    # no selected event: its outline would differ between the two screenshots compared below
    xdo('key', 'Escape')
    s = app.wait(lambda t: t['timeline']['selected'] is None and t['timeline']['range'] is None, 10) or app.settle()
    tl, sc = timeline_geometry(s)
    y = int(tl['y'] + (tl['minimap_height'] + 14) / sc)
    x1 = int(tl['x'] + (tl['header_width'] + (tl['width'] - tl['header_width']) * 0.25) / sc)
    x2 = int(tl['x'] + (tl['header_width'] + (tl['width'] - tl['header_width']) * 0.45) / sc)
    xdo('mousemove', '--window', s['xid'], x1, y, 'mousedown', 1)
    for x in range(x1, x2 + 1, 10):
        xdo('mousemove', '--window', s['xid'], x, y)
        time.sleep(0.02)
    xdo('mouseup', 1)
    sel = app.wait(lambda t: t['timeline']['range'] is not None, 10) and app.settle()
    if not check(sel is not None, 'dragging on the ruler selects a range'):
        return
    a, b = sel['timeline']['range']
    length = sel['timeline']['ruler_range'] or '?'
    check(length.split(' ')[-1] in UNITS and abs(float(length.split(' ')[0]) * UNITS[length.split(' ')[-1]] - (b - a)) <= 0.01 * (b - a),
          f'the ruler shows the range\'s length {length} for {b - a} ns')
    screenshot(s['xid'], os.path.join(OUT, 'rough-range.png'))
    xdo('key', 'z')
    z = app.wait(lambda t: abs(t['timeline']['t0'] - a) < 2 * t['timeline']['px_ns'], 10) and app.settle()
    if not check(z is not None, 'Z zooms to the range'):
        return
    check_ruler_units(z, 'after Z')
    time.sleep(0.5)   # the frame after the state settles (slow on a loaded machine)
    with_range = screenshot(s['xid'], os.path.join(OUT, 'rough-after-z.png'))
    xdo('key', 'Escape')
    clear = app.wait(lambda t: t['timeline']['range'] is None, 10) and app.settle()
    time.sleep(0.5)
    without = screenshot(s['xid'], os.path.join(OUT, 'rough-after-z-cleared.png'))
    if check(clear is not None, 'Escape clears the range'):
        body_y = int(tl['y'] + tl['body_y'] / sc) + 2
        x0 = int(tl['x'] + tl['header_width'] / sc) + 3
        x_end = int(tl['x'] + tl['width'] / sc) - 20
        differ = sum(1 for yy in range(body_y, body_y + 200, 3) for xx in range(x0, x_end, 3)
                     if pixel(with_range, xx, yy) != pixel(without, xx, yy))
        check(differ == 0, f'inside the selected range the colours are untouched ({differ} pixels differ)')


def check_narrow(app, s):
    """At 800x600 the timeline keeps >= 500 px; Ctrl+I and F9 bring the panes back one at a time."""
    xdo('windowsize', s['xid'], 800, 600)
    n = app.wait(lambda t: t['timeline']['width'] / t['timeline']['scale'] >= 500
                 and not t['panel']['details_shown'], 10)
    n = n and app.settle()
    if not check(n is not None, 'at 800x600 the details pane folds and the timeline keeps >= 500 px'):
        log('  state:', app.state() and app.state()['timeline']['width'])
        return
    screenshot(s['xid'], os.path.join(OUT, 'rough-800.png'))
    xdo('key', 'ctrl+i')
    d = app.wait(lambda t: t['panel']['details_shown'] and not t['panel']['shown'], 10) and app.settle()
    if check(d is not None, 'Ctrl+I shows the details pane, the side panel yields'):
        check(d['timeline']['width'] / d['timeline']['scale'] >= 300, 'the timeline still has 300 px beside the details')
        check(d['timeline']['header_width'] / d['timeline']['scale'] <= 150,
              f'the label column shrinks in a narrow timeline ({d["timeline"]["header_width"]} px)')
        screenshot(s['xid'], os.path.join(OUT, 'rough-800-details.png'))
    xdo('key', 'F9')
    p = app.wait(lambda t: t['panel']['shown'] and not t['panel']['details_shown'], 10) and app.settle()
    if check(p is not None, 'F9 shows the side panel, the details pane yields'):
        check(p['timeline']['width'] / p['timeline']['scale'] >= 300, 'the timeline still has 300 px beside the panel')
        screenshot(s['xid'], os.path.join(OUT, 'rough-800-panel.png'))


def test_rough_edges(tmp):
    app = App(tmp, H100)
    try:
        s = app.wait(complete)
        if not check(s is not None, 'the H100 profile opens'):
            return
        s = app.settle()
        check_ruler_units(s, 'of the whole profile')
        screenshot(s['xid'], os.path.join(OUT, 'rough-ruler.png'))
        check_wheel_zoom(app, s, 3)
        check_ruler_units(app.settle(), 'zoomed out again')
        xdo('key', 'Home')
        s = app.settle()
        # the longest kernel name in the file, selected, in the details pane
        sel = click_thin_kernel(app, s)
        if check(sel is not None, 'a kernel of the H100 profile is selected'):
            # the details pane fills in after the selection (lazy details): wait for it
            d = app.wait(lambda t: bool(t.get('detail_values')), 10) or app.settle()
            names = sql_kernel_names(H100)
            shown = d['detail_values'][0] if d['detail_values'] else ''
            check(shown in names, f'the details show the kernel\'s name as the file has it: {shown[:60]}')
            screenshot(s['xid'], os.path.join(OUT, 'rough-details.png'))
        check_range_after_z(app, app.settle())
        check_narrow(app, app.settle())
    finally:
        app.close()
    app = App(tmp, empty_profile(tmp))
    try:
        s = app.wait(complete)
        if check(s is not None, 'a profile without timed events opens'):
            s = app.settle()
            check(s['timeline']['ruler'] == ['No timed events: nothing to measure'],
                  f'its ruler says so instead of a 0-7 ns scale: {s["timeline"]["ruler"]}')
            screenshot(s['xid'], os.path.join(OUT, 'rough-empty.png'))
    finally:
        app.close()


# ---- issue 12 item 9: links in the details pane navigate ------------------------------

def detail_link(s, label):
    for link in s.get('detail_links', []):
        if link['label'] == label:
            return link
    return None


def test_links(tmp):
    """A kernel's "Launched by" link selects its API call and brings it into view
    (scrolling the rows too); Alt+Left returns to the kernel; the GPU rows show."""
    app = App(tmp, generate(tmp))
    try:
        s = app.wait(lambda s: complete(s) and track_rows(s))
        if not check(s is not None, 'links: the generated profile opens'):
            return
        kinds = s['timeline']['row_kinds']
        check(kinds['gpu-util'] == 2 and kinds['nvtx-projected'] >= 2,
              f'links: a utilization row per GPU and projected NVTX rows: {kinds}')
        sel = select_kernel(app, app.settle(), 'links-start')
        if not check(sel is not None, 'links: a kernel is selected by a click'):
            return
        kernel = sel['timeline']['selected']
        first = app.wait(lambda t: detail_link(t, 'Launched by') is not None, 10)
        if not check(first is not None, 'links: the details pane has a "Launched by" link'):
            return
        # the launch configuration arrives from a worker: its rows wait
        # above the link, so the link stays where the pointer aims
        s = app.wait(lambda t: launch_config_read(t) and detail_link(t, 'Launched by') is not None, 10)
        if not check(s is not None, 'links: the launch configuration is read'):
            return
        check(detail_link(s, 'Launched by') == detail_link(first, 'Launched by'),
              f'links: the link did not move when the launch configuration came in: '
              f'{detail_link(first, "Launched by")} -> {detail_link(s, "Launched by")}')
        want = detail(s, 'Launched by')
        link = detail_link(s, 'Launched by')
        # as a hand does: onto the link, a moment, then the click (GTK 4.8's
        # label takes the link under the pointer from motion events, so a
        # click warped straight onto it with no motion seen first is lost)
        x, y = int(link['x']), int(link['y'])
        xdo('mousemove', '--window', s['xid'], str(x - 3), str(y))
        time.sleep(0.2)
        xdo('mousemove', '--window', s['xid'], str(x), str(y))
        time.sleep(0.2)
        xdo('click', 1)
        s = app.wait(lambda t: t['timeline']['selected'] is not None and t['timeline']['selected']['kind'] == 'api', 10)
        if check(s is not None, 'links: clicking "Launched by" selects the API call'):
            api = s['timeline']['selected']
            check(api['name'] == want, f'links: the call selected is the one named: {api["name"]} == {want}')
            check(api['on_screen'] == 1, 'links: the call is brought into view (timeline scrolled to it)')
            check(s['timeline']['history_back'] == 1, 'links: following a link is a history step')
            screenshot(s['xid'], os.path.join(OUT, 'links-api.png'))
            xdo('key', '--window', s['xid'], 'alt+Left')
            back = app.wait(lambda t: t['timeline']['selected'] is not None and
                            t['timeline']['selected']['kind'] == 'kernel', 10)
            check(back is not None and back['timeline']['selected']['index'] == kernel['index'] and
                  back['timeline']['selected']['owner'] == kernel['owner'],
                  'links: Alt+Left returns to the kernel')
    finally:
        app.close()


def click_thin_kernel(app, s):
    """Clicks coloured columns of the stream rows (kernels 1 px wide) until a
    kernel with a long C++ name ("::") is selected, else any kernel."""
    img = screenshot(s['xid'], os.path.join(OUT, 'rough-kernels.png'))
    tl, sc = timeline_geometry(s)
    any_kernel = None   # (x, y) of the first kernel hit
    for r in track_rows(s):
        y = int(tl['y'] + (r['y'] + r['height'] / 2) / sc)
        for x in range(int(tl['x'] + tl['header_width'] / sc) + 2, int(tl['x'] + tl['width'] / sc) - 2):
            c = pixel(img, x, y)
            if max(c) - min(c) > 60:
                xdo('mousemove', '--window', s['xid'], x, y, 'click', 1)
                sel = app.wait(lambda t: t['timeline']['selected'] is not None
                               and t['timeline']['selected']['kind'] == 'kernel', 2)
                if sel is not None and '::' in sel['timeline']['selected']['name']:
                    return sel
                if sel is not None and any_kernel is None:
                    any_kernel = (x, y)
    if any_kernel is None:
        return None
    # no long name: select the first kernel found again (later clicks moved the selection)
    xdo('mousemove', '--window', s['xid'], any_kernel[0], any_kernel[1], 'click', 1)
    return app.wait(lambda t: t['timeline']['selected'] is not None and t['timeline']['selected']['kind'] == 'kernel', 10)


def sql_kernel_names(path):
    import sqlite3
    db = sqlite3.connect(path)
    names = set()
    for col in ('demangledName', 'shortName', 'mangledName'):
        names |= {r[0] for r in db.execute(f'SELECT s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k '
                                           f'JOIN StringIds s ON s.id = k.{col}')}
    db.close()
    return names


def row_by_key(s, key):
    for r in s['timeline']['rows']:
        if r['key'] == key:
            return r
    return None


def label_point(s, row):
    """Window coordinates of the middle of a row's label."""
    tl, sc = timeline_geometry(s)
    return int(tl['x'] + tl['header_width'] / sc / 2), int(tl['y'] + (row['y'] + row['height'] / 2) / sc)


def drag(s, x1, y1, x2, y2, steps=8):
    xdo('mousemove', '--window', s['xid'], x1, y1)
    time.sleep(0.2)
    xdo('mousedown', 1)
    for i in range(1, steps + 1):
        xdo('mousemove', '--window', s['xid'], x1 + (x2 - x1) * i // steps, y1 + (y2 - y1) * i // steps)
        time.sleep(0.04)
    time.sleep(0.1)
    xdo('mouseup', 1)


def row_layout(s):
    return json.loads(s['timeline']['row_layout'])


def shown_keys(s):
    return [r['key'] for r in s['timeline']['rows']]


def row_control_profile(tmp):
    profile = os.path.join(tmp, 'rows.sqlite')
    subprocess.run([GEN, profile, '--gpus', '4', '--streams', '3', '--processes', '3', '--threads', '3',
                    '--iterations', '4', '--kernels', '6000', '--nvtx-depth', '3', '--seed', '3'],
                   check=True, stdout=subprocess.DEVNULL)
    return profile


def check_row_edits(app, s):
    """Hide a stream (H over its label), pin another (P), move GPU 1 above GPU 0 by
    dragging its label; the state after, or None."""
    tl = s['timeline']
    streams = [r for r in tl['rows'] if r['kind'] == 'stream']
    hide, pin = streams[1], streams[2]
    x, y = label_point(s, hide)
    xdo('mousemove', '--window', s['xid'], x, y)
    time.sleep(0.3)
    xdo('key', '--window', s['xid'], 'h')
    h = app.wait(lambda t: row_by_key(t, hide['key']) is None, 10)
    if not check(h is not None and hide['key'] in row_layout(h)['hidden'],
                 f"rows: H over a label hides its row ({hide['key']})"):
        return None
    h = app.settle()
    pin = row_by_key(h, pin['key'])
    x, y = label_point(h, pin)
    xdo('mousemove', '--window', s['xid'], x, y)
    time.sleep(0.3)
    xdo('key', '--window', s['xid'], 'p')
    p = app.wait(lambda t: t['timeline']['band_height'] > 0, 10)
    if not check(p is not None, 'rows: P over a label pins its row'):
        return None
    p = app.settle()
    pr = row_by_key(p, pin['key'])
    check(pr['pinned'] and pr['y'] == p['timeline']['body_y'] and p['timeline']['band_height'] == pr['height'],
          f"rows: the pinned row sits under the ruler (y {pr['y']}, body_y {p['timeline']['body_y']})")
    gpus = [r for r in p['timeline']['rows'] if r['kind'] == 'gpu']
    x1, y1 = label_point(p, gpus[1])
    x2, y2 = label_point(p, gpus[0])
    drag(p, x1, y1, x2, y2)
    m = app.wait(lambda t: [r['key'] for r in t['timeline']['rows'] if r['kind'] == 'gpu'][:2] ==
                 [gpus[1]['key'], gpus[0]['key']], 10)
    check(m is not None and row_layout(m)['order'][gpus[1]['key']] < row_layout(m)['order'][gpus[0]['key']],
          f"rows: dragging {gpus[1]['key']}'s label onto {gpus[0]['key']} puts it above")
    return app.settle()


def check_scrolling(app, s):
    """The scrollbar's thumb dragged down scrolls; Page Down scrolls by a page."""
    tl, sc = timeline_geometry(s)
    if not check(tl['max_scroll'] > 0, f"scroll: the rows are taller than the view (max {tl['max_scroll']})"):
        return
    xdo('mousemove', '--window', s['xid'], int(tl['x'] + tl['width'] / sc / 2), int(tl['y'] + tl['height'] / sc - 30))
    time.sleep(0.2)
    before = s['timeline']['scroll_y']
    xdo('key', '--window', s['xid'], 'Next')
    n = app.wait(lambda t: t['timeline']['scroll_y'] != before, 10)
    if not check(n is not None, 'scroll: Page Down scrolls'):
        return
    t2 = n['timeline']
    row_h = round(22 * sc)
    page = t2['height'] - t2['body_y'] - t2['band_height'] - row_h
    want = min(before + page, t2['max_scroll'])
    check(abs(t2['scroll_y'] - want) < 1, f"scroll: Page Down scrolls a page ({before} -> {t2['scroll_y']}, want {want})")
    xdo('key', '--window', s['xid'], 'Prior')
    u = app.wait(lambda t: t['timeline']['scroll_y'] == before, 10)
    check(u is not None, 'scroll: Page Up scrolls back')
    # the thumb: a drag of 100 px moves the rows by 100 px times content / track
    x = int(tl['x'] + tl['width'] / sc + 5)
    y = int(tl['y'] + (tl['body_y'] + 15) / sc)
    drag(s, x, y, x, y + 100)
    d = app.wait(lambda t: t['timeline']['scroll_y'] > 0, 10)
    if not check(d is not None, 'scroll: dragging the scrollbar scrolls the rows'):
        return
    d = app.settle()['timeline']
    content = d['max_scroll'] + d['height'] - d['body_y']
    want = min(100 * sc * content / (d['height'] - d['body_y']), d['max_scroll'])
    check(abs(d['scroll_y'] - want) < 0.15 * want,
          f"scroll: the thumb follows the pointer (scrolled {d['scroll_y']:.0f}, about {want:.0f} expected)")
    while app.state()['timeline']['scroll_y'] > 0:
        xdo('key', '--window', s['xid'], 'Prior')
        time.sleep(0.2)


def check_label_edge(app, s):
    tl, sc = timeline_geometry(s)
    x = int(tl['x'] + tl['header_width'] / sc)
    y = int(tl['y'] + (tl['body_y'] + 200) / sc)
    start = tl['label_width']
    drag(s, x, y, x + 80, y)
    w = app.wait(lambda t: t['timeline']['label_width'] >= start + 79, 10)
    check(w is not None and abs(w['timeline']['label_width'] - (start + 80)) <= 1,
          f"labels: dragging the column's edge by 80 px widens it ({start} -> {w and w['timeline']['label_width']})")


def test_row_control(tmp):
    """Issue 12 items 5-7: hide, pin, reorder rows, kept for the same profile in the
    next window, reset; the scrollbar and Page Down; the label column's edge."""
    profile = row_control_profile(tmp)
    app = App(tmp, profile)
    try:
        s = app.wait(complete)
        if not check(s is not None, 'rows: the profile opens'):
            return
        s = app.settle()
        check_scrolling(app, s)
        xdo('key', '--window', s['xid'], 'Home')
        s = app.settle()
        xdo('mousemove', '--window', s['xid'], 5, 5)
        s = app.wait(lambda t: True) and app.settle()
        check_label_edge(app, s)
        s = app.settle()
        edited = check_row_edits(app, s)
        if edited is None:
            return
        saved = row_layout(edited)
        rows_dir = os.path.join(tmp, 'state', 'sightline', 'rows')
        end = time.monotonic() + 10
        while time.monotonic() < end and not (os.path.isdir(rows_dir) and os.listdir(rows_dir)):
            time.sleep(0.1)
        check(os.path.isdir(rows_dir) and len(os.listdir(rows_dir)) == 1,
              'rows: the layout is saved in the state dir, one file per profile')
        # the context menu of a label, for the README
        pinned = [r for r in edited['timeline']['rows'] if r['pinned']][0]
        x, y = label_point(edited, pinned)
        xdo('mousemove', '--window', edited['xid'], x, y)
        time.sleep(0.2)
        xdo('click', 3)
        time.sleep(0.8)
        # the menu is a window of its own: the screen's pixels
        subprocess.run(['import', '-window', 'root', os.path.join(OUT, 'row-control.png')], check=False)
        xdo('key', 'Escape')
        time.sleep(0.3)
    finally:
        app.close()
    again = App(tmp, profile)
    try:
        s = again.wait(lambda t: complete(t) and json.loads(t['timeline']['row_layout']) == saved, 20)
        if not check(s is not None, 'rows: the same profile opens with the layout kept'):
            return
        s = again.settle()
        check(s['timeline']['band_height'] > 0 and not [k for k in saved['hidden'] if k in shown_keys(s)],
              'rows: reopened, the pinned row is in the band and the hidden one hidden')
        check(abs(s['timeline']['label_width'] - edited['timeline']['label_width']) <= 1,
              f"labels: the column's width is remembered ({s['timeline']['label_width']})")
        # Reset Row Layout from a row's context menu: its last entry (the menu opens
        # on its first; Up wraps around to the last)
        row = s['timeline']['rows'][len(s['timeline']['rows']) // 2]
        x, y = label_point(s, row)
        xdo('mousemove', '--window', s['xid'], x, y)
        time.sleep(0.2)
        xdo('click', 3)
        time.sleep(0.6)
        xdo('key', 'Up')
        time.sleep(0.2)
        xdo('key', 'Return')
        r = again.wait(lambda t: json.loads(t['timeline']['row_layout']) == {'version': 1, 'hidden': [], 'pinned': [], 'order': {}}, 10)
        check(r is not None and r['timeline']['band_height'] == 0, 'rows: Reset Row Layout brings the default back')
    finally:
        again.close()


def cpu_ready(s):
    return complete(s) and s['timeline']['row_kinds'].get('samples', 0) > 0


def marked_pixels(img, x0, x1, y0, y1):
    """Pixels that are neither the white background nor a light grid line: pale
    pastel events (deep OS runtime levels, a flat counter's band) count too."""
    n = 0
    for y in range(y0, y1):
        for x in range(x0, x1):
            r, g, b = pixel(img, x, y)
            if min(r, g, b) < 200 or max(r, g, b) - min(r, g, b) > 8:
                n += 1
    return n


def drawn_rows(s, img, kinds):
    """The rows of @kinds visible in @s with coloured pixels in @img, and all of them."""
    tl, sc = timeline_geometry(s)
    x0, x1 = int(tl['x'] + tl['header_width'] / sc) + 1, int(tl['x'] + tl['width'] / sc) - 1
    rows, drawn = track_rows(s, kinds), []
    for r in rows:
        y0 = int(tl['y'] + r['y'] / sc) + 2
        y1 = int(tl['y'] + (r['y'] + r['height']) / sc) - 2
        if y1 <= img[1] and marked_pixels(img, x0, x1, y0, y1) > 3:
            drawn.append(r)
    return drawn, rows


def wait_drawn(s, name, kinds, tries=40):
    """Screenshots until every visible row of @kinds has coloured pixels: the state
    says the new model is in before its first frame is out (slow under ASan)."""
    for _ in range(tries):
        img = screenshot(s['xid'], os.path.join(OUT, name + '.png'))
        drawn, rows = drawn_rows(s, img, kinds)
        if rows and len(drawn) == len(rows):
            break
        time.sleep(0.5)
    missing = [(r['row'], r['kind'], r['y']) for r in rows if r not in drawn]
    check(rows and not missing, f'{name}: {len(drawn)} of {len(rows)} visible {kinds} rows are drawn; not {missing}')


def sql_one(path, query, *args):
    db = sqlite3.connect(f'file:{path}?mode=ro', uri=True)
    try:
        return db.execute(query, args).fetchone()
    finally:
        db.close()


def click_row(app, s, kind, frac, want):
    """Clicks rows of @kind at fraction @frac of the body until an event of kind @want is
    selected; (state, the time clicked) or (None, None)."""
    for r in track_rows(s, (kind,)):
        x, y = body_point(s, frac, r)
        xdo('mousemove', '--window', s['xid'], x, y, 'click', 1)
        sel = app.wait(lambda t: t['timeline']['selected'] is not None and t['timeline']['selected']['kind'] == want, 3)
        if sel is not None:
            return app.settle(), time_at(s, x)
    return None, None


def check_sample_click(app, s, profile, name):
    """A click on a sample selects the sample SQL finds nearest, and the details show its stack."""
    sel, t = click_row(app, s, 'samples', 0.5, 'sample')
    if not check(sel is not None, f'{name}: a click on the CPU samples selects a sample'):
        return
    ev = sel['timeline']['selected']
    tol = 4 * sel['timeline']['px_ns'] * sel['timeline']['scale']
    near = sql_one(profile, 'SELECT c.id, c.start FROM COMPOSITE_EVENTS c WHERE c.start BETWEEN ? AND ? '
                   'ORDER BY abs(c.start - ?) LIMIT 1', int(t - tol), int(t + tol), int(t))
    frames = sql_one(profile, 'SELECT COUNT(*), (SELECT s.value FROM SAMPLING_CALLCHAINS k JOIN StringIds s '
                     'ON s.id = k.symbol WHERE k.id = ?1 AND k.stackDepth = 0) FROM SAMPLING_CALLCHAINS '
                     'WHERE id = ?1', near[0]) if near else (0, None)
    stack = detail(sel, 'Call stack') or ''
    check(near is not None and ev['name'] == frames[1],
          f'{name}: the sample is named by its leaf frame as in SQL: {ev["name"]!r} vs {frames[1]!r}')
    check(stack.split('\n')[0].startswith(frames[1] or '?') and len(stack.split('\n')) == min(frames[0], 32),
          f'{name}: the details show its {frames[0]}-frame call stack, leaf first')
    check(detail(sel, 'State') == 'Running', f'{name}: and its thread state: {detail(sel, "State")}')


def test_cpu_generated(tmp):
    """sightline-gen's OS runtime calls, CPU samples and GPU metrics: a row per thread and
    nesting level, per sampled thread and per counter, as SQL counts them."""
    profile = os.path.join(tmp, 'cpu-gen.sqlite')
    subprocess.run([GEN, profile, '--gpus', '1', '--streams', '2', '--processes', '1', '--threads', '2',
                    '--iterations', '6', '--kernels', '8000', '--nvtx-depth', '2', '--osrt', '400',
                    '--cpu-samples', '20000', '--gpu-metrics', '2000', '--seed', '5'],
                   check=True, stdout=subprocess.DEVNULL)
    app = App(tmp, profile)
    try:
        s = app.wait(cpu_ready)
        if not check(s is not None, 'generated: CPU rows appear'):
            return
        s = app.settle()
        kinds = s['timeline']['row_kinds']
        want = {'osrt': sql_one(profile, 'SELECT COUNT(*) FROM (SELECT DISTINCT globalTid, nestingLevel FROM OSRT_API)')[0],
                'samples': sql_one(profile, 'SELECT COUNT(DISTINCT globalTid) FROM COMPOSITE_EVENTS')[0],
                'metric': sql_one(profile, 'SELECT COUNT(*) FROM (SELECT DISTINCT typeId, metricId FROM GPU_METRICS)')[0]}
        check(all(kinds[k] == v for k, v in want.items()), f'generated: rows {kinds} as SQL counts {want}')
        wait_drawn(s, 'cpu-generated', ('samples', 'osrt', 'metric', 'stream'))
    finally:
        app.close()


def test_cpu_rows(tmp):
    """CPU sample rows on jacc (CPU sampling only); OS runtime and GPU metric rows on pipit
    with both added; a sample's stack and a counter's value in the details."""
    jacc = os.path.join(PROFILES, 'jacc-cg-cpu-sampling-only.sqlite')
    if not os.path.exists(jacc):
        log('# skip: no', jacc)
        return
    app = App(tmp, jacc)
    try:
        s = app.wait(cpu_ready)
        if check(s is not None, 'jacc: CPU sample rows appear after the profile'):
            s = app.settle()
            n = sql_one(jacc, 'SELECT COUNT(DISTINCT globalTid) FROM COMPOSITE_EVENTS')[0]
            kinds = s['timeline']['row_kinds']
            check(kinds['samples'] == n and kinds['cpu-thread'] == n,
                  f'jacc: a thread group and a samples row per sampled thread ({n}): {kinds}')
            check(s['load_bar']['state'] == 'hidden', 'jacc: the load bar is gone')
            wait_drawn(s, 'cpu-jacc', ('samples',))
            check_sample_click(app, s, jacc, 'jacc')
    finally:
        app.close()
    test_cpu_generated(tmp)
    profile = cpu_fixture(tmp)
    app = App(tmp, profile)
    try:
        s = app.wait(cpu_ready)
        if not check(s is not None, 'fixture: CPU rows appear'):
            return
        s = app.settle()
        kinds = s['timeline']['row_kinds']
        check(kinds['osrt'] == 2 and kinds['metric'] == 3 and kinds['samples'] == 1,
              f'fixture: two OS runtime levels, three metric rows, a samples row: {kinds}')
        rows = [r for r in s['timeline']['rows'] if r['kind'] == 'osrt']
        n_osrt = sql_one(profile, 'SELECT COUNT(*) FROM OSRT_API WHERE nestingLevel = 0')[0]
        check(rows and rows[0]['events'] == n_osrt, f'fixture: the first OS runtime row holds the {n_osrt} outer calls')
        wait_drawn(s, 'cpu-fixture', ('metric', 'osrt', 'samples'))
        sel, t = click_row(app, s, 'metric', 0.5, 'metric')
        if check(sel is not None, 'fixture: a click on a metric row selects its sample'):
            v = sql_one(profile, 'SELECT value FROM GPU_METRICS WHERE metricId = 1 AND timestamp <= ? '
                        'ORDER BY timestamp DESC LIMIT 1', int(t))
            check(v is not None and detail(sel, 'Value') == f'{float(v[0]):.1f} %',
                  f'fixture: the details show the value in effect there: {detail(sel, "Value")} vs SQL {v}')
        sel, t = click_row(app, s, 'osrt', 0.5, 'osrt')
        if check(sel is not None, 'fixture: a click on an OS runtime row selects a call'):
            stack = detail(sel, 'Call stack') or ''
            check(sel['timeline']['selected']['name'] in ('pthread_cond_wait', 'ioctl')
                  and stack.startswith('osrt_leaf_fn — libc.so.6\nworker_loop'),
                  f'fixture: the call and its stack in the details: {stack!r}')
    finally:
        app.close()


def test_cpu_summary(tmp):
    """The Summary page's top sampled functions are sightline-cli cpu's.  (The idle gaps'
    "CPU stacks during this GPU gap" expanders are only looked at in screenshots.)"""
    profile = os.path.join(tmp, 'cpu-gen.sqlite')
    subprocess.run([GEN, profile, '--gpus', '1', '--streams', '2', '--processes', '1', '--threads', '2',
                    '--iterations', '6', '--kernels', '8000', '--cpu-samples', '20000', '--seed', '5'],
                   check=True, stdout=subprocess.DEVNULL)
    app = summary_app(tmp, profile)
    try:
        s = app.wait(lambda s: cpu_ready(s) and summary_ready(s, 'whole') and s['panel']['summary'].get('cpu'))
        if not check(s is not None, 'summary: a CPU samples section once the samples are in'):
            return
        cpu = s['panel']['summary']['cpu']
        want = cli_json('cpu', profile, '--limit', 10)
        got = [(f['name'], f['self'], f['total']) for f in cpu['functions']]
        check(cpu['samples'] == want['samples'] and
              got == [(f['name'], f['self'], f['total']) for f in want['functions']],
              f'summary: {cpu["samples"]} samples and the top functions as sightline-cli cpu: {got[:3]}')
    finally:
        app.close()



def compare_pair(tmp):
    """A and B from one seed; B with flash_fwd_kernel 30 % slower (sl-gen), softmax_warp_forward's
    rows deleted and reduce_kernel renamed (patched here with sqlite3)."""
    a, b = os.path.join(tmp, 'A.sqlite'), os.path.join(tmp, 'B.sqlite')
    common = ['--iterations', '8', '--kernels', '20000', '--nvtx-depth', '3', '--seed', '3']
    subprocess.run([GEN, a, *common], check=True, stdout=subprocess.DEVNULL)
    subprocess.run([GEN, b, *common, '--slow-kernel', 'flash_fwd_kernel=1.3'], check=True, stdout=subprocess.DEVNULL)
    db = sqlite3.connect(b)
    sid = lambda n: db.execute('SELECT id FROM StringIds WHERE value = ?', (n,)).fetchone()[0]
    db.execute('DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE shortName = ?', (sid('softmax_warp_forward'),))
    new = db.execute('SELECT max(id) + 1 FROM StringIds').fetchone()[0]
    db.execute('INSERT INTO StringIds (id, value) VALUES (?, ?)', (new, 'reduce_kernel_v2'))
    old = sid('reduce_kernel')
    for col in ('shortName', 'demangledName', 'mangledName'):
        db.execute(f'UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET {col} = ? WHERE {col} = ?', (new, old))
    db.commit()
    db.close()
    return a, b


def compare_state(app):
    try:
        with open(app.state_path + '.compare') as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def wait_compare(app, pred, timeout=90.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        s = compare_state(app)
        if s is not None and pred(s):
            return s
        if app.proc.poll() is not None:
            return None
        time.sleep(0.1)
    return None


def test_compare_window(tmp):
    a, b = compare_pair(tmp)
    cli = cli_json('compare', a, b)
    app = App(tmp, '--compare', a, b)
    try:
        s = wait_compare(app, lambda t: t['page'] == 'compare' and 'timelines' in t)
        if not check(s is not None, 'sightline --compare A B shows the comparison'):
            return
        check(s['basis'] == cli['basis'], f"basis {s['basis']} as the CLI's {cli['basis']}")
        check(s['step_median_ns'] == cli['step']['median_ns'], f"step medians {s['step_median_ns']} as the CLI's")
        mine = sorted((k['name'], k['status']) for k in s['kernels'])
        theirs = sorted((k['name'], k['status']) for k in cli['kernels'])
        check(mine == theirs, f'the diff rows (name, status) equal `sightline-cli compare --json` ({len(mine)} rows)')
        planted = {k['name']: k['status'] for k in s['kernels']}
        check(planted.get('flash_fwd_kernel') == 'slower' and planted.get('softmax_warp_forward') == 'removed'
              and planted.get('reduce_kernel') == 'removed' and planted.get('reduce_kernel_v2') == 'added',
              'the planted changes: slower, removed, renamed (removed + added)')
        slower = sql_one(b, 'SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName '
                            'WHERE s.value = ?', 'flash_fwd_kernel')[0]
        check(s['timelines'][1]['outlined'] == slower, f"B outlines every slower kernel ({slower} by SQL)")
        # the histograms are counted in a worker after the selection: wait for them
        h = wait_compare(app, lambda t: t.get('histogram_series') == 2, 30)
        check(h is not None, 'the selected kernel has one histogram per profile')
        check(s['strip_in_view'], 'the iteration strip plot is in view without scrolling (1400x900)')
        check_outlines_in_view(s, b)
        for t, path in zip(s['timelines'], (a, b)):
            check_iteration_name(t, path)
        ta, tb = s['timelines']
        check(tb['visible'][0] - ta['visible'][0] == s['offset_ns'] and
              tb['visible'][1] - tb['visible'][0] == ta['visible'][1] - ta['visible'][0],
              'B shows what A shows, shifted by the alignment offset')
        # Ctrl+wheel over A zooms it; B follows
        px = int(ta['x'] + (ta['header_width'] + (ta['width'] - ta['header_width']) * 0.4) / ta['scale'])
        py = int(ta['y'] + (ta['body_y'] + 20) / ta['scale'])
        span = ta['visible'][1] - ta['visible'][0]
        xdo('mousemove', '--window', s['xid'], px, py)
        time.sleep(0.3)
        xdo('keydown', 'ctrl', 'click', '--repeat', 2, '--delay', 150, 4, 'keyup', 'ctrl')
        z = wait_compare(app, lambda t: t['timelines'][0]['visible'][1] - t['timelines'][0]['visible'][0] < span / 3, 10)
        if check(z is not None, 'Ctrl+wheel zooms timeline A'):
            time.sleep(0.5)
            z = compare_state(app)
            za, zb = z['timelines']
            check(zb['visible'][1] - zb['visible'][0] == za['visible'][1] - za['visible'][0] and
                  zb['visible'][0] - za['visible'][0] == z['offset_ns'],
                  f"timeline B follows A's zoom ({za['visible']} / {zb['visible']})")
        shot = os.path.join(OUT, 'compare-window.png')
        screenshot(s['xid'], shot)
        log('# screenshot', shot)
    finally:
        app.close()


RANKS_N, RANKS_LATE, RANKS_STEP, RANKS_LATE_NS, RANKS_OFFSET = 4, 2, 3, 2500000, 1700000
RANKS_SHIFT = 7000000   # rank 3's capture clock reads this much later than the others'


def shift_capture_clock(path, ns):
    """Every timestamp of @path and its capture clock at the session start moved by @ns:
    the same moments on another clock, which alignment must undo."""
    db = sqlite3.connect(path)
    for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
        cols = [c[1] for c in db.execute(f'PRAGMA table_info({table})')]
        for col in cols:
            if col in ('start', 'end', 'systemClockNs'):
                db.execute(f'UPDATE {table} SET "{col}" = "{col}" + ? WHERE "{col}" IS NOT NULL', (ns,))
    db.commit()
    db.close()


def ranks_state(app, pred, timeout=90.0):
    path = app.state_path + '.ranks'
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with open(path) as f:
                s = json.load(f)
            if pred(s):
                return s
        except (OSError, ValueError):
            pass
        if app.proc.poll() is not None:
            return None
        time.sleep(0.1)
    return None


def rank_x(r, t):
    tl = r['timeline']
    return tl['x'] + tl['header_width'] + (t - tl['t0']) / tl['px_ns']


def test_merged_ranks(tmp):
    """sightline --merge over 4 generated ranks (sessions started RANKS_OFFSET apart, rank 2's
    step 3 late, rank 3's capture clock shifted) and a bad file: one group per rank, the bad
    file reported, the same step at the same screen x, the heat map's stragglers as
    sightline-cli ranks --json, and a click on the straggler cell zooms every rank to it."""
    base = 1779630000000000000
    paths = []
    for r in range(RANKS_N):
        p = os.path.join(tmp, f'job-rank{r}.sqlite')
        late = ['--late-step', f'{RANKS_STEP}:{RANKS_LATE_NS}'] if r == RANKS_LATE else []
        subprocess.run([GEN, p, '--gpus', '1', '--kernels', '3000', '--nccl', '--gap-ns', '5000000', '--rank', str(r),
                        '--session-start-ns', str(base + r * RANKS_OFFSET), *late], check=True, stdout=subprocess.DEVNULL)
        paths.append(p)
    shift_capture_clock(paths[3], RANKS_SHIFT)
    bad = os.path.join(tmp, 'broken-rank.sqlite')
    with open(bad, 'w') as f:
        f.write('not a profile\n')
    cli = os.path.join(os.path.dirname(os.path.dirname(APP)), 'sightline-cli')
    want = json.loads(subprocess.run([cli, 'ranks', '--json', *paths], check=True, capture_output=True, text=True).stdout)
    app = App(tmp, '--merge', paths[0], paths[1], bad, paths[2], paths[3])
    try:
        done = lambda s: all(r['state'] in ('ready', 'failed') for r in s['ranks']) and s['heatmap'] is not None
        s = ranks_state(app, lambda s: done(s) and all(r.get('timeline', {}).get('mapped') for r in s['ranks']
                                                        if r['state'] == 'ready'))
        if not check(s is not None, 'ranks: the window shows the files loaded'):
            return
        s = ranks_state(app, lambda s: True)
        by_name = {r['name']: r for r in s['ranks']}
        check(by_name['broken-rank.sqlite']['state'] == 'failed' and 'broken-rank.sqlite' in by_name['broken-rank.sqlite']['status'],
              f"ranks: the bad file is reported by name: {by_name['broken-rank.sqlite']['status']!r}")
        ready = [by_name[f'job-rank{r}.sqlite'] for r in range(RANKS_N)]
        check(all(r['state'] == 'ready' for r in ready), 'ranks: the other files open')
        check([r['group']['title'] for r in ready] == [f'Rank {r} · job-rank{r}.sqlite' for r in range(RANKS_N)]
              and all(r['group']['gpus'] == 1 and r['group']['expanded'] for r in ready),
              f"ranks: a header per rank over its rows: {[r['group'] for r in ready]}")
        check([r['offset_ns'] for r in ready] == [r * RANKS_OFFSET for r in range(RANKS_N)],
              f"ranks: offsets from the session starts: {[r['offset_ns'] for r in ready]}")
        # the same step (its NVTX range, by SQL) at the same x in every rank's timeline
        xs = [rank_x(r, sql_one(p, "SELECT start FROM NVTX_EVENTS WHERE text = 'iteration_6'")[0])
              for r, p in zip(ready, paths)]
        check(max(xs) - min(xs) <= 1.0, f'ranks: iteration_6 starts at the same x in every rank: {xs}')
        # one timeline: one ruler out of the scroll, the ranks' own headers hidden, each as tall
        # as its rows, stacked in the one scroll area, one label width, the ruler over their bodies
        tls = [r['timeline'] for r in ready]
        ru = s['ruler']
        check(ru['mapped'] and not ru['in_scroller'], f'ranks: one ruler, outside the scroll: {ru}')
        check(all(not t['show_header'] and t['body_y'] == 0 and t['in_scroller'] for t in tls),
              f"ranks: no per-rank ruler or minimap, all in one scroll: {[(t['show_header'], t['body_y']) for t in tls]}")
        check(all(abs(t['height'] - t['rows_height']) <= 1 for t in tls),
              f"ranks: each timeline as tall as its rows: {[(t['height'], t['rows_height']) for t in tls]}")
        check(all(a['y'] + a['height'] <= b['y'] for a, b in zip(tls, tls[1:])),
              f"ranks: the rank blocks stacked top-down: {[(t['y'], t['height']) for t in tls]}")
        check(len({t['header_width'] for t in tls}) == 1 and len({t['x'] for t in tls}) == 1,
              f"ranks: one label column width: {[(t['x'], t['header_width']) for t in tls]}")
        check(abs(ru['body']['x'] - (tls[0]['x'] + tls[0]['header_width'])) <= 1
              and ru['job_start'] == tls[0]['job_start'] and ru['job_end'] == tls[0]['job_end'],
              f"ranks: the ruler spans the bodies' x and job time: {ru} vs {tls[0]}")
        # Shift+drag in one rank's rows selects a range; every rank shows it at the same job time
        tl = tls[0]
        body_x = tl['x'] + tl['header_width']
        x1, x2 = int(body_x + 0.3 * (tl['width'] - tl['header_width'])), int(body_x + 0.6 * (tl['width'] - tl['header_width']))
        y = int(tl['y'] + tl['height'] / 2)
        xdo('mousemove', '--window', s['xid'], x1, y)
        xdo('keydown', 'shift', 'mousedown', 1)
        for x in range(x1, x2 + 1, max(1, (x2 - x1) // 6)):
            xdo('mousemove', '--window', s['xid'], x, y)
            time.sleep(0.03)
        xdo('mousemove', '--window', s['xid'], x2, y)
        time.sleep(0.1)
        xdo('mouseup', 1, 'keyup', 'shift')
        # the state may be written mid-drag (a slow build): wait for the release's range
        job_at = lambda x: tl['job_start'] + (x - body_x) * tl['px_ns']
        sels = lambda s: [(r['timeline'].get('selected_job_start'), r['timeline'].get('selected_job_end'))
                          for r in s['ranks'] if r['state'] == 'ready']
        near = lambda g: (len(set(g)) == 1 and None not in g[0] and abs(g[0][0] - job_at(x1)) <= 3 * tl['px_ns']
                          and abs(g[0][1] - job_at(x2)) <= 3 * tl['px_ns'])
        sel = ranks_state(app, lambda s: near(sels(s)), timeout=10)
        got = sels(sel if sel is not None else ranks_state(app, lambda s: True))
        check(sel is not None,
              f'ranks: every rank selects the dragged job time [{job_at(x1):.0f}, {job_at(x2):.0f}]: {got}')
        h = s['heatmap']
        got = [None if st is None else (st['rank'], st['late_ns']) for st in h['stragglers']]
        exp = [None if it['straggler'] is None else (it['straggler']['rank'], it['straggler']['late_ns'])
               for it in want['iterations']]
        check(got == exp and got[RANKS_STEP] == (RANKS_LATE, RANKS_LATE_NS),
              f'ranks: the heat map stragglers are sightline-cli ranks\': {got} vs {exp}')
        row = next(i for i, hr in enumerate(h['rows']) if hr['rank'] == RANKS_LATE)
        cell = h['rows'][row]['cells'][RANKS_STEP]
        xdo('mousemove', '--window', s['xid'], int(cell['x']), int(cell['y']))
        xdo('click', 1)
        steps = [next(st for st in wr['steps'] if st and st['index'] == RANKS_STEP) for wr in want['ranks']]
        a, b = min(st['start_ns'] for st in steps), max(st['end_ns'] for st in steps)
        zoomed = lambda s: all(r['timeline']['job_start'] <= a and r['timeline']['job_end'] >= b and
                               r['timeline']['job_end'] - r['timeline']['job_start'] < 2 * (b - a)
                               for r in s['ranks'] if r['state'] == 'ready')
        z = ranks_state(app, zoomed, timeout=10)
        check(z is not None, f'ranks: a click on the straggler cell zooms every rank to step {RANKS_STEP} [{a}, {b}]')
        if z is not None:
            zr = [r for r in z['ranks'] if r['state'] == 'ready']
            check(len({r['timeline']['job_start'] for r in zr}) == 1, 'ranks: every rank shows the same job time')
        time.sleep(0.5)
        shot = os.path.join(OUT, 'ranks-heatmap.png')
        screenshot(s['xid'], shot)
        dest = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'data', 'screenshots')
        if os.environ.get('SL_README_SHOTS') == '1' and os.path.isdir(dest):   # as save_readme_shots
            subprocess.run(['convert', shot, os.path.join(dest, 'ranks-heatmap.png')], check=False)
    finally:
        app.close()


def export_state(app, pred, timeout=30.0):
    return app.wait(lambda s: s.get('export') is not None and pred(s['export']), timeout)


def export_to(app, path, keys=('Return',)):
    """Types @path into the dialog's destination (Alt+T) and presses @keys."""
    xdo('key', 'alt+t', 'ctrl+a')
    xdo('type', '--delay', 20, path)
    if not check(export_state(app, lambda e: e['destination'] == path, 10) is not None,
                 f'the destination entry says {path}'):
        return
    xdo('key', *keys)


def leftovers(folder, expected):
    """Files in @folder but those @expected: a temporary file left behind."""
    return sorted(set(os.listdir(folder)) - set(expected))


def check_export_csv(app, profile, out):
    export_to(app, out)
    s = export_state(app, lambda e: e['state'] in ('done', 'failed'), 120)
    if not check(s is not None and s['export']['state'] == 'done',
                 'the CSV export succeeds: ' + str(s and s['export'].get('error'))):
        return
    check(not s['export']['shown'], 'the dialog closes after the export')
    s = app.wait(lambda s: s['export_toast']['shown'], 10)
    check(s is not None and s['export_toast']['path'] == out and os.path.basename(out) in s['export_toast']['text'],
          'a bar says where the export went, with Open and Show in Folder')
    with open(out, newline='', encoding='utf-8') as f:
        rows = list(csv.reader(f))
    want = sql_one(profile, 'SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL')[0]
    check(rows and rows[0][:3] == ['start_ns', 'end_ns', 'duration_ns'], f'kernels.csv has its header: {rows[:1]}')
    check(len(rows) - 1 == want, f'kernels.csv has one row per kernel ({len(rows) - 1} rows, {want} in the file)')
    first = sql_one(profile, 'SELECT min(start) FROM CUPTI_ACTIVITY_KIND_KERNEL')[0]
    check(min(int(r[0]) for r in rows[1:]) == first, 'its first kernel starts when the file says')


def check_export_cancel(app, out, hold):
    xdo('key', 'ctrl+e')
    if not check(export_state(app, lambda e: e['shown'] and e['state'] == 'idle') is not None,
                 'Ctrl+E opens the dialog again'):
        return
    # the worker waits at its first progress report while @hold exists
    open(hold, 'w').close()
    export_to(app, out)
    s = export_state(app, lambda e: e['state'] == 'running' and e['progress'] > 0, 60)
    folder = os.path.dirname(out)
    check(s is not None and leftovers(folder, ['kernels.csv']),
          'midway, the export is a temporary file: ' + str(leftovers(folder, ['kernels.csv'])))
    xdo('key', 'Escape')
    s = export_state(app, lambda e: e['state'] in ('done', 'failed', 'cancelled'), 60)
    os.unlink(hold)
    check(s is not None and s['export']['state'] == 'cancelled', 'Escape cancels the running export: ' +
          str(s and s['export']['state']))
    check(s is not None and s['export']['shown'], 'the dialog stays open after a cancel')
    check(not os.path.exists(out), 'a cancelled export leaves no file')
    left = leftovers(folder, ['kernels.csv'])
    check(not left, f'nor any temporary file: {left}')


def check_export_error(app, tmp):
    if os.geteuid() == 0:   # root writes into read-only folders: a folder that is a file then
        blocker = os.path.join(tmp, 'not-a-folder')
        open(blocker, 'w').close()
        out = os.path.join(blocker, 'kernels.csv')
    else:
        ro = os.path.join(tmp, 'read-only')
        os.mkdir(ro, 0o555)
        out = os.path.join(ro, 'kernels.csv')
    export_to(app, out)
    s = export_state(app, lambda e: e['state'] in ('done', 'failed'), 60)
    if check(s is not None and s['export']['state'] == 'failed', 'an unwritable destination fails'):
        e = s['export']
        check(e['shown'] and e['status'] and os.path.dirname(out) in e['status'],
              f'the dialog shows the error with the path: {e["status"]!r}')
    check(not os.path.exists(out), 'and writes nothing')


def check_export_replace(app, out):
    before = os.path.getmtime(out)
    export_to(app, out)
    s = export_state(app, lambda e: e['state'] == 'confirming', 10)
    check(s is not None, 'exporting onto an existing file asks first')
    xdo('key', 'Escape')
    s = export_state(app, lambda e: e['state'] == 'idle', 10)
    check(s is not None and os.path.getmtime(out) == before, 'saying no leaves the file alone')


def check_export_folder(app, folder):
    xdo('key', 'alt+t', 'ctrl+a')
    xdo('type', '--delay', 20, os.path.join(folder, 'trace.json.gz'))
    check(export_state(app, lambda e: e['format'] == 'perfetto', 10) is not None,
          'a destination ending in .json.gz chooses the Perfetto trace')
    # a folder (a path ending in /) is CSV: kernels.csv and the summary tables
    export_to(app, folder + '/')
    s = export_state(app, lambda e: e['state'] in ('done', 'failed'), 60)
    check(s is not None and s['export']['format'] == 'csv' and s['export']['state'] == 'done',
          'a destination ending in / exports CSV into a folder: ' + str(s and s['export'].get('error')))
    names = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
    check('kernels.csv' in names and any(n.endswith('-summary.csv') for n in names),
          f'the folder holds kernels.csv and the summary tables: {names}')


def test_export_dialog(tmp):
    profile = REAL
    out_dir = os.path.join(tmp, 'out')
    os.mkdir(out_dir)
    hold = os.path.join(tmp, 'hold')
    app = App(tmp, profile, env={'SIGHTLINE_TEST_EXPORT_HOLD': hold})
    try:
        s = app.wait(complete, 120)
        if not check(s is not None, 'the profile opens'):
            return
        check(s.get('export') is None, 'no Export dialog before Ctrl+E')
        xdo('key', 'ctrl+e')
        s = export_state(app, lambda e: e['shown'])
        if not check(s is not None, 'Ctrl+E opens the Export dialog'):
            return
        e = s['export']
        check(e['format'] == 'html' and e['scope'] == 'whole' and not e['environment'],
              'it starts with the HTML report of the whole profile, without the environment')
        check(not e['selection_sensitive'], 'without a selection, "Selection" cannot be chosen')
        gpus = sql_one(profile, 'SELECT count(DISTINCT deviceId) FROM CUPTI_ACTIVITY_KIND_KERNEL')[0]
        check(len(e['gpus']) == gpus and all(g['checked'] for g in e['gpus']), f'the {gpus} GPUs, checked')
        xdo('key', 'alt+c')
        s = export_state(app, lambda e: e['format'] == 'csv', 10)
        check(s is not None and s['export']['destination'].endswith('.csv'),
              'Alt+C chooses CSV, and the destination follows')
        s = app.settle()
        screenshot(s['export_xid'], os.path.join(OUT, 'export-dialog.png'))
        out = os.path.join(out_dir, 'kernels.csv')
        check_export_csv(app, profile, out)
        check_export_cancel(app, os.path.join(out_dir, 'cancelled.csv'), hold)
        check_export_error(app, tmp)
        check_export_replace(app, out)
        check_export_folder(app, os.path.join(out_dir, 'tables'))
    finally:
        app.close()



def test_compare_export(tmp):
    """Export Report… (Ctrl+E) in the comparison window: the save dialog, a worker, the path in the
    window; the file's diff rows (status, name) are `sightline-cli compare --json`'s."""
    a, b = compare_pair(tmp)
    cli = cli_json('compare', a, b)
    out = os.path.join(tmp, 'report.html')
    app = App(tmp, '--compare', a, b)
    try:
        s = wait_compare(app, lambda t: t['page'] == 'compare')
        if not check(s is not None, 'the comparison window opens'):
            return
        xdo('key', 'ctrl+e')
        time.sleep(2.0)
        xdo('key', 'ctrl+a')
        xdo('type', '--delay', 20, out)
        time.sleep(0.3)
        xdo('key', 'Return')
        e = wait_compare(app, lambda t: t.get('exported') == out, 30)
        if not check(e is not None and os.path.exists(out), f'Ctrl+E, a path, Enter: the report is written ({out})'):
            return
        with open(out, encoding='utf-8') as f:
            html = f.read()
        rows = re.findall(r'<tr data-status="([a-z]+)"><td class="status">[^<]*</td><td class="name">([^<]*)</td>', html)
        want = [(k['status'], k['name']) for k in cli['kernels']]
        check([(st, unescape(n)) for st, n in rows] == want, f'the exported diff rows equal compare --json ({len(rows)})')
        check(not [f for f in os.listdir(tmp) if f.startswith('.report.html')], 'no temporary file is left')
        time.sleep(0.3)
        screenshot(s['xid'], os.path.join(OUT, 'compare-export.png'))
    finally:
        app.close()


def prefs_app(tmp):
    """The app with settings kept in a key file under @tmp, schema from the build tree."""
    schema_dir = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(APP))), 'data')
    return App(tmp, env={'GSETTINGS_BACKEND': 'keyfile', 'GSETTINGS_SCHEMA_DIR': schema_dir})


def window_size(xid):
    out = subprocess.run(['xdotool', 'getwindowgeometry', str(xid)], capture_output=True, text=True).stdout
    for line in out.splitlines():
        if 'Geometry:' in line:
            w, h = line.split()[-1].split('x')
            return int(w), int(h)
    return None


def test_preferences(tmp):
    keyfile = os.path.join(tmp, 'config', 'glib-2.0', 'settings', 'keyfile')
    app = prefs_app(tmp)
    try:
        s = app.wait(lambda s: s['page'] == 'welcome', 30)
        if not check(s is not None, 'preferences: the welcome page shows'):
            return
        check(s.get('absolute_time') == 0, 'preferences: times start relative (the schema default)')
        time.sleep(1)
        xdo('windowsize', s['xid'], 1000, 700)
        time.sleep(1)
        check(window_size(s['xid']) == (1000, 700), 'preferences: the window was resized to 1000x700')
        xdo('windowfocus', '--sync', s['xid'])
        xdo('key', 'ctrl+comma')
        time.sleep(1.5)   # the preferences window maps (software GL under Xvfb)
        prefs = []
        for _ in range(20):   # until it is mapped
            prefs = subprocess.run(['xdotool', 'search', '--onlyvisible', '--name', '^Preferences$'],
                                   capture_output=True, text=True).stdout.split()
            if prefs:
                break
            time.sleep(0.25)
        if not check(len(prefs) == 1, 'preferences: Ctrl+, opens the Preferences window'):
            return
        # without a window manager nothing gives the new window the keyboard
        xdo('windowfocus', '--sync', prefs[0])
        # focus starts on the first style choice; Tab goes to the times, Down to "Absolute"
        xdo('key', 'Tab')
        xdo('key', 'Down')
        xdo('key', 'space')
        time.sleep(0.5)
        xdo('key', 'Escape')
        time.sleep(0.5)
        xdo('windowfocus', '--sync', app.state()['xid'])
        xdo('key', 'ctrl+q')
        try:
            code = app.proc.wait(15)
        except subprocess.TimeoutExpired:
            code = None
        check(code == 0, f'preferences: Ctrl+Q quits (exit status {code})')
    finally:
        if app.proc.poll() == 0:
            app.log.close()   # it quit as asked
        else:
            app.close()
    text = open(keyfile).read() if os.path.exists(keyfile) else ''
    check("time-display='absolute'" in text, 'preferences: the key file holds the time display')
    check('window-width=1000' in text and 'window-height=700' in text, 'preferences: and the window size')
    app = prefs_app(tmp)
    try:
        s = app.wait(lambda s: s['page'] == 'welcome', 30)
        if check(s is not None, 'preferences: the app starts again'):
            time.sleep(1)
            check(window_size(s['xid']) == (1000, 700), f'preferences: the window is 1000x700 again: {window_size(s["xid"])}')
            check(s.get('absolute_time') == 1, 'preferences: times are absolute again')
    finally:
        app.close()


# ---- the side panel's Summary page and the duration histogram (issue 11) -------------

def check_outlines_in_view(s, b):
    """B's rows in view at the default size include a stream where the slower
    kernel runs (by SQL), so its outlines are seen without scrolling."""
    streams = {f'{d}/{st}' for d, st in sql_all(
        b, 'SELECT DISTINCT k.deviceId, k.streamId FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s '
           'ON s.id = k.shortName WHERE s.value = ?', 'flash_fwd_kernel')}
    shown = [k for k in s['timelines'][1]['rows_in_view'] if k.startswith('stream/')]
    seen = {f"{k.split('/')[1]}/{k.split('/')[-1]}" for k in shown}
    check(seen & streams, f'B shows a stream of the slower kernel ({sorted(streams)}) in view: {shown}')


def check_iteration_name(t, path):
    """The number shown for the chosen iteration names the NVTX range the
    timeline shows there: the range starting at the anchor (by SQL) is
    iteration_<number> (the generator numbers them from 0, as the CLI's "#")."""
    row = sql_one(path, "SELECT text FROM NVTX_EVENTS WHERE start = ? AND text LIKE 'iteration%'", t['anchor_ns'])
    name = row[0] if row else None
    check(name is not None and name == t['iteration_name'] == f"iteration_{t['iteration']}"
          and name in t['iteration_label'],
          f"iteration {t['iteration']} ({t['iteration_label']}) is the range at its anchor: {name}")


def sql_all(path, query, *args):
    db = sqlite3.connect(f'file:{path}?mode=ro', uri=True)
    try:
        return db.execute(query, args).fetchall()
    finally:
        db.close()


def iteration_start(path, k):
    return sql_one(path, 'SELECT start FROM NVTX_EVENTS WHERE text = ?', f'iteration_{k}')[0]


def check_linked(app, what, cond_a):
    """Waits for A's view to satisfy @cond_a, then checks B = A + the offset."""
    z = wait_compare(app, lambda t: cond_a(t['timelines'][0]['visible']), 10)
    if not check(z is not None, what):
        return None
    time.sleep(0.5)
    z = compare_state(app)
    za, zb = z['timelines']
    check(zb['visible'][0] - za['visible'][0] == z['offset_ns'] and
          zb['visible'][1] - za['visible'][1] == z['offset_ns'],
          f"{what}: B shows A's range + the offset {z['offset_ns']} ({za['visible']} / {zb['visible']})")
    return z


def test_compare_offset(tmp):
    """A non-zero alignment offset: B stalls 20 ms in step 1, so its later steps
    start later; B's view is A's shifted by the start of B's chosen iteration
    minus A's (both by SQL), through a zoom on A and a pan on B."""
    a, b = os.path.join(tmp, 'A.sqlite'), os.path.join(tmp, 'B.sqlite')
    common = ['--iterations', '8', '--kernels', '8000', '--nvtx-depth', '2', '--seed', '5']
    subprocess.run([GEN, a, *common], check=True, stdout=subprocess.DEVNULL)
    subprocess.run([GEN, b, *common, '--stall-ns', '20000000', '--stall-step', '1'], check=True,
                   stdout=subprocess.DEVNULL)
    app = App(tmp, '--compare', a, b)
    try:
        s = wait_compare(app, lambda t: t['page'] == 'compare' and 'timelines' in t)
        if not check(s is not None, 'the comparison of a stalled pair opens'):
            return
        ta, tb = s['timelines']
        want = iteration_start(b, tb['iteration']) - iteration_start(a, ta['iteration'])
        check(s['offset_ns'] == want and want != 0,
              f"offset {s['offset_ns']} = B's iteration_{tb['iteration']} start - A's iteration_{ta['iteration']} "
              f"start by SQL ({want}), not 0")
        check(tb['visible'][0] - ta['visible'][0] == want, f"B's view starts at A's + {want}")
        span = ta['visible'][1] - ta['visible'][0]
        px = int(ta['x'] + (ta['header_width'] + (ta['width'] - ta['header_width']) * 0.4) / ta['scale'])
        xdo('mousemove', '--window', s['xid'], px, int(ta['y'] + (ta['body_y'] + 20) / ta['scale']))
        time.sleep(0.3)
        xdo('keydown', 'ctrl', 'click', '--repeat', 2, '--delay', 150, 4, 'keyup', 'ctrl')
        z = check_linked(app, 'Ctrl+wheel on A zooms both', lambda v: v[1] - v[0] < span / 3)
        if z is None:
            return
        start = z['timelines'][0]['visible'][0]
        xdo('mousemove', '--window', s['xid'], px, int(tb['y'] + (tb['body_y'] + 20) / tb['scale']))
        time.sleep(0.3)
        xdo('keydown', 'shift', 'click', '--repeat', 3, '--delay', 150, 5, 'keyup', 'shift')
        check_linked(app, 'Shift+wheel on B pans both', lambda v: v[0] != start)
    finally:
        app.close()


def test_compare_bad_file(tmp):
    """sightline --compare GOOD BAD: the window shows the loader's own message
    about BAD (as sightline-cli info says it), naming the file."""
    good, bad = os.path.join(tmp, 'A.sqlite'), os.path.join(tmp, 'notes.sqlite')
    subprocess.run([GEN, good, '--kernels', '2000'], check=True, stdout=subprocess.DEVNULL)
    with open(bad, 'w') as f:
        f.write('this is not a database\n' * 50)
    cli = os.path.join(os.path.dirname(os.path.dirname(APP)), 'sightline-cli')
    err = subprocess.run([cli, 'info', bad], capture_output=True, text=True).stderr.strip()
    # "sightline-cli: Cannot open “PATH”: WHY": the loader's reason, after the path
    reason = err.split('”: ', 1)[1].split('. ')[0] if '”: ' in err else err
    app = App(tmp, '--compare', good, bad)
    try:
        s = wait_compare(app, lambda t: t['page'] == 'error')
        if check(s is not None, 'a bad file in --compare shows the error page'):
            check(s['error'].count('notes.sqlite') == 1 and reason in s['error'],
                  f"the error names the file (once) and says the loader's reason “{reason}”: {s['error']}")
            check(s['subtitle'] != 'Loading…', f"the subtitle no longer says it is loading: {s['subtitle']}")
            screenshot(s['xid'], os.path.join(OUT, 'compare-error.png'))
    finally:
        app.close()


def bookmark_files(tmp):
    d = os.path.join(tmp, 'data', 'sightline', 'bookmarks')
    return sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith('.json')) if os.path.isdir(d) else []


def test_bookmarks(tmp):
    """Ctrl+D bookmarks the selection: kept under XDG_DATA_HOME (not beside the profile), found again
    by a copy of the profile at another path (flag, list entry), and ' jumps to it."""
    first_dir, second_dir = os.path.join(tmp, 'a'), os.path.join(tmp, 'b')
    os.makedirs(first_dir)
    os.makedirs(second_dir)
    first = os.path.join(first_dir, 'run.sqlite')
    shutil.copy(REAL, first)
    app = App(tmp, first)
    try:
        s = app.wait(complete, 60)
        if not check(s is not None, 'the profile opens'):
            return
        s = app.settle()
        streams = track_rows(s)
        x1, y = body_point(s, 0.3, streams[0])
        x2, _ = body_point(s, 0.45, streams[0])
        xdo('mousemove', '--window', s['xid'], x1, y)
        xdo('keydown', 'shift', 'mousedown', 1)
        for x in range(x1, x2 + 1, max(1, (x2 - x1) // 6)):
            xdo('mousemove', '--window', s['xid'], x, y)
            time.sleep(0.03)
        xdo('mousemove', '--window', s['xid'], x2, y)
        time.sleep(0.1)
        xdo('mouseup', 1, 'keyup', 'shift')
        sel = app.wait(lambda t: t['timeline']['range'] is not None, 10)
        if not check(sel is not None, 'a Shift+drag selects a range'):
            return
        a, b = app.settle()['timeline']['range']
        xdo('key', '--window', s['xid'], 'ctrl+d')
        time.sleep(0.8)
        # the name field has the focus with the guessed name selected: typing replaces it
        xdo('type', '--delay', '30', "step's stall")
        time.sleep(0.3)
        xdo('key', 'Return')
        made = app.wait(lambda t: len(t['timeline']['bookmarks']) == 1, 10)
        if not check(made is not None, 'Ctrl+D, a name and Enter make a bookmark'):
            return
        bm = made['timeline']['bookmarks'][0]
        check(bm['name'] == "step's stall", f'the bookmark has the typed name (an apostrophe too): {bm["name"]!r}')
        check((bm['start'], bm['end']) == (a, b), 'the bookmark spans the selection')
        files = bookmark_files(tmp)
        check(len(files) == 1 and made['timeline']['bookmarks_file'] == files[0],
              'one bookmarks file under XDG_DATA_HOME/sightline/bookmarks: ' + ' '.join(files))
        check(sorted(os.listdir(first_dir)) == ['run.sqlite'], 'nothing is written beside the profile')
        with open(files[0]) as f:
            doc = json.load(f)
        saved = doc['bookmarks'][0]
        check(saved['name'] == "step's stall" and (saved['start_ns'], saved['end_ns']) == (a, b),
              'the file holds the bookmark with its absolute times')
        check(saved['start_rel_ns'] == a - made['timeline']['start_ns'],
              'and its time relative to the start the ruler shows as +0')
    finally:
        app.close()
    # another path, another name, the same content: the same bookmarks
    second = os.path.join(second_dir, 'renamed copy.sqlite')
    shutil.copy(REAL, second)
    # the panel shows the Bookmarks page, as a user who left it there would find it
    os.makedirs(os.path.join(tmp, 'state', 'sightline'), exist_ok=True)
    with open(os.path.join(tmp, 'state', 'sightline', 'ui.ini'), 'w') as f:
        f.write('[window]\nside-panel-page=bookmarks\n')
    app = App(tmp, second)
    try:
        s = app.wait(lambda t: complete(t) and len(t['timeline']['bookmarks']) == 1, 60)
        if not check(s is not None, 'the copy at another path has the bookmark'):
            return
        s = app.settle()
        rows = s['panel']['bookmarks']['rows']
        check(len(rows) == 1 and rows[0]['name'] == "step's stall" and (rows[0]['start'], rows[0]['end']) == (a, b),
              'the Bookmarks page lists it')
        check(s['panel']['page'] == 'bookmarks', 'the side panel shows the Bookmarks page')
        check(s['timeline']['range'] is None, 'nothing is selected yet')
        xdo('mousemove', '--window', s['xid'], s['timeline']['x'] + s['timeline']['width'] / s['timeline']['scale'] / 2,
            s['timeline']['y'] + s['timeline']['height'] / s['timeline']['scale'] / 2)
        xdo('click', 1)
        time.sleep(0.3)
        xdo('key', '--window', s['xid'], 'apostrophe')
        j = app.wait(lambda t: t['timeline']['range'] == [a, b], 10)
        if check(j is not None, "' selects the next bookmark's range"):
            j = app.settle()
            v0, v1 = j['timeline']['visible']
            check(v0 <= a and b <= v1 and (v1 - v0) < 2 * (b - a), "and zooms to it")
            check(j['panel']['bookmarks']['selected'] == 0, 'and its row is the one selected on the Bookmarks page')
            shot = screenshot(j['xid'], os.path.join(OUT, 'bookmarks.png'))
            tl = j['timeline']
            flag = tl['bookmarks'][0]
            fx = int((tl['x'] + flag['flag_x'] + 3) * 1)
            fy = int(tl['y'] + flag['flag_y'])
            r, g, bl = pixel(shot, fx, fy)
            check(max(r, g, bl) - min(r, g, bl) > 60, f'the flag is drawn in its colour on the ruler ({r},{g},{bl})')
            # a click on the flag selects its range after the selection was cleared
            xdo('key', '--window', j['xid'], 'Escape')
            app.wait(lambda t: t['timeline']['range'] is None, 5)
            xdo('mousemove', '--window', j['xid'], fx, fy, 'click', 1)
            check(app.wait(lambda t: t['timeline']['range'] == [a, b], 10) is not None,
                  "a click on the flag selects the bookmark's range")
        # another process adds one (as another window would): the open window follows the file
        cli = os.path.join(os.path.dirname(os.path.dirname(APP)), 'sightline-cli')
        env = dict(os.environ, XDG_DATA_HOME=os.path.join(tmp, 'data'))
        subprocess.run([cli, 'bookmarks', 'add', second, '--name', 'from the CLI', '--range', '+0.6s', '+0.65s'],
                       check=True, env=env, capture_output=True)
        t0 = s['timeline']['start_ns']
        o = app.wait(lambda t: len(t['timeline']['bookmarks']) == 2 and len(t['panel']['bookmarks']['rows']) == 2, 20)
        if check(o is not None, 'a bookmark added by sightline-cli shows in the open window (flag and list)'):
            added = o['timeline']['bookmarks'][1]
            check(added['name'] == 'from the CLI' and (added['start'], added['end']) == (t0 + 600000000, t0 + 650000000),
                  'at the time the CLI was given, from the start the ruler shows as +0')
    finally:
        app.close()
    # a bookmarks file that does not parse: kept aside, said in the window, never overwritten
    files = bookmark_files(tmp)
    with open(files[0], 'w') as f:
        f.write('{"format": "sightline-bookmarks", "version": 1, "bookmarks": [ {')
    app = App(tmp, second)
    try:
        s = app.wait(lambda t: complete(t) and t['timeline'].get('bookmarks_bar'), 60)
        if check(s is not None, 'a corrupt bookmarks file is reported in the window'):
            log('#', s['timeline']['bookmarks_bar'])
            check(s['timeline']['bookmarks'] == [], 'and its bookmarks are not shown')
        kept = [f for f in os.listdir(os.path.dirname(files[0])) if '.corrupt-' in f]
        check(len(kept) == 1, 'the corrupt file is kept aside: ' + ' '.join(kept))
    finally:
        app.close()


def check_gap_click(app, s):
    """Scrolls the Summary page to its idle gaps and clicks the first: the gap (one of `sightline-cli gaps`')
    becomes the selected range and is in view; the page keeps its scope and list."""
    links = s['panel']['summary']['kernel_links']
    if not check(links, 'the summary shows links to scroll from'):
        return
    xdo('mousemove', '--window', s['xid'], int(links[0]['x']), int(links[0]['y']))
    # one wheel click at a time, each settled: queued clicks on a loaded machine overshoot the gaps
    g = None
    for _ in range(60):
        xdo('click', 5)
        g = app.settle()
        if g['panel']['summary']['gap_links']:
            break
    if not check(g is not None and g['panel']['summary']['gap_links'],
                 'scrolling the Summary page brings the largest idle gaps into view'):
        return
    gap = g['panel']['summary']['gap_links'][0]
    cli = cli_json('gaps', REAL)
    spans = {(x['start_ns'], x['end_ns']) for d in cli['devices'] for x in d['gaps']}
    check((gap['start_ns'], gap['end_ns']) in spans, f'the gap link is a gap of `sightline-cli gaps`: {gap}')
    xdo('mousemove', '--window', g['xid'], int(gap['x']), int(gap['y']), 'click', 1)
    want = [gap['start_ns'], gap['end_ns']]
    t = app.wait(lambda t: t['timeline']['range'] == want, 10)
    if not check(t is not None, 'a click on an idle gap selects its range in the timeline'):
        return
    t = app.settle()
    a, b = t['timeline']['visible']
    check(a <= want[0] and want[1] <= b and b - a <= 2 * (want[1] - want[0]),
          f'the gap is brought into view: visible {[a, b]} gap {want}')
    check(t['panel']['summary']['scope'] == 'whole' and t['panel']['summary']['gap_links'],
          'the page keeps its scope and its list of gaps after the click')
    # Back (Alt+Left) returns to the view and the (empty) selection before the click
    xdo('key', '--window', t['xid'], 'alt+Left')
    back = app.wait(lambda u: u['timeline']['range'] is None and u['timeline']['visible'] == s['timeline']['visible'], 10)
    check(back is not None, 'Back returns from the gap to the whole profile, nothing selected')
    xdo('mousemove', '--window', s['xid'], int(gap['x']), int(gap['y']))
    for _ in range(40):   # the page to its top again, for the rest of the test
        xdo('click', 4)


def check_flame_menu(app, z):
    """The flame graph's context menu: right-click, Escape, Shift+F10 on the node under the pointer,
    then Show in Timeline from the keyboard selects an instance of the node (SQL names it)."""
    if not check(z['flame']['boxes'], 'flame menu: a node to right-click'):
        return
    xdo('key', '--window', z['xid'], 'Escape')
    xdo('mousemove', '--window', z['xid'], *map(int, z['flame']['boxes'][0]))
    time.sleep(0.3)
    xdo('click', 3)
    m = app.wait(lambda t: t['flame']['menu_open'] and t['flame']['menu_target'], 10)
    if not check(m is not None, 'flame menu: a right-click on a node opens its context menu'):
        return
    target = m['flame']['menu_target']
    xdo('key', '--window', m['xid'], 'Escape')
    check(app.wait(lambda t: not t['flame']['menu_open'], 10) is not None, 'flame menu: Escape closes it')
    xdo('key', '--window', m['xid'], 'shift+F10')
    k = app.wait(lambda t: t['flame']['menu_open'] and t['flame']['menu_target'] == target, 10)
    if not check(k is not None, 'flame menu: Shift+F10 opens it on the node under the pointer'):
        return
    before = app.settle()['timeline']['selected']
    xdo('key', '--window', k['xid'], 'Return')   # the first entry has the focus
    sel = app.wait(lambda t: not t['flame']['menu_open'] and t['timeline']['selected'] is not None
                   and t['timeline']['selected'] != before, 10)
    if not check(sel is not None, 'flame menu: Show in Timeline (keyboard) selects another event in the timeline'):
        return
    ev = sel['timeline']['selected']
    if ev['kind'] == 'kernel':
        n = sql_one(REAL, 'SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName '
                          'WHERE s.value = ?', target)[0]
    else:
        # (the views group PyTorch's ", op_id = N" suffixes under one name)
        n = sql_one(REAL, "SELECT count(*) FROM NVTX_EVENTS WHERE text = ? OR text LIKE ? || ', op_id = %'",
                    target, target)[0]
    check(ev['name'].split(', op_id = ')[0] == target and n > 0, f'flame menu: the selected {ev["kind"]} is the node {target!r} '
                                          f'(SQL has {n} of that name)')
    m2 = app.settle()
    xdo('mousemove', '--window', m2['xid'], *map(int, m2['flame']['boxes'][0]))
    time.sleep(0.3)
    depth = m2['flame']['depth']
    xdo('click', 3)
    if app.wait(lambda t: t['flame']['menu_open'], 10):
        xdo('key', '--window', m2['xid'], 'Down', 'Return')
        check(app.wait(lambda t: t['flame']['depth'] > depth, 10) is not None,
              'flame menu: Zoom Into zooms into the node (breadcrumb deeper)')


def sql_kernel_nvtx_path(profile, correlation_id):
    """The push/pop ranges of the launching thread holding the start of kernel
    @correlation_id's launching call, outermost first, by SQL."""
    db = sqlite3.connect(f'file:{profile}?mode=ro', uri=True)
    try:
        api = db.execute('SELECT start, globalTid FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE correlationId = ?',
                         (correlation_id,)).fetchone()
        rows = db.execute('SELECT COALESCE(n.text, s.value) FROM NVTX_EVENTS n LEFT JOIN StringIds s ON s.id = n.textId '
                          'WHERE n.eventType = 59 AND n.globalTid = ? AND n.start <= ? AND ? < n."end" '
                          'ORDER BY n.start, n."end" DESC', (api[1], api[0], api[0])).fetchall()
        return [r[0] for r in rows]
    finally:
        db.close()


def test_tree_follows(tmp):
    """Issue 11 item 8: a kernel selected in the timeline is selected in the NVTX page too,
    under the path SQL gives its launching call, without the page replacing the
    highlight or moving the view."""
    profile = generate(tmp)
    app = App(tmp, profile, env={'XDG_STATE_HOME': os.path.join(tmp, 'state')})
    try:
        s = app.wait(tree_ready, 60)
        if not check(s is not None, 'tree follows: the NVTX page computed its tree'):
            return
        sel = select_kernel(app, app.settle(), 'tree-follows')
        if not check(sel is not None, 'tree follows: a kernel is selected in the timeline'):
            return
        kernel = sel['timeline']['selected']
        t = app.wait(lambda n: tree_state(n).get('selected_path') and
                     tree_state(n)['selected_path'][-1] == kernel['name'], 10)
        if not check(t is not None, f"tree follows: the page selects the kernel's row ({kernel['name']}): "
                                    f"{tree_state(app.state()).get('selected_path')}"):
            return
        t = app.wait(lambda n: detail(n, 'Correlation ID') is not None, 10) or t
        want = sql_kernel_nvtx_path(profile, int(detail(t, 'Correlation ID').replace(',', '').replace('\u202f', '')))
        check(tree_state(t)['selected_path'] == want + [kernel['name']],
              f"tree follows: the row's path is the SQL path of its launching call: "
              f"{tree_state(t)['selected_path']} vs {want + [kernel['name']]}")
        check(tree_state(t)['highlighted'] == 0 and t['timeline']['visible'] == sel['timeline']['visible'],
              'tree follows: the page neither highlights nor moves the view for it')
        screenshot(t['xid'], os.path.join(OUT, 'tree-follows.png'))
    finally:
        app.close()


def test_tree_width(tmp):
    """The NVTX page's name column takes the width remembered in ui.ini (written here, as a drag would)."""
    state = os.path.join(tmp, 'state', 'sightline')
    os.makedirs(state, exist_ok=True)
    with open(os.path.join(state, 'ui.ini'), 'w') as f:
        f.write('[window]\nside-panel-page=tree\nside-panel-shown=true\ntree-name-width=410\n')
    app = App(tmp, REAL, env={'XDG_STATE_HOME': os.path.join(tmp, 'state')})
    try:
        s = app.wait(tree_ready, 60)
        if not check(s is not None, 'tree width: the NVTX page computed its tree'):
            return
        s = app.settle()
        check(s['panel']['tree']['name_width'] == 410,
              f"tree width: the name column is as wide as ui.ini remembers ({s['panel']['tree']['name_width']})")
        screenshot(s['xid'], os.path.join(OUT, 'tree-width.png'))
    finally:
        app.close()


# ---- issue 11 leftovers: iteration histogram of any method, search scope and order, every instance --

def test_rank_summaries(tmp):
    """sightline --merge DIR over a folder of `sightline-cli summarize` outputs (6 generated ranks,
    rank 2's step 3 late; rank 1's summary records its profile relative to the folder; rank 5's
    profile deleted): the heat map's stragglers equal sightline-cli ranks --json DIR/*.json and no
    profile is loaded; a click on the late cell loads that rank's profile off the main thread and
    shows its timeline zoomed to the step; a header's Load Profile button loads another, aligned
    with it; the rank whose profile is missing says so and offers Locate…"""
    n, late, step, late_ns, offset = 6, 2, 3, 2500000, 1700000
    base = 1779630000000000000
    cli = os.path.abspath(os.path.join(os.path.dirname(os.path.dirname(APP)), 'sightline-cli'))  # run in the folder too
    sums = os.path.join(tmp, 'summaries')
    os.makedirs(sums)
    paths = []
    for r in range(n):
        p = os.path.join(tmp, f'job-rank{r}.sqlite')
        extra = ['--late-step', f'{step}:{late_ns}'] if r == late else []
        subprocess.run([GEN, p, '--gpus', '1', '--kernels', '3000', '--nccl', '--gap-ns', '5000000', '--rank', str(r),
                        '--session-start-ns', str(base + r * offset), *extra], check=True, stdout=subprocess.DEVNULL)
        # rank 1 as a cluster writes it: the profile named relative to the summaries' folder
        arg = os.path.relpath(p, sums) if r == 1 else p
        subprocess.run([cli, 'summarize', arg, '-o', os.path.join(sums, f'job-rank{r}.json')], check=True, cwd=sums)
        paths.append(p)
    os.unlink(paths[5])
    with open(os.path.join(sums, 'job-rank1.json')) as f:
        check(not os.path.isabs(json.load(f)['path']), 'summaries: rank 1 records a relative path')
    files = sorted(os.path.join(sums, f) for f in os.listdir(sums))
    want = json.loads(subprocess.run([cli, 'ranks', '--json', *files], check=True, capture_output=True, text=True).stdout)
    app = App(tmp, '--merge', sums)
    try:
        s = ranks_state(app, lambda s: s['reading'] == 0 and s['heatmap'] is not None and len(s['heatmap']['rows']) == n)
        if not check(s is not None, 'summaries: the folder opens as the heat map'):
            return
        s = ranks_state(app, lambda s: True)
        h = s['heatmap']
        got = [None if st is None else (st['rank'], st['late_ns']) for st in h['stragglers']]
        exp = [None if it['straggler'] is None else (it['straggler']['rank'], it['straggler']['late_ns'])
               for it in want['iterations']]
        check(got == exp and got[step] == (late, late_ns),
              f'summaries: the heat map stragglers are those of sightline-cli ranks: {got} vs {exp}')
        check([hr['rank'] for hr in h['rows']] == [w['rank'] for w in want['ranks']]
              and [hr['step_median_ns'] for hr in h['rows']] == [w['step_median_ns'] for w in want['ranks']],
              'summaries: rows and median steps as sightline-cli ranks')
        check(all(r['state'] == 'summary' and not r['profile_loaded'] and 'timeline' not in r for r in s['ranks']),
              f"summaries: no profile loaded: {[(r['name'], r['state']) for r in s['ranks']]}")
        check(all('Summary only' in r['status'] and r['load_button']['visible'] for r in s['ranks']),
              f"summaries: each header says summary only, with a Load Profile button: {s['ranks'][0]['status']!r}")
        by_rank = lambda s, k: next(r for r in s['ranks'] if r['rank'] == k)
        # the late cell: its rank loads, then shows the step
        row = next(i for i, hr in enumerate(h['rows']) if hr['rank'] == late)
        cell = h['rows'][row]['cells'][step]
        xdo('mousemove', '--window', s['xid'], int(cell['x']), int(cell['y']))
        xdo('click', 1)
        steps = [next(st for st in wr['steps'] if st and st['index'] == step) for wr in want['ranks']]
        a, b = min(st['start_ns'] for st in steps), max(st['end_ns'] for st in steps)
        zoomed = lambda tl: tl['job_start'] <= a and tl['job_end'] >= b and tl['job_end'] - tl['job_start'] < 2 * (b - a)
        z = ranks_state(app, lambda s: by_rank(s, late)['state'] == 'ready' and by_rank(s, late)['profile_loaded']
                        and by_rank(s, late).get('timeline', {}).get('mapped') and zoomed(by_rank(s, late)['timeline']))
        check(z is not None, f'summaries: a click on the late cell loads rank {late} and shows step {step} [{a}, {b}]')
        if z is None:
            return
        check(sum(r['profile_loaded'] for r in z['ranks']) == 1, 'summaries: only the clicked rank is loaded')
        # its timeline: iteration_3 (SQL) where the summary puts the step, on the job clock
        tl = by_rank(z, late)['timeline']
        it = sql_one(paths[late], f"SELECT start FROM NVTX_EVENTS WHERE text = 'iteration_{step}'")[0]
        check(tl['visible_start'] <= it <= tl['visible_end'],
              f"summaries: iteration_{step} (SQL) is in view: {it} in [{tl['visible_start']}, {tl['visible_end']}]")
        # a header's button: rank 1 (relative path) loads and joins the job time shown
        btn = by_rank(z, 1)['load_button']
        xdo('mousemove', '--window', z['xid'], int(btn['x']), int(btn['y']))
        xdo('click', 1)
        l = ranks_state(app, lambda s: by_rank(s, 1)['state'] == 'ready' and by_rank(s, 1).get('timeline', {}).get('mapped')
                        and by_rank(s, 1)['timeline']['job_start'] == by_rank(s, late)['timeline']['job_start'])
        check(l is not None, 'summaries: Load Profile loads rank 1 (relative path) aligned with rank 2')
        # the missing profile: its heat-map row label
        s = ranks_state(app, lambda s: True)
        row = next(hr for hr in s['heatmap']['rows'] if hr['rank'] == 5)
        xdo('mousemove', '--window', s['xid'], int(row['label']['x']), int(row['label']['y']))
        xdo('click', 1)
        m = ranks_state(app, lambda s: 'not there' in by_rank(s, 5)['status'], timeout=10)
        check(m is not None and paths[5] in by_rank(m, 5)['status'] and by_rank(m, 5)['state'] == 'summary'
              and by_rank(m, 5)['locate_button']['visible'] is True,
              f"summaries: the missing profile is said, with Locate…: {m and by_rank(m, 5)['status']!r}")
        if m is not None:
            check(m['heatmap'] is not None and len(m['heatmap']['rows']) == n, 'summaries: the heat map keeps every rank')
        time.sleep(0.5)
        shot = os.path.join(OUT, 'rank-summaries.png')
        screenshot(s['xid'], shot)
        dest = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'data', 'screenshots')
        if os.environ.get('SL_README_SHOTS') == '1' and os.path.isdir(dest):   # as save_readme_shots
            subprocess.run(['convert', shot, os.path.join(dest, 'rank-summaries.png')], check=False)
    finally:
        app.close()


def test_iteration_histogram(tmp):
    """Without NVTX the iterations come from the kernel cadence: the histogram shows them all."""
    path = os.path.join(tmp, 'nonvtx.sqlite')
    subprocess.run([GEN, path, '--iterations', '12', '--kernels', '6000', '--nvtx-depth', '0', '--seed', '4'],
                   check=True, capture_output=True)
    want = cli_json('iterations', path)
    check(want['method'] != 'nvtx' and want['iterations'], f'iterations: the CLI finds {want["method"]} steps')
    app = summary_app(tmp, path)
    try:
        s = app.wait(lambda s: complete(s) and summary_ready(s, 'whole')
                     and s['panel']['summary']['histogram'].get('iterations_x') is not None, 60)
        if not check(s is not None, 'iterations: the Summary page sums up the profile'):
            return
        h = s['panel']['summary']['histogram']
        xdo('mousemove', '--window', s['xid'], int(h['iterations_x']), int(h['iterations_y']), 'click', 1)
        s = app.wait(lambda t: t['panel']['summary']['histogram']['mode'] == 'iterations'
                     and t['panel']['summary']['histogram']['n'] > 0, 10)
        if not check(s is not None, 'iterations: the Iterations button shows the iteration durations'):
            return
        h = s['panel']['summary']['histogram']
        # kernels and gaps steps last their GPU span (sl-iterations.h)
        durs = sorted(i['gpu_end_ns'] - i['gpu_start_ns'] for i in want['iterations'])
        check(h['method'] == want['method'], f'iterations: method {h["method"]}, CLI {want["method"]}')
        check(h['n'] == len(durs) and sum(c for _, _, c in h['bins']) == len(durs),
              f'iterations: {h["n"]} in the bins, `iterations` counts {len(durs)}')
        counts = [sum(1 for d in durs if lo <= d < hi) for lo, hi, _ in h['bins']]
        check(counts == [c for _, _, c in h['bins']], 'iterations: each bin counts the CLI durations in its edges')
        screenshot(s['xid'], os.path.join(OUT, 'iteration-histogram.png'))
    finally:
        app.close()


def cli_groups(path, pattern, rng):
    """(kind, name) -> [count, total_ns] from `sightline-cli search --range`."""
    out = cli_json('search', '--limit', '0', '--range', *rng, pattern, path)
    groups = {}
    for m in out['matches']:
        g = groups.setdefault((m['kind'], m['name']), [0, 0])
        g[0] += 1
        g[1] += m['end_ns'] - m['start_ns']
    return out, groups


def click_at(s, geometry):
    x, y, w, h = geometry
    xdo('mousemove', '--window', s['xid'], int(x + w / 2), int(y + h / 2), 'click', 1)


def test_search_scope(tmp):
    """Search in the selected range only (= `search --range`), names by count, time or name."""
    app = summary_app(tmp, REAL)
    try:
        s = app.wait(lambda s: complete(s) and summary_ready(s, 'whole'), 60)
        if not check(s is not None, 'search scope: the profile opens'):
            return
        streams = track_rows(s)
        x1, y = body_point(s, 0.2, streams[0])
        x2, _ = body_point(s, 0.5, streams[0])
        xdo('mousemove', '--window', s['xid'], x1, y)
        xdo('keydown', 'shift', 'mousedown', 1)
        for x in range(x1, x2 + 1, max(1, (x2 - x1) // 6)):
            xdo('mousemove', '--window', s['xid'], x, y)
            time.sleep(0.03)
        xdo('mouseup', 1, 'keyup', 'shift')
        s = app.wait(lambda t: t['timeline']['range'] is not None and summary_ready(t, 'selection'), 30)
        if not check(s is not None, 'search scope: Shift+drag selects a range, the summary\'s scope'):
            return
        xdo('key', 'ctrl+f')
        s = app.wait(lambda t: t['panel']['page'] == 'search' and t['panel']['search']['focus'], 10)
        if not check(s is not None, 'search scope: Ctrl+F shows the search page'):
            return
        xdo('type', '--delay', 40, 'kernel')
        s = app.wait(lambda t: t['panel']['search']['text'] == 'kernel' and not t['panel']['search']['searching']
                     and t['panel']['search']['matches'] > 0, 20)
        whole = s['panel']['search']['kernels'] + s['panel']['search']['ranges']
        check(s['panel']['search']['range'] is None and not s['panel']['search']['in_scope'],
              'search scope: off by default')
        click_at(s, s['panel']['search']['scope_check'])
        s = app.wait(lambda t: t['panel']['search']['in_scope'] and t['panel']['search']['range'] is not None
                     and not t['panel']['search']['searching'], 20)
        if not check(s is not None, 'search scope: “In scope only” searches the selected range'):
            return
        page = s['panel']['search']
        rng = page['range']
        summ = s['panel']['summary']
        check(rng == [summ.get('start_ns'), summ.get('end_ns')], f'search scope: the range {rng} is the summary\'s')
        out, groups = cli_groups(REAL, 'kernel', [str(v) for v in rng])
        check(page['kernels'] + page['ranges'] == out['total'] and out['total'] < whole,
              f'search scope: {page["kernels"] + page["ranges"]} matches in scope = `search --range` {out["total"]} (whole: {whole})')
        for sort, key in (('count', 0), ('time', 1)):
            click_at(s, page[f'sort_{sort}'])
            s = app.wait(lambda t: t['panel']['search']['sort'] == sort, 10)
            if not check(s is not None, f'search scope: the {sort} button sorts'):
                continue
            listed = [g for g in s['panel']['search']['groups'] if g['kind'] != 'api']
            vals = [groups.get((g['kind'], g['name']), [None, None])[key] for g in listed]
            mine = [g['count'] if key == 0 else g['total_ns'] for g in listed]
            diff = [(g['kind'], g['name'][:40], a, b) for g, a, b in zip(listed, vals, mine) if a != b]
            check(not diff and vals == sorted(vals, reverse=True) and vals,
                  f'search scope: by {sort}, the CLI\'s numbers in descending order: {vals[:5]} {diff[:3]}')
        click_at(s, page['sort_name'])
        s = app.wait(lambda t: t['panel']['search']['sort'] == 'name', 10)
        if check(s is not None, 'search scope: the name button sorts'):
            names = [g['name'] for g in s['panel']['search']['groups']]
            check(names == sorted(names, key=lambda n: n.encode()), f'search scope: by name: {names[:3]}')
            screenshot(s['xid'], os.path.join(OUT, 'search-scope.png'))
    finally:
        app.close()


def test_tree_all_instances(tmp):
    """A kernel name with thousands of instances lists them all; End reaches the last."""
    path = os.path.join(tmp, 'many.sqlite')
    subprocess.run([GEN, path, '--iterations', '1', '--kernels', '60000', '--nvtx-depth', '1', '--seed', '3'],
                   check=True, capture_output=True)
    tree = cli_json('tree', path)
    inst = {}
    for root in tree['roots']:
        for k in root['children']:
            if k['kind'] == 'kernel':
                inst.setdefault((root['name'], k['name']), []).append((k['end_ns'] - k['start_ns'], k['start_ns']))
    (root_name, name), want = max(inst.items(), key=lambda kv: len(kv[1]))
    check(len(want) > 5000, f'tree instances: {name} has {len(want)} instances under {root_name}')
    app = App(tmp, path, env={'XDG_STATE_HOME': os.path.join(tmp, 'state')})
    try:
        s = app.wait(tree_ready, 60)
        if not check(s is not None, 'tree instances: the NVTX page computed its tree'):
            return
        ex, ey, ew, eh = tree_state(s)['entry']
        for _ in range(3):   # keys can get lost or land before the entry has focus: again until the filter is whole
            xdo('mousemove', '--window', s['xid'], int(ex + ew / 2), int(ey + eh / 2), 'click', 1)
            time.sleep(0.5)
            xdo('key', 'ctrl+a', 'BackSpace')
            xdo('type', '--window', s['xid'], '--delay', '30', name)
            if app.wait(lambda n: tree_state(n).get('filter') == name, 10) is not None:
                break
        s = app.wait(lambda n: tree_state(n).get('filter') == name and tree_state(n)['first_rows'][:2] == [root_name, name], 30)
        if not check(s is not None, 'tree instances: the filter leaves the range and the kernel name'):
            return
        vx, vy, vw, vh = tree_state(s)['view']
        xdo('mousemove', '--window', s['xid'], int(vx + 60), int(vy + 44), 'click', 1)
        app.wait(lambda n: tree_state(n).get('selected') == root_name, 10)
        xdo('key', '--window', s['xid'], 'Down')
        app.wait(lambda n: tree_state(n).get('selected') == name, 10)
        xdo('key', '--window', s['xid'], 'plus')
        rows = tree_state(s)['rows']
        s = app.wait(lambda n: tree_state(n)['rows'] == rows + len(want), 30)
        if not check(s is not None, f'tree instances: “+” opens the name to all {len(want)} instances'):
            return
        # the filter also keeps the name's instances launched outside any range: a root after the
        # range, so End reaches that row and Up the last instance of the opened name
        xdo('key', '--window', s['xid'], 'End')
        app.wait(lambda n: tree_state(n).get('selected') == name and tree_state(n).get('selected_path') == [name], 10)
        xdo('key', '--window', s['xid'], 'Up')
        s = app.wait(lambda n: (tree_state(n).get('selected_instance') or {}).get('position') is not None
                     and n['timeline']['selected'] is not None, 20)
        if not check(s is not None, 'tree instances: End, Up select the last row of the name, an instance'):
            log(json.dumps(tree_state(app.state()))[:800], app.state()['timeline']['selected'])
            return
        si = tree_state(s)['selected_instance']
        check(si['of'] == len(want), f'tree instances: the name\'s model lists {si["of"]} = {len(want)} (`tree`)')
        # by GPU time, descending: the last row is the shortest, the earliest of those
        last = min(want)
        start = si['start_ns'] + s['timeline']['start_ns']
        check(start == last[1], f'tree instances: the last row is the CLI\'s shortest instance ({start} vs {last[1]})')
        check(s['timeline']['selected']['name'] == name and s['timeline']['selected']['kind'] == 'kernel',
              'tree instances: the timeline selects that kernel')
        screenshot(s['xid'], os.path.join(OUT, 'tree-instances.png'))
    finally:
        app.close()


WALL_LABEL = re.compile(r'^(\d\d):(\d\d):(\d\d)(?:[.,](\d+))?$')


def wall_seconds(label):
    """Seconds of the day that a ruler label "14:32:05.25" names."""
    m = WALL_LABEL.match(label)
    return None if m is None else (int(m[1]) * 3600 + int(m[2]) * 60 + int(m[3])
                                   + (int(m[4]) / 10 ** len(m[4]) if m[4] else 0.0))


def set_time_display(tmp, mode):
    """Writes the key file the keyfile backend watches: the app sees a change.
    Written in place in one write() and cut after it, so that a reload between
    never reads an empty file."""
    path = os.path.join(tmp, 'config', 'glib-2.0', 'settings', 'keyfile')
    os.makedirs(os.path.dirname(path), exist_ok=True)
    data = f"[io/github/sightline/Sightline]\ntime-display='{mode}'\n".encode()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        os.write(fd, data)
        os.ftruncate(fd, len(data))
    finally:
        os.close(fd)


def change_time_display(app, tmp, mode):
    """set_time_display() until the app's GSettings reads @mode.  Once, in a CI
    run under ASan, the ruler stayed relative for 90 s after the write, and
    what GSettings read then was not recorded.  Now the state says: a write
    it has not read in 30 s is written again (at most twice; the Preferences
    dialog sets the key in the process, with no file to watch), and the test
    still fails when the setting arrives and the window does not follow it."""
    for attempt in range(3):
        set_time_display(tmp, mode)
        t0 = time.monotonic()
        if app.wait(lambda s: s.get('time_display') == mode, 30) is not None:
            print(f'# time-display={mode} read {time.monotonic() - t0:.2f} s after writing it (write {attempt + 1})')
            return attempt
        print(f'# the app still reads time-display={app.state().get("time_display")!r}: key file written again')
    return None


def test_wall_clock(tmp):
    """Preferences → Times → wall clock: the ruler shows the local time of
    day of the session start (TARGET_INFO_SESSION_START_TIME.utcEpochNs, at
    capture-clock time systemClockNs) plus the time into the capture; a file
    without a session start stays relative."""
    prof = os.path.join(PROFILES, 'nsysai-h100-2gpu-1s.sqlite')
    db = sqlite3.connect(f'file:{prof}?mode=ro&immutable=1', uri=True)
    utc, clock = db.execute('SELECT utcEpochNs, systemClockNs FROM TARGET_INFO_SESSION_START_TIME').fetchone()
    db.close()
    tz = 'Etc/GMT-3'   # UTC+3, no daylight saving: the labels are local time
    schema_dir = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(APP))), 'data')
    env = {'GSETTINGS_BACKEND': 'keyfile', 'GSETTINGS_SCHEMA_DIR': schema_dir, 'TZ': tz, 'LC_ALL': 'C'}
    set_time_display(tmp, 'relative')
    app = App(tmp, prof, env=env)
    try:
        s = app.wait(lambda s: s.get('timeline') and s['timeline']['complete'] and s['timeline']['ruler'], 60)
        if not check(s is not None, 'wall clock: the profile loads with a ruler'):
            return
        check(all(wall_seconds(l) is None for l in s['timeline']['ruler']),
              f'wall clock: relative labels first: {s["timeline"]["ruler"]}')
        xdo('windowsize', s['xid'], 1550, 950)   # room for several times of day
        time.sleep(1)
        check(change_time_display(app, tmp, 'wall-clock') is not None,
              f'wall clock: the app\'s settings read the key file: {app.state().get("time_display")}')
        s = app.wait(lambda s: len(s['timeline']['ruler']) >= 2 and
                     all(wall_seconds(l) is not None for l in s["timeline"]["ruler"]), 90)
        if not check(s is not None, f'wall clock: the ruler turns to times of day: {app.state()["timeline"]["ruler"]}'):
            return
        labels = s['timeline']['ruler']
        v0, v1 = s['timeline']['visible']
        # the visible span as local seconds of the day, from SQL alone
        day = 86400
        lo = ((utc + (v0 - clock)) / 1e9 + 3 * 3600) % day
        hi = lo + (v1 - v0) / 1e9
        secs = [wall_seconds(l) for l in labels]
        slack = 1e-9 + (v1 - v0) / 1e9 / 1000
        check(len(secs) >= 2, f'wall clock: at least two labels: {labels}')
        check(all(lo - slack <= x <= hi + slack or lo - slack <= x + day <= hi + slack for x in secs),
              f'wall clock: every label lies in the visible span {lo:.6f}..{hi:.6f} s of the day: {labels}')
        steps = [round(b - a, 9) for a, b in zip(secs, secs[1:])]
        check(len(set(steps)) == 1 and steps[0] > 0, f'wall clock: labels evenly spaced: {steps}')
        time.sleep(0.5)
        screenshot(s['xid'], os.path.join(OUT, 'wall-clock.png'))
        change_time_display(app, tmp, 'relative')
        s = app.wait(lambda s: s['timeline']['ruler'] and
                     all(wall_seconds(l) is None for l in s['timeline']['ruler']), 30)
        check(s is not None, 'wall clock: back to relative labels')
    finally:
        app.close()
    # a 2020 export has no TARGET_INFO_SESSION_START_TIME: relative, no crash
    old = os.path.join(tmp, 'old.sqlite')
    subprocess.run([GEN, old, '--layout', '2020', '--gpus', '1', '--kernels', '300'], check=True,
                   capture_output=True)
    set_time_display(tmp, 'wall-clock')
    app = App(tmp, old, env=env)
    try:
        s = app.wait(lambda s: s.get('timeline') and s['timeline']['complete'] and s['timeline']['ruler'], 60)
        if check(s is not None, 'wall clock: a file without a session start loads'):
            time.sleep(1)
            s = app.state()
            check(all(wall_seconds(l) is None for l in s['timeline']['ruler']),
                  f'wall clock: without a session start the ruler stays relative: {s["timeline"]["ruler"]}')
    finally:
        app.close()


def test_german(tmp):
    """LANGUAGE=de: the app speaks German (the build tree's catalogue, as meson devenv sets it)."""
    build = os.path.dirname(os.path.dirname(os.path.dirname(APP)))
    po = os.path.join(build, 'po')
    if not check(os.path.exists(os.path.join(po, 'de', 'LC_MESSAGES', 'sightline.mo')),
                 'the German catalogue is built'):
        return
    # LC_ALL=C would make gettext ignore LANGUAGE: C.UTF-8 needs no generated locale
    app = App(tmp, REAL, env={'LANGUAGE': 'de', 'LC_ALL': 'C.UTF-8', 'LANG': 'C.UTF-8',
                              'SIGHTLINE_LOCALEDIR': po})
    try:
        s = app.wait(lambda s: complete(s) or s['page'] == 'error')
        if not check(s is not None and s['page'] == 'profile', 'the profile opens in German'):
            return
        with sqlite3.connect(f'file:{REAL}?mode=ro', uri=True) as db:
            kernels = db.execute('SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL').fetchone()[0]
        m = re.search(r'· ([\d.,\u202f ]+) (\S+)$', s['subtitle'])
        check(m is not None and int(re.sub(r'\D', '', m.group(1))) == kernels and m.group(2) == 'Kernel',
              f'the subtitle counts the {kernels} kernels in German: ' + s['subtitle'])
        s = app.wait(lambda s: s['load_bar']['text'] != '', 10) or s
        check(s['load_bar']['text'] == 'Fertig', 'the load bar says “Fertig”: ' + s['load_bar']['text'])
        check(s['panel']['shown'] and s['panel']['page'] == 'tree', 'the side panel shows the NVTX tree')
        time.sleep(0.5)
        screenshot(s['xid'], os.path.join(OUT, 'german.png'))
    finally:
        app.close()


def test_summary_shown_later(tmp):
    """The Summary page computed while the NVTX page was shown has its sections built when it is first
    shown (not during the load): its kernel links then name `sightline-cli kernels`' top kernels, and its
    histogram (built in a worker) counts what SQL counts."""
    state = os.path.join(tmp, 'state', 'sightline')
    os.makedirs(state, exist_ok=True)
    with open(os.path.join(state, 'ui.ini'), 'w') as f:
        f.write('[window]\nside-panel-page=tree\nside-panel-shown=true\n')
    app = App(tmp, REAL, env={'XDG_STATE_HOME': os.path.join(tmp, 'state')})
    try:
        s = app.wait(lambda s: complete(s) and s['panel']['page'] == 'tree' and summary_ready(s, 'whole')
                     and s['panel']['tabs'].get('summary'), 60)
        if not check(s is not None, 'the hidden Summary page sums up the whole profile'):
            return
        check(s['panel']['summary']['kernel_links'] == [], 'a hidden page shows no links')
        x, y = s['panel']['tabs']['summary']
        # A click can be lost while the window is busy under the sanitizers (the page stayed
        # "tree" in one CI run): click again until the page changes, at most three times.
        for _ in range(3):
            xdo('mousemove', '--window', s['xid'], int(x), int(y), 'click', 1)
            if app.wait(lambda t: t['panel']['page'] == 'summary', 10) is not None:
                break
        s = app.wait(lambda t: t['panel']['page'] == 'summary' and t['panel']['summary']['kernel_links']
                     and t['panel']['summary']['histogram']['n'] > 0
                     and not t['panel']['summary']['histogram']['computing'], 30)
        if not check(s is not None, 'shown, the Summary page lists its kernels'):
            t = app.state() or {}
            p = t.get('panel', {})
            h = p.get('summary', {}).get('histogram', {})
            log(f"#   page {p.get('page')}, {len(p.get('summary', {}).get('kernel_links') or [])} links, "
                f"histogram n {h.get('n')} computing {h.get('computing')}, tabs {p.get('tabs')}")
            return
        s = app.settle()
        summ = s['panel']['summary']['summary']
        check_summary_numbers(summ, None, None, 'shown later')
        names = [link['name'] for link in s['panel']['summary']['kernel_links']]
        top = [r['name'] for r in cli_json('kernels', REAL)['kernels']][:len(names)]
        check(names == top, f'its links are `kernels`\' top names: {names[:3]}')
        check(s['panel']['summary']['histogram']['name'] == top[0], 'the histogram shows the top kernel')
        check_histogram(app, s, s['panel']['summary']['start_ns'], s['panel']['summary']['end_ns'])
        screenshot(s['xid'], os.path.join(OUT, 'summary-later.png'))
    finally:
        app.close()


def main():
    only = os.environ.get('SL_GUI_TESTS')   # e.g. SL_GUI_TESTS=test_staged,test_staged_error
    # SL_GUI_SHARD=K/N: only the cases whose place in the list is K modulo N, so
    # meson runs the suite as N tests with a timeout each and none is left out
    shard, shards = (int(x) for x in os.environ.get('SL_GUI_SHARD', '0/1').split('/'))
    for tool in ('xdotool', 'import', 'convert'):
        if shutil.which(tool) is None:
            log(f'# skip: {tool} is not installed')
            return 77
    if not os.environ.get('DISPLAY'):
        log('# skip: no X display (run under xvfb-run)')
        return 77
    os.makedirs(OUT, exist_ok=True)
    for index, test in enumerate((test_welcome,
                 test_bad_file,
                 test_real,
                 test_generated,
                 test_staged,
                 test_staged_cancel,
                 test_staged_error,
                 test_panel,
                 test_search,
                 test_summary,
                 test_flame,
                 test_tree,
                 test_tree_follows,
                 test_rough_edges,
                 test_links,
                 test_row_control,
                 test_cpu_rows,
                 test_cpu_summary,
                 test_compare_window,
                 test_merged_ranks,
                 test_export_dialog,
                 test_compare_export,
                 test_preferences,
                 test_compare_offset,
                 test_compare_bad_file,
                 test_bookmarks,
                 test_tree_width,
                 test_rank_summaries,
                 test_iteration_histogram,
                 test_search_scope,
                 test_tree_all_instances,
                 test_wall_clock,
                 test_german,
                 test_summary_shown_later)):
        if only and test.__name__ not in only.split(','):
            continue
        if index % shards != shard:
            continue
        with tempfile.TemporaryDirectory(prefix='sightline-gui-') as tmp:
            log('#', test.__name__)
            try:
                test(tmp)
            except Exception as e:  # report and go on with the next case
                log(traceback.format_exc())
                check(False, f'{test.__name__} raised {e!r}')
    log(f'{PASSED} passed, {FAILED} failed')
    log(f'# screenshots in {OUT}')
    return 1 if FAILED else 0


if __name__ == '__main__':
    sys.exit(main())
