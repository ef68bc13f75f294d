// Browser end-to-end for chalearn-ce: "Try an example" (docs/specs/chalearn-ce.md 7), a per-category PR curve with its
// shaded envelope, and a dropped 100-file GT zip + 100-file submission zip whose mAP equals the CLI's.
//
// Needs: www/pkg (scripts/build-wasm), /usr/bin/chromium, npm playwright-core; DROPSCORE_BIN for the CLI comparison.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { setup, openPage, runOf, headline, score, shot, dropFiles, compareWithCli, findCli } from './harness.mjs';
import { synthetic } from '../wasm/chalearn-synth.mjs';

setup();

test('chalearn-ce: "Try an example" shows mAP 0.7222 (official) and 0.6667 (corrected) and a PR curve', async () => {
  const { page, context, check } = await openPage('#/p/chalearn-ce');
  assert.equal(await runOf(page, () => page.click('.example-btn[data-example="ap-example"]')), 'done');
  assert.deepEqual(await headline(page, 'official'), { map: '0.7222' });
  assert.deepEqual(await headline(page, 'corrected'), { map: '0.6667' });
  await page.click('button.row-toggle[data-item="La_Tomatina"]');
  const fig = page.locator('tr.detail-row figure.plot[data-plot="pr_curve"]');
  await fig.waitFor();
  assert.equal(await fig.locator('path.plot-fill').count(), 1, 'the envelope area is shaded');
  assert.ok(await fig.locator('path.plot-dashed').count() >= 1, 'the sentinel segments are dashed');
  assert.ok(await page.locator('tr.detail-row figure.plot[data-plot="confidence_hist"]').count() === 1);
  assert.ok(await page.locator('figure.plot[data-plot="ap_sorted"]').count() === 1);
  await shot(page, 'chalearn-ce-example-1280');
  check();
  await context.close();
});

test('chalearn-ce: a dropped 100-file GT zip and 100-file submission zip give the CLI\'s mAP', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dropscore-e2e-chalearn-'));
  const { page, context, check } = await openPage('#/p/chalearn-ce');
  try {
    const { refZip, zip } = synthetic(dir, { refZip: true });
    await dropFiles(page, '#zone-gt', [refZip]);
    await dropFiles(page, '#zone-pred', [zip]);
    await score(page);
    const shown = await headline(page, 'official');
    const cli = findCli();
    if (cli) {
      const out = execFileSync(cli, ['chalearn-ce', '--gt', 'ref.zip', '--pred', 'submission.zip', '--format', 'json', '--quiet'], { cwd: dir, encoding: 'utf8' });
      const want = JSON.parse(out).scores.map;
      assert.equal(shown.map, want.toFixed(4));
      await compareWithCli(page, refZip, zip, 'chalearn-ce');
    } else {
      assert.match(shown.map, /^0\.\d{4}$/);
    }
    assert.equal(await page.locator('.items-table tbody tr.item-row').count() > 0, true);
    check();
  } finally {
    await context.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
