// wasm-vs-native parity for every built-in example of every protocol in the registry (the metric families
// included): each example, official and corrected, gives byte-identical JSON reports natively
// (target/release/dropscore) and in wasm (www/pkg, run in Node). A protocol added to the registry is covered
// without touching this file; so is a swapped example (both sides exchanged): the same refusal in both; and so
// is its pre-flight: the manifest of the example's GT (`dropscore manifest`), then its predictions checked
// against it, byte-identical `dropscore check --format json` and wasm `Session.check`.
//
//   node --test tests/wasm/examples.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { setup, check, repoRoot, wasm, stage, wasmFiles, bin, firstDifference } from './harness.mjs';

const execFileP = promisify(execFile);

setup();

// Example paths are relative to the page (www/): `examples/kws/…` is `www/examples/kws/…`.
const onDisk = (p) => [path.join(repoRoot, 'www', p), path.join(repoRoot, p)].find((f) => fs.existsSync(f));

test('every example of every protocol: byte-identical reports natively and in wasm, both modes', async () => {
  const protocols = JSON.parse(wasm.protocols());
  assert.ok(protocols.length >= 9, `the registry lists the five protocols and four families at least: ${protocols.map((p) => p.id)}`);
  let cases = 0;
  for (const p of protocols) {
    for (const ex of p.examples) {
      const gts = ex.gt.map(onDisk);
      const preds = ex.pred.map(onDisk);
      assert.ok(gts.every(Boolean) && preds.every(Boolean), `${p.id}/${ex.id}: example files exist`);
      for (const mode of ['official', 'corrected']) {
        await check(p.id, gts, preds, mode, Object.fromEntries(ex.set ?? []), `${p.id}/${ex.id} ${mode}`);
        cases += 1;
      }
    }
  }
  assert.ok(cases >= 30, `${cases} cases`);
});

test('every protocol: the swapped first example gives the same refusal natively and in wasm', async () => {
  for (const p of JSON.parse(wasm.protocols())) {
    const ex = p.examples[0];
    if (!ex) continue;
    const report = await check(p.id, ex.pred.map(onDisk), ex.gt.map(onDisk), 'official', Object.fromEntries(ex.set ?? []), `${p.id} swapped`);
    if (report && report.diagnostics[0]?.code === 'input.swapped') {
      assert.deepEqual(report.scores, {}, `${p.id}: nothing scored when swapped`);
    }
  }
});

/** `dropscore ARGS` in `cwd`: its exit status and standard output (exit 1 and 2 are results). */
async function cli(args, cwd) {
  try {
    const { stdout } = await execFileP(bin, args, { cwd, maxBuffer: 1 << 28, encoding: 'utf8' });
    return { code: 0, stdout };
  } catch (e) {
    if (e.code === 1 || e.code === 2) return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    throw new Error(`dropscore ${args.join(' ')} exited ${e.code}: ${e.stderr}`);
  }
}

test('every example of every protocol: pre-flight (manifest from its GT, check of its predictions) byte-identical natively and in wasm', async () => {
  let checked = 0;
  for (const p of JSON.parse(wasm.protocols())) {
    for (const ex of p.examples) {
      const name = `${p.id}/${ex.id}`;
      const { dir, gts, preds } = stage(ex.gt.map(onDisk), ex.pred.map(onDisk));
      const set = (ex.set ?? []).flatMap(([k, v]) => ['--set', `${k}=${v}`]);
      const made = await cli(['manifest', p.id, ...gts.flatMap((g) => ['--gt', g]), ...set, '--out', 'manifest.json'], dir);
      // No pre-flight check for this protocol, or none for this input (aij2022's ImageGeneration): nothing to check.
      if (made.code === 2 && /has no pre-flight check yet/.test(made.stderr)) continue;
      if (made.code === 1 && /no manifest written/.test(made.stderr)) continue;
      assert.equal(made.code, 0, `${name}: dropscore manifest: ${made.stderr}`);
      const manifest = fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8');
      const native = await cli(['check', p.id, '--manifest', 'manifest.json', ...preds.flatMap((f) => ['--pred', f]), '--format', 'json'], dir);
      const session = new wasm.Session(p.id, wasmFiles(dir, preds, 'pred'));
      let inWasm;
      try {
        inWasm = session.check(manifest, { mode: 'official', set: {} });
      } catch (e) {
        assert.equal(native.code, 2, `${name}: wasm threw ${e} but the CLI did not report a usage error`);
        assert.ok(native.stderr.includes(String(e)), `${name}: CLI said ${native.stderr}, wasm threw ${e}`);
        continue;
      } finally {
        session.free();
      }
      if (inWasm !== native.stdout) assert.fail(`${name}: wasm and native checks differ; ${firstDifference(native.stdout, inWasm)}`);
      const report = JSON.parse(inWasm);
      assert.equal(native.code, report.ready ? 0 : 1, `${name}: exit status ${native.code}, ready ${report.ready}`);
      checked += 1;
    }
  }
  assert.ok(checked >= 9, `${checked} examples checked`);
});
