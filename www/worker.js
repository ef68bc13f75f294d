// The scoring worker (module worker). The only code that touches the wasm package. Protocol: www/API.md.
import init, { protocols, score, explain, fest_overlay, lemma_load, lemma_loaded, check_config, warm_up, exercise } from './pkg/dropscore.js';

// dist/ and the single-file build set DROPSCORE_WASM (a hashed URL or the inlined bytes); else the default.
const ready = init({ module_or_path: globalThis.DROPSCORE_WASM }).then(
  () => {
    self.postMessage({ type: 'ready' });
  },
  (e) => {
    const message = `The scoring engine could not start: ${describe(e)}`;
    self.postMessage({ type: 'error', id: null, message, fatal: true });
    throw e;
  },
);
ready.catch(() => {});

function describe(e) {
  if (typeof e === 'string') return e;
  if (e && typeof e.message === 'string') return e.message;
  try {
    return JSON.stringify(e);
  } catch {
    return String(e);
  }
}

// The Russian lemmatiser's dictionary (aij2022): fetched once, only when a report says it was needed
// (diagnostic aij.lemma.unknown), with progress, then handed to wasm and kept for the session.
const LEMMA_URL = new URL('./assets/ru-lemmas.bin', import.meta.url);
const LEMMA_SIZE_HINT = 12.4e6; // bytes, when the server sends no Content-Length
let lemmaState = null; // null | Promise<boolean>

async function fetchLemmas(onProgress) {
  const res = await fetch(LEMMA_URL);
  if (!res.ok) throw new Error(`${LEMMA_URL.pathname}: HTTP ${res.status}`);
  const total = Number(res.headers.get('content-length')) || LEMMA_SIZE_HINT;
  if (!res.body) return new Uint8Array(await res.arrayBuffer());
  const reader = res.body.getReader();
  const parts = [];
  let got = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    got += value.length;
    onProgress(Math.min(got / total, 1), `Loading the Russian dictionary (${(got / 1e6).toFixed(1)} MB)`);
  }
  const bytes = new Uint8Array(got);
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  return bytes;
}

/** Loads the lemmatiser into wasm once; resolves to whether it is available. */
function ensureLemmas(onProgress) {
  if (lemma_loaded()) return Promise.resolve(true);
  if (!lemmaState) {
    lemmaState = fetchLemmas(onProgress).then(
      (bytes) => {
        onProgress(1, 'Preparing the Russian dictionary');
        try {
          lemma_load(bytes);
          return true;
        } catch (e) {
          onProgress(1, `The Russian dictionary could not be read (${describe(e)}); lemmas are approximate`);
          return false;
        }
      },
      (e) => {
        onProgress(1, `The Russian dictionary is not available (${describe(e)}); lemmas are approximate`);
        lemmaState = null;
        return false;
      },
    );
  }
  return lemmaState;
}

function needsLemmas(protocol, reportJson) {
  return protocol === 'aij2022' && !lemma_loaded() && reportJson.includes('"aij.lemma.unknown"');
}

// Before the first aij2022 score with FID inputs (.npy/.npz): FID's linear algebra once on a small matrix
// (~0.2 s, src/wasm.rs warm_up), so V8 has optimised it before the one long call on 2048-d inputs (~2 s saved).
let warmedUp = false;
function warmUpFor(protocol, files) {
  if (warmedUp || protocol !== 'aij2022' || !files.some((f) => /\.np[yz]$/i.test(f.path))) return;
  warmedUp = true;
  try {
    warm_up();
  } catch {
    /* only a speed-up */
  }
}

const exercised = new Set(); // protocols whose built-in input this worker has scored ('warm')

// Protocol-specific handlers, one line per protocol: `'fest-overlay': (msg, transfer) => value` (push
// ArrayBuffers to transfer into `transfer`). They call the wasm package's extra exports.
const EXTRA = {
  'fest-overlay': (msg, transfer) => {
    const files = msg.files.map((f) => ({ path: String(f.path), role: f.role ?? null, data: f.data }));
    const options = { mode: msg.options?.mode ?? 'official', set: { ...(msg.options?.set ?? {}) } };
    const o = fest_overlay(files, options, String(msg.image));
    transfer.push(o.rgba.buffer, o.gt_labels.buffer, o.pred_labels.buffer);
    return { width: o.width, height: o.height, rgba: o.rgba, gt_labels: o.gt_labels, pred_labels: o.pred_labels, meta: JSON.parse(o.meta) };
  },
  config: (msg) => JSON.parse(check_config(String(msg.text ?? ''))), // competition config, JSON form (www/embed.js)
};

async function handle(msg) {
  switch (msg.type) {
    case 'protocols':
      self.postMessage({ type: 'protocols', list: JSON.parse(protocols()) });
      return;
    case 'score': {
      const { id } = msg;
      const files = msg.files.map((f) => ({ path: String(f.path), role: f.role ?? null, data: f.data }));
      const options = { mode: msg.options?.mode ?? 'official', set: { ...(msg.options?.set ?? {}) } };
      const onProgress = (fraction, phase) => {
        self.postMessage({ type: 'progress', id, fraction: Number(fraction), phase: phase == null ? '' : String(phase) });
      };
      const t0 = performance.now();
      warmUpFor(msg.protocol, files);
      let reportJson = score(msg.protocol, files, options, onProgress);
      if (needsLemmas(msg.protocol, reportJson) && (await ensureLemmas(onProgress))) {
        reportJson = score(msg.protocol, files, options, onProgress);
      }
      const t1 = performance.now();
      // parseInPage: the page parses reportJson itself (one JSON.parse there is cheaper than parsing here and
      // cloning a 100,000-item object graph across threads: ~0.5 s for a 20 MB report).
      const report = msg.parseInPage ? undefined : JSON.parse(reportJson);
      const timing = { score_ms: t1 - t0, parse_ms: performance.now() - t1, posted_at: performance.timeOrigin + performance.now() };
      self.postMessage(report === undefined ? { type: 'result', id, reportJson, timing } : { type: 'result', id, report, reportJson, timing });
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
      self.postMessage({ type: 'warmed', protocol, ms: performance.now() - t0, value: value ?? null });
      return;
    }
    case 'explain': {
      const lines = JSON.parse(explain(msg.official, msg.corrected));
      self.postMessage({ type: 'explained', id: msg.id, lines });
      return;
    }
    default: {
      // Protocol-specific requests of www/views/ modules: { type, id, ...payload } -> { type: 'reply', id, value }.
      const handler = EXTRA[msg.type];
      if (!handler) throw new Error(`unknown message type ${JSON.stringify(msg.type)}`);
      const transfer = [];
      const value = handler(msg, transfer);
      self.postMessage({ type: 'reply', id: msg.id, value }, transfer);
    }
  }
}

self.addEventListener('message', async (event) => {
  const msg = event.data ?? {};
  const id = msg.id ?? null;
  try {
    await ready;
  } catch (e) {
    self.postMessage({ type: 'error', id, message: `The scoring engine could not start: ${describe(e)}`, fatal: true });
    return;
  }
  try {
    await handle(msg);
  } catch (e) {
    self.postMessage({ type: 'error', id, message: describe(e) });
  }
});
