#!/usr/bin/env node
// A tiny static file server for the dropscore page (tests and local use).
//
//   node tests/e2e/server.mjs [--port N] [--host H] [--root DIR]
//
// Serves DIR (default: the repository root) on http://127.0.0.1:N/ (default port 8000; 0 = any free port)
// and prints the URL on the first line of stdout. Only GET and HEAD; no directory listings; never leaves
// DIR. `.gz` files are served as application/gzip bytes, *without* Content-Encoding, because the wasm opens
// them itself. Import { startServer } to use it from a test.

import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '..', '..');

export const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.xml': 'application/xml',
  '.csv': 'text/csv; charset=utf-8',
  '.tsv': 'text/tab-separated-values; charset=utf-8',
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
  '.npy': 'application/octet-stream',
  '.toml': 'text/plain; charset=utf-8',
};

export function mimeFor(file) {
  return MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** Resolves a URL path inside root, or returns null when it would leave root or is malformed. */
function resolveInside(root, urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const full = path.resolve(root, '.' + path.posix.normalize('/' + decoded));
  if (full !== root && !full.startsWith(root + path.sep)) return null;
  return full;
}

function send(res, status, text, headers = {}) {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
  res.end(text);
}

/**
 * `mounts` maps a URL folder (`/www/pkg/`) to another folder on disk: the tests of a build with other cargo
 * features (scripts/build-wasm --features toy --out DIR) serve it in place of www/pkg.
 */
export function createHandler(root, mounts = {}) {
  root = path.resolve(root);
  const mounted = Object.entries(mounts).map(([prefix, dir]) => [prefix, path.resolve(dir)]);
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(res, 405, 'method not allowed\n', { Allow: 'GET, HEAD' });
      return;
    }
    const url = new URL(req.url, 'http://localhost');
    const mount = mounted.find(([prefix]) => url.pathname.startsWith(prefix));
    let file = mount ? resolveInside(mount[1], url.pathname.slice(mount[0].length - 1)) : resolveInside(root, url.pathname);
    if (file === null) {
      send(res, 400, 'bad path\n');
      return;
    }
    fs.stat(file, (err, st) => {
      if (!err && st.isDirectory()) {
        if (!url.pathname.endsWith('/')) {
          res.writeHead(301, { Location: url.pathname + '/' + url.search, 'Cache-Control': 'no-store' });
          res.end();
          return;
        }
        file = path.join(file, 'index.html');
        fs.stat(file, (err2, st2) => serveFile(err2, st2));
        return;
      }
      serveFile(err, st);
    });

    function serveFile(err, st) {
      if (err || !st.isFile()) {
        send(res, 404, 'not found\n');
        return;
      }
      res.writeHead(200, {
        'Content-Type': mimeFor(file),
        'Content-Length': st.size,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      });
      if (req.method === 'HEAD') {
        res.end();
        return;
      }
      const stream = fs.createReadStream(file);
      stream.on('error', () => res.destroy());
      stream.pipe(res);
    }
  };
}

/**
 * Starts the server. Resolves to { url, port, server, close() }.
 * @param {{root?: string, port?: number, host?: string, mounts?: Record<string, string>}} opts
 */
export function startServer({ root = repoRoot, port = 0, host = '127.0.0.1', mounts = {} } = {}) {
  const server = http.createServer(createHandler(root, mounts));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const actual = server.address().port;
      const shownHost = host.includes(':') ? `[${host}]` : host;
      resolve({
        url: `http://${shownHost}:${actual}/`,
        port: actual,
        server,
        close: () => new Promise((r) => { server.closeAllConnections?.(); server.close(() => r()); }),
      });
    });
  });
}

function parseArgs(argv) {
  const out = { port: 8000, host: '127.0.0.1', root: repoRoot };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = () => inline ?? argv[++i];
    if (flag === '--port' || flag === '-p') out.port = Number(value());
    else if (flag === '--host') out.host = value();
    else if (flag === '--root') out.root = path.resolve(value());
    else if (flag === '--help' || flag === '-h') {
      console.log('usage: node tests/e2e/server.mjs [--port N] [--host H] [--root DIR]');
      process.exit(0);
    } else {
      console.error(`unknown argument: ${a}`);
      process.exit(2);
    }
  }
  if (!Number.isInteger(out.port) || out.port < 0 || out.port > 65535) {
    console.error('--port must be an integer 0..65535');
    process.exit(2);
  }
  return out;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const args = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(args.root) || !fs.statSync(args.root).isDirectory()) {
    console.error(`not a directory: ${args.root}`);
    process.exit(2);
  }
  startServer(args).then(
    ({ url }) => {
      console.log(url);
      console.error(`serving ${args.root} (Ctrl-C to stop)`);
    },
    (e) => {
      console.error(`cannot listen on ${args.host}:${args.port}: ${e.message}`);
      process.exit(1);
    },
  );
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(0));
}
