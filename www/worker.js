// @ts-check
// The scoring worker (module worker). The only code that touches the wasm package. Protocol: www/API.md, typed in
// www/api.d.ts. The page opens one session per Score click (`open`): the wasm reads each dropped file once, and
// every later request of that click (both modes, the explanation, the views' requests, single-id details) reuses it.
/// <reference lib="webworker" />
import init, { protocols, Session, asset_load, asset_loaded, check_config, exercise, memory_bytes } from './pkg/dropscore.js';

/** @typedef {import('./api').ToWorker} ToWorker */
/** @typedef {import('./api').FromWorker} FromWorker */
/** @typedef {import('./api').WasmFile} WasmFile */
/** @typedef {import('./api').ScoreOptions} ScoreOptions */
/** @typedef {import('./api').Asset} Asset */

/** @param {FromWorker} msg @param {Transferable[]} [transfer] */
function post(msg, transfer = []) {
  self.postMessage(msg, transfer);
}

// The engine module this worker runs, from its name (`dropscore:<module>`, www/engine.js): one of the page's
// split modules (www/pkg/modules/<module>.wasm, scripts/build-wasm), each with the protocols of one group; a
// worker named `dropscore` runs the whole engine. dist/ and the single-file build set DROPSCORE_WASM_MODULES
// and DROPSCORE_WASM (each module's, the whole engine's: a hashed URL, or a function giving the inlined bytes).
const MODULE = self.name.startsWith('dropscore:') ? self.name.slice('dropscore:'.length) : '';

/** @returns {any} what init() takes as `module_or_path` */
function wasmSource() {
  const given = MODULE ? globalThis.DROPSCORE_WASM_MODULES?.[MODULE] : globalThis.DROPSCORE_WASM;
  if (typeof given === 'function') return given();
  return given ?? (MODULE ? new URL(`./pkg/modules/${MODULE}.wasm`, import.meta.url) : undefined);
}

const ready = init({ module_or_path: wasmSource() }).then(
  () => {
    post({ type: 'ready' });
  },
  (e) => {
    const message = `The scoring engine could not start: ${describe(e)}`;
    post({ type: 'error', id: null, message, fatal: true });
    throw e;
  },
);
ready.catch(() => {});

/** @param {any} e */
function describe(e) {
  if (typeof e === 'string') return e;
  if (e && typeof e.message === 'string') return e.message;
  try {
    return JSON.stringify(e);
  } catch {
    return String(e);
  }
}

// A protocol's assets (src/protocols/views.rs, listed by protocols()): a data file fetched from ./assets/<file> once,
// only when a report says it was needed (its diagnostic `needed_after`), with progress, then handed to wasm and
// kept for the worker's life; the report is then scored again.
/** @type {Map<string, Asset[]> | null} each protocol's assets */
let assetsOf = null;
/** @type {Map<string, Promise<boolean>>} loads under way or done, by asset name */
const assetLoads = new Map();

/** @param {string} protocol @returns {Asset[]} */
function assetsFor(protocol) {
  assetsOf ??= new Map(JSON.parse(protocols()).map((/** @type {import('./api').ProtocolInfo} */ p) => [p.id, p.assets ?? []]));
  return assetsOf.get(protocol) ?? [];
}

/** @param {string} text */
const sentence = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/** @param {Asset} asset @param {(fraction: number, phase: string) => void} onProgress */
async function fetchAsset(asset, onProgress) {
  const url = new URL(`./assets/${asset.file}`, import.meta.url);
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url.pathname}: HTTP ${res.status}`);
  const total = Number(res.headers.get('content-length')) || asset.size_hint;
  if (!res.body) return new Uint8Array(await res.arrayBuffer());
  const reader = res.body.getReader();
  const parts = [];
  let got = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    got += value.length;
    onProgress(Math.min(got / total, 1), `Loading ${asset.label} (${(got / 1e6).toFixed(1)} MB)`);
  }
  const bytes = new Uint8Array(got);
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  return bytes;
}

/**
 * Loads `asset` into wasm once; resolves to whether it is available.
 * @param {Asset} asset
 * @param {(fraction: number, phase: string) => void} onProgress
 * @returns {Promise<boolean>}
 */
function ensureAsset(asset, onProgress) {
  if (asset_loaded(asset.name)) return Promise.resolve(true);
  let loading = assetLoads.get(asset.name);
  if (!loading) {
    loading = fetchAsset(asset, onProgress).then(
      (bytes) => {
        onProgress(1, `Preparing ${asset.label}`);
        try {
          asset_load(asset.name, bytes);
          return true;
        } catch (e) {
          onProgress(1, `${sentence(asset.label)} could not be read (${describe(e)}); ${asset.without}`);
          return false;
        }
      },
      (e) => {
        onProgress(1, `${sentence(asset.label)} is not available (${describe(e)}); ${asset.without}`);
        assetLoads.delete(asset.name);
        return false;
      },
    );
    assetLoads.set(asset.name, loading);
  }
  return loading;
}

/**
 * Loads the assets of `protocol` that the report says were needed and are not loaded yet; resolves to whether
 * any was loaded (the report is then scored again).
 * @param {string} protocol @param {string} reportJson @param {(fraction: number, phase: string) => void} onProgress
 */
async function loadNeededAssets(protocol, reportJson, onProgress) {
  let loaded = false;
  for (const asset of assetsFor(protocol)) {
    if (asset_loaded(asset.name) || !reportJson.includes(JSON.stringify(asset.needed_after))) continue;
    if (await ensureAsset(asset, onProgress)) loaded = true;
  }
  return loaded;
}

/** @type {Set<string>} protocols whose built-in input this worker has scored ('warm') */
const exercised = new Set();

/** @type {Map<number, {session: Session, protocol: string}>} open sessions by the page's session id */
const sessions = new Map();

/** @param {WasmFile[]} files */
function wasmFiles(files) {
  return files.map((f) => ({ path: String(f.path), role: f.role ?? null, data: f.data }));
}

/** @param {Partial<ScoreOptions> | undefined} o @returns {ScoreOptions} */
function wasmOptions(o) {
  return { mode: o?.mode ?? 'official', set: { ...(o?.set ?? {}) } };
}

/** A request this worker cannot answer, its wasm instance untouched (the page need not restart it). */
class RequestError extends Error {}

/** @param {number} session */
function sessionOf(session) {
  const s = sessions.get(session);
  if (!s) throw new RequestError(`no open session ${session} (it was closed)`);
  return s;
}

/** @param {number | null} id */
const progressTo = (id) => (/** @type {number} */ fraction, /** @type {string} */ phase) => {
  stage = { phase: phase == null ? '' : String(phase), file: /** @type {any} */ (globalThis).dropscoreReading };
  post({ type: 'progress', id, fraction: Number(fraction), phase: phase == null ? '' : String(phase) });
};

// Requests answered with { type: 'reply', id, value } (push ArrayBuffers to transfer into `transfer`).
/** @type {{[type: string]: (msg: any, transfer: Transferable[]) => unknown}} */
const REPLIES = {
  // A protocol's view (www/views/<id>.js) on the session's files: an image's overlay, a list of images…
  view: (/** @type {import('./api').ViewRequest} */ msg, transfer) => runView(msg, transfer),
  config: (/** @type {import('./api').ConfigRequest} */ msg) => JSON.parse(check_config(String(msg.text ?? ''))), // competition config, JSON form (www/embed.js)
  check: (/** @type {import('./api').CheckRequest} */ msg) => checkSubmission(msg), // pre-flight check (www/check.js)
  // A cut report (score with a limit, kept): a page of its rows, and the whole report as the CLI writes it.
  'items-page': (/** @type {import('./api').ItemsPageRequest} */ msg) => JSON.parse(sessionOf(msg.session).session.items_page(String(msg.mode), JSON.stringify(msg.query ?? {}))),
  export: (/** @type {import('./api').ExportRequest} */ msg) => exportReport(msg),
  // What the page draws beside a kept report (src/render/page.rs): headline hints, table columns, plot specs; and
  // the plot specs of one row's detail.
  'page-view': (/** @type {any} */ msg) => JSON.parse(sessionOf(msg.session).session.page_view(String(msg.mode))),
  'item-plots': (/** @type {any} */ msg) => JSON.parse(sessionOf(msg.session).session.item_plots(String(msg.mode), String(msg.item))),
  // Statistics (www/stats.js, src/wasm/stats.rs): a kept report's replicate histogram; the comparison with a second
  // submission's predictions on the session's ground truth ({ json: the JSON text of `dropscore compare --format json`,
  // deltas: the histogram of the paired replicates' Δ }).
  replicates: (/** @type {any} */ msg) => JSON.parse(sessionOf(msg.session).session.replicates(String(msg.mode), String(msg.metric), Number(msg.bins ?? 30))),
  intervals: (/** @type {any} */ msg) => intervals(msg),
  'intervals-cancel': (/** @type {any} */ msg) => void cancelledJobs.add(String(msg.job)),
  compare: (/** @type {any} */ msg) => sessionOf(msg.session).session.compare(wasmFiles(msg.files), wasmOptions(msg.options), progressTo(msg.id)),
};

/** The page's bootstrap jobs it cancelled (www/stats.js), by the page's token. @type {Set<string>} */
const cancelledJobs = new Set();

/**
 * The kept report's intervals, scored after its headline (src/wasm/stats.rs): replicates in steps of about 50 ms,
 * the worker yielding between steps so that 'intervals-cancel' arrives; then the answer of `replicates`.
 * @param {any} msg
 */
async function intervals(msg) {
  const { session } = sessionOf(msg.session);
  const onProgress = progressTo(msg.id);
  let step = 1;
  for (let done = session.intervals_start(String(msg.mode)) > 0 ? 0 : 1; done < 1;) {
    const t0 = performance.now();
    done = session.intervals_step(step);
    onProgress(done, 'bootstrap intervals');
    step = Math.max(1, Math.min(step * 4, Math.round((step * 50) / Math.max(1, performance.now() - t0))));
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (cancelledJobs.delete(String(msg.job))) {
      session.intervals_cancel();
      throw new RequestError('cancelled');
    }
  }
  return JSON.parse(session.intervals_finish(String(msg.mode), String(msg.metric), Number(msg.bins ?? 30)));
}

/**
 * A view's answer (src/wasm/views.rs Session::view): its JSON, with its typed arrays set on it and transferred.
 * @param {import('./api').ViewRequest} msg @param {Transferable[]} transfer
 */
function runView(msg, transfer) {
  const out = sessionOf(msg.session).session.view(String(msg.name), wasmOptions(msg.options), JSON.stringify(msg.args ?? {}));
  const value = JSON.parse(out.json);
  if (value === null || typeof value !== 'object') return value;
  for (const [key, array] of Object.entries(out.arrays)) {
    value[key] = array;
    transfer.push(array.buffer);
  }
  return value;
}

/**
 * The kept report of `msg.mode` as a Blob of the CLI's `--format json` or `--format csv` bytes, streamed out of wasm
 * in chunks of at most 16 MiB (src/wasm/page.rs); every 8 chunks are folded into a Blob, so the worker does not
 * hold the whole text.
 * @param {import('./api').ExportRequest} msg
 */
function exportReport(msg) {
  /** @type {BlobPart[]} */
  let parts = [];
  const type = msg.format === 'csv' ? 'text/csv' : 'application/json';
  sessionOf(msg.session).session.export(String(msg.mode), String(msg.format), (/** @type {Uint8Array<ArrayBuffer>} */ chunk) => {
    parts.push(chunk);
    if (parts.length > 8) parts = [new Blob(parts)];
  });
  return new Blob(parts, { type });
}

/**
 * The pre-flight check of the dropped predictions against a manifest (src/wasm.rs Session::check): the files
 * are read once, checked, and freed. A protocol without a check yet throws its plain sentence (a string).
 * @param {import('./api').CheckRequest} msg
 */
function checkSubmission(msg) {
  const files = wasmFiles(msg.files.map((f) => ({ ...f, role: 'pred' })));
  const session = new Session(String(msg.protocol), files, progressTo(msg.id));
  try {
    const t0 = performance.now();
    const json = session.check(String(msg.manifest), wasmOptions(msg.options));
    const report = JSON.parse(json);
    return { ready: report.ready, summary: report.summary, report, timing: { check_ms: performance.now() - t0, memory_bytes: memory_bytes() } };
  } finally {
    session.free();
  }
}

// A trap (an allocation that failed: Rust aborts with `unreachable`, which nothing inside wasm can catch) leaves
// the instance unusable. The message names the file the input layer was reading (src/wasm/mod.rs note_reading)
// only when the trap came while reading it; once the protocol reported a later stage (its progress phase, e.g.
// "evaluating") with no file opened since, the files were read and the stage is named instead, without blaming
// a file (the ground truth or an option may be what made the stage large). Then the run's memory budget; the
// error is not recoverable, so the page's engine starts a fresh worker, with a fresh wasm instance.
const PAGE_BUDGET = '1 GiB';
/** The last progress phase of this worker and the file being read when it came. @type {{phase: string, file: any} | null} */
let stage = null;
/** @param {any} e @param {any} msg */
function trapMessage(e, msg) {
  if (!(e instanceof WebAssembly.RuntimeError)) return null;
  const file = /** @type {any} */ (globalThis).dropscoreReading;
  const limit = `limit ${msg?.options?.set?.max_memory ?? PAGE_BUDGET}, raise with max_memory`;
  const after = stage && stage.file === file && stage.phase && !/^(reading|opening|starting)\b/i.test(stage.phase) ? stage.phase : null;
  if (after || !file) return `ran out of memory while scoring${after ? ` (stage: ${after})` : ''}: the files and options together need more than the budget (${limit})`;
  return `${file}: ran out of memory while reading it (${limit})`;
}

/** @param {ToWorker} msg */
async function handle(msg) {
  switch (msg.type) {
    case 'protocols':
      post({ type: 'protocols', list: JSON.parse(protocols()) });
      return;
    case 'open': {
      // One Score click: the wasm reads every dropped file once, into its memory (src/wasm.rs Session).
      const t0 = performance.now();
      // The protocol's warm-up for these files, if any, runs once per worker in the constructor (src/wasm/assets.rs).
      const files = wasmFiles(msg.files);
      const session = new Session(msg.protocol, files, progressTo(msg.id));
      sessions.get(msg.session)?.session.free();
      sessions.set(msg.session, { session, protocol: msg.protocol });
      post({ type: 'opened', id: msg.id, session: msg.session, bytes_in_memory: session.bytes_in_memory, read_ms: performance.now() - t0 });
      return;
    }
    case 'close':
      sessions.get(msg.session)?.session.free();
      sessions.delete(msg.session);
      return;
    case 'score': {
      const { id } = msg;
      stage = null;
      const { session, protocol } = sessionOf(msg.session);
      const options = wasmOptions(msg.options);
      const onProgress = progressTo(id);
      const keep = msg.keep ?? false;
      const t0 = performance.now();
      // With a limit, the report's rows beyond it stay in wasm (www/API.md, "Cut reports"): the page asks for
      // them page by page ('items-page') and downloads the whole report in chunks ('export').
      const run = () => (msg.limit == null ? session.score(options, onProgress, keep) : session.score_view(options, onProgress, keep, msg.limit));
      let reportJson = run();
      if (await loadNeededAssets(protocol, reportJson, onProgress)) {
        reportJson = run();
      }
      const t1 = performance.now();
      // parseInPage: the page parses reportJson itself (one JSON.parse there is cheaper than parsing here and
      // cloning a 100,000-item object graph across threads: ~0.5 s for a 20 MB report).
      const report = msg.parseInPage ? undefined : JSON.parse(reportJson);
      const timing = { score_ms: t1 - t0, parse_ms: performance.now() - t1, posted_at: performance.timeOrigin + performance.now(), memory_bytes: memory_bytes() };
      post(report === undefined ? { type: 'result', id, reportJson, timing } : { type: 'result', id, report, reportJson, timing });
      return;
    }
    case 'warm': {
      // The page selected a protocol: score its small built-in input once (src/protocols/mod.rs exercise) while
      // the user picks files, so that V8 has compiled the scoring code before a large input arrives.
      const protocol = String(msg.protocol);
      if (exercised.has(protocol)) return;
      exercised.add(protocol);
      const t0 = performance.now();
      let value;
      try {
        value = exercise(protocol);
      } catch {
        /* only a speed-up */
      }
      post({ type: 'warmed', protocol, ms: performance.now() - t0, value: value ?? null });
      return;
    }
    case 'explain': {
      // The two reports the session kept (score with keep): nothing is parsed again.
      const lines = JSON.parse(sessionOf(msg.session).session.explain());
      post({ type: 'explained', id: msg.id, lines });
      return;
    }
    default: {
      // { type, id, ...payload } -> { type: 'reply', id, value }.
      const handler = REPLIES[/** @type {{type: string}} */ (msg).type];
      if (!handler) throw new RequestError(`unknown message type ${JSON.stringify(/** @type {{type: string}} */ (msg).type)}`);
      /** @type {Transferable[]} */
      const transfer = [];
      const value = await handler(msg, transfer);
      post({ type: 'reply', id: /** @type {{id: number}} */ (msg).id, value }, transfer);
    }
  }
}

self.addEventListener('message', async (/** @type {MessageEvent} */ event) => {
  /** @type {ToWorker} */
  const msg = event.data ?? {};
  const id = 'id' in msg ? msg.id ?? null : null;
  try {
    await ready;
  } catch (e) {
    post({ type: 'error', id, message: `The scoring engine could not start: ${describe(e)}`, fatal: true });
    return;
  }
  try {
    await handle(msg);
  } catch (e) {
    // A string is an error the wasm threw on purpose (a usage error, an image that cannot be drawn): the instance
    // and its sessions stay usable. Anything else (a panic is a WebAssembly.RuntimeError) may have broken it.
    const trapped = trapMessage(e, msg);
    post({ type: 'error', id, message: trapped ?? describe(e), recoverable: typeof e === 'string' || e instanceof RequestError });
  }
});
