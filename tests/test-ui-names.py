#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A cheap static guard for issue 16 part 5 (every control has a name): an
icon-only button says nothing to a screen reader, and GTK 4.8 then names it
after its class ("GtkButton", "GtkImage").

- in every .ui file under app/ and widgets/, a GtkButton / GtkMenuButton /
  GtkToggleButton with an icon-name (or only a GtkImage child) needs a label,
  or both a tooltip and an <accessibility> label, translatable;
- in the C sources, a function that makes an icon-only button
  (gtk_button_new_from_icon_name, gtk_menu_button_set_icon_name,
  gtk_button_set_icon_name) also sets its tooltip and accessible label
  (or calls sl_accessible_name_set, which does both).

The checker first proves on fixtures that it flags what it should.

  test-ui-names.py SOURCE_ROOT
"""
import os
import re
import sys
import xml.etree.ElementTree as ET

BUTTONS = ('GtkButton', 'GtkMenuButton', 'GtkToggleButton')
ICON_CALLS = re.compile(r'\b(gtk_button_new_from_icon_name|gtk_menu_button_set_icon_name|gtk_button_set_icon_name)\s*\(')


def props(obj):
    return {p.get('name'): p for p in obj.findall('property')}


def ui_problems(text, where):
    """The icon-only buttons of one .ui text that lack a name."""
    problems = []
    for obj in ET.fromstring(text).iter('object'):
        if obj.get('class') not in BUTTONS:
            continue
        p = props(obj)
        children = [c.find('object') for c in obj.findall('child')]
        image_only = children and all(c is not None and c.get('class') == 'GtkImage' for c in children)
        if 'icon-name' not in p and not image_only:
            continue
        if 'label' in p:
            continue
        tooltip = p.get('tooltip-text') if 'tooltip-text' in p else p.get('tooltip-markup')
        a11y = [q for acc in obj.findall('accessibility') for q in acc.findall('property') if q.get('name') == 'label']
        what = f'{where}: {obj.get("class")} {obj.get("id") or "(no id)"}'
        if tooltip is None or not (tooltip.text or '').strip():
            problems.append(f'{what} is icon-only without a tooltip')
        elif tooltip.get('translatable') != 'yes':
            problems.append(f'{what}: its tooltip is not translatable')
        if not a11y or not (a11y[0].text or '').strip():
            problems.append(f'{what} is icon-only without an <accessibility> label')
        elif a11y[0].get('translatable') != 'yes':
            problems.append(f'{what}: its accessible label is not translatable')
    return problems


def functions(text):
    """(first line, body) of each top-level C function: from a '{' to a '}' in column 0."""
    start = None
    lines = text.split('\n')
    for i, line in enumerate(lines):
        if line.startswith('{'):
            start = i
        elif line.startswith('}') and start is not None:
            yield start + 1, '\n'.join(lines[start:i + 1])
            start = None


def c_problems(text, where):
    problems = []
    for line, body in functions(text):
        if not ICON_CALLS.search(body) or 'sl_accessible_name_set' in body:
            continue
        if 'gtk_widget_set_tooltip_text' not in body and 'gtk_widget_set_tooltip_markup' not in body:
            problems.append(f'{where}:{line}: an icon-only button without a tooltip')
        if 'GTK_ACCESSIBLE_PROPERTY_LABEL' not in body:
            problems.append(f'{where}:{line}: an icon-only button without an accessible label')
    return problems


def self_test():
    """The checker flags the bad fixtures and passes the good ones."""
    bad_ui = '''<interface><object class="GtkBox">
      <child><object class="GtkButton" id="bare"><property name="icon-name">x</property></object></child>
      <child><object class="GtkMenuButton" id="tip_only"><property name="icon-name">x</property>
        <property name="tooltip-text" translatable="yes">Menu</property></object></child>
      <child><object class="GtkToggleButton" id="image"><child><object class="GtkImage"/></child></object></child>
    </object></interface>'''
    good_ui = '''<interface><object class="GtkBox">
      <child><object class="GtkButton"><property name="icon-name">x</property>
        <property name="tooltip-text" translatable="yes">Close</property>
        <accessibility><property name="label" translatable="yes">Close</property></accessibility></object></child>
      <child><object class="GtkButton"><property name="label" translatable="yes">_Open</property></object></child>
    </object></interface>'''
    bad_c = 'static GtkWidget *\nf (void)\n{\n  return gtk_button_new_from_icon_name ("x");\n}\n'
    good_c = ('static GtkWidget *\nf (void)\n{\n  GtkWidget *b = gtk_button_new_from_icon_name ("x");\n'
              '  sl_accessible_name_set (b, _("X"));\n  return b;\n}\n')
    flagged = ui_problems(bad_ui, 'fixture')
    return [f'self-test: {msg}' for ok, msg in [
        (sum('bare' in p for p in flagged) == 2, 'a bare icon button is flagged twice'),
        (sum('tip_only' in p for p in flagged) == 1, 'a tooltip without an accessible label is flagged'),
        (any('image' in p for p in flagged), 'a button with only a GtkImage child is flagged'),
        (not ui_problems(good_ui, 'fixture'), 'named buttons pass'),
        (len(c_problems(bad_c, 'fixture')) == 2, 'a bare gtk_button_new_from_icon_name is flagged'),
        (not c_problems(good_c, 'fixture'), 'sl_accessible_name_set passes'),
    ] if not ok]


def main():
    top = sys.argv[1]
    failures = self_test()
    checked = 0
    for room in ('app', 'widgets'):
        for dirpath, _, files in os.walk(os.path.join(top, room)):
            if '/tests' in dirpath:
                continue
            for name in sorted(files):
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, top)
                if name.endswith('.ui'):
                    failures += ui_problems(open(path, encoding='utf-8').read(), rel)
                    checked += 1
                elif name.endswith('.c'):
                    failures += c_problems(open(path, encoding='utf-8', errors='replace').read(), rel)
                    checked += 1
    for f in failures:
        print('FAIL -', f)
    print(f'{checked} files checked, {len(failures)} problems')
    return 1 if failures or checked == 0 else 0


sys.exit(main())
