// @ts-check
// dropscore app: protocol picker, drop zones, options, scoring through the worker, results. Mounted by
// www/page.js on the whole page (index.html) and by www/embed.js inside a <dropscore-evaluator>'s shadow root:
// every query stays inside `container`, and only the page mode touches location, history, title and window.
// The parts: www/options-form.js (options), www/config.js (competition config, preloaded ground truth),
// www/run.js (one Score click, cancel through an AbortSignal), www/results.js (what a run shows).

import { h, plural } from './util.js';
import { Engine } from './engine.js';
import { Zone } from './files.js';
import { optionsForm } from './options-form.js';
import { loadConfig, preloadGroundTruth, preloadManifest, fetchFiles } from './config.js';
import { RunController } from './run.js';
import { manifestText, runCheck, renderCheck } from './check.js';
import { showAssetStatus } from './asset-status.js';

const WWW = new URL('./', import.meta.url); // examples/... are relative to www/

/**
 * Mounts the app on `container` (holding www/markup.js's MARKUP).
 * @param {HTMLElement} container
 * @param {{page?: boolean, stateEl?: HTMLElement, configUrl?: string|null, configText?: string|null,
 *          configError?: string|null}} opts
 *   page: the whole-page mode (hash routing, document title, window drop guard); stateEl: where
 *   data-run/data-runs are exposed (document.body on the page, the custom element when embedded);
 *   configText/configUrl: a competition config in its JSON form (src/config.rs), validated by the engine.
 * @returns {import('./api').MountedApp}
 */
export function mountApp(container, opts = {}) {
  const page = opts.page ?? false;
  const stateEl = opts.stateEl ?? document.body;
  const $ = (/** @type {string} */ sel) => /** @type {any} */ (container.querySelector(sel));
  const rootNode = /** @type {Document | ShadowRoot} */ (container.getRootNode());
  const activeEl = () => rootNode.activeElement ?? document.activeElement;

  const state = {
    /** @type {import('./api').ProtocolInfo[]} */
    protocols: [],
    /** @type {import('./api').ProtocolInfo | null} */
    current: null,
    /** @type {import('./api').Mode} */
    mode: 'official',
    /** @type {Record<string, string>} options the user changed */
    set: {},
    running: false,
    /** @type {import('./run.js').Run | null} */
    run: null,
    stale: false,
    /** @type {import('./api').CompetitionConfig | null} validated competition config (embedded mode) */
    config: null,
    gtPreloaded: false,
    /** @type {{path: string, text: string} | null} the manifest checked against (dropped, or the config's) */
    manifest: null,
    /** @type {{path: string, text: string} | null} the config's manifest (`manifest = "…"`) */
    configManifest: null,
  };

  const els = {
    engineStatus: $('#engine-status'),
    protocolList: $('#protocol-list'),
    info: $('#protocol-info'),
    name: $('#protocol-name'),
    badge: $('#protocol-badge'),
    summary: $('#protocol-summary'),
    examples: $('#examples'),
    exampleButtons: $('#example-buttons'),
    optionsBody: $('#options-body'),
    optionsState: $('#options-state'),
    scoreButton: $('#score-button'),
    runHint: $('#run-hint'),
    progressBox: $('#progress-box'),
    progress: $('#progress'),
    phase: $('#progress-phase'),
    cancel: $('#cancel-button'),
    statusText: $('#status-text'),
    results: $('#results'),
    announce: $('#result-announce'),
    competitionTitle: $('#step-protocol-title .step-label'),
    gtNote: $('#gt-preloaded'),
  };

  const engine = new Engine({ onFatal: showEngineError });
  const setStatus = (/** @type {string} */ text) => { els.statusText.textContent = text ?? ''; };
  const zones = {
    gt: new Zone($('#zone-gt'), 'gt', { onChange: inputsChanged, onError: setStatus }),
    pred: new Zone($('#zone-pred'), 'pred', { onChange: inputsChanged, onError: setStatus }),
  };
  const form = optionsForm({
    state, body: els.optionsBody, summary: els.optionsState, onChange: inputsChanged,
    modeRadios: /** @type {NodeListOf<HTMLInputElement>} */ (container.querySelectorAll('input[name=mode]')),
  });

  /** Exposed for tests and styling: idle | running | done | cancelled | failed. @param {import('./api').RunState} s */
  const setRunState = (s) => {
    stateEl.dataset.run = s;
    if (s === 'running') stateEl.dataset.runs = String(Number(stateEl.dataset.runs ?? 0) + 1);
  };

  const runs = new RunController({
    state, engine, zones, stateEl, activeEl, setStatus, setRunState, results: els.results, announce: els.announce, progress: els.progress,
    phase: els.phase,
    // Swap and score: the two zones' files change places (not when the organizers' ground truth is preloaded).
    onSwap: () => {
      if (state.running || (state.gtPreloaded && zones.gt.root.hidden)) return;
      const gt = zones.gt.files;
      zones.gt.set(zones.pred.files);
      zones.pred.set(gt);
      runs.start();
    },
    files: () => ['gt', 'pred'].flatMap((role) => zones[role].files.map((f) => ({ path: f.path, role, data: f.file }))),
    beginUi: () => {
      state.running = true;
      setRunState('running');
      els.progress.value = 0;
      els.phase.textContent = 'Starting…';
      els.progressBox.hidden = false;
      setStatus('');
      updateRunState();
    },
    endUi,
  });

  // ---------------------------------------------------------------- engine + protocols

  /** @param {string} message */
  function showEngineError(message) {
    els.engineStatus.textContent = message;
    els.engineStatus.hidden = false;
    if (!state.protocols.length) {
      els.protocolList.replaceChildren(h('li', { class: 'protocol-loading' }, 'The scoring engine is not available.'));
    }
    endUi();
  }

  async function loadProtocols() {
    try {
      const list = await engine.protocols();
      state.protocols = Array.isArray(list) ? list : [];
    } catch (e) {
      showEngineError(e?.message ?? String(e));
      return;
    }
    if (opts.configText != null || opts.configError) {
      const c = await loadConfig(engine, opts, els.engineStatus);
      if (!c) {
        els.protocolList.replaceChildren();
        return;
      }
      state.config = c;
      state.mode = c.mode ?? 'official';
      for (const radio of container.querySelectorAll('input[name=mode]')) {
        /** @type {HTMLInputElement} */ (radio).checked = /** @type {HTMLInputElement} */ (radio).value === state.mode;
      }
      container.classList.add('is-embedded');
      els.competitionTitle.textContent = c.title || 'Competition';
    }
    renderProtocolList();
    if (state.config) {
      const p = state.protocols.find((x) => x.id === state.config.protocol);
      if (p) selectProtocol(p);
      state.gtPreloaded = await preloadGroundTruth(state.config, opts, { gtZone: zones.gt, note: els.gtNote, setStatus });
      state.configManifest = await preloadManifest(state.config, opts, { gtZone: zones.gt, note: els.gtNote, setStatus });
      state.manifest = state.configManifest;
      updateRunState();
    } else if (page) {
      route();
    } else {
      selectProtocol(state.protocols.find((x) => x.built) ?? state.protocols[0]);
    }
  }

  function renderProtocolList() {
    els.protocolList.replaceChildren(...state.protocols.map((p) =>
      h('li', {},
        h('a', { href: `#/p/${encodeURIComponent(p.id)}`, class: ['protocol-link', !p.built && 'is-unbuilt'], dataset: { protocol: p.id } },
          h('span', { class: 'protocol-link-name' }, p.name ?? p.id),
          h('span', { class: 'protocol-link-meta' },
            h('code', {}, p.id),
            p.built ? null : h('span', { class: 'badge badge-muted' }, 'not built yet'))))));
  }

  function route() {
    if (!state.protocols.length) return;
    const m = /^#\/p\/([^/?#]+)/.exec(location.hash);
    const id = m ? decodeURIComponent(m[1]) : null;
    let p = state.protocols.find((x) => x.id === id);
    if (!p) {
      if (id) setStatus(`Unknown protocol “${id}”.`);
      p = state.protocols.find((x) => x.built) ?? state.protocols[0];
      history.replaceState(null, '', `#/p/${encodeURIComponent(p.id)}`);
    }
    selectProtocol(p);
  }

  /** @param {import('./api').ProtocolInfo} p */
  function selectProtocol(p) {
    const changed = state.current?.id !== p.id;
    state.current = p;
    if (p.built) engine.warm(p.id); // the worker exercises the scoring code while the user picks files
    for (const a of els.protocolList.querySelectorAll('a.protocol-link')) {
      if (a.dataset.protocol === p.id) a.setAttribute('aria-current', 'page');
      else a.removeAttribute('aria-current');
    }
    els.info.hidden = false;
    els.name.textContent = p.name ?? p.id;
    els.badge.hidden = !!p.built;
    els.summary.textContent = p.summary ?? '';
    showAssetStatus(els.summary, p); // whether the protocol's assets (a dictionary) are built yet (scripts/start)
    zones.gt.setExpect(p.gt_files);
    zones.pred.setExpect(p.pred_files);
    const examples = Array.isArray(p.examples) ? p.examples : [];
    els.exampleButtons.replaceChildren(...examples.map((ex) =>
      h('button', { type: 'button', class: 'btn btn-small example-btn', dataset: { example: ex.id ?? '' }, disabled: !p.built || state.running, onclick: () => runExample(ex) }, ex.label ?? ex.id)));
    els.examples.hidden = examples.length === 0;
    if (changed) {
      state.set = state.config?.protocol === p.id ? Object.fromEntries(Object.entries(state.config.options ?? {}).map(([k, v]) => [k, String(v)])) : {};
      form.build();
      if (state.run) runs.clear();
      if (page) document.title = `${p.name ?? p.id} · dropscore`;
    }
    updateRunState();
  }

  // ---------------------------------------------------------------- run state

  function inputsChanged() {
    findManifest();
    if (state.run && !state.running) {
      state.stale = true;
      const note = els.results.querySelector('.stale-note');
      if (note) note.hidden = false;
    }
    updateRunState();
  }

  function updateRunState() {
    const p = state.current;
    const nFiles = zones.gt.files.length + zones.pred.files.length;
    let hint = '';
    let ok = false;
    if (!p) hint = state.protocols.length ? 'Choose a competition.' : '';
    else if (!p.built) hint = `${p.name ?? p.id} is not built yet: it is listed, but cannot score yet.`;
    else if (!nFiles) hint = 'Add ground-truth and prediction files, or try an example.';
    else if (!zones.gt.files.length) { hint = 'No ground truth yet (scoring will report it as missing).'; ok = true; }
    else if (!zones.pred.files.length && state.config) hint = 'Add your predictions to score them.'; // embedded: nothing to score yet
    else if (!zones.pred.files.length) { hint = 'No predictions yet (scoring will report them as missing).'; ok = true; }
    else { hint = `Ready: ${plural(nFiles, 'file')}, ${state.mode} mode first, then the other mode for comparison.`; ok = true; }
    if (state.manifest && p?.built) { // pre-flight: the manifest takes the place of the ground truth
      ok = zones.pred.files.length > 0;
      hint = ok ? `Ready: ${plural(zones.pred.files.length, 'file')} to check against the manifest ${state.manifest.path}, no ground truth needed.`
        : 'Add your predictions to check them against the manifest.';
    }
    els.scoreButton.textContent = state.manifest ? 'Check submission' : 'Score';
    els.scoreButton.disabled = !ok || state.running;
    els.runHint.textContent = state.running ? 'Scoring…' : hint;
    for (const b of els.exampleButtons.querySelectorAll('button')) b.disabled = !p?.built || state.running;
  }

  function endUi() {
    const hadFocus = els.progressBox.contains(activeEl());
    state.running = false;
    els.progressBox.hidden = true;
    updateRunState();
    if (hadFocus) els.scoreButton.focus();
  }

  els.cancel.addEventListener('click', () => { checking?.abort(); runs.cancel(); });
  els.scoreButton.addEventListener('click', () => (state.manifest ? startCheck() : runs.start()));

  // ---------------------------------------------------------------- pre-flight check (www/check.js)

  let manifestScan = 0;
  /** A manifest dropped on the ground-truth zone takes the place of the ground truth (else the config's). */
  async function findManifest() {
    const scan = ++manifestScan;
    let found = state.configManifest;
    for (const f of zones.gt.files) {
      const text = await manifestText(f.file, f.path).catch(() => null);
      if (text != null) { found = { path: f.path, text }; break; }
    }
    if (scan !== manifestScan || found === state.manifest) return;
    state.manifest = found;
    updateRunState();
  }

  /** @type {AbortController | null} */
  let checking = null;
  async function startCheck() {
    const p = state.current;
    const m = state.manifest;
    if (!p?.built || !m || state.running) return;
    runs.clear();
    checking = new AbortController();
    state.running = true;
    setRunState('running');
    Object.assign(els.progress, { value: 0 });
    els.phase.textContent = 'Reading the predictions…';
    els.progressBox.hidden = false;
    setStatus('');
    updateRunState();
    const t0 = performance.now();
    try {
      const files = zones.pred.files.map((f) => ({ path: f.path, role: /** @type {const} */ ('pred'), data: f.file }));
      const result = await runCheck(engine, {
        protocol: p.id, manifest: m.text, files, set: { ...state.set }, signal: checking.signal,
        onProgress: (fraction, phase) => { els.progress.value = fraction; els.phase.textContent = phase; },
      });
      renderCheck(els.results, result, { manifest: m.path, ms: performance.now() - t0 });
      els.announce.textContent = result.summary;
      setRunState('done');
      els.results.querySelector('#results-title')?.focus();
    } catch (e) {
      const cancelled = checking.signal.aborted;
      setStatus(cancelled ? 'Check cancelled.' : `Check failed: ${e?.message ?? e}`);
      setRunState(cancelled ? 'cancelled' : 'failed');
    } finally {
      checking = null;
      endUi();
    }
  }

  // ---------------------------------------------------------------- examples

  /** @param {import('./api').Example} ex */
  async function runExample(ex) {
    if (state.running) return;
    const p = state.current;
    setStatus(`Loading example “${ex.label ?? ex.id}”…`);
    try {
      const load = (/** @type {string[]} */ paths) => fetchFiles(paths ?? [], WWW, { cache: 'no-cache' });
      const [gt, pred] = await Promise.all([load(ex.gt), load(ex.pred)]);
      if (state.current !== p) return;
      zones.gt.set(gt);
      zones.pred.set(pred);
      // Options the example needs (segmentation's class list), shown as changed in the options form.
      if (ex.set?.length) {
        for (const [name, value] of ex.set) state.set[name] = value;
        form.build();
      }
      updateRunState();
    } catch (e) {
      setStatus(`Could not load the example: ${e?.message ?? e}`);
      return;
    }
    await runs.start();
  }

  // ---------------------------------------------------------------- page-level drag and drop

  // A file dropped outside the zones must not make the browser navigate away from the page (on the page: the
  // whole window; embedded: only the element, the host page's own drops are left alone).
  const dropGuard = page ? window : container;
  dropGuard.addEventListener('dragover', (/** @type {DragEvent} */ e) => {
    if (!Array.from(e.dataTransfer?.types ?? []).includes('Files')) return;
    e.preventDefault();
    if (!(/** @type {Element} */ (e.target)).closest?.('.zone')) e.dataTransfer.dropEffect = 'none';
  });
  dropGuard.addEventListener('drop', (/** @type {DragEvent} */ e) => {
    if (!Array.from(e.dataTransfer?.types ?? []).includes('Files')) return;
    e.preventDefault();
    setStatus(state.gtPreloaded && zones.gt.root.hidden ? 'Drop the files on “Predictions”.' : 'Drop the files on “Ground truth” or on “Predictions”.');
  });

  if (page) window.addEventListener('hashchange', route);
  setRunState('idle');

  loadProtocols();
  return { engine, state, zones };
}
