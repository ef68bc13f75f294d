// A keyboard-only run: from the landing page to a downloaded CSV with Tab, Enter and Space
// only. No click, no focus() call, no selector action: the test presses keys and reads where the focus is.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { setup, baseUrl, browser, shot } from './harness.mjs';

setup();

/** Presses Tab (Shift+Tab with `back`) until `want(activeElement)` holds; returns the number of presses. */
async function tabTo(page, what, want, { back = false, max = 200 } = {}) {
  for (let n = 1; n <= max; n++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    if (await page.evaluate(want)) return n;
  }
  throw new Error(`${what}: not reached with ${max} presses of Tab`);
}

test('keyboard only: landing page → falsid → its example → Download CSV', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(new URL('/', baseUrl).href);
  await page.waitForSelector('a.protocol-link[aria-current=page]');

  // 1. The protocol list: Tab to the falsid link, Enter.
  const toLink = await tabTo(page, 'falsid link', () => document.activeElement?.matches?.('a.protocol-link[data-protocol="falsid"]'));
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('a.protocol-link[aria-current=page]')?.dataset.protocol === 'falsid');

  // 2. "Try an example": Tab to the first example button, Enter; the run scores both modes.
  const before = await page.evaluate(() => Number(document.body.dataset.runs ?? 0));
  const toExample = await tabTo(page, 'example button', () => document.activeElement?.matches?.('button.example-btn[data-example="worked"]'));
  await page.keyboard.press('Enter');
  await page.waitForFunction((n) => Number(document.body.dataset.runs ?? 0) > n && document.body.dataset.run === 'done', before, { timeout: 60000 });

  // 3. The focus is on the result's heading, and the result is announced.
  await page.waitForFunction(() => document.activeElement?.id === 'results-title');
  assert.match(await page.textContent('#result-announce'), /^Result, official mode: Overall: mean per-subset accuracy \(page formula\) \d/);

  // 4. From the heading, Tab to "Download CSV", Space: the CSV arrives.
  const toCsv = await tabTo(page, 'Download CSV', () => document.activeElement?.matches?.('button') && document.activeElement.textContent === 'Download CSV');
  const [dl] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Space')]);
  assert.equal(dl.suggestedFilename(), 'dropscore-falsid-official.csv');
  const csv = fs.readFileSync(await dl.path(), 'utf8');
  const lines = csv.trimEnd().split('\n'); // the CLI's --format csv (src/render.rs)
  assert.match(lines[0], /^id,/);
  assert.equal(lines.length, 1 + 20, 'one row per sample of the example (20) and the header');
  await shot(page, 'keyboard-falsid-1280');
  assert.deepEqual(problems, []);
  console.log(`Tab presses: ${toLink} to the falsid link, ${toExample} to the example, ${toCsv} from the result heading to Download CSV`);
  await context.close();
});
