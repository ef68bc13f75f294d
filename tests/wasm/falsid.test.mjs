// wasm-vs-native parity for falsid: every fixture case (docs/specs/falsid.md 7) and a few edge cases give
// byte-identical JSON reports natively (target/release/dropscore) and in wasm (www/pkg, run in Node).
//
//   node --test tests/wasm/falsid.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setup, check, repoRoot } from './harness.mjs';

const data = path.join(repoRoot, 'tests', 'data', 'falsid');
const W = (f) => path.join(data, 'worked', f);
const T = (f) => path.join(data, 'topk', f);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'falsid-parity-'));
const write = (name, text) => {
  const p = path.join(tmp, name);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, text);
  return p;
};

const perSubset = ['pizan', 'tasso', 'yaqut'].map((s) => W(`pred_per_subset/${s}.csv`));
// A random 3-subset case with matrices in three layouts (deterministic LCG).
let seed = 12345;
const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const ids = { Pizan: 12, Tasso: 7, Yaqut: 9 };
let gt = 'id,label\n';
let pred = 'id,label\n';
const mats = [];
for (const [s, n] of Object.entries(ids)) {
  const names = Array.from({ length: n }, (_, i) => `${s[0].toLowerCase()}${i}`);
  for (const id of names) {
    gt += `${id},${rnd() < 0.4 ? 'not-' : ''}${s}\n`;
    if (rnd() < 0.9) pred += `${id},${rnd() < 0.5 ? 'not-' : ''}${s}\n`;
  }
  const m = names.map(() => names.map(() => (rnd() < 0.2 ? 1 : Math.round(rnd() * 1000) / 100)));
  let text;
  if (s === 'Pizan') text = ',' + names.join(',') + '\n' + names.map((id, i) => `${id},${m[i].join(',')}`).join('\n') + '\n';
  else if (s === 'Tasso') text = m.map((r) => r.join('\t')).join('\n') + '\n';
  else text = names.map((id, i) => `${id} ${m[i].join(' ')}`).join('\n') + '\n';
  mats.push(write(`dist_${s.toLowerCase()}.${s === 'Tasso' ? 'tsv' : 'csv'}`, text));
}
const rgt = write('random/gt.csv', gt);
const rpred = write('random/pred.csv', pred);

const CASES = [
  ['worked merged', [W('gt_merged.csv')], [W('pred_merged.csv')]],
  ['worked per subset', [W('gt_merged.csv')], perSubset],
  ['worked per subset, page confusion', [W('gt_merged.csv')], perSubset, { confusion_convention: 'page' }],
  ['topk stable', [T('gt_tasso.csv')], [T('dist_tasso.csv')]],
  ['topk pessimistic', [T('gt_tasso.csv')], [T('dist_tasso.csv')], { topk_ties: 'pessimistic', topk: '1,2,3' }],
  ['random three subsets', [rgt], [rpred, ...mats]],
  ['random three subsets, exclude', [rgt], [rpred, ...mats], { missing_prediction: 'exclude', topk_no_match: 'exclude' }],
  ['bad labels', [W('gt_merged.csv')], [write('bad/pred.csv', 'id,label\np01,Pizzan\np02,2\np02,Pizan\n')]],
  ['bad matrix', [T('gt_tasso.csv')], [write('bad/dist_tasso.csv', '0,1,2,3\n1,0,x,2\n2,1,0\n3,2,nan,0\n')]],
  ['usage error', [T('gt_tasso.csv')], [T('dist_tasso.csv')], { topk: 'zero' }],
];

setup();

for (const [name, gts, preds, set = {}] of CASES) {
  for (const mode of ['official', 'corrected']) {
    test(`${name} (${mode})`, async () => {
      const report = await check('falsid', gts, preds, mode, set, `${name} (${mode})`);
      if (name.startsWith('worked')) {
        assert.equal(report.scores.accuracy, (0.8 + 0.75 + 0.5) / 3);
        assert.equal(report.scores.uar, (0.5 + 0.75 + 0.5) / 3);
      }
      if (name === 'topk stable') assert.deepEqual([report.scores.top1, report.scores.top3, report.scores.top5], [0.5, 1, 1]);
      if (name === 'topk pessimistic') assert.equal(report.scores.top1, 0.25);
      if (name.startsWith('random')) assert.ok(report.scores.top1 != null && report.scores.accuracy != null);
    });
  }
}
