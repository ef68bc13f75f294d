// Browser end-to-end test of the kaggle view's mask overlay (www/views/kaggle.js, src/protocols/kaggle/view.rs):
// the built-in RLE example scored in the page, the images listed worst Dice first, each image's overlay drawn
// from the classes Rust computed (both green, submission alone magenta, solution alone blue), and the counts
// agreeing with the pixels drawn.
//
//   node --test tests/e2e/kaggle-page.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { setup, repoRoot, openPage, runOf } from './harness.mjs';

setup({ requiredFiles: [path.join(repoRoot, 'www', 'examples', 'kaggle', 'rle', 'solution.csv')] });

/** How many canvas pixels are exactly [r, g, b]. */
function count(page, rgb) {
  return page.evaluate((rgb) => {
    const c = document.querySelector('canvas.kaggle-canvas');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] === rgb[0] && d[i + 1] === rgb[1] && d[i + 2] === rgb[2]) n++;
    return n;
  }, rgb);
}

test('kaggle RLE overlay: images worst Dice first, the overlay drawn per image', async () => {
  const { page, context, check } = await openPage('#/p/kaggle');
  assert.equal(await runOf(page, () => page.click('.example-btn')), 'done');
  await page.waitForSelector('canvas.kaggle-canvas[data-drawn="1"]', { timeout: 30000 });
  assert.equal(await page.locator('.kaggle-view select option').count(), 12);
  // The worst image first: img08 (Dice 0.2857: 12 solution pixels, 9 submitted).
  assert.equal(await page.locator('.kaggle-view select').inputValue(), 'img08');
  await page.waitForFunction(() => /img08: 32×24 px/.test(document.querySelector('.kaggle-counts')?.textContent ?? ''));
  const text = await page.textContent('.kaggle-counts');
  const [gt, pred] = text.match(/solution (\d+) pixels, submission (\d+) pixels/).slice(1).map(Number);
  assert.deepEqual([gt, pred], [12, 9], text);
  const c = await page.evaluate(() => document.querySelector('canvas.kaggle-canvas').width / 32);
  const [both, predOnly, gtOnly] = [await count(page, [0, 200, 0]), await count(page, [230, 0, 230]), await count(page, [40, 90, 255])];
  assert.equal((both + gtOnly) / (c * c), gt, 'the solution pixels are green or blue');
  assert.equal((both + predOnly) / (c * c), pred, 'the submission pixels are green or magenta');
  assert.equal(2 * both / (c * c) / (gt + pred), 2 * 3 / 21, 'Dice from the drawn pixels');
  // Another image: both masks overlap, so green and the two other colours appear.
  await page.selectOption('.kaggle-view select', 'img01');
  await page.waitForFunction(() => /img01: /.test(document.querySelector('.kaggle-counts')?.textContent ?? ''));
  await page.waitForSelector('canvas.kaggle-canvas[data-drawn="1"]');
  assert.ok((await count(page, [0, 200, 0])) > 0, 'pixels of both masks are green');
  check();
  await context.close();
});
