// Browser tests of the pre-flight check (docs/specs/preflight.md "Page and embed") and of the embed's
// fetch hardening:
// - examples/kws/test-set/embed.html, a competition page whose test set has no public ground truth: its config
//   names a manifest (`manifest = "manifest.json"`), the button is "Check submission", and a ready and a broken
//   submission get their verdicts, the broken one with its located problems, causes first;
// - the standalone page: a manifest dropped on the ground-truth zone does the same; a protocol without a check
//   says so plainly;
// - every request stays on the page's origin; a config that redirects is refused; the example pages' and
//   detailed_results.html's Content-Security-Policy lets them work with no violation.
//
// - every example of every protocol in the registry (a new protocol is covered without editing this file): the
//   manifest of its GT (`dropscore manifest`) dropped on the page with its predictions gives the verdict, the
//   sentence and the problems' codes of `dropscore check`.
//
//   node --test tests/e2e/check.test.mjs     (needs www/pkg; DROPSCORE_BIN for the CLI comparisons)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import {
  setup, repoRoot, baseUrl, browser, artifacts, openPage, dropFiles, runOf, findCli, registry, exampleFile,
} from './harness.mjs';

const EX = path.join(repoRoot, 'www', 'examples', 'kws');
const PRED = path.join(EX, 'WordSpottingResultsSample.xml');
const MANIFEST = path.join(repoRoot, 'examples', 'kws', 'test-set', 'manifest.json');
const EMBED = 'examples/kws/test-set/embed.html';

setup({ requiredFiles: [PRED, MANIFEST, path.join(repoRoot, EMBED)] });

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dropscore-check-e2e-'));
/** The sample results with one `<word …/>` line broken (a value without its closing quote), and a JPEG. */
function brokenFiles() {
  const lines = fs.readFileSync(PRED, 'utf8').split('\n');
  const at = lines.findIndex((l) => l.includes('<word'));
  lines[at] = lines[at].replace(/"([^"]*)"\s*\/>/, '"$1 />');
  const broken = path.join(tmp, 'Results.xml');
  fs.writeFileSync(broken, lines.join('\n'));
  const jpeg = path.join(tmp, 'photo.jpg');
  fs.writeFileSync(jpeg, Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]), Buffer.from('JFIF\0'), Buffer.alloc(200, 7)]));
  return { broken, jpeg, line: at + 1 };
}

/** A page that records every request, console message and CSP violation (also inside the worker). */
async function open(url, { routes = {} } = {}) {
  const context = await browser.newContext({ viewport: { width: 1300, height: 1000 } });
  for (const [rel, handler] of Object.entries(routes)) await context.route(new URL(rel, baseUrl).href, handler);
  await context.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const page = await context.newPage();
  const origin = new URL(baseUrl).origin;
  const requests = [];
  const problems = [];
  context.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => { if (m.type() === 'error' || /Content.Security.Policy/i.test(m.text())) problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('worker', (w) => w.on('console', (m) => { if (m.type() === 'error') problems.push(`worker: ${m.text()}`); }));
  await page.goto(new URL(url, baseUrl).href);
  const check = async () => {
    const foreign = requests.filter((u) => !/^(data|blob):/.test(u) && new URL(u).origin !== origin);
    assert.deepEqual(foreign, [], 'no request to another origin');
    assert.ok(requests.length > 3, 'requests were recorded');
    assert.deepEqual(problems, [], 'no console errors or CSP reports');
    assert.deepEqual(await page.evaluate(() => window.__csp), [], 'no CSP violation');
  };
  return { page, context, requests, check };
}

/** Chooses `files` as predictions, clicks the button, waits for the element's run; returns the verdict. */
async function checkIn(page, files) {
  const el = page.locator('dropscore-evaluator');
  const clear = page.locator('#zone-pred button.link-btn', { hasText: 'Clear' });
  if (await clear.count()) await clear.click(); // the zone adds files to those it holds
  await page.locator('#pred-files').setInputFiles(files);
  assert.equal((await page.locator('#score-button').textContent()).trim(), 'Check submission');
  const handle = await el.elementHandle();
  const before = await handle.evaluate((e) => Number(e.dataset.runs ?? 0));
  await page.locator('#score-button').click();
  await page.waitForFunction(([e, n]) => Number(e.dataset.runs ?? 0) > n && ['done', 'failed', 'cancelled'].includes(e.dataset.run), [handle, before], { timeout: 30000 });
  assert.equal(await handle.evaluate((e) => e.dataset.run), 'done', await page.locator('#status-text').textContent());
  return verdict(page);
}

async function verdict(scope) {
  return {
    ready: await scope.locator('.check-verdict').getAttribute('data-ready'),
    summary: (await scope.locator('.check-summary').textContent()).trim(),
    problems: await scope.locator('.check-verdict ~ .diagnostics li.diag').evaluateAll((lis) => lis.map((li) => ({
      code: li.dataset.code, severity: li.dataset.severity, loc: li.querySelector('.diag-loc')?.textContent ?? '',
    }))),
  };
}

test('manifest embed (kws test set): a ready and a broken submission, located problems causes first, no foreign request', async () => {
  const { page, context, requests, check } = await open(EMBED);
  await page.locator('#gt-preloaded:not([hidden])').waitFor({ timeout: 20000 });
  assert.match(await page.locator('#gt-preloaded').textContent(), /manifest\.json/);
  assert.equal(await page.locator('#zone-gt').isHidden(), true, 'no ground-truth zone');

  const good = await checkIn(page, PRED);
  assert.equal(good.ready, 'true');
  assert.equal(good.summary, 'Ready to submit: 2 queries, all with results (1 results file), no problems.');
  assert.equal(good.problems.length, 0);
  // What was found: one row per query.
  assert.deepEqual(await page.locator('.check-found tbody td:first-child').allTextContents(), ['sb0000', 'sb0001']);
  // In words: no JSON literal (true, false, null) in any cell.
  const cells = await page.locator('.check-found tbody td').allTextContents();
  assert.deepEqual(cells.filter((c) => ['true', 'false', 'null'].includes(c.trim())), [], cells.join(' | '));
  await page.screenshot({ path: path.join(artifacts, 'check-embed-ready.png'), fullPage: true });

  const { broken, jpeg, line } = brokenFiles();
  const bad = await checkIn(page, [broken, jpeg]);
  assert.equal(bad.ready, 'false');
  assert.match(bad.summary, /^Not ready to submit: \d+ problems?/);
  const errors = bad.problems.filter((p) => p.severity === 'error');
  assert.ok(errors.length >= 2, JSON.stringify(bad.problems));
  assert.equal(errors[0].code, 'input.wrong_kind', 'the cause (a JPEG) first');
  assert.match(errors[0].loc, /photo\.jpg/);
  const lineError = errors.find((p) => p.loc.startsWith(`Results.xml:${line}`));
  assert.ok(lineError, `an error located on Results.xml line ${line}: ${JSON.stringify(errors)}`);
  // The CLI agrees (same codes and lines) when a native binary is at hand.
  const cli = findCli();
  if (cli) {
    let out;
    try {
      out = execFileSync(cli, ['check', 'kws', '--manifest', MANIFEST, '--pred', 'Results.xml', 'photo.jpg', '--format', 'json'], { cwd: tmp, encoding: 'utf8' });
      assert.fail('dropscore check should exit 1');
    } catch (e) {
      assert.equal(e.status, 1);
      out = e.stdout;
    }
    const cliReport = JSON.parse(out);
    assert.equal(cliReport.summary, bad.summary);
    assert.deepEqual(cliReport.diagnostics.map((d) => d.code), bad.problems.map((p) => p.code));
  }
  await page.screenshot({ path: path.join(artifacts, 'check-embed-broken.png'), fullPage: true });
  const paths = requests.filter((u) => u.startsWith('http')).map((u) => new URL(u).pathname);
  assert.ok(paths.includes('/examples/kws/test-set/manifest.json'), 'the manifest came from the page\'s origin');
  assert.ok(!paths.some((p) => /GroundTruth/.test(p)), 'no ground truth was fetched');
  await check();
  await context.close();
});

test('page: a dropped manifest takes the place of the ground truth; a manifest the protocol cannot use is refused in plain words', async () => {
  const { page, check, context } = await openPage('#/p/kws');
  await dropFiles(page, '#zone-gt', [MANIFEST]);
  await dropFiles(page, '#zone-pred', [PRED]);
  await page.locator('#score-button', { hasText: 'Check submission' }).waitFor();
  assert.equal(await runOf(page, () => page.click('#score-button')), 'done');
  const v = await verdict(page);
  assert.equal(v.ready, 'true');
  assert.match(v.summary, /^Ready to submit: 2 queries/);
  check();
  await context.close();

  // A hand-made fest manifest that lacks what fest's check needs: refused in plain words, naming what is missing.
  const fake = path.join(tmp, 'fest-manifest.json');
  fs.writeFileSync(fake, JSON.stringify({ schema: 1, kind: 'dropscore-manifest', protocol: 'fest', options: {}, expects: {} }));
  const second = await openPage('#/p/fest');
  await dropFiles(second.page, '#zone-gt', [fake]);
  await dropFiles(second.page, '#zone-pred', [PRED]);
  await second.page.locator('#score-button', { hasText: 'Check submission' }).waitFor();
  assert.equal(await runOf(second.page, () => second.page.click('#score-button')), 'failed');
  assert.match(await second.page.textContent('#status-text'), /the manifest does not record option `connectivity`/);
  await second.context.close();
});

test('the embed refuses a config or a manifest that redirects (redirect: error)', async () => {
  const PLAIN = (cfg) => `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="module" src="../www/embed.js"></script></head><body><dropscore-evaluator config="${cfg}"></dropscore-evaluator></body></html>`;
  const html = (body) => (r) => r.fulfill({ body, contentType: 'text/html' });
  const away = (r) => r.fulfill({ status: 302, headers: { location: 'http://127.0.0.2:9/evil.json' } });
  const { page, context, requests } = await open('examples/__redirect.html', {
    routes: { 'examples/__redirect.html': html(PLAIN('__moved.json')), 'examples/__moved.json': away },
  });
  await page.locator('#engine-status:not([hidden])').waitFor({ timeout: 20000 });
  assert.match(await page.locator('#engine-status').textContent(), /__moved\.json/);
  assert.ok(!requests.some((u) => u.includes('127.0.0.2')), 'the redirect was not followed');
  await context.close();

  const cfg = JSON.stringify({ protocol: 'kws', manifest: '__moved_manifest.json' });
  const r2 = await open('examples/__redirect2.html', {
    routes: {
      'examples/__redirect2.html': html(PLAIN('__cfg.json')),
      'examples/__cfg.json': (r) => r.fulfill({ body: cfg, contentType: 'application/json' }),
      'examples/__moved_manifest.json': away,
    },
  });
  await r2.page.locator('#status-text', { hasText: 'Could not load the manifest' }).waitFor({ timeout: 20000 });
  assert.ok(!r2.requests.some((u) => u.includes('127.0.0.2')), 'the redirect was not followed');
  await r2.context.close();
});

test('Content-Security-Policy: the example embed pages work with no violation', async () => {
  const { page, context, check } = await open('examples/embed.html');
  await page.locator('#gt-preloaded:not([hidden])').waitFor({ timeout: 20000 });
  await page.locator('#pred-files').setInputFiles(PRED);
  const handle = await page.locator('dropscore-evaluator').elementHandle();
  await page.locator('#score-button').click();
  await page.waitForFunction((e) => e.dataset.run === 'done', handle, { timeout: 30000 });
  await page.locator('table.leaderboard td.lb-value[data-key="map"]', { hasText: '0.5185' }).waitFor();
  assert.match(await page.evaluate(() => document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.content ?? ''), /default-src 'none'/);
  await check();
  await context.close();
  // Every protocol's example embed page, if it has one (examples/<id>/embed.html).
  for (const { id } of await registry()) {
    const url = `examples/${id}/embed.html`;
    if (!fs.existsSync(path.join(repoRoot, url))) continue;
    const r = await open(url);
    await r.page.locator('#gt-preloaded:not([hidden])').waitFor({ timeout: 20000 });
    await r.check();
    await r.context.close();
  }
});

test('Content-Security-Policy: detailed_results.html of dropscore score shows with no violation', async () => {
  const cli = findCli();
  if (!cli) return; // needs DROPSCORE_BIN (scripts/test sets it)
  const dir = fs.mkdtempSync(path.join(artifacts, 'score-'));
  for (const [role, f] of [['ref', path.join(EX, 'GroundTruthRelevanceJudgementsSample.xml')], ['res', PRED]]) {
    fs.mkdirSync(path.join(dir, 'input', role), { recursive: true });
    fs.copyFileSync(f, path.join(dir, 'input', role, path.basename(f)));
  }
  execFileSync(cli, ['score', path.join(dir, 'input'), path.join(dir, 'output'), '--protocol', 'kws'], { stdio: 'pipe' });
  const rel = path.relative(repoRoot, path.join(dir, 'output', 'detailed_results.html'));
  const { page, context } = await open(rel);
  const problems = [];
  page.on('console', (m) => problems.push(m.text()));
  assert.match(await page.evaluate(() => document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.content ?? ''), /default-src 'none'/);
  assert.equal(await page.locator('h2', { hasText: 'Scores' }).count(), 1);
  assert.ok(await page.locator('table').count() > 1);
  assert.deepEqual(await page.evaluate(() => window.__csp), [], 'no CSP violation');
  // Its inline styles apply (the CSP allows them): the headings have the page's border.
  assert.equal(await page.locator('h2').first().evaluate((e) => getComputedStyle(e).borderBottomStyle), 'solid');
  assert.deepEqual(problems.filter((t) => /Content.Security.Policy/i.test(t)), []);
  await context.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

for (const p of (await registry()).filter((x) => x.built)) {
  for (const ex of p.examples) {
    test(`pre-flight ${p.id} ${ex.id}: the manifest of its GT and its predictions in the page, as dropscore check says`, async (t) => {
      const cli = findCli();
      if (!cli) return t.skip('needs DROPSCORE_BIN');
      const dir = fs.mkdtempSync(path.join(tmp, 'example-'));
      const manifest = path.join(dir, 'manifest.json');
      const set = (ex.set ?? []).flatMap(([k, v]) => ['--set', `${k}=${v}`]);
      const made = spawnSync(cli, ['manifest', p.id, ...ex.gt.flatMap((g) => ['--gt', exampleFile(g)]), ...set, '--out', manifest], { encoding: 'utf8' });
      if (made.status === 2 && /has no pre-flight check yet/.test(made.stderr)) return t.skip(`${p.id} has no pre-flight check`);
      if (made.status === 1 && /no manifest written/.test(made.stderr)) return t.skip(`no manifest of this GT: ${made.stderr.trim()}`);
      assert.equal(made.status, 0, `dropscore manifest: ${made.stderr}`);
      // The page names the predictions by their base names: the CLI checks links with those names.
      const preds = ex.pred.map(exampleFile);
      for (const f of preds) fs.symlinkSync(f, path.join(dir, path.basename(f)));
      const out = spawnSync(cli, ['check', p.id, '--manifest', 'manifest.json', ...preds.flatMap((f) => ['--pred', path.basename(f)]), '--format', 'json'],
        { cwd: dir, encoding: 'utf8' });
      assert.ok(out.status === 0 || out.status === 1, `dropscore check exited ${out.status}: ${out.stderr}`);
      const want = JSON.parse(out.stdout);

      const { page, context, check } = await openPage(`#/p/${p.id}`);
      await dropFiles(page, '#zone-gt', [manifest]);
      await dropFiles(page, '#zone-pred', preds);
      await page.locator('#score-button', { hasText: 'Check submission' }).waitFor();
      assert.equal(await runOf(page, () => page.click('#score-button')), 'done', await page.textContent('#status-text'));
      const got = await verdict(page);
      assert.equal(got.ready, String(want.ready), `ready: ${got.summary}`);
      assert.equal(got.summary, want.summary);
      assert.deepEqual(got.problems.map((x) => x.code), want.diagnostics.map((d) => d.code));
      check();
      await context.close();
    });
  }
}
