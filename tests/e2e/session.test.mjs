// Browser end-to-end tests of the worker session (www/API.md, "Sessions") and of swapped inputs:
// - each dropped file is read once per Score click: both modes, the explanation and (fest) the overlays reuse what
//   the session read. The worker's reads are counted by wrapping Blob.prototype.slice and the FileReaderSync and
//   Blob read methods inside the page's own worker, per dropped file (the bytes of every read of it or of a slice);
// - kws files dropped the wrong way round: the result opens with one sentence and "Swap and score", which swaps the
//   zones and gives the unswapped numbers.
//
//   node --test tests/e2e/session.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setup, repoRoot, openPage, runOf, headline, score, dropFiles, storedZip } from './harness.mjs';

const kwsDir = path.join(repoRoot, 'tests', 'data', 'kws', 'rusteval');
const sampleGt = path.join(kwsDir, 'GroundTruthRelevanceJudgementsSample.xml');
const samplePred = path.join(kwsDir, 'WordSpottingResultsSample.xml');
const syn = path.join(repoRoot, 'tests', 'data', 'fest', 'synthetic');
const gtPng = path.join(syn, 'gt', '001.png');
const predPng = path.join(syn, 'pred', '001.png');
const SAMPLE = { precAt5: '0.90000', precAt10: '0.50000', map: '0.51852' };

setup({ requiredFiles: [sampleGt, samplePred, gtPng, predPng] });

/** Installs the read counter in the page's scoring worker; returns functions to read and reset the counts. */
async function countReads(page) {
  let worker = page.workers()[0];
  for (let i = 0; !worker && i < 100; i++) {
    await new Promise((r) => setTimeout(r, 50));
    worker = page.workers()[0];
  }
  assert.ok(worker, 'the scoring worker runs');
  await worker.evaluate(() => {
    const root = new WeakMap(); // slice -> the dropped Blob it came from
    self.__reads = {};
    const count = (blob, n) => {
      const r = root.get(blob) ?? blob;
      const name = r.name ?? '(unnamed blob)';
      self.__reads[name] = (self.__reads[name] ?? 0) + n;
    };
    const slice = Blob.prototype.slice;
    Blob.prototype.slice = function (...args) {
      const part = slice.apply(this, args);
      root.set(part, root.get(this) ?? this);
      return part;
    };
    for (const m of ['readAsArrayBuffer', 'readAsText', 'readAsBinaryString', 'readAsDataURL']) {
      const f = FileReaderSync.prototype[m];
      FileReaderSync.prototype[m] = function (blob, ...rest) {
        count(blob, blob.size);
        return f.call(this, blob, ...rest);
      };
    }
    for (const m of ['arrayBuffer', 'text', 'bytes', 'stream']) {
      const f = Blob.prototype[m];
      if (f) Blob.prototype[m] = function (...args) {
        count(this, this.size);
        return f.apply(this, args);
      };
    }
  });
  return {
    get: () => worker.evaluate(() => ({ ...self.__reads })),
    reset: () => worker.evaluate(() => { self.__reads = {}; }),
  };
}

const sizes = (files) => Object.fromEntries(files.map((f) => [path.basename(f), fs.statSync(f).size]));

test('kws: one Score click reads each dropped file once (both modes and the explanation)', async () => {
  const { page, context, check } = await openPage('#/p/kws');
  const reads = await countReads(page);
  await dropFiles(page, '#zone-gt', [sampleGt]);
  await dropFiles(page, '#zone-pred', [samplePred]);
  await score(page);
  assert.deepEqual(await headline(page, 'official'), SAMPLE);
  assert.deepEqual(await headline(page, 'corrected'), SAMPLE);
  await page.waitForSelector('.explain .explain-list, .explain p:not(.pending)');
  assert.deepEqual(await reads.get(), sizes([sampleGt, samplePred]), 'bytes read per file in one click');
  // A second click reads them again, once.
  await reads.reset();
  await score(page);
  assert.deepEqual(await headline(page, 'official'), SAMPLE);
  assert.deepEqual(await reads.get(), sizes([sampleGt, samplePred]), 'bytes read per file in the second click');
  check();
  await context.close();
});

test('fest: the overlays (both modes side by side) reuse the files the click read', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'session-e2e-'));
  const gtDir = path.join(dir, 'gt');
  fs.mkdirSync(gtDir);
  fs.copyFileSync(gtPng, path.join(gtDir, '001.png'));
  fs.copyFileSync(gtPng, path.join(gtDir, '002.png'));
  const zip = path.join(dir, 'pred.zip');
  fs.writeFileSync(zip, storedZip([
    { name: '001.png', data: fs.readFileSync(predPng) },
    { name: '002.png', data: fs.readFileSync(predPng) },
  ]));
  const { page, context, check } = await openPage('#/p/fest');
  const reads = await countReads(page);
  await page.setInputFiles('#gt-folder', gtDir);
  await dropFiles(page, '#zone-pred', [zip]);
  await score(page);
  assert.deepEqual(await headline(page, 'official'), { line_iu: '0.3333' });
  await page.waitForSelector('canvas.fest-canvas[data-drawn="1"]', { timeout: 30000 });
  await page.check('input.fest-compare');
  await page.waitForFunction(() => document.querySelectorAll('canvas.fest-canvas[data-drawn="1"]').length === 2);
  await page.selectOption('select.fest-image', '002');
  await page.waitForFunction(() => document.querySelector('.fest-status')?.textContent.startsWith('002'));
  assert.deepEqual(await reads.get(), sizes([path.join(gtDir, '001.png'), path.join(gtDir, '002.png'), zip]),
    'bytes read per file: one pass for the scores, the explanation and five overlays');
  check();
  await context.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

// Needs the protocol shell's `input.swapped`: until it is merged, kws notes the swap as the info
// `kws.input.swapped` and scores anyway, and this test fails at the sentence.
test('kws: files dropped the wrong way round: one sentence and "Swap and score" give the unswapped numbers', async () => {
  const { page, context, check } = await openPage('#/p/kws');
  await dropFiles(page, '#zone-gt', [samplePred]);
  await dropFiles(page, '#zone-pred', [sampleGt]);
  await score(page);
  const notice = page.locator('#results .swap-notice');
  await notice.waitFor();
  assert.match(await notice.locator('.swap-sentence').textContent(), /swapped/i, 'one plain sentence says the inputs look swapped');
  const button = notice.locator('button.swap-button');
  assert.equal((await button.textContent()).trim(), 'Swap and score');
  assert.equal(await runOf(page, () => button.click()), 'done');
  assert.deepEqual(await page.$$eval('#gt-list .file-path', (els) => els.map((e) => e.textContent)), [path.basename(sampleGt)]);
  assert.deepEqual(await page.$$eval('#pred-list .file-path', (els) => els.map((e) => e.textContent)), [path.basename(samplePred)]);
  assert.equal(await page.locator('#results .swap-notice').count(), 0, 'the notice is gone');
  assert.deepEqual(await headline(page, 'official'), SAMPLE);
  assert.deepEqual(await headline(page, 'corrected'), SAMPLE);
  check();
  await context.close();
});
