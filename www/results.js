// @ts-check
// The results of a run: a notice when the inputs look swapped (with "Swap and score"), the headline (with the
// leaderboard row of a competition), the official/corrected switch and the details of the shown report; role
// notes and problem counts next to each listed file.

import { h, formatValue, plural } from './util.js';
import { MODES, renderDetails, countSeverities } from './report.js';
import { renderHeadline, headlineParts } from './headline.js';
import { renderLeaderboard } from './leaderboard.js';
import { renderStats } from './stats.js';

/** @typedef {import('./run.js').Run} Run */
/** @typedef {import('./api').Mode} Mode */

/**
 * @typedef {{state: any, engine: import('./engine.js').Engine, results: HTMLElement, stateEl: HTMLElement,
 *   zones: {gt: import('./files.js').Zone, pred: import('./files.js').Zone}, activeEl: () => Element | null,
 *   setStatus: (text: string) => void, onSwap: (() => void) | null, announce?: HTMLElement}} ResultsContext
 *   onSwap: swaps the two zones' files and scores again (null when the GT zone is not the user's)
 */

/** The first `input.swapped` diagnostic of the run's reports (the shell puts it first), or null. @param {Run} run */
export function swappedDiagnostic(run) {
  for (const m of MODES) {
    const d = run.reports[m]?.report.diagnostics?.find((x) => x.code === 'input.swapped');
    if (d) return d;
  }
  return null;
}

/** @param {ResultsContext} ctx */
export function clearResults(ctx) {
  ctx.results.hidden = true;
  ctx.results.replaceChildren();
  if (ctx.announce) ctx.announce.textContent = '';
  ctx.zones.gt.setNotes(null);
  ctx.zones.pred.setNotes(null);
}

/** "Official: MAP 0.51852 (1 error)." naming the one headline metric only. @param {Run} run @param {Mode} mode */
export function summaryText(run, mode) {
  const r = run.reports[mode]?.report;
  if (!r) return '';
  const swapped = swappedDiagnostic(run);
  if (swapped) return swapped.message;
  const m = headlineParts(run.reports[mode]).primary;
  const c = countSeverities(r.diagnostics);
  const probs = [c.error && plural(c.error, 'error'), c.warning && plural(c.warning, 'warning')].filter(Boolean).join(', ');
  const label = mode === 'official' ? 'Official' : 'Corrected';
  if (!m) return `${label}: no headline score${probs ? ` (${probs})` : ''}.`;
  return `${label}: ${m.label ?? m.id} ${formatValue(r.scores?.[m.id], m.decimals)}${probs ? ` (${probs})` : ''}.`;
}

/** "Result, official mode: MAP 0.51852." (the headline metric), or the swapped-inputs sentence. @param {Run} run */
export function announcement(run) {
  const swapped = swappedDiagnostic(run);
  if (swapped) return swapped.message;
  const mode = run.reports[run.first] ? run.first : MODES.find((m) => run.reports[m]);
  const r = mode && run.reports[mode]?.report;
  if (!r) return '';
  const m = headlineParts(run.reports[mode]).primary;
  const errors = countSeverities(r.diagnostics).error;
  const tail = errors ? ` (${plural(errors, 'error')})` : '';
  if (!m) return `Result, ${mode} mode: no headline score${tail}.`;
  return `Result, ${mode} mode: ${m.label ?? m.id} ${formatValue(r.scores?.[m.id], m.decimals)}${tail}.`;
}

/** One plain sentence and, when the zones are the user's, the button that swaps them and scores again. */
function swapNotice(/** @type {ResultsContext} */ ctx, /** @type {import('./api').Diagnostic} */ d) {
  return h('div', { class: 'notice notice-error notice-strong swap-notice', role: 'alert' },
    h('p', { class: 'swap-sentence' }, d.message),
    ctx.onSwap && !(ctx.state.gtPreloaded && ctx.zones.gt.root.hidden) ? h('button', { type: 'button', class: 'btn btn-primary swap-button', onclick: ctx.onSwap }, 'Swap and score') : null);
}

/**
 * Draws (or updates) the results of `run`.
 * @param {ResultsContext} ctx @param {Run} run @param {{scroll?: boolean}} [opts]
 */
export function renderRun(ctx, run, { scroll = false } = {}) {
  if (ctx.state.run !== run) return;
  const res = ctx.results;
  let head = res.querySelector('.r-head');
  let viewBox = res.querySelector('.r-view');
  let details = /** @type {HTMLElement & {run?: Run}} */ (res.querySelector('.r-details'));
  if (!head) {
    head = h('div', { class: 'r-head' });
    viewBox = h('div', { class: 'r-view' });
    details = h('div', { class: 'r-details' });
    res.replaceChildren(
      h('p', { class: 'notice notice-info stale-note', hidden: true }, 'The files or options changed since this result. Press “Score” again to update it.'),
      head, viewBox, details);
    res.hidden = false;
  }
  const active = ctx.activeEl();
  const focusInHead = head.contains(active);
  const headingFocused = active?.id === 'results-title';
  const swapped = swappedDiagnostic(run);
  const config = ctx.state.config;
  head.replaceChildren(
    ...(swapped ? [swapNotice(ctx, swapped)] : []),
    ...(config?.leaderboard?.columns?.length ? [renderLeaderboard(config, run)] : []),
    renderHeadline(run),
    ...(swapped ? [] : [renderStats(run)].filter((x) => x !== null)));
  if (headingFocused) /** @type {HTMLElement} */ (head.querySelector('#results-title'))?.focus({ preventScroll: true });
  else if (focusInHead) res.focus({ preventScroll: true });

  // which report the details show
  if (!run.reports[run.view]) run.view = MODES.find((m) => run.reports[m]) ?? run.view;
  renderViewSwitch(ctx, run, /** @type {HTMLElement} */ (viewBox));
  if (details.dataset.view !== run.view || details.run !== run) renderDetailsFor(ctx, run, details);
  /** @type {HTMLElement} */ (res.querySelector('.stale-note')).hidden = !ctx.state.stale;
  if (scroll) {
    // The result's heading takes the focus (keyboard and screen-reader users land on the result) and one short
    // sentence naming the headline value is announced through the live region.
    /** @type {HTMLElement | null} */ (head.querySelector('#results-title'))?.focus({ preventScroll: true });
    if (ctx.announce) ctx.announce.textContent = announcement(run);
    const top = res.getBoundingClientRect().top;
    if (top > window.innerHeight * 0.6 || top < 0) res.scrollIntoView({ behavior: 'smooth', block: 'start' });
  }
}

/** @param {ResultsContext} ctx @param {Run} run @param {HTMLElement} box */
function renderViewSwitch(ctx, run, box) {
  const active = /** @type {HTMLInputElement | null} */ (ctx.activeEl());
  const focused = active && box.contains(active) ? active.value : null;
  const group = h('div', { class: 'segmented', role: 'radiogroup', 'aria-labelledby': 'view-label' },
    MODES.map((m) => {
      const available = !!run.reports[m];
      const input = h('input', { type: 'radio', name: 'view-mode', id: `view-${m}`, value: m, checked: run.view === m, disabled: !available });
      input.addEventListener('change', () => {
        if (!input.checked) return;
        run.view = m;
        renderDetailsFor(ctx, run, /** @type {HTMLElement} */ (ctx.results.querySelector('.r-details')));
      });
      return h('label', { for: `view-${m}`, class: ['segment', !available && 'is-disabled'] }, input,
        h('span', {}, m === 'official' ? 'Official' : 'Corrected', available ? '' : run.pending.has(m) ? ' (computing…)' : ' (not computed)'));
    }));
  box.replaceChildren(h('div', { class: 'view-switch' }, h('span', { id: 'view-label', class: 'view-label' }, 'Details for'), group));
  if (focused) /** @type {HTMLElement | null} */ (box.querySelector(`input[value="${focused}"]`))?.focus();
}

/** @param {ResultsContext} ctx @param {Run} run @param {HTMLElement & {run?: Run}} details */
function renderDetailsFor(ctx, run, details) {
  const entry = run.reports[run.view];
  if (!entry) return;
  // keep sorting / filtering / open rows when switching between the two reports
  run.table ??= { sort: null, dir: 1, filter: '', expanded: new Set(), all: false };
  details.dataset.view = run.view;
  details.run = run;
  details.replaceChildren(...renderDetails(entry, { table: run.table, engine: ctx.engine, session: run.session, set: run.set, mode: run.view }));
  updateFileNotes(ctx, entry.report);
}

/** Role notes and problem counts for each listed file, from the shown report's diagnostics. */
function updateFileNotes(/** @type {ResultsContext} */ ctx, /** @type {import('./api').Report} */ report) {
  for (const role of /** @type {const} */ (['gt', 'pred'])) {
    const notes = new Map();
    for (const f of ctx.zones[role].files) {
      const mine = (report.diagnostics ?? []).filter((d) => d.file && (d.file === f.path || d.file.startsWith(f.path + '!') || d.file.startsWith(f.path + '/')));
      if (!mine.length) continue;
      const c = countSeverities(mine);
      const roleNotes = mine.filter((d) => /role|swap/i.test(d.code ?? '')).map((d) => d.message).filter(Boolean);
      notes.set(f.path, { errors: c.error, warnings: c.warning, notes: roleNotes });
    }
    ctx.zones[role].setNotes(notes);
  }
}
