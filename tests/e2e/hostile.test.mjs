// Hostile inputs in the browser: a zip bomb and a wide FID .npy (aij2022, a d = 100,000 header) each
// get a located refusal under the page's memory budget (max_memory = 1 GiB), the page stays usable for the next
// Score, and the renderer's memory stays under that budget (peak RSS, VmHWM, of the renderer processes; the wasm
// memory's size as the worker reports it). An allocation that fails anyway (the budget raised past what wasm32 can
// hold) traps; the worker reports "ran out of memory … (limit …, raise with max_memory)", on the file being read or the stage, and
// the next Score runs on a fresh instance. Every input is generated here; nothing large is committed.
//
//   node --test tests/e2e/hostile.test.mjs     (needs www/pkg)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { setup, repoRoot, openPage, dropFiles, runOf, headline, score } from './harness.mjs';

const EX = path.join(repoRoot, 'www', 'examples', 'kws');
const GT = path.join(EX, 'GroundTruthRelevanceJudgementsSample.xml');
const PRED = path.join(EX, 'WordSpottingResultsSample.xml');
const PAGE_BUDGET = 1 << 30; // max_memory in the page (src/budget.rs)

setup({ requiredFiles: [GT, PRED] });

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dropscore-hostile-e2e-'));

/** A zip with one deflated member `name` whose content is `size` bytes: `head`, then `fill` repeated; its
 *  headers say `declared` bytes (a bomb may lie). */
function deflatedZip(name, head, fill, size, declared = size) {
  const deflate = zlib.createDeflateRaw({ level: 9 });
  const parts = [];
  deflate.on('data', (c) => parts.push(c));
  let crc = zlib.crc32(head);
  deflate.write(head);
  const block = Buffer.alloc(8 << 20, fill);
  let left = size - head.length;
  while (left > 0) {
    const b = left >= block.length ? block : block.subarray(0, left);
    crc = zlib.crc32(b, crc);
    deflate.write(b);
    left -= b.length;
  }
  return new Promise((resolve) => {
    deflate.end(() => {
      const data = Buffer.concat(parts);
      const nameBuf = Buffer.from(name);
      const local = Buffer.alloc(30);
      local.writeUInt32LE(0x04034b50, 0);
      local.writeUInt16LE(20, 4);
      local.writeUInt16LE(8, 8); // deflate
      local.writeUInt32LE(crc >>> 0, 14);
      local.writeUInt32LE(data.length, 18);
      local.writeUInt32LE(declared, 22);
      local.writeUInt16LE(nameBuf.length, 26);
      const central = Buffer.alloc(46);
      central.writeUInt32LE(0x02014b50, 0);
      central.writeUInt16LE(20, 4);
      central.writeUInt16LE(20, 6);
      central.writeUInt16LE(8, 10);
      central.writeUInt32LE(crc >>> 0, 16);
      central.writeUInt32LE(data.length, 20);
      central.writeUInt32LE(declared, 24);
      central.writeUInt16LE(nameBuf.length, 28);
      central.writeUInt32LE(0, 42);
      const end = Buffer.alloc(22);
      end.writeUInt32LE(0x06054b50, 0);
      end.writeUInt16LE(1, 8);
      end.writeUInt16LE(1, 10);
      end.writeUInt32LE(central.length + nameBuf.length, 12);
      end.writeUInt32LE(local.length + nameBuf.length + data.length, 16);
      resolve(Buffer.concat([local, nameBuf, data, central, nameBuf, end]));
    });
  });
}

/** A float32 .npy whose header says `shape`, with `bodyBytes` zero bytes of data. */
function npy(shape, bodyBytes) {
  let h = `{'descr': '<f4', 'fortran_order': False, 'shape': ${shape}, }`;
  while ((10 + h.length + 1) % 64 !== 0) h += ' ';
  h += '\n';
  const head = Buffer.alloc(10);
  Buffer.from('\x93NUMPY', 'latin1').copy(head, 0);
  head[6] = 1;
  head[7] = 0;
  head.writeUInt16LE(h.length, 8);
  return Buffer.concat([head, Buffer.from(h, 'latin1'), Buffer.alloc(bodyBytes)]);
}

/** Peak RSS (VmHWM, bytes) of the renderer processes below this node process (Chromium's children). */
function rendererHwm() {
  const children = new Map();
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(pid));
    } catch { /* gone */ }
  }
  let best = 0;
  const walk = (pid) => {
    for (const c of children.get(pid) ?? []) {
      try {
        if (fs.readFileSync(`/proc/${c}/cmdline`, 'utf8').includes('--type=renderer')) {
          const m = fs.readFileSync(`/proc/${c}/status`, 'utf8').match(/VmHWM:\s+(\d+)/);
          if (m) best = Math.max(best, Number(m[1]) * 1024);
        }
      } catch { /* gone */ }
      walk(c);
    }
  };
  walk(process.pid);
  return best;
}

/** The shown errors as { code, loc, message }. */
function errorsOf(page) {
  return page.locator('li.diag[data-severity=error]').evaluateAll((lis) => lis.map((li) => ({
    code: li.dataset.code, loc: li.querySelector('.diag-loc')?.textContent ?? '', message: li.querySelector('.diag-message')?.textContent ?? '',
  })));
}

/** Empties both drop zones (their "Clear" buttons). */
async function clearZones(page) {
  for (const zone of ['#zone-gt', '#zone-pred']) {
    const clear = page.locator(`${zone} button.link-btn`, { hasText: 'Clear' });
    if (await clear.count()) await clear.first().click();
  }
}

/** Sets an option in the options form as a user does (its value, then `change`). */
async function setOption(page, name, value) {
  await page.evaluate(([n, v]) => {
    const el = /** @type {HTMLInputElement} */ (document.getElementById(`opt-${n}`));
    el.value = v;
    el.dispatchEvent(new Event('change'));
  }, [name, value]);
}

/** The kws sample scores in the same page (it stayed usable). */
async function scoresAgain(page) {
  await page.evaluate(() => { location.hash = '#/p/kws'; });
  await page.locator('a.protocol-link[aria-current=page][data-protocol=kws]').waitFor();
  await clearZones(page);
  await dropFiles(page, '#zone-gt', [GT]);
  await dropFiles(page, '#zone-pred', [PRED]);
  await score(page);
  assert.match((await headline(page, 'official')).map, /^0\.5185/);
}

for (const [what, declared] of [['its size declared', 600 << 20], ['its headers lying (1 KiB declared)', 1024]]) {
  test(`a zip bomb (600 MiB of one XML attribute in a 0.6 MB zip, ${what}) is refused, located; the page scores next`, async () => {
    const size = 600 << 20;
    const zip = await deflatedZip('Results.xml', Buffer.from('<?xml version="1.0"?>\n<RelevanceListings><Rel queryid="'), 0x61, size, declared);
    const file = path.join(tmp, 'bomb.zip');
    fs.writeFileSync(file, zip);
    assert.ok(zip.length < 2e6, `the bomb is small (${zip.length} bytes)`);
    const { page, check, context } = await openPage('#/p/kws');
    await dropFiles(page, '#zone-gt', [GT]);
    await dropFiles(page, '#zone-pred', [file]);
    assert.equal(await runOf(page, () => page.click('#score-button'), 120000), 'done');
    const errs = await errorsOf(page);
    const refusal = errs.find((e) => /bomb\.zip/.test(e.loc));
    assert.ok(refusal, `a refusal located on bomb.zip: ${JSON.stringify(errs)}`);
    assert.match(refusal.code, /^input\.limit$|^kws\./);
    assert.match(refusal.message, /max_memory|limit/);
    const hwm = rendererHwm();
    assert.ok(hwm < PAGE_BUDGET, `renderer peak RSS ${(hwm / 2 ** 20).toFixed(0)} MiB under the page budget`);
    console.log(`# zip bomb, ${what}: renderer peak RSS ${(hwm / 2 ** 20).toFixed(0)} MiB; ${refusal.code} ${refusal.loc}: ${refusal.message}`);
    await scoresAgain(page);
    check();
    await context.close();
  });
}

test('a wide FID .npy (d = 100,000 header) is refused, located; an allocation past wasm32 traps and is reported; the page scores next', async () => {
  const wide = path.join(tmp, 'wide.npy');
  const widePred = path.join(tmp, 'wide_pred.npy');
  fs.writeFileSync(wide, npy('(2, 100000)', 2 * 100000 * 4));
  fs.copyFileSync(wide, widePred);
  const { page, check, context, problems } = await openPage('#/p/aij2022');
  await dropFiles(page, '#zone-gt', [wide]);
  await dropFiles(page, '#zone-pred', [widePred]);
  assert.equal(await runOf(page, () => page.click('#score-button'), 120000), 'done');
  const errs = await errorsOf(page);
  const refusal = errs.find((e) => e.code === 'input.limit');
  assert.ok(refusal, `input.limit: ${JSON.stringify(errs)}`);
  assert.match(refusal.loc, /wide(_pred)?\.npy/);
  assert.match(refusal.message, /max_memory/);
  console.log(`# wide FID: ${refusal.loc}: ${refusal.message}`);

  // The budget raised past what wasm32 can address (4 GiB): the 30,000-d covariance (7.2 GB) is allowed by the
  // budget, and its allocation fails inside wasm. The worker reports it on the file and the engine restarts.
  const w3 = path.join(tmp, 'wide3.npy');
  const w3p = path.join(tmp, 'wide3_pred.npy');
  fs.writeFileSync(w3, npy('(3, 30000)', 3 * 30000 * 4));
  fs.copyFileSync(w3, w3p);
  await clearZones(page);
  await dropFiles(page, '#zone-gt', [w3]);
  await dropFiles(page, '#zone-pred', [w3p]);
  await setOption(page, 'max_memory', '64GiB');
  const state = await runOf(page, () => page.click('#score-button'), 180000);
  const status = await page.textContent('#status-text');
  const shown = `${status} ${await page.locator('#results').textContent().catch(() => '')}`;
  if (state === 'failed') {
    assert.match(shown, /(wide3(_pred)?\.npy: ran out of memory while reading it|ran out of memory while scoring)\b.*\(limit 64GiB, raise with max_memory\)/);
    console.log(`# trap: ${status.trim()}`);
  } else {
    // A refusal instead of a trap (a rule that now bounds this allocation too) is as good.
    assert.equal(state, 'done');
    assert.ok((await errorsOf(page)).some((e) => /wide3/.test(e.loc)), shown);
  }
  // The trap's own panic text is in the worker's console (console_error_panic_hook); the page itself logged none.
  const expected = (/** @type {string} */ p) => /panicked at .*\n?.*(capacity overflow|memory allocation)|^worker console\.error/s.test(p);
  problems.splice(0, problems.length, ...problems.filter((p) => !expected(p)));
  const hwm = rendererHwm();
  assert.ok(hwm < PAGE_BUDGET, `renderer peak RSS ${(hwm / 2 ** 20).toFixed(0)} MiB under the page budget`);
  console.log(`# wide FID: renderer peak RSS ${(hwm / 2 ** 20).toFixed(0)} MiB`);
  await setOption(page, 'max_memory', '');
  await scoresAgain(page);
  check();
  await context.close();
});
