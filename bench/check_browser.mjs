// Pre-flight check vs scoring in headless Chromium: the page's worker (www/worker.js) checks
// the predictions against a manifest (message `check`, src/wasm.rs Session::check), and scores the same
// predictions against the real ground truth (a session: `open`, then `score` official, as the page's first
// result; then corrected and `explain`, the rest of a Score click). Each measurement runs in a fresh worker that
// has exercised the protocol first (`warm`, as the page does when the protocol is selected); the order of check
// and score alternates between runs. Times are from posting the first request to the last answer; the files are
// fetched into Blobs before (as a dropped File is a Blob).
//
//   node bench/check_browser.mjs --gt G --pred P --manifest M [--protocol kws] [--runs 3]
//
// Prints one JSON line per run: check_ms, score_official_ms, click_ms (both modes and the explanation),
// check_summary, map, wasm memory after each (MB).

import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..');
const args = { protocol: 'kws', runs: '3', chromium: process.env.DROPSCORE_CHROMIUM ?? '/usr/bin/chromium' };
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
if (!args.gt || !args.pred || !args.manifest) {
  console.error('usage: node bench/check_browser.mjs --gt G --pred P --manifest M [--runs N]');
  process.exit(2);
}
const inputs = [path.resolve(args.gt), path.resolve(args.pred)];
const MIME = { '.js': 'text/javascript', '.wasm': 'application/wasm' };
const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  if (url.pathname === '/') {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>bench</title>');
    return;
  }
  const m = url.pathname.match(/^\/__input__\/(\d+)$/);
  const file = m ? inputs[Number(m[1])] : path.join(repoRoot, path.normalize(decodeURIComponent(url.pathname)).replace(/^([/\\])+/, ''));
  if (!file || (!m && !file.startsWith(path.join(repoRoot, 'www') + path.sep)) || !fs.existsSync(file)) {
    res.writeHead(404);
    res.end();
    return;
  }
  res.writeHead(200, { 'content-type': MIME[path.extname(file)] ?? 'application/octet-stream', 'content-length': fs.statSync(file).size });
  fs.createReadStream(file).pipe(res);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}/`;
const manifest = fs.readFileSync(args.manifest, 'utf8');

try {
  for (let run = 0; run < Number(args.runs); run++) {
    const browser = await chromium.launch({ executablePath: args.chromium, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
    try {
      const page = await browser.newPage();
      await page.goto(base);
      const result = await page.evaluate(async ({ names, protocol, manifest, checkFirst }) => {
        const blobs = await Promise.all(names.map((_, i) => fetch(`/__input__/${i}`).then((r) => r.blob())));
        /** A fresh worker, warmed for `protocol`; `ask(msg, until)` posts and waits for the answer. */
        const fresh = async () => {
          const worker = new Worker('/www/worker.js', { type: 'module' });
          let on = () => {};
          worker.onmessage = (e) => on(e.data);
          const ask = (msg, until) => new Promise((resolve, reject) => {
            on = (m) => (m.type === until ? resolve(m) : m.type === 'error' && reject(new Error(m.message)));
            worker.postMessage(msg);
          });
          await ask({ type: 'protocols' }, 'protocols');
          await ask({ type: 'warm', protocol }, 'warmed');
          return { worker, ask };
        };
        const gt = { path: names[0], role: 'gt', data: blobs[0] };
        const pred = { path: names[1], role: 'pred', data: blobs[1] };
        const check = async () => {
          const { worker, ask } = await fresh();
          const t0 = performance.now();
          const r = await ask({ type: 'check', id: 1, protocol, manifest, files: [pred], options: { mode: 'official', set: {} } }, 'reply');
          const ms = performance.now() - t0;
          worker.terminate();
          return { check_ms: ms, check_summary: r.value.summary, check_ready: r.value.ready, check_wasm_mb: r.value.timing.memory_bytes / 2 ** 20 };
        };
        const score = async () => {
          const { worker, ask } = await fresh();
          const t0 = performance.now();
          await ask({ type: 'open', id: 1, session: 1, protocol, files: [gt, pred] }, 'opened');
          const off = await ask({ type: 'score', id: 2, session: 1, options: { mode: 'official', set: {} }, keep: true, parseInPage: true }, 'result');
          const report = JSON.parse(off.reportJson);
          const t1 = performance.now();
          const cor = await ask({ type: 'score', id: 3, session: 1, options: { mode: 'corrected', set: {} }, keep: true, parseInPage: true }, 'result');
          JSON.parse(cor.reportJson);
          await ask({ type: 'explain', id: 4, session: 1 }, 'explained');
          const t2 = performance.now();
          worker.terminate();
          return { score_official_ms: t1 - t0, click_ms: t2 - t0, map: report.scores.map, score_wasm_mb: cor.timing.memory_bytes / 2 ** 20 };
        };
        const out = {};
        for (const step of checkFirst ? [check, score] : [score, check]) Object.assign(out, await step());
        return { ...out, order: checkFirst ? 'check, score' : 'score, check' };
      }, { names: inputs.map((f) => path.basename(f)), protocol: args.protocol, manifest, checkFirst: run % 2 === 0 });
      result.browser = browser.version();
      console.log(JSON.stringify(result));
    } finally {
      await browser.close();
    }
  }
} finally {
  server.close();
}
