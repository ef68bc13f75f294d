// Browser end-to-end tests of fest: "Try an example", then a GT folder plus a prediction zip dropped on the page;
// the official numbers in the headline, the per-manuscript table, the overlay canvas drawn, a click on a line, and
// both downloads byte-identical to the CLI (when DROPSCORE_BIN is set).
//
//   node --test tests/e2e/fest.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setup, repoRoot, openPage, runOf, headline, score, shot, dropFiles, storedZip, compareWithCli } from './harness.mjs';

const syn = path.join(repoRoot, 'tests', 'data', 'fest', 'synthetic');
const gtPng = path.join(syn, 'gt', '001.png');
const predPng = path.join(syn, 'pred', '001.png');

setup({ requiredFiles: [gtPng, predPng] });

async function overlayDrawn(page) {
  await page.waitForSelector('canvas.fest-canvas[data-drawn="1"]', { timeout: 30000 });
  // The canvas shows the green (TP) of line L1: some pixel of the drawn canvas is pure overlay green.
  return page.evaluate(() => {
    const c = document.querySelector('canvas.fest-canvas');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let green = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] === 0 && d[i + 1] === 200 && d[i + 2] === 0) green++;
    return green;
  });
}

/** Clicks the canvas at image pixel (x, y) of the shown overlay (fit to the canvas). */
async function clickPixel(page, x, y) {
  const canvas = page.locator('canvas.fest-canvas').first();
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  const { cw, ch } = await page.evaluate(() => {
    const c = document.querySelector('canvas.fest-canvas');
    return { cw: c.width, ch: c.height };
  });
  const s = Math.min(cw / 40, ch / 20);
  const ox = (cw - 40 * s) / 2;
  const oy = (ch - 20 * s) / 2;
  await page.mouse.click(box.x + ((ox + (x + 0.5) * s) * box.width) / cw, box.y + ((oy + (y + 0.5) * s) * box.height) / ch);
}

test('fest: "Try an example" gives the official synthetic values and draws the overlay', async () => {
  const { page, context, check } = await openPage('#/p/fest');
  assert.equal(await runOf(page, () => page.click('.example-btn')), 'done');
  assert.deepEqual(await headline(page, 'official'), { line_iu: '0.3333' });
  const exact = await page.getAttribute('table.headline tbody tr[data-metric="line_iu"] td[data-mode="official"] span', 'title');
  assert.equal(exact, '0.3333333333333333');
  assert.ok(await overlayDrawn(page) > 0, 'green TP pixels on the canvas');
  const ms = await page.textContent('table.fest-ms tbody tr');
  assert.match(ms, /68\.45/);
  await clickPixel(page, 10, 3); // inside L1 (red prediction, CL)
  await page.waitForSelector('.fest-pick');
  assert.equal(await page.getAttribute('.fest-pick', 'data-cls'), 'CL');
  await clickPixel(page, 5, 15); // L3 under the yellow box: EL
  await page.waitForFunction(() => document.querySelector('.fest-pick')?.dataset.cls === 'EL');
  assert.equal(await page.locator('table.fest-gt-lines tbody tr').count(), 3);
  await shot(page, 'fest-example');
  check();
  await context.close();
});

test('fest: a GT folder and a prediction zip dropped on the page', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fest-e2e-'));
  const gtDir = path.join(dir, 'gt');
  fs.mkdirSync(gtDir);
  fs.copyFileSync(gtPng, path.join(gtDir, '001.png'));
  fs.copyFileSync(gtPng, path.join(gtDir, '002.png'));
  const zip = path.join(dir, 'pred.zip');
  fs.writeFileSync(zip, storedZip([
    { name: '001.png', data: fs.readFileSync(predPng) },
    { name: '002.png', data: fs.readFileSync(predPng) },
  ]));
  const { page, context, check } = await openPage('#/p/fest');
  await page.setInputFiles('#gt-folder', gtDir);
  await dropFiles(page, '#zone-pred', [zip]);
  await score(page);
  assert.deepEqual(await headline(page, 'official'), { line_iu: '0.3333' });
  assert.ok(await overlayDrawn(page) > 0);
  assert.equal(await page.locator('select.fest-image option').count(), 2);
  // Side by side: official and corrected overlays.
  await page.check('input.fest-compare');
  await page.waitForFunction(() => document.querySelectorAll('canvas.fest-canvas[data-drawn="1"]').length === 2);
  await compareWithCli(page, gtDir, zip, 'fest');
  await shot(page, 'fest-folder-zip');
  check();
  await context.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
