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
 * The mounted app: its container and options, its state, its elements and its parts; every function below takes it.
 * @typedef {{container: HTMLElement, opts: any, page: boolean, stateEl: HTMLElement, activeEl: () => Element | null,
 *   state: any, els: any, engine: Engine, zones: {gt: Zone, pred: Zone}, form: any, runs: RunController,
 *   checking: AbortController | null, manifestScan: number}} App
 */

function newState() {
  return {
    protocols: /** @type {import('./api').ProtocolInfo[]} */ ([]),
    current: /** @type {import('./api').ProtocolInfo | null} */ (null),
    mode: /** @type {import('./api').Mode} */ ('official'),
    set: /** @type {Record<string, string>} options the user changed */ ({}),
    running: false,
    run: /** @type {import('./run.js').Run | null} */ (null),
    stale: false,
    config: /** @type {import('./api').CompetitionConfig | null} validated competition config (embedded mode) */ (null),
    gtPreloaded: false,
    /** the manifest checked against (dropped, or the config's), and the config's manifest (`manifest = "…"`) */
    manifest: /** @type {{path: string, text: string} | null} */ (null),
    configManifest: /** @type {{path: string, text: string} | null} */ (null),
  };
}

/** The app's elements, by name: their selectors inside the container (www/markup.js). */
const ELEMENTS = {
  engineStatus: '#engine-status', protocolList: '#protocol-list', info: '#protocol-info', name: '#protocol-name',
  badge: '#protocol-badge', summary: '#protocol-summary', examples: '#examples', exampleButtons: '#example-buttons',
  optionsBody: '#options-body', optionsState: '#options-state', scoreButton: '#score-button', runHint: '#run-hint',
  progressBox: '#progress-box', progress: '#progress', phase: '#progress-phase', cancel: '#cancel-button',
  statusText: '#status-text', results: '#results', announce: '#result-announce', gtNote: '#gt-preloaded',
  competitionTitle: '#step-protocol-title .step-label', zoneGt: '#zone-gt', zonePred: '#zone-pred',
};

/** @param {HTMLElement} container @returns {any} */
const elementsOf = (container) => Object.fromEntries(Object.entries(ELEMENTS).map(([k, sel]) => [k, container.querySelector(sel)]));

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
  const rootNode = /** @type {Document | ShadowRoot} */ (container.getRootNode());
  const els = elementsOf(container);
  /** @type {App} */
  const app = /** @type {any} */ ({
    container, opts, page: opts.page ?? false, stateEl: opts.stateEl ?? document.body,
    activeEl: () => rootNode.activeElement ?? document.activeElement,
    state: newState(), els, checking: null, manifestScan: 0,
  });
  app.engine = new Engine({ onFatal: (message) => showEngineError(app, message) });
  const setStatus = (/** @type {string} */ text) => setStatusText(app, text);
  const onChange = () => inputsChanged(app);
  app.zones = {
    gt: new Zone(els.zoneGt, 'gt', { onChange, onError: setStatus }),
    pred: new Zone(els.zonePred, 'pred', { onChange, onError: setStatus }),
  };
  app.form = optionsForm({
    state: app.state, body: els.optionsBody, summary: els.optionsState, onChange,
    modeRadios: /** @type {NodeListOf<HTMLInputElement>} */ (container.querySelectorAll('input[name=mode]')),
  });
  app.runs = runController(app);
  els.cancel.addEventListener('click', () => { app.checking?.abort(); app.runs.cancel(); });
  els.scoreButton.addEventListener('click', () => (app.state.manifest ? startCheck(app) : app.runs.start()));
  guardDrops(app);
  if (app.page) window.addEventListener('hashchange', () => route(app));
  setRunState(app, 'idle');
  loadProtocols(app);
  return { engine: app.engine, state: app.state, zones: app.zones };
}

/** @param {App} app @param {string} text */
const setStatusText = (app, text) => { app.els.statusText.textContent = text ?? ''; };

/** Exposed for tests and styling: idle | running | done | cancelled | failed. @param {App} app @param {import('./api').RunState} s */
function setRunState(app, s) {
  app.stateEl.dataset.run = s;
  if (s === 'running') app.stateEl.dataset.runs = String(Number(app.stateEl.dataset.runs ?? 0) + 1);
}

/** The controller of Score clicks (www/run.js), wired to the app's elements. @param {App} app */
function runController(app) {
  const { state, els, zones } = app;
  const runs = new RunController({
    state, engine: app.engine, zones, stateEl: app.stateEl, activeEl: app.activeEl,
    setStatus: (text) => setStatusText(app, text), setRunState: (s) => setRunState(app, s),
    results: els.results, announce: els.announce, progress: els.progress, phase: els.phase,
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
      setRunState(app, 'running');
      els.progress.value = 0;
      els.phase.textContent = 'Starting…';
      els.progressBox.hidden = false;
      setStatusText(app, '');
      updateRunState(app);
    },
    endUi: () => endUi(app),
  });
  return runs;
}

// ---------------------------------------------------------------- engine + protocols

/** @param {App} app @param {string} message */
function showEngineError(app, message) {
  const { els } = app;
  els.engineStatus.textContent = message;
  els.engineStatus.hidden = false;
  if (!app.state.protocols.length) {
    els.protocolList.replaceChildren(h('li', { class: 'protocol-loading' }, 'The scoring engine is not available.'));
  }
  endUi(app);
}

/** @param {App} app */
async function loadProtocols(app) {
  const { state, opts, els } = app;
  try {
    const list = await app.engine.protocols();
    state.protocols = Array.isArray(list) ? list : [];
  } catch (e) {
    showEngineError(app, e?.message ?? String(e));
    return;
  }
  if (opts.configText != null || opts.configError) {
    const c = await loadConfig(app.engine, opts, els.engineStatus);
    if (!c) {
      els.protocolList.replaceChildren();
      return;
    }
    applyConfig(app, c);
  }
  renderProtocolList(app);
  if (state.config) {
    const p = state.protocols.find((x) => x.id === state.config.protocol);
    if (p) selectProtocol(app, p);
    const preload = { gtZone: app.zones.gt, note: els.gtNote, setStatus: (/** @type {string} */ text) => setStatusText(app, text) };
    state.gtPreloaded = await preloadGroundTruth(state.config, opts, preload);
    state.configManifest = await preloadManifest(state.config, opts, preload);
    state.manifest = state.configManifest;
    updateRunState(app);
  } else if (app.page) {
    route(app);
  } else {
    selectProtocol(app, state.protocols.find((x) => x.built) ?? state.protocols[0]);
  }
}

/** A competition config (embedded mode): its mode, its title, the embedded look. @param {App} app @param {any} c */
function applyConfig(app, c) {
  app.state.config = c;
  app.state.mode = c.mode ?? 'official';
  for (const radio of app.container.querySelectorAll('input[name=mode]')) {
    /** @type {HTMLInputElement} */ (radio).checked = /** @type {HTMLInputElement} */ (radio).value === app.state.mode;
  }
  app.container.classList.add('is-embedded');
  app.els.competitionTitle.textContent = c.title || 'Competition';
}

/** @param {App} app */
function renderProtocolList(app) {
  app.els.protocolList.replaceChildren(...app.state.protocols.map((p) =>
    h('li', {},
      h('a', { href: `#/p/${encodeURIComponent(p.id)}`, class: ['protocol-link', !p.built && 'is-unbuilt'], dataset: { protocol: p.id } },
        h('span', { class: 'protocol-link-name' }, p.name ?? p.id),
        h('span', { class: 'protocol-link-meta' },
          h('code', {}, p.id),
          p.built ? null : h('span', { class: 'badge badge-muted' }, 'not built yet'))))));
}

/** @param {App} app */
function route(app) {
  const { state } = app;
  if (!state.protocols.length) return;
  const m = /^#\/p\/([^/?#]+)/.exec(location.hash);
  const id = m ? decodeURIComponent(m[1]) : null;
  let p = state.protocols.find((x) => x.id === id);
  if (!p) {
    if (id) setStatusText(app, `Unknown protocol “${id}”.`);
    p = state.protocols.find((x) => x.built) ?? state.protocols[0];
    history.replaceState(null, '', `#/p/${encodeURIComponent(p.id)}`);
  }
  selectProtocol(app, p);
}

/** @param {App} app @param {import('./api').ProtocolInfo} p */
function selectProtocol(app, p) {
  const { state, els, zones } = app;
  const changed = state.current?.id !== p.id;
  state.current = p;
  if (p.built) app.engine.warm(p.id); // the worker exercises the scoring code while the user picks files
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
    h('button', { type: 'button', class: 'btn btn-small example-btn', dataset: { example: ex.id ?? '' }, disabled: !p.built || state.running, onclick: () => runExample(app, ex) }, ex.label ?? ex.id)));
  els.examples.hidden = examples.length === 0;
  if (changed) {
    state.set = state.config?.protocol === p.id ? Object.fromEntries(Object.entries(state.config.options ?? {}).map(([k, v]) => [k, String(v)])) : {};
    app.form.build();
    if (state.run) app.runs.clear();
    if (app.page) document.title = `${p.name ?? p.id} · dropscore`;
  }
  updateRunState(app);
}

// ---------------------------------------------------------------- run state

/** @param {App} app */
function inputsChanged(app) {
  findManifest(app);
  if (app.state.run && !app.state.running) {
    app.state.stale = true;
    const note = app.els.results.querySelector('.stale-note');
    if (note) note.hidden = false;
  }
  updateRunState(app);
}

/** What the Score button may do and the line under it. @param {App} app @returns {{ok: boolean, hint: string}} */
function readiness(app) {
  const { state, zones } = app;
  const p = state.current;
  const nFiles = zones.gt.files.length + zones.pred.files.length;
  if (state.manifest && p?.built) { // pre-flight: the manifest takes the place of the ground truth
    const ok = zones.pred.files.length > 0;
    return { ok, hint: ok ? `Ready: ${plural(zones.pred.files.length, 'file')} to check against the manifest ${state.manifest.path}, no ground truth needed.`
      : 'Add your predictions to check them against the manifest.' };
  }
  if (!p) return { ok: false, hint: state.protocols.length ? 'Choose a competition.' : '' };
  if (!p.built) return { ok: false, hint: `${p.name ?? p.id} is not built yet: it is listed, but cannot score yet.` };
  if (!nFiles) return { ok: false, hint: 'Add ground-truth and prediction files, or try an example.' };
  if (!zones.gt.files.length) return { ok: true, hint: 'No ground truth yet (scoring will report it as missing).' };
  if (!zones.pred.files.length && state.config) return { ok: false, hint: 'Add your predictions to score them.' }; // embedded: nothing to score yet
  if (!zones.pred.files.length) return { ok: true, hint: 'No predictions yet (scoring will report them as missing).' };
  return { ok: true, hint: `Ready: ${plural(nFiles, 'file')}, ${state.mode} mode first, then the other mode for comparison.` };
}

/** @param {App} app */
function updateRunState(app) {
  const { state, els } = app;
  const { ok, hint } = readiness(app);
  els.scoreButton.textContent = state.manifest ? 'Check submission' : 'Score';
  els.scoreButton.disabled = !ok || state.running;
  els.runHint.textContent = state.running ? 'Scoring…' : hint;
  for (const b of els.exampleButtons.querySelectorAll('button')) b.disabled = !state.current?.built || state.running;
}

/** @param {App} app */
function endUi(app) {
  const { els } = app;
  const hadFocus = els.progressBox.contains(app.activeEl());
  app.state.running = false;
  els.progressBox.hidden = true;
  updateRunState(app);
  if (hadFocus) els.scoreButton.focus();
}

// ---------------------------------------------------------------- pre-flight check (www/check.js)

/** A manifest dropped on the ground-truth zone takes the place of the ground truth (else the config's). @param {App} app */
async function findManifest(app) {
  const { state } = app;
  const scan = ++app.manifestScan;
  let found = state.configManifest;
  for (const f of app.zones.gt.files) {
    const text = await manifestText(f.file, f.path).catch(() => null);
    if (text != null) { found = { path: f.path, text }; break; }
  }
  if (scan !== app.manifestScan || found === state.manifest) return;
  state.manifest = found;
  updateRunState(app);
}

/** @param {App} app */
async function startCheck(app) {
  const { state, els } = app;
  const p = state.current;
  const m = state.manifest;
  if (!p?.built || !m || state.running) return;
  app.runs.clear();
  const checking = new AbortController();
  app.checking = checking;
  state.running = true;
  setRunState(app, 'running');
  Object.assign(els.progress, { value: 0 });
  els.phase.textContent = 'Reading the predictions…';
  els.progressBox.hidden = false;
  setStatusText(app, '');
  updateRunState(app);
  const t0 = performance.now();
  try {
    const files = app.zones.pred.files.map((f) => ({ path: f.path, role: /** @type {const} */ ('pred'), data: f.file }));
    const result = await runCheck(app.engine, {
      protocol: p.id, manifest: m.text, files, set: { ...state.set }, signal: checking.signal,
      onProgress: (fraction, phase) => { els.progress.value = fraction; els.phase.textContent = phase; },
    });
    renderCheck(els.results, result, { manifest: m.path, ms: performance.now() - t0 });
    els.announce.textContent = result.summary;
    setRunState(app, 'done');
    els.results.querySelector('#results-title')?.focus();
  } catch (e) {
    const cancelled = checking.signal.aborted;
    setStatusText(app, cancelled ? 'Check cancelled.' : `Check failed: ${e?.message ?? e}`);
    setRunState(app, cancelled ? 'cancelled' : 'failed');
  } finally {
    app.checking = null;
    endUi(app);
  }
}

// ---------------------------------------------------------------- examples

/** @param {App} app @param {import('./api').Example} ex */
async function runExample(app, ex) {
  const { state, zones } = app;
  if (state.running) return;
  const p = state.current;
  setStatusText(app, `Loading example “${ex.label ?? ex.id}”…`);
  try {
    const load = (/** @type {string[]} */ paths) => fetchFiles(paths ?? [], WWW, { cache: 'no-cache' });
    const [gt, pred] = await Promise.all([load(ex.gt), load(ex.pred)]);
    if (state.current !== p) return;
    zones.gt.set(gt, { example: true });
    zones.pred.set(pred, { example: true });
    // Options the example needs (segmentation's class list), shown as changed in the options form.
    if (ex.set?.length) {
      for (const [name, value] of ex.set) state.set[name] = value;
      app.form.build();
    }
    updateRunState(app);
  } catch (e) {
    setStatusText(app, `Could not load the example: ${e?.message ?? e}`);
    return;
  }
  await app.runs.start();
}

// ---------------------------------------------------------------- page-level drag and drop

/** A file dropped outside the zones must not make the browser leave the page (embedded: only the element's drops). @param {App} app */
function guardDrops(app) {
  const dropGuard = app.page ? window : app.container;
  dropGuard.addEventListener('dragover', (/** @type {DragEvent} */ e) => {
    if (!Array.from(e.dataTransfer?.types ?? []).includes('Files')) return;
    e.preventDefault();
    if (!(/** @type {Element} */ (e.target)).closest?.('.zone')) e.dataTransfer.dropEffect = 'none';
  });
  dropGuard.addEventListener('drop', (/** @type {DragEvent} */ e) => {
    if (!Array.from(e.dataTransfer?.types ?? []).includes('Files')) return;
    e.preventDefault();
    const { state, zones } = app;
    setStatusText(app, state.gtPreloaded && zones.gt.root.hidden ? 'Drop the files on “Predictions”.' : 'Drop the files on “Ground truth” or on “Predictions”.');
  });
}
