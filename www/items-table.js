// The per-item table of one report (www/report.js renders the rest): filter, sort, pages and row details. Every
// page of rows comes from the report the worker kept (src/items_query.rs: the filter, the natural order and the
// cells' texts are written there); the columns come with the report (src/render/page.rs). Nothing is sorted,
// filtered or formatted here.

import { h, auto, plural, pluralWord, uniqueId } from './util.js';
import { renderPlot, renderHitStrip } from './plots.js';
import { countSeverities, sortedDiagnostics } from './report.js';

const TABLE_PAGE = 1000;

/**
 * The per-item table of `entry` (its report and its view: the columns). `ctx.table` keeps the filter, the sort
 * and the open rows across redraws; `ctx.session` answers the pages.
 */
export function renderItems(entry, ctx) {
  const { report } = entry;
  const cols = entry.view?.columns ?? [];
  const total = report.items_total ?? report.items?.length ?? 0;
  const label = report.display?.item_label || 'item';
  const st = ctx.table; // {sort: colId|null, dir: 1|-1, filter: '', expanded: Set, offset: number}
  st.offset ??= 0;
  const section = h('section', { class: 'items', 'aria-labelledby': 'items-title', dataset: { rows: 'paged' } });
  const heading = h('h3', { id: 'items-title' }, `Per-${label} results`);
  if (!total) {
    section.append(heading, h('p', { class: 'muted' }, `No per-${label} rows${countSeverities(report.diagnostics).error ? ': the input has errors (see Diagnostics)' : ''}.`));
    return section;
  }
  const t = {
    entry, ctx, cols, st, label, total, section,
    table: h('table', { class: 'data items-table' }), tbody: h('tbody'), headRow: h('tr'), more: h('div', { class: 'table-more' }),
    count: h('span', { class: 'muted small', 'aria-live': 'polite' }),
    reasons: itemReasons(report), page: { rows: [], cells: [], matched: total }, asked: 0,
  };
  t.table.append(h('caption', { class: 'visually-hidden' }, `Per-${label} results. Column headers are buttons that sort the table.`), h('thead', {}, t.headRow), t.tbody);
  const filterId = uniqueId('filter');
  const filter = h('input', { type: 'search', id: filterId, class: 'filter-input', placeholder: `e.g. ${report.items?.[0]?.id ?? ''}`, value: st.filter, autocomplete: 'off', spellcheck: 'false' });
  let timer = 0;
  filter.addEventListener('input', () => {
    st.filter = filter.value;
    st.offset = 0;
    clearTimeout(timer);
    timer = setTimeout(() => refresh(t), total > TABLE_PAGE ? 250 : 30); // many rows: once typing pauses
  });
  renderHead(t);
  refresh(t);
  section.append(heading,
    h('div', { class: 'table-tools' }, h('label', { for: filterId, class: 'filter-label' }, `Filter ${pluralWord(label)}`), filter, t.count),
    h('div', { class: 'table-scroll table-tall' }, t.table),
    t.more);
  return section;
}

/** The reason of a row's missing values: the first diagnostic that names the row's id in backquotes. */
function itemReasons(report) {
  const reasons = new Map();
  for (const d of sortedDiagnostics(report.diagnostics)) {
    for (const [, id] of (d.message ?? '').matchAll(/`([^`]+)`/g)) if (!reasons.has(id)) reasons.set(id, d.message);
  }
  return reasons;
}

/** The header row: one sort button per column (scores sort best first). */
function renderHead(t) {
  const { st } = t;
  t.headRow.replaceChildren(...t.cols.map((c) => {
    const active = st.sort === c.id;
    const numeric = c.kind === 'scores' || c.kind === 'detail';
    return h('th', { scope: 'col', 'aria-sort': active ? (st.dir > 0 ? 'ascending' : 'descending') : null, class: [numeric && 'num', active && 'is-sorted'] },
      h('button', {
        type: 'button', class: 'sort-btn', dataset: { col: c.id },
        title: c.label !== c.id && numeric ? `${c.label} (${c.id})` : undefined,
        onclick: () => {
          if (st.sort === c.id) st.dir = -st.dir;
          else {
            st.sort = c.id;
            st.dir = numeric ? -1 : 1;
          }
          st.offset = 0;
          renderHead(t);
          refresh(t);
          t.headRow.querySelector(`button[data-col="${CSS.escape(c.id)}"]`)?.focus();
        },
      }, h('span', {}, c.label), h('span', { class: 'sort-icon', 'aria-hidden': 'true' }, active ? (st.dir > 0 ? '▲' : '▼') : '↕')));
  }));
}

/** Shows the rows: the report's first ones as they came (with their cells), else the page the worker answers. */
function refresh(t) {
  const { st, entry } = t;
  if (!st.filter.trim() && !st.sort && st.offset === 0 && entry.view?.first_cells) {
    t.asked++;
    t.page = { rows: (entry.report.items ?? []).slice(0, entry.view.first_cells.length), cells: entry.view.first_cells, matched: t.total };
    t.section.dataset.state = 'ready';
    drawRows(t);
  } else {
    fetchPage(t);
  }
}

/** Asks the worker for the page on show (the latest ask wins) and draws it. */
async function fetchPage(t) {
  const n = ++t.asked;
  const { st, section, table } = t;
  section.dataset.state = 'loading';
  table.setAttribute('aria-busy', 'true');
  try {
    const page = await t.ctx.session.itemsPage(t.entry.report.mode, { filter: st.filter, sort: st.sort, dir: st.dir, offset: st.offset, count: TABLE_PAGE });
    if (n !== t.asked) return;
    t.page = page;
    drawRows(t);
  } catch (e) {
    if (n !== t.asked) return;
    t.more.replaceChildren(h('p', { class: 'notice notice-error' }, `The rows could not be read: ${e?.message ?? e}`));
  } finally {
    if (n === t.asked) {
      section.dataset.state = 'ready';
      table.removeAttribute('aria-busy');
    }
  }
}

function drawRows(t) {
  const { st, page, label, total } = t;
  t.count.textContent = st.filter.trim() ? `${page.matched} of ${plural(total, label)} match` : plural(total, label);
  const trs = [];
  page.rows.forEach((it, i) => {
    const open = st.expanded.has(it.id);
    const detailId = `detail-${cssId(it.id)}`;
    trs.push(itemRow(t, it, page.cells[i], open, detailId));
    if (open && hasDetail(it)) trs.push(h('tr', { class: 'detail-row', id: detailId }, h('td', { colspan: t.cols.length }, renderItemDetail(it, t))));
  });
  t.tbody.replaceChildren(...trs);
  t.more.replaceChildren();
  const go = (/** @type {number} */ offset) => () => { st.offset = offset; fetchPage(t); };
  const last = Math.min(st.offset + page.rows.length, page.matched);
  if (page.matched > TABLE_PAGE) {
    t.more.append(
      h('button', { type: 'button', class: 'btn btn-small', dataset: { page: 'previous' }, disabled: st.offset === 0, onclick: go(Math.max(0, st.offset - TABLE_PAGE)) }, 'Previous'),
      h('span', { class: 'muted small page-range' }, ` rows ${page.matched ? st.offset + 1 : 0}–${last} of ${page.matched} `),
      h('button', { type: 'button', class: 'btn btn-small', dataset: { page: 'next' }, disabled: last >= page.matched, onclick: go(st.offset + TABLE_PAGE) }, 'Next'));
  }
}

const hasDetail = (it) => it.detail && Object.keys(it.detail).length > 0;

/** One row: the id (a toggle when the row has details) and the cells' texts as Rust wrote them. */
function itemRow(t, it, cells, open, detailId) {
  const detail = hasDetail(it);
  const toggle = () => {
    if (t.st.expanded.has(it.id)) t.st.expanded.delete(it.id);
    else t.st.expanded.add(it.id);
    drawRows(t);
    t.tbody.querySelector(`button[data-item="${CSS.escape(it.id)}"]`)?.focus();
  };
  return h('tr', {
    class: ['item-row', detail && 'has-detail', open && 'is-open'],
    dataset: { item: it.id },
    onclick: detail ? (e) => { if (!e.target.closest('button') && !window.getSelection()?.toString()) toggle(); } : null,
  }, t.cols.map((c, k) => {
    if (c.kind === 'id') {
      return h('th', { scope: 'row', class: 'item-id' }, detail
        ? h('button', { type: 'button', class: 'row-toggle', 'aria-expanded': open ? 'true' : 'false', 'aria-controls': open ? detailId : null, 'aria-label': it.id, dataset: { item: it.id }, onclick: toggle },
          h('span', { class: 'chev', 'aria-hidden': 'true' }, open ? '▾' : '▸'), h('span', { class: 'id-text', title: it.id }, it.id))
        : h('span', { class: 'id-text', title: it.id, 'aria-label': it.id, tabindex: it.id.length > 28 ? 0 : null }, it.id));
    }
    const v = c.kind === 'group' ? it.group : c.kind === 'detail' ? it.detail?.[c.id] : it.scores?.[c.id];
    const why = v == null && c.kind !== 'group' ? t.reasons.get(it.id) ?? `not computed for this ${t.label}` : null;
    return h('td', { class: [c.kind !== 'group' && 'num', v == null && 'is-null'], title: typeof v === 'number' ? String(v) : why, 'aria-label': why ? `— ${why}` : null }, cells[k]);
  }));
}

function cssId(s) {
  return String(s).replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.charCodeAt(0).toString(16)}`);
}

/** A row's detail: hit strips for 0/1 strings, its curves (plot specs from the worker), values for the rest. */
function renderItemDetail(item, t) {
  const parts = [];
  const scalars = [];
  const plots = h('div', { class: 'detail-plots' });
  for (const [k, v] of Object.entries(item.detail ?? {})) {
    if (typeof v === 'string' && v.length >= 2 && /^[01]+$/.test(v)) {
      parts.push(h('div', { class: 'detail-block' }, h('p', { class: 'detail-label' }, k === 'hit_strip' ? `Hits by rank (1…${v.length}; filled = relevant)` : k), renderHitStrip(v, `${item.id} ${k}`)));
    } else if (!(v && typeof v === 'object')) {
      scalars.push(h('div', { class: 'kv' }, h('dt', {}, k), h('dd', {}, auto(v))));
    }
  }
  // Objects and arrays: drawn when Rust makes a plot of them, else shown as JSON.
  const objects = Object.entries(item.detail ?? {}).filter(([, v]) => v && typeof v === 'object');
  if (objects.length) {
    t.ctx.session.request({ type: 'item-plots', mode: t.entry.report.mode, item: item.id }).then((/** @type {[string, any][]} */ specs) => {
      const drawn = new Set(specs.map(([k]) => k));
      plots.replaceChildren(...specs.map(([, spec]) => h('div', { class: 'detail-block detail-plot' }, renderPlot(spec))),
        ...objects.filter(([k]) => !drawn.has(k)).map(([k, v]) => h('div', { class: 'kv' }, h('dt', {}, k), h('dd', {}, JSON.stringify(v)))));
    }, (e) => plots.replaceChildren(h('p', { class: 'notice notice-error' }, `The plots could not be drawn: ${e?.message ?? e}`)));
  }
  const scores = Object.entries(item.scores ?? {}).map(([k, v]) => h('div', { class: 'kv' }, h('dt', {}, k), h('dd', { title: v == null ? '' : String(v) }, auto(v))));
  return h('div', { class: 'item-detail' },
    h('dl', { class: 'kv-list' }, scores, scalars),
    parts, plots);
}
