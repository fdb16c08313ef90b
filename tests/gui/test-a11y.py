#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The accessibility tree, as a screen reader sees it: run the app with
AT-SPI on (its own D-Bus session, under Xvfb) and walk the tree with
pyatspi for the named side panel, timeline (whose description tells the
visible range, checked against sightline-cli info) and details pane; then
open each side-panel page through its switcher tab (the AT-SPI "click"
action) and fail on any control reached, header bar included, that has no
name or only GTK 4.8's class-name fallback ("GtkButton").

  dbus-run-session -- xvfb-run -a test-a11y.py SIGHTLINE PROFILE [SIGHTLINE-CLI]
"""
import json
import re
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
CLI = sys.argv[3] if len(sys.argv) > 3 else None
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


def role_of(node):
    try:
        return node.getRoleName()
    except Exception:
        return None


CONTROLS = ('push button', 'toggle button', 'menu button', 'combo box', 'entry', 'check box', 'radio button',
            'spin button', 'page tab')
PAGES = ('NVTX', 'Search', 'Summary', 'Bookmarks')   # the switcher's tabs, in C


def unnamed_controls(nodes):
    """Every control reached, shown or not (GTK 4.8 marks few nodes
    "showing" under Xvfb), whose name is empty or GTK's class-name fallback."""
    bad = []
    for n in nodes:
        role, name = role_of(n), name_of(n)
        if role in CONTROLS and (not name or not name.strip() or re.fullmatch(r'Gtk[A-Za-z]+', name)):
            bad.append(f'{role} {name!r}')
    return bad


def ns_of(text):
    """'236 ms' -> 236e6; None when it is not a duration."""
    m = re.fullmatch(r'([0-9.]+) (ns|µs|us|ms|s|min)', text.strip())
    if not m:
        return None
    return float(m.group(1)) * {'ns': 1, 'µs': 1e3, 'us': 1e3, 'ms': 1e6, 's': 1e9, 'min': 60e9}[m.group(2)]


def check_range(desc):
    """The visible range at start is the whole profile: its length in the
    description matches sightline-cli info's duration (3 significant digits)."""
    m = re.search(r'\(([^)]*)\)', desc)
    if CLI is None or m is None:
        check(m is not None, f'the description gives the visible length: {desc!r}')
        return
    info = json.loads(subprocess.run([CLI, 'info', '--json', PROFILE], capture_output=True, text=True,
                                     check=True).stdout)
    shown = ns_of(m.group(1))
    check(shown is not None and abs(shown - info['duration_ns']) <= 0.006 * info['duration_ns'],
          f'the visible length {m.group(1)!r} is the profile\'s {info["duration_ns"]} ns (sightline-cli info)')


def wait_for_tab(app, title):
    """Clicks the side panel's tab @title through AT-SPI; returns the walk once
    the tab is selected (not a timing assertion: a bound on the wait)."""
    for _ in range(40):
        nodes = list(walk(app))
        tabs = [n for n in named(nodes, title) if role_of(n) == 'page tab']
        if tabs:
            try:
                state = tabs[0].getState()
                if state.contains(pyatspi.STATE_SELECTED) or state.contains(pyatspi.STATE_CHECKED):
                    return nodes, True
                action = tabs[0].queryAction()
                for i in range(action.nActions):
                    if action.getName(i) == 'click':
                        action.doAction(i)
            except Exception:   # rebuilt while we looked
                pass
        time.sleep(0.25)
    return list(walk(app)), False


def visit_pages(app):
    """Each side-panel page in turn: its tab gets selected, the page is a
    named group, and every control reached then has a name."""
    for title in PAGES:
        nodes, selected = wait_for_tab(app, title)
        check(selected, f'the side panel\'s tab {title!r} is selected through AT-SPI')
        check(any(role_of(n) == 'panel' for n in named(nodes, title)), f'a panel named {title!r} (the page)')
        bad = unnamed_controls(nodes)
        check(not bad, f'with the {title} page open, every control reached has a name: {bad}')


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
                check_range(desc)
                check(timeline[0].getRoleName() not in ('unknown', 'invalid'), f'it has a role: {timeline[0].getRoleName()}')
            check(len(named(nodes, 'Side panel')) == 1, 'a node named "Side panel"')
            if os.environ.get("SL_A11Y_DUMP"):
                for n in nodes: print("#", n.getRoleName(), repr(n.name))
            check(any(n.getRoleName() == 'panel' for n in named(nodes, 'Details')), 'a panel named "Details"')
            check(len(named(nodes, 'NVTX tree')) >= 1, 'the NVTX tree is named')
            # the header bar is reached: its buttons are named
            for name in ('Main Menu', 'Open'):
                check(any(role_of(n) in CONTROLS for n in named(nodes, name)) or
                      any(role_of(n) in CONTROLS and (name_of(n) or '').endswith(' ' + name) for n in nodes),
                      f'the header bar\'s {name!r} button is reached and named')
            # GTK 4.8 names a control without a label after its class: "GtkButton"
            unnamed = unnamed_controls(nodes)
            check(not unnamed, f'every control reached has a name: {unnamed}')
            visit_pages(app)
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    print(f'{PASSED} passed, {FAILED} failed')
    return 1 if FAILED else 0


sys.exit(main())
