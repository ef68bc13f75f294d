// Layout that fits: no horizontal page overflow at 390 px and 1280 px for every protocol's built-in
// examples ("Try an example"), on the page and inside <dropscore-evaluator>. Wide tables scroll inside their own
// container, plots scale to their card, long ids wrap. Screenshots: tests/e2e/artifacts/layout-*.png.
//
//   node --test tests/e2e/layout.test.mjs     (needs www/pkg)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { setup, repoRoot, baseUrl, browser, artifacts, openPage, runOf } from './harness.mjs';
import fs from 'node:fs';
import os from 'node:os';

setup();

const WIDTHS = [390, 1280];

/** Every built protocol with its examples, as the engine lists them. */
async function protocols() {
  const { page, context } = await openPage('#/p/kws');
  const list = await page.evaluate(async () => {
    const { Engine } = await import('/www/engine.js');
    const e = new Engine();
    return e.protocols();
  });
  await context.close();
  return list.filter((p) => p.built);
}

/** What sticks out of the viewport (or of `root`'s box): the widest offenders, for the failure message. */
async function overflow(page, inShadow = false) {
  return page.evaluate((inShadow) => {
    const host = inShadow ? document.querySelector('dropscore-evaluator') : null;
    const root = inShadow ? host.shadowRoot.querySelector('.ds-body') : document.documentElement;
    const limit = inShadow ? root.clientWidth : window.innerWidth;
    const width = root.scrollWidth;
    const base = inShadow ? root.getBoundingClientRect().left : 0;
    const scope = inShadow ? host.shadowRoot : document;
    const wide = [];
    if (width > limit) {
      for (const el of scope.querySelectorAll('*')) {
        const r = el.getBoundingClientRect();
        if (r.right - base > limit + 1 && !el.closest('.table-scroll, .plot-data')) {
          wide.push(`${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}.${[...el.classList].join('.')} right=${Math.round(r.right - base)}`);
        }
      }
    }
    return { width, limit, wide: wide.slice(-6) };
  }, inShadow);
}

/** Waits until the protocol's own view (www/views/) has replaced its placeholder. */
async function settled(scope) {
  await scope.locator('.protocol-view[aria-busy]').waitFor({ state: 'detached', timeout: 20000 }).catch(() => {});
  await scope.locator('.explain .pending').waitFor({ state: 'detached', timeout: 20000 }).catch(() => {});
}

test('page: every protocol example fits at 390 px and 1280 px', async () => {
  const failures = [];
  for (const p of await protocols()) {
    for (const width of WIDTHS) {
      const { page, context, check } = await openPage(`#/p/${p.id}`, { width, height: 900 });
      for (const ex of p.examples) {
        const state = await runOf(page, () => page.click(`.example-btn[data-example="${ex.id}"]`));
        assert.equal(state, 'done', `${p.id} ${ex.id}: ${await page.textContent('#status-text')}`);
        await settled(page);
        const o = await overflow(page);
        await page.screenshot({ path: path.join(artifacts, `layout-${p.id}-${ex.id}-${width}.png`), fullPage: true });
        if (o.width > o.limit) failures.push(`${p.id} ${ex.id} at ${width} px: page ${o.width} px wide; ${o.wide.join(', ')}`);
      }
      check();
      await context.close();
    }
  }
  assert.deepEqual(failures, []);
});

test('embed: every protocol with an example config fits at 390 px and 1280 px', async () => {
  const failures = [];
  let checked = 0;
  for (const p of await protocols()) {
    const cfgPath = path.join(repoRoot, 'examples', p.id, 'dropscore.json');
    if (!fs.existsSync(cfgPath)) continue;
    const cfg = JSON.parse(fs.readFileSync(cfgPath, 'utf8'));
    const gtNames = JSON.stringify(cfg.ground_truth.map((g) => path.basename(g)).sort());
    const ex = p.examples.find((e) => JSON.stringify(e.gt.map((g) => path.basename(g)).sort()) === gtNames);
    if (!ex) continue;
    const body = `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,"><script type="module" src="../www/embed.js"></script></head>
<body style="margin:0"><dropscore-evaluator config="${p.id}/dropscore.json"></dropscore-evaluator></body></html>`;
    for (const width of WIDTHS) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const url = new URL(`examples/__layout_${p.id}.html`, baseUrl).href;
      await context.route(url, (r) => r.fulfill({ body, contentType: 'text/html' }));
      const page = await context.newPage();
      const problems = [];
      page.on('pageerror', (e) => problems.push(e.message));
      await page.goto(url);
      await page.locator('#gt-preloaded:not([hidden])').waitFor({ timeout: 20000 });
      await page.locator('#pred-files').setInputFiles(ex.pred.map((f) => path.join(repoRoot, 'www', f)));
      await page.locator('#score-button').click();
      const host = await page.locator('dropscore-evaluator').elementHandle();
      await page.waitForFunction((e) => e.dataset.run === 'done', host, { timeout: 60000 });
      await settled(page);
      for (const [where, o] of [['page', await overflow(page)], ['element', await overflow(page, true)]]) {
        if (o.width > o.limit) failures.push(`embed ${p.id} at ${width} px: ${where} ${o.width} px wide in ${o.limit}; ${o.wide.join(', ')}`);
      }
      await page.screenshot({ path: path.join(artifacts, `layout-embed-${p.id}-${width}.png`), fullPage: true });
      assert.deepEqual(problems, []);
      await context.close();
      checked++;
    }
  }
  assert.ok(checked >= 2);
  assert.deepEqual(failures, []);
});

test('long ids wrap in their cell, with the full text kept (kws, a 160-character query id)', async () => {
  const long = `query_${'x'.repeat(70)}_${'0123456789'.repeat(8)}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dropscore-layout-'));
  const src = path.join(repoRoot, 'www', 'examples', 'kws');
  const gt = path.join(dir, 'gt.xml');
  const pred = path.join(dir, 'res.xml');
  fs.writeFileSync(gt, fs.readFileSync(path.join(src, 'GroundTruthRelevanceJudgementsSample.xml'), 'utf8').replace('"sb0000"', `"${long}"`));
  fs.writeFileSync(pred, fs.readFileSync(path.join(src, 'WordSpottingResultsSample.xml'), 'utf8').replace('"sb0000"', `"${long}"`).replace('"sb0001"', `"${long}_unknown"`));
  try {
    for (const width of WIDTHS) {
      const { page, context, check } = await openPage('#/p/kws', { width, height: 900 });
      await page.setInputFiles('#gt-files', gt);
      await page.setInputFiles('#pred-files', pred);
      assert.equal(await runOf(page, () => page.click('#score-button')), 'done');
      await settled(page);
      const o = await overflow(page);
      assert.ok(o.width <= o.limit, `at ${width} px: page ${o.width} px wide; ${o.wide.join(', ')}`);
      const cell = page.locator(`.items-table tr[data-item="${long}"] th.item-id`);
      assert.equal((await cell.textContent()).replace(/^[▸▾]/, ''), long, 'the full id is in the cell');
      const box = await cell.boundingBox();
      assert.ok(box.width < width * 0.6, `the id cell (${box.width} px) is shortened within ${width} px`);
      // Full text on hover (title) and for assistive technology (aria-label), and shown whole while focused.
      const button = cell.locator('button.row-toggle');
      assert.equal(await button.getAttribute('aria-label'), long);
      assert.equal(await cell.locator('.id-text').getAttribute('title'), long);
      const clipped = () => cell.locator('.id-text').evaluate((e) => e.scrollWidth > e.clientWidth);
      assert.equal(await clipped(), true, 'shortened');
      await button.focus();
      assert.equal(await clipped(), false, 'whole while focused');
      await page.screenshot({ path: path.join(artifacts, `layout-kws-long-id-${width}.png`), fullPage: true });
      check();
      await context.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
