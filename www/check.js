// @ts-check
// The pre-flight check in the page and the embed (docs/specs/preflight.md, "Page and embed"): a manifest
// (`dropscore manifest`), dropped on the ground-truth zone or named by the organizer's config (`manifest =
// "…"`, fetched from the same origin), takes the place of the ground truth. The Score button becomes "Check
// submission", which runs the protocol's `check` in the worker (src/wasm.rs Session::check) on the dropped
// predictions; the result is the verdict ("ready" / "not ready"), what was found (counts per category, task,
// manuscript) and the located problems, in the report's order (causes first).

import { h, plural } from './util.js';
import { fetchFiles } from './config.js';
import { locationOf } from './report.js';

export const MANIFEST_KIND = 'dropscore-manifest';
const MAX_MANIFEST = 256 << 20; // bytes: a manifest holds ids, never labels

/**
 * The manifest's text when `file` is a dropscore manifest (JSON with "kind": "dropscore-manifest"), else null.
 * @param {Blob} file
 * @param {string} name
 * @returns {Promise<string | null>}
 */
export async function manifestText(file, name) {
  if (!/\.json$/i.test(name) || file.size > MAX_MANIFEST) return null;
  const head = await file.slice(0, 4096).text();
  if (!head.includes(MANIFEST_KIND)) return null;
  const text = await file.text();
  try {
    const doc = JSON.parse(text);
    return doc?.kind === MANIFEST_KIND ? text : null;
  } catch {
    return null;
  }
}

/**
 * Fetches the config's manifest (same origin, no redirect) as `{ path, text }`, or throws.
 * @param {string} rel
 * @param {string | null | undefined} configUrl
 */
export async function fetchManifest(rel, configUrl) {
  const [f] = await fetchFiles([rel], new URL(configUrl ?? '.', location.href));
  const text = await manifestText(f.file, f.path.endsWith('.json') ? f.path : `${f.path}.json`);
  if (text == null) throw new Error(`${rel}: not a dropscore manifest (expected "kind": "${MANIFEST_KIND}")`);
  return { path: f.path, text };
}

/**
 * One check: the worker reads the predictions, runs the protocol's check against the manifest.
 * @param {import('./engine.js').Engine} engine
 * @param {{protocol: string, manifest: string, files: import('./api').PageFile[], set: Record<string, string>,
 *   onProgress?: (fraction: number, phase: string) => void, signal?: AbortSignal}} req
 * @returns {Promise<import('./api').CheckResult>}
 */
export function runCheck(engine, { protocol, manifest, files, set, onProgress, signal }) {
  return engine.request({ type: 'check', protocol, manifest, files, options: { mode: 'official', set } }, { onProgress, signal });
}

/** A diagnostic as the page lists it (same classes as www/report.js). @param {import('./api').Diagnostic} d */
function problem(d) {
  const sev = ['error', 'warning', 'info'].includes(d.severity) ? d.severity : 'info';
  const loc = locationOf(d);
  const extra = [
    d.expected != null ? ['Expected', h('code', {}, d.expected)] : null,
    d.found != null ? ['Found', h('code', {}, d.found)] : null,
    d.hint ? ['Hint', d.hint] : null,
  ].filter((x) => x !== null);
  return h('li', { class: ['diag', `diag-${sev}`], dataset: { code: d.code ?? '', severity: sev } },
    h('div', { class: 'diag-head' },
      h('span', { class: `badge badge-${sev}` }, sev),
      h('code', { class: 'diag-code' }, d.code ?? ''),
      loc ? h('span', { class: 'diag-loc' }, loc) : null),
    h('p', { class: 'diag-message' }, d.message ?? ''),
    extra.length ? h('dl', { class: 'diag-fields' }, extra.map(([k, v]) =>
      h('div', { class: 'diag-field' }, h('dt', {}, k), h('dd', {}, v)))) : null);
}

/** What was found: one row per category, task, query set or manuscript (the report's items and their counts). */
function found(/** @type {import('./api').Report} */ report) {
  const items = report.items ?? [];
  if (!items.length) return null;
  const keys = [...new Set(items.flatMap((it) => Object.keys(it.detail ?? {})))];
  // Words, never JSON literals: yes/no for flags, "—" for a value that is absent, lists joined.
  const cell = (/** @type {unknown} */ v) => (v === true ? 'yes' : v === false ? 'no' : v == null ? '—'
    : Array.isArray(v) ? v.map(cell).join(', ') : typeof v === 'object' ? Object.entries(v).map(([k, x]) => `${k}: ${cell(x)}`).join(', ') : String(v));
  const row = (/** @type {import('./api').Report['items'][number]} */ it) => h('tr', {}, h('td', {}, it.id),
    keys.map((k) => h('td', { class: typeof it.detail?.[k] === 'number' ? 'num' : '' }, cell(it.detail?.[k]))));
  const table = h('table', { class: 'data' },
    h('thead', {}, h('tr', {}, h('th', {}, 'id'), keys.map((k) => h('th', {}, k.replace(/_/g, ' '))))),
    h('tbody', {}, items.slice(0, 1000).map(row)));
  return h('section', { class: 'check-found' },
    h('h3', {}, 'What was found'),
    h('div', { class: 'table-scroll' }, table),
    items.length > 1000 ? h('p', { class: 'muted small' }, `The first 1,000 of ${plural(items.length, 'row')}.`) : null);
}

/**
 * Shows a check's result in `results`.
 * @param {HTMLElement} results
 * @param {import('./api').CheckResult} result
 * @param {{manifest: string, ms?: number}} about
 */
export function renderCheck(results, result, about) {
  const { report } = result;
  const diags = report.diagnostics ?? [];
  const errors = diags.filter((d) => d.severity === 'error').length;
  results.replaceChildren(
    h('h2', { id: 'results-title', tabindex: -1 }, 'Pre-flight check'),
    h('div', { class: ['check-verdict', result.ready ? 'is-ready' : 'is-not-ready'], dataset: { ready: String(result.ready) } },
      h('p', { class: 'check-verdict-word' }, h('strong', {}, result.ready ? 'Ready' : 'Not ready')),
      h('p', { class: 'check-summary' }, result.summary ?? '')),
    h('p', { class: 'muted small' }, `Checked against the manifest ${about.manifest}, without the ground truth: only the problems it can see (formats, completeness).`
      + (about.ms != null ? ` ${Math.round(about.ms)} ms.` : '')),
    diags.length
      ? h('section', { class: 'diagnostics', id: 'diagnostics' },
        h('h3', {}, errors ? `Problems to fix (${plural(errors, 'error')})` : 'Notes'),
        h('ol', { class: 'diag-list' }, diags.slice(0, 1000).map(problem)))
      : null,
    found(report));
  results.hidden = false;
}
