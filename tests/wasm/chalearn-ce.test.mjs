// wasm-vs-native parity for chalearn-ce: the fixture (docs/specs/chalearn-ce.md 7) in every reading, the edge cases of
// section 6, and a generated 100-category submission zip with ties, missing and unknown ids, byte-identical JSON.
//
//   node --test tests/wasm/chalearn-ce.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setup, repoRoot, check } from './harness.mjs';
import { synthetic } from './chalearn-synth.mjs';

setup();

const ex = path.join(repoRoot, 'tests', 'data', 'chalearn-ce', 'ap_example');
const REF = path.join(ex, 'input', 'ref');
const one = { expected_categories: '1' };

const CASES = [
  ['fixture input/res', REF, path.join(ex, 'input', 'res'), one, '0.722222', '0.666667'],
  ['fixture res_negfirst', REF, path.join(ex, 'res_negfirst'), one, '0.666667', '0.666667'],
  ['fixture res_missing', REF, path.join(ex, 'res_missing'), one, '0.603175', '0.625000'],
  ['fixture step', REF, path.join(ex, 'res_missing'), { ...one, integration: 'step' }, '0.555556'],
  ['fixture no sentinels', REF, path.join(ex, 'input', 'res'), { ...one, sentinels: 'false' }, '0.388889'],
  ['fixture positives_first', REF, path.join(ex, 'res_negfirst'), { ...one, tie_order: 'positives_first' }, '0.722222'],
  ['fixture 100 categories expected', REF, path.join(ex, 'input', 'res'), {}, '0.722222'],
];

for (const [name, gt, pred, set, official, corrected] of CASES) {
  test(`chalearn-ce ${name}`, async () => {
    const o = await check('chalearn-ce', gt, pred, 'official', set, `${name} official`);
    assert.equal(o.scores.map.toFixed(6), official);
    const c = await check('chalearn-ce', gt, pred, 'corrected', set, `${name} corrected`);
    if (corrected) assert.equal(c.scores.map.toFixed(6), corrected);
  });
}

test('chalearn-ce synthetic 100-category zip (ties, missing, unknown, duplicates, a missing file)', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chalearn-parity-'));
  try {
    const { ref, zip } = synthetic(dir);
    const o = await check('chalearn-ce', ref, zip, 'official', {}, 'synthetic official');
    assert.equal(o.items.length, 100);
    assert.ok(o.scores.map > 0.3 && o.scores.map < 1, `mAP ${o.scores.map}`);
    for (const code of ['chalearn.res.unknown_id', 'chalearn.res.duplicate_id', 'chalearn.res.missing_images', 'chalearn.res.missing_category']) {
      assert.ok(o.diagnostics.some((d) => d.code === code), code);
    }
    const c = await check('chalearn-ce', ref, zip, 'corrected', {}, 'synthetic corrected');
    assert.equal(c.scores.map, null); // duplicates are errors in corrected mode
    await check('chalearn-ce', ref, zip, 'corrected', { duplicates: 'first' }, 'synthetic corrected, duplicates first');
    await check('chalearn-ce', ref, zip, 'official', { integration: 'step', tie_order: 'negatives_first', id_match: 'stem' }, 'synthetic options');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('chalearn-ce input errors and usage errors agree', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chalearn-parity-'));
  try {
    const ref = path.join(dir, 'ref');
    const res = path.join(dir, 'res');
    fs.mkdirSync(ref);
    fs.mkdirSync(res);
    fs.copyFileSync(path.join(REF, 'La_Tomatina_test.txt'), path.join(ref, 'La_Tomatina_test.txt'));
    fs.writeFileSync(path.join(res, 'La_Tomatina.txt'), Buffer.concat([
      Buffer.from('\uFEFFimg_a.jpg 0.9\nimg_b.jpg\nimg_c.jpg nan\nimg_d.jpg 0,6\n'), Buffer.from([0xff, 0xfe]), Buffer.from(' 1\n')]));
    fs.writeFileSync(path.join(res, 'La_Tomatino.txt'), 'img_a.jpg 1\n');
    const r = await check('chalearn-ce', ref, res, 'official', one, 'errors');
    assert.equal(r.scores.map, null);
    assert.ok(r.official_fails);
    assert.equal(await check('chalearn-ce', ref, res, 'official', { tie_order: 'random' }, 'bad option'), null);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
