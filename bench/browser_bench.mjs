// Times dropscore's wasm engine in headless Chromium the way the page runs it (used by scripts/bench):
// the files are fetched from a local server into Blobs (as a dropped File is a Blob), posted to the page's module
// worker (www/worker.js), which opens a session on them (the wasm reads each Blob once, with FileReaderSync) and
// scores it.
//
//   node bench/browser_bench.mjs --gt G --pred P[,P2,...] [--protocol kws] [--mode official|corrected|both]
//                                [--runs 3] [--warm yes|no] [--api session|files] [--chromium /usr/bin/chromium]
//                                [--set NAME=VALUE[,NAME=VALUE...]]   (the options' `set`, e.g.
//                                max_memory=4GiB,metrics=cer,wer: a list value keeps its commas)
//                                [--limit 20000] [--table yes|no] [--export json,csv]
//
// --limit: the report comes with at most that many rows, as the page asks for it (www/run.js ITEMS_LIMIT; the worker
// keeps the whole report, src/wasm/page.rs score_view); --limit 0 asks for the whole report (as the page was before it cut large reports).
// --table yes then times the per-item table's requests on the kept report (sort by the first score column, filter,
// the next page); --export times Download JSON / CSV (the CLI's bytes streamed out of wasm into a Blob).
//
// --mode both is one Score click of the page: both modes, then the explanation of their differences.
// --api files drives a worker from before sessions (main at 73e3b32: each score message carried the files, and
// explain the two report texts), to compare with it.
// As the page does when a protocol is selected, the worker first gets { type: 'warm' } (www/API.md) and exercises the
// protocol's scoring code while the files are fetched; --warm no leaves that out (a cold worker).
//
// Prints one JSON line per run: fetch_ms (fetch → Blob, outside the timing), score_ms (from posting the first request
// to the page's worker, www/worker.js, to the last answer: the files read, wasm score(), each report handed over and
// parsed in the page, the explanation), steps (each request's time), warm_ms (the exercise) and warm_in_score_ms
// (the part of it the score waited for), report_bytes, wasm_memory_mb (the worker's wasm memory after the last
// score: it only grows, so it is the wasm's peak), renderer_hwm_kb (peak RSS, VmHWM, of the renderer process that
// ran the worker) and scores.
// A fresh browser per run. Needs npm playwright-core and Debian's chromium.

import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..');
const args = { protocol: 'kws', mode: 'official', runs: '3', warm: 'yes', api: 'session', set: '', limit: '20000', table: 'no', export: '', chromium: process.env.DROPSCORE_CHROMIUM ?? '/usr/bin/chromium' };
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
if (!args.gt || !args.pred) {
  console.error('usage: node bench/browser_bench.mjs --gt G --pred P [--mode M] [--runs N]');
  process.exit(2);
}

// Pairs split at a comma that starts the next NAME=, so that a list value keeps its commas (metrics=cer,wer).
const setOpts = Object.fromEntries(args.set.split(/,(?=[A-Za-z_]+=)/).filter(Boolean).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));

const MIME = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html' };
// Serves the repository (for www/pkg and this folder) and the input files under /__input__/<i> (GT first).
const inputs = [path.resolve(args.gt), ...args.pred.split(',').map((p) => path.resolve(p))];
const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  let file;
  if (url.pathname === '/') {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>bench</title>');
    return;
  }
  const m = url.pathname.match(/^\/__input__\/(\d+)$/);
  if (m) file = inputs[Number(m[1])];
  else file = path.join(repoRoot, path.normalize(decodeURIComponent(url.pathname)).replace(/^([/\\])+/, ''));
  if (!file || !file.startsWith(repoRoot + path.sep) && !inputs.includes(file) || !fs.existsSync(file)) {
    res.writeHead(404);
    res.end();
    return;
  }
  res.writeHead(200, {
    'content-type': MIME[path.extname(file)] ?? 'application/octet-stream',
    'content-length': fs.statSync(file).size,
  });
  fs.createReadStream(file).pipe(res);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}/`;

const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

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
        const cmd = fs.readFileSync(`/proc/${c}/cmdline`, 'utf8');
        if (cmd.includes('--type=renderer')) {
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
      const result = await page.evaluate(async ({ names, mode, protocol, warm, api, set, limit, table, exportFormats }) => {
        // The page's own scoring worker (www/worker.js, protocol in www/API.md), so the time is what a user waits
        // for: reading the files, score() in wasm, the hand-over of the report and its JSON.parse in the page.
        const worker = new Worker('/www/worker.js', { type: 'module' });
        let onMessage = () => {};
        worker.onmessage = (e) => onMessage(e.data);
        await new Promise((resolve, reject) => {
          onMessage = (m) => (m.type === 'ready' ? resolve() : m.type === 'error' && reject(new Error(m.message)));
          worker.onerror = (e) => reject(new Error(e.message ?? 'worker error'));
        });
        // As www/engine.js does when the page selects the protocol: the worker exercises the scoring code on a
        // small built-in input. It runs while the files are fetched; a score posted before it ends waits for it
        // (and that wait is in score_ms).
        let warmed = null; // the 'warmed' message and when it arrived
        const noteWarmed = (m) => m.type === 'warmed' && (warmed = { ...m, at: performance.now() });
        onMessage = noteWarmed;
        if (warm) worker.postMessage({ type: 'warm', protocol });
        const t0 = performance.now();
        const blobs = await Promise.all(names.map((_, i) => fetch(`/__input__/${i}`).then((r) => r.blob())));
        const fetchMs = performance.now() - t0;
        const files = names.map((name, i) => ({ path: name, role: i === 0 ? 'gt' : 'pred', data: blobs[i] }));
        let nextId = 1;
        const steps = [];
        let memory = 0; // the largest wasm memory size a result reported
        // One request and its answer (`until`: the answer's type), timed.
        const ask = async (msg, until, step) => {
          const started = performance.now();
          const answer = new Promise((resolve, reject) => {
            onMessage = (m) => {
              if (m.type === until) resolve(m);
              else if (m.type === 'error') reject(new Error(m.message));
              else noteWarmed(m);
            };
          });
          worker.postMessage({ ...msg, id: nextId++ });
          const out = await answer;
          if (out.type === 'reply' && out.value instanceof Blob) out.bytes = out.value.size;
          if (out.type === 'result') {
            const t = performance.now();
            out.report = JSON.parse(out.reportJson); // as www/engine.js does (parseInPage)
            out.page_parse_ms = performance.now() - t;
            memory = Math.max(memory, out.timing.memory_bytes ?? 0);
          }
          steps.push({ step, ms: performance.now() - started, ...(out.timing ? { worker_score_ms: out.timing.score_ms } : {}) });
          return out;
        };
        const modes = mode === 'both' ? ['official', 'corrected'] : [mode];
        const t1 = performance.now();
        const reports = [];
        if (api === 'session') {
          // www/run.js: one session per Score click (the worker reads each file once), both modes kept, then explain.
          await ask({ type: 'open', session: 1, protocol, files }, 'opened', 'open (read the files)');
          for (const m of modes) {
            const cut = limit > 0 ? { limit } : {};
            const scored = await ask({ type: 'score', session: 1, options: { mode: m, set }, keep: true, parseInPage: true, ...cut }, 'result', `score ${m}`);
            reports.push(scored);
            // With `bootstrap` set, the page's intervals come after the headline (www/stats.js): timed here too.
            const metric = Object.keys(scored.report.intervals ?? {})[0] ?? Object.keys(scored.report.scores ?? {})[0];
            if (Number(set.bootstrap) > 0 && metric) await ask({ type: 'intervals', session: 1, mode: m, metric, bins: 30, job: 'bench' }, 'reply', `intervals ${m}`);
          }
          if (modes.length === 2) await ask({ type: 'explain', session: 1 }, 'explained', 'explain');
        } else {
          // The page before sessions (main at 73e3b32): every score read the files; explain parsed both reports again.
          for (const m of modes) {
            reports.push(await ask({ type: 'score', protocol, parseInPage: true, options: { mode: m, set }, files }, 'result', `score ${m}`));
          }
          if (modes.length === 2) {
            await ask({ type: 'explain', official: reports[0].reportJson, corrected: reports[1].reportJson }, 'explained', 'explain');
          }
        }
        const scoreMs = performance.now() - t1;
        const m0 = reports[0]?.report.mode;
        if (api === 'session' && table && reports[0].report.items_total != null) {
          // The per-item table's requests (www/items-table.js): a sort, a filter, the next page of it.
          const col = reports[0].report.display?.columns?.[0]?.id ?? '__id';
          const pageOf = (query, step) => ask({ type: 'items-page', session: 1, mode: m0, query: { count: 1000, ...query } }, 'reply', step);
          await pageOf({ sort: col, dir: -1 }, `table: sort by ${col}`);
          await pageOf({ filter: '12.5' }, 'table: filter 12.5');
          await pageOf({ filter: '12.5', sort: col, dir: 1 }, `table: filter 12.5, sort by ${col}`);
          await pageOf({ filter: '12.5', sort: col, dir: 1, offset: 1000 }, 'table: the next page');
        }
        for (const format of api === 'session' ? exportFormats : []) {
          const out = await ask({ type: 'export', session: 1, mode: m0, format }, 'reply', `download ${format}`);
          steps[steps.length - 1].bytes = out.bytes;
        }
        worker.terminate();
        return {
          api,
          mode,
          fetch_ms: fetchMs,
          score_ms: scoreMs, // the Score click: the steps up to the explanation (not the table or downloads after it)
          steps,
          report_bytes: reports[0].reportJson.length, // the first mode's as handed over (the other's is in steps)
          items_total: reports[0].report.items_total ?? reports[0].report.items.length,
          warm_ms: warmed?.ms ?? null, // the worker's exercise of the protocol
          warm_in_score_ms: warmed ? Math.max(0, warmed.at - t1) : null, // the part of it score_ms waited for
          wasm_memory_mb: memory ? memory / 2 ** 20 : null, // the wasm memory's size after the last score (it only grows)
          scores: reports[0].report.scores, // the first mode's
          scores_by_mode: Object.fromEntries(reports.map((r) => [r.report.mode, r.report.scores])),
          errors: reports[0].report.diagnostics.filter((d) => d.severity === 'error').length,
        };
      }, { names: inputs.map((f) => path.basename(f)), mode: args.mode, protocol: args.protocol, warm: args.warm !== 'no', api: args.api, set: setOpts,
        limit: Number(args.limit), table: args.table === 'yes', exportFormats: args.export.split(',').filter(Boolean) });
      result.renderer_hwm_kb = rendererHwmKb();
      result.browser = browser.version();
      console.log(JSON.stringify(result));
    } finally {
      await browser.close();
    }
  }
} finally {
  server.close();
}
