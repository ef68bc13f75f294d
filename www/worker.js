// The scoring worker (module worker). The only code that touches the wasm package. Protocol: www/API.md.
import init, { protocols, score, explain, fest_overlay } from './pkg/dropscore.js';

const ready = init().then(
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
};

function handle(msg) {
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
      const reportJson = score(msg.protocol, files, options, onProgress);
      self.postMessage({ type: 'result', id, report: JSON.parse(reportJson), reportJson });
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
    handle(msg);
  } catch (e) {
    self.postMessage({ type: 'error', id, message: describe(e) });
  }
});
