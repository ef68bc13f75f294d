// Every built-in example of every protocol in the registry (the wasm `protocols()` of the build the page loads:
// a new protocol is tested without editing this file): "Try an example" scores it in one click, each headline
// cell shows its score (a number, or a dash for a null one), and the page's Download JSON is byte-identical to
// `dropscore PROTOCOL … --format json` on the same files, in both modes (with DROPSCORE_BIN; scripts/test sets
// it). The page names an example's files by their base names, so the CLI runs on links with those names; an
// example whose GT and prediction share a base name (fest's gt/001.png and pred/001.png) cannot be named alike
// on one command line, and is compared by its scores and diagnostics' codes instead (its bytes are compared in
// tests/wasm/examples.test.mjs). The values of each example are asserted in the per-protocol files.
//
//   DROPSCORE_BIN=target/release/dropscore node --test tests/e2e/examples.test.mjs
//   (a build with the toy protocol: scripts/test-toy)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import childProcess from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setup, openPage, runOf, headline, shot, downloadJson, findCli, assertSameText, registry, exampleFile } from './harness.mjs';

setup();
const protocols = await registry();

/** A fresh folder with links to `files` under their base names; null when two share a name. */
function linked(files) {
  const names = files.map((f) => path.basename(f));
  if (new Set(names).size !== names.length) return null;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dropscore-e2e-example-'));
  for (const f of files) fs.symlinkSync(f, path.join(dir, path.basename(f)));
  return dir;
}

/**
 * The CLI's JSON report of one example in `mode` with the example's options, run as the page names the files
 * (`exact`), or on the files' own paths when two share a base name.
 */
function cliReport(cli, id, ex, gts, preds, mode) {
  const rest = ['--mode', mode, '--format', 'json', ...(ex.set ?? []).flatMap(([k, v]) => ['--set', `${k}=${v}`])];
  const dir = linked([...gts, ...preds]);
  const name = (f) => (dir ? path.basename(f) : f);
  const args = [id, ...gts.flatMap((f) => ['--gt', name(f)]), ...preds.flatMap((f) => ['--pred', name(f)]), ...rest];
  try {
    const r = childProcess.spawnSync(cli, args, { cwd: dir ?? undefined, encoding: 'utf8', maxBuffer: 1 << 28 });
    assert.ok(r.status === 0 || r.status === 1, `dropscore ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    return { json: r.stdout, exact: Boolean(dir) };
  } finally {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }
}

for (const p of protocols.filter((p) => p.built)) {
  for (const ex of p.examples) {
    test(`${p.id} ${ex.id}: "Try an example" scores in one click, as the CLI does`, async () => {
      const gts = ex.gt.map(exampleFile);
      const preds = ex.pred.map(exampleFile);
      assert.ok([...gts, ...preds].every(Boolean), `${p.id}/${ex.id}: the example's files exist`);
      const { page, context, check } = await openPage(`#/p/${p.id}`);
      const button = page.locator(`.example-btn[data-example="${ex.id}"]`);
      assert.equal(await runOf(page, () => button.click()), 'done', await page.textContent('#status-text'));
      const official = JSON.parse(await downloadJson(page, 'official'));
      const shown = await headline(page, 'official');
      assert.ok(Object.keys(shown).length >= 1, `a headline: ${JSON.stringify(shown)}`);
      // Each headline cell shows its score: a number, or a dash for a null (undefined) one.
      for (const [metric, text] of Object.entries(shown)) {
        if (!(metric in official.scores)) continue;
        if (official.scores[metric] === null) assert.equal(text, '—', `${metric}: null is a dash`);
        else assert.match(text ?? '', /\d/, `${metric}: ${official.scores[metric]} shows a number`);
      }
      await shot(page, `example-${p.id}-${ex.id}-1280`);
      const cli = findCli();
      if (cli) {
        for (const mode of ['official', 'corrected']) {
          const mine = await downloadJson(page, mode);
          const { json, exact } = cliReport(cli, p.id, ex, gts, preds, mode);
          if (exact) {
            assertSameText(mine, json, `${p.id}/${ex.id} ${mode}: Download JSON vs the CLI's --format json`);
          } else {
            const [a, b] = [JSON.parse(mine), JSON.parse(json)];
            assert.deepEqual(a.scores, b.scores, `${p.id}/${ex.id} ${mode}: page and CLI scores`);
            assert.deepEqual(a.diagnostics.map((d) => d.code), b.diagnostics.map((d) => d.code), `${p.id}/${ex.id} ${mode}: diagnostics`);
          }
        }
      }
      check();
      await context.close();
    });
  }
}
