// The headline of a run: official and corrected side by side (metrics of display.headline), the official scorer's
// failure, deviations from the official setup, and the explanation of why the two modes differ.

import { h, formatValue, plural } from './util.js';
import { MODES, headlineSpec, countSeverities, sortedDiagnostics } from './report.js';

const MODE_LABEL = { official: 'Official', corrected: 'Corrected' };

// ---------------------------------------------------------------- headline

/**
 * @param {object} run {reports: {official?, corrected?}, first, pending: Set<mode>, explain, explainError, failed: {mode: message}}
 */
export function renderHeadline(run) {
  const reports = run.reports;
  const any = reports[run.first] ?? reports.official ?? reports.corrected;
  const report = any.report;
  const spec = headlineSpec(report);
  const title = report.display?.title || run.protocolName || report.protocol;

  const fails = MODES.some((m) => reports[m]?.report.official_fails);
  const failNotice = fails
    ? h('div', { class: 'notice notice-error notice-strong', role: 'note' },
      h('strong', {}, 'The official scorer fails on this input.'),
      ' ',
      officialFailureText(reports.official?.report ?? report))
    : null;

  const cols = MODES.map((m) => ({ mode: m, entry: reports[m], pending: run.pending.has(m), failed: run.failed?.[m] }));
  const thead = h('thead', {}, h('tr', {},
    h('th', { scope: 'col', class: 'hl-metric' }, 'Metric'),
    cols.map((c) => h('th', { scope: 'col', class: ['hl-col', c.mode === run.first && 'is-chosen'] },
      h('span', { class: 'hl-mode' }, MODE_LABEL[c.mode]),
      c.mode === run.first ? h('span', { class: 'badge badge-accent' }, 'selected') : null,
      c.entry?.report.deviations?.length && c.mode === 'official' ? h('span', { class: 'badge badge-warning', title: 'Options differ from the official setup' }, 'deviates') : null,
      colErrors(c.entry?.report)))));
  const rows = spec.map((m) => {
    const vals = cols.map((c) => c.entry?.report.scores?.[m.id]);
    const both = cols.every((c) => c.entry);
    const differs = both && formatValue(vals[0], m.decimals) !== formatValue(vals[1], m.decimals);
    return h('tr', { class: differs ? 'differs' : null, dataset: { metric: m.id } },
      h('th', { scope: 'row', class: 'hl-metric' }, m.label ?? m.id, m.label && m.label !== m.id ? h('span', { class: 'metric-id' }, m.id) : null),
      cols.map((c, i) => h('td', { class: ['hl-value', c.mode === run.first && 'is-chosen'], dataset: { mode: c.mode } },
        c.entry ? h('span', { class: 'num', title: vals[i] == null ? 'not computable' : String(vals[i]) }, formatValue(vals[i], m.decimals))
          : c.pending ? h('span', { class: 'pending' }, 'computing…')
            : h('span', { class: 'pending' }, c.failed ? 'failed' : '—'))));
  });

  const devs = MODES.filter((m) => reports[m]?.report.deviations?.length).map((m) =>
    h('div', { class: 'deviations' },
      h('p', { class: 'deviations-title' }, `${MODE_LABEL[m]} run deviates from the official setup:`),
      h('ul', {}, reports[m].report.deviations.map((d) => h('li', {}, typeof d === 'string' ? d : JSON.stringify(d))))));

  const footer = report.display?.footer ? h('p', { class: 'hl-footer' }, report.display.footer) : null;

  return h('div', { class: 'headline-block' },
    h('div', { class: 'result-head' },
      h('h2', { id: 'results-title', tabindex: -1 }, 'Result'),
      h('p', { class: 'result-title' }, title)),
    failNotice,
    spec.length
      ? h('div', { class: 'table-scroll' }, h('table', { class: ['headline', spec.length > 8 && 'is-compact'], 'aria-label': 'Headline scores, official and corrected' }, thead, h('tbody', {}, rows)))
      : h('p', { class: 'muted' }, 'This report has no headline scores.'),
    footer,
    devs,
    renderExplain(run));
}

function colErrors(report) {
  if (!report) return null;
  const n = countSeverities(report.diagnostics).error;
  return n ? h('a', { class: 'badge badge-error', href: '#diagnostics' }, plural(n, 'error')) : null;
}

function officialFailureText(report) {
  const diags = sortedDiagnostics(report.diagnostics);
  const err = diags.find((d) => d.severity === 'error' && d.official_behaviour) ?? diags.find((d) => d.official_behaviour);
  const tail = 'dropscore reports the problem instead of failing; corrected mode scores the input with the documented fixes.';
  if (!err) return tail;
  return h('span', {}, 'Official behaviour: ', h('q', {}, err.official_behaviour), ` (${err.code}). `, tail);
}

function renderExplain(run) {
  const both = run.reports.official && run.reports.corrected;
  let body;
  if (run.explainError) body = h('p', { class: 'muted' }, `Could not explain the differences: ${run.explainError}`);
  else if (Array.isArray(run.explain)) {
    body = run.explain.length
      ? h('ul', { class: 'explain-list' }, run.explain.map((line) => h('li', {}, line)))
      : h('p', { class: 'muted' }, 'Official and corrected modes give the same result on this input.');
  } else if (both || run.pending.size) body = h('p', { class: 'muted pending' }, 'Comparing the two modes…');
  else body = h('p', { class: 'muted' }, 'The other mode was not computed.');
  return h('section', { class: 'explain', 'aria-labelledby': 'explain-title' },
    h('h3', { id: 'explain-title' }, 'Why official and corrected differ'),
    body);
}

