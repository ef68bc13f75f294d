// Browser end-to-end for aij2022: "Try an example" scores the text-task fixtures (docs/specs/aij2022.md 7.1–7.5) and
// the FID pair of .npz statistics files (7.6); dropped files score as the CLI does (Download JSON byte-identical).
//
//   DROPSCORE_BIN=target/release/dropscore node --test tests/e2e/aij2022.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setup, openPage, runOf, headline, score, shot, dropFiles, compareWithCli, repoRoot } from './harness.mjs';

setup();
const D = (f) => path.join(repoRoot, 'tests', 'data', 'aij2022', f);

test('aij2022: "Try an example" scores the text tasks as the contest did', async () => {
  const { page, context, check } = await openPage('#/p/aij2022');
  assert.equal(await runOf(page, () => page.click('.example-btn[data-example="text"]')), 'done');
  const off = await headline(page, 'official');
  assert.equal(off.textqa, '0.6444');
  assert.equal(off.mathqa, '0.7143');
  assert.equal(off.vqa, '0.8816');
  assert.equal(off.titw, '0.5278');
  assert.equal(off.captioning_meteor, '0.6664');
  await page.waitForSelector('.aij-view .aij-align .aij-tok');
  const print = await page.textContent('.aij-view pre.aij-pre');
  assert.ok(print.includes('f1 score: 0.6444444444444444'), print);
  assert.ok(print.includes('Exact NED 0.5277777777777778'), print);
  assert.ok(await page.locator('.aij-diff tbody tr').count() === 7, 'TRitW diff rows');
  assert.ok(await page.locator('figure.plot[data-plot="tasks"] svg').count() === 1, 'task bar chart');
  await shot(page, 'aij2022-text');
  check();
  await context.close();
});

test('aij2022: the FID example (two .npz files) gives 7.5854', async () => {
  const { page, context, check } = await openPage('#/p/aij2022');
  assert.equal(await runOf(page, () => page.click('.example-btn[data-example="fid"]')), 'done');
  const off = await headline(page, 'official');
  assert.equal(off.generation_fid, '7.5854');
  assert.ok((await page.textContent('.aij-view')).includes('tr √(Σ₁Σ₂)'));
  check();
  await context.close();
});

test('aij2022: dropped TextQA files and an .npy/.npz FID pair score as the CLI does', async () => {
  const { page, context, check } = await openPage('#/p/aij2022');
  const gt = [D('textqa_gt.json'), D('lemmas.tsv')];
  const pred = [D('textqa_pred.json')];
  await dropFiles(page, '#zone-gt', gt);
  await dropFiles(page, '#zone-pred', pred);
  await score(page);
  assert.equal((await headline(page, 'official')).textqa, '0.6444');
  await compareWithCli(page, gt, pred, 'aij2022');
  check();
  await context.close();
  const second = await openPage('#/p/aij2022');
  await dropFiles(second.page, '#zone-gt', [D('fid_A_gt_acts.npy')]);
  await dropFiles(second.page, '#zone-pred', [D('fid_A_pred_stats_uncompressed.npz')]);
  await score(second.page);
  assert.equal((await headline(second.page, 'official')).generation_fid, '7.5854');
  await compareWithCli(second.page, D('fid_A_gt_acts.npy'), D('fid_A_pred_stats_uncompressed.npz'), 'aij2022');
  second.check();
  await second.context.close();
});

test('aij2022: 2,500 captioning ids carry light detail; the alignment of one id is computed on demand', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aij-light-'));
  const gt = {};
  const pred = {};
  for (let i = 0; i < 2500; i++) {
    gt[i] = [{ type: 'text', content: ['кошка спит на диване', 'собака бежит по траве'] }];
    pred[i] = [{ type: 'text', content: i % 2 ? 'кошка спит' : 'собаки бегут' }];
  }
  const g = path.join(dir, 'captioning_gt.json');
  const p = path.join(dir, 'captioning_pred.json');
  fs.writeFileSync(g, JSON.stringify(gt));
  fs.writeFileSync(p, JSON.stringify(pred));
  const { page, context, check } = await openPage('#/p/aij2022');
  await dropFiles(page, '#zone-gt', [g]);
  await dropFiles(page, '#zone-pred', [p]);
  await score(page);
  await compareWithCli(page, [g], [p], 'aij2022');
  // A typed id (no 2,500-entry list); the first id is aligned on demand by the worker (option explain).
  const input = page.locator('.aij-view input[type="search"]');
  assert.equal(await input.count(), 1);
  await page.waitForSelector('.aij-view .aij-align .aij-tok');
  await input.fill('captioning/7');
  await page.click('.aij-view .aij-align ~ * button, .aij-view button:has-text("Show")');
  // The result itself: the placeholder "Computing the alignment of captioning/7…" names the id too.
  await page.waitForFunction(() => {
    const t = document.querySelector('.aij-view .aij-align')?.textContent ?? '';
    return t.includes('captioning/7') && t.includes('METEOR =') && !t.includes('Computing');
  });
  const text = await page.textContent('.aij-view .aij-align');
  // "кошка спит" vs "кошка спит на диване": P = 1, R = 1/2, one chunk: METEOR = 0.9375 · 0.5/0.95
  assert.ok(text.includes('m = 2, chunks = 1'), text);
  assert.ok(text.includes(`METEOR = ${(0.9375 * 0.5 / 0.95).toFixed(6)}`), text);
  check();
  await context.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
