// The npm package (scripts/build-npm) as a user gets it: the tarball installed into a fresh project, then every
// example of every protocol scored through `import { scoreJson } from 'dropscore'` in Node, byte-identical to the
// command line's `--format json`; a pre-flight check through the package; and in Chromium, a page of that project
// importing the package as a plain `<script type="module">` (no bundler) and scoring an example, and its
// `dropscore/embed.js` defining the element.
//
//   scripts/build-npm && node --test tests/npm/

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..');
const bin = path.resolve(process.env.DROPSCORE_BIN ?? path.join(repoRoot, 'target', 'release', 'dropscore'));
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const onDisk = (p) => [path.join(repoRoot, 'www', p), path.join(repoRoot, p)].find((f) => fs.existsSync(f));

let project;
let pkg;

before(() => {
  const tgz = fs.readdirSync(path.join(repoRoot, 'target', 'npm')).find((f) => f.endsWith('.tgz'));
  if (!tgz) throw new Error('target/npm/*.tgz is missing: run scripts/build-npm');
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'dropscore-npm-'));
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--offline', path.join(repoRoot, 'target', 'npm', tgz)],
    { cwd: project, stdio: 'pipe' });
  pkg = path.join(project, 'node_modules', 'dropscore');
});
after(() => project && fs.rmSync(project, { recursive: true, force: true }));

/**
 * The example's files as the package takes them and the CLI's arguments for the same files: each file or folder
 * is linked into a fresh folder under its base name (a clash gets a `pred_` prefix), so both name them alike.
 */
function example(protocol, ex, mode) {
  const dir = fs.mkdtempSync(path.join(project, 'case-'));
  const used = new Set();
  const files = [];
  const args = [protocol, '--mode', mode, '--format', 'json', '--quiet'];
  const add = (p, role) => {
    const f = onDisk(p) ?? p;
    let name = path.basename(f);
    if (used.has(name)) name = `pred_${name}`;
    used.add(name);
    fs.symlinkSync(path.resolve(f), path.join(dir, name));
    const walk = (abs, rel) => {
      if (fs.statSync(abs).isDirectory()) {
        for (const e of fs.readdirSync(abs).sort()) walk(path.join(abs, e), `${rel}/${e}`);
      } else {
        files.push({ path: rel, role, data: new Uint8Array(fs.readFileSync(abs)) });
      }
    };
    walk(f, name);
    args.push(role === 'gt' ? '--gt' : '--pred', name);
  };
  ex.gt.forEach((p) => add(p, 'gt'));
  ex.pred.forEach((p) => add(p, 'pred'));
  for (const [k, v] of ex.set ?? []) args.push('--set', `${k}=${v}`);
  return { files, args, dir };
}

/** The CLI's JSON for `args` run in `dir` (exit 1, input errors, is a result too). */
function cli(args, dir) {
  try {
    return execFileSync(bin, args, { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28 });
  } catch (e) {
    if (e.status === 1) return e.stdout;
    throw e;
  }
}

test('the installed package scores every example of every protocol as the CLI does, byte for byte', async () => {
  const dropscore = await import(pathToFileURL(path.join(pkg, 'index.js')).href);
  const list = await dropscore.protocols();
  const cliList = JSON.parse(execFileSync(bin, ['list', '--format', 'json'], { encoding: 'utf8' }));
  assert.deepEqual(list.map((p) => p.id), cliList.map((p) => p.id));
  // Data assets (the Russian dictionary) are not in the package: load them as a user would, from the build's copy.
  for (const a of list.flatMap((p) => p.assets ?? [])) {
    const file = path.join(repoRoot, 'www', 'assets', a.file);
    if (fs.existsSync(file)) await dropscore.loadAsset(a.name, new Uint8Array(fs.readFileSync(file)));
  }
  let cases = 0;
  for (const p of list) {
    for (const ex of p.examples) {
      const { files, args, dir } = example(p.id, ex, 'official');
      const json = await dropscore.scoreJson(p.id, files, { set: Object.fromEntries(ex.set ?? []) });
      assert.equal(json, cli(args, dir), `${p.id}/${ex.id}`);
      cases += 1;
    }
  }
  assert.ok(cases >= 15, `${cases} examples`);
  await assert.rejects(dropscore.score('no-such-protocol', []), /no-such-protocol/);
});

test('a pre-flight check through the package', async () => {
  const dropscore = await import(pathToFileURL(path.join(pkg, 'index.js')).href);
  const gt = onDisk('examples/regression/gt.csv');
  const manifest = execFileSync(bin, ['manifest', 'regression', '--gt', gt], { encoding: 'utf8' });
  const pred = { path: 'pred.csv', data: new Uint8Array(fs.readFileSync(onDisk('examples/regression/pred.csv'))) };
  const ready = await dropscore.check('regression', manifest, [pred]);
  assert.equal(ready.ready, true, ready.summary);
  const lines = fs.readFileSync(onDisk('examples/regression/pred.csv'), 'utf8').split('\n');
  const short = { path: 'pred.csv', data: new TextEncoder().encode(lines.slice(0, 5).join('\n') + '\n') };
  const notReady = await dropscore.check('regression', manifest, [short]);
  assert.equal(notReady.ready, false);
  assert.ok(notReady.diagnostics.some((d) => d.severity === 'error'), JSON.stringify(notReady.diagnostics));
});

test('in Chromium: the package as a plain module scores an example, and embed.js defines the element', async () => {
  const { startServer } = await import(pathToFileURL(path.join(repoRoot, 'tests', 'e2e', 'server.mjs')).href);
  const gt = 'examples/regression/gt.csv';
  const pred = 'examples/regression/pred.csv';
  fs.copyFileSync(onDisk(gt), path.join(project, 'gt.csv'));
  fs.copyFileSync(onDisk(pred), path.join(project, 'pred.csv'));
  fs.writeFileSync(path.join(project, 'index.html'), `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="module">
import { scoreJson } from './node_modules/dropscore/index.js';
import './node_modules/dropscore/dist/embed.js';
const bytes = async (u) => new Uint8Array(await (await fetch(u)).arrayBuffer());
const files = [{ path: 'gt.csv', role: 'gt', data: await bytes('gt.csv') }, { path: 'pred.csv', role: 'pred', data: await bytes('pred.csv') }];
window.result = await scoreJson('regression', files);
window.element = typeof customElements.get('dropscore-evaluator');
</script>`);
  const server = await startServer({ root: project, port: 0 });
  const browser = await chromium.launch({ executablePath: process.env.DROPSCORE_CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}index.html`);
    await page.waitForFunction(() => typeof window.result === 'string', null, { timeout: 60_000 });
    const json = await page.evaluate(() => window.result);
    const { args, dir } = example('regression', { gt: [gt], pred: [pred] }, 'official');
    assert.equal(json, cli(args, dir));
    assert.equal(await page.evaluate(() => window.element), 'function');
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await server.close();
  }
});
