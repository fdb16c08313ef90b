#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The accessibility tree, as a screen reader sees it: run the app with
AT-SPI on (its own D-Bus session, under Xvfb) and walk the tree with
pyatspi for the named side panel, timeline (whose description tells the
visible range) and details pane.

  dbus-run-session -- xvfb-run -a test-a11y.py SIGHTLINE PROFILE
"""
import os
import subprocess
import sys
import tempfile
import time

# pyatspi is a Debian package: use the system's Python if this one lacks it
try:
    import pyatspi
except ImportError:
    if os.path.exists('/usr/bin/python3') and sys.executable != '/usr/bin/python3' \
            and not os.environ.get('SL_A11Y_REEXEC'):
        os.environ['SL_A11Y_REEXEC'] = '1'
        os.execv('/usr/bin/python3', ['/usr/bin/python3', *sys.argv])
    print('# skip: python3-pyatspi is not installed')
    sys.exit(77)

APP, PROFILE = sys.argv[1:3]
PASSED = FAILED = 0


def check(cond, what):
    global PASSED, FAILED
    PASSED, FAILED = PASSED + bool(cond), FAILED + (not cond)
    print(('ok - ' if cond else 'FAIL - ') + what, flush=True)


def walk(node, depth=0):
    if node is None or depth > 60:
        return
    yield node
    for i in range(node.childCount):
        try:
            yield from walk(node.getChildAtIndex(i), depth + 1)
        except Exception:   # a node gone while walking
            continue


def find_app(pid):
    desktop = pyatspi.Registry.getDesktop(0)
    for i in range(desktop.childCount):
        app = desktop.getChildAtIndex(i)
        try:
            if app is not None and app.get_process_id() == pid:
                return app
        except Exception:
            continue
    return None


def name_of(node):
    try:
        return node.name
    except Exception:   # gone since the walk (a page rebuilt while loading)
        return None


def named(nodes, name):
    return [n for n in nodes if name_of(n) == name]


def main():
    if not os.environ.get('DBUS_SESSION_BUS_ADDRESS') or not os.environ.get('DISPLAY'):
        print('# skip: needs a D-Bus session and an X display (dbus-run-session, xvfb-run)')
        return 77
    with tempfile.TemporaryDirectory(prefix='sightline-a11y-') as tmp:
        env = dict(os.environ, ASAN_OPTIONS=(os.environ.get('ASAN_OPTIONS', '') + ':detect_leaks=0').lstrip(':'),
                   GDK_BACKEND='x11', GSETTINGS_BACKEND='memory', NO_AT_BRIDGE='0',
                   XDG_CONFIG_HOME=tmp, XDG_STATE_HOME=tmp, XDG_DATA_HOME=tmp, XDG_CACHE_HOME=tmp,
                   SIGHTLINE_NO_CACHE='1', LANGUAGE='C', LC_ALL='C.UTF-8')
        env.pop('GTK_A11Y', None)
        log = open(os.path.join(tmp, 'app.log'), 'w')
        proc = subprocess.Popen([APP, PROFILE], env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            nodes, timeline = [], []
            for _ in range(60):       # until the profile is shown (not a timing assertion)
                time.sleep(0.5)
                app = find_app(proc.pid)
                nodes = list(walk(app)) if app else []
                timeline = named(nodes, 'Timeline')
                if timeline and 'Showing' in (timeline[0].description or '') and named(nodes, 'Details'):
                    break
            if proc.poll() is not None:
                log.flush()
                print(open(os.path.join(tmp, 'app.log'), errors='replace').read()[-3000:])
            check(proc.poll() is None, f'the app runs (exit status {proc.poll()})')
            check(app is not None, 'the application is on the AT-SPI bus')
            check(len(timeline) == 1, 'a node named "Timeline"')
            if timeline:
                desc = timeline[0].description or ''
                check(desc.startswith('Showing ') and 'to' in desc, f'its description tells the visible range: {desc!r}')
                check(timeline[0].getRoleName() not in ('unknown', 'invalid'), f'it has a role: {timeline[0].getRoleName()}')
            check(len(named(nodes, 'Side panel')) == 1, 'a node named "Side panel"')
            if os.environ.get("SL_A11Y_DUMP"):
                for n in nodes: print("#", n.getRoleName(), repr(n.name))
            check(any(n.getRoleName() == 'panel' for n in named(nodes, 'Details')), 'a panel named "Details"')
            check(len(named(nodes, 'NVTX tree')) >= 1, 'the NVTX tree is named')
            # GTK 4.8 names a control without a label after its class: "GtkMenuButton"
            unnamed = [f'{n.getRoleName()} {n.name!r}' for n in nodes
                       if n.getRoleName() in ('push button', 'toggle button', 'combo box', 'entry', 'check box', 'radio button')
                       and (not n.name or n.name.startswith('Gtk')) and n.getState().contains(pyatspi.STATE_SHOWING)]
            check(not unnamed, f'every shown control has a name: {unnamed}')
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    print(f'{PASSED} passed, {FAILED} failed')
    return 1 if FAILED else 0


sys.exit(main())
