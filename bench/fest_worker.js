// Module worker for bench/fest_browser.mjs: loads the wasm engine, then times one fest score() per message
// (PNG decoding included: the files arrive as Blobs, as dropped files do).
import init, { score } from '../www/pkg/dropscore.js';

const ready = init();
self.onmessage = async ({ data }) => {
  const exports = await ready;
  const t0 = performance.now();
  try {
    const json = score('fest', data.files, { mode: data.mode, set: {} }, () => {});
    const t1 = performance.now();
    const report = JSON.parse(json);
    self.postMessage({
      score_ms: t1 - t0,
      scores: report.scores,
      groups: report.groups,
      items: report.items.length,
      errors: report.diagnostics.filter((d) => d.severity === 'error').length,
      wasm_memory_bytes: exports.memory.buffer.byteLength,
    });
  } catch (e) {
    self.postMessage({ error: String(e?.message ?? e) });
  }
};
self.postMessage({ loaded: true });
