// @ts-check
// A competition config (embedded mode, <dropscore-evaluator config="...">): validated by the engine (src/config.rs),
// its mode and options applied, and its ground truth fetched (same origin only) into the GT zone, which may be hidden.

import { h, plural } from './util.js';

/** @typedef {import('./api').CompetitionConfig} CompetitionConfig */

/**
 * Whether a response's final URL is the one requested (same origin, same path; a fetch without redirects
 * leaves it unchanged, an empty URL means a synthesised response).
 * @param {string} got
 * @param {URL} asked
 */
export function sameResource(got, asked) {
  if (!got) return true;
  const u = new URL(got);
  return u.origin === location.origin && u.origin === asked.origin && u.pathname === asked.pathname;
}

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
    // No redirect is followed (a same-origin URL must not lead elsewhere), and the answer must be for that URL.
    const resp = await fetch(url, { credentials: 'same-origin', ...init, redirect: 'error' });
    if (!resp.ok) throw new Error(`${rel}: HTTP ${resp.status}`);
    if (!sameResource(resp.url, url)) throw new Error(`${rel}: answered from ${resp.url}, not from ${url.href}`);
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

/**
 * Fetches the config's pre-flight manifest (`manifest = "…"`, same origin) and hides the ground-truth zone: the
 * page then checks submissions against it (www/check.js). Returns `{ path, text }`, or null.
 * @param {CompetitionConfig} config
 * @param {{configUrl?: string | null}} opts
 * @param {{gtZone: import('./files.js').Zone, note: HTMLElement, setStatus: (text: string) => void}} ui
 */
export async function preloadManifest(config, opts, ui) {
  if (!config.manifest) return null;
  ui.setStatus('Loading the manifest…');
  try {
    const { fetchManifest } = await import('./check.js');
    const m = await fetchManifest(config.manifest, opts.configUrl);
    ui.gtZone.root.hidden = true;
    ui.note.textContent = `This competition's test set has no public ground truth: drop your predictions to check them against ${m.path}, the organizers' manifest (formats and completeness, before you submit).`;
    ui.note.hidden = false;
    ui.setStatus('');
    return m;
  } catch (e) {
    ui.setStatus(`Could not load the manifest: ${e?.message ?? e}`);
    return null;
  }
}
