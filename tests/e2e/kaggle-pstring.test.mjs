// The kaggle view of PredictionString boxes (www/views/kaggle.js, src/protocols/kaggle/pstring_view.rs): the
// example's solution and submission dropped with metric = box_ap, the images listed most FP + FN first in a
// table whose ids choose the image, and the chosen image's solution and submission boxes drawn (TP green, FP
// magenta, FN blue) with the counts of the report's per-image row; at 390 and 1280 px.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { setup, repoRoot, openPage, dropFiles, score } from './harness.mjs';

const DIR = path.join(repoRoot, 'examples', 'kaggle', 'prediction-string');
setup({ requiredFiles: [path.join(DIR, 'solution.csv')] });

/** How many canvas pixels are exactly [r, g, b]. */
function count(page, rgb) {
  return page.evaluate((rgb) => {
    const c = document.querySelector('canvas.pstring-canvas');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] === rgb[0] && d[i + 1] === rgb[1] && d[i + 2] === rgb[2]) n++;
    return n;
  }, rgb);
}

async function setOption(page, name, value) {
  const sel = `[name=${name}]`;
  if (await page.locator(`select${sel}`).count()) await page.selectOption(`select${sel}`, value);
  else await page.fill(`input${sel}`, value);
  await page.dispatchEvent(sel, 'change');
}

for (const width of [1280, 390]) {
  test(`${width} px: PredictionString boxes of a chosen image, TP / FP / FN as the report counts them`, async () => {
    const { page, context, check } = await openPage('#/p/kaggle', { width, height: 900 });
    await dropFiles(page, '#zone-gt', [path.join(DIR, 'solution.csv')]);
    await dropFiles(page, '#zone-pred', [path.join(DIR, 'submission.csv')]);
    await page.click('#options > summary');
    await setOption(page, 'metric', 'box_ap');
    await score(page);
    // The result itself: a canvas whose boxes are drawn.
    await page.waitForSelector('.pstring-view canvas.pstring-canvas[data-drawn="1"]', { timeout: 30000 });
    const rows = await page.evaluate(() => [...document.querySelectorAll('.pstring-images tbody tr')]
      .map((tr) => [...tr.querySelectorAll('th, td')].map((c) => c.textContent)));
    assert.equal(rows.length, 12);
    const errors = (r) => Number(r[4]) + Number(r[5]);
    assert.ok(rows.every((r, i) => i === 0 || errors(rows[i - 1]) >= errors(r)), 'most FP + FN first');
    // Choose an image from the table: its boxes are drawn and listed.
    const [id, gtBoxes, dets, tp, fp, fn] = rows[3];
    await page.click(`.pstring-images tr[data-image="${id}"] button.pstring-pick`);
    await page.waitForSelector(`canvas.pstring-canvas[data-image="${id}"][data-drawn="1"]`);
    assert.equal(await page.getAttribute(`.pstring-images tr[data-image="${id}"] button`, 'aria-pressed'), 'true');
    assert.equal(await page.inputValue('.pstring-view select'), id);
    const statuses = await page.evaluate(() => [...document.querySelectorAll('.pstring-view table.det-boxes tbody tr')].map((tr) => tr.dataset.status));
    const n = (s) => statuses.filter((x) => x === s).length;
    assert.equal(statuses.length, Number(gtBoxes) + Number(dets), 'every box listed');
    assert.deepEqual([n('TP') / 2, n('FP'), n('FN')], [Number(tp), Number(fp), Number(fn)], 'TP counted on both sides');
    assert.match(await page.textContent('.pstring-status'), new RegExp(`^${id}: .*${tp} TP, ${fp} FP, ${fn} FN\\.$`));
    assert.ok(await count(page, [0, 200, 0]) > 0, 'matched boxes are green');
    if (Number(fp)) assert.ok(await count(page, [230, 0, 230]) > 0, 'false positives are magenta');
    if (Number(fn)) assert.ok(await count(page, [40, 90, 255]) > 0, 'missed boxes are blue');
    const label = await page.getAttribute('canvas.pstring-canvas', 'aria-label');
    assert.match(label, new RegExp(`^${id}: ${tp} TP, ${fp} FP, ${fn} FN\\.`));
    const over = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(over <= 0, `${width} px: the page overflows by ${over} px`);
    await page.locator('.pstring-view').screenshot({ path: path.join(import.meta.dirname, 'artifacts', `kaggle-pstring-${width}.png`) });
    check();
    await context.close();
  });
}
