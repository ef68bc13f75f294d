// Module worker for bench/browser_bench.mjs: loads the wasm engine, then times one score() per message.
import init, { score } from '../www/pkg/dropscore.js';

const ready = init();
self.onmessage = async ({ data }) => {
  const exports = await ready;
  const t0 = performance.now();
  try {
    const json = score(data.protocol ?? 'kws', data.files, { mode: data.mode, set: {} }, () => {});
    const t1 = performance.now();
    const report = JSON.parse(json);
    self.postMessage({
      score_ms: t1 - t0,
      scores: report.scores,
      errors: report.diagnostics.filter((d) => d.severity === 'error').length,
      wasm_memory_bytes: exports.memory.buffer.byteLength,
    });
  } catch (e) {
    self.postMessage({ error: String(e?.message ?? e) });
  }
};
self.postMessage({ loaded: true });
