// Browser end-to-end tests of the dropscore page (index.html + www/) with the real wasm engine: the shell and kws.
//
//   node --test tests/e2e/
//
// Needs: www/pkg (scripts/build-wasm), www/examples/kws, tests/data/kws, /usr/bin/chromium, npm playwright-core.
// Environment: see harness.mjs; DROPSCORE_E2E_DATA overrides the kws test data folder (default tests/data/kws).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  setup, repoRoot, baseUrl, openPage, runOf, headline, score, shot, dropFiles, storedZip,
  downloadJson, compareWithCli, registry,
} from './harness.mjs';

const dataDir = path.resolve(process.env.DROPSCORE_E2E_DATA ?? path.join(repoRoot, 'tests', 'data', 'kws'));
const sampleGt = path.join(dataDir, 'rusteval', 'GroundTruthRelevanceJudgementsSample.xml');
const samplePred = path.join(dataDir, 'rusteval', 'WordSpottingResultsSample.xml');
const edgeGt = path.join(dataDir, 'edge', 'gt.xml');
const edgeBlank = path.join(dataDir, 'edge', 'res_blank.xml');
const bigPred = path.join(dataDir, 'synthetic', 'SYNTH_TRACK_I_Bentham.xml.gz');
const bigGt = path.join(dataDir, 'rusteval', 'TRACK_I_Bentham_ICFHR2014.RelevanceJudgements.xml');

const SAMPLE = { precAt5: '0.90000', precAt10: '0.50000', map: '0.51852' };

setup({ requiredFiles: [sampleGt, samplePred, edgeGt, edgeBlank] });

test('lists every protocol of the registry, in its order; the hash selects one; unbuilt ones cannot score', async () => {
  const { page, context, check } = await openPage('#/p/kws');
  const ids = await page.$$eval('a.protocol-link', (as) => as.map((a) => a.dataset.protocol));
  const listed = (await registry()).map((p) => p.id);
  assert.deepEqual(ids, listed);
  assert.ok(listed.length >= 9, `the five protocols and the four metric families at least: ${listed}`);
  assert.equal(await page.getAttribute('a.protocol-link[aria-current=page]', 'data-protocol'), 'kws');
  assert.match(await page.textContent('#zone-gt-expect'), /\S/, 'what to drop as ground truth');
  assert.match(await page.textContent('#zone-pred-expect'), /\S/, 'what to drop as predictions');
  assert.ok(await page.locator('#options-body .opt-row').count() > 0, 'kws shows its options');

  const unbuilt = await page.$$eval('a.protocol-link.is-unbuilt', (as) => as.map((a) => a.dataset.protocol));
  for (const id of unbuilt) {
    assert.match(await page.textContent(`a.protocol-link[data-protocol="${id}"]`), /not built yet/);
  }
  if (unbuilt.length) {
    await page.click(`a.protocol-link[data-protocol="${unbuilt[0]}"]`);
    await page.waitForFunction((id) => location.hash === `#/p/${id}`, unbuilt[0]);
    assert.equal(await page.getAttribute('a.protocol-link[aria-current=page]', 'data-protocol'), unbuilt[0]);
    await page.setInputFiles('#gt-files', sampleGt);
    assert.equal(await page.isDisabled('#score-button'), true, 'an unbuilt protocol cannot score');
    assert.match(await page.textContent('#run-hint'), /not built yet/);
  }
  await page.goto(new URL('#/p/kws', baseUrl).href);
  await page.waitForFunction(() => document.querySelector('a.protocol-link[aria-current=page]')?.dataset.protocol === 'kws');
  check();
  await context.close();
});

test('kws: "Try an example" scores the sample in one click (official and corrected)', async () => {
  const { page, context, check } = await openPage('#/p/kws');
  assert.equal(await runOf(page, () => page.click('.example-btn')), 'done');
  assert.deepEqual(await headline(page, 'official'), SAMPLE);
  assert.deepEqual(await headline(page, 'corrected'), SAMPLE);
  assert.equal(await page.locator('#gt-list .file').count(), 1);
  assert.equal(await page.locator('#pred-list .file').count(), 1);
  // explanation of the differences is shown (a list, or the "same result" sentence)
  await page.waitForSelector('.explain .explain-list, .explain p:not(.pending)');
  // per-query table and plots
  assert.deepEqual(await page.$$eval('.items-table tbody tr.item-row', (trs) => trs.map((tr) => tr.dataset.item)), ['sb0000', 'sb0001']);
  assert.ok(await page.locator('figure.plot svg[role=img]').count() >= 2, 'plots are drawn');
  assert.ok(await page.locator('figure.plot svg title').count() >= 2, 'plots have <title>');
  await shot(page, 'kws-example-1280');
  check();
  await context.close();
});

test('kws: the trec_eval example (qrels + run) shows trec_eval numbers', async () => {
  const { page, context, check } = await openPage('#/p/kws');
  const button = page.locator('.example-btn[data-example="trec-sample"]');
  if (!(await button.count())) {
    await context.close();
    return; // no trec example in this build
  }
  assert.equal(await runOf(page, () => button.click()), 'done');
  const official = await headline(page, 'official');
  // docs/specs/kws.md 7.1: trec_eval on sample.qrels.bin + sample.run
  assert.equal(official.map, '0.5185');
  assert.equal(official.P_5, '0.9000');
  assert.equal(official.P_10, '0.4500');
  assert.equal(official.num_q, '2');
  check();
  await context.close();
});

test('kws: files through the file inputs give the same numbers; JSON and CSV downloads', async () => {
  const { page, context, check } = await openPage('#/p/kws');
  await page.setInputFiles('#gt-files', sampleGt);
  await page.setInputFiles('#pred-files', samplePred);
  await page.locator('#gt-list .file-path', { hasText: path.basename(sampleGt) }).waitFor();
  await page.locator('#pred-list .file-path', { hasText: path.basename(samplePred) }).waitFor();
  await score(page);
  assert.deepEqual(await headline(page, 'official'), SAMPLE);

  const json = await downloadJson(page, 'official');
  const report = JSON.parse(json);
  assert.equal(report.schema, 1);
  assert.equal(report.protocol, 'kws');
  assert.equal(report.mode, 'official');
  assert.ok(json.endsWith('\n'));
  await compareWithCli(page, sampleGt, samplePred);
  await page.check('input[name=view-mode][value=official]');

  const [csvDl] = await Promise.all([page.waitForEvent('download'), page.click('button:has-text("Download CSV")')]);
  const csv = fs.readFileSync(await csvDl.path(), 'utf8').trim().split(/\r?\n/);
  assert.equal(csv.length, 3, 'header + 2 queries');
  assert.match(csv[0], /^id,/); // the CLI's --format csv
  assert.match(csv[1], /^sb0000,/);
  check();
  await context.close();
});

test('kws: simulated drag and drop onto the zones', async () => {
  const { page, context, check } = await openPage('#/p/kws');
  await dropFiles(page, '#zone-gt', [sampleGt]);
  await dropFiles(page, '#zone-pred', [samplePred]);
  await score(page);
  assert.deepEqual(await headline(page, 'official'), SAMPLE);
  // changing the inputs marks the result as stale; scoring again replaces it
  await page.setInputFiles('#pred-files', edgeBlank);
  assert.ok(await page.isVisible('.stale-note'), 'stale note after the inputs changed');
  await page.click('#pred-list .file-remove >> nth=1');
  await score(page);
  assert.equal(await page.isVisible('.stale-note'), false);
  assert.deepEqual(await headline(page, 'official'), SAMPLE);
  // removing a file and clearing a zone
  await page.click('#pred-list .file-remove');
  assert.equal(await page.locator('#pred-list .file').count(), 0);
  await page.click('#gt-list .link-btn');
  assert.equal(await page.locator('#gt-list .file').count(), 0);
  assert.equal(await page.isDisabled('#score-button'), true);
  check();
  await context.close();
});

test('kws: a dropped zip is opened by the engine; its diagnostics point into the archive', async () => {
  const { page, context, check } = await openPage('#/p/kws');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dropscore-e2e-'));
  try {
    const zipPath = path.join(dir, 'res.zip');
    fs.writeFileSync(zipPath, storedZip([{ name: 'res/results.xml', data: fs.readFileSync(edgeBlank) }]));
    await page.setInputFiles('#gt-files', edgeGt);
    await dropFiles(page, '#zone-pred', [zipPath]);
    await score(page);
    const loc = await page.locator('.diag[data-code="kws.official.reader_panic"] .diag-loc').first().textContent();
    assert.match(loc, /^res\.zip!res\/results\.xml:4/);
    assert.match(await page.textContent('#pred-list'), /1 error/, 'the zip in the file list carries the error count');
    assert.deepEqual(await headline(page, 'corrected'), { precAt5: '0.33333', precAt10: '0.50000', map: '0.34921' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  check();
  await context.close();
});

test('kws: a folder chosen with the folder picker keeps its relative paths', async () => {
  const { page, context, check } = await openPage('#/p/kws');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dropscore-e2e-'));
  try {
    const sub = path.join(dir, 'my_run');
    fs.mkdirSync(sub);
    fs.copyFileSync(samplePred, path.join(sub, path.basename(samplePred)));
    await page.setInputFiles('#gt-files', sampleGt);
    await page.setInputFiles('#pred-folder', sub);
    await page.locator('#pred-list .file-path', { hasText: `my_run/${path.basename(samplePred)}` }).waitFor();
    await score(page);
    assert.deepEqual(await headline(page, 'official'), SAMPLE);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  check();
  await context.close();
});

test('kws: a blank line in the results shows the located official-mode diagnostic', async () => {
  const { page, context, check } = await openPage('#/p/kws');
  await page.setInputFiles('#gt-files', edgeGt);
  await page.setInputFiles('#pred-files', edgeBlank);
  await page.check('input[name=mode][value=official]');
  await score(page);
  const diag = page.locator('.diag[data-code="kws.official.reader_panic"]').first();
  await diag.waitFor();
  assert.equal(await diag.getAttribute('data-severity'), 'error');
  assert.match(await diag.locator('.diag-loc').textContent(), /res_blank\.xml:4(:\d+)?$/);
  assert.match(await diag.textContent(), /Official scorer/);
  assert.ok(await page.locator('.notice-strong', { hasText: 'official scorer fails' }).isVisible(), 'prominent notice');
  // errors are listed first
  const severities = await page.$$eval('.diag', (ds) => ds.map((d) => d.dataset.severity));
  const rank = { error: 0, warning: 1, info: 2 };
  assert.deepEqual(severities, [...severities].sort((a, b) => rank[a] - rank[b]));
  // the official score is blocked; the corrected one is computed (blank lines ignored)
  const official = await headline(page, 'official');
  assert.equal(official.map, '—');
  const corrected = await headline(page, 'corrected');
  assert.deepEqual(corrected, { precAt5: '0.33333', precAt10: '0.50000', map: '0.34921' });
  // the file list points at the problem
  assert.match(await page.textContent('#pred-list'), /1 error/);
  await shot(page, 'kws-blank-line-1280');
  await compareWithCli(page, edgeGt, edgeBlank);
  check();
  await context.close();
});

// Files dropped in the wrong zones: tests/e2e/session.test.mjs (input.swapped, "Swap and score").

test('per-query table: sortable by keyboard-reachable header buttons, filterable, rows expand', async () => {
  const { page, context, check } = await openPage('#/p/kws');
  assert.equal(await runOf(page, () => page.click('.example-btn')), 'done');
  // The rows come from the worker (src/items_query.rs): wait until the table shows `want`.
  const order = async (want) => {
    await page.waitForFunction((w) => JSON.stringify([...document.querySelectorAll('.items-table tbody tr.item-row')].map((tr) => tr.dataset.item)) === JSON.stringify(w), want).catch(() => {});
    return page.$$eval('.items-table tbody tr.item-row', (trs) => trs.map((tr) => tr.dataset.item));
  };
  const apHeader = page.locator('.items-table thead th', { has: page.locator('button[data-col="ap"]') });
  await page.focus('button[data-col="ap"]');
  await page.keyboard.press('Enter');
  assert.equal(await apHeader.getAttribute('aria-sort'), 'descending');
  assert.deepEqual(await order(['sb0000', 'sb0001']), ['sb0000', 'sb0001']);
  await page.keyboard.press('Enter');
  assert.equal(await apHeader.getAttribute('aria-sort'), 'ascending');
  assert.deepEqual(await order(['sb0001', 'sb0000']), ['sb0001', 'sb0000']);
  await page.fill('.filter-input', 'sb0000');
  assert.deepEqual(await order(['sb0000']), ['sb0000']);
  await page.fill('.filter-input', '');
  await page.click('button.row-toggle[data-item="sb0000"]');
  assert.equal(await page.getAttribute('button.row-toggle[data-item="sb0000"]', 'aria-expanded'), 'true');
  assert.ok(await page.locator('tr.detail-row').count() === 1);
  await shot(page, 'kws-table-detail-1280');
  check();
  await context.close();
});

test('keyboard: the file inputs, mode and Score are reachable with Tab in a logical order', async () => {
  const { page, context, check } = await openPage('#/p/kws');
  const seen = [];
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    const id = await page.evaluate(() => {
      const a = document.activeElement;
      return a?.id || (a?.name ? `${a.name}=${a.value}` : a?.dataset?.protocol ? `p:${a.dataset.protocol}` : a?.tagName);
    });
    seen.push(id);
  }
  const want = ['p:kws', 'gt-files', 'gt-folder', 'pred-files', 'pred-folder', 'mode=official'];
  let last = -1;
  for (const w of want) {
    const i = seen.indexOf(w, last + 1);
    assert.ok(i > last, `${w} reachable after ${want[want.indexOf(w) - 1] ?? 'start'} (tab order: ${seen.join(', ')})`);
    last = i;
  }
  // the visually hidden file input shows its focus on its label
  await page.focus('#gt-files');
  const outline = await page.$eval('label[for=gt-files]', (l) => getComputedStyle(l).outlineStyle);
  assert.notEqual(outline, 'none');
  check();
  await context.close();
});

test('narrow 400 px viewport: no horizontal scrolling, results readable', async () => {
  const { page, context, check } = await openPage('#/p/kws', { width: 400, height: 860 });
  assert.equal(await runOf(page, () => page.click('.example-btn')), 'done');
  assert.deepEqual(await headline(page, 'official'), SAMPLE);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the viewport`);
  await shot(page, 'kws-example-400');
  check();
  await context.close();
});

test('Cancel terminates the worker, says "Cancelled", and a fresh worker scores again', { skip: !fs.existsSync(bigPred) && 'no large fixture' }, async () => {
  const { page, context, check } = await openPage('#/p/kws');
  await page.setInputFiles('#gt-files', bigGt);
  await page.setInputFiles('#pred-files', bigPred);
  const ended = await runOf(page, async () => {
    await page.click('#score-button');
    await page.waitForSelector('#progress-box:not([hidden])');
    await page.click('#cancel-button');
  });
  assert.equal(ended, 'cancelled');
  assert.match(await page.textContent('#status-text'), /Cancelled/);
  assert.equal(await page.isVisible('#progress-box'), false);
  // the engine works again
  assert.equal(await runOf(page, () => page.click('.example-btn')), 'done');
  assert.deepEqual(await headline(page, 'official'), SAMPLE);
  check();
  await context.close();
});
