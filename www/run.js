// @ts-check
// The run controller: one Score click scores the chosen mode, shows it, scores the other mode, then explains their
// differences. The files are read once per click: the worker opens a session on them (www/engine.js) and every
// request of the click, and of the views afterwards (overlays, single-id details), reuses it. Cancel aborts the
// run's AbortSignal, which stops the worker.

import { CancelledError } from './engine.js';
import { MODES } from './report.js';
import { renderRun, clearResults, summaryText } from './results.js';

/** @typedef {import('./api').Mode} Mode */

// The most per-item rows a report brings to the page; the worker keeps the rest (a 5,000,000-row report is
// 590 MB of JSON, more than a JavaScript string may hold) and the table asks for them page by page.
const ITEMS_LIMIT = 20000;
/** @typedef {import('./api').PageFile} PageFile */

/**
 * A run: what one Score click produced (state.run).
 * @typedef {{protocolId: string, protocolName: string, first: Mode, reports: {official?: import('./api').ScoreResult,
 *   corrected?: import('./api').ScoreResult}, pending: Set<Mode>, failed: {[mode: string]: string},
 *   explain: string[] | null, explainError: string | null, view: Mode, table: any, files: PageFile[],
 *   set: Record<string, string>, session: import('./engine.js').Session | null}} Run
 */

export class RunController {
  /**
   * @param {import('./results.js').ResultsContext & {
   *   progress: HTMLProgressElement, phase: HTMLElement, setRunState: (s: import('./api').RunState) => void,
   *   beginUi: () => void, endUi: () => void, files: () => PageFile[]}} ctx
   */
  constructor(ctx) {
    this.ctx = ctx;
    /** @type {AbortController | null} */
    this.controller = null;
  }

  /** Stops the running click (its promises reject with CancelledError). */
  cancel() {
    this.controller?.abort();
  }

  /** Forgets the shown run and frees its files in the worker. */
  clear() {
    const { state } = this.ctx;
    state.run?.session?.close();
    state.run = null;
    clearResults(this.ctx);
  }

  /** Runs the chosen mode, shows it; runs the other mode; shows both and their explanation. */
  async start() {
    const ctx = this.ctx;
    const { state } = ctx;
    const p = state.current;
    if (!p?.built || state.running) return;
    const files = ctx.files();
    const first = state.mode;
    /** @type {Mode} */
    const second = first === 'official' ? 'corrected' : 'official';
    const set = { ...state.set };
    state.run?.session?.close();
    /** @type {Run} */
    const run = {
      protocolId: p.id, protocolName: p.name, first, reports: {}, pending: new Set([first, second]), failed: {},
      explain: null, explainError: null, view: first, table: null, files, set, session: null,
    };
    state.run = run;
    state.stale = false;
    const controller = new AbortController();
    this.controller = controller;
    const { signal } = controller;
    const started = performance.now();
    ctx.beginUi();
    let lastPhase = '';
    /** @param {number} index @param {string} label */
    const progressFor = (index, label) => (/** @type {number} */ fraction, /** @type {string} */ phase) => {
      if (state.run !== run) return;
      const f = Math.max(0, Math.min(1, Number(fraction) || 0));
      ctx.progress.value = (index + f) / 2;
      const text = `${label}: ${phase || 'working'}`;
      if (text !== lastPhase) {
        lastPhase = text;
        ctx.phase.textContent = text;
      }
    };
    const modeLabel = (/** @type {Mode} */ m) => `${m === 'official' ? 'Official' : 'Corrected'} mode`;
    try {
      run.session = await ctx.engine.open(p.id, files, { signal, onProgress: progressFor(0, 'Reading the files') });
      for (const [index, mode] of [first, second].entries()) {
        let result;
        try {
          result = await run.session.score({ mode, set }, { keep: true, limit: ITEMS_LIMIT, signal, onProgress: progressFor(index, modeLabel(mode)) });
          // What the page draws beside the report: headline hints, table columns, plot specs (src/render/page.rs).
          result.view = await run.session.request({ type: 'page-view', mode }, { signal });
        } catch (e) {
          if (e instanceof CancelledError) throw e;
          run.failed[mode] = e?.message ?? String(e);
          run.pending.delete(mode);
          if (index === 0) throw e;
          ctx.setStatus(`The ${mode} run failed: ${run.failed[mode]}`);
          renderRun(ctx, run);
          continue;
        }
        if (state.run !== run) return;
        run.reports[mode] = result;
        run.pending.delete(mode);
        renderRun(ctx, run, { scroll: index === 0 });
        if (index === 0) ctx.setStatus(summaryText(run, mode));
      }
      if (run.reports.official && run.reports.corrected) {
        ctx.phase.textContent = 'Comparing the two modes…';
        try {
          run.explain = await run.session.explain({ signal });
        } catch (e) {
          if (e instanceof CancelledError) throw e;
          run.explainError = e?.message ?? String(e);
        }
        renderRun(ctx, run);
      }
      const secs = ((performance.now() - started) / 1000).toFixed(1);
      ctx.setStatus(`Done in ${secs} s. ${summaryText(run, run.first)}`);
      ctx.setRunState('done');
    } catch (e) {
      run.pending.clear();
      if (e instanceof CancelledError) {
        if (Object.keys(run.reports).length) {
          renderRun(ctx, run);
          ctx.setStatus(`Cancelled (${MODES.filter((m) => !run.reports[m]).join(' and ')} mode not computed).`);
        } else {
          this.clear();
          ctx.setStatus('Cancelled.');
        }
        ctx.setRunState('cancelled');
      } else {
        if (!Object.keys(run.reports).length) state.run = null;
        ctx.setStatus(`Scoring failed: ${e?.message ?? e}`);
        ctx.setRunState('failed');
      }
    } finally {
      if (this.controller === controller) this.controller = null;
      if (state.run === run || !state.run) ctx.endUi();
      if (ctx.stateEl.dataset.run === 'running' && !state.running) ctx.setRunState('idle');
    }
  }
}
