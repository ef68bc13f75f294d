// scripts/start serves the page before the Russian dictionary (www/assets/ru-lemmas.bin) is built: the aij2022
// page says so, what works meanwhile, and says when it becomes ready.
// The missing asset is simulated by answering 404 for it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, openPage, shot } from './harness.mjs';

setup();

test('aij2022: a note while the dictionary is missing, then "ready"; other protocols show none', async () => {
  const { page, context } = await openPage('#/p/kws', { width: 390, height: 900 });
  let missing = true;
  await context.route((u) => u.pathname.endsWith('/assets/ru-lemmas.bin') && u.search === '?exists', (route) => (missing ? route.fulfill({ status: 404, body: '' }) : route.continue()));
  assert.equal(await page.locator('.lemma-status').count(), 0, 'no note on kws');

  await page.goto(new URL('#/p/aij2022', page.url()).href);
  const note = page.locator('.lemma-status');
  await note.waitFor({ state: 'visible' });
  assert.match(await note.textContent(), /still being built.*ImageGeneration \(FID\) and every other protocol are exact/s);
  assert.equal(await note.getAttribute('role'), 'status');
  await shot(page, 'lemma-status-missing-390');

  // The asset appears; the next check (on the next visit here, or the 15 s poll) says it is ready.
  missing = false;
  await page.goto(new URL('#/p/kws', page.url()).href);
  await page.waitForFunction(() => !document.querySelector('.lemma-status'));
  await page.goto(new URL('#/p/aij2022', page.url()).href);
  await page.waitForFunction(() => /ready/.test(document.querySelector('.lemma-status:not([hidden])')?.textContent ?? ''));
  assert.match(await page.locator('.lemma-status').textContent(), /dictionary is ready: aij2022’s text tasks are available/);
  await context.close();
});

test('aij2022 with the dictionary present: no note', async () => {
  const { page, context, check } = await openPage('#/p/aij2022');
  await page.waitForTimeout(500);
  assert.equal(await page.locator('.lemma-status:not([hidden])').count(), 0);
  check();
  await context.close();
});
