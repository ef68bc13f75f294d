// @ts-check
// Statistics on the page (docs/specs/statistics.md sections 2 and 3): the headline metric's bootstrap interval with
// a histogram of its replicates, and "Compare with another submission". Every number and sentence comes from the
// engine (src/wasm/stats.rs: the interval text as the command line writes it, the histogram's bins, the compare
// JSON of `dropscore compare --format json`); this file only draws them.

import { h, s } from './util.js';
import { headlineParts } from './headline.js';
import { renderPlot } from './plots.js';

/** Bins of the replicate histogram. */
const BINS = 30;

/**
 * The statistics block of `run` (kept on the run, so a redraw of the headline keeps its state), or null before a
 * report is there.
 * @param {any} run
 */
export function renderStats(run) {
  const mode = run.reports[run.first] ? run.first : run.reports.official ? 'official' : 'corrected';
  const entry = run.reports[mode];
  if (!entry || !run.session) return null;
  if (run.statsEl && run.statsEl.dataset.mode === mode) return run.statsEl;
  const box = h('section', { class: 'stats-box', 'aria-label': 'How sure is this score', dataset: { mode } });
  const metric = headlineParts(entry).primary;
  // With `bootstrap` set, the page's report comes with its `statistics` and the intervals follow (src/wasm/stats.rs).
  const wanted = metric && (entry.report.intervals?.[metric.id] || entry.report.statistics);
  if (wanted) box.append(intervalBlock(run, mode, metric));
  box.append(compareBlock(run, mode));
  run.statsEl = box;
  return box;
}

let nextJob = 1;

/**
 * The headline metric's interval and replicate histogram: computed after the headline is drawn, with a progress bar
 * and a Cancel button (the worker yields between steps: a cancel keeps the session and the headline).
 */
function intervalBlock(/** @type {any} */ run, /** @type {string} */ mode, /** @type {any} */ metric) {
  const job = `${Date.now()}-${nextJob++}`;
  let cancelled = false;
  const progress = /** @type {HTMLProgressElement} */ (h('progress', { class: 'stats-progress', max: 1, value: 0, 'aria-label': 'Bootstrap progress' }));
  const cancel = h('button', { type: 'button', class: 'btn stats-cancel', onclick: () => {
    cancelled = true;
    cancel.setAttribute('disabled', '');
    run.session.request({ type: 'intervals-cancel', job }).catch(() => {});
  } }, 'Cancel');
  const block = h('div', { class: 'stats-interval' },
    h('p', { class: 'stats-pending' }, 'Computing the interval… ', progress, ' ', cancel));
  const label = metric.label ?? metric.id;
  run.session.request({ type: 'intervals', mode, metric: metric.id, bins: BINS, job }, { onProgress: (/** @type {number} */ f) => { progress.value = f; } })
    .then((/** @type {any} */ r) => {
      block.replaceChildren(
        h('p', { class: 'stats-line' },
          h('span', { class: 'stats-metric' }, label), ' ',
          h('span', { class: 'stats-value num', dataset: { low: String(r.low), high: String(r.high) } }, r.text)),
        h('p', { class: 'stats-heading' }, r.heading),
        r.histogram ? histogramSvg(r.histogram, r.low, r.high, `Histogram of the ${r.bootstrap} bootstrap replicates of ${label}`) : null);
    })
    .catch((/** @type {any} */ e) => block.replaceChildren(cancelled
      ? h('p', { class: 'notice notice-info stats-cancelled' }, 'Interval cancelled: the score above stands; score again to compute it.')
      : h('p', { class: 'notice notice-error' }, String(e?.message ?? e))));
  return block;
}

/**
 * Bars of `hist.counts` over [lo, hi], the interval [low, high] shaded behind them; scales with its box.
 * @param {{lo: number, hi: number, counts: number[]}} hist @param {number | null} low @param {number | null} high
 * @param {string} label
 */
function histogramSvg(hist, low, high, label) {
  const W = 300, H = 80, n = hist.counts.length;
  const max = Math.max(1, ...hist.counts);
  const span = hist.hi - hist.lo;
  const x = (/** @type {number} */ v) => (span > 0 ? ((v - hist.lo) / span) * W : W / 2);
  const shade = low != null && high != null
    ? [s('rect', { class: 'stats-ci', x: x(low), y: 0, width: Math.max(1, x(high) - x(low)), height: H })] : [];
  const bars = hist.counts.map((c, i) => s('rect', {
    class: 'stats-bar', x: (i * W) / n + 0.5, width: Math.max(0.5, W / n - 1), y: H - (c / max) * H, height: (c / max) * H,
  }));
  return h('figure', { class: 'stats-hist' },
    s('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': label, preserveAspectRatio: 'none', width: '100%', height: '80' },
      ...shade, ...bars),
    h('figcaption', {}, label));
}

/** "Compare with another submission": a second prediction zone, collapsed; the engine compares on click. */
function compareBlock(/** @type {any} */ run, /** @type {string} */ mode) {
  const input = /** @type {HTMLInputElement} */ (h('input', { type: 'file', multiple: true, class: 'compare-files', 'aria-label': 'Predictions of submission B' }));
  const out = h('div', { class: 'compare-result', 'aria-live': 'polite' });
  const progress = /** @type {HTMLProgressElement} */ (h('progress', { class: 'compare-progress', max: 1, hidden: true }));
  /** @type {AbortController | null} */
  let running = null;
  const cancel = h('button', { type: 'button', class: 'btn compare-cancel', hidden: true, onclick: () => running?.abort() }, 'Cancel');
  const go = h('button', { type: 'button', class: 'btn btn-primary compare-go', onclick: async () => {
    const files = [...(input.files ?? [])].map((f) => ({ path: f.name, role: 'pred', data: f }));
    if (!files.length) {
      out.replaceChildren(h('p', { class: 'notice notice-info' }, 'Choose the prediction files of submission B first.'));
      return;
    }
    running = new AbortController();
    progress.hidden = false;
    cancel.hidden = false;
    out.replaceChildren();
    try {
      const answer = /** @type {{json: string, deltas: string, scatter: string}} */ (await run.session.request({ type: 'compare', files, options: { mode, set: run.set } }, {
        signal: running.signal, onProgress: (/** @type {number} */ f) => { progress.value = f; },
      }));
      out.replaceChildren(compareView(JSON.parse(answer.json).compare, JSON.parse(answer.deltas), JSON.parse(answer.scatter ?? 'null')));
    } catch (e) {
      out.replaceChildren(h('p', { class: 'notice notice-error compare-refusal' }, String(/** @type {any} */ (e)?.message ?? e)));
    } finally {
      running = null;
      progress.hidden = true;
      cancel.hidden = true;
    }
  } }, 'Compare');
  return h('details', { class: 'compare-zone' },
    h('summary', {}, 'Compare with another submission'),
    h('p', { class: 'compare-help' }, 'Submission A is the one scored above; B is scored on the same ground truth, and both are resampled with the same bootstrap draws.'),
    h('div', { class: 'compare-controls' }, input, go, cancel, progress),
    out);
}

/**
 * Δ with its interval, the two p-values, wins/ties/losses and the verdict, as the engine gave them, the
 * histogram of the paired replicates' Δ, and the scatter of per-unit scores (a plot spec of
 * src/render/compare_plot.rs: equal pairs drawn once, at most 2,000 points, its note says what is drawn).
 * @param {any} c @param {{lo: number, hi: number, counts: number[]} | null} deltas
 * @param {{spec: any, note: string, points: number} | null} scatter
 */
function compareView(c, deltas, scatter) {
  const num = (/** @type {number | null} */ v) => (v == null ? '—' : String(v));
  const rows = [
    ['Metric', c.metric], ['A', num(c.a)], ['B', num(c.b)], ['Δ = A − B', num(c.delta)],
    ['Interval of Δ', `[${num(c.low)}, ${num(c.high)}]`], ['p (paired bootstrap)', num(c.p_bootstrap)],
    ['p (randomization)', num(c.p_randomization)],
    ['Units: A wins / ties / B wins', c.wins == null ? '—' : `${c.wins} / ${c.ties} / ${c.losses}`],
  ];
  return h('div', { class: 'compare-view' },
    h('p', { class: 'compare-verdict' }, c.verdict),
    h('table', { class: 'compare-table' }, h('tbody', {},
      rows.map(([k, v]) => h('tr', { dataset: { key: k } }, h('th', { scope: 'row' }, k), h('td', { class: 'num' }, v))))),
    deltas ? histogramSvg(deltas, c.low, c.high, `Δ = A − B over the ${deltas.counts.reduce((a, b) => a + b, 0)} paired bootstrap replicates`) : null,
    scatter ? h('div', { class: 'compare-scatter', dataset: { points: String(scatter.points) } },
      renderPlot(scatter.spec), h('p', { class: 'muted small compare-scatter-note' }, scatter.note)) : null);
}
