// Rendering of one report's details (diagnostics, readings, plots, the protocol's view, per-item table,
// downloads). The headline of a run (both modes side by side, and why they differ) is www/headline.js.

import { h, formatValue, auto, naturalCompare, toCsv, download, plural, pluralWord, uniqueId, shortestBinary32 } from './util.js';
import { renderPlot, renderHitStrip } from './plots.js';
import { VIEWS } from './views/index.js';
import { missingReason } from './reasons.js';

/** @type {import('./api').Mode[]} */
export const MODES = ['official', 'corrected'];
const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 };
const TABLE_PAGE = 1000;
const DIAG_PAGE = 200;

/** The headline metrics: display.headline, else the keys of scores. */
export function headlineSpec(report) {
  const hl = report?.display?.headline;
  if (Array.isArray(hl) && hl.length) return hl;
  return Object.keys(report?.scores ?? {}).map((id) => ({ id, label: id }));
}

export function countSeverities(diags) {
  const c = { error: 0, warning: 0, info: 0 };
  for (const d of diags ?? []) c[d.severity] = (c[d.severity] ?? 0) + 1;
  return c;
}

export function sortedDiagnostics(diags) {
  return (diags ?? [])
    .map((d, i) => [d, i])
    .sort((a, b) => (SEVERITY_ORDER[a[0].severity] ?? 3) - (SEVERITY_ORDER[b[0].severity] ?? 3) || a[1] - b[1])
    .map(([d]) => d);
}

export function locationOf(d) {
  let loc = d.file ?? '';
  if (d.line != null) {
    loc += `${loc ? ':' : 'line '}${d.line}`;
    if (d.column != null) loc += `:${d.column}`;
  }
  if (Array.isArray(d.pixel)) loc += `${loc ? ' ' : ''}pixel (${d.pixel[0]}, ${d.pixel[1]})`;
  if (d.offset != null) loc += `${loc ? ' ' : ''}byte ${d.offset}`;
  return loc;
}

// ---------------------------------------------------------------- details of one report

export function renderDetails(entry, ctx) {
  const { report, reportJson } = entry;
  const out = [];
  const base = `dropscore-${report.protocol}-${report.mode}`;
  const rowsSpec = tableSpec(report);
  out.push(h('div', { class: 'downloads' },
    h('button', { type: 'button', class: 'btn', onclick: () => download(`${base}.json`, reportJson, 'application/json') }, 'Download JSON'),
    h('button', { type: 'button', class: 'btn', onclick: () => download(`${base}.csv`, itemsCsv(report, rowsSpec), 'text/csv'), disabled: !report.items?.length }, 'Download CSV'),
    h('span', { class: 'muted small' }, `${report.mode} mode · the JSON is byte-identical to the command line’s --format json`)));
  out.push(renderDiagnostics(report, ctx));
  if (report.readings?.length) out.push(renderReadings(report));
  if (report.groups?.length) out.push(renderGroups(report));
  if (report.plots?.length) {
    out.push(h('section', { class: 'plots', 'aria-labelledby': 'plots-title' },
      h('h3', { id: 'plots-title' }, 'Plots'),
      h('div', { class: 'plot-grid' }, report.plots.map(renderPlot))));
  }
  const view = VIEWS[report.protocol];
  if (view) out.push(renderProtocolView(view, entry, ctx));
  out.push(renderItems(report, rowsSpec, ctx));
  return out;
}

/** A protocol's own view (www/views/), loaded on demand into a placeholder section. */
function renderProtocolView(load, entry, ctx) {
  const box = h('section', { class: 'protocol-view', 'aria-busy': 'true' }, h('p', { class: 'muted small' }, 'Loading the view…'));
  Promise.resolve()
    .then(load)
    .then((mod) => mod.render(entry, ctx))
    .then((nodes) => box.replaceChildren(...[nodes].flat().filter(Boolean)))
    .catch((e) => {
      console.warn('protocol view failed', e);
      box.replaceChildren(h('p', { class: 'notice notice-error' }, `This view could not be shown: ${e?.message ?? e}`));
    })
    .finally(() => box.removeAttribute('aria-busy'));
  return box;
}

function renderDiagnostics(report, ctx) {
  const diags = sortedDiagnostics(report.diagnostics);
  const c = countSeverities(diags);
  const summary = h('p', { class: 'diag-summary' },
    h('span', { class: 'badge badge-error' }, plural(c.error, 'error')),
    h('span', { class: 'badge badge-warning' }, plural(c.warning, 'warning')),
    h('span', { class: 'badge badge-info' }, `${c.info} info`));
  const list = h('ol', { class: 'diag-list' });
  const showN = (n) => {
    list.replaceChildren(...diags.slice(0, n).map(renderDiagnostic));
    if (diags.length > n) {
      list.append(h('li', { class: 'diag-more' }, h('button', {
        type: 'button', class: 'btn btn-small', onclick: (e) => { showN(diags.length); e.target.blur(); },
      }, `Show all ${diags.length} diagnostics`)));
    }
  };
  showN(ctx.diagAll ? diags.length : DIAG_PAGE);
  return h('section', { class: 'diagnostics', id: 'diagnostics', 'aria-labelledby': 'diag-title', tabindex: -1 },
    h('h3', { id: 'diag-title' }, 'Diagnostics'),
    diags.length ? summary : h('p', { class: 'muted' }, 'No problems found in the input.'),
    diags.length ? list : null);
}

function renderDiagnostic(d) {
  const sev = ['error', 'warning', 'info'].includes(d.severity) ? d.severity : 'info';
  const loc = locationOf(d);
  const fields = [];
  const add = (label, value, cls) => {
    if (value === null || value === undefined || value === '') return;
    fields.push(h('div', { class: ['diag-field', cls] }, h('dt', {}, label), h('dd', {}, value)));
  };
  add('Expected', d.expected != null ? h('code', {}, d.expected) : null);
  add('Found', d.found != null ? h('code', {}, d.found) : null);
  add('Hint', d.hint, 'diag-hint');
  add('Official scorer', d.official_behaviour);
  return h('li', { class: ['diag', `diag-${sev}`], dataset: { code: d.code ?? '', severity: sev } },
    h('div', { class: 'diag-head' },
      h('span', { class: `badge badge-${sev}` }, sev),
      h('code', { class: 'diag-code' }, d.code ?? ''),
      loc ? h('span', { class: 'diag-loc' }, loc) : null),
    h('p', { class: 'diag-message' }, d.message ?? ''),
    fields.length ? h('dl', { class: 'diag-fields' }, fields) : null);
}

function renderReadings(report) {
  return h('section', { class: 'readings', 'aria-labelledby': 'readings-title' },
    h('h3', { id: 'readings-title' }, 'Other readings of the same input'),
    report.readings.map((r) => {
      const entries = Object.entries(r.scores ?? {});
      return h('div', { class: 'reading', dataset: { reading: r.id ?? '' } },
        h('p', { class: 'reading-label' }, r.label ?? r.id),
        h('div', { class: 'table-scroll' },
          h('table', { class: 'kv-table', 'aria-label': r.label ?? r.id },
            h('thead', {}, h('tr', {}, entries.map(([k]) => h('th', { scope: 'col' }, k)))),
            h('tbody', {}, h('tr', {}, entries.map(([, v]) => h('td', { class: 'num', title: v == null ? 'not computable' : String(v) }, formatValue(v, r.decimals ?? (Number.isInteger(v) ? undefined : 4)))))))));
    }));
}

function renderGroups(report) {
  const keys = [...new Set(report.groups.flatMap((g) => Object.keys(g.scores ?? {})))];
  const dec = decimalsLookup(report);
  return h('section', { class: 'groups', 'aria-labelledby': 'groups-title' },
    h('h3', { id: 'groups-title' }, 'Groups'),
    h('div', { class: 'table-scroll' },
      h('table', { class: 'data' },
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'group'), keys.map((k) => h('th', { scope: 'col', class: 'num' }, k)))),
        h('tbody', {}, report.groups.map((g) => h('tr', {},
          h('th', { scope: 'row' }, g.id),
          keys.map((k) => {
            const v = g.scores?.[k];
            const why = Number.isFinite(v) ? null : groupReason(report, g, k);
            return h('td', { class: ['num', why && 'is-null'], title: why, 'aria-label': why ? `— ${why}` : null }, formatValue(v, dec(k)));
          })))))));
}

/** Why a group's value is missing: not part of that group, or the metric's own reason. */
function groupReason(report, g, k) {
  if (!(k in (g.scores ?? {}))) return `not applicable to ${g.id}`;
  return missingReason(report, k === 'score' ? g.id : `${g.id}_${k}`);
}

function decimalsLookup(report) {
  const m = new Map();
  for (const c of report.display?.columns ?? []) if (c.decimals != null) m.set(c.id, c.decimals);
  for (const c of report.display?.headline ?? []) if (c.decimals != null && !m.has(c.id)) m.set(c.id, c.decimals);
  return (id) => m.get(id);
}

// ---------------------------------------------------------------- per-item table

function tableSpec(report) {
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

function renderItems(report, cols, ctx) {
  const items = report.items ?? [];
  const label = report.display?.item_label || 'item';
  const st = ctx.table; // {sort: colId|null, dir: 1|-1, filter: '', expanded: Set, all: bool}
  const section = h('section', { class: 'items', 'aria-labelledby': 'items-title' });
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
            renderHead();
            renderBody();
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
  const textIndex = new Map(items.map((it) => [it, cols.map((c) => cellText(it, c)).join('\u0001').toLowerCase()]));
  const renderBody = () => {
    const q = st.filter.trim().toLowerCase();
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
    count.textContent = q ? `${rows.length} of ${plural(items.length, label)} match` : plural(items.length, label);
    const shown = st.all ? rows : rows.slice(0, TABLE_PAGE);
    const trs = [];
    for (const it of shown) {
      const open = st.expanded.has(it.id);
      const detailId = `detail-${cssId(it.id)}`;
      const hasDetail = it.detail && Object.keys(it.detail).length > 0;
      const toggle = () => {
        if (st.expanded.has(it.id)) st.expanded.delete(it.id);
        else st.expanded.add(it.id);
        renderBody();
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
    if (!st.all && rows.length > TABLE_PAGE) {
      more.append(h('button', { type: 'button', class: 'btn btn-small', onclick: () => { st.all = true; renderBody(); } }, `Show all ${rows.length} rows`));
    }
  };
  filter.addEventListener('input', () => {
    st.filter = filter.value;
    renderBody();
  });
  renderHead();
  renderBody();
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
