// The static build (scripts/build-dist): dist/ served from its own root, the embed from dist/embed.js, and the
// single-file dist/dropscore.html opened from file:// with no server at all.
//
//   scripts/build-dist --no-wasm && node --test tests/e2e/dist.test.mjs

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer, repoRoot } from './server.mjs';
import { CHROMIUM_ARGS, artifacts, findCli, cliJson, assertSameText } from './harness.mjs';

const dist = path.join(repoRoot, 'dist');
const SAMPLE = { precAt5: '0.90000', precAt10: '0.50000', map: '0.51852' };
let server;
let browser;

before(async () => {
  for (const f of ['index.html', 'embed.js', 'dropscore.html', 'build-info.json']) {
    if (!fs.existsSync(path.join(dist, f))) throw new Error(`dist/${f} is missing: run scripts/build-dist first`);
  }
  fs.mkdirSync(artifacts, { recursive: true });
  server = await startServer({ root: dist, port: 0 });
  browser = await chromium.launch({ executablePath: process.env.DROPSCORE_CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
});
after(async () => {
  await browser?.close();
  await server?.close();
});

async function open(url, routes = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  for (const [u, body] of Object.entries(routes)) await context.route(u, (r) => r.fulfill({ body, contentType: u.endsWith('.json') ? 'application/json' : 'text/html' }));
  const page = await context.newPage();
  const responses = [];
  const requests = [];
  const problems = [];
  context.on('request', (r) => requests.push(r.url()));
  context.on('response', (r) => responses.push(r));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console.error: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('worker', (w) => w.on('console', (m) => { if (m.type() === 'error') problems.push(`worker: ${m.text()}`); }));
  await page.goto(url);
  return { page, context, requests, responses, problems };
}

async function headline(page, mode) {
  return page.evaluate((m) => Object.fromEntries([...document.querySelectorAll('table.headline tbody tr')].map((tr) => [tr.dataset.metric, tr.querySelector(`td[data-mode="${m}"]`)?.textContent.trim()])), mode);
}

async function runExample(page) {
  await page.waitForSelector('a.protocol-link[aria-current=page]');
  await page.click('.example-btn[data-example="sample"]');
  await page.waitForFunction(() => ['done', 'failed', 'cancelled'].includes(document.body.dataset.run) && Number(document.body.dataset.runs ?? 0) > 0, null, { timeout: 30000 });
  assert.equal(await page.evaluate(() => document.body.dataset.run), 'done', await page.textContent('#status-text'));
}

test('dist/: content-hashed assets, the right MIME types, the kws example scores, nothing off-origin', async () => {
  const info = JSON.parse(fs.readFileSync(path.join(dist, 'build-info.json'), 'utf8'));
  assert.ok(info.wasm.gzip > 0 && info.wasm.brotli > 0 && info.wasm.gzip < info.wasm.raw, 'compressed wasm sizes reported');
  const names = fs.readdirSync(path.join(dist, 'assets')).filter((f) => /\.(js|css|wasm)$/.test(f));
  for (const f of names) assert.match(f, /^[a-z_]+\.[A-Za-z0-9]{8,10}\.(js|css|wasm)$/, `${f}: hashed name`);
  const { page, context, requests, responses, problems } = await open(server.url + 'index.html#/p/kws');
  await runExample(page);
  assert.deepEqual(await headline(page, 'official'), SAMPLE);
  assert.deepEqual(await headline(page, 'corrected'), SAMPLE);
  const mime = Object.fromEntries(responses.map((r) => [path.extname(new URL(r.url()).pathname), r.headers()['content-type']]));
  assert.equal(mime['.wasm'], 'application/wasm');
  assert.match(mime['.js'], /^text\/javascript/);
  assert.match(mime['.css'], /^text\/css/);
  const origin = new URL(server.url).origin;
  assert.deepEqual(requests.filter((u) => !/^(data|blob):/.test(u) && new URL(u).origin !== origin), []);
  assert.ok(!requests.some((u) => u.includes('/www/')), 'nothing from www/');
  const cli = findCli();
  if (cli) {
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click('button:has-text("Download JSON")')]);
    const gt = path.join(repoRoot, 'www', 'examples', 'kws', 'GroundTruthRelevanceJudgementsSample.xml');
    const pred = path.join(repoRoot, 'www', 'examples', 'kws', 'WordSpottingResultsSample.xml');
    assertSameText(fs.readFileSync(await dl.path(), 'utf8'), cliJson(cli, gt, pred, 'official'), 'dist page vs CLI');
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('dist/embed.js: the element with a config and preloaded ground truth', async () => {
  const config = JSON.stringify({ title: 'Hosted', protocol: 'kws', ground_truth: ['assets/examples/kws/GroundTruthRelevanceJudgementsSample.xml'], leaderboard: { columns: [{ key: 'map', title: 'MAP', decimals: 4 }] } });
  const host = '<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><script type="module" src="embed.js"></script></head><body><dropscore-evaluator config="contest.json"></dropscore-evaluator></body></html>';
  const { page, context, problems } = await open(server.url + 'contest.html', { [server.url + 'contest.html']: host, [server.url + 'contest.json']: config });
  await page.locator('#gt-preloaded:not([hidden])').waitFor({ timeout: 20000 });
  await page.locator('#pred-files').setInputFiles(path.join(repoRoot, 'www', 'examples', 'kws', 'WordSpottingResultsSample.xml'));
  await page.locator('#score-button').click();
  await page.locator('td.lb-value[data-key="map"]', { hasText: '0.5185' }).waitFor({ timeout: 30000 });
  assert.deepEqual(problems, []);
  await context.close();
});

test('dist/dropscore.html from file:// (no server): the kws example scores, offline', async () => {
  const file = path.join(dist, 'dropscore.html');
  const html = fs.readFileSync(file, 'utf8');
  assert.ok(!/<script[^>]+src=/i.test(html) && !/<link[^>]+stylesheet/i.test(html), 'scripts and styles inlined');
  const { page, context, requests, problems } = await open(pathToFileURL(file).href + '#/p/kws');
  await runExample(page);
  assert.deepEqual(await headline(page, 'official'), SAMPLE);
  const net = requests.filter((u) => !/^(data|blob|file):/.test(u));
  assert.deepEqual(net, [], 'no network request');
  await page.screenshot({ path: path.join(artifacts, 'single-file-kws.png'), fullPage: false });
  assert.deepEqual(problems, []);
  await context.close();
});

test('dropscore score: detailed_results.html renders in Chromium from file://, self-contained, for every built protocol', async () => {
  const cli = findCli();
  if (!cli) return;
  const list = JSON.parse(execFileSync(cli, ['list', '--format=json'], { encoding: 'utf8' }));
  let rendered = 0;
  for (const p of list.filter((x) => x.built)) {
    for (const ex of p.examples) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), `dropscore-detailed-${p.id}-`));
      for (const [role, files] of [['ref', ex.gt], ['res', ex.pred]]) {
        fs.mkdirSync(path.join(dir, 'input', role), { recursive: true });
        for (const f of files) fs.copyFileSync(path.join(repoRoot, 'www', f), path.join(dir, 'input', role, path.basename(f)));
      }
      try {
        execFileSync(cli, ['score', path.join(dir, 'input'), path.join(dir, 'output'), '--protocol', p.id,
          ...(ex.set ?? []).flatMap(([k, v]) => ['--set', `${k}=${v}`])], { stdio: 'pipe' });
      } catch (e) {
        assert.equal(e.status, 1, `${p.id}/${ex.id}: ${e.stderr}`); // input errors: detailed results still written
      }
      const file = path.join(dir, 'output', 'detailed_results.html');
      const html = fs.readFileSync(file, 'utf8');
      assert.doesNotMatch(html, /\b(src|href)\s*=/i, `${p.id}/${ex.id}: no src= or href=`);
      const { page, context, requests, problems } = await open(pathToFileURL(file).href);
      assert.deepEqual(requests.filter((u) => u !== pathToFileURL(file).href && !/^data:/.test(u)), [], 'no other request');
      assert.ok(await page.locator('h1').count() === 1 && await page.locator('table').count() >= 1);
      const svgs = await page.locator('svg').count();
      const box = await page.locator('body').boundingBox();
      assert.ok(box.height > 100, 'renders');
      if (rendered === 0) await page.screenshot({ path: path.join(artifacts, `detailed-${p.id}-${ex.id}.png`), fullPage: true });
      assert.deepEqual(problems, []);
      assert.ok(svgs >= 0);
      await context.close();
      fs.rmSync(dir, { recursive: true, force: true });
      rendered++;
    }
  }
  assert.ok(rendered >= 1);
});
