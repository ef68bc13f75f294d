// The headline of a run: official and corrected side by side (metrics of display.headline), the official scorer's
// failure, deviations from the official setup, and the explanation of why the two modes differ.

import { h, formatValue, plural } from './util.js';
import { MODES, headlineSpec, countSeverities, sortedDiagnostics } from './report.js';
import { missingReason } from './reasons.js';

const MODE_LABEL = { official: 'Official', corrected: 'Corrected' };

// ---------------------------------------------------------------- headline

/**
 * The one headline of a run (the leaderboard metric), the measures shown beside it, and every other measure (the
 * "All measures" table): the ids come with the report, from its protocol (src/render/page.rs `headline`); the
 * labels and decimals are the report's display.headline.
 * @param {import('./api').ScoreResult} entry
 * @returns {{primary: any, beside: any[], rest: any[]}}
 */
export function headlineParts(entry) {
  const spec = headlineSpec(entry.report);
  const byId = (/** @type {string} */ id) => spec.find((m) => m.id === id);
  const hl = entry.view?.headline;
  const primary = (hl?.primary != null && byId(hl.primary)) || spec[0];
  const beside = (hl?.beside ?? []).map(byId).filter((m) => m && m !== primary);
  const shown = new Set([primary, ...beside]);
  return { primary, beside, rest: spec.filter((m) => !shown.has(m)) };
}

/**
 * @param {object} run {reports: {official?, corrected?}, first, pending: Set<mode>, explain, explainError, failed: {mode: message}}
 */
export function renderHeadline(run) {
  const reports = run.reports;
  const any = reports[run.first] ?? reports.official ?? reports.corrected;
  const report = any.report;
  const title = report.display?.title || run.protocolName || report.protocol;

  const fails = MODES.some((m) => reports[m]?.report.official_fails);
  const failNotice = fails
    ? h('div', { class: 'notice notice-error notice-strong', role: 'note' },
      h('strong', {}, 'The official scorer fails on this input.'),
      ' ',
      officialFailureText(reports.official?.report ?? report))
    : null;

  const cols = MODES.map((m) => ({ mode: m, entry: reports[m], pending: run.pending.has(m), failed: run.failed?.[m] }));
  const thead = () => h('thead', {}, h('tr', {},
    h('th', { scope: 'col', class: 'hl-metric' }, 'Metric'),
    cols.map((c) => h('th', { scope: 'col', class: ['hl-col', c.mode === run.first && 'is-chosen'] },
      h('span', { class: 'hl-mode' }, MODE_LABEL[c.mode]),
      c.mode === run.first ? h('span', { class: 'badge badge-accent' }, 'selected') : null,
      c.entry?.report.deviations?.length && c.mode === 'official' ? h('span', { class: 'badge badge-warning', title: 'Options differ from the official setup' }, 'deviates') : null,
      colErrors(c.entry?.report)))));
  const row = (/** @type {any} */ m, /** @type {string | null} */ cls) => {
    const vals = cols.map((c) => c.entry?.report.scores?.[m.id]);
    const both = cols.every((c) => c.entry);
    const differs = both && formatValue(vals[0], m.decimals) !== formatValue(vals[1], m.decimals);
    // Every "—" says why, in its own row: once when both modes give the same reason.
    const reasons = cols.map((c, i) => (c.entry && !Number.isFinite(vals[i]) ? missingReason(c.entry.report, m.id)
      : !c.entry && !c.pending && c.failed ? `not computed: ${c.failed}` : null));
    const reasonId = `hl-why-${m.id.replace(/[^A-Za-z0-9_-]/g, '_')}`;
    const shown = reasons[0] && reasons[0] === reasons[1] ? [`— in both modes: ${reasons[0]}`]
      : cols.map((c, i) => reasons[i] && `— in ${c.mode}: ${reasons[i]}`).filter(Boolean);
    return h('tr', { class: [cls, differs && 'differs'], dataset: { metric: m.id } },
      h('th', { scope: 'row', class: 'hl-metric' }, m.label ?? m.id, m.label && m.label !== m.id ? h('span', { class: 'metric-id' }, m.id) : null,
        shown.length ? h('span', { class: 'hl-why', id: reasonId }, shown.join('; ')) : null),
      cols.map((c, i) => h('td', { class: ['hl-value', c.mode === run.first && 'is-chosen'], dataset: { mode: c.mode } },
        c.entry ? h('span', { class: 'num', title: reasons[i] ?? String(vals[i]), 'aria-describedby': reasons[i] ? reasonId : null }, formatValue(vals[i], m.decimals))
          : c.pending ? h('span', { class: 'pending' }, 'computing…')
            : h('span', { class: 'pending', title: reasons[i], 'aria-describedby': reasons[i] ? reasonId : null }, c.failed ? 'failed' : '—'))));
  };
  const parts = headlineParts(any);
  const main = parts.primary
    ? h('div', { class: 'table-scroll' }, h('table', { class: 'headline hl-main', 'aria-label': `Headline: ${parts.primary.label ?? parts.primary.id}, official and corrected` },
      thead(), h('tbody', {}, row(parts.primary, 'hl-primary'), parts.beside.map((m) => row(m, 'hl-beside')))))
    : h('p', { class: 'muted' }, 'This report has no headline scores.');
  const all = parts.rest.length
    ? h('section', { class: 'all-measures', 'aria-labelledby': 'all-measures-title' },
      h('h3', { id: 'all-measures-title' }, 'All measures'),
      h('div', { class: 'table-scroll' }, h('table', { class: ['headline', 'hl-all', parts.rest.length > 8 && 'is-compact'], 'aria-label': 'All measures, official and corrected' },
        thead(), h('tbody', {}, parts.rest.map((m) => row(m, null))))))
    : null;

  const devs = renderDeviations(run, parts.primary ? [parts.primary] : []);

  const footer = report.display?.footer ? h('p', { class: 'hl-footer' }, report.display.footer) : null;

  return h('div', { class: 'headline-block' },
    h('div', { class: 'result-head' },
      h('h2', { id: 'results-title', tabindex: -1 }, 'Result'),
      h('p', { class: 'result-title' }, title)),
    failNotice,
    main,
    footer,
    all,
    devs,
    renderExplain(run));
}

/** `name = value deviates from official (default)`: the option lines of report.deviations (src/protocols/options.rs). */
const OPTION_LINE = /^(\S+) = (.*) deviates from official \((.*)\)$/;

/** Whether an option line's value is really the official default (e.g. "0.750" for 0.75): not a deviation. */
function sameAsDefault(/** @type {string} */ line) {
  const m = OPTION_LINE.exec(line);
  if (!m) return false;
  const [, , value, dflt] = m;
  return value === dflt || (value.trim() !== '' && dflt.trim() !== '' && Number(value) === Number(dflt));
}

/**
 * The deviations from the official setup, collapsed: one <details> per mode that has any, listing only the options
 * whose value differs from the official default (and the notes that are not options); its summary line says when
 * both modes give the same headline anyway.
 */
function renderDeviations(run, spec) {
  const reports = run.reports;
  // "The same headline" only for a number both modes computed (a "—" in both says nothing about the scores).
  const same = reports.official && reports.corrected && spec.length > 0 && spec.every((m) =>
    Number.isFinite(reports.official.report.scores?.[m.id])
    && formatValue(reports.official.report.scores?.[m.id], m.decimals) === formatValue(reports.corrected.report.scores?.[m.id], m.decimals));
  return MODES.map((m) => {
    const lines = (reports[m]?.report.deviations ?? []).map((d) => (typeof d === 'string' ? d : JSON.stringify(d))).filter((d) => !sameAsDefault(d));
    if (!lines.length) return null;
    const what = plural(lines.length, 'difference');
    return h('details', { class: 'deviations', dataset: { mode: m } },
      h('summary', { class: 'deviations-title' }, `${MODE_LABEL[m]} run deviates from the official setup (${what})`,
        same ? h('span', { class: 'deviations-same' }, ': both modes give the same headline') : null),
      h('ul', {}, lines.map((d) => h('li', {}, d))));
  });
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

