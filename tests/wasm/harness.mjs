// Shared helpers for the wasm-vs-native parity tests (one file per protocol: tests/wasm/<protocol>.test.mjs).
//
//   import { setup, check } from './harness.mjs';
//   setup();                                   // top level: loads www/pkg once, makes a temporary folder
//   test('x', async () => { const report = await check('fest', [gtFolder], [predZip], 'official', { k: '5' }); });
//
// `check` runs `dropscore PROTOCOL --gt … --pred … --mode MODE --format json` and the wasm `score()` on the same
// files under the same path strings, and asserts the two reports are byte-identical (and that a CLI usage error
// is a thrown string in wasm with the same message). Folders are passed to wasm as their files with paths
// relative to the folder's parent, as the page's folder picker does (`webkitRelativePath`).
//
// Environment (optional): DROPSCORE_BIN (native binary), DROPSCORE_PKG (folder with dropscore.js + _bg.wasm).

import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';

const execFileP = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '..', '..');
export const bin = path.resolve(process.env.DROPSCORE_BIN ?? path.join(repoRoot, 'target', 'release', 'dropscore'));
const pkgDir = path.resolve(process.env.DROPSCORE_PKG ?? path.join(repoRoot, 'www', 'pkg'));

export let wasm;
let tmpRoot;

export function setup() {
  before(async () => {
    const glue = path.join(pkgDir, 'dropscore.js');
    const bytes = path.join(pkgDir, 'dropscore_bg.wasm');
    for (const f of [glue, bytes]) {
      if (!fs.existsSync(f)) throw new Error(`${f} is missing: run scripts/build-wasm`);
    }
    if (!fs.existsSync(bin)) throw new Error(`${bin} is missing: run cargo build --release`);
    wasm = await import(pathToFileURL(glue).href);
    await wasm.default({ module_or_path: fs.readFileSync(bytes) });
    tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'dropscore-parity-'));
  });
  after(() => {
    if (tmpRoot) fs.rmSync(tmpRoot, { recursive: true, force: true });
  });
}

/**
 * A fresh folder with symlinks to the given files and folders under their base names (a clash gets a
 * `pred_` prefix). Returns the link names in the same shape.
 */
export function stage(gts, preds) {
  const dir = fs.mkdtempSync(path.join(tmpRoot, 'case-'));
  const used = new Set();
  const link = (f, prefix) => {
    let name = path.basename(f);
    if (used.has(name)) name = `${prefix}${name}`;
    used.add(name);
    fs.symlinkSync(path.resolve(f), path.join(dir, name));
    return name;
  };
  return { dir, gts: gts.map((f) => link(f, 'gt_')), preds: preds.map((f) => link(f, 'pred_')) };
}

/** `dropscore` in `dir`; exit 1 (input errors) and 2 (usage error) are results, not failures. */
export async function native(protocol, dir, gts, preds, mode, set = {}) {
  const args = [protocol];
  for (const g of gts) args.push('--gt', g);
  for (const p of preds) args.push('--pred', p);
  args.push('--mode', mode, '--format', 'json', '--quiet');
  for (const [k, v] of Object.entries(set)) args.push('--set', `${k}=${v}`);
  try {
    const { stdout } = await execFileP(bin, args, { cwd: dir, maxBuffer: 1 << 28, encoding: 'utf8' });
    return { code: 0, stdout };
  } catch (e) {
    if (e.code === 1 || e.code === 2) return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    throw new Error(`dropscore ${args.join(' ')} exited ${e.code}: ${e.stderr}`);
  }
}

/** The wasm inputs for names in `dir`: files as themselves, folders as their files (relative paths). */
export function wasmFiles(dir, names, role) {
  const out = [];
  const walk = (rel) => {
    const abs = path.join(dir, rel);
    if (fs.statSync(abs).isDirectory()) {
      for (const e of fs.readdirSync(abs).sort()) walk(path.posix.join(rel, e));
    } else {
      out.push({ path: rel, role, data: new Uint8Array(fs.readFileSync(abs)) });
    }
  };
  for (const n of names) walk(n);
  return out;
}

export function inWasm(protocol, dir, gts, preds, mode, set = {}) {
  const files = [...wasmFiles(dir, gts, 'gt'), ...wasmFiles(dir, preds, 'pred')];
  const progress = [];
  const json = wasm.score(protocol, files, { mode, set }, (fraction, phase) => progress.push([fraction, phase]));
  return { json, progress };
}

export function throwsIn(f) {
  try {
    f();
  } catch (e) {
    return e;
  }
  return null;
}

export function firstDifference(a, b) {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return `first difference at offset ${i}:\n  native: ${JSON.stringify(a.slice(Math.max(0, i - 80), i + 80))}\n  wasm:   ${JSON.stringify(b.slice(Math.max(0, i - 80), i + 80))}`;
}

/**
 * Scores `gts`/`preds` (paths to files or folders) natively and in wasm and asserts byte-identical JSON.
 * Returns the parsed report, or null when both sides agree it is a usage error.
 */
/**
 * The CLI finds the Russian lemmatiser asset by itself (www/assets/ru-lemmas.bin); the page's worker hands it
 * to wasm when aij2022 needs it. Do the same here so both sides lemmatise alike.
 */
export const lemmaAsset = path.resolve(process.env.DROPSCORE_LEMMAS ?? path.join(repoRoot, 'www', 'assets', 'ru-lemmas.bin'));
export function loadLemmas() {
  if (!wasm.lemma_loaded() && fs.existsSync(lemmaAsset)) wasm.lemma_load(fs.readFileSync(lemmaAsset));
  return wasm.lemma_loaded();
}

export async function check(protocol, gts, preds, mode, set = {}, name = `${protocol} ${mode}`) {
  if (protocol === 'aij2022') loadLemmas();
  const { dir, gts: g, preds: p } = stage([gts].flat(), [preds].flat());
  const nat = await native(protocol, dir, g, p, mode, set);
  if (nat.code === 2) {
    const thrown = throwsIn(() => inWasm(protocol, dir, g, p, mode, set));
    assert.ok(thrown !== null, `${name}: the CLI reports a usage error (${nat.stderr.trim()}) but wasm scored`);
    assert.ok(nat.stderr.includes(String(thrown)), `${name}: CLI said ${JSON.stringify(nat.stderr)}, wasm threw ${JSON.stringify(thrown)}`);
    return null;
  }
  const w = inWasm(protocol, dir, g, p, mode, set);
  assert.equal(typeof w.json, 'string');
  if (w.json !== nat.stdout) assert.fail(`${name}: wasm and native reports differ; ${firstDifference(nat.stdout, w.json)}`);
  const report = JSON.parse(w.json);
  assert.equal(report.schema, 1);
  assert.equal(report.protocol, protocol);
  assert.equal(report.mode, mode);
  const hasError = report.diagnostics.some((d) => d.severity === 'error');
  assert.equal(nat.code, hasError ? 1 : 0, `${name}: exit status ${nat.code} vs errors in the report`);
  assert.ok(w.progress.length <= 200, `onProgress called ${w.progress.length} times`);
  for (const [f] of w.progress) assert.ok(f >= 0 && f <= 1, `progress fraction ${f} outside 0..1`);
  return report;
}
