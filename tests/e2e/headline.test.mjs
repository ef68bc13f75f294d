// One headline per protocol: each protocol's built-in example shows the
// leaderboard metric large and first (table.hl-main, row tr.hl-primary), the measures shown with it beside it
// (tr.hl-beside), every other measure in the "All measures" table, and a status line that names the headline
// only. Screenshots of every result at 390 and 1280 px go to tests/e2e/artifacts/headline-<protocol>-<width>.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, openPage, runOf, shot } from './harness.mjs';

setup();

/** protocol, example id, headline id, ids beside it (in order), the headline's label in the status line */
const CASES = [
  ['kws', 'sample', 'map', ['precAt5', 'precAt10'], 'MAP'],
  ['kws', 'trec-sample', 'map', [], 'map'],
  ['falsid', 'worked', 'accuracy', ['uar'], 'Overall: mean per-subset accuracy (page formula)'],
  ['chalearn-ce', 'ap-example', 'map', [], 'mAP'],
  ['fest', 'synthetic', 'line_iu', [], 'Line IU (leaderboard)'],
  // The integral S needs the six open tasks and the hidden values: the first computed task stands first, S beside it.
  ['aij2022', 'text', 'textqa', ['integral'], 'TextQA'],
  ['aij2022', 'fid', 'generation', [], 'ImageGeneration'], // one task given: that task's score
  ['classification', 'scores', 'accuracy', [], 'accuracy'],
  ['regression', 'houses', 'root_mean_squared_error', [], 'root_mean_squared_error'],
  ['detection', 'shapes', 'AP', [], 'AP'],
];

async function layout(page) {
  return page.evaluate(() => {
    const ids = (sel) => [...document.querySelectorAll(sel)].map((tr) => tr.dataset.metric);
    return {
      primary: ids('table.hl-main tbody tr.hl-primary'),
      beside: ids('table.hl-main tbody tr.hl-beside'),
      main: ids('table.hl-main tbody tr'),
      all: ids('table.hl-all tbody tr'),
      allTitle: document.querySelector('#all-measures-title')?.textContent ?? null,
      status: document.querySelector('#status-text')?.textContent ?? '',
      primaryFont: parseFloat(getComputedStyle(document.querySelector('tr.hl-primary td .num, tr.hl-primary td .pending')).fontSize),
      otherFont: (() => {
        const el = document.querySelector('table.hl-all tbody tr td .num');
        return el ? parseFloat(getComputedStyle(el).fontSize) : 0;
      })(),
    };
  });
}

for (const [protocol, example, primary, beside, label] of CASES) {
  test(`${protocol} ${example}: ${primary} is the one headline, large and first`, async () => {
    for (const width of [1280, 390]) {
      const { page, context, check } = await openPage(`#/p/${protocol}`, { width, height: 900 });
      const state = await runOf(page, () => page.click(`button.example-btn[data-example="${example}"]`));
      assert.equal(state, 'done', await page.textContent('#status-text'));
      const got = await layout(page);
      assert.deepEqual(got.primary, [primary], `${width} px`);
      assert.deepEqual(got.beside, beside);
      assert.deepEqual(got.main, [primary, ...beside], 'the headline table holds the headline and what is beside it only');
      assert.ok(!got.all.includes(primary) && beside.every((b) => !got.all.includes(b)), 'All measures holds the others');
      if (got.all.length) assert.equal(got.allTitle, 'All measures');
      assert.ok(got.primaryFont > got.otherFont, `headline ${got.primaryFont}px larger than the other measures ${got.otherFont}px`);
      // The status line names the headline only: one metric, no list.
      assert.match(got.status, new RegExp(`Official: ${label.replace(/[()]/g, '\\$&')} (\\S+|—)( \\([^)]*\\))?\\.$`), got.status);
      for (const other of got.all) assert.ok(!got.status.includes(` ${other} `), `status names ${other}: ${got.status}`);
      await shot(page, `headline-${protocol}-${example}-${width}`);
      check();
      await context.close();
    }
  });
}
