#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The text tables of sightline-cli stay aligned in a terminal when names are
Chinese, Japanese or Cyrillic: a CJK character takes two columns, a Cyrillic
one takes one column but two bytes (printf pads bytes, g_utf8_strlen counts
characters; neither is a terminal column).

A generated profile with its step, op and kernel names rewritten by SQL;
column widths are measured here with Python's own East Asian Width table:
  - iterations: every line of the table is as wide (its last column is
    right-aligned), and the names are there;
  - tree: every line's duration ends in the same column ("µs" is three
    bytes, "预热" two characters, both two columns), but for labels beyond
    the 110-column cap;
  - bookmarks list: the durations end under the header's, a 60-column name
    is cut to at most 40 columns and ends with "…";
  - info in German: the event counts end in one column though
    "Betriebssystem-Laufzeit" is longer than the English labels, and the
    values after "Profil:" and "Dauer:" start in one column;
  - ranks in German: the iteration table's columns end under its
    header's, "Iter." being five characters.
Usage: test-cli-wide-text.py CLI SL_GEN PO_BUILD_DIR"""
import os
import sqlite3
import subprocess
import sys
import tempfile
import sl_cli_test
from sl_cli_test import check, run, text_columns as columns

CLI, GEN, PO = sys.argv[1:4]
sl_cli_test.CLI = CLI
TMP = tempfile.mkdtemp(prefix="sl-wide-text-")
os.environ["HOME"] = TMP
os.environ["XDG_DATA_HOME"] = os.path.join(TMP, "data")
os.environ["XDG_CACHE_HOME"] = os.path.join(TMP, "cache")
os.environ["LC_ALL"] = "C.UTF-8"


PROFILE = os.path.join(TMP, "wide.sqlite")
subprocess.run([GEN, PROFILE, "--gpus", "2", "--iterations", "4", "--kernels", "2000", "--scope-ranges",
                "--seed", "7"], check=True, capture_output=True)
db = sqlite3.connect(PROFILE)
# range names are inline (NVTX_EVENTS.text) or by id (StringIds): both
for table, column in (("StringIds", "value"), ("NVTX_EVENTS", "text")):
    db.execute(f"UPDATE {table} SET {column} = '预热' WHERE {column} = 'warmup'")
    db.execute(f"UPDATE {table} SET {column} = '训练步骤_' || substr({column}, 6) "
               f"WHERE {column} LIKE 'step\\_%' ESCAPE '\\'")
    db.execute(f"UPDATE {table} SET {column} = 'ソフトマックス計算' WHERE {column} = 'computing_softmax'")
kernel_name = db.execute("SELECT value FROM StringIds WHERE id = "
                         "(SELECT shortName FROM CUPTI_ACTIVITY_KIND_KERNEL LIMIT 1)").fetchone()[0]
db.execute("UPDATE StringIds SET value = 'ядро_' || value WHERE value = ?", (kernel_name,))
db.commit()
db.close()
KERNEL = "ядро_" + kernel_name

# iterations: the table from its header to the blank line after it
p = run("iterations", PROFILE)
check(p.returncode == 0, f"iterations: exit {p.returncode}: {p.stderr}")
lines = p.stdout.splitlines()
head = next((i for i, line in enumerate(lines) if line.lstrip().startswith("PID")), None)
if check(head is not None, f"iterations: no table header in {p.stdout[:300]}"):
    table = []
    for line in lines[head:]:
        if not line.strip():
            break
        table.append(line)
    check(len(table) >= 4, f"iterations: {len(table) - 1} rows, expected the 4 steps")
    check(any("训练步骤_1" in line for line in table), "iterations: the step names are not in the table")
    widths = {columns(line) for line in table}
    check(len(widths) == 1, f"iterations: lines of {sorted(widths)} columns: {table}")

# tree: label, padding, then the duration right-aligned; "(GPU …)" after it on ranges
p = run("tree", PROFILE)
check(p.returncode == 0, f"tree: exit {p.returncode}: {p.stderr}")
ends = {}
for line in p.stdout.splitlines():
    cut = line.find("  (GPU ")
    head = line if cut < 0 else line[:cut]
    label = head[:len(head) - len(" ".join(head.split()[-2:]))].rstrip()
    # labels beyond the 110-column cap push their duration out, by design
    if columns(label) < 110:
        ends.setdefault(columns(head), line)
check("ソフトマックス計算" in p.stdout and "训练步骤_1" in p.stdout, "tree: the range names are not printed")
check(KERNEL in p.stdout, "tree: the kernel name is not printed")
check(len(ends) == 1, f"tree: durations end in columns {sorted(ends)}: {list(ends.values())[:3]}")

# bookmarks: names in the first column, cut at 40 columns
LONG = "训练第一步的很长的书签名称用来测试截断是否按终端列计算而不是字符"   # 31 characters, 62 columns
for name, start in (("第一步", "+10ms"), (LONG, "+20ms"), ("Шаг", "+30ms")):
    p = run("bookmarks", "add", PROFILE, "--name", name, "--range", start, "+40ms")
    check(p.returncode == 0, f"bookmarks add {name}: exit {p.returncode}: {p.stderr}")
p = run("bookmarks", PROFILE)
check(p.returncode == 0, f"bookmarks: exit {p.returncode}: {p.stderr}")
lines = [line for line in p.stdout.splitlines() if line.strip()]
header = next((line for line in lines if line.startswith("Name")), None)
if check(header is not None, f"bookmarks: no header in {p.stdout}"):
    rows = lines[lines.index(header) + 1:]
    check(len(rows) == 3, f"bookmarks: {len(rows)} rows: {rows}")
    duration_end = columns(header[:header.index("Duration") + len("Duration")])
    for row in rows:
        # the note is empty: a row ends with its duration
        check(columns(row.rstrip()) == duration_end,
              f"bookmarks: row ends at column {columns(row.rstrip())}, header's Duration at {duration_end}: {row!r}")
    cut = next((row for row in rows if row.startswith("训练第一步")), "")
    name_cell = cut.split("  ")[0]
    check(name_cell.endswith("…") and columns(name_cell) <= 40,
          f"bookmarks: the long name is {columns(name_cell)} columns: {name_cell!r}")
    check(any(row.startswith("第一步 ") for row in rows), "bookmarks: the short CJK name is missing")

# info in German (the build tree's catalogue; C.UTF-8 needs no generated locale)
env = dict(os.environ, LANGUAGE="de", SIGHTLINE_LOCALEDIR=PO)
p = subprocess.run([CLI, "info", PROFILE], capture_output=True, text=True, env=env)
check(p.returncode == 0, f"info (de): exit {p.returncode}: {p.stderr}")
check("Ereignisse:" in p.stdout, f"info (de): not in German: {p.stdout[:300]}")
lines = p.stdout.splitlines()
start = next((i for i, line in enumerate(lines) if line == "Ereignisse:"), None)
if check(start is not None, f"info (de): no event counts in {p.stdout}"):
    counts = []
    for line in lines[start + 1:]:
        if not line.startswith("  "):
            break
        counts.append(line)
    ends = {columns(line.split("  (")[0]) for line in counts}
    check(len(counts) >= 6 and len(ends) == 1, f"info (de): counts end in columns {sorted(ends)}: {counts}")
heads = [line for line in lines if line.startswith(("Profil:", "Dauer:"))]


def value_column(line):
    """The column where the value after a heading starts."""
    value = line.split(":", 1)[1].lstrip(" ")
    return columns(line[:len(line) - len(value)])


check(len(heads) == 2 and len({value_column(h) for h in heads}) == 1,
      f"info (de): the headings' values start in different columns: {heads}")

# ranks in German: the iteration table
ranks = []
for r in (0, 1):
    path = os.path.join(TMP, f"rank{r}.sqlite")
    subprocess.run([GEN, path, "--kernels", "1500", "--iterations", "3", "--rank", str(r), "--seed", str(r + 3)],
                   check=True, capture_output=True)
    ranks.append(path)
p = subprocess.run([CLI, "ranks", *ranks], capture_output=True, text=True, env=env)
check(p.returncode == 0, f"ranks (de): exit {p.returncode}: {p.stderr}")
lines = p.stdout.splitlines()
head = next((i for i, line in enumerate(lines) if line.startswith("Iter.")), None)
if check(head is not None and "  Nachzügler" in lines[head], f"ranks (de): no iteration table in {p.stdout}"):
    cells_end = {columns(lines[head][:lines[head].index("  Nachzügler")])}
    rows = lines[head + 1:head + 4]
    for row in rows:
        cells_end.add(columns(row[:row.rindex("  Rang ")]))
    check(len(rows) == 3 and len(cells_end) == 1, f"ranks (de): cells end in columns {sorted(cells_end)}: {lines[head:head + 4]}")

sys.exit(sl_cli_test.finish())
