#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""test-html-report.py: the HTML report (issue 14) in headless Chromium.

For every real profile and a generated one: the report loads with no
console error, no exception, no CSP violation and no request but its own
file; the top-kernels table holds exactly what `sightline-cli kernels
--json` says; the NVTX tree expands (a node opens on click, "Expand all"
shows more) and the search filters.  A profile whose names are hostile
(markup, </script>, quotes, U+2028, invalid UTF-8) shows them as text: no
dialog, no extra element.

Usage: test-html-report.py SIGHTLINE-CLI HTML-EXPORT-DUMP PROFILES-DIR SIGHTLINE-GEN CHROMIUM"""
import json, os, shutil, sqlite3, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sl_cdp  # noqa: E402

CLI, DUMP, PROFILES, GEN, CHROMIUM = sys.argv[1:6]
TOP = 100
HOSTILE = ["<img src=x onerror=alert(1)>", "</script><script>alert(2)</script>",
           "q\"uo'te & <b>amp</b>", "line\u2028sep\u2029para"]
INVALID = b"bad \xff\xfe utf8 <i>x</i>"
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def cli_kernels(profile):
    out = subprocess.run([CLI, "kernels", profile, "--json", "--top", str(TOP)],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def report(profile, tmp, *flags):
    out = os.path.join(tmp, os.path.basename(profile) + ".html")
    subprocess.run([DUMP, profile, out, *flags], check=True)
    return out


def table_rows(c):
    return c.eval("""Array.from(document.querySelectorAll('#kernels-table tbody tr')).map(r =>
        [r.cells[0].textContent].concat(Array.from(r.cells).slice(1).map(td => td.getAttribute('data-v'))))""")


def check_kernels(c, profile, name):
    want = cli_kernels(profile)
    rows = table_rows(c)
    check(len(rows) == len(want["kernels"]), f"{name}: {len(rows)} kernel rows, CLI has {len(want['kernels'])}")
    for got, k in zip(rows, want["kernels"]):
        check(got[0] == k["name"], f"{name}: kernel name {got[0]!r} != {k['name']!r}")
        ints = [int(got[1]), int(float(got[2])), int(float(got[5])), int(float(got[6]))]
        check(ints == [k["instances"], k["total_ns"], k["min_ns"], k["max_ns"]],
              f"{name}: {k['name']}: {ints} != CLI's")
        # The JSON rounds averages and medians to whole nanoseconds; the table keeps them exact.
        for v, key, tol in ((got[3], "avg_ns", 0.5), (got[4], "med_ns", 0.5), (got[7], "time_pct", 1e-9)):
            check(abs(float(v) - k[key]) <= tol * max(1.0, abs(k[key]) if key == "time_pct" else 1.0),
                  f"{name}: {k['name']} {key} {v} != {k[key]}")
    total = c.eval("document.querySelector('#kernels .note').getAttribute('data-total')")
    check(int(total) == want["total_ns"], f"{name}: total {total} != {want['total_ns']}")


def check_tree(c, name):
    shown = c.eval("document.querySelectorAll('#tree-root li').length")
    n_nodes = c.eval("JSON.parse(document.getElementById('tree-data').textContent).nodes.length")
    check((shown > 0) == (n_nodes > 0), f"{name}: tree shows {shown} of {n_nodes} nodes")
    if n_nodes == 0:
        return
    # A collapsed node opens on click and shows its children.
    opened = c.eval("""(() => { const li = Array.from(document.querySelectorAll('#tree-root li'))
          .find(l => l.getAttribute('aria-expanded') !== 'true' && l.querySelector('.tog').textContent === '▶');
        if (!li) return -1;
        li.querySelector('.tog').click();
        return li.querySelectorAll(':scope > ul > li').length; })()""")
    check(opened != 0, f"{name}: a clicked node showed no children")
    c.eval("document.querySelector('button[data-depth=\"0\"]').click()")
    everything = c.eval("document.querySelectorAll('#tree-root li').length")
    check(everything >= shown and everything == min(n_nodes, 20000) or everything == 20000,
          f"{name}: expand all shows {everything} of {n_nodes} nodes (depth 2 showed {shown})")
    # The search keeps the paths to matching nodes, and marks the matches.
    kernel = c.eval("""(() => { const d = JSON.parse(document.getElementById('tree-data').textContent);
        const k = d.nodes.find(n => n[0] === 1); return k ? d.names[k[1]] : d.names[d.nodes[0][1]]; })()""")
    query = kernel[:max(3, len(kernel) // 2)]
    c.eval(f"""(() => {{ const i = document.getElementById('tree-search'); i.value = {json.dumps(query)};
        i.dispatchEvent(new Event('input')); }})()""")
    c.eval("new Promise(r => setTimeout(r, 400))")
    hits = c.eval("Array.from(document.querySelectorAll('#tree-root .hit')).map(h => h.textContent)")
    check(len(hits) > 0 and all(query.lower() in h.lower() for h in hits),
          f"{name}: search {query!r} marked {hits[:3]}")
    leaves_ok = c.eval(f"""Array.from(document.querySelectorAll('#tree-root li')).every(li =>
        li.querySelector('.hit') !== null)""")
    check(leaves_ok, f"{name}: search shows a node with no match on its path")
    c.eval("""(() => { const i = document.getElementById('tree-search'); i.value = '';
        i.dispatchEvent(new Event('input')); })()""")


def check_report(c, path, profile, name):
    c.open(path)
    problems = c.problems()
    check(problems == [], f"{name}: console/network problems: {problems}")
    check_kernels(c, profile, name)
    check_tree(c, name)
    # The sort reorders the table by the clicked column.
    c.eval("document.querySelectorAll('#kernels-table th')[1].click()")
    counts = c.eval("Array.from(document.querySelectorAll('#kernels-table tbody tr')).map(r => +r.cells[1].getAttribute('data-v'))")
    check(counts == sorted(counts, reverse=True), f"{name}: sorting by instances gave {counts[:5]}")
    check(c.problems() == [], f"{name}: problems after interaction: {c.problems()}")


def make_hostile(tmp):
    path = os.path.join(tmp, "hostile.sqlite")
    subprocess.run([GEN, path, "--gpus", "2", "--iterations", "3", "--kernels", "2000", "--nvtx-depth", "3",
                    "--seed", "7"], check=True, capture_output=True)
    db = sqlite3.connect(path)
    ids = [r[0] for r in db.execute("SELECT DISTINCT shortName FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY shortName")]
    names = HOSTILE + [INVALID]
    for i, sid in enumerate(ids[:len(names)]):
        db.execute("UPDATE StringIds SET value = ? WHERE id = ?", (names[i], sid))
    db.execute("UPDATE NVTX_EVENTS SET text = ? WHERE text IS NOT NULL AND rowid % 3 = 0", (HOSTILE[0],))
    tids = [r[0] for r in db.execute("SELECT DISTINCT textId FROM NVTX_EVENTS WHERE textId IS NOT NULL LIMIT 2")]
    for i, tid in enumerate(tids):
        db.execute("UPDATE StringIds SET value = ? WHERE id = ?", (HOSTILE[1 + i], tid))
    db.commit()
    db.close()
    return path


def check_hostile(c, tmp):
    profile = make_hostile(tmp)
    path = report(profile, tmp, "--bookmark", HOSTILE[1], "0", str(2 ** 62))
    with open(path, "rb") as f:
        raw = f.read()
    check(raw.lower().count(b"</script") == 2, "hostile: a name ended a <script> element")
    check(raw.lower().count(b"<script") == 2, "hostile: a name opened a <script> element")
    c.open(path)
    check(c.problems() == [], f"hostile: problems {c.problems()}")
    elements = c.eval("""({img: document.querySelectorAll('img').length, script: document.scripts.length,
        b: document.querySelectorAll('main b:not(.bookmarks b)').length, i: document.querySelectorAll('i').length})""")
    check(elements == {"img": 0, "script": 2, "b": 0, "i": 0}, f"hostile: extra elements {elements}")
    text = c.eval("document.body.textContent")
    for h in HOSTILE[:3]:
        check(h in text, f"hostile: {h!r} is not shown as text")
    check("utf8 <i>x</i>" in text, "hostile: the invalid UTF-8 name is not shown")
    check_kernels(c, profile, "hostile")
    c.eval("""(() => { const i = document.getElementById('tree-search'); i.value = 'onerror';
        i.dispatchEvent(new Event('input')); })()""")
    c.eval("new Promise(r => setTimeout(r, 400))")
    hits = c.eval("Array.from(document.querySelectorAll('#tree-root .hit')).map(h => h.textContent)")
    check(HOSTILE[0] in hits, f"hostile: the tree search found {hits[:3]}")
    check(c.eval("document.querySelectorAll('img').length") == 0, "hostile: the tree made an <img>")


def main():
    tmp = tempfile.mkdtemp(prefix="sl-html-report-")
    c = sl_cdp.Chromium(CHROMIUM)
    try:
        profiles = sorted(os.path.join(PROFILES, p) for p in os.listdir(PROFILES) if p.endswith(".sqlite"))
        gen = os.path.join(tmp, "gen.sqlite")
        subprocess.run([GEN, gen, "--gpus", "2", "--processes", "2", "--iterations", "4", "--kernels", "20000",
                        "--nvtx-depth", "4", "--nccl", "--seed", "3"], check=True, capture_output=True)
        for profile in profiles + [gen]:
            name = os.path.basename(profile)
            check_report(c, report(profile, tmp), profile, name)
            print("ok", name)
        check_hostile(c, tmp)
        print("ok hostile")
        # Privacy: the environment only on request, and the choice recorded.
        path = report(gen, tmp)
        with open(path, encoding="utf-8") as f:
            html = f.read()
        check('name="sightline-environment-included" content="false"' in html and "SL_DUMMY" not in html,
              "environment: leaked or choice not recorded")
        path = report(gen, tmp, "--include-environment")
        with open(path, encoding="utf-8") as f:
            html = f.read()
        check('content="true"' in html and "SL_DUMMY=1" in html, "environment: not included on request")
    finally:
        c.close()
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print(f"{len(failures)} failures")
        sys.exit(1)
    print("all ok")


main()
