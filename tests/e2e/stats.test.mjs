// Statistics on the page (docs/specs/statistics.md sections 2 and 3): with `bootstrap` set in the options form,
// the headline metric shows its interval as the CLI computes it and a replicate histogram; "Compare with another
// submission" gives the numbers of `dropscore compare --format json`; nothing overflows at 390 and 1280 px.
// Without DROPSCORE_BIN, the CLI's numbers are not compared (the page is still checked).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { setup, openPage, runOf, shot, findCli, exampleFile } from './harness.mjs';

setup();

const PRED_B = path.join(import.meta.dirname, 'fixtures', 'stats', 'pred_b.csv');

/** The CLI's JSON for `args` (exit status 1, input errors, still prints JSON). */
function cli(args) {
  const bin = findCli();
  if (!bin) return null;
  try {
    return JSON.parse(execFileSync(bin, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
  } catch (e) {
    if (e.status === 1 && e.stdout) return JSON.parse(e.stdout);
    throw e;
  }
}

async function setOption(page, name, value) {
  await page.click('#options > summary');
  await page.fill(`input[name=${name}]`, value);
  await page.dispatchEvent(`input[name=${name}]`, 'change');
}

/** No element wider than the viewport (a horizontal scrollbar). */
async function assertNoOverflow(page, width) {
  const over = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(over <= 0, `${width} px: the page overflows by ${over} px`);
}

for (const width of [1280, 390]) {
  test(`${width} px: classification with bootstrap = 200 shows the CLI's interval and a histogram`, async () => {
    const { page, context, check } = await openPage('#/p/classification', { width, height: 900 });
    await setOption(page, 'bootstrap', '200');
    const state = await runOf(page, () => page.click('button.example-btn[data-example="scores"]'));
    assert.equal(state, 'done', await page.textContent('#status-text'));
    // The result itself: the value element exists only once the engine answered.
    await page.waitForSelector('.stats-interval .stats-value', { timeout: 60000 });
    const got = await page.evaluate(() => {
      const v = /** @type {HTMLElement} */ (document.querySelector('.stats-interval .stats-value'));
      return { text: v.textContent, low: v.dataset.low, high: v.dataset.high, bars: document.querySelectorAll('.stats-hist .stats-bar').length,
        heading: document.querySelector('.stats-heading')?.textContent };
    });
    assert.match(got.text, /^\S+ \[\S+, \S+\]$/);
    assert.ok(got.bars > 0, 'a replicate histogram');
    assert.match(got.heading, /95 % bootstrap intervals \(200 replicates/);
    const ref = cli(['classification', '--gt', exampleFile('examples/classification/gt.csv'), '--pred', exampleFile('examples/classification/pred_scores.csv'),
      '--set', 'bootstrap=200', '--format', 'json']);
    if (ref) {
      const metric = await page.evaluate(() => document.querySelector('table.hl-main tr.hl-primary')?.dataset.metric);
      assert.equal(got.low, String(ref.intervals[metric].low));
      assert.equal(got.high, String(ref.intervals[metric].high));
    }
    await assertNoOverflow(page, width);
    await shot(page, `stats-interval-${width}`);
    check();
    await context.close();
  });

  test(`${width} px: regression compare zone gives the CLI's compare numbers`, async () => {
    const { page, context, check } = await openPage('#/p/regression', { width, height: 900 });
    const state = await runOf(page, () => page.click('button.example-btn[data-example="houses"]'));
    assert.equal(state, 'done', await page.textContent('#status-text'));
    await page.click('.compare-zone > summary');
    await page.setInputFiles('.compare-zone input.compare-files', PRED_B);
    await page.click('.compare-zone button.compare-go');
    await page.waitForSelector('.compare-view .compare-verdict, .compare-refusal', { timeout: 120000 });
    const refusal = await page.$('.compare-refusal');
    assert.equal(refusal && await refusal.textContent(), null, 'the comparison ran');
    const got = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('.compare-table tr')]
      .map((tr) => [/** @type {HTMLElement} */ (tr).dataset.key, tr.querySelector('td')?.textContent])));
    const verdict = await page.textContent('.compare-verdict');
    assert.ok(await page.locator('.compare-view .stats-hist .stats-bar').count() > 0, 'the distribution of Δ is drawn');
    const ref = cli(['compare', 'regression', '--gt', exampleFile('examples/regression/gt.csv'), '--pred', exampleFile('examples/regression/pred.csv'),
      '--vs', PRED_B, '--format', 'json', '--quiet']);
    if (ref) {
      const c = ref.compare;
      assert.equal(got['Δ = A − B'], String(c.delta));
      assert.equal(got['Interval of Δ'], `[${c.low}, ${c.high}]`);
      assert.equal(got['p (paired bootstrap)'], String(c.p_bootstrap));
      assert.equal(got['p (randomization)'], String(c.p_randomization));
      assert.equal(got['Units: A wins / ties / B wins'], `${c.wins} / ${c.ties} / ${c.losses}`);
      assert.equal(verdict, c.verdict);
    }
    await assertNoOverflow(page, width);
    await shot(page, `stats-compare-${width}`);
    check();
    await context.close();
  });
}
