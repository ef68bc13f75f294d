// Shared helpers for the browser end-to-end tests (one test file per protocol: tests/e2e/<protocol>.test.mjs).
//
//   import { setup, openPage, score, headline, ... } from './harness.mjs';
//   setup();   // at the top level of a test file: starts the server and Chromium before its tests, stops them after
//
// Environment (all optional):
//   DROPSCORE_CHROMIUM      browser executable (default /usr/bin/chromium)
//   DROPSCORE_E2E_BASE_URL  test an already running server instead of starting tests/e2e/server.mjs
//   DROPSCORE_BIN           a native dropscore binary built from the same source; when set, "Download JSON"
//                           is compared byte for byte with `dropscore <protocol> … --format json`
//   DROPSCORE_PKG           the wasm build the page loads, served as www/pkg/ (default www/pkg; a build with
//                           other features: scripts/build-wasm --features toy --out target/toy/pkg)
// Screenshots go to tests/e2e/artifacts/ (gitignored).

import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import zlib from 'node:zlib';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer, repoRoot } from './server.mjs';

export { repoRoot };
const here = path.dirname(fileURLToPath(import.meta.url));
export const artifacts = path.join(here, 'artifacts');

export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

let server = null;
export let baseUrl;
export let browser;
/** The wasm build the page loads (www/pkg, or DROPSCORE_PKG). */
export const pkgDir = path.resolve(process.env.DROPSCORE_PKG ?? path.join(repoRoot, 'www', 'pkg'));

/**
 * Every protocol as the page lists it: the wasm `protocols()` of the build the page loads (run in Node), with
 * its options and examples. Registry-driven tests iterate it, so a new protocol is tested without a list.
 */
export async function registry() {
  const wasm = await import(pathToFileURL(path.join(pkgDir, 'dropscore.js')).href);
  await wasm.default({ module_or_path: fs.readFileSync(path.join(pkgDir, 'dropscore_bg.wasm')) });
  return JSON.parse(wasm.protocols());
}

/** An example's path (relative to the page, www/) on disk: www/PATH, else PATH in the repository. */
export const exampleFile = (p) => [path.join(repoRoot, 'www', p), path.join(repoRoot, p)].find((f) => fs.existsSync(f));

/** Registers before/after hooks: a static server on the repository (or DROPSCORE_E2E_BASE_URL) and Chromium. */
export function setup({ requiredFiles = [] } = {}) {
  before(async () => {
    if (process.env.DROPSCORE_E2E_BASE_URL) {
      baseUrl = new URL(process.env.DROPSCORE_E2E_BASE_URL).href;
    } else {
      const pkg = path.join(pkgDir, 'dropscore.js');
      if (!fs.existsSync(pkg)) {
        throw new Error(`${path.relative(repoRoot, pkg)} is missing: build the wasm first (scripts/build-wasm)`);
      }
      const mounts = process.env.DROPSCORE_PKG ? { '/www/pkg/': pkgDir } : {};
      server = await startServer({ root: repoRoot, port: 0, mounts });
      baseUrl = server.url;
    }
    for (const f of requiredFiles) {
      if (!fs.existsSync(f)) throw new Error(`test data missing: ${f}`);
    }
    fs.mkdirSync(artifacts, { recursive: true });
    browser = await chromium.launch({ executablePath: process.env.DROPSCORE_CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    server = null;
  });
}

/**
 * A fresh page that records console errors, page errors and every request; `check()` asserts that
 * none went to another origin and that nothing was logged as an error.
 */
export async function openPage(hash = '#/p/kws', { width = 1280, height = 900 } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, acceptDownloads: true });
  const page = await context.newPage();
  const origin = new URL(baseUrl).origin;
  const problems = [];
  const requests = [];
  context.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console.error: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('worker', (w) => w.on('console', (m) => {
    if (m.type() === 'error') problems.push(`worker console.error: ${m.text()}`);
  }));
  await page.goto(new URL(hash, baseUrl).href);
  await page.waitForSelector('a.protocol-link[aria-current=page]');
  const check = () => {
    const foreign = requests.filter((u) => !/^(data|blob):/.test(u) && new URL(u).origin !== origin);
    assert.deepEqual(foreign, [], 'requests to other origins');
    assert.ok(requests.length > 0, 'requests were recorded');
    assert.deepEqual(problems, [], 'console errors');
  };
  return { page, context, check, requests, problems };
}

/** Does `action` (which starts a run) and waits until that run ends; returns done | cancelled | failed. */
export async function runOf(page, action, timeout = 60000) {
  const before = await page.evaluate(() => Number(document.body.dataset.runs ?? 0));
  await action();
  await page.waitForFunction((n) => Number(document.body.dataset.runs ?? 0) > n
    && ['done', 'cancelled', 'failed'].includes(document.body.dataset.run), before, { timeout });
  return page.evaluate(() => document.body.dataset.run);
}

export async function headline(page, mode) {
  return page.evaluate((m) => {
    const out = {};
    for (const tr of document.querySelectorAll('table.headline tbody tr')) {
      out[tr.dataset.metric] = tr.querySelector(`td[data-mode="${m}"]`)?.textContent.trim();
    }
    return out;
  }, mode);
}

export async function score(page) {
  const state = await runOf(page, () => page.click('#score-button'));
  assert.equal(state, 'done', `run ended as ${state}: ${await page.textContent('#status-text')}`);
}

export async function shot(page, name) {
  await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });
}

export async function dropFiles(page, zoneSelector, files) {
  const payload = files.map((f) => ({ name: path.basename(f), b64: fs.readFileSync(f).toString('base64') }));
  await page.evaluate(({ zoneSelector, payload }) => {
    const dt = new DataTransfer();
    for (const f of payload) {
      const bin = atob(f.b64);
      const bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      dt.items.add(new File([bytes], f.name, { type: 'text/xml' }));
    }
    const zone = document.querySelector(zoneSelector);
    for (const type of ['dragenter', 'dragover', 'drop']) {
      zone.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: dt }));
    }
  }, { zoneSelector, payload });
  for (const f of payload) {
    await page.locator(`${zoneSelector} .file-path`, { hasText: f.name }).waitFor();
  }
}

/** A minimal zip archive (stored entries, no compression) for the tests. */
export function storedZip(entries) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const { name, data } of entries) {
    const nameBuf = Buffer.from(name, 'utf8');
    const crc = zlib.crc32(data) >>> 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt32LE(0, 10); // time, date
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBuf.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(0, 10);
    central.writeUInt32LE(0, 12);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBuf.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBuf, data);
    centrals.push(central, nameBuf);
    offset += local.length + nameBuf.length + data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

export function findCli() {
  const bin = process.env.DROPSCORE_BIN;
  return bin && fs.existsSync(bin) ? bin : null;
}

/**
 * `dropscore PROTOCOL --gt GT --pred PRED --mode MODE --format json`, run in the files' folder so that it names
 * the files exactly as the page does (by their bare names). Exit status 1 (input errors) still prints JSON.
 * `gt` and `pred` are a path or an array of paths, all in one folder.
 */
export function cliJson(cli, gt, pred, mode, protocol = 'kws') {
  const gts = [gt].flat();
  const preds = [pred].flat();
  const dir = path.dirname(gts[0]);
  for (const f of [...gts, ...preds]) assert.equal(path.dirname(f), dir, 'cliJson: all files in one folder');
  const args = [protocol];
  for (const f of gts) args.push('--gt', path.basename(f));
  for (const f of preds) args.push('--pred', path.basename(f));
  args.push('--mode', mode, '--format', 'json');
  try {
    return execFileSync(cli, args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    if (e.status === 1 && e.stdout) return e.stdout;
    throw e;
  }
}

/** Clicks "Download JSON" for the shown report (mode: official | corrected) and returns the text. */
export async function downloadJson(page, mode) {
  await page.check(`input[name=view-mode][value=${mode}]`);
  await page.waitForFunction((m) => document.querySelector('.r-details')?.dataset.view === m, mode);
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('button:has-text("Download JSON")')]);
  assert.match(dl.suggestedFilename(), new RegExp(`-${mode}\\.json$`));
  return fs.readFileSync(await dl.path(), 'utf8');
}

/** Byte equality of two long texts; on failure shows where they first differ instead of both texts. */
export function assertSameText(actual, expected, what) {
  if (actual === expected) return;
  let i = 0;
  while (i < actual.length && i < expected.length && actual[i] === expected[i]) i++;
  const around = (s) => JSON.stringify(s.slice(Math.max(0, i - 60), i + 60));
  assert.fail(`${what}: differ at character ${i} (lengths ${actual.length} and ${expected.length})\n  page: …${around(actual)}…\n  CLI:  …${around(expected)}…\n` +
    '  (a stale build? rebuild both: scripts/build-wasm and cargo build --release)');
}

/** With DROPSCORE_BIN set: both downloads are byte-identical to the CLI's JSON. */
export async function compareWithCli(page, gt, pred, protocol = 'kws') {
  const cli = findCli();
  if (!cli) return false;
  for (const mode of ['official', 'corrected']) {
    assertSameText(await downloadJson(page, mode), cliJson(cli, gt, pred, mode, protocol), `${mode}: Download JSON vs the CLI's --format json (${cli})`);
  }
  return true;
}
