#include "report/report_assets.h"

namespace passlab {

const char* reportStylesheet() {
  return R"CSS(
:root { --fg:#1d1f21; --muted:#6a6f75; --line:#d8dce0; --bg-soft:#f5f7f9; --add:#e3f7e3; --add-strong:#b5e8b5;
  --del:#fde5e5; --del-strong:#f5b8b8; --chg:#fff3c4; --mov:#eceef8; --mov-fg:#5a6080; --warn:#8a5a00; --err:#b00020; --ok:#1a7f37; --link:#0b5cad; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); margin: 0; }
header, main { max-width: 1400px; margin: 0 auto; padding: 0 20px; }
header { padding-top: 16px; }
h1 { font-size: 22px; margin: 0 0 8px; }
h2 { font-size: 18px; margin: 28px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 16px 0 6px; }
a { color: var(--link); text-decoration: none; }
a:hover { text-decoration: underline; }
code, pre, .code, .mono { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12.5px; }
nav { background: #fff; border-bottom: 1px solid var(--line); padding: 6px 20px; z-index: 2; }
nav a { margin-right: 14px; }
nav button, .toolbar button, .toolbar label { font: inherit; margin-left: 8px; }
table.kv td:first-child { color: var(--muted); padding-right: 16px; vertical-align: top; white-space: nowrap; }
table.grid { border-collapse: collapse; margin: 6px 0; }
table.grid th, table.grid td { border: 1px solid var(--line); padding: 2px 8px; text-align: left; vertical-align: top; }
table.grid th { background: var(--bg-soft); font-weight: 600; }
.muted { color: var(--muted); }
.note { color: var(--muted); font-style: italic; }
.status-changed { color: var(--ok); font-weight: 600; }
.status-failed { color: var(--err); font-weight: 700; }
.status-skipped { color: var(--warn); }
.status-unchanged { color: var(--muted); }
ul.trace { list-style: none; padding-left: 0; margin: 4px 0; }
ul.trace ul { list-style: none; padding-left: 22px; border-left: 1px dotted var(--line); margin-left: 6px; }
ul.trace li { margin: 1px 0; }
body:not(.show-quiet) ul.trace li.quiet { display: none; }
.quiet-count { color: var(--muted); }
.summary-line { color: var(--fg); }
.time { color: var(--muted); font-size: 12px; margin-left: 8px; }
details > summary { cursor: pointer; }
details.change { border: 1px solid var(--line); border-radius: 4px; margin: 8px 0; padding: 4px 8px; }
details.change > summary { font-weight: 600; }
details.fn { margin: 4px 0 4px 12px; }
.fn-counts { color: var(--muted); font-weight: normal; margin-left: 6px; }
.fn-counts .a { color: var(--ok); } .fn-counts .r { color: var(--err); }
table.diff { border-collapse: collapse; width: 100%; table-layout: fixed; margin: 4px 0; }
table.diff td { padding: 0 6px; vertical-align: top; }
table.diff td.code { white-space: pre; overflow: hidden; text-overflow: ellipsis; }
table.diff tr.wrap td.code { white-space: pre-wrap; overflow-wrap: anywhere; }
table.diff tr:not(.fold) { cursor: default; }
table.diff td.ln { width: 4.5em; color: var(--muted); text-align: right; user-select: none; background: var(--bg-soft); }
table.diff td.code { width: calc(50% - 4.5em); }
table.diff td.del { background: var(--del); }
table.diff td.add { background: var(--add); }
table.diff td.mov { background: var(--mov); color: var(--mov-fg); }
.fn-counts .m { color: var(--mov-fg); }
table.diff tr.fold td { background: #eef2f6; color: var(--muted); cursor: pointer; text-align: center; font-style: italic; }
.graphs { display: flex; gap: 12px; flex-wrap: wrap; }
.graphs figure { margin: 0; border: 1px solid var(--line); padding: 4px; max-width: 100%; max-height: 85vh; overflow: auto; }
.graphs figure img { max-width: none; height: auto; }
.graphs figcaption { color: var(--muted); font-size: 12px; }
pre.listing { background: var(--bg-soft); border: 1px solid var(--line); padding: 6px 8px; overflow: auto; max-height: 600px; }
td.changed { background: var(--chg); font-weight: 600; }
td.absent { color: var(--muted); }
tr.conflict td { background: var(--del); }
.conflicts { border-left: 4px solid var(--err); background: var(--del); padding: 6px 10px; margin: 6px 0; }
.diag-error { color: var(--err); font-weight: 600; }
.diag-warning { color: var(--warn); font-weight: 600; }
.bad { color: var(--err); font-weight: 600; }
.good { color: var(--ok); }
.scroll { overflow-x: auto; }
)CSS";
}

const char* reportScript() {
  return R"JS(
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('passlab-data').textContent);
  var CONTEXT = 3;
  var lineCache = {};
  function lines(i) {
    if (i < 0) return [];
    if (!lineCache[i]) {
      var t = data.texts[i];
      if (t.length && t.charAt(t.length - 1) === '\n') t = t.slice(0, -1);
      lineCache[i] = t.length ? t.split('\n') : [];
    }
    return lineCache[i];
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  function row(parent, before, oldNo, oldText, newNo, newText, oldCls, newCls) {
    var tr = el('tr');
    tr.appendChild(el('td', 'ln', oldNo ? String(oldNo) : ''));
    tr.appendChild(el('td', 'code ' + (oldCls || ''), oldText));
    tr.appendChild(el('td', 'ln', newNo ? String(newNo) : ''));
    tr.appendChild(el('td', 'code ' + (newCls || ''), newText));
    // Long lines (inline constants) are cut at the cell's edge; a click wraps the row.
    if ((oldText && oldText.length > 100) || (newText && newText.length > 100)) {
      tr.title = 'click to wrap or unwrap this line';
      tr.addEventListener('click', function () { tr.classList.toggle('wrap'); });
    }
    parent.insertBefore(tr, before);
  }
  function sameRows(parent, before, a, b, i, j, n) {
    for (var t = 0; t < n; t++) row(parent, before, i + t + 1, a[i + t], j + t + 1, b[j + t]);
  }
  function fold(tbody, a, b, i, j, n) {
    var tr = el('tr', 'fold');
    var td = el('td', null, '\u22ef ' + n + ' unchanged line' + (n === 1 ? '' : 's') + ' (click to show)');
    td.colSpan = 4;
    tr.appendChild(td);
    tr.addEventListener('click', function () {
      sameRows(tbody, tr, a, b, i, j, n);
      tbody.removeChild(tr);
    });
    tbody.appendChild(tr);
  }
  function renderDiff(d, into) {
    var a = lines(d.b), b = lines(d.a), ops = d.ops;
    var table = el('table', 'diff'), tbody = el('tbody');
    table.appendChild(tbody);
    var i = 0, j = 0;
    for (var k = 0; k < ops.length; k += 2) {
      var kind = ops[k], n = ops[k + 1];
      if (kind === 0) {
        var head = k === 0 ? 0 : CONTEXT, tail = k + 2 >= ops.length ? 0 : CONTEXT;
        if (n > head + tail + 1) {
          sameRows(tbody, null, a, b, i, j, head);
          fold(tbody, a, b, i + head, j + head, n - head - tail);
          sameRows(tbody, null, a, b, i + n - tail, j + n - tail, tail);
        } else {
          sameRows(tbody, null, a, b, i, j, n);
        }
        i += n; j += n;
      } else {
        // One change: removed lines (1; 3 = only moved away) beside added ones
        // (2; 4 = only moved here), each side in order. Moves are drawn muted.
        var left = [], right = [];
        for (; k < ops.length && ops[k] !== 0; k += 2)
          for (var t = 0; t < ops[k + 1]; t++) {
            if (ops[k] === 1 || ops[k] === 3) left.push([i++, ops[k] === 3 ? 'mov' : 'del']);
            else right.push([j++, ops[k] === 4 ? 'mov' : 'add']);
          }
        k -= 2;
        for (var u = 0; u < Math.max(left.length, right.length); u++) {
          var l = left[u], r = right[u];
          row(tbody, null, l ? l[0] + 1 : 0, l ? a[l[0]] : '', r ? r[0] + 1 : 0, r ? b[r[0]] : '', l ? l[1] : '', r ? r[1] : '');
        }
      }
    }
    if (!ops.length) into.appendChild(el('p', 'note', 'no line differs'));
    into.appendChild(table);
  }
  function renderGraph(g, into) {
    var fig = el('figure');
    var img = el('img');
    img.alt = g.caption;
    // An <img> never runs script or fetches anything an SVG names.
    img.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(data.texts[g.svg]);
    fig.appendChild(img);
    fig.appendChild(el('figcaption', null, g.caption));
    into.appendChild(fig);
  }
  function render(details) {
    if (details.dataset.rendered) return;
    details.dataset.rendered = '1';
    var body = details.querySelector(':scope > .body') || details;
    if (details.dataset.diff !== undefined) renderDiff(data.diffs[+details.dataset.diff], body);
    if (details.dataset.graphs !== undefined) {
      var box = el('div', 'graphs');
      details.dataset.graphs.split(',').forEach(function (g) { if (g !== '') renderGraph(data.graphs[+g], box); });
      body.appendChild(box);
    }
    if (details.dataset.text !== undefined) body.appendChild(el('pre', 'listing', data.texts[+details.dataset.text]));
  }
  document.addEventListener('toggle', function (e) {
    var d = e.target;
    if (d.tagName === 'DETAILS' && d.open) render(d);
  }, true);
  function expandAll() {
    document.body.classList.add('show-quiet');
    var quiet = document.getElementById('show-quiet');
    if (quiet) quiet.checked = true;
    document.querySelectorAll('details').forEach(function (d) { d.open = true; render(d); });
  }
  function collapseAll() {
    document.querySelectorAll('details').forEach(function (d) { d.open = false; });
  }
  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    if (id === 'expand-all') return expandAll();
    var t = id && document.getElementById(id);
    for (var p = t; p; p = p.parentElement) if (p.tagName === 'DETAILS') { p.open = true; render(p); }
    if (t && t.classList.contains('quiet')) {
      document.body.classList.add('show-quiet');
      document.getElementById('show-quiet').checked = true;
    }
  }
  var ex = document.getElementById('expand-all'), co = document.getElementById('collapse-all');
  if (ex) ex.addEventListener('click', expandAll);
  if (co) co.addEventListener('click', collapseAll);
  var q = document.getElementById('show-quiet');
  if (q) q.addEventListener('change', function () { document.body.classList.toggle('show-quiet', q.checked); });
  window.addEventListener('hashchange', openTarget);
  // Sections saved or written open render now; their toggle event may have come before this script.
  document.querySelectorAll('details[open]').forEach(render);
  if (location.hash) openTarget();
  document.body.dataset.ready = '1';
})();
)JS";
}

}  // namespace passlab
