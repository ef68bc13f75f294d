// Browser end-to-end tests of the metric families (classification, regression, detection, segmentation): for
// each family, "Try an example" scores in one click, the headline shows the configured leaderboard metric with
// a number, and the page's Download JSON has the CLI's scores on the same files, in both modes (the bytes are
// compared in tests/wasm/examples.test.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import childProcess from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setup, repoRoot, openPage, runOf, headline, shot, downloadJson, findCli } from './harness.mjs';

const FAMILIES = ['classification', 'regression', 'detection', 'segmentation'];
setup();

// Example paths are relative to the page (www/).
const onDisk = (p) => [path.join(repoRoot, 'www', p), path.join(repoRoot, p)].find((f) => fs.existsSync(f));

for (const id of FAMILIES) {
  test(`${id}: "Try an example" scores in one click, as the CLI does`, async () => {
    const { page, context, check } = await openPage(`#/p/${id}`);
    const button = page.locator('.example-btn').first();
    const exampleId = await button.getAttribute('data-example');
    assert.equal(await runOf(page, () => button.click()), 'done', await page.textContent('#status-text'));
    const official = await headline(page, 'official');
    const values = Object.values(official);
    assert.ok(values.length >= 1, `a headline: ${JSON.stringify(official)}`);
    assert.match(values[0] ?? '', /\d/, `the leaderboard metric has a number: ${JSON.stringify(official)}`);
    await shot(page, `${id}-example-1280`);
    const cli = findCli();
    if (cli) {
      const list = JSON.parse(childProcess.execFileSync(cli, ['list', '--format=json'], { encoding: 'utf8' }));
      const ex = list.find((p) => p.id === id).examples.find((e) => e.id === exampleId);
      assert.ok(ex, `example ${exampleId}`);
      for (const mode of ['official', 'corrected']) {
        const args = [id, '--gt', ...ex.gt.map(onDisk), '--pred', ...ex.pred.map(onDisk), '--mode', mode, '--format', 'json',
          ...(ex.set ?? []).flatMap(([k, v]) => ['--set', `${k}=${v}`])];
        const r = childProcess.spawnSync(cli, args, { encoding: 'utf8' });
        const page_ = JSON.parse(await downloadJson(page, mode));
        assert.deepEqual(page_.scores, JSON.parse(r.stdout).scores, `${id} ${mode}: page and CLI scores`);
      }
    }
    check();
    await context.close();
  });
}
