// The page keeps both modes' reports but computes the interval of the one it shows (www/stats.js); the downloads
// of both carry the intervals the command line writes (src/wasm/stats.rs `complete`, src/wasm/page.rs `export`):
// the shown mode's once its interval arrived, the other mode's computed at the download.
// Without DROPSCORE_BIN, the CLI's intervals are not compared (the downloads still must have intervals).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { setup, openPage, runOf, findCli, exampleFile, downloadJson } from './harness.mjs';

setup();

test('both kept modes download with the CLI\'s intervals', async () => {
  const { page, context, check } = await openPage('#/p/classification', { width: 1280, height: 900 });
  await page.click('#options > summary');
  await page.fill('input[name=bootstrap]', '200');
  await page.dispatchEvent('input[name=bootstrap]', 'change');
  const state = await runOf(page, () => page.click('button.example-btn[data-example="scores"]'));
  assert.equal(state, 'done', await page.textContent('#status-text'));
  // The result itself: the value element exists only once the engine answered.
  await page.waitForSelector('.stats-interval .stats-value', { timeout: 60000 });
  const shown = await page.evaluate(() => /** @type {HTMLElement} */ (document.querySelector('.stats-box')).dataset.mode);
  const other = shown === 'official' ? 'corrected' : 'official';
  await page.waitForSelector(`input[name=view-mode][value=${other}]:not([disabled])`, { timeout: 60000 });
  const bin = findCli();
  for (const mode of [other, shown]) {
    const got = JSON.parse(await downloadJson(page, mode));
    assert.equal(got.mode, mode);
    assert.ok(got.statistics, `${mode}: statistics`);
    assert.ok(Object.keys(got.intervals ?? {}).length > 0, `${mode}: the download has intervals`);
    if (bin) {
      const ref = JSON.parse(execFileSync(bin, ['classification', '--gt', exampleFile('examples/classification/gt.csv'), '--pred',
        exampleFile('examples/classification/pred_scores.csv'), '--mode', mode, '--set', 'bootstrap=200', '--format', 'json'], { encoding: 'utf8' }));
      assert.deepEqual(got.intervals, ref.intervals, `${mode}: the CLI's intervals`);
    }
  }
  check();
  await context.close();
});
