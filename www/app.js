// dropscore app: protocol picker, drop zones, options, scoring through the worker, results. Mounted by
// www/page.js on the whole page (index.html) and by www/embed.js inside a <dropscore-evaluator>'s shadow root:
// every query stays inside `container`, and only the page mode touches location, history, title and window.

import { h, formatValue, plural } from './util.js';
import { Engine, CancelledError } from './engine.js';
import { Zone } from './files.js';
import { MODES, renderHeadline, renderDetails, headlineSpec, countSeverities } from './report.js';
import { renderLeaderboard } from './leaderboard.js';

const WWW = new URL('./', import.meta.url); // examples/... are relative to www/

/**
 * Mounts the app on `container` (holding www/markup.js's MARKUP).
 * @param {Element} container
 * @param {{page?: boolean, stateEl?: HTMLElement, config?: object|null, configUrl?: string|null,
 *          configText?: string|null, configError?: string|null}} opts
 *   page: the whole-page mode (hash routing, document title, window drop guard); stateEl: where
 *   data-run/data-runs are exposed (document.body on the page, the custom element when embedded);
 *   configText/configUrl: a competition config in its JSON form (src/config.rs), validated by the engine.
 */
export function mountApp(container, opts = {}) {
const page = opts.page ?? false;
const stateEl = opts.stateEl ?? document.body;
const $ = (sel) => container.querySelector(sel);
const rootNode = container.getRootNode();
const activeEl = () => rootNode.activeElement ?? document.activeElement;

const state = {
  protocols: [],
  current: null, // ProtocolInfo
  mode: 'official',
  set: {}, // options the user changed: name -> string
  running: false,
  run: null, // see startRun()
  stale: false,
  config: null, // validated competition config (embedded mode)
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
  optionsDetails: $('#options'),
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
  competitionTitle: $('#step-protocol-title .step-label'),
  gtNote: $('#gt-preloaded'),
};

const engine = new Engine({ onFatal: showEngineError });

const zones = {
  gt: new Zone($('#zone-gt'), 'gt', { onChange: inputsChanged, onError: setStatus }),
  pred: new Zone($('#zone-pred'), 'pred', { onChange: inputsChanged, onError: setStatus }),
};

// ---------------------------------------------------------------- engine + protocols

function showEngineError(message) {
  els.engineStatus.textContent = message;
  els.engineStatus.hidden = false;
  if (!state.protocols.length) {
    els.protocolList.replaceChildren(h('li', { class: 'protocol-loading' }, 'The scoring engine is not available.'));
  }
  endRunUi();
  updateRunState();
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
    if (!(await loadConfig())) return;
  }
  renderProtocolList();
  if (state.config) {
    const p = state.protocols.find((x) => x.id === state.config.protocol);
    if (p) selectProtocol(p);
    await preloadGroundTruth();
  } else if (page) {
    route();
  } else {
    selectProtocol(state.protocols.find((x) => x.built) ?? state.protocols[0]);
  }
}

// ---------------------------------------------------------------- competition config (embedded mode)

/** Validates the config's JSON form in the engine (src/config.rs); shows every located error. */
async function loadConfig() {
  const name = opts.configUrl ? opts.configUrl.split('/').pop() : 'config';
  let res;
  if (opts.configError) {
    res = { errors: [{ line: 0, column: 0, path: '', message: opts.configError }] };
  } else {
    try {
      res = await engine.request({ type: 'config', text: opts.configText });
    } catch (e) {
      res = { errors: [{ line: 0, column: 0, path: '', message: e?.message ?? String(e) }] };
    }
  }
  if (res?.errors?.length) {
    const lines = res.errors.map((e) => `${name}${e.line ? `:${e.line}:${e.column}` : ''}: ${e.path ? `${e.path}: ` : ''}${e.message}`);
    els.engineStatus.replaceChildren(h('strong', {}, 'The competition config has errors:'),
      h('ul', { class: 'config-errors' }, lines.map((l) => h('li', {}, h('code', {}, l)))));
    els.engineStatus.hidden = false;
    els.protocolList.replaceChildren();
    return false;
  }
  const c = res.config;
  state.config = c;
  state.mode = c.mode ?? 'official';
  for (const radio of container.querySelectorAll('input[name=mode]')) radio.checked = radio.value === state.mode;
  container.classList.add('is-embedded');
  els.competitionTitle.textContent = c.title || 'Competition';
  return true;
}

/** Fetches the config's ground truth (same origin only) into the GT zone, and hides the zone if asked. */
async function preloadGroundTruth() {
  const c = state.config;
  const urls = c?.ground_truth ?? [];
  if (!urls.length) return;
  const base = new URL(opts.configUrl ?? '.', location.href);
  setStatus(`Loading the ground truth (${plural(urls.length, 'file')})…`);
  try {
    const files = await Promise.all(urls.map(async (rel) => {
      const url = new URL(rel, base);
      if (url.origin !== location.origin) throw new Error(`${rel}: not on this site (${url.origin})`);
      const resp = await fetch(url, { credentials: 'same-origin' });
      if (!resp.ok) throw new Error(`${rel}: HTTP ${resp.status}`);
      const blob = await resp.blob();
      const name = decodeURIComponent(url.pathname.split('/').pop() || 'ground-truth');
      return { path: name, file: new File([blob], name, { type: blob.type }) };
    }));
    zones.gt.set(files);
    state.gtPreloaded = true;
    if (c.hide_ground_truth_zone) {
      zones.gt.root.hidden = true;
      els.gtNote.textContent = `Ground truth: ${files.map((f) => f.path).join(', ')}, provided by the organizers. Drop your predictions.`;
      els.gtNote.hidden = false;
    }
    setStatus('');
  } catch (e) {
    setStatus(`Could not load the ground truth: ${e?.message ?? e}`);
  }
  updateRunState();
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
  let id = m ? decodeURIComponent(m[1]) : null;
  let p = state.protocols.find((x) => x.id === id);
  if (!p) {
    if (id) setStatus(`Unknown protocol “${id}”.`);
    p = state.protocols.find((x) => x.built) ?? state.protocols[0];
    history.replaceState(null, '', `#/p/${encodeURIComponent(p.id)}`);
  }
  selectProtocol(p);
}

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
  zones.gt.setExpect(p.gt_files);
  zones.pred.setExpect(p.pred_files);
  const examples = Array.isArray(p.examples) ? p.examples : [];
  els.exampleButtons.replaceChildren(...examples.map((ex) =>
    h('button', { type: 'button', class: 'btn btn-small example-btn', dataset: { example: ex.id ?? '' }, disabled: !p.built || state.running, onclick: () => runExample(ex) }, ex.label ?? ex.id)));
  els.examples.hidden = examples.length === 0;
  if (changed) {
    state.set = state.config?.protocol === p.id ? Object.fromEntries(Object.entries(state.config.options ?? {}).map(([k, v]) => [k, String(v)])) : {};
    buildOptions();
    if (state.run) {
      state.run = null;
      els.results.hidden = true;
      els.results.replaceChildren();
      zones.gt.setNotes(null);
      zones.pred.setNotes(null);
    }
    if (page) document.title = `${p.name ?? p.id} · dropscore`;
  }
  updateRunState();
}

// ---------------------------------------------------------------- options form

function defaultFor(opt, mode = state.mode) {
  const v = mode === 'corrected' ? opt.default_corrected : opt.default_official;
  return v === null || v === undefined ? '' : String(v);
}

function choicesOf(opt) {
  const t = String(opt.type ?? '');
  if (t === 'bool' || t === 'boolean') return ['true', 'false'];
  if (/^[^\s|]+(\|[^\s|]+)+$/.test(t)) return t.split('|');
  return null;
}

function buildOptions() {
  const opts = Array.isArray(state.current?.options) ? state.current.options : [];
  els.optionsBody.replaceChildren();
  if (!opts.length) {
    els.optionsBody.append(h('p', { class: 'muted' }, 'This protocol has no options.'));
    updateOptionsSummary();
    return;
  }
  const rows = opts.map((opt) => {
    const id = `opt-${opt.name}`;
    const helpId = `${id}-help`;
    const choices = choicesOf(opt);
    let control;
    if (choices) {
      control = h('select', { id, name: opt.name, 'aria-describedby': helpId });
    } else {
      control = h('input', {
        id, name: opt.name, type: 'text', 'aria-describedby': helpId, autocomplete: 'off', spellcheck: 'false',
        inputmode: /int|number|float/.test(opt.type ?? '') && !/list/.test(opt.type ?? '') ? 'decimal' : null,
      });
    }
    const reset = h('button', { type: 'button', class: 'link-btn opt-reset', hidden: true, 'aria-label': `Reset ${opt.name} to its default` }, 'reset');
    const changedBadge = h('span', { class: 'badge badge-accent opt-changed', hidden: true }, 'changed');
    const row = h('div', { class: 'opt-row', dataset: { option: opt.name } },
      h('label', { for: id, class: 'opt-name' }, h('code', {}, opt.name), changedBadge),
      h('div', { class: 'opt-control' }, control, reset),
      h('p', { class: 'opt-help', id: helpId },
        opt.help ?? '',
        h('span', { class: 'opt-defaults' }, `Default: official ${defaultFor(opt, 'official') || '—'} · corrected ${defaultFor(opt, 'corrected') || '—'}`,
          opt.type && !choices ? ` · ${opt.type}` : null)));
    const sync = () => {
      const def = defaultFor(opt);
      const value = opt.name in state.set ? state.set[opt.name] : def;
      if (choices) {
        const values = [...choices];
        if (!values.includes(def)) values.unshift(def);
        if (!values.includes(value)) values.unshift(value);
        control.replaceChildren(...values.map((v) => h('option', { value: v }, v === '' ? '(not used)' : v === def ? `${v} (default)` : v)));
      } else {
        control.placeholder = def && def !== 'n/a' ? `default: ${def}` : `not used in ${state.mode} mode`;
      }
      control.value = !choices && value === 'n/a' ? '' : value;
      const changed = opt.name in state.set;
      changedBadge.hidden = !changed;
      reset.hidden = !changed;
      row.classList.toggle('is-changed', changed);
    };
    const onEdit = () => {
      const v = choices ? control.value : control.value.trim();
      if (v === defaultFor(opt) || (!choices && v === '')) delete state.set[opt.name];
      else state.set[opt.name] = v;
      sync();
      updateOptionsSummary();
      inputsChanged();
    };
    control.addEventListener('change', onEdit);
    if (!choices) control.addEventListener('input', () => {
      const v = control.value.trim();
      row.classList.toggle('is-changed', v !== '' && v !== defaultFor(opt));
    });
    reset.addEventListener('click', () => {
      delete state.set[opt.name];
      sync();
      updateOptionsSummary();
      inputsChanged();
      control.focus();
    });
    row.sync = sync;
    sync();
    return row;
  });
  els.optionsBody.append(...rows);
  updateOptionsSummary();
}

function syncOptions() {
  for (const row of els.optionsBody.querySelectorAll('.opt-row')) row.sync?.();
}

function updateOptionsSummary() {
  const n = Object.keys(state.set).length;
  els.optionsState.textContent = n ? `${n} changed` : `defaults (${state.mode})`;
  els.optionsState.classList.toggle('is-changed', n > 0);
}

for (const radio of container.querySelectorAll('input[name=mode]')) {
  radio.addEventListener('change', () => {
    if (!radio.checked) return;
    state.mode = radio.value;
    syncOptions();
    updateOptionsSummary();
  });
}

// ---------------------------------------------------------------- run state

function setStatus(text) {
  els.statusText.textContent = text ?? '';
}

function inputsChanged() {
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
  else if (!zones.pred.files.length) { hint = 'No predictions yet (scoring will report them as missing).'; ok = true; }
  else { hint = `Ready: ${plural(nFiles, 'file')}, ${state.mode} mode first, then the other mode for comparison.`; ok = true; }
  els.scoreButton.disabled = !ok || state.running;
  els.runHint.textContent = state.running ? 'Scoring…' : hint;
  for (const b of els.exampleButtons.querySelectorAll('button')) b.disabled = !p?.built || state.running;
}

function filesForEngine() {
  const out = [];
  for (const role of ['gt', 'pred']) {
    for (const f of zones[role].files) out.push({ path: f.path, role, data: f.file });
  }
  return out;
}

/** Exposed for tests and styling: idle | running | done | cancelled | failed. */
function setRunState(s) {
  stateEl.dataset.run = s;
  if (s === 'running') stateEl.dataset.runs = String(Number(stateEl.dataset.runs ?? 0) + 1);
}

function beginRunUi() {
  state.running = true;
  setRunState('running');
  els.progress.value = 0;
  els.phase.textContent = 'Starting…';
  els.progressBox.hidden = false;
  setStatus('');
  updateRunState();
}

function endRunUi() {
  const hadFocus = els.progressBox.contains(activeEl());
  state.running = false;
  els.progressBox.hidden = true;
  updateRunState();
  if (hadFocus) els.scoreButton.focus();
}

els.cancel.addEventListener('click', () => {
  if (!state.running) return;
  engine.cancel(); // pending promises reject with CancelledError; the run loop ends the UI
});

els.scoreButton.addEventListener('click', () => startRun());

/** Runs the chosen mode, shows it; runs the other mode; shows both and their explanation. */
async function startRun() {
  const p = state.current;
  if (!p?.built || state.running) return;
  const files = filesForEngine();
  const first = state.mode;
  const second = first === 'official' ? 'corrected' : 'official';
  const set = { ...state.set };
  const run = {
    protocolId: p.id,
    protocolName: p.name,
    first,
    reports: {},
    pending: new Set([first, second]),
    failed: {},
    explain: null,
    explainError: null,
    view: first,
    table: null,
    files,
    set,
  };
  state.run = run;
  state.stale = false;
  const started = performance.now();
  beginRunUi();
  let lastPhase = '';
  const progressFor = (index, mode) => (fraction, phase) => {
    if (state.run !== run) return;
    const f = Math.max(0, Math.min(1, Number(fraction) || 0));
    els.progress.value = (index + f) / 2;
    const text = `${mode === 'official' ? 'Official' : 'Corrected'} mode: ${phase || 'working'}`;
    if (text !== lastPhase) {
      lastPhase = text;
      els.phase.textContent = text;
    }
  };
  try {
    for (const [index, mode] of [first, second].entries()) {
      let result;
      try {
        result = await engine.score(p.id, files, { mode, set }, progressFor(index, mode));
      } catch (e) {
        if (e instanceof CancelledError) throw e;
        run.failed[mode] = e?.message ?? String(e);
        run.pending.delete(mode);
        if (index === 0) throw e;
        setStatus(`The ${mode} run failed: ${run.failed[mode]}`);
        renderRun(run);
        continue;
      }
      if (state.run !== run) return;
      run.reports[mode] = result;
      run.pending.delete(mode);
      renderRun(run, { scroll: index === 0 });
      if (index === 0) announce(run, mode);
    }
    if (run.reports.official && run.reports.corrected) {
      els.phase.textContent = 'Comparing the two modes…';
      try {
        run.explain = await engine.explain(run.reports.official.reportJson, run.reports.corrected.reportJson);
      } catch (e) {
        if (e instanceof CancelledError) throw e;
        run.explainError = e?.message ?? String(e);
      }
      renderRun(run);
    }
    const secs = ((performance.now() - started) / 1000).toFixed(1);
    setStatus(`Done in ${secs} s. ${summaryText(run, run.first)}`);
    setRunState('done');
  } catch (e) {
    if (e instanceof CancelledError) {
      run.pending.clear();
      if (Object.keys(run.reports).length) {
        renderRun(run);
        setStatus(`Cancelled (${MODES.filter((m) => !run.reports[m]).join(' and ')} mode not computed).`);
      } else {
        state.run = null;
        els.results.hidden = true;
        els.results.replaceChildren();
        setStatus('Cancelled.');
      }
      setRunState('cancelled');
    } else {
      run.pending.clear();
      if (!Object.keys(run.reports).length) state.run = null;
      setStatus(`Scoring failed: ${e?.message ?? e}`);
      setRunState('failed');
    }
  } finally {
    if (state.run === run || !state.run) endRunUi();
    if (stateEl.dataset.run === 'running' && !state.running) setRunState('idle');
  }
}

function summaryText(run, mode) {
  const r = run.reports[mode]?.report;
  if (!r) return '';
  const spec = headlineSpec(r);
  const parts = spec.slice(0, 4).map((m) => `${m.label ?? m.id} ${formatValue(r.scores?.[m.id], m.decimals)}`);
  if (spec.length > 4) parts.push(`… (${spec.length - 4} more below)`);
  const c = countSeverities(r.diagnostics);
  const probs = [c.error && plural(c.error, 'error'), c.warning && plural(c.warning, 'warning')].filter(Boolean).join(', ');
  const label = mode === 'official' ? 'Official' : 'Corrected';
  if (!parts.length) return `${label}: no headline scores${probs ? ` (${probs})` : ''}.`;
  return `${label}: ${parts.join(', ')}${probs ? ` (${probs})` : ''}.`;
}

function announce(run, mode) {
  setStatus(summaryText(run, mode));
}

// ---------------------------------------------------------------- results

function renderRun(run, { scroll = false } = {}) {
  if (state.run !== run) return;
  const res = els.results;
  let head = res.querySelector('.r-head');
  let viewBox = res.querySelector('.r-view');
  let details = res.querySelector('.r-details');
  if (!head) {
    head = h('div', { class: 'r-head' });
    viewBox = h('div', { class: 'r-view' });
    details = h('div', { class: 'r-details' });
    res.replaceChildren(
      h('p', { class: 'notice notice-info stale-note', hidden: true }, 'The files or options changed since this result. Press “Score” again to update it.'),
      head, viewBox, details);
    res.hidden = false;
  }
  const focusInHead = head.contains(activeEl());
  head.replaceChildren(...(state.config?.leaderboard?.columns?.length ? [renderLeaderboard(state.config, run)] : []), renderHeadline(run));
  if (focusInHead) res.focus({ preventScroll: true });

  // which report the details show
  if (!run.reports[run.view]) run.view = MODES.find((m) => run.reports[m]) ?? run.view;
  renderViewSwitch(run, viewBox);
  if (details.dataset.view !== run.view || details.run !== run) renderDetailsFor(run, details);
  res.querySelector('.stale-note').hidden = !state.stale;
  if (scroll) {
    const top = res.getBoundingClientRect().top;
    if (top > window.innerHeight * 0.6) res.scrollIntoView({ behavior: 'smooth', block: 'start' });
  }
}

function renderViewSwitch(run, box) {
  const focused = box.contains(activeEl()) ? activeEl().value : null;
  const group = h('div', { class: 'segmented', role: 'radiogroup', 'aria-labelledby': 'view-label' },
    MODES.map((m) => {
      const available = !!run.reports[m];
      const input = h('input', { type: 'radio', name: 'view-mode', id: `view-${m}`, value: m, checked: run.view === m, disabled: !available });
      input.addEventListener('change', () => {
        if (!input.checked) return;
        run.view = m;
        renderDetailsFor(run, els.results.querySelector('.r-details'));
      });
      return h('label', { for: `view-${m}`, class: ['segment', !available && 'is-disabled'] }, input,
        h('span', {}, m === 'official' ? 'Official' : 'Corrected', available ? '' : run.pending.has(m) ? ' (computing…)' : ' (not computed)'));
    }));
  box.replaceChildren(h('div', { class: 'view-switch' }, h('span', { id: 'view-label', class: 'view-label' }, 'Details for'), group));
  if (focused) box.querySelector(`input[value="${focused}"]`)?.focus();
}

function renderDetailsFor(run, details) {
  const entry = run.reports[run.view];
  if (!entry) return;
  // keep sorting / filtering / open rows when switching between the two reports
  run.table ??= { sort: null, dir: 1, filter: '', expanded: new Set(), all: false };
  details.dataset.view = run.view;
  details.run = run;
  details.replaceChildren(...renderDetails(entry, { table: run.table, engine, files: run.files, set: run.set, mode: run.view }));
  updateFileNotes(entry.report);
}

/** Role notes and problem counts for each listed file, from the shown report's diagnostics. */
function updateFileNotes(report) {
  for (const role of ['gt', 'pred']) {
    const notes = new Map();
    for (const f of zones[role].files) {
      const mine = (report.diagnostics ?? []).filter((d) => d.file && (d.file === f.path || d.file.startsWith(f.path + '!') || d.file.startsWith(f.path + '/')));
      if (!mine.length) continue;
      const c = countSeverities(mine);
      const roleNotes = mine.filter((d) => /role|swap/i.test(d.code ?? '')).map((d) => d.message).filter(Boolean);
      notes.set(f.path, { errors: c.error, warnings: c.warning, notes: roleNotes });
    }
    zones[role].setNotes(notes);
  }
}

// ---------------------------------------------------------------- examples

async function runExample(ex) {
  if (state.running) return;
  const p = state.current;
  setStatus(`Loading example “${ex.label ?? ex.id}”…`);
  try {
    const load = async (paths) => Promise.all((paths ?? []).map(async (rel) => {
      const url = new URL(rel, WWW);
      if (url.origin !== location.origin) throw new Error(`example file outside this site: ${rel}`);
      const resp = await fetch(url, { credentials: 'same-origin', cache: 'no-cache' });
      if (!resp.ok) throw new Error(`${rel}: HTTP ${resp.status}`);
      const blob = await resp.blob();
      const name = rel.split('/').pop();
      return { path: name, file: new File([blob], name, { type: blob.type }) };
    }));
    const [gt, pred] = await Promise.all([load(ex.gt), load(ex.pred)]);
    if (state.current !== p) return;
    zones.gt.set(gt);
    zones.pred.set(pred);
    updateRunState();
  } catch (e) {
    setStatus(`Could not load the example: ${e?.message ?? e}`);
    return;
  }
  await startRun();
}

// ---------------------------------------------------------------- page-level drag and drop

// A file dropped outside the zones must not make the browser navigate away from the page (on the page: the
// whole window; embedded: only the element, the host page's own drops are left alone).
const dropGuard = page ? window : container;
dropGuard.addEventListener('dragover', (e) => {
  if (!Array.from(e.dataTransfer?.types ?? []).includes('Files')) return;
  e.preventDefault();
  if (!e.target.closest?.('.zone')) e.dataTransfer.dropEffect = 'none';
});
dropGuard.addEventListener('drop', (e) => {
  if (!Array.from(e.dataTransfer?.types ?? []).includes('Files')) return;
  e.preventDefault();
  setStatus(state.gtPreloaded && zones.gt.root.hidden ? 'Drop the files on “Predictions”.' : 'Drop the files on “Ground truth” or on “Predictions”.');
});

if (page) window.addEventListener('hashchange', route);
setRunState('idle');

loadProtocols();
return { engine, state, zones };
}
