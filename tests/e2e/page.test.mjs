// Browser end-to-end tests of the dropscore page (index.html + www/), with the real wasm engine.
//
//   node --test tests/e2e/
//
// Needs: www/pkg (scripts/build-wasm), www/examples/kws, tests/data/kws, /usr/bin/chromium, npm playwright-core.
// Environment (all optional):
//   DROPSCORE_CHROMIUM      browser executable (default /usr/bin/chromium)
//   DROPSCORE_E2E_BASE_URL  test an already running server instead of starting tests/e2e/server.mjs
//   DROPSCORE_E2E_DATA      the kws test data folder (default tests/data/kws)
//   DROPSCORE_BIN           a native dropscore binary built from the same source; when set, "Download JSON"
//                           is compared byte for byte with `dropscore kws … --format json`
// Screenshots go to tests/e2e/artifacts/ (gitignored).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import zlib from 'node:zlib';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer, repoRoot } from './server.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const artifacts = path.join(here, 'artifacts');
const dataDir = path.resolve(process.env.DROPSCORE_E2E_DATA ?? path.join(repoRoot, 'tests', 'data', 'kws'));
const sampleGt = path.join(dataDir, 'rusteval', 'GroundTruthRelevanceJudgementsSample.xml');
const samplePred = path.join(dataDir, 'rusteval', 'WordSpottingResultsSample.xml');
const edgeGt = path.join(dataDir, 'edge', 'gt.xml');
const edgeBlank = path.join(dataDir, 'edge', 'res_blank.xml');
const bigPred = path.join(dataDir, 'synthetic', 'SYNTH_TRACK_I_Bentham.xml.gz');
const bigGt = path.join(dataDir, 'rusteval', 'TRACK_I_Bentham_ICFHR2014.RelevanceJudgements.xml');

const SAMPLE = { precAt5: '0.90000', precAt10: '0.50000', map: '0.51852' };

const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

let server = null;
let baseUrl;
let browser;

before(async () => {
  if (process.env.DROPSCORE_E2E_BASE_URL) {
    baseUrl = new URL(process.env.DROPSCORE_E2E_BASE_URL).href;
  } else {
    const pkg = path.join(repoRoot, 'www', 'pkg', 'dropscore.js');
    if (!fs.existsSync(pkg)) {
      throw new Error(`${path.relative(repoRoot, pkg)} is missing: build the wasm first (scripts/build-wasm)`);
    }
    server = await startServer({ root: repoRoot, port: 0 });
    baseUrl = server.url;
  }
  for (const f of [sampleGt, samplePred, edgeGt, edgeBlank]) {
    if (!fs.existsSync(f)) throw new Error(`test data missing: ${f}`);
  }
  fs.mkdirSync(artifacts, { recursive: true });
  browser = await chromium.launch({ executablePath: process.env.DROPSCORE_CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/**
 * A fresh page that records console errors, page errors and every request; `check()` asserts that
 * none went to another origin and that nothing was logged as an error.
 */
async function openPage(hash = '#/p/kws', { width = 1280, height = 900 } = {}) {
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
async function runOf(page, action, timeout = 60000) {
  const before = await page.evaluate(() => Number(document.body.dataset.runs ?? 0));
  await action();
  await page.waitForFunction((n) => Number(document.body.dataset.runs ?? 0) > n
    && ['done', 'cancelled', 'failed'].includes(document.body.dataset.run), before, { timeout });
  return page.evaluate(() => document.body.dataset.run);
}

async function headline(page, mode) {
  return page.evaluate((m) => {
    const out = {};
    for (const tr of document.querySelectorAll('table.headline tbody tr')) {
      out[tr.dataset.metric] = tr.querySelector(`td[data-mode="${m}"]`)?.textContent.trim();
    }
    return out;
  }, mode);
}

async function score(page) {
  const state = await runOf(page, () => page.click('#score-button'));
  assert.equal(state, 'done', `run ended as ${state}: ${await page.textContent('#status-text')}`);
}

async function shot(page, name) {
  await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });
}

async function dropFiles(page, zoneSelector, files) {
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
function storedZip(entries) {
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

function findCli() {
  const bin = process.env.DROPSCORE_BIN;
  return bin && fs.existsSync(bin) ? bin : null;
}

/**
 * `dropscore kws --gt GT --pred PRED --mode MODE --format json`, run in the files' folder so that it names
 * the files exactly as the page does (by their bare names). Exit status 1 (input errors) still prints JSON.
 */
function cliJson(cli, gt, pred, mode) {
  assert.equal(path.dirname(gt), path.dirname(pred));
  const args = ['kws', '--gt', path.basename(gt), '--pred', path.basename(pred), '--mode', mode, '--format', 'json'];
  try {
    return execFileSync(cli, args, { cwd: path.dirname(gt), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    if (e.status === 1 && e.stdout) return e.stdout;
    throw e;
  }
}

/** Clicks "Download JSON" for the shown report (mode: official | corrected) and returns the text. */
async function downloadJson(page, mode) {
  await page.check(`input[name=view-mode][value=${mode}]`);
  await page.waitForFunction((m) => document.querySelector('.r-details')?.dataset.view === m, mode);
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('button:has-text("Download JSON")')]);
  assert.match(dl.suggestedFilename(), new RegExp(`-${mode}\\.json$`));
  return fs.readFileSync(await dl.path(), 'utf8');
}

/** Byte equality of two long texts; on failure shows where they first differ instead of both texts. */
function assertSameText(actual, expected, what) {
  if (actual === expected) return;
  let i = 0;
  while (i < actual.length && i < expected.length && actual[i] === expected[i]) i++;
  const around = (s) => JSON.stringify(s.slice(Math.max(0, i - 60), i + 60));
  assert.fail(`${what}: differ at character ${i} (lengths ${actual.length} and ${expected.length})\n  page: …${around(actual)}…\n  CLI:  …${around(expected)}…\n` +
    '  (a stale build? rebuild both: scripts/build-wasm and cargo build --release)');
}

/** With DROPSCORE_BIN set: both downloads are byte-identical to the CLI's JSON. */
async function compareWithCli(page, gt, pred) {
  const cli = findCli();
  if (!cli) return false;
  for (const mode of ['official', 'corrected']) {
    assertSameText(await downloadJson(page, mode), cliJson(cli, gt, pred, mode), `${mode}: Download JSON vs the CLI's --format json (${cli})`);
  }
  return true;
}

test('lists the five protocols; the hash selects one; unbuilt ones cannot score', async () => {
  const { page, context, check } = await openPage('#/p/kws');
  const ids = await page.$$eval('a.protocol-link', (as) => as.map((a) => a.dataset.protocol));
  assert.deepEqual([...ids].sort(), ['aij2022', 'chalearn-ce', 'falsid', 'fest', 'kws']);
  assert.equal(await page.getAttribute('a.protocol-link[aria-current=page]', 'data-protocol'), 'kws');
  assert.match(await page.textContent('#zone-gt-expect'), /\S/, 'what to drop as ground truth');
  assert.match(await page.textContent('#zone-pred-expect'), /\S/, 'what to drop as predictions');
  assert.ok(await page.locator('#options-body .opt-row').count() > 0, 'kws shows its options');

  const unbuilt = await page.$$eval('a.protocol-link.is-unbuilt', (as) => as.map((a) => a.dataset.protocol));
  for (const id of unbuilt) {
    assert.match(await page.textContent(`a.protocol-link[data-protocol="${id}"]`), /not built yet/);
  }
  if (unbuilt.length) {
    await page.click(`a.protocol-link[data-protocol="${unbuilt[0]}"]`);
    await page.waitForFunction((id) => location.hash === `#/p/${id}`, unbuilt[0]);
    assert.equal(await page.getAttribute('a.protocol-link[aria-current=page]', 'data-protocol'), unbuilt[0]);
    await page.setInputFiles('#gt-files', sampleGt);
    assert.equal(await page.isDisabled('#score-button'), true, 'an unbuilt protocol cannot score');
    assert.match(await page.textContent('#run-hint'), /not built yet/);
  }
  await page.goto(new URL('#/p/kws', baseUrl).href);
  await page.waitForFunction(() => document.querySelector('a.protocol-link[aria-current=page]')?.dataset.protocol === 'kws');
  check();
  await context.close();
});

test('kws: "Try an example" scores the sample in one click (official and corrected)', async () => {
  const { page, context, check } = await openPage('#/p/kws');
  assert.equal(await runOf(page, () => page.click('.example-btn')), 'done');
  assert.deepEqual(await headline(page, 'official'), SAMPLE);
  assert.deepEqual(await headline(page, 'corrected'), SAMPLE);
  assert.equal(await page.locator('#gt-list .file').count(), 1);
  assert.equal(await page.locator('#pred-list .file').count(), 1);
  // explanation of the differences is shown (a list, or the "same result" sentence)
  await page.waitForSelector('.explain .explain-list, .explain p:not(.pending)');
  // per-query table and plots
  assert.deepEqual(await page.$$eval('.items-table tbody tr.item-row', (trs) => trs.map((tr) => tr.dataset.item)), ['sb0000', 'sb0001']);
  assert.ok(await page.locator('figure.plot svg[role=img]').count() >= 2, 'plots are drawn');
  assert.ok(await page.locator('figure.plot svg title').count() >= 2, 'plots have <title>');
  await shot(page, 'kws-example-1280');
  check();
  await context.close();
});

test('kws: the trec_eval example (qrels + run) shows trec_eval numbers', async () => {
  const { page, context, check } = await openPage('#/p/kws');
  const button = page.locator('.example-btn[data-example="trec-sample"]');
  if (!(await button.count())) {
    await context.close();
    return; // no trec example in this build
  }
  assert.equal(await runOf(page, () => button.click()), 'done');
  const official = await headline(page, 'official');
  // specs/kws.md 7.1: trec_eval on sample.qrels.bin + sample.run
  assert.equal(official.map, '0.5185');
  assert.equal(official.P_5, '0.9000');
  assert.equal(official.P_10, '0.4500');
  assert.equal(official.num_q, '2');
  check();
  await context.close();
});

test('kws: files through the file inputs give the same numbers; JSON and CSV downloads', async () => {
  const { page, context, check } = await openPage('#/p/kws');
  await page.setInputFiles('#gt-files', sampleGt);
  await page.setInputFiles('#pred-files', samplePred);
  await page.locator('#gt-list .file-path', { hasText: path.basename(sampleGt) }).waitFor();
  await page.locator('#pred-list .file-path', { hasText: path.basename(samplePred) }).waitFor();
  await score(page);
  assert.deepEqual(await headline(page, 'official'), SAMPLE);

  const json = await downloadJson(page, 'official');
  const report = JSON.parse(json);
  assert.equal(report.schema, 1);
  assert.equal(report.protocol, 'kws');
  assert.equal(report.mode, 'official');
  assert.ok(json.endsWith('\n'));
  await compareWithCli(page, sampleGt, samplePred);
  await page.check('input[name=view-mode][value=official]');

  const [csvDl] = await Promise.all([page.waitForEvent('download'), page.click('button:has-text("Download CSV")')]);
  const csv = fs.readFileSync(await csvDl.path(), 'utf8').trim().split(/\r?\n/);
  assert.equal(csv.length, 3, 'header + 2 queries');
  assert.match(csv[0], /^query,/);
  assert.match(csv[1], /^sb0000,/);
  check();
  await context.close();
});

test('kws: simulated drag and drop onto the zones', async () => {
  const { page, context, check } = await openPage('#/p/kws');
  await dropFiles(page, '#zone-gt', [sampleGt]);
  await dropFiles(page, '#zone-pred', [samplePred]);
  await score(page);
  assert.deepEqual(await headline(page, 'official'), SAMPLE);
  // changing the inputs marks the result as stale; scoring again replaces it
  await page.setInputFiles('#pred-files', edgeBlank);
  assert.ok(await page.isVisible('.stale-note'), 'stale note after the inputs changed');
  await page.click('#pred-list .file-remove >> nth=1');
  await score(page);
  assert.equal(await page.isVisible('.stale-note'), false);
  assert.deepEqual(await headline(page, 'official'), SAMPLE);
  // removing a file and clearing a zone
  await page.click('#pred-list .file-remove');
  assert.equal(await page.locator('#pred-list .file').count(), 0);
  await page.click('#gt-list .link-btn');
  assert.equal(await page.locator('#gt-list .file').count(), 0);
  assert.equal(await page.isDisabled('#score-button'), true);
  check();
  await context.close();
});

test('kws: a dropped zip is opened by the engine; its diagnostics point into the archive', async () => {
  const { page, context, check } = await openPage('#/p/kws');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dropscore-e2e-'));
  try {
    const zipPath = path.join(dir, 'res.zip');
    fs.writeFileSync(zipPath, storedZip([{ name: 'res/results.xml', data: fs.readFileSync(edgeBlank) }]));
    await page.setInputFiles('#gt-files', edgeGt);
    await dropFiles(page, '#zone-pred', [zipPath]);
    await score(page);
    const loc = await page.locator('.diag[data-code="kws.official.reader_panic"] .diag-loc').first().textContent();
    assert.match(loc, /^res\.zip!res\/results\.xml:4/);
    assert.match(await page.textContent('#pred-list'), /1 error/, 'the zip in the file list carries the error count');
    assert.deepEqual(await headline(page, 'corrected'), { precAt5: '0.33333', precAt10: '0.50000', map: '0.34921' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  check();
  await context.close();
});

test('kws: a folder chosen with the folder picker keeps its relative paths', async () => {
  const { page, context, check } = await openPage('#/p/kws');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dropscore-e2e-'));
  try {
    const sub = path.join(dir, 'my_run');
    fs.mkdirSync(sub);
    fs.copyFileSync(samplePred, path.join(sub, path.basename(samplePred)));
    await page.setInputFiles('#gt-files', sampleGt);
    await page.setInputFiles('#pred-folder', sub);
    await page.locator('#pred-list .file-path', { hasText: `my_run/${path.basename(samplePred)}` }).waitFor();
    await score(page);
    assert.deepEqual(await headline(page, 'official'), SAMPLE);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  check();
  await context.close();
});

test('kws: a blank line in the results shows the located official-mode diagnostic', async () => {
  const { page, context, check } = await openPage('#/p/kws');
  await page.setInputFiles('#gt-files', edgeGt);
  await page.setInputFiles('#pred-files', edgeBlank);
  await page.check('input[name=mode][value=official]');
  await score(page);
  const diag = page.locator('.diag[data-code="kws.official.reader_panic"]').first();
  await diag.waitFor();
  assert.equal(await diag.getAttribute('data-severity'), 'error');
  assert.match(await diag.locator('.diag-loc').textContent(), /res_blank\.xml:4(:\d+)?$/);
  assert.match(await diag.textContent(), /Official scorer/);
  assert.ok(await page.locator('.notice-strong', { hasText: 'official scorer fails' }).isVisible(), 'prominent notice');
  // errors are listed first
  const severities = await page.$$eval('.diag', (ds) => ds.map((d) => d.dataset.severity));
  const rank = { error: 0, warning: 1, info: 2 };
  assert.deepEqual(severities, [...severities].sort((a, b) => rank[a] - rank[b]));
  // the official score is blocked; the corrected one is computed (blank lines ignored)
  const official = await headline(page, 'official');
  assert.equal(official.map, '—');
  const corrected = await headline(page, 'corrected');
  assert.deepEqual(corrected, { precAt5: '0.33333', precAt10: '0.50000', map: '0.34921' });
  // the file list points at the problem
  assert.match(await page.textContent('#pred-list'), /1 error/);
  await shot(page, 'kws-blank-line-1280');
  await compareWithCli(page, edgeGt, edgeBlank);
  check();
  await context.close();
});

test('kws: files dropped in the wrong zones still score; the file list shows the role note', async () => {
  const { page, context, check } = await openPage('#/p/kws');
  await page.setInputFiles('#gt-files', samplePred);
  await page.setInputFiles('#pred-files', sampleGt);
  await score(page);
  assert.deepEqual(await headline(page, 'official'), SAMPLE);
  assert.equal(await page.locator('#gt-list .file-note').count(), 1, 'a role note on the misplaced results file');
  assert.equal(await page.locator('#pred-list .file-note').count(), 1, 'a role note on the misplaced GT file');
  check();
  await context.close();
});

test('per-query table: sortable by keyboard-reachable header buttons, filterable, rows expand', async () => {
  const { page, context, check } = await openPage('#/p/kws');
  assert.equal(await runOf(page, () => page.click('.example-btn')), 'done');
  const order = () => page.$$eval('.items-table tbody tr.item-row', (trs) => trs.map((tr) => tr.dataset.item));
  const apHeader = page.locator('.items-table thead th', { has: page.locator('button[data-col="ap"]') });
  await page.focus('button[data-col="ap"]');
  await page.keyboard.press('Enter');
  assert.equal(await apHeader.getAttribute('aria-sort'), 'descending');
  assert.deepEqual(await order(), ['sb0000', 'sb0001']);
  await page.keyboard.press('Enter');
  assert.equal(await apHeader.getAttribute('aria-sort'), 'ascending');
  assert.deepEqual(await order(), ['sb0001', 'sb0000']);
  await page.fill('.filter-input', 'sb0000');
  assert.deepEqual(await order(), ['sb0000']);
  await page.fill('.filter-input', '');
  await page.click('button.row-toggle[data-item="sb0000"]');
  assert.equal(await page.getAttribute('button.row-toggle[data-item="sb0000"]', 'aria-expanded'), 'true');
  assert.ok(await page.locator('tr.detail-row').count() === 1);
  await shot(page, 'kws-table-detail-1280');
  check();
  await context.close();
});

test('keyboard: the file inputs, mode and Score are reachable with Tab in a logical order', async () => {
  const { page, context, check } = await openPage('#/p/kws');
  const seen = [];
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    const id = await page.evaluate(() => {
      const a = document.activeElement;
      return a?.id || (a?.name ? `${a.name}=${a.value}` : a?.dataset?.protocol ? `p:${a.dataset.protocol}` : a?.tagName);
    });
    seen.push(id);
  }
  const want = ['p:kws', 'gt-files', 'gt-folder', 'pred-files', 'pred-folder', 'mode=official'];
  let last = -1;
  for (const w of want) {
    const i = seen.indexOf(w, last + 1);
    assert.ok(i > last, `${w} reachable after ${want[want.indexOf(w) - 1] ?? 'start'} (tab order: ${seen.join(', ')})`);
    last = i;
  }
  // the visually hidden file input shows its focus on its label
  await page.focus('#gt-files');
  const outline = await page.$eval('label[for=gt-files]', (l) => getComputedStyle(l).outlineStyle);
  assert.notEqual(outline, 'none');
  check();
  await context.close();
});

test('narrow 400 px viewport: no horizontal scrolling, results readable', async () => {
  const { page, context, check } = await openPage('#/p/kws', { width: 400, height: 860 });
  assert.equal(await runOf(page, () => page.click('.example-btn')), 'done');
  assert.deepEqual(await headline(page, 'official'), SAMPLE);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the viewport`);
  await shot(page, 'kws-example-400');
  check();
  await context.close();
});

test('Cancel terminates the worker, says "Cancelled", and a fresh worker scores again', { skip: !fs.existsSync(bigPred) && 'no large fixture' }, async () => {
  const { page, context, check } = await openPage('#/p/kws');
  await page.setInputFiles('#gt-files', bigGt);
  await page.setInputFiles('#pred-files', bigPred);
  const ended = await runOf(page, async () => {
    await page.click('#score-button');
    await page.waitForSelector('#progress-box:not([hidden])');
    await page.click('#cancel-button');
  });
  assert.equal(ended, 'cancelled');
  assert.match(await page.textContent('#status-text'), /Cancelled/);
  assert.equal(await page.isVisible('#progress-box'), false);
  // the engine works again
  assert.equal(await runOf(page, () => page.click('.example-btn')), 'done');
  assert.deepEqual(await headline(page, 'official'), SAMPLE);
  check();
  await context.close();
});
