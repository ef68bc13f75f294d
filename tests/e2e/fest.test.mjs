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

/** Counts the canvas pixels that are not the viewer's background (#202020), and the overlay-green (TP) ones. */
async function canvasCounts(page, sel = 'canvas.fest-canvas') {
  return page.evaluate((sel) => {
    const c = document.querySelector(sel);
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let fg = 0;
    let green = 0;
    let hash = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (d[i] !== 0x20 || d[i + 1] !== 0x20 || d[i + 2] !== 0x20) fg++;
      if (d[i] === 0 && d[i + 1] === 200 && d[i + 2] === 0) green++;
      hash = (hash * 31 + d[i] * 7 + d[i + 1] * 3 + d[i + 2]) | 0;
    }
    return { fg, green, hash };
  }, sel);
}

/** Wheel-zooms (n notches in) at the canvas centre, then drags by (dx, dy) screen pixels. */
async function zoomAndPan(page, n, dx, dy) {
  const canvas = page.locator('canvas.fest-canvas').first();
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  await page.mouse.move(cx, cy);
  for (let i = 0; i < n; i++) await page.mouse.wheel(0, -100);
  await page.waitForTimeout(100);
  const zoomed = await canvasCounts(page);
  await page.mouse.move(cx, cy);
  await page.mouse.down();
  await page.mouse.move(cx + dx / 2, cy + dy / 2);
  await page.mouse.move(cx + dx, cy + dy);
  await page.mouse.up();
  await page.waitForTimeout(100);
  return { zoomed, panned: await canvasCounts(page) };
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
  assert.match(await page.textContent('.fest-pick'), /GT line 1 \(108 px\):.*prediction 3, IoU 1\.0000, precision 1\.0000, recall 1\.0000, class CL/);
  assert.match(await page.textContent('.fest-pick-pred'), /predicted line 3 \(108 px\), matched GT lines: 1$/);
  await clickPixel(page, 5, 15); // L3 under the yellow box: EL (55 of its 56 px in the 100-px box)
  await page.waitForFunction(() => document.querySelector('.fest-pick')?.dataset.cls === 'EL');
  assert.match(await page.textContent('.fest-pick'), /GT line 3 \(56 px\):.*prediction 5, IoU 0\.5446, precision 0\.5500, recall 0\.9821, class EL/);
  await clickPixel(page, 30, 9); // L2 right half, blue: ML
  await page.waitForFunction(() => document.querySelector('.fest-pick')?.dataset.cls === 'ML');
  assert.match(await page.textContent('.fest-pick'), /IoU 0\.5000, precision 1\.0000, recall 0\.5000, class ML/);
  // Zoom in at the centre: the TP green grows on the canvas; a drag moves the picture.
  const fit = await canvasCounts(page);
  assert.ok(fit.fg > 0.5 * 640 * 320, `the fitted page covers the canvas (${fit.fg} px)`);
  const { zoomed, panned } = await zoomAndPan(page, 3, 120, 0);
  assert.ok(zoomed.green > fit.green * 1.5, `zoom enlarges the overlay (${fit.green} -> ${zoomed.green} green px)`);
  assert.notEqual(panned.hash, zoomed.hash, 'a drag pans the view');
  await page.click('.fest-controls button');
  assert.deepEqual(await canvasCounts(page), fit, '"Fit" restores the view');
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

test('fest: a large page (3000×2632, the DIVA real file) scores like the CLI and zooms and pans', async () => {
  const big = path.join(repoRoot, 'tests', 'data', 'fest', 'diva', 'real', 'testfile_image004533645_00059_gt.png');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fest-e2e-big-'));
  const gtDir = path.join(dir, 'gt');
  fs.mkdirSync(gtDir);
  fs.copyFileSync(big, path.join(gtDir, 'page.png'));
  const zip = path.join(dir, 'pred.zip');
  fs.writeFileSync(zip, storedZip([{ name: 'page.png', data: fs.readFileSync(big) }]));
  const { page, context, check } = await openPage('#/p/fest');
  await page.setInputFiles('#gt-folder', gtDir);
  await dropFiles(page, '#zone-pred', [zip]);
  await score(page);
  await page.waitForSelector('canvas.fest-canvas[data-drawn="1"]', { timeout: 60000 });
  const fit = await canvasCounts(page);
  assert.ok(fit.green > 0, 'TP pixels drawn');
  const { zoomed, panned } = await zoomAndPan(page, 8, -200, -150);
  assert.ok(zoomed.fg > 0 && zoomed.hash !== fit.hash, 'zoomed view drawn');
  assert.notEqual(panned.hash, zoomed.hash, 'a drag pans the zoomed view');
  await compareWithCli(page, gtDir, zip, 'fest');
  check();
  await context.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
