// Rendering of one report's details (diagnostics, readings, plots, the protocol's view, per-item table,
// downloads). The headline of a run (both modes side by side, and why they differ) is www/headline.js.

import { h, formatValue, download, plural } from './util.js';
import { renderPlot } from './plots.js';
import { renderItems } from './items-table.js';
import { VIEWS } from './views/index.js';
import { missingReason } from './reasons.js';

/** @type {import('./api').Mode[]} */
export const MODES = ['official', 'corrected'];
const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 };
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
  // The worker holds the whole report and writes it as the CLI does (`--format json` / `--format csv`); a report
  // that came whole is saved as it came, unless its intervals came after it (the worker's report has them).
  const save = (/** @type {'json' | 'csv'} */ format) => async (/** @type {MouseEvent} */ e) => {
    const button = /** @type {HTMLButtonElement} */ (e.currentTarget);
    button.disabled = true;
    try {
      const asCame = format === 'json' && report.items_total == null && (!report.statistics || !ctx.session);
      const whole = asCame ? reportJson : await ctx.session.export(report.mode, format);
      download(`${base}.${format}`, whole, format === 'csv' ? 'text/csv' : 'application/json');
    } catch (err) {
      button.after(h('span', { class: 'notice notice-error' }, `The download failed: ${err?.message ?? err}`));
    } finally {
      button.disabled = false;
    }
  };
  out.push(h('div', { class: 'downloads' },
    h('button', { type: 'button', class: 'btn', onclick: save('json') }, 'Download JSON'),
    h('button', { type: 'button', class: 'btn', onclick: save('csv'), disabled: !report.items?.length }, 'Download CSV'),
    h('span', { class: 'muted small' }, `${report.mode} mode · the JSON and the CSV are byte-identical to the command line’s --format json and --format csv`)));
  out.push(renderDiagnostics(report, ctx));
  if (report.readings?.length) out.push(renderReadings(report));
  if (report.groups?.length) out.push(renderGroups(report));
  const plots = entry.view?.plots ?? [];
  if (plots.length) {
    out.push(h('section', { class: 'plots', 'aria-labelledby': 'plots-title' },
      h('h3', { id: 'plots-title' }, 'Plots'),
      h('div', { class: 'plot-grid' }, plots.map(renderPlot))));
  }
  const view = VIEWS[report.protocol];
  if (view) out.push(renderProtocolView(view, entry, ctx));
  out.push(renderItems(entry, ctx));
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

export function decimalsLookup(report) {
  const m = new Map();
  for (const c of report.display?.columns ?? []) if (c.decimals != null) m.set(c.id, c.decimals);
  for (const c of report.display?.headline ?? []) if (c.decimals != null && !m.has(c.id)) m.set(c.id, c.decimals);
  return (id) => m.get(id);
}
