// wasm-vs-native parity for every built-in example of every protocol in the registry (the metric families
// included): each example, official and corrected, gives byte-identical JSON reports natively
// (target/release/dropscore) and in wasm (www/pkg, run in Node). A protocol added to the registry is covered
// without touching this file; so is a swapped example (both sides exchanged): the same refusal in both.
//
//   node --test tests/wasm/examples.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { setup, check, repoRoot, wasm } from './harness.mjs';

setup();

// Example paths are relative to the page (www/): `examples/kws/…` is `www/examples/kws/…`.
const onDisk = (p) => [path.join(repoRoot, 'www', p), path.join(repoRoot, p)].find((f) => fs.existsSync(f));

test('every example of every protocol: byte-identical reports natively and in wasm, both modes', async () => {
  const protocols = JSON.parse(wasm.protocols());
  assert.ok(protocols.length >= 9, `the registry lists the five protocols and four families: ${protocols.map((p) => p.id)}`);
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
