// The page's intervals come after the headline (docs/specs/statistics.md section 6): the score's run ends and the
// headline is drawn while the bootstrap still runs, with a progress bar and a Cancel button; Cancel stops the
// bootstrap and keeps the headline;
// without Cancel the interval arrives and equals the command line's.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { setup, openPage, runOf, shot, findCli, exampleFile } from './harness.mjs';

setup();

async function setOption(page, name, value) {
  await page.click('#options > summary');
  await page.fill(`input[name=${name}]`, value);
  await page.dispatchEvent(`input[name=${name}]`, 'change');
}

test('the headline comes first; Cancel stops the bootstrap and keeps the headline', async () => {
  const { page, context, check } = await openPage('#/p/classification', { width: 1280, height: 900 });
  // A million replicates of the example: minutes of work, so the run is certainly still under way below.
  await setOption(page, 'bootstrap', '1000000');
  const state = await runOf(page, () => page.click('button.example-btn[data-example="scores"]'));
  assert.equal(state, 'done', await page.textContent('#status-text'));
  const primary = await page.textContent('table.hl-main tr.hl-primary');
  assert.ok(primary && primary.trim().length > 0, 'the headline is drawn');
  assert.equal(await page.locator('.stats-interval .stats-value').count(), 0, 'the interval is not there yet');
  await page.waitForSelector('.stats-interval progress.stats-progress');
  await page.click('.stats-interval button.stats-cancel');
  // The result of Cancel itself: the notice that replaces the progress bar.
  await page.waitForSelector('.stats-interval .stats-cancelled', { timeout: 30000 });
  assert.equal(await page.textContent('table.hl-main tr.hl-primary'), primary, 'the headline stays');
  assert.equal(await page.locator('.stats-interval .stats-value').count(), 0);
  // The bootstrap stopped: the interval never arrives (a restarted worker would show an error instead).
  await page.waitForTimeout(1500);
  assert.equal(await page.locator('.stats-interval .stats-value, .stats-interval .notice-error').count(), 0);
  await shot(page, 'stats-cancelled');
  check();
  await context.close();
});

test('without Cancel the interval arrives after the headline and equals the command line\'s', async () => {
  const { page, context, check } = await openPage('#/p/classification', { width: 390, height: 900 });
  await setOption(page, 'bootstrap', '3000');
  const state = await runOf(page, () => page.click('button.example-btn[data-example="scores"]'));
  assert.equal(state, 'done', await page.textContent('#status-text'));
  // The result itself: the value element exists only once the engine answered.
  await page.waitForSelector('.stats-interval .stats-value', { timeout: 120000 });
  const got = await page.evaluate(() => {
    const v = /** @type {HTMLElement} */ (document.querySelector('.stats-interval .stats-value'));
    return { low: v.dataset.low, high: v.dataset.high, metric: document.querySelector('table.hl-main tr.hl-primary')?.dataset.metric,
      progress: document.querySelectorAll('.stats-interval progress').length };
  });
  assert.equal(got.progress, 0, 'the progress bar is gone');
  const bin = findCli();
  if (bin) {
    const ref = JSON.parse(execFileSync(bin, ['classification', '--gt', exampleFile('examples/classification/gt.csv'), '--pred',
      exampleFile('examples/classification/pred_scores.csv'), '--set', 'bootstrap=3000', '--format', 'json'], { encoding: 'utf8' }));
    assert.equal(got.low, String(ref.intervals[got.metric].low));
    assert.equal(got.high, String(ref.intervals[got.metric].high));
  }
  check();
  await context.close();
});
