// wasm-vs-native parity for aij2022: every fixture of tests/data/aij2022 (text tasks, FID from .npy and .npz,
// edge cases) must give byte-identical JSON reports natively and in wasm, in both modes. Russian text-task words
// always come with the lemma table: the CLI also loads the built-in lemmatiser's asset when present, the wasm here not.
//
//   node --test tests/wasm/aij2022.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setup, repoRoot, check, wasm } from './harness.mjs';

setup();
const D = (f) => path.join(repoRoot, 'tests', 'data', 'aij2022', f);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'aij2022-parity-'));
const write = (name, text) => {
  const p = path.join(tmp, name);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, text);
  return p;
};

const TEXT = ['textqa', 'mathqa', 'vqa', 'text_recognition', 'captioning'];

for (const mode of ['official', 'corrected']) {
  test(`aij2022 text tasks ${mode}`, async () => {
    const r = await check('aij2022', [...TEXT.map((t) => D(`${t}_gt.json`)), D('lemmas.tsv')],
      TEXT.map((t) => D(`${t}_pred.json`)), mode, { lemma_table: 'lemmas.tsv' });
    if (mode === 'official') {
      assert.equal(r.scores.textqa, 0.6444444444444444);
      assert.equal(r.scores.mathqa, 0.7142857142857143);
      assert.equal(r.scores.titw, 0.5277777777777778);
      assert.equal(r.scores.vqa, 0.881578947368421);
      assert.equal(r.scores.captioning_meteor, 0.666359375);
    }
  });
  for (const [g, p] of [
    ['fid_A_gt_acts.npy', 'fid_A_pred_acts.npy'],
    ['fid_A_gt_stats.npz', 'fid_A_pred_stats_uncompressed.npz'],
    ['fid_A_gt_acts.npy', 'fid_A_pred_stats_uncompressed.npz'],
  ]) {
    test(`aij2022 FID ${g} + ${p} ${mode}`, async () => {
      const r = await check('aij2022', D(g), D(p), mode);
      assert.ok(Math.abs(r.scores.generation_fid / 7.585376778249643 - 1) <= 1e-12);
    });
  }
}

test('aij2022 edge cases', async () => {
  const gt = write('e1/textqa_gt.json', '{"0": [{"type": "text", "content": ["a"]}], "1": {"type": "text", "content": ["b"]}}');
  for (const [name, pred] of [
    ['carry', '{"0": [{"type": "text", "content": "b"}], "1": []}'],
    ['first-empty', '{"0": [], "1": [{"type": "text", "content": "b"}]}'],
    ['mismatch', '{"0": [{"type": "text", "content": "a"}]}'],
    ['duplicate', '{"0": [],\n "0": []}'],
    ['syntax', '{"0": [\n {"type": "text",, }]}'],
    ['non-string', '{"0": [{"type": "text", "content": 5}], "1": [{"type": "text", "content": "b"}]}'],
  ]) {
    const p = write(`${name}/textqa_pred.json`, pred);
    for (const mode of ['official', 'corrected']) await check('aij2022', gt, p, mode, {}, `${name} ${mode}`);
  }
  const ids = write('comb/ids.json', '{"q1": 0, "q2": 5, "q3": 1}');
  const out = write('comb/output.json', '{"q1": [{"type": "text", "content": ["red car"]}], "q2": [{"type": "text", "content": ["хор"]}], "q3": [{"type": "text", "content": ["5"]}]}');
  const pr = write('comb/predictions.json', '{"q2": [{"type": "text", "content": "Хор"}], "q1": [{"type": "text", "content": "the red car"}], "q4": []}');
  await check('aij2022', [out, ids], pr, 'official');
  await check('aij2022', D('textqa_gt.json'), D('textqa_pred.json'), 'official', { hidden_scores: '1,2' });
});

test('aij2022 CLIP from embedding matrices', async () => {
  const C = (f) => D(`clip/${f}`);
  const clip = [C('clip_image.npy'), C('clip_text.npy'), C('clip_ids.json')];
  for (const mode of ['official', 'corrected']) {
    const r = await check('aij2022', D('captioning_gt.json'), [D('captioning_pred.json'), ...clip], mode);
    if (mode === 'official') assert.equal(r.scores.captioning_clip, 0.3374085578945554);
  }
  const ids3 = write('clip3/clip_ids.json', '["0", "1", "2"]');
  await check('aij2022', D('captioning_gt.json'), [D('captioning_pred.json'), C('clip_image.npy'), C('clip_text.npy'), ids3], 'official', {}, 'shape mismatch');
});

// Options details and explain (the page's on-demand alignment of a large file): the same bytes in wasm.
test('aij2022 light detail and one explained id', async () => {
  const gt = [D('captioning_gt.json'), D('vqa_gt.json'), D('lemmas.tsv')];
  const pred = [D('captioning_pred.json'), D('vqa_pred.json')];
  const light = await check('aij2022', gt, pred, 'official', { lemma_table: 'lemmas.tsv', details: 'light' });
  assert.equal(light.scores.captioning_meteor, 0.666359375);
  assert.ok(light.items.every((it) => it.detail.best === undefined && Array.isArray(it.detail.option_scores)));
  const one = await check('aij2022', gt, pred, 'official', { lemma_table: 'lemmas.tsv', details: 'light', explain: 'captioning/3' });
  assert.equal(one.items.length, 1);
  assert.ok(one.items[0].detail.best.alignment.links.length > 0);
});

test('aij2022: exercise() (the worker\'s warm-up) scores the built-in captioning input as the native build does', () => {
  // The same value as src/protocols/aij2022/exercise.rs asserts natively (where it is checked against score()).
  assert.equal(wasm.exercise('aij2022'), 0.17382610203909046);
  assert.equal(wasm.exercise('aij2022'), 0.17382610203909046); // nothing kept from the first call
  assert.equal(wasm.exercise('kws'), undefined);
});
