// The headline of a run: official and corrected side by side (metrics of display.headline), the official scorer's
// failure, deviations from the official setup, and the explanation of why the two modes differ.

import { h, formatValue, plural } from './util.js';
import { MODES, headlineSpec, countSeverities, sortedDiagnostics, locationOf } from './report.js';
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
  // hl.rest: the other metrics in the order the engine lists them (those computed first).
  const rest = hl?.rest ? hl.rest.map(byId).filter((m) => m && !shown.has(m)) : [];
  const listed = new Set([...shown, ...rest]);
  return { primary, beside, rest: [...rest, ...spec.filter((m) => !listed.has(m))] };
}

/**
 * @param {object} run {reports: {official?, corrected?}, first, pending: Set<mode>, explain, explainError, failed: {mode: message}}
 */
export function renderHeadline(run) {
  const reports = run.reports;
  const any = reports[run.first] ?? reports.official ?? reports.corrected;
  const report = any.report;
  const title = report.display?.title || run.protocolName || report.protocol;

  // One column when the two modes are the same by definition (the protocol's hint, src/render/page.rs).
  const oneMode = !!any.view?.one_mode;
  const modes = oneMode ? MODES.filter((m) => m === 'official') : MODES;
  const cause = modes.map((m) => reports[m]?.view?.cause).find(Boolean) ?? null;
  const fails = modes.some((m) => reports[m]?.report.official_fails);
  const failNotice = fails
    ? h('div', { class: 'notice notice-error notice-strong', role: 'note' },
      h('strong', {}, 'The official scorer fails on this input.'),
      ' ',
      officialFailureText(reports.official ?? any, oneMode ? undefined : reports.corrected))
    : null;

  const cols = modes.map((m) => ({ mode: m, entry: reports[m], pending: run.pending.has(m), failed: run.failed?.[m] }));
  const thead = () => h('thead', {}, h('tr', {},
    h('th', { scope: 'col', class: 'hl-metric' }, 'Metric'),
    cols.map((c) => h('th', { scope: 'col', class: ['hl-col', !oneMode && c.mode === run.first && 'is-chosen'] },
      h('span', { class: 'hl-mode' }, oneMode ? 'Score' : MODE_LABEL[c.mode]),
      !oneMode && c.mode === run.first ? h('span', { class: 'badge badge-accent' }, 'selected') : null,
      c.entry?.view?.deviations?.length && c.mode === 'official' ? h('span', { class: 'badge badge-warning', title: 'Options differ from the official setup' }, 'deviates') : null,
      colErrors(c.entry?.report)))));
  // Every "—" says why: in its own row when the reason is the metric's own, once under the table when several
  // rows share it; none when the input has errors (the card above the table gives the cause once).
  const why = (/** @type {any} */ m) => {
    const vals = cols.map((c) => c.entry?.report.scores?.[m.id]);
    const reasons = cols.map((c, i) => (c.entry && !Number.isFinite(vals[i]) ? (c.entry.view?.cause ? null : missingReason(c.entry.report, m.id))
      : !c.entry && !c.pending && c.failed ? `not computed: ${c.failed}` : null));
    const shown = oneMode ? reasons.filter(Boolean).map((r) => `— ${r}`)
      : reasons[0] && reasons[0] === reasons[1] ? [`— in both modes: ${reasons[0]}`]
        : cols.map((c, i) => reasons[i] && `— in ${c.mode}: ${reasons[i]}`).filter(Boolean);
    return { vals, reasons, text: shown.join('; ') };
  };
  const parts = headlineParts(any);
  const shared = new Map();
  for (const m of parts.rest) {
    const t = why(m).text;
    if (t) shared.set(t, (shared.get(t) ?? 0) + 1);
  }
  for (const [t, n] of shared) if (n < 3) shared.delete(t);
  const row = (/** @type {any} */ m, /** @type {string | null} */ cls, inAll = false) => {
    const { vals, reasons, text } = why(m);
    const shown = text && !(inAll && shared.has(text)) ? [text] : [];
    const both = cols.length > 1 && cols.every((c) => c.entry);
    const differs = both && formatValue(vals[0], m.decimals) !== formatValue(vals[1], m.decimals);
    const reasonId = `hl-why-${m.id.replace(/[^A-Za-z0-9_-]/g, '_')}`;
    return h('tr', { class: [cls, differs && 'differs'], dataset: { metric: m.id } },
      h('th', { scope: 'row', class: 'hl-metric' }, m.label ?? m.id, m.label && m.label !== m.id ? h('span', { class: 'metric-id' }, m.id) : null,
        shown.length ? h('span', { class: 'hl-why', id: reasonId }, shown.join('; ')) : null),
      cols.map((c, i) => h('td', { class: ['hl-value', c.mode === run.first && 'is-chosen'], dataset: { mode: c.mode } },
        c.entry ? h('span', { class: 'num', title: reasons[i] ?? (c.entry.view?.cause && !Number.isFinite(vals[i]) ? 'not computed: the input has errors (above)' : String(vals[i])), 'aria-describedby': reasons[i] && shown.length ? reasonId : null }, formatValue(vals[i], m.decimals))
          : c.pending ? h('span', { class: 'pending' }, 'computing…')
            : h('span', { class: 'pending', title: reasons[i], 'aria-describedby': reasons[i] ? reasonId : null }, c.failed ? 'failed' : '—'))));
  };
  const main = parts.primary
    ? h('div', { class: 'table-scroll' }, h('table', { class: 'headline hl-main', 'aria-label': `Headline: ${parts.primary.label ?? parts.primary.id}, official and corrected` },
      thead(), h('tbody', {}, row(parts.primary, 'hl-primary'), parts.beside.map((m) => row(m, 'hl-beside')))))
    : h('p', { class: 'muted' }, 'This report has no headline scores.');
  const all = parts.rest.length
    ? h('section', { class: 'all-measures', 'aria-labelledby': 'all-measures-title' },
      h('h3', { id: 'all-measures-title' }, 'All measures'),
      h('div', { class: 'table-scroll' }, h('table', { class: ['headline', 'hl-all', parts.rest.length > 8 && 'is-compact'], 'aria-label': 'All measures, official and corrected' },
        thead(), h('tbody', {}, parts.rest.map((m) => row(m, null, true))))),
      [...shared].map(([t, n]) => h('p', { class: 'hl-why hl-why-shared' }, `${t} (${n} measures)`)))
    : null;

  const devs = renderDeviations(run, modes, parts.primary ? [parts.primary] : []);

  const footer = report.display?.footer ? h('p', { class: 'hl-footer' }, report.display.footer) : null;
  // Public and private parts (a GT with a usage column or a split file): each part's headline metric, as the
  // engine words it (src/render.rs parts_lines).
  const partLines = any.view?.parts ?? [];
  const partsNote = partLines.length
    ? h('ul', { class: 'hl-parts', 'aria-label': 'Scores by part' }, partLines.map((l) => h('li', {}, l)))
    : null;

  return h('div', { class: 'headline-block' },
    h('div', { class: 'result-head' },
      h('h2', { id: 'results-title', tabindex: -1 }, 'Result'),
      h('p', { class: 'result-title' }, title)),
    cause ? renderCause(cause) : null,
    failNotice,
    main,
    partsNote,
    footer,
    all,
    devs,
    oneMode ? null : renderExplain(run));
}

/** The input's first error (its root cause, chosen by the engine), its location and its hint, above the scores. */
function renderCause(/** @type {import('./api').Diagnostic} */ d) {
  const loc = locationOf(d);
  return h('div', { class: 'notice notice-error cause-card', role: 'alert', dataset: { code: d.code ?? '' } },
    h('p', { class: 'cause-message' }, h('strong', {}, loc ? `${loc}: ` : ''), d.message ?? d.code ?? ''),
    d.expected != null || d.found != null
      ? h('p', { class: 'cause-found small' }, d.expected != null ? ['Expected ', h('code', {}, d.expected)] : null,
        d.expected != null && d.found != null ? '; ' : null, d.found != null ? ['found ', h('code', {}, d.found)] : null)
      : null,
    d.hint ? h('p', { class: 'cause-hint' }, h('strong', {}, 'Hint: '), d.hint) : null,
    h('p', { class: 'small' }, h('a', { href: '#diagnostics' }, 'All diagnostics')));
}

/**
 * The deviations from the official setup, collapsed: one <details> per mode that has any, listing only the options
 * whose value differs from the official default (and the notes that are not options); its summary line says when
 * both modes give the same headline anyway.
 */
function renderDeviations(run, modes, spec) {
  const reports = run.reports;
  // "The same headline" only for a number both modes computed (a "—" in both says nothing about the scores).
  const same = reports.official && reports.corrected && spec.length > 0 && spec.every((m) =>
    Number.isFinite(reports.official.report.scores?.[m.id])
    && formatValue(reports.official.report.scores?.[m.id], m.decimals) === formatValue(reports.corrected.report.scores?.[m.id], m.decimals));
  return modes.map((m) => {
    // The engine's list (src/render/page.rs deviations): required and input-describing options, the leaderboard
    // metric and values equal to the default are not deviations.
    const lines = (reports[m]?.view?.deviations ?? []).map((d) => (typeof d === 'string' ? d : JSON.stringify(d)));
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

/** The official scorer's behaviour on the root cause, and what corrected mode does with the input. */
function officialFailureText(official, corrected) {
  const report = official.report;
  const diags = sortedDiagnostics(report.diagnostics);
  const cause = official.view?.cause;
  const err = (cause?.official_behaviour ? cause : null)
    ?? diags.find((d) => d.severity === 'error' && d.official_behaviour) ?? diags.find((d) => d.official_behaviour);
  const rescued = corrected?.report && !corrected.view?.cause && Object.values(corrected.report.scores ?? {}).some(Number.isFinite);
  const tail = rescued
    ? 'dropscore reports the problem instead of failing; corrected mode scores the input with the documented fixes.'
    : corrected?.report
      ? 'dropscore reports the problem instead of failing; corrected mode cannot score this input either: fix the error above.'
      : 'dropscore reports the problem instead of failing.';
  if (!err) return tail;
  // The code only when it is the cause's (else it would name a consequence, e.g. an id missing at the GT's line).
  const same = (/** @type {any} */ a, /** @type {any} */ b) => a.code === b.code && a.file === b.file && a.line === b.line;
  const code = !cause || same(err, cause) ? ` (${err.code})` : '';
  return h('span', {}, 'Official behaviour: ', h('q', {}, err.official_behaviour), `${code}. `, tail);
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

