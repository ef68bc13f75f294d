// Browser end-to-end tests of swapped inputs in every protocol (kws has its own in session.test.mjs): files
// dropped in the wrong zones give one plain sentence and "Swap and score", nothing is scored the wrong way
// round, and the button gives exactly the numbers of the files dropped the right way round.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { setup, repoRoot, openPage, runOf, headline, score, dropFiles } from './harness.mjs';

const data = (...p) => path.join(repoRoot, 'tests', 'data', ...p);
const example = (...p) => path.join(repoRoot, 'www', 'examples', ...p);

const CASES = [
  {
    protocol: 'falsid',
    gt: [data('falsid', 'worked', 'gt_merged.csv')],
    pred: [data('falsid', 'worked', 'pred_merged.csv')],
  },
  {
    protocol: 'chalearn-ce',
    gt: [data('chalearn-ce', 'ap_example', 'input', 'ref', 'La_Tomatina_test.txt')],
    pred: [data('chalearn-ce', 'ap_example', 'input', 'res', 'La_Tomatina.txt')],
  },
  {
    protocol: 'aij2022',
    gt: [data('aij2022', 'mathqa_gt.json')],
    pred: [data('aij2022', 'mathqa_pred.json')],
  },
  {
    // Folders named gt/ and pred/ (the folder picker keeps them in the paths): the names tell the roles.
    protocol: 'fest',
    folders: { gt: data('fest', 'synthetic', 'gt'), pred: data('fest', 'synthetic', 'pred') },
  },
  {
    protocol: 'detection',
    gt: [example('detection', 'gt', 'instances.json')],
    pred: [example('detection', 'pred', 'results.json')],
  },
];

setup({ requiredFiles: CASES.flatMap((c) => [...(c.gt ?? []), ...(c.pred ?? [])]) });

/** Puts `gt` into the ground-truth zone and `pred` into the prediction zone (files, or folders via the picker). */
async function give(page, c, swapped) {
  const [g, p] = swapped ? ['pred', 'gt'] : ['gt', 'pred'];
  if (c.folders) {
    await page.setInputFiles('#gt-folder', c.folders[g]);
    await page.setInputFiles('#pred-folder', c.folders[p]);
    await page.locator('#gt-list .file-path').first().waitFor();
    await page.locator('#pred-list .file-path').first().waitFor();
  } else {
    await dropFiles(page, '#zone-gt', c[g]);
    await dropFiles(page, '#zone-pred', c[p]);
  }
  if (c.options) {
    await page.click('#options > summary');
    for (const [name, value] of Object.entries(c.options)) {
      await page.fill(`input[name=${name}]`, value);
      await page.dispatchEvent(`input[name=${name}]`, 'change');
    }
  }
}

for (const c of CASES) {
  test(`${c.protocol}: inputs dropped the wrong way round: one sentence, nothing scored, "Swap and score" gives the right numbers`, async () => {
    let right;
    {
      const { page, context, check } = await openPage(`#/p/${c.protocol}`);
      await give(page, c, false);
      await score(page);
      right = { official: await headline(page, 'official'), corrected: await headline(page, 'corrected') };
      assert.equal(await page.locator('#results .swap-notice').count(), 0, 'no notice the right way round');
      check();
      await context.close();
    }
    const { page, context, check } = await openPage(`#/p/${c.protocol}`);
    await give(page, c, true);
    await score(page);
    const notice = page.locator('#results .swap-notice');
    await notice.waitFor();
    assert.match(await notice.locator('.swap-sentence').textContent(), /swapped/i);
    const shown = await headline(page, 'official');
    assert.ok(Object.values(shown).every((v) => !/\d/.test(v ?? '')), `no number shown: ${JSON.stringify(shown)}`);
    assert.equal(await runOf(page, () => notice.locator('button.swap-button').click()), 'done');
    assert.equal(await page.locator('#results .swap-notice').count(), 0, 'the notice is gone');
    assert.deepEqual(await headline(page, 'official'), right.official);
    assert.deepEqual(await headline(page, 'corrected'), right.corrected);
    check();
    await context.close();
  });
}
