// dropscore's engine as a JavaScript module, for Node (18 and later) and browsers: the same WebAssembly the page's
// worker runs, so a report is byte for byte the command line's `--format json`. Types: index.d.ts.
//
//   import { protocols, score } from 'dropscore';
//   const report = await score('kws', [{ path: 'gt.xml', role: 'gt', data: gtBytes }, { path: 'run.xml', role: 'pred', data: runBytes }]);
//
// The competition page's element is `dropscore/embed.js` (the static build in dist/, see README.md).

import initWasm, * as wasm from './pkg/dropscore.js';

let ready = null;

/**
 * Loads the WebAssembly once. In Node it reads `pkg/dropscore_bg.wasm` from the package; in a browser it fetches
 * it next to this module. `source` (optional): the wasm's bytes, a Response, a URL or a compiled module.
 * @param {BufferSource | Response | URL | string | WebAssembly.Module} [source]
 * @returns {Promise<void>}
 */
export function init(source) {
  ready ??= (async () => {
    let s = source;
    if (s === undefined && typeof process !== 'undefined' && process.versions?.node) {
      const { readFile } = await import('node:fs/promises');
      s = await readFile(new URL('./pkg/dropscore_bg.wasm', import.meta.url));
    }
    await initWasm(s === undefined ? undefined : { module_or_path: s });
  })();
  return ready;
}

/** Every protocol of the registry, with its options and examples (`dropscore list --format json`). */
export async function protocols() {
  await init();
  return JSON.parse(wasm.protocols());
}

function request(options = {}) {
  const set = Object.fromEntries(Object.entries(options.set ?? {}).map(([k, v]) => [k, String(v)]));
  return { mode: options.mode ?? 'official', set };
}

/**
 * Scores `files` with `protocol` and returns the report's JSON text (schema 1), the bytes of the command line's
 * `--format json`. Throws a string for a usage error (an unknown protocol or option); input problems are
 * diagnostics in the report.
 */
export async function scoreJson(protocol, files, options = {}) {
  await init();
  const onProgress = options.onProgress ?? (() => {});
  return wasm.score(protocol, files, request(options), onProgress);
}

/** As {@link scoreJson}, parsed. */
export async function score(protocol, files, options = {}) {
  return JSON.parse(await scoreJson(protocol, files, options));
}

/**
 * The pre-flight check of a submission (`files`, every one a prediction) against an organizer's manifest (its
 * JSON text): the report with `ready` and `summary`, as `dropscore check --format json`.
 */
export async function check(protocol, manifest, files, options = {}) {
  await init();
  const session = new wasm.Session(protocol, files.map((f) => ({ ...f, role: 'pred' })));
  try {
    return JSON.parse(session.check(typeof manifest === 'string' ? manifest : JSON.stringify(manifest), request(options)));
  } finally {
    session.free();
  }
}

/**
 * Loads a protocol's data asset (`protocols()` lists them under `assets`: `aij2022`'s Russian dictionary
 * `ru-lemmas.bin`, which the package does not ship) from its bytes; every later call uses it. Returns what
 * the file says about itself.
 */
export async function loadAsset(name, bytes) {
  await init();
  return wasm.asset_load(name, bytes);
}

/** Validates a competition config in its JSON form (`dropscore config dropscore.toml` prints it): `{config}` or `{errors}`. */
export async function checkConfig(text) {
  await init();
  return JSON.parse(wasm.check_config(text));
}
