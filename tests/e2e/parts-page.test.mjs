// Public and private parts in the page (docs/specs/statistics.md section 4): a Kaggle solution with a `Usage`
// column dropped with a submission (MAP@12, the `kaggle` protocol): the headline is the whole's (the Ignored
// row in neither), and under it one line per part, worded as the engine words it (src/render.rs parts_lines);
// at 390 and 1280 px.
//
//   node --test tests/e2e/parts-page.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setup, openPage, dropFiles, score, shot } from './harness.mjs';

setup();

// AP@12 per customer (Kaggle's apk: hits at their ranks over min(|actual|, 12)): a 1, b 0, c 1, d 1/2, e in no
// part. Public (a, c): 1; private (b, d): 0.25; the whole (a to d): 0.625.
const SOLUTION = 'customer_id,articles,Usage\na,1 2,Public\nb,3,Private\nc,1,public\nd,4 5,PRIVATE\ne,7,Ignored\n';
const SUBMISSION = 'customer_id,articles\na,1 2\nb,2 4\nc,1\nd,4\ne,8\n';

function files() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dropscore-parts-page-'));
  fs.writeFileSync(path.join(dir, 'solution.csv'), SOLUTION);
  fs.writeFileSync(path.join(dir, 'submission.csv'), SUBMISSION);
  return dir;
}

for (const width of [1280, 390]) {
  test(`${width} px: a solution's Usage column gives each part's MAP under the headline`, async () => {
    const dir = files();
    const { page, context, check } = await openPage('#/p/kaggle', { width, height: 900 });
    await dropFiles(page, '#zone-gt', [path.join(dir, 'solution.csv')]);
    await dropFiles(page, '#zone-pred', [path.join(dir, 'submission.csv')]);
    await page.click('#options > summary');
    if (await page.locator('select[name=metric]').count()) await page.selectOption('select[name=metric]', 'map');
    else await page.fill('input[name=metric]', 'map');
    await page.dispatchEvent('[name=metric]', 'change');
    await score(page);
    // The result itself: the list exists only once the engine answered with parts.
    await page.waitForSelector('ul.hl-parts li', { timeout: 60000 });
    const lines = await page.evaluate(() => [...document.querySelectorAll('ul.hl-parts li')].map((li) => li.textContent));
    assert.deepEqual(lines, ['public part: map 1.00000', 'private part: map 0.25000']);
    const whole = await page.evaluate(() => document.querySelector('table.hl-main tr.hl-primary td')?.textContent.trim());
    assert.equal(whole, '0.62500');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `no horizontal scroll (${overflow} px)`);
    await shot(page, `parts-page-${width}`);
    check();
    await context.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
}
