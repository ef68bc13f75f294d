// The split engine (scripts/build-wasm writes www/pkg/modules/<name>.wasm and www/pkg/modules.json): opening the
// page on a protocol loads only the wasm module that holds it (not the whole engine, not another module), its
// first built-in example scores in one click as the CLI scores it (Download JSON byte for byte with
// DROPSCORE_BIN, which scripts/test sets), and picking a protocol of another module then loads that module.
// Logs each protocol's first-result time (from opening the page to the example's result) and its module's size.
// With a www/pkg without modules.json (DROPSCORE_PKG=DIR) the page runs the whole engine: the same test then
// asserts that, and its times are those of the page before the split.
//
//   DROPSCORE_BIN=target/release/dropscore node --test tests/e2e/modules.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import childProcess from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setup, openPage, runOf, downloadJson, findCli, assertSameText, exampleFile, pkgDir, registry } from './harness.mjs';

setup();
const splitFile = path.join(pkgDir, 'modules.json');
const split = fs.existsSync(splitFile) ? JSON.parse(fs.readFileSync(splitFile, 'utf8')) : null;
const protocols = split ? split.protocols : [];
const wasmOf = (requests) => requests.filter((u) => new URL(u).pathname.endsWith('.wasm')).map((u) => new URL(u).pathname);

/** The CLI's JSON report of `ex` (official mode), run on links named as the page names the files; null when two share a base name. */
function cliReport(cli, id, ex) {
  const files = [...ex.gt, ...ex.pred].map(exampleFile);
  const names = files.map((f) => path.basename(f));
  if (new Set(names).size !== names.length) return null;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dropscore-e2e-modules-'));
  try {
    for (const f of files) fs.symlinkSync(f, path.join(dir, path.basename(f)));
    const args = [id, ...ex.gt.flatMap((f) => ['--gt', path.basename(f)]), ...ex.pred.flatMap((f) => ['--pred', path.basename(f)]),
      '--format', 'json', ...(ex.set ?? []).flatMap(([k, v]) => ['--set', `${k}=${v}`])];
    const r = childProcess.spawnSync(cli, args, { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28 });
    assert.ok(r.status === 0 || r.status === 1, `dropscore ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    return r.stdout;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test('www/pkg/modules.json lists every protocol in one module (scripts/build-wasm)', { skip: split ? false : 'no split engine in this pkg' }, () => {
  for (const p of protocols) {
    assert.ok(split.modules[p.module]?.protocols.includes(p.id), `${p.id}: its module ${p.module} holds it`);
    assert.ok(fs.existsSync(path.join(pkgDir, split.modules[p.module].file)), `${split.modules[p.module].file} exists`);
  }
  for (const [name, m] of Object.entries(split.modules)) {
    console.log(`module ${name}: ${m.raw} bytes raw, ${m.gzip} gzip, ${m.brotli} brotli (${m.protocols.join(', ')})`);
    assert.ok(m.gzip <= 1024 * 1024, `module ${name}: at most 1 MiB gzipped (${m.gzip})`);
  }
});

for (const p of protocols.filter((x) => x.built && x.examples.length)) {
  const ex = p.examples[0];
  test(`${p.id}: the page loads only module ${p.module} and scores ${ex.id} as the CLI does`, async () => {
    const t0 = Date.now();
    const { page, context, check, requests } = await openPage(`#/p/${p.id}`);
    const button = page.locator(`.example-btn[data-example="${ex.id}"]`);
    assert.equal(await runOf(page, () => button.click()), 'done', await page.textContent('#status-text'));
    const ms = Date.now() - t0;
    assert.deepEqual(wasmOf(requests), [`/www/pkg/${split.modules[p.module].file}`], 'the wasm the page fetched');
    console.log(`${p.id}: first result ${ms} ms (module ${p.module}, ${split.modules[p.module].gzip} bytes gzip)`);
    const cli = findCli();
    const want = cli ? cliReport(cli, p.id, ex) : null;
    if (want != null) assertSameText(await downloadJson(page, 'official'), want, `${p.id}/${ex.id} official JSON`);
    // Another module's protocol: its module is loaded then, and it scores too.
    const other = protocols.find((q) => q.module !== p.module && q.built && q.examples.length);
    if (other) {
      await page.click(`a.protocol-link[data-protocol="${other.id}"]`);
      await page.waitForSelector(`a.protocol-link[data-protocol="${other.id}"][aria-current=page]`);
      const b = page.locator(`.example-btn[data-example="${other.examples[0].id}"]`);
      assert.equal(await runOf(page, () => b.click()), 'done', await page.textContent('#status-text'));
      assert.ok(wasmOf(requests).includes(`/www/pkg/${split.modules[other.module].file}`), `${other.id}: module ${other.module} loaded`);
    }
    check();
    await context.close();
  });
}

test('without modules.json the page runs the whole engine (first-result times before the split)', { skip: split ? 'this pkg has a split engine' : false }, async () => {
  for (const p of (await registry()).filter((x) => x.built && x.examples.length)) {
    const t0 = Date.now();
    const { page, context, requests } = await openPage(`#/p/${p.id}`);
    const button = page.locator(`.example-btn[data-example="${p.examples[0].id}"]`);
    assert.equal(await runOf(page, () => button.click()), 'done', await page.textContent('#status-text'));
    console.log(`${p.id}: first result ${Date.now() - t0} ms (whole engine)`);
    assert.deepEqual(wasmOf(requests), ['/www/pkg/dropscore_bg.wasm']);
    await context.close();
  }
});
