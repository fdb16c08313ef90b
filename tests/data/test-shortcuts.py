#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The shortcuts window lists every accelerator the application sets:
each one given to set_accels() in sl-application.c appears in an
accelerator property of gtk/help-overlay.ui (and the reverse for <Control>
shortcuts, so a removed shortcut leaves the window too).

  test-shortcuts.py SOURCE_ROOT
"""
import os
import re
import sys
import xml.etree.ElementTree as ET

top = sys.argv[1]
# Second keys for the same action that the window need not spell out: = is
# + without Shift on US keyboards; Back/Forward are the browser keys of
# some keyboards and mice.
ALIASES = {'<Control>equal', 'Back', 'Forward'}
# Shown in the window but set by widgets, not set_accels(): GTK's own
# shortcuts-window key, and the timeline's own keys.
NOT_APP_ACCELS = {'<Control>question'}


def norm(accel):
    # GTK matches modifiers case-insensitively; <Primary> is <Control> here
    accel = re.sub(r'<(\w+)>', lambda m: '<' + m.group(1).capitalize() + '>', accel)
    return accel.replace('<Primary>', '<Control>').replace('<Ctrl>', '<Control>')


def app_accels():
    text = open(os.path.join(top, 'app', 'gui', 'sl-application.c'), encoding='utf-8').read()
    found = {}
    for m in re.finditer(r'set_accels\s*\(\s*\w+\s*,\s*"([^"]+)"\s*,((?:\s*"[^"]*"\s*,)+)\s*NULL\s*\)', text):
        for accel in re.findall(r'"([^"]*)"', m.group(2)):
            found[norm(accel)] = m.group(1)
    return found


def overlay_accels():
    tree = ET.parse(os.path.join(top, 'app', 'gui', 'gtk', 'help-overlay.ui'))
    shown = set()
    for prop in tree.iter('property'):
        if prop.get('name') == 'accelerator' and prop.text:
            shown.update(norm(a) for a in prop.text.split())
    return shown


def main():
    failures = []
    accels, shown = app_accels(), overlay_accels()
    if len(accels) < 10:
        failures.append(f'only {len(accels)} accelerators found in sl-application.c: did its form change?')
    for accel, action in sorted(accels.items()):
        if accel not in shown and accel not in ALIASES:
            failures.append(f'{accel} ({action}) is not in the shortcuts window')
    for accel in sorted(shown):
        if accel.startswith('<Control>') and accel not in accels and accel not in NOT_APP_ACCELS:
            failures.append(f'the shortcuts window lists {accel}, which no action has')
    for f in failures:
        print('FAIL:', f)
    print(f'{len(accels)} accelerators checked; {0 if failures else 1} passed, {len(failures)} failed')
    return 1 if failures else 0


sys.exit(main())
