// Browser tests of the organizers' embed: <dropscore-evaluator> (www/embed.js) on examples/embed.html, a fake
// competition page served from another path than the app, with the kws example config (examples/kws/).
//
//   node --test tests/e2e/embed.test.mjs     (needs www/pkg; DROPSCORE_BIN for the CLI comparisons)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { execFileSync } from 'node:child_process';
import {
  setup, repoRoot, baseUrl, browser, artifacts, findCli, cliJson, assertSameText,
} from './harness.mjs';
import { fixed } from '../../www/util.js';

const GT = path.join(repoRoot, 'www', 'examples', 'kws', 'GroundTruthRelevanceJudgementsSample.xml');
const PRED = path.join(repoRoot, 'www', 'examples', 'kws', 'WordSpottingResultsSample.xml');

setup({ requiredFiles: [GT, PRED, path.join(repoRoot, 'examples', 'embed.html')] });

const EL = 'dropscore-evaluator';

/** A page that records every request, console error and page error. */
async function open(url, { width = 1400, height = 1000, routes = {} } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, acceptDownloads: true });
  for (const [rel, { body, type = 'text/html' }] of Object.entries(routes)) {
    await context.route(new URL(rel, baseUrl).href, (r) => r.fulfill({ body, contentType: type }));
  }
  const page = await context.newPage();
  const origin = new URL(baseUrl).origin;
  const requests = [];
  const problems = [];
  context.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console.error: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('worker', (w) => w.on('console', (m) => { if (m.type() === 'error') problems.push(`worker: ${m.text()}`); }));
  await page.goto(new URL(url, baseUrl).href);
  const check = () => {
    const foreign = requests.filter((u) => !/^(data|blob):/.test(u) && new URL(u).origin !== origin);
    assert.deepEqual(foreign, [], 'no request to another origin');
    assert.deepEqual(problems, [], 'no console or page errors');
  };
  return { page, context, requests, problems, check };
}

async function waitPreloaded(scope) {
  await scope.locator('#gt-preloaded:not([hidden])').waitFor({ timeout: 20000 });
}

/** Chooses the prediction file, clicks Score, waits for the element's run to end. */
async function scorePred(page, scope = page, el = EL) {
  await scope.locator('#pred-files').setInputFiles(PRED);
  const handle = await scope.locator(el).elementHandle();
  const before = await handle.evaluate((e) => Number(e.dataset.runs ?? 0));
  await scope.locator('#score-button').click();
  await page.waitForFunction(([e, n]) => Number(e.dataset.runs ?? 0) > n && ['done', 'failed', 'cancelled'].includes(e.dataset.run), [handle, before], { timeout: 30000 });
  assert.equal(await handle.evaluate((e) => e.dataset.run), 'done');
}

async function leaderboard(scope) {
  const heads = await scope.locator('table.leaderboard thead th[data-key]').evaluateAll((ths) => ths.map((t) => [t.dataset.key, t.textContent.trim()]));
  const values = await scope.locator('table.leaderboard td.lb-value').evaluateAll((tds) => tds.map((t) => [t.dataset.key, t.textContent.trim()]));
  return { heads, values: Object.fromEntries(values) };
}

/** `dropscore score` on a Codabench folder with the example config: scores.json. */
function cliScores(cli) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dropscore-embed-'));
  fs.mkdirSync(path.join(dir, 'input', 'ref'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'input', 'res'), { recursive: true });
  fs.copyFileSync(GT, path.join(dir, 'input', 'ref', path.basename(GT)));
  fs.copyFileSync(PRED, path.join(dir, 'input', 'res', path.basename(PRED)));
  execFileSync(cli, ['score', path.join(dir, 'input'), path.join(dir, 'output'), '--config', path.join(repoRoot, 'examples', 'kws', 'dropscore.toml')]);
  const scores = JSON.parse(fs.readFileSync(path.join(dir, 'output', 'scores.json'), 'utf8'));
  fs.rmSync(dir, { recursive: true, force: true });
  return scores;
}

test('embed.html: ground truth preloaded, predictions dropped, leaderboard preview = dropscore score (CLI)', async () => {
  const { page, context, check, requests } = await open('examples/embed.html');
  await waitPreloaded(page);
  assert.equal(await page.locator('#zone-gt').isHidden(), true, 'the ground-truth zone is hidden');
  assert.match(await page.locator('#gt-preloaded').textContent(), /GroundTruthRelevanceJudgementsSample\.xml/);
  assert.equal(await page.locator(`${EL} #step-protocol-title`).textContent(), '1H-KWS 2014 sample track');
  assert.equal(await page.locator('nav[aria-label="Protocols"]').isHidden(), true, 'no protocol picker');
  await scorePred(page);
  const lb = await leaderboard(page);
  assert.deepEqual(lb.heads, [['map', 'MAP ↓'], ['precAt5', 'P@5 ↓'], ['precAt10', 'P@10 ↓']]);
  assert.deepEqual(lb.values, { map: '0.5185', precAt5: '0.900', precAt10: '0.500' });
  const cli = findCli();
  if (cli) {
    const scores = cliScores(cli);
    const decimals = { map: 4, precAt5: 3, precAt10: 3 };
    for (const [k, v] of Object.entries(scores)) assert.equal(lb.values[k], fixed(v, decimals[k]), `${k}: page preview vs scores.json`);
    // The whole report: "Download JSON" inside the element equals `dropscore kws --format json`.
    const [dl] = await Promise.all([page.waitForEvent('download'), page.locator('button:has-text("Download JSON")').click()]);
    assertSameText(fs.readFileSync(await dl.path(), 'utf8'), cliJson(cli, GT, PRED, 'official'), 'embedded Download JSON vs the CLI');
  }
  // Everything came from this origin, under /examples/ (the page, the config) and /www/ (the app, the ground truth).
  const paths = requests.filter((u) => u.startsWith('http')).map((u) => new URL(u).pathname);
  assert.ok(paths.includes('/examples/kws/dropscore.json'));
  assert.ok(paths.includes('/www/examples/kws/GroundTruthRelevanceJudgementsSample.xml'));
  assert.ok(!paths.includes('/index.html') && !paths.includes('/'), 'the app page itself is not loaded');
  await page.screenshot({ path: path.join(artifacts, 'embed-kws.png'), fullPage: true });
  check();
  await context.close();
});

const PLAIN = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="module" src="../www/embed.js"></script></head>
<body style="margin:0"><div style="width:1200px"><dropscore-evaluator config="kws/dropscore.json"></dropscore-evaluator></div></body></html>`;
const HOSTILE_CSS = `html { font-size: 31px; line-height: 3; } body { font: italic 22px/2.5 Georgia, serif; color: #c00; letter-spacing: 2px; word-spacing: 8px; text-transform: uppercase; }
div, section, p, h2, h3, table, td, th, button, label, input, span { margin: 9px; padding: 7px; border: 3px solid lime; font-size: 40px; color: purple; background: yellow; }
button { border-radius: 0; min-height: 90px; } * { box-sizing: content-box; } table { border-collapse: separate; }
:root { --accent: #00ff00; --bg: #000; --text: #f0f; --surface: #0ff; }`;
const HOSTILE = PLAIN.replace('</head>', `<style>${HOSTILE_CSS}</style></head>`).replace('<div style="width:1200px">', '<div style="width:1200px; margin:0; padding:0; border:0">');

test("the host page's CSS does not change the element's look (screenshots of key elements)", async () => {
  const shots = {};
  for (const [name, body] of [['plain', PLAIN], ['hostile', HOSTILE]]) {
    const { page, context, check } = await open(`examples/__${name}.html`, { routes: { [`examples/__${name}.html`]: { body } } });
    await waitPreloaded(page);
    await scorePred(page);
    await page.evaluate(() => document.querySelector('dropscore-evaluator').shadowRoot.activeElement?.blur());
    await page.mouse.move(0, 0);
    shots[name] = {};
    for (const sel of ['#step-protocol-title', '#zone-pred', '#score-button', 'table.leaderboard', 'table.headline', '.r-view']) {
      shots[name][sel] = await page.locator(sel).first().screenshot({ animations: 'disabled', caret: 'hide' });
      fs.writeFileSync(path.join(artifacts, `embed-${name}-${sel.replace(/[^a-z]+/g, '_')}.png`), shots[name][sel]);
    }
    // The host's own styles still apply outside the element.
    if (name === 'hostile') assert.equal(await page.evaluate(() => getComputedStyle(document.body).color), 'rgb(204, 0, 0)');
    check();
    await context.close();
  }
  for (const sel of Object.keys(shots.plain)) {
    assert.ok(shots.plain[sel].equals(shots.hostile[sel]), `${sel}: the same pixels with and without the host page's CSS`);
  }
});

test('theming through CSS custom properties on the element', async () => {
  const { page, context, check } = await open('examples/embed.html');
  await waitPreloaded(page);
  await page.locator('#pred-files').setInputFiles(PRED);
  const bg = await page.locator('#score-button').evaluate((b) => getComputedStyle(b).backgroundColor);
  assert.equal(bg, 'rgb(91, 35, 51)', 'the --accent set by the host page');
  check();
  await context.close();
});

test('works inside an <iframe>', async () => {
  const frame = '<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body><iframe src="embed.html" title="evaluator" style="width:1300px;height:900px;border:0"></iframe></body></html>';
  const { page, context, check } = await open('examples/__frame.html', { routes: { 'examples/__frame.html': { body: frame } } });
  const f = page.frameLocator('iframe');
  await waitPreloaded(f);
  await f.locator('#pred-files').setInputFiles(PRED);
  await f.locator('#score-button').click();
  await f.locator('table.leaderboard td.lb-value[data-key="map"]', { hasText: '0.5185' }).waitFor({ timeout: 30000 });
  check();
  await context.close();
});

test('config errors are shown located; an off-origin config or ground truth is refused', async () => {
  const bad = '{\n  "protocol": "kws",\n  "mode": "both"\n}\n';
  const offsite = JSON.stringify({ protocol: 'kws', ground_truth: ['http://example.invalid/gt.xml'] });
  const page1 = PLAIN.replace('kws/dropscore.json', '__bad.json');
  const { page, context, check, problems } = await open('examples/__bad.html', {
    routes: { 'examples/__bad.html': { body: page1 }, 'examples/__bad.json': { body: bad, type: 'application/json' } },
  });
  await page.locator('#engine-status:not([hidden])').waitFor();
  assert.match(await page.locator('#engine-status').textContent(), /__bad\.json:3:11: mode: expected official or corrected, found `both`/);
  assert.equal(await page.locator('#score-button').isDisabled(), true);
  check();
  await context.close();
  const page2 = PLAIN.replace('kws/dropscore.json', '__offsite.json');
  const r2 = await open('examples/__off.html', {
    routes: { 'examples/__off.html': { body: page2 }, 'examples/__offsite.json': { body: offsite, type: 'application/json' } },
  });
  await r2.page.locator('#engine-status:not([hidden])').waitFor();
  assert.match(await r2.page.locator('#engine-status').textContent(), /ground_truth\[0\].*same site/);
  r2.check();
  await r2.context.close();
  assert.deepEqual(problems, []);
});

test('every built protocol: its example config embedded, its first example predictions dropped = dropscore score', async () => {
  const cli = findCli();
  if (!cli) return; // needs DROPSCORE_BIN (scripts/test sets it)
  const list = JSON.parse(execFileSync(cli, ['list', '--format=json'], { encoding: 'utf8' }));
  let checked = 0;
  for (const p of list.filter((x) => x.built)) {
    const cfgPath = path.join(repoRoot, 'examples', p.id, 'dropscore.json');
    if (!fs.existsSync(cfgPath)) {
      assert.notEqual(p.id, 'kws');
      continue; // a protocol that has just landed, before its example config
    }
    const cfg = JSON.parse(fs.readFileSync(cfgPath, 'utf8'));
    // The example whose ground truth the config preloads.
    const gtNames = cfg.ground_truth.map((g) => path.basename(g)).sort();
    const ex = p.examples.find((e) => JSON.stringify(e.gt.map((g) => path.basename(g)).sort()) === JSON.stringify(gtNames));
    if (!ex) continue;
    const body = PLAIN.replace('kws/dropscore.json', `${p.id}/dropscore.json`);
    const { page, context, check } = await open(`examples/__${p.id}.html`, { routes: { [`examples/__${p.id}.html`]: { body } } });
    await waitPreloaded(page);
    await page.locator('#pred-files').setInputFiles(ex.pred.map((f) => path.join(repoRoot, 'www', f)));
    const handle = await page.locator(EL).elementHandle();
    await page.locator('#score-button').click();
    await page.waitForFunction((e) => e.dataset.run === 'done', handle, { timeout: 60000 });
    const lb = await leaderboard(page);
    // dropscore score on the same files, with the same config.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `dropscore-embed-${p.id}-`));
    for (const [role, files] of [['ref', ex.gt], ['res', ex.pred]]) {
      fs.mkdirSync(path.join(dir, 'input', role), { recursive: true });
      for (const f of files) fs.copyFileSync(path.join(repoRoot, 'www', f), path.join(dir, 'input', role, path.basename(f)));
    }
    execFileSync(cli, ['score', path.join(dir, 'input'), path.join(dir, 'output'), '--config', path.join(repoRoot, 'examples', p.id, 'dropscore.toml')], { stdio: 'pipe' });
    const scores = JSON.parse(fs.readFileSync(path.join(dir, 'output', 'scores.json'), 'utf8'));
    fs.rmSync(dir, { recursive: true, force: true });
    for (const c of cfg.leaderboard.columns) {
      assert.equal(lb.values[c.key], typeof scores[c.key] === 'number' ? fixed(scores[c.key], c.decimals) : '—', `${p.id} ${c.key}: page preview vs scores.json`);
    }
    check();
    await context.close();
    checked++;
  }
  assert.ok(checked >= 1);
});

test('at 390 px the embed reads: "Metric" on one line, the leaderboard row not clipped', async () => {
  const { page, context, check } = await open('examples/embed.html', { width: 390, height: 900 });
  await waitPreloaded(page);
  await scorePred(page);
  const got = await page.evaluate(() => {
    const root = document.querySelector('dropscore-evaluator').shadowRoot ?? document;
    const th = root.querySelector('table.hl-main thead th.hl-metric');
    const range = document.createRange();
    range.selectNodeContents(th);
    const preview = root.querySelector('.leaderboard-preview');
    const hidden = (/** @type {Element} */ e) => e.scrollWidth - e.clientWidth;
    const shownBoxes = [...preview.querySelectorAll('.table-scroll, .lb-stack')].filter((e) => e.getClientRects().length);
    const values = [...preview.querySelectorAll('.lb-value')].filter((e) => e.getClientRects().length);
    const right = preview.getBoundingClientRect().right;
    return {
      lines: range.getClientRects().length,
      overflow: Math.max(...shownBoxes.map(hidden), ...values.map((v) => v.getBoundingClientRect().right - right)),
      values: values.map((v) => v.textContent),
      headline: hidden(root.querySelector('table.hl-main').closest('.table-scroll')),
    };
  });
  await page.screenshot({ path: path.join(artifacts, 'embed-390.png'), fullPage: true });
  assert.equal(got.lines, 1, '"Metric" on one line');
  assert.ok(got.overflow <= 1, `the leaderboard row fits (${got.overflow} px hidden)`);
  assert.deepEqual(got.values, ['0.5185', '0.900', '0.500'], 'every leaderboard value shown');
  assert.ok(got.headline <= 1, `the headline table fits (${got.headline} px hidden)`);
  check();
  await context.close();
});
