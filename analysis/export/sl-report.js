/* sl-report.js: the HTML reports' behaviour: sortable tables; the profile
 * report's NVTX stack tree, rendered from its JSON data on demand (a node's
 * children are built when it is opened, so a huge tree costs only what is
 * shown); the comparison report's kernel diff filter.
 * Names are only ever set with textContent: they come from the profile. */
'use strict';
(function () {
  var MAX_RENDER = 20000;   // nodes built by one "expand" or search

  function fmt(ns) {
    var units = [[1e9, 's'], [1e6, 'ms'], [1e3, 'µs']];
    for (var i = 0; i < units.length; i++)
      if (Math.abs(ns) >= units[i][0]) {
        var v = ns / units[i][0];
        return (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)) + units[i][1];
      }
    return ns + 'ns';
  }
  function count(n) { return n.toLocaleString('en-US'); }
  function span(cls, text) {
    var s = document.createElement('span');
    s.className = cls;
    s.textContent = text;
    return s;
  }

  /* Sorting: by the cells' data-v when numeric, else by their text. */
  function sortTable(th) {
    var table = th.closest('table'), body = table.tBodies[0];
    var col = Array.prototype.indexOf.call(th.parentNode.children, th);
    var asc = th.getAttribute('aria-sort') === 'descending';
    var rows = Array.prototype.slice.call(body.rows);
    function key(r) {
      var c = r.cells[col], v = c.getAttribute('data-v');
      return v !== null ? parseFloat(v) : c.textContent.toLowerCase();
    }
    rows.sort(function (a, b) {
      var x = key(a), y = key(b);
      return (x < y ? -1 : x > y ? 1 : 0) * (asc ? 1 : -1);
    });
    th.parentNode.querySelectorAll('th').forEach(function (h) { h.removeAttribute('aria-sort'); });
    th.setAttribute('aria-sort', asc ? 'ascending' : 'descending');
    rows.forEach(function (r) { body.appendChild(r); });
  }
  document.querySelectorAll('table.sortable th').forEach(function (th) {
    th.addEventListener('click', function () { sortTable(th); });
    th.addEventListener('keydown', function (e) { if (e.key === 'Enter') sortTable(th); });
  });

  /* ---- the tree (the profile report only) ---- */
  function initTree(dataElement) {
    var data = JSON.parse(dataElement.textContent);
    var nodes = data.nodes, names = data.names, labels = data.labels;
    var parent = new Int32Array(nodes.length).fill(-1);
    var lowered = null;

    nodes.forEach(function (n, i) {
      for (var c = n[6]; c < n[6] + n[7]; c++) parent[c] = i;
    });

    var root = document.getElementById('tree-root');
    var status = document.getElementById('tree-status');
    var budget = 0;
    var inner = new Set();   // while searching: the nodes with a child on a path to a match

    function label(li, i, hit) {
      var n = nodes[i], row = document.createElement('div');
      row.className = 'row';
      var tog = span('tog', n[7] > 0 ? '▶' : ' ');
      row.appendChild(tog);
      if (n[0] === 2) {
        row.appendChild(span('more', labels.more.replace('%s', count(n[1])) + '  (' + fmt(n[4]) + ')'));
      } else {
        if (n[0] === 1) row.appendChild(span('k', '⚡ '));
        row.appendChild(span(hit ? 'hit' : '', names[n[1]]));
        if (n[2] > 1) row.appendChild(span('d', ' ×' + count(n[2])));
        row.appendChild(span('t', '  (' + fmt(n[0] === 1 ? n[4] : n[3]) + ')'));
        if (n[0] === 0 && n[4] > 0) row.appendChild(span('d', '  ' + labels.gpu + ' ' + fmt(n[4])));
      }
      li.appendChild(row);
      tog.addEventListener('click', function () { toggle(li, i, tog); });
      return tog;
  }

    /* Builds node @i; opens it down to @depth more levels; @keep (a set or
     * null) limits the children shown to the search's paths. */
    function build(i, depth, keep, hits) {
      var li = document.createElement('li');
      li.setAttribute('role', 'treeitem');
      var tog = label(li, i, hits && hits.has(i));
      budget--;
      if (depth > 1 && nodes[i][7] > 0 && budget > 0 && (!keep || inner.has(i)))
        open(li, i, tog, depth - 1, keep, hits);
      return li;
    }
    function open(li, i, tog, depth, keep, hits) {
      var ul = document.createElement('ul'), n = nodes[i];
      for (var c = n[6]; c < n[6] + n[7] && budget > 0; c++)
        if (!keep || keep.has(c)) ul.appendChild(build(c, depth, keep, hits));
      li.appendChild(ul);
      li.setAttribute('aria-expanded', 'true');
      tog.textContent = '▼';
    }
    function toggle(li, i, tog) {
      var ul = li.querySelector(':scope > ul');
      if (ul) {
        ul.remove();
        li.setAttribute('aria-expanded', 'false');
        tog.textContent = '▶';
      } else if (nodes[i][7] > 0) {
        budget = MAX_RENDER;
        open(li, i, tog, 1, null, null);
      }
  }

    function renderRoots(depth, keep, hits) {
      root.textContent = '';
      budget = MAX_RENDER;
      var frag = document.createDocumentFragment();
      for (var r = 0; r < data.roots && budget > 0; r++)
        if (!keep || keep.has(r)) frag.appendChild(build(r, depth, keep, hits));
      root.appendChild(frag);
      return budget <= 0;
  }

    function expandTo(depth) {
      var limited = renderRoots(depth > 0 ? depth : Infinity, null, null);
      status.textContent = limited ? labels.limited.replace('%s', count(MAX_RENDER)) : '';
  }

    function search(text) {
      var q = text.trim().toLowerCase();
      if (q === '') { expandTo(2); return; }
      if (!lowered) lowered = names.map(function (s) { return s.toLowerCase(); });
      var hits = new Set(), keep = new Set();
      for (var i = 0; i < nodes.length; i++) {
        if (nodes[i][0] === 2 || lowered[nodes[i][1]].indexOf(q) < 0) continue;
        hits.add(i);
        for (var p = i; p >= 0 && !keep.has(p); p = parent[p]) keep.add(p);
      }
      inner = new Set();
      keep.forEach(function (k) { if (parent[k] >= 0) inner.add(parent[k]); });
      var limited = renderRoots(Infinity, keep, hits);
      status.textContent = labels.matches.replace('%s', count(hits.size))
        + (limited ? ' ' + labels.limited.replace('%s', count(MAX_RENDER)) : '');
  }

    document.querySelectorAll('#tree .controls button').forEach(function (b) {
      b.addEventListener('click', function () { expandTo(parseInt(b.getAttribute('data-depth'), 10)); });
    });
    var timer = 0, input = document.getElementById('tree-search');
    input.addEventListener('input', function () {
      clearTimeout(timer);
      timer = setTimeout(function () { search(input.value); }, 150);
    });
    expandTo(2);
  }

  /* ---- the kernel diff's filter (the comparison report only): by status
   * and by a case-insensitive part of the name ---- */
  function initDiffFilter(table) {
    var select = document.getElementById('diff-status'), input = document.getElementById('diff-search');
    var shown = document.getElementById('diff-shown'), template = shown.getAttribute('data-template');
    function apply() {
      var want = select.value, q = input.value.trim().toLowerCase(), n = 0;
      Array.prototype.forEach.call(table.tBodies[0].rows, function (r) {
        var ok = (want === '' || r.getAttribute('data-status') === want)
          && (q === '' || r.cells[1].textContent.toLowerCase().indexOf(q) >= 0);
        r.hidden = !ok;
        if (ok) n++;
      });
      shown.textContent = template.replace('{shown}', count(n)).replace('{total}', count(table.tBodies[0].rows.length));
    }
    select.addEventListener('change', apply);
    input.addEventListener('input', apply);
    apply();
  }

  var treeData = document.getElementById('tree-data');
  if (treeData) initTree(treeData);
  var diff = document.getElementById('diff-table');
  if (diff) initDiffFilter(diff);
  document.body.setAttribute('data-ready', String(Math.round(performance.now())));
})();
