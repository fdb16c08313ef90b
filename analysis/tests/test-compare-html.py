#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""test-compare-html.py: `sightline-cli compare A B --html OUT` (issue 15) in
headless Chromium.

A generated pair with planted changes (a kernel 30 % slower, one dropped,
one added) and hostile kernel names: the report loads with no console
error, no exception, no CSP violation and no request but its own file; the
diff table's rows (names and statuses, in order) are `compare --json`'s,
and the planted kernels have the planted statuses; the names are those the
two files hold (SQL); the step times, verdict, basis and category times
equal the JSON; the status and name filters and sorting work; hostile names
stay text.  A failed write leaves no file.

Usage: test-compare-html.py SIGHTLINE-CLI SIGHTLINE-GEN CHROMIUM"""
import json, os, shutil, sqlite3, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sl_cdp  # noqa: E402

CLI, GEN, CHROMIUM = sys.argv[1:4]
SLOW, DROP = "flash_fwd_kernel", "reduce_kernel"
ADDED = "</script><script>alert(2)</script>"
HOSTILE = ["<img src=x onerror=alert(1)>", "q\"uo'te & <b>amp</b>", "line\u2028sep\u2029para"]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def gen(path, *flags):
    subprocess.run([GEN, path, "--gpus", "2", "--iterations", "8", "--kernels", "8000", "--seed", "11", *flags],
                   check=True, capture_output=True)
    # The same three kernels renamed in every profile: hostile names on rows of every kind.
    db = sqlite3.connect(path)
    for new, old in zip(HOSTILE, ["softmax_warp_forward", "softmax_warp_backward", "vectorized_elementwise_kernel"]):
        db.execute("UPDATE StringIds SET value = ? WHERE value = ?", (new, old))
    db.commit()
    db.close()
    return path


def sql_names(path):
    db = sqlite3.connect(path)
    names = {r[0] for r in db.execute("SELECT DISTINCT s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                                      "JOIN StringIds s ON s.id = k.shortName")}
    db.close()
    return names


def compare(profiles, out):
    r = subprocess.run([CLI, "compare", *profiles, "--json", "--html", out], capture_output=True, text=True)
    check(r.returncode == 0, f"compare --html exit {r.returncode}: {r.stderr}")
    return json.loads(r.stdout)


def rows(c):
    return c.eval("""Array.from(document.querySelectorAll('#diff-table tbody tr')).map(r =>
        [r.cells[1].textContent, r.getAttribute('data-status'), !r.hidden])""")


def check_numbers(c, want, name):
    for p, prof in enumerate(want["profiles"]):
        its = prof["iterations"]
        got = c.eval(f"Array.from(document.querySelectorAll('#step-table tbody tr[data-profile=\"{p}\"] td'))"
                     ".map(td => td.getAttribute('data-v'))")
        if its is None:
            check(got[1] == "0", f"{name}: profile {p} shows iterations {got}")
            continue
        check([int(got[1]), round(float(got[2])), round(float(got[3])), round(float(got[4]))]
              == [its["count"], its["median_ns"], its["p10_ns"], its["p90_ns"]],
              f"{name}: step row {p} {got} != {its}")
    v = c.eval("""(() => { const e = document.getElementById('verdict');
        return [e.getAttribute('data-verdict'), e.getAttribute('data-basis')]; })()""")
    check(v == [want["verdict"], want["basis"]], f"{name}: verdict/basis {v}")
    cats = c.eval("""Array.from(document.querySelectorAll('#categories-table tbody tr')).map(r =>
        [r.cells[0].textContent.trim()].concat(Array.from(r.cells).slice(1).map(td => Math.round(+td.getAttribute('data-v')))))""")
    check(cats == [[k["category"]] + k["total_ns"] for k in want["categories"]], f"{name}: categories {cats}")
    bars = c.eval("document.querySelectorAll('svg.stacked').length")
    check(bars == len(want["profiles"]), f"{name}: {bars} category bars")
    dots = c.eval("Array.from(document.querySelectorAll('svg.strips g')).map(g => g.querySelectorAll('circle').length)")
    check(dots == [p["iterations"]["count"] if p["iterations"] else 0 for p in want["profiles"]],
          f"{name}: strip dots {dots}")


def check_filters(c, want, name):
    statuses = [k["status"] for k in want["kernels"]]
    for status in ("slower", "added", "removed", "same"):
        c.eval(f"""(() => {{ const s = document.getElementById('diff-status'); s.value = '{status}';
            s.dispatchEvent(new Event('change')); }})()""")
        shown = [r for r in rows(c) if r[2]]
        check(len(shown) == statuses.count(status) and all(r[1] == status for r in shown),
              f"{name}: status filter {status} shows {shown[:4]}")
    c.eval("""(() => { const s = document.getElementById('diff-status'); s.value = '';
        s.dispatchEvent(new Event('change')); const i = document.getElementById('diff-search');
        i.value = 'SOFTMAX'; i.dispatchEvent(new Event('input')); })()""")
    shown = [r[0] for r in rows(c) if r[2]]
    check(shown == [k["name"] for k in want["kernels"] if "softmax" in k["name"].lower()],
          f"{name}: name filter shows {shown}")
    c.eval("""(() => { const i = document.getElementById('diff-search'); i.value = '';
        i.dispatchEvent(new Event('input')); document.querySelectorAll('#diff-table th')[4].click(); })()""")
    change = c.eval("Array.from(document.querySelectorAll('#diff-table tbody tr')).map(r => r.cells[4].getAttribute('data-v'))"
                    ".filter(v => v !== null).map(Number)")
    check(change == sorted(change, reverse=True) and len(change) > 0, f"{name}: sorting by change gave {change[:5]}")


def check_pair(c, tmp):
    a = gen(os.path.join(tmp, "a.sqlite"))
    b = gen(os.path.join(tmp, "b.sqlite"), f"--slow-kernel={SLOW}=1.3", f"--drop-kernel={DROP}",
            f"--add-kernel={ADDED}")
    out = os.path.join(tmp, "pair.html")
    want = compare([a, b], out)
    c.open(out)
    check(c.problems() == [], f"pair: console/network problems: {c.problems()}")
    got = rows(c)
    check([r[:2] for r in got] == [[k["name"], k["status"]] for k in want["kernels"]],
          f"pair: diff rows {got[:5]} != compare --json")
    check({r[0] for r in got} == sql_names(a) | sql_names(b), "pair: the names differ from the files' (SQL)")
    status = {r[0]: r[1] for r in got}
    check((status.get(SLOW), status.get(DROP), status.get(ADDED)) == ("slower", "removed", "added"),
          f"pair: planted statuses {status.get(SLOW)}, {status.get(DROP)}, {status.get(ADDED)}")
    check_numbers(c, want, "pair")
    check_filters(c, want, "pair")
    # Hostile names: text, never markup.
    with open(out, "rb") as f:
        raw = f.read().lower()
    check(raw.count(b"<script") == 1 and raw.count(b"</script") == 1, "hostile: a name opened or ended a <script>")
    elements = c.eval("""({img: document.querySelectorAll('img').length, script: document.scripts.length,
        b: document.querySelectorAll('b').length})""")
    check(elements == {"img": 0, "script": 1, "b": 0}, f"hostile: extra elements {elements}")
    text = c.eval("document.body.textContent")
    for h in HOSTILE + [ADDED]:
        check(h in text, f"hostile: {h!r} is not shown as text")
    check(b"sightline-environment-included\" content=\"false\"" in raw, "environment choice not recorded")
    check(c.problems() == [], f"pair: problems after interaction: {c.problems()}")
    return a, b


def check_three(c, tmp, a, b):
    third = gen(os.path.join(tmp, "c.sqlite"), f"--slow-kernel={SLOW}=2")
    out = os.path.join(tmp, "three.html")
    want = compare([a, b, third], out)
    c.open(out)
    check(c.problems() == [], f"three: problems {c.problems()}")
    check([r[:2] for r in rows(c)] == [[k["name"], k["status"]] for k in want["kernels"]], "three: diff rows")
    check_numbers(c, want, "three")


def check_failed_write(tmp, a, b):
    # Onto a directory: the rename fails after the report was written.
    target = os.path.join(tmp, "is-a-dir")
    os.mkdir(target)
    r = subprocess.run([CLI, "compare", a, b, "--html", target], capture_output=True, text=True)
    check(r.returncode == 2 and target in r.stderr, f"write onto a folder: exit {r.returncode}, {r.stderr!r}")
    check(os.listdir(target) == [] and not [f for f in os.listdir(tmp) if f.startswith(".is-a-dir")],
          f"write onto a folder left {os.listdir(tmp)}")
    missing = os.path.join(tmp, "no-such-folder", "r.html")
    r = subprocess.run([CLI, "compare", a, b, "--html", missing], capture_output=True, text=True)
    check(r.returncode == 2 and not os.path.exists(os.path.dirname(missing)), f"missing folder: exit {r.returncode}")


def main():
    tmp = tempfile.mkdtemp(prefix="sl-compare-html-")
    c = sl_cdp.Chromium(CHROMIUM)
    try:
        a, b = check_pair(c, tmp)
        print("ok pair")
        check_three(c, tmp, a, b)
        print("ok three")
        check_failed_write(tmp, a, b)
        print("ok failed write")
    finally:
        c.close()
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print(f"{len(failures)} failures")
        sys.exit(1)
    print("all ok")


main()
