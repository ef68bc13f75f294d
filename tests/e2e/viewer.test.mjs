// Browser end-to-end tests of the image viewers: the fest overlay (distinct per-image bar labels,
// official and corrected side by side from 1000 px, the dropped page image under the overlay, keyboard operation),
// the detection image viewer (GT boxes and detections TP / FP / FN at IoU 0.5 on the dropped images) and the
// segmentation overlay; no page overflow at 390 and 1280 px; screenshots in tests/e2e/artifacts/viewer-*.png.
//
//   node --test tests/e2e/viewer.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setup, repoRoot, openPage, runOf, score, shot } from './harness.mjs';

const ex = (rel) => path.join(repoRoot, 'www', 'examples', rel);
const WIDTHS = [390, 1280];

setup({ requiredFiles: [ex('fest/gt/001.png'), ex('fest/img-default/001.jpg'), ex('detection/images/shapes_01.jpg')] });

async function noOverflow(page, what) {
  const { width, limit } = await page.evaluate(() => ({ width: document.documentElement.scrollWidth, limit: window.innerWidth }));
  assert.ok(width <= limit, `${what}: the page is ${width} px wide in a ${limit} px viewport`);
}

/** Pixels of a canvas: a hash, and how many match `pred` ([r, g, b] → boolean, as source text). */
async function pixels(page, sel, pred = '() => false') {
  return page.evaluate(({ sel, pred }) => {
    const c = document.querySelector(sel);
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const f = new Function(`return (${pred})`)();
    let n = 0;
    let hash = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (f(d[i], d[i + 1], d[i + 2])) n++;
      hash = (hash * 31 + d[i] * 7 + d[i + 1] * 3 + d[i + 2]) | 0;
    }
    return { n, hash };
  }, { sel, pred });
}

const activeClass = (page) => page.evaluate(() => document.activeElement?.className ?? '');

/** A fest data set: Latin14396 with 3 test images (the synthetic page), page images for 2 of them. */
function festDataset(withPages) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'viewer-fest-'));
  const gt = path.join(dir, 'gt', 'Latin14396', 'text-line-gt-Latin14396', 'test');
  const img = path.join(dir, 'gt', 'Latin14396', 'img-Latin14396', 'test');
  const res = path.join(dir, 'res', 'Latin14396');
  for (const d of [gt, img, res]) fs.mkdirSync(d, { recursive: true });
  for (const n of ['001', '002', '003']) {
    fs.copyFileSync(ex('fest/gt/001.png'), path.join(gt, `${n}.png`));
    fs.copyFileSync(ex('fest/pred/001.png'), path.join(res, `${n}.png`));
    if (withPages && n !== '003') fs.copyFileSync(ex('fest/img-default/001.jpg'), path.join(img, `${n}.jpg`));
  }
  if (!withPages) fs.rmSync(path.join(dir, 'gt', 'Latin14396', 'img-Latin14396'), { recursive: true });
  return dir;
}

async function festRun(width, withPages) {
  const dir = festDataset(withPages);
  const opened = await openPage('#/p/fest', { width });
  const { page } = opened;
  await page.setInputFiles('#gt-folder', path.join(dir, 'gt'));
  await page.setInputFiles('#pred-folder', path.join(dir, 'res'));
  await score(page);
  await page.waitForSelector('canvas.fest-canvas[data-drawn="1"]', { timeout: 30000 });
  return { ...opened, dir };
}

test('fest viewer: distinct bar labels, page image under the overlay, side by side, keyboard', async () => {
  const { page, context, check, dir } = await festRun(1280, true);
  // Per-image bar labels: the common prefix named once on the axis, each bar's full name on focus.
  const ticks = await page.locator('figure[data-plot="line_iu_Latin14396"] .plot-xticks text').evaluateAll((ts) => ts.map((t) => t.firstChild.textContent));
  assert.deepEqual(ticks, ['001', '002', '003']);
  assert.match(await page.textContent('figure[data-plot="line_iu_Latin14396"] svg'), /image \(Latin14396\/…\)/);
  await page.locator('figure[data-plot="line_iu_Latin14396"] .plot-bar[tabindex="0"]').nth(1).focus();
  assert.match(await page.textContent('figure[data-plot="line_iu_Latin14396"] .plot-readout'), /^Latin14396\/002: 0\.333/);
  // The page image is drawn under the overlay (parchment pixels on the canvas), and the info items say so.
  await page.waitForFunction(() => /on the page image/.test(document.querySelector('.fest-status')?.textContent ?? ''));
  const parchment = '(r, g, b) => r > 190 && g > 170 && b > 130 && b < 205 && r - b > 30';
  assert.ok((await pixels(page, 'canvas.fest-canvas', parchment)).n > 1000, 'page image pixels on the canvas');
  const infos = await page.locator('.diag-list li', { hasText: 'page image: not scored' }).count();
  assert.ok(infos >= 1, 'the page images are listed as not scored');
  // Side by side at 1280 px: two canvases on one row.
  await page.check('input.fest-compare');
  await page.waitForFunction(() => document.querySelectorAll('canvas.fest-canvas[data-drawn="1"]').length === 2);
  const boxes = await page.locator('canvas.fest-canvas').evaluateAll((cs) => cs.map((c) => c.getBoundingClientRect().toJSON()));
  assert.equal(Math.round(boxes[0].top), Math.round(boxes[1].top), 'same row');
  assert.ok(boxes[1].left >= boxes[0].right, 'the corrected pane right of the official one');
  await noOverflow(page, 'fest 1280');
  await shot(page, 'viewer-fest-1280');
  await page.uncheck('input.fest-compare');
  await page.waitForFunction(() => document.querySelectorAll('canvas.fest-canvas[data-drawn="1"]').length === 1);
  // Keyboard: focus the canvas, zoom with + and −, pan with the arrows, 0 fits.
  const canvas = page.locator('canvas.fest-canvas');
  await canvas.focus();
  const fit = await canvas.getAttribute('data-scale');
  const before = await pixels(page, 'canvas.fest-canvas');
  await page.keyboard.press('+');
  assert.ok(Number(await canvas.getAttribute('data-scale')) > Number(fit), '+ zooms in');
  await page.keyboard.press('ArrowLeft');
  assert.notEqual((await pixels(page, 'canvas.fest-canvas')).hash, before.hash, 'arrows pan');
  await page.keyboard.press('-');
  await page.keyboard.press('0');
  assert.equal(await canvas.getAttribute('data-scale'), fit, '0 fits');
  // Tab through the GT lines; Enter gives the same details as a click on the line.
  await page.keyboard.press('Tab');
  assert.match(await page.textContent('.fest-status'), /GT line 1, class CL \(1 of 3\)/);
  await page.keyboard.press('Enter');
  await page.waitForSelector('.fest-pick[data-gt="1"]');
  const byKey = await page.textContent('.fest-pick');
  assert.match(byKey, /GT line 1 \(108 px\):.*IoU 1\.0000.*class CL/);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await page.waitForSelector('.fest-pick[data-gt="3"][data-cls="EL"]');
  // A click on line 1 (image pixel (10, 3) of the fitted 40×20 page) shows the same text as Enter did.
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  const s = Math.min(640 / 40, 480 / 20);
  await page.mouse.click(box.x + ((10.5 * s) * box.width) / 640, box.y + (((480 - 20 * s) / 2 + 3.5 * s) * box.height) / 480);
  await page.waitForSelector('.fest-pick[data-gt="1"]');
  assert.equal(await page.textContent('.fest-pick'), byKey);
  // Past the last line, Tab leaves the canvas (no keyboard trap); PageDown shows the next image.
  await canvas.focus();
  for (let i = 0; i < 4; i++) await page.keyboard.press('Tab');
  assert.ok(!(await activeClass(page)).includes('fest-canvas'), 'focus moved on');
  await canvas.focus();
  await page.keyboard.press('PageDown');
  await page.waitForFunction(() => document.querySelector('select.fest-image').value === 'Latin14396/002');
  // The new image's canvas takes the focus back.
  await page.waitForFunction(() => /^Latin14396\/002: /.test(document.querySelector('.fest-status')?.textContent ?? '')
    && document.activeElement?.classList.contains('fest-canvas'));
  await page.keyboard.press('PageDown');
  await page.waitForFunction(() => /on black \(no page image/.test(document.querySelector('.fest-status')?.textContent ?? ''));
  check();
  await context.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('fest viewer: without page images, no page-image claim; fits at 390 px', async () => {
  const { page, context, check, dir } = await festRun(390, false);
  await page.waitForFunction(() => /on black \(no page image/.test(document.querySelector('.fest-status')?.textContent ?? ''));
  assert.equal(await page.locator('.diag-list li', { hasText: 'page image' }).count(), 0);
  assert.doesNotMatch(await page.textContent('#results'), /only backgrounds/);
  await page.check('input.fest-compare');
  await page.waitForFunction(() => document.querySelectorAll('canvas.fest-canvas[data-drawn="1"]').length === 2);
  const boxes = await page.locator('canvas.fest-canvas').evaluateAll((cs) => cs.map((c) => c.getBoundingClientRect().toJSON()));
  assert.ok(boxes[1].top >= boxes[0].bottom, 'stacked on a phone');
  await noOverflow(page, 'fest 390');
  await shot(page, 'viewer-fest-390');
  check();
  await context.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

for (const width of WIDTHS) {
  test(`detection viewer at ${width} px: boxes on the dropped images, TP / FP / FN at IoU 0.5, keyboard`, async () => {
    const { page, context, check } = await openPage('#/p/detection', { width });
    const images = fs.readdirSync(ex('detection/images')).map((f) => ex(`detection/images/${f}`));
    await page.setInputFiles('#gt-files', [ex('detection/gt/instances.json'), ...images]);
    await page.setInputFiles('#pred-files', [ex('detection/pred/results.json')]);
    await score(page);
    const canvas = page.locator('canvas.det-canvas');
    await page.waitForSelector('canvas.det-canvas[data-drawn="1"]', { timeout: 30000 });
    assert.equal(await page.locator('.det-view select option').count(), 12);
    // Image 1 as pycocotools 2.0.8 classifies it (tests/reference/detection_viewer.py): 2 TP, 3 FP, 1 FN.
    await page.waitForFunction(() => /shapes_01\.jpg: 320×240 px/.test(document.querySelector('.det-status')?.textContent ?? ''));
    assert.match(await page.textContent('.det-status'), /2 TP, 3 FP, 1 FN, 0 ignored/);
    assert.equal(await page.locator('table.det-boxes tbody tr').count(), 3 + 5);
    // The image is drawn (its light background) under the boxes.
    assert.ok((await pixels(page, 'canvas.det-canvas', '(r, g, b) => r > 220 && g > 220 && b > 210')).n > 5000);
    assert.equal(await page.locator('.viewer-legend .viewer-key').count(), 4);
    // Keyboard: Tab to the first box, Enter for its details; zoom; PageDown to image 2.
    await canvas.focus();
    await page.keyboard.press('Tab');
    assert.match(await page.textContent('.det-status'), /^GT box 2 \(circle\): TP \(1 of 8\)/);
    await page.keyboard.press('Enter');
    assert.match(await page.textContent('.det-pick'), /GT box 2 circle.*: TP — matched by the detection of score/);
    const fit = Number(await canvas.getAttribute('data-scale'));
    await page.keyboard.press('+');
    assert.ok(Number(await canvas.getAttribute('data-scale')) > fit);
    await page.keyboard.press('0');
    await page.keyboard.press('PageDown');
    await page.waitForFunction(() => /shapes_02\.jpg/.test(document.querySelector('.det-status')?.textContent ?? ''));
    assert.match(await page.textContent('.det-status'), /2 TP, 4 FP, 3 FN/);
    // Image 3: the detection inside the crowd box is ignored.
    await page.selectOption('.det-view select', '3');
    await page.waitForFunction(() => /shapes_03\.jpg/.test(document.querySelector('.det-status')?.textContent ?? ''));
    assert.match(await page.textContent('.det-status'), /2 TP, 0 FP, 0 FN, 2 ignored/);
    await noOverflow(page, `detection ${width}`);
    await page.locator('.det-view').scrollIntoViewIfNeeded();
    await shot(page, `viewer-detection-${width}`);
    check();
    await context.close();
  });

  test(`segmentation viewer at ${width} px: per-image overlay, navigation, keyboard`, async () => {
    const { page, context, check } = await openPage('#/p/segmentation', { width });
    assert.equal(await runOf(page, () => page.click('.example-btn')), 'done');
    const canvas = page.locator('canvas.seg-canvas');
    await page.waitForSelector('canvas.seg-canvas[data-drawn="1"]', { timeout: 30000 });
    assert.equal(await page.locator('.seg-view select option').count(), 6);
    await page.waitForFunction(() => /scene_1: 64×48 px/.test(document.querySelector('.seg-counts')?.textContent ?? ''));
    const counts = await page.textContent('.seg-counts');
    const n = counts.match(/correct (\d+), wrong class (\d+), not predicted (\d+), ignored (\d+)/).slice(1).map(Number);
    assert.equal(n.reduce((a, b) => a + b, 0), 64 * 48, counts);
    // The overlay's colours: correct green and the hatched grey border.
    assert.ok((await pixels(page, 'canvas.seg-canvas', '(r, g, b) => r === 0 && g === 200 && b === 0')).n > 1000);
    // A click on the top-left corner: the ignored border.
    await canvas.scrollIntoViewIfNeeded();
    const box = await canvas.boundingBox();
    const s = Math.min(640 / 64, 480 / 48);
    await page.mouse.click(box.x + ((0.5 * s) * box.width) / 640, box.y + ((0.5 * s) * box.height) / 480);
    await page.waitForSelector('.seg-pick[data-verdict="ignored"]');
    // Keyboard: Enter names the classes at the centre; PageDown moves to scene_2.
    await canvas.focus();
    await page.keyboard.press('Enter');
    assert.match(await page.textContent('.seg-pick'), /^pixel \(32, 24\): GT /);
    await page.keyboard.press('PageDown');
    await page.waitForFunction(() => /scene_2:/.test(document.querySelector('.seg-counts')?.textContent ?? ''));
    await page.click('.seg-view .viewer-prev');
    await page.waitForFunction(() => /scene_1:/.test(document.querySelector('.seg-counts')?.textContent ?? ''));
    await noOverflow(page, `segmentation ${width}`);
    await page.locator('.seg-view').scrollIntoViewIfNeeded();
    await shot(page, `viewer-segmentation-${width}`);
    check();
    await context.close();
  });
}
