// The compare view's scatter of per-unit scores (src/render/compare_plot.rs, drawn by www/plots.js): regression's
// houses example against a second submission, one point per distinct pair of row scores (minus the absolute
// error under A and under B), the counts of the three colours equal to the wins, ties and losses of the table,
// the verdict sentence shown; at 390 and 1280 px without overflow.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { setup, openPage, runOf, shot, exampleFile } from './harness.mjs';

setup();

const PRED_B = path.join(import.meta.dirname, 'fixtures', 'stats', 'pred_b.csv');

/** `id → number` of a two-column CSV with a header. */
function column(file) {
  const rows = fs.readFileSync(file, 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
  return new Map(rows.map(([id, v]) => [id, Number(v)]));
}

/** The distinct (A, B) pairs of per-row scores and how many rows A wins, ties and loses, from the files. */
function expected() {
  const gt = column(exampleFile('examples/regression/gt.csv'));
  const a = column(exampleFile('examples/regression/pred.csv'));
  const b = column(PRED_B);
  const pairs = new Set();
  const sides = [0, 0, 0];
  for (const [id, y] of gt) {
    const sa = -Math.abs(a.get(id) - y);
    const sb = -Math.abs(b.get(id) - y);
    pairs.add(`${sa} ${sb}`);
    const tie = sa === sb || Math.abs(sa - sb) <= 1e-12 * Math.max(Math.abs(sa), Math.abs(sb));
    sides[tie ? 1 : sa > sb ? 0 : 2] += 1;
  }
  return { points: pairs.size, sides, rows: gt.size };
}

for (const width of [1280, 390]) {
  test(`${width} px: the compare view draws one point per distinct pair of row scores, and the verdict`, async () => {
    const { page, context, check } = await openPage('#/p/regression', { width, height: 900 });
    const state = await runOf(page, () => page.click('button.example-btn[data-example="houses"]'));
    assert.equal(state, 'done', await page.textContent('#status-text'));
    await page.click('.compare-zone > summary');
    await page.setInputFiles('.compare-zone input.compare-files', PRED_B);
    await page.click('.compare-zone button.compare-go');
    // The result itself: the scatter's figure exists only once the engine answered.
    await page.waitForSelector('.compare-view .compare-scatter figure[data-plot="compare-units"] svg, .compare-refusal', { timeout: 120000 });
    assert.equal(await page.locator('.compare-refusal').count(), 0, 'the comparison ran');
    const want = expected();
    const got = await page.evaluate(() => {
      const fig = document.querySelector('.compare-scatter figure');
      const groups = [...fig.querySelectorAll('svg g.plot-line')];
      return {
        points: fig.querySelectorAll('svg circle.plot-point').length,
        attr: Number(/** @type {HTMLElement} */ (document.querySelector('.compare-scatter')).dataset.points),
        perSeries: groups.map((g) => g.querySelectorAll('circle.plot-point').length),
        legend: [...fig.querySelectorAll('.plot-legend li')].map((li) => li.textContent),
        title: fig.querySelector('svg title')?.textContent,
        desc: fig.querySelector('svg desc')?.textContent,
        note: document.querySelector('.compare-scatter-note')?.textContent,
        wtl: document.querySelector('.compare-table tr[data-key="Units: A wins / ties / B wins"] td')?.textContent,
        verdict: document.querySelector('.compare-verdict')?.textContent,
      };
    });
    assert.equal(got.points, want.points, 'one point per distinct pair');
    assert.equal(got.attr, want.points);
    assert.deepEqual(got.perSeries.slice(0, 3).reduce((s, n) => s + n, 0), want.points);
    assert.equal(got.wtl, want.sides.join(' / '), 'the table counts as the files do');
    assert.deepEqual(got.legend.slice(0, 3), [`A better (${want.sides[0]} rows)`, `tie (${want.sides[1]} rows)`, `B better (${want.sides[2]} rows)`]);
    assert.equal(got.title, 'Per-row scores: A against B');
    assert.match(got.desc, new RegExp(`scatter of ${want.rows} rows' scores`));
    assert.equal(got.note, `${want.rows} rows, ${want.points} distinct pairs of scores, each drawn once`);
    assert.match(got.verdict, /^(A is better than B|B is better than A|A and B are not distinguishable) on /);
    // The data behind the points is reachable by keyboard: the plot's data table in a <details>.
    assert.equal(await page.locator('.compare-scatter details.plot-data summary').count(), 1);
    const over = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(over <= 0, `${width} px: the page overflows by ${over} px`);
    await page.locator('.compare-view').screenshot({ path: path.join(import.meta.dirname, 'artifacts', `compare-scatter-${width}.png`) });
    await shot(page, `compare-scatter-page-${width}`);
    check();
    await context.close();
  });
}
