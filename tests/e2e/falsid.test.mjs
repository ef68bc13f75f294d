// Browser end-to-end for falsid: "Try an example" scores the worked example (docs/specs/falsid.md 7.1); a dropped
// merged CSV plus three distance matrices (CSV, TSV, .npy) is scored with the Top-k readings, heat maps and the
// neighbours view, and "Download JSON" equals the CLI's JSON byte for byte (with DROPSCORE_BIN).
//
//   DROPSCORE_BIN=target/release/dropscore node --test tests/e2e/falsid.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setup, openPage, runOf, headline, score, shot, dropFiles, compareWithCli } from './harness.mjs';

setup();

function npy(n, values) {
  let hdr = `{'descr': '<f8', 'fortran_order': False, 'shape': (${n}, ${n}), }`;
  while ((10 + hdr.length + 1) % 64) hdr += ' ';
  hdr += '\n';
  const head = Buffer.alloc(10);
  Buffer.from('\x93NUMPY', 'latin1').copy(head, 0);
  head[6] = 1;
  head[7] = 0;
  head.writeUInt16LE(hdr.length, 8);
  const body = Buffer.alloc(8 * n * n);
  values.forEach((v, i) => body.writeDoubleLE(v, 8 * i));
  return Buffer.concat([head, Buffer.from(hdr, 'latin1'), body]);
}

function makeSubmission() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'falsid-e2e-'));
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  let gt = 'id,label\n';
  let pred = 'id,label\n';
  const files = [];
  for (const [s, n] of [['Pizan', 30], ['Tasso', 12], ['Yaqut', 20]]) {
    const ids = Array.from({ length: n }, (_, i) => `${s.toLowerCase()}_${i}`);
    const y = ids.map(() => (rnd() < 0.35 ? 1 : 0));
    ids.forEach((id, i) => {
      gt += `${id},${y[i] ? 'not-' : ''}${s}\n`;
      pred += `${id},${(rnd() < 0.75 ? y[i] : 1 - y[i]) ? 'not-' : ''}${s}\n`;
    });
    const m = ids.map((_, i) => ids.map((__, j) => (i === j ? 0 : Math.round((y[i] === y[j] ? 2 : 3) * rnd() * 1000) / 1000)));
    if (s === 'Pizan') {
      const f = path.join(dir, 'dist_pizan.csv');
      fs.writeFileSync(f, `,${ids.join(',')}\n${ids.map((id, i) => `${id},${m[i].join(',')}`).join('\n')}\n`);
      files.push(f);
    } else if (s === 'Tasso') {
      const f = path.join(dir, 'dist_tasso.tsv');
      fs.writeFileSync(f, `${m.map((r) => r.join('\t')).join('\n')}\n`);
      files.push(f);
    } else {
      const f = path.join(dir, 'dist_yaqut.npy');
      fs.writeFileSync(f, npy(n, m.flat()));
      files.push(f);
    }
  }
  fs.writeFileSync(path.join(dir, 'gt.csv'), gt);
  fs.writeFileSync(path.join(dir, 'pred.csv'), pred);
  return { dir, gt: path.join(dir, 'gt.csv'), preds: [path.join(dir, 'pred.csv'), ...files] };
}

test('falsid: "Try an example" scores the worked example (official accuracy, UAR, pooled readings)', async () => {
  const { page, context, check } = await openPage('#/p/falsid');
  assert.equal(await runOf(page, () => page.click('.example-btn[data-example="worked"]')), 'done');
  const off = await headline(page, 'official');
  assert.equal(off.accuracy, '0.6833');
  assert.equal(off.uar, '0.5833');
  assert.equal(off.pooled_macro_recall, '0.6703');
  assert.equal(off.pooled_accuracy, '0.7000');
  const cor = await headline(page, 'corrected');
  assert.equal(cor.uar, '0.5833');
  assert.ok(await page.locator('figure.plot[data-plot="confusion_Pizan"] svg rect.heat-cell').count() === 4, 'confusion heat map');
  await page.waitForSelector('.falsid-view table.falsid-samples');
  // errors only by default: 6 misclassified samples (2 Pizan, 1 Tasso, 3 Yaqut)
  assert.equal(await page.locator('.falsid-samples tbody tr').count(), 6);
  await shot(page, 'falsid-example');
  check();
  await context.close();
});

test('falsid: the Top-k example (4×4 matrix) gives Top-1 0.5', async () => {
  const { page, context, check } = await openPage('#/p/falsid');
  assert.equal(await runOf(page, () => page.click('.example-btn[data-example="topk"]')), 'done');
  const off = await headline(page, 'official');
  assert.deepEqual([off.top1, off.top3, off.top5], ['0.5000', '1.0000', '1.0000']);
  assert.ok(await page.locator('figure.plot[data-plot="distance_Tasso"] svg rect.heat-cell').count() >= 12);
  check();
  await context.close();
});

test('falsid: a dropped merged CSV and three matrices (CSV, TSV, .npy) score as the CLI does', async () => {
  const sub = makeSubmission();
  const { page, context, check } = await openPage('#/p/falsid');
  await dropFiles(page, '#zone-gt', [sub.gt]);
  await dropFiles(page, '#zone-pred', sub.preds);
  await score(page);
  const off = await headline(page, 'official');
  for (const k of ['accuracy', 'uar', 'top1', 'top3', 'top5']) assert.match(off[k] ?? '', /^[01]\.\d{4}$/, `${k}: ${off[k]}`);
  for (const id of ['distance_Pizan', 'distance_Tasso', 'distance_Yaqut', 'topk_curve', 'dist_hist_Yaqut']) {
    assert.equal(await page.locator(`figure.plot[data-plot="${id}"] svg`).count(), 1, id);
  }
  await page.waitForSelector('.falsid-view .falsid-nn li');
  await compareWithCli(page, sub.gt, sub.preds, 'falsid');
  await shot(page, 'falsid-drop');
  check();
  await context.close();
  fs.rmSync(sub.dir, { recursive: true, force: true });
});
