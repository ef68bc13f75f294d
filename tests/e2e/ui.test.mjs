// Browser tests of the result page's interaction: focus and announcement after Score, the embed's
// Score button, the deviation box and the reasons of missing values, the CSV of binary32 metrics.
//
//   node --test tests/e2e/ui.test.mjs     (needs www/pkg)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { setup, repoRoot, baseUrl, browser, openPage, runOf, score, shot } from './harness.mjs';

const KWS = path.join(repoRoot, 'www', 'examples', 'kws');
const GT = path.join(KWS, 'GroundTruthRelevanceJudgementsSample.xml');
const PRED = path.join(KWS, 'WordSpottingResultsSample.xml');

setup({ requiredFiles: [GT, PRED] });

test('after Score the focus is on the result heading and one sentence names the headline value', async () => {
  const { page, context, check } = await openPage('#/p/kws');
  await page.setInputFiles('#gt-files', GT);
  await page.setInputFiles('#pred-files', PRED);
  await page.focus('#score-button');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.body.dataset.run === 'done');
  const focused = await page.evaluate(() => ({ id: document.activeElement?.id, tag: document.activeElement?.tagName, tabIndex: document.activeElement?.tabIndex }));
  assert.deepEqual(focused, { id: 'results-title', tag: 'H2', tabIndex: -1 });
  const live = page.locator('#result-announce');
  assert.equal(await live.getAttribute('aria-live'), 'polite');
  assert.match(await live.textContent(), /^Result, official mode: MAP 0\.51852\.$/); // the headline: MAP
  // The example buttons land there too.
  await page.click('a.protocol-link[data-protocol="falsid"]');
  assert.equal(await runOf(page, () => page.click('.example-btn')), 'done');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'results-title');
  assert.match(await live.textContent(), /^Result, official mode: \S.* \d+\.\d+( \(\d+ errors?\))?\.$/);
  check();
  await context.close();
});

test("the embed's Score button stays disabled until predictions are present", async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(new URL('examples/embed.html', baseUrl).href);
  await page.locator('#gt-preloaded:not([hidden])').waitFor({ timeout: 20000 });
  assert.equal(await page.locator('#score-button').isDisabled(), true, 'ground truth alone: nothing to score');
  assert.match(await page.locator('#run-hint').textContent(), /predictions/);
  await page.locator('#pred-files').setInputFiles(PRED);
  assert.equal(await page.locator('#score-button').isDisabled(), false);
  await page.locator('#score-button').click();
  await page.waitForFunction(() => document.querySelector('dropscore-evaluator').dataset.run === 'done');
  assert.equal(await page.evaluate(() => document.querySelector('dropscore-evaluator').shadowRoot.activeElement?.id), 'results-title');
  await context.close();
});

test('kws official CSV: binary32 metrics in their shortest binary32 form, the JSON unchanged', async () => {
  const { page, context, check } = await openPage('#/p/kws');
  assert.equal(await runOf(page, () => page.click('.example-btn')), 'done');
  await page.check('input[name=view-mode][value=official]');
  const [jsonDl] = await Promise.all([page.waitForEvent('download'), page.click('button:has-text("Download JSON")')]);
  const report = JSON.parse(fs.readFileSync(await jsonDl.path(), 'utf8'));
  assert.equal(report.items[0].scores.precAt10, 0.5555555820465088, 'the JSON keeps the widened binary32 value');
  const [csvDl] = await Promise.all([page.waitForEvent('download'), page.click('button:has-text("Download CSV")')]);
  const csv = fs.readFileSync(await csvDl.path(), 'utf8');
  // numpy: str(np.float32(0.5555555820465088)) = 0.5555556, 0.44444445, 0.4814815, 0.8
  // The CLI's --format csv (src/render.rs): id, group, then the columns.
  assert.equal(csv, 'id,group,R,n,hits,precAt5,precAt10,ap\nsb0000,,9,48,5,1,0.5555556,0.5555556\nsb0001,,9,79,5,0.8,0.44444445,0.4814815\n');
  for (const [i, row] of csv.trim().split('\n').slice(1).entries()) {
    const cells = row.split(',');
    for (const [j, k] of ['precAt5', 'precAt10', 'ap'].entries()) {
      assert.equal(Math.fround(Number(cells[5 + j])), report.items[i].scores[k], `${row}: ${k} reads back as the report's binary32`);
    }
  }
  // Corrected mode is binary64: written as is.
  await page.check('input[name=view-mode][value=corrected]');
  await page.waitForFunction(() => document.querySelector('.r-details')?.dataset.view === 'corrected');
  const [c2] = await Promise.all([page.waitForEvent('download'), page.click('button:has-text("Download CSV")')]);
  assert.match(fs.readFileSync(await c2.path(), 'utf8'), /sb0000,,9,48,5,1\.0,0\.5555555555555556,0\.5555555555555556/);
  await shot(page, 'ui-kws-csv-1280');
  check();
  await context.close();
});

/** Every "—" of the headline and groups tables, with the reason it carries (inline text, or title + aria-label). */
async function dashes(page) {
  return page.evaluate(() => {
    const out = [];
    for (const td of document.querySelectorAll('table.headline td.hl-value')) {
      const v = td.querySelector('.num, .pending');
      if (v?.textContent.trim() !== '—') continue;
      const why = document.getElementById(v.getAttribute('aria-describedby') ?? '');
      const row = td.closest('tr');
      out.push({ where: `headline ${row.dataset.metric} ${td.dataset.mode}`, reason: why && row.contains(why) ? why.textContent : '', title: v.title });
    }
    for (const td of document.querySelectorAll('section.groups td')) {
      if (td.textContent.trim() !== '—') continue;
      out.push({ where: `groups ${td.closest('tr').querySelector('th').textContent}`, reason: td.getAttribute('aria-label') ?? '', title: td.title });
    }
    return out;
  });
}

test('every "—" carries its reason inline; the deviation box is collapsed and says when the headline is the same', async () => {
  const { page, context, check } = await openPage('#/p/aij2022');
  assert.equal(await runOf(page, () => page.click('.example-btn[data-example="text"]')), 'done');
  await page.locator('.explain .pending').waitFor({ state: 'detached' });
  const d = await dashes(page);
  assert.ok(d.length >= 6, `dashes found: ${JSON.stringify(d)}`);
  for (const x of d) {
    assert.match(x.reason, /not (computed|applicable|computable)/, `${x.where}: no reason shown`);
    assert.ok(x.title, `${x.where}: no title`);
  }
  assert.match(await page.textContent('tr[data-metric="captioning"] .hl-why'), /— in both modes: not computed: needs CLIP scores \(option clip_scores/);
  assert.match(await page.textContent('tr[data-metric="integral"] .hl-why'), /hidden_scores/);
  // The deviation boxes: <details>, closed; only real differences from the official default.
  const boxes = page.locator('details.deviations');
  assert.ok(await boxes.count() >= 1);
  for (const box of await boxes.all()) {
    assert.equal(await box.evaluate((e) => e.open), false, 'collapsed');
    for (const li of await box.locator('li').allTextContents()) {
      const m = /^(\S+) = (.*) deviates from official \((.*)\)$/.exec(li);
      if (m) assert.notEqual(m[2], m[3], li);
    }
  }
  assert.doesNotMatch(await boxes.first().locator('summary').textContent(), /same headline/, 'aij2022 text: the modes differ');
  await shot(page, 'ui-aij2022-dashes-1280');
  check();
  await context.close();

  // kws sample: both modes agree, and the summary line says so.
  const r = await openPage('#/p/kws');
  assert.equal(await runOf(r.page, () => r.page.click('.example-btn[data-example="sample"]')), 'done');
  const summary = r.page.locator('details.deviations[data-mode="corrected"] summary');
  assert.match(await summary.textContent(), /^Corrected run deviates from the official setup \(\d+ differences?\): both modes give the same headline$/);
  assert.equal(await r.page.locator('details.deviations[open]').count(), 0);
  await summary.click();
  assert.equal(await r.page.locator('details.deviations[open] li').first().isVisible(), true, 'opens on click');
  // kws with a blank line: official fails, each official "—" says so, with the location.
  await r.page.click('.example-btn[data-example="edge-blank"]');
  await r.page.waitForFunction(() => document.body.dataset.run === 'done' && document.body.dataset.runs === '2');
  // The cause is said once, in the card above the scores; each official "—" is plain (its title says why).
  assert.match(await r.page.textContent('.cause-card'), /edge_res_blank\.xml:4(:\d+)?: /);
  for (const x of await dashes(r.page)) {
    assert.equal(x.reason, '', `${x.where}: no sentence repeated on the row`);
    assert.match(x.title, /not computed/, x.where);
  }
  assert.equal((await dashes(r.page)).length, 3);
  r.check();
  await r.context.close();
});
