// Times dropscore's wasm engine in Node on one GT + prediction pair (used by scripts/bench).
//
//   node bench/wasm_bench.mjs --gt G --pred P [--mode official|corrected] [--data u8|blob] [--pkg www/pkg]
//
// Prints one JSON line: init_ms (compile + instantiate), read_ms (files into memory), score_ms (the score() call),
// wasm_memory_bytes (linear memory after scoring = its peak; it never shrinks), rss_bytes, scores (headline).
// --data blob passes the files as Blob objects, as the page's worker does with dropped Files. The wasm binding
// reads Blobs with FileReaderSync, which browsers have in workers and Node 20 has not: in Node that mode fails,
// and the JSON line says why ("error"). Only Uint8Array works in Node.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = { mode: 'official', data: 'u8', pkg: path.join(here, '..', 'www', 'pkg') };
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
if (!args.gt || !args.pred) {
  console.error('usage: node bench/wasm_bench.mjs --gt G --pred P [--mode M] [--data u8|blob] [--pkg DIR]');
  process.exit(2);
}

const t0 = performance.now();
const mod = await import(pathToFileURL(path.resolve(args.pkg, 'dropscore.js')).href);
const exports = await mod.default({ module_or_path: fs.readFileSync(path.resolve(args.pkg, 'dropscore_bg.wasm')) });
const t1 = performance.now();
const bufs = [args.gt, args.pred].map((f) => fs.readFileSync(f));
const data = args.data === 'blob' ? bufs.map((b) => new Blob([b])) : bufs.map((b) => new Uint8Array(b.buffer, b.byteOffset, b.length));
const files = [
  { path: path.basename(args.gt), role: 'gt', data: data[0] },
  { path: path.basename(args.pred), role: 'pred', data: data[1] },
];
const t2 = performance.now();
const out = { data: args.data, init_ms: t1 - t0, read_ms: t2 - t1 };
try {
  const json = mod.score('kws', files, { mode: args.mode, set: {} }, () => {});
  const t3 = performance.now();
  const report = JSON.parse(json);
  Object.assign(out, {
    score_ms: t3 - t2,
    scores: report.scores,
    errors: report.diagnostics.filter((d) => d.severity === 'error').length,
  });
} catch (e) {
  out.error = String(e?.message ?? e).split('\n')[0];
}
out.wasm_memory_bytes = exports.memory.buffer.byteLength;
out.rss_bytes = process.memoryUsage().rss;
console.log(JSON.stringify(out));
