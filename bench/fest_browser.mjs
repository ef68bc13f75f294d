// Times dropscore's wasm engine on a fest folder pair in headless Chromium, the way the page runs it: every file
// is fetched from a local server into a Blob (outside the timing), posted to a module worker with its path relative
// to the dropped folder's parent (as webkitRelativePath), and the worker calls score() (PNG decoding included).
//
//   node bench/fest_browser.mjs --gt DIR --pred DIR [--mode official] [--runs 3]
//
// Prints one JSON line per run: score_ms, wasm_memory_bytes, renderer_hwm_kb (peak RSS of the renderer), scores.

import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..');
const args = { mode: 'official', runs: '3', chromium: process.env.DROPSCORE_CHROMIUM ?? '/usr/bin/chromium' };
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
if (!args.gt || !args.pred) {
  console.error('usage: node bench/fest_browser.mjs --gt DIR --pred DIR [--mode M] [--runs N]');
  process.exit(2);
}

// [relative path as the page sees it, absolute path, role]
const files = [];
const walk = (abs, rel, role) => {
  if (fs.statSync(abs).isDirectory()) {
    for (const e of fs.readdirSync(abs).sort()) walk(path.join(abs, e), `${rel}/${e}`, role);
  } else files.push([rel, abs, role]);
};
walk(path.resolve(args.gt), path.basename(args.gt), 'gt');
walk(path.resolve(args.pred), path.basename(args.pred), 'pred');

const MIME = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm' };
const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  if (url.pathname === '/') {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>bench</title>');
    return;
  }
  const m = url.pathname.match(/^\/__input__\/(\d+)$/);
  const file = m ? files[Number(m[1])]?.[1] : path.join(repoRoot, path.normalize(decodeURIComponent(url.pathname)).replace(/^([/\\])+/, ''));
  if (!file || (!m && !file.startsWith(repoRoot + path.sep)) || !fs.existsSync(file)) {
    res.writeHead(404);
    res.end();
    return;
  }
  res.writeHead(200, { 'content-type': MIME[path.extname(file)] ?? 'application/octet-stream', 'content-length': fs.statSync(file).size });
  fs.createReadStream(file).pipe(res);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}/`;
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Peak RSS (VmHWM, KB) of the renderer processes below this node process. */
function rendererHwmKb() {
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
          if (m) best = Math.max(best, Number(m[1]));
        }
      } catch { /* gone */ }
      walk(c);
    }
  };
  walk(process.pid);
  return best;
}

try {
  for (let run = 0; run < Number(args.runs); run++) {
    const browser = await chromium.launch({ executablePath: args.chromium, args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage();
      await page.goto(base);
      const result = await page.evaluate(async ({ list, mode }) => {
        const worker = new Worker('/bench/fest_worker.js', { type: 'module' });
        const next = () => new Promise((resolve, reject) => {
          worker.onmessage = (e) => resolve(e.data);
          worker.onerror = (e) => reject(new Error(e.message ?? 'worker error'));
        });
        await next();
        const blobs = await Promise.all(list.map((_, i) => fetch(`/__input__/${i}`).then((r) => r.blob())));
        const answer = next();
        worker.postMessage({ mode, files: list.map(([p, role], i) => ({ path: p, role, data: blobs[i] })) });
        const out = await answer;
        worker.terminate();
        return out;
      }, { list: files.map(([rel, , role]) => [rel, role]), mode: args.mode });
      result.renderer_hwm_kb = rendererHwmKb();
      console.log(JSON.stringify(result));
    } finally {
      await browser.close();
    }
  }
} finally {
  server.close();
}
