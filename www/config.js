// @ts-check
// A competition config (embedded mode, <dropscore-evaluator config="...">): validated by the engine (src/config.rs),
// its mode and options applied, and its ground truth fetched (same origin only) into the GT zone, which may be hidden.

import { h, plural } from './util.js';

/** @typedef {import('./api').CompetitionConfig} CompetitionConfig */

/**
 * Fetches same-origin files as `{ path, file }` (the zones' shape), named by their last path component.
 * @param {string[]} urls relative to `base`
 * @param {URL | string} base
 * @param {RequestInit} [init]
 * @returns {Promise<Array<{path: string, file: File}>>}
 */
export function fetchFiles(urls, base, init = {}) {
  return Promise.all(urls.map(async (rel) => {
    const url = new URL(rel, base);
    if (url.origin !== location.origin) throw new Error(`${rel}: not on this site (${url.origin})`);
    const resp = await fetch(url, { credentials: 'same-origin', ...init });
    if (!resp.ok) throw new Error(`${rel}: HTTP ${resp.status}`);
    const blob = await resp.blob();
    const name = decodeURIComponent(url.pathname.split('/').pop() || 'ground-truth');
    return { path: name, file: new File([blob], name, { type: blob.type }) };
  }));
}

/**
 * Validates the config's JSON form in the engine; shows every located error in `status` and returns null, or
 * returns the config.
 * @param {import('./engine.js').Engine} engine
 * @param {{configUrl?: string | null, configText?: string | null, configError?: string | null}} opts
 * @param {HTMLElement} status
 * @returns {Promise<CompetitionConfig | null>}
 */
export async function loadConfig(engine, opts, status) {
  const name = opts.configUrl ? opts.configUrl.split('/').pop() : 'config';
  /** @type {import('./api').ConfigAnswer} */
  let res;
  const failed = (/** @type {string} */ message) => ({ errors: [{ line: 0, column: 0, path: '', message }] });
  if (opts.configError) {
    res = failed(opts.configError);
  } else {
    try {
      res = await engine.request({ type: 'config', text: opts.configText ?? '' });
    } catch (e) {
      res = failed(e?.message ?? String(e));
    }
  }
  if (res?.errors?.length) {
    const lines = res.errors.map((e) => `${name}${e.line ? `:${e.line}:${e.column}` : ''}: ${e.path ? `${e.path}: ` : ''}${e.message}`);
    status.replaceChildren(h('strong', {}, 'The competition config has errors:'),
      h('ul', { class: 'config-errors' }, lines.map((l) => h('li', {}, h('code', {}, l)))));
    status.hidden = false;
    return null;
  }
  return res.config ?? null;
}

/**
 * Fetches the config's ground truth into the GT zone, and hides the zone if the config asks. Returns whether
 * ground truth was preloaded.
 * @param {CompetitionConfig} config
 * @param {{configUrl?: string | null}} opts
 * @param {{gtZone: import('./files.js').Zone, note: HTMLElement, setStatus: (text: string) => void}} ui
 */
export async function preloadGroundTruth(config, opts, ui) {
  const urls = config.ground_truth ?? [];
  if (!urls.length) return false;
  ui.setStatus(`Loading the ground truth (${plural(urls.length, 'file')})…`);
  try {
    const files = await fetchFiles(urls, new URL(opts.configUrl ?? '.', location.href));
    ui.gtZone.set(files);
    if (config.hide_ground_truth_zone) {
      ui.gtZone.root.hidden = true;
      ui.note.textContent = `Ground truth: ${files.map((f) => f.path).join(', ')}, provided by the organizers. Drop your predictions.`;
      ui.note.hidden = false;
    }
    ui.setStatus('');
    return true;
  } catch (e) {
    ui.setStatus(`Could not load the ground truth: ${e?.message ?? e}`);
    return false;
  }
}
