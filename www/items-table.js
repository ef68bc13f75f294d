// The per-item table of one report (www/report.js renders the rest): filter, sort, row details, and the page's own
// CSV of the rows. A report cut by the worker (`items_total`) is read page by page from it.

import { h, formatValue, auto, naturalCompare, toCsv, plural, pluralWord, uniqueId, shortestBinary32 } from './util.js';
import { renderPlot, renderHitStrip } from './plots.js';
import { countSeverities, sortedDiagnostics, decimalsLookup } from './report.js';

const TABLE_PAGE = 1000;

export function tableSpec(report) {
  const items = report.items ?? [];
  const cols = [{ id: '__id', label: report.display?.item_label || 'item', kind: 'id' }];
  if (items.some((it) => it.group != null)) cols.push({ id: '__group', label: 'group', kind: 'group' });
  const declared = report.display?.columns;
  if (Array.isArray(declared) && declared.length) {
    for (const c of declared) cols.push({ ...c, kind: c.from === 'detail' ? 'detail' : 'scores' });
  } else {
    const dec = decimalsLookup(report);
    const keys = [...new Set(items.flatMap((it) => Object.keys(it.scores ?? {})))];
    for (const k of keys) cols.push({ id: k, label: k, kind: 'scores', decimals: dec(k) });
  }
  return cols;
}

function cellValue(item, col) {
  switch (col.kind) {
    case 'id': return item.id;
    case 'group': return item.group;
    case 'detail': return item.detail?.[col.id] ?? null;
    default: return item.scores?.[col.id] ?? null;
  }
}

function cellText(item, col) {
  const v = cellValue(item, col);
  if (col.kind === 'id' || col.kind === 'group') return v == null ? '—' : String(v);
  if (v !== null && typeof v === 'object') return JSON.stringify(v);
  return formatValue(v, col.decimals);
}

/**
 * Whether the report's scores are binary32 values widened to binary64 (specs/kws.md 9: the `icfhr14` preset in
 * official mode computes in f32, as rusteval does; the JSON keeps the widened value, e.g. 0.6000000238418579).
 */
export function scoresAreBinary32(report) {
  return report?.protocol === 'kws' && report?.mode === 'official' && report?.options?.preset === 'icfhr14';
}

export function itemsCsv(report, cols = tableSpec(report)) {
  const f32 = scoresAreBinary32(report);
  const rows = [cols.map((c) => (c.kind === 'id' ? c.label : c.kind === 'group' ? 'group' : c.id))];
  for (const it of report.items ?? []) {
    rows.push(cols.map((c) => {
      const v = cellValue(it, c);
      return f32 && c.kind === 'scores' && typeof v === 'number' ? shortestBinary32(v) : v;
    }));
  }
  return toCsv(rows);
}

function compareValues(a, b) {
  const an = a === null || a === undefined || (typeof a === 'number' && !Number.isFinite(a));
  const bn = b === null || b === undefined || (typeof b === 'number' && !Number.isFinite(b));
  if (an || bn) return an && bn ? 0 : an ? 1 : -1; // null last (in both directions, see sort())
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return naturalCompare(typeof a === 'object' ? JSON.stringify(a) : a, typeof b === 'object' ? JSON.stringify(b) : b);
}

/**
 * The per-item table: filter, sort by a column, row details. A cut report (`items_total`: the worker kept its rows)
 * is asked for page by page (src/items_query.rs, the same filter and order); otherwise the rows are all here.
 */
export function renderItems(report, cols, ctx) {
  const items = report.items ?? [];
  const remote = report.items_total != null && !!ctx.session;
  const total = remote ? report.items_total : items.length;
  const label = report.display?.item_label || 'item';
  const st = ctx.table; // {sort: colId|null, dir: 1|-1, filter: '', expanded: Set, all: bool, offset: number}
  st.offset ??= 0;
  const section = h('section', { class: 'items', 'aria-labelledby': 'items-title', dataset: { rows: remote ? 'paged' : 'all' } });
  const heading = h('h3', { id: 'items-title' }, `Per-${label} results`);
  if (!items.length) {
    section.append(heading, h('p', { class: 'muted' }, `No per-${label} rows${countSeverities(report.diagnostics).error ? ': the input has errors (see Diagnostics)' : ''}.`));
    return section;
  }
  const filterId = uniqueId('filter');
  const filter = h('input', { type: 'search', id: filterId, class: 'filter-input', placeholder: `e.g. ${items[0].id}`, value: st.filter, autocomplete: 'off', spellcheck: 'false' });
  const count = h('span', { class: 'muted small', 'aria-live': 'polite' });
  const table = h('table', { class: 'data items-table' });
  const tbody = h('tbody');
  const headRow = h('tr');
  table.append(h('caption', { class: 'visually-hidden' }, `Per-${label} results. Column headers are buttons that sort the table.`), h('thead', {}, headRow), tbody);
  const more = h('div', { class: 'table-more' });

  const renderHead = () => {
    headRow.replaceChildren(...cols.map((c) => {
      const active = st.sort === c.id;
      const ariaSort = active ? (st.dir > 0 ? 'ascending' : 'descending') : null;
      const numeric = c.kind === 'scores' || c.kind === 'detail';
      return h('th', { scope: 'col', 'aria-sort': ariaSort, class: [numeric && 'num', active && 'is-sorted'] },
        h('button', {
          type: 'button', class: 'sort-btn', dataset: { col: c.id },
          title: c.label !== c.id && c.kind !== 'id' && c.kind !== 'group' ? `${c.label} (${c.id})` : undefined,
          onclick: () => {
            if (st.sort === c.id) st.dir = -st.dir;
            else {
              st.sort = c.id;
              st.dir = numeric ? -1 : 1; // scores: best first
            }
            st.offset = 0;
            renderHead();
            refresh();
            headRow.querySelector(`button[data-col="${CSS.escape(c.id)}"]`)?.focus();
          },
        }, h('span', {}, c.label), h('span', { class: 'sort-icon', 'aria-hidden': 'true' }, active ? (st.dir > 0 ? '▲' : '▼') : '↕')));
    }));
  };

  // The reason of a row's missing values: the first diagnostic that names the row's id in backquotes.
  const itemReasons = new Map();
  for (const d of sortedDiagnostics(report.diagnostics)) {
    for (const [, id] of (d.message ?? '').matchAll(/`([^`]+)`/g)) if (!itemReasons.has(id)) itemReasons.set(id, d.message);
  }
  /** @type {Map<any, string> | null} */
  let textIndex = null;
  // The rows on show: all the matching rows (local) or one page of them (remote), and how many match.
  let shown = { rows: items.slice(0, TABLE_PAGE), matched: total };
  const local = () => {
    const q = st.filter.trim().toLowerCase();
    textIndex ??= new Map(items.map((it) => [it, cols.map((c) => cellText(it, c)).join('\u0001').toLowerCase()]));
    let rows = q ? items.filter((it) => textIndex.get(it).includes(q)) : items.slice();
    if (st.sort) {
      const col = cols.find((c) => c.id === st.sort);
      if (col) {
        rows = rows.map((it, i) => [it, i]).sort((x, y) => {
          const a = cellValue(x[0], col);
          const b = cellValue(y[0], col);
          const an = a == null;
          const bn = b == null;
          if (an || bn) return an && bn ? x[1] - y[1] : an ? 1 : -1;
          return st.dir * compareValues(a, b) || x[1] - y[1];
        }).map(([it]) => it);
      }
    }
    shown = { rows, matched: rows.length };
  };
  let asked = 0;
  const fetchPage = async () => {
    const n = ++asked;
    section.dataset.state = 'loading';
    table.setAttribute('aria-busy', 'true');
    try {
      const page = await ctx.session.itemsPage(report.mode, { filter: st.filter, sort: st.sort, dir: st.dir, offset: st.offset, count: TABLE_PAGE });
      if (n !== asked) return;
      shown = { rows: page.rows, matched: page.matched };
      draw();
    } catch (e) {
      if (n !== asked) return;
      more.replaceChildren(h('p', { class: 'notice notice-error' }, `The rows could not be read: ${e?.message ?? e}`));
    } finally {
      if (n === asked) {
        section.dataset.state = 'ready';
        table.removeAttribute('aria-busy');
      }
    }
  };
  const refresh = () => {
    if (!remote) {
      local();
      draw();
    } else if (!st.filter.trim() && !st.sort && st.offset === 0) {
      asked++; // the report's own first rows: nothing to ask
      shown = { rows: items.slice(0, TABLE_PAGE), matched: total };
      section.dataset.state = 'ready';
      draw();
    } else {
      fetchPage();
    }
  };
  const draw = () => {
    const { rows, matched } = shown;
    const q = st.filter.trim();
    count.textContent = q ? `${matched} of ${plural(total, label)} match` : plural(total, label);
    const visible = remote || !st.all ? rows.slice(0, TABLE_PAGE) : rows;
    const trs = [];
    for (const it of visible) {
      const open = st.expanded.has(it.id);
      const detailId = `detail-${cssId(it.id)}`;
      const hasDetail = it.detail && Object.keys(it.detail).length > 0;
      const toggle = () => {
        if (st.expanded.has(it.id)) st.expanded.delete(it.id);
        else st.expanded.add(it.id);
        draw();
        tbody.querySelector(`button[data-item="${CSS.escape(it.id)}"]`)?.focus();
      };
      const tr = h('tr', {
        class: ['item-row', hasDetail && 'has-detail', open && 'is-open'],
        dataset: { item: it.id },
        onclick: hasDetail ? (e) => { if (!e.target.closest('button') && !window.getSelection()?.toString()) toggle(); } : null,
      }, cols.map((c) => {
        if (c.kind === 'id') {
          return h('th', { scope: 'row', class: 'item-id' }, hasDetail
            ? h('button', { type: 'button', class: 'row-toggle', 'aria-expanded': open ? 'true' : 'false', 'aria-controls': open ? detailId : null, 'aria-label': it.id, dataset: { item: it.id }, onclick: toggle },
              h('span', { class: 'chev', 'aria-hidden': 'true' }, open ? '▾' : '▸'), h('span', { class: 'id-text', title: it.id }, it.id))
            : h('span', { class: 'id-text', title: it.id, 'aria-label': it.id, tabindex: it.id.length > 28 ? 0 : null }, it.id));
        }
        const v = cellValue(it, c);
        const why = v == null && c.kind !== 'group' ? itemReasons.get(it.id) ?? `not computed for this ${label}` : null;
        return h('td', { class: [c.kind !== 'group' && 'num', v == null && 'is-null'], title: typeof v === 'number' ? String(v) : why, 'aria-label': why ? `— ${why}` : null }, cellText(it, c));
      }));
      trs.push(tr);
      if (open && hasDetail) {
        trs.push(h('tr', { class: 'detail-row', id: detailId }, h('td', { colspan: cols.length }, renderItemDetail(it, report))));
      }
    }
    tbody.replaceChildren(...trs);
    more.replaceChildren();
    if (remote) {
      const go = (/** @type {number} */ offset) => () => { st.offset = offset; fetchPage(); };
      const last = Math.min(st.offset + rows.length, matched);
      if (matched > TABLE_PAGE) {
        more.append(
          h('button', { type: 'button', class: 'btn btn-small', dataset: { page: 'previous' }, disabled: st.offset === 0, onclick: go(Math.max(0, st.offset - TABLE_PAGE)) }, 'Previous'),
          h('span', { class: 'muted small page-range' }, ` rows ${matched ? st.offset + 1 : 0}–${last} of ${matched} `),
          h('button', { type: 'button', class: 'btn btn-small', dataset: { page: 'next' }, disabled: last >= matched, onclick: go(st.offset + TABLE_PAGE) }, 'Next'));
      }
    } else if (!st.all && rows.length > TABLE_PAGE) {
      more.append(h('button', { type: 'button', class: 'btn btn-small', onclick: () => { st.all = true; draw(); } }, `Show all ${rows.length} rows`));
    }
  };
  let timer = 0;
  filter.addEventListener('input', () => {
    st.filter = filter.value;
    st.offset = 0;
    clearTimeout(timer);
    if (remote) timer = setTimeout(refresh, 250); // the worker filters millions of rows: once typing pauses
    else refresh();
  });
  renderHead();
  refresh();
  section.append(
    heading,
    h('div', { class: 'table-tools' },
      h('label', { for: filterId, class: 'filter-label' }, `Filter ${pluralWord(label)}`),
      filter,
      count),
    h('div', { class: 'table-scroll table-tall' }, table),
    more);
  return section;
}

function cssId(s) {
  return String(s).replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.charCodeAt(0).toString(16)}`);
}

/** A row's detail: hit strips for 0/1 strings, small line plots for numeric arrays, values for the rest. */
function renderItemDetail(item, report) {
  const parts = [];
  const scalars = [];
  for (const [k, v] of Object.entries(item.detail ?? {})) {
    if (typeof v === 'string' && v.length >= 2 && /^[01]+$/.test(v)) {
      parts.push(h('div', { class: 'detail-block' }, h('p', { class: 'detail-label' }, k === 'hit_strip' ? `Hits by rank (1…${v.length}; filled = relevant)` : k), renderHitStrip(v, `${item.id} ${k}`)));
    } else if (v && typeof v === 'object' && !Array.isArray(v) && ['lines', 'bars', 'histogram'].includes(v.kind)) {
      // A plot object (the shape of report.plots[]) in a row's detail, e.g. a per-category PR curve.
      parts.push(h('div', { class: 'detail-block detail-plot' }, renderPlot(v)));
    } else if (Array.isArray(v) && v.length > 1 && v.every((x) => x === null || typeof x === 'number')) {
      const isPr = /^pr\d*$/i.test(k) || /precision|recall/i.test(k);
      const x = v.map((_, i) => (isPr ? i / (v.length - 1) : i + 1));
      const plot = {
        id: `${item.id}-${k}`, kind: 'lines',
        title: isPr ? `${item.id}: ${v.length}-point interpolated precision–recall` : `${item.id}: ${k}`,
        x_label: isPr ? 'recall' : 'index', y_label: isPr ? 'precision' : k,
        series: [{ label: item.id, x, y: v }],
      };
      parts.push(h('div', { class: 'detail-block detail-plot' }, renderPlot(plot)));
    } else {
      scalars.push(h('div', { class: 'kv' }, h('dt', {}, k), h('dd', {}, v !== null && typeof v === 'object' ? JSON.stringify(v) : auto(v))));
    }
  }
  const scores = Object.entries(item.scores ?? {}).map(([k, v]) => h('div', { class: 'kv' }, h('dt', {}, k), h('dd', { title: v == null ? '' : String(v) }, auto(v))));
  return h('div', { class: 'item-detail' },
    h('dl', { class: 'kv-list' }, scores, scalars),
    parts);
}
