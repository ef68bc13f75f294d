// Words per second of the lemmatiser in wasm (Node): node bench/lemma_wasm.mjs WORDS.txt ASSET
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = path.join(root, 'www', 'pkg');
const wasm = await import(pathToFileURL(path.join(pkg, 'dropscore.js')).href);
await wasm.default({ module_or_path: fs.readFileSync(path.join(pkg, 'dropscore_bg.wasm')) });
const [words, asset] = process.argv.slice(2);
const text = fs.readFileSync(words, 'utf8');
const n = text.split('\n').length - 1;
const t0 = performance.now();
wasm.lemma_load(fs.readFileSync(asset));
const load = performance.now() - t0;
let runs = 0;
const t = performance.now();
while (performance.now() - t < 1000 || runs === 0) {
  wasm.lemma_normal_forms(text);
  runs += 1;
}
const s = (performance.now() - t) / 1000;
console.log(`${Math.round((n * runs) / s)} words/s (load ${load.toFixed(0)} ms)`);
