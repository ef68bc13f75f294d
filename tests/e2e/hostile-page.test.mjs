// Budget attacks in the page: a segmentation mask whose iCCP colour profile inflates to 4 GiB (a 4 MB PNG). The
// page's PNG reader skips ancillary chunks instead of inflating them (src/formats/png_chunks.rs), so the run scores
// as the CLI does, and the worker stays usable for the next run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { setup, openPage, runOf, dropFiles, findCli, downloadJson } from './harness.mjs';

setup();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dropscore-hostile-page-'));

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** A 16×16 8-bit grey PNG of classes 0/1 (`flip` changes a quarter of them), with `extra` chunks before IDAT. */
function png(flip, extra = []) {
  const ihdr = Buffer.from([0, 0, 0, 16, 0, 0, 0, 16, 8, 0, 0, 0, 0]);
  const rows = [];
  for (let y = 0; y < 16; y++) {
    rows.push(0);
    for (let x = 0; x < 16; x++) rows.push(((x < 8) !== (flip && y < 8)) ? 1 : 0);
  }
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([sig, chunk('IHDR', ihdr), ...extra, chunk('IDAT', zlib.deflateSync(Buffer.from(rows))),
    chunk('IEND', Buffer.alloc(0))]);
}

/**
 * An iCCP chunk whose zlib stream inflates to `gib` GiB of zeros: the zlib header, one raw-deflate block of 64 MiB
 * of zeros ended by a full flush (byte-aligned, not final) repeated 16 times per GiB, an empty final block, and
 * the Adler-32 of the zeros (a = 1, b = n mod 65521).
 */
function iccpBomb(gib) {
  const block = zlib.deflateRawSync(Buffer.alloc(64 << 20), { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH });
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(((Number((BigInt(gib) << 30n) % 65521n) << 16) | 1) >>> 0, 0);
  const stream = [Buffer.from([0x78, 0xda]), ...Array(gib * 16).fill(block), Buffer.from([0x03, 0x00]), adler];
  return chunk('iCCP', Buffer.concat([Buffer.from('icc\0\0', 'latin1'), ...stream]));
}

test('a mask whose iCCP profile inflates to 4 GiB scores as the CLI does, and the worker stays usable', async () => {
  fs.mkdirSync(path.join(dir, 'gt'));
  fs.mkdirSync(path.join(dir, 'pred'));
  const bomb = png(false, [iccpBomb(4)]);
  assert.ok(bomb.length < 8 << 20, `the bomb is small (${bomb.length} bytes)`);
  fs.writeFileSync(path.join(dir, 'gt', 'a.png'), bomb);
  fs.writeFileSync(path.join(dir, 'pred', 'a.png'), png(true));
  const { page, context, check } = await openPage('#/p/segmentation');
  await dropFiles(page, '#zone-gt', [path.join(dir, 'gt', 'a.png')]);
  await dropFiles(page, '#zone-pred', [path.join(dir, 'pred', 'a.png')]);
  await page.click('#options > summary');
  await page.fill('input[name=num_classes]', '2');
  await page.dispatchEvent('input[name=num_classes]', 'change');
  const state = await runOf(page, () => page.click('#score-button'), 120000);
  const said = `${await page.textContent('#status-text')} ${await page.locator('#results').textContent().catch(() => '')}`;
  assert.equal(state, 'done', said.slice(0, 2000));
  const cli = findCli();
  if (cli) {
    const page_ = JSON.parse(await downloadJson(page, 'official'));
    const args = ['segmentation', '--gt', 'gt', '--pred', 'pred', '--set', 'num_classes=2', '--format', 'json'];
    const native = JSON.parse(execFileSync(cli, args, { cwd: dir, encoding: 'utf8' }));
    assert.deepEqual(page_.scores, native.scores);
  }
  // The worker is still usable: the same files score again.
  assert.equal(await runOf(page, () => page.click('#score-button'), 120000), 'done');
  check();
  await context.close();
});
