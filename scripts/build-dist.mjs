// scripts/build-dist's worker: bundles the page (index.html + www/) into dist/ for any static host, and into
// one self-contained HTML file that works from file://. Needs www/pkg (scripts/build-wasm) and esbuild
// (tools/bundle, installed by scripts/ensure-tools).
//
//   node scripts/build-dist.mjs [--out dist]
//
// dist/
//   index.html                 the page (references hashed assets)
//   embed.js                   stable entry for organizers: <script type="module" src=".../embed.js">
//   dropscore.html             the single-file variant (scripts, styles, wasm and the small examples inlined)
//   assets/*.<hash>.js|css|wasm  content-hashed: cache them forever
//   assets/examples/, assets/assets/  www/'s data files at the same relative places as in www/
//   build-info.json            sizes, wasm raw / gzip / brotli, each split module's and each protocol's first load
//
// Every bundle sits in assets/, one level down like the sources in www/, so the modules' `import.meta.url`-
// relative references (examples/…, assets/…) resolve as they do from www/. The worker and the wasm get their
// hashed names through globals set by a prelude module evaluated first (DROPSCORE_WORKER_URL in
// www/engine.js, DROPSCORE_WASM and DROPSCORE_WASM_MODULES in www/worker.js, DROPSCORE_MODULES in www/engine.js,
// DROPSCORE_CSS in www/embed.js). The page loads the split engine's module of the protocol picked (www/pkg/
// modules.json); the whole engine stays beside them for a config naming no known protocol.

import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const www = path.join(root, 'www');
const require = createRequire(path.join(root, 'tools', 'bundle', 'package.json'));
const esbuild = require('esbuild');

const outArg = process.argv.indexOf('--out');
// A relative --out is the caller's (scripts/build-dist passes it absolute); the default is the repository's dist/.
const out = outArg > 0 ? path.resolve(process.argv[outArg + 1] ?? '') : path.join(root, 'dist');
refuseToReplace(out);
const assets = path.join(out, 'assets');
/** Single-file: data files larger than this are left out (with a message when used). */
const INLINE_LIMIT = 2 * 1024 * 1024;

/** The output folder is deleted and written anew: refuse a folder that holds the repository, and a non-empty
 * folder that does not look like a page this script wrote (no index.html, embed.js or assets/). */
function refuseToReplace(dir) {
  const rel = path.relative(dir, root);
  const holdsRoot = rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  const entries = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  const ours = ['index.html', 'embed.js', 'assets'].some((f) => entries.includes(f));
  if (holdsRoot || (entries.length > 0 && !ours)) {
    console.error(`build-dist: refusing to replace ${dir}: ${holdsRoot ? 'it holds the repository' : 'it is not empty and holds no page built by this script'}; give --out a new or a previous output folder`);
    process.exit(2);
  }
}

const hash = (buf) => crypto.createHash('sha256').update(buf).digest('hex').slice(0, 10);
const kb = (n) => `${(n / 1024).toFixed(0)} KB`;

for (const f of ['pkg/dropscore.js', 'pkg/dropscore_bg.wasm', 'worker.js', 'page.js', 'embed.js', 'style.css']) {
  if (!fs.existsSync(path.join(www, f))) throw new Error(`www/${f} is missing (run scripts/build-wasm first)`);
}
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(assets, { recursive: true });

/** esbuild plugin: `dropscore:NAME` imports resolve to the given module sources. */
function virtual(mods) {
  return {
    name: 'dropscore-virtual',
    setup(b) {
      b.onResolve({ filter: /^dropscore:/ }, (a) => ({ path: a.path, namespace: 'dropscore' }));
      b.onLoad({ filter: /.*/, namespace: 'dropscore' }, (a) => ({ contents: mods[a.path], resolveDir: www, loader: 'js' }));
    },
  };
}

async function bundle({ entries, mods, splitting = false, write = true, format = 'esm', define = {} }) {
  const r = await esbuild.build({
    entryPoints: entries,
    plugins: [virtual(mods)],
    bundle: true,
    format,
    define,
    splitting,
    minify: true,
    target: ['es2022'],
    charset: 'utf8',
    legalComments: 'none',
    outdir: assets,
    entryNames: '[name].[hash]',
    chunkNames: 'chunk.[hash]',
    write,
    metafile: true,
    logLevel: 'warning',
  });
  return r;
}

// ---------------------------------------------------------------- dist/

const wasm = fs.readFileSync(path.join(www, 'pkg', 'dropscore_bg.wasm'));
const wasmName = `dropscore_bg.${hash(wasm)}.wasm`;
fs.writeFileSync(path.join(assets, wasmName), wasm);
const css = fs.readFileSync(path.join(www, 'style.css'), 'utf8');
const cssName = `style.${hash(css)}.css`;
fs.writeFileSync(path.join(assets, cssName), css);

// The split engine (scripts/build-wasm): each module content-hashed beside the whole one.
const splitPath = path.join(www, 'pkg', 'modules.json');
const split = fs.existsSync(splitPath) ? JSON.parse(fs.readFileSync(splitPath, 'utf8')) : null;
/** @type {Record<string, {bytes: Buffer, name: string}>} */
const modules = {};
for (const [name, m] of Object.entries(split?.modules ?? {})) {
  const bytes = fs.readFileSync(path.join(www, 'pkg', m.file));
  modules[name] = { bytes, name: `${name}.${hash(bytes)}.wasm` };
  fs.writeFileSync(path.join(assets, modules[name].name), bytes);
}
const moduleUrls = Object.entries(modules)
  .map(([k, m]) => `${JSON.stringify(k)}: new URL(${JSON.stringify('./' + m.name)}, import.meta.url).href`)
  .join(', ');

const workerEntry = 'dropscore:worker-entry';
const w = await bundle({
  entries: { worker: workerEntry },
  mods: {
    [workerEntry]: "import 'dropscore:wasm-url';\nimport './worker.js';\n",
    'dropscore:wasm-url': `globalThis.DROPSCORE_WASM = new URL(${JSON.stringify('./' + wasmName)}, import.meta.url).href;\n` +
      `globalThis.DROPSCORE_WASM_MODULES = { ${moduleUrls} };\n`,
  },
});
const workerName = path.basename(Object.keys(w.metafile.outputs).find((f) => /worker\.[^/]*\.js$/.test(f)));

const splitPrelude = split ? `globalThis.DROPSCORE_MODULES ??= ${JSON.stringify(split)};\n` : '';
const prelude = `globalThis.DROPSCORE_WORKER_URL ??= new URL(${JSON.stringify('./' + workerName)}, import.meta.url).href;\n` +
  `globalThis.DROPSCORE_CSS ??= ${JSON.stringify(css)};\n` + splitPrelude;
const app = await bundle({
  entries: { page: 'dropscore:page-entry', embed: 'dropscore:embed-entry' },
  splitting: true,
  mods: {
    'dropscore:page-entry': "import 'dropscore:prelude';\nimport './page.js';\n",
    'dropscore:embed-entry': "import 'dropscore:prelude';\nexport * from './embed.js';\n",
    'dropscore:prelude': prelude,
  },
});
const outName = (re) => path.basename(Object.keys(app.metafile.outputs).find((f) => re.test(path.basename(f))));
const pageName = outName(/^page\.[^.]+\.js$/);
const embedName = outName(/^embed\.[^.]+\.js$/);
fs.writeFileSync(path.join(out, 'embed.js'), `// dropscore <dropscore-evaluator> (stable name; the hashed assets it loads can be cached forever)\nimport './assets/${embedName}';\n`);

let html = fs.readFileSync(path.join(root, 'index.html'), 'utf8');
html = html.replace('href="www/style.css"', `href="assets/${cssName}"`).replace('src="www/page.js"', `src="assets/${pageName}"`);
if (html.includes('"www/')) throw new Error('index.html references www/ files the build does not know');
fs.writeFileSync(path.join(out, 'index.html'), html);

// www/'s data files (examples, assets such as dictionaries), at the same place relative to the bundles.
const dataDirs = fs.readdirSync(www, { withFileTypes: true }).filter((d) => d.isDirectory() && !['pkg', 'views'].includes(d.name)).map((d) => d.name);
for (const d of dataDirs) fs.cpSync(path.join(www, d), path.join(assets, d), { recursive: true });

// ---------------------------------------------------------------- single file

function walk(dir, rel = '') {
  const outList = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) outList.push(...walk(path.join(dir, e.name), r));
    else outList.push(r);
  }
  return outList;
}
const inline = {};
const leftOut = [];
for (const d of dataDirs) {
  for (const rel of walk(path.join(www, d), d)) {
    const buf = fs.readFileSync(path.join(www, rel));
    if (buf.length > INLINE_LIMIT) leftOut.push(`${rel} (${kb(buf.length)})`);
    else inline[rel] = buf.toString('base64');
  }
}
// The single file carries the split modules (gzipped, decompressed when a worker starts with one); with them,
// not the whole engine (a config naming no known protocol is checked by the first module).
const gz64 = (b) => zlib.gzipSync(b, { level: 9 }).toString('base64');
const inflate = "(b64) => new Response(new Blob([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))]).stream()" +
  ".pipeThrough(new DecompressionStream('gzip')), { headers: { 'Content-Type': 'application/wasm' } })";
const sfWasm = split
  ? `{ const inflate = ${inflate};\n` +
    `const gz = { ${Object.entries(modules).map(([k, m]) => `${JSON.stringify(k)}: ${JSON.stringify(gz64(m.bytes))}`).join(', ')} };\n` +
    'globalThis.DROPSCORE_WASM_MODULES = Object.fromEntries(Object.entries(gz).map(([k, b]) => [k, () => inflate(b)]));\n' +
    'globalThis.DROPSCORE_WASM = () => inflate(Object.values(gz)[0]); }\n'
  : `{ const b = Uint8Array.from(atob(${JSON.stringify(gz64(wasm))}), (c) => c.charCodeAt(0));\n` +
    "globalThis.DROPSCORE_WASM = new Response(new Blob([b]).stream().pipeThrough(new DecompressionStream('gzip')), { headers: { 'Content-Type': 'application/wasm' } }); }\n";
const sfWorker = await bundle({
  entries: { worker: 'dropscore:sf-worker' },
  write: false,
  format: 'iife',
  // A classic blob: worker has no import.meta.url; relative asset URLs (ru-lemmas.bin) resolve to this file:
  // URL and fail with a clear message only when used (the large assets are not part of the single file).
  define: { 'import.meta.url': JSON.stringify('file:///dropscore-single-file/worker.js') },
  mods: {
    'dropscore:sf-worker': "import 'dropscore:sf-wasm';\nimport './worker.js';\n",
    'dropscore:sf-wasm': sfWasm,
  },
});
const workerCode = sfWorker.outputFiles.find((f) => f.path.endsWith('.js')).text;
// The page prelude: the worker from a blob: URL, and a fetch() that serves the inlined data files by their
// path (examples/kws/…) so "Try an example" works from file:// without a server.
const sfPrelude = `${splitPrelude}globalThis.DROPSCORE_WORKER_TYPE = 'classic';
globalThis.DROPSCORE_WORKER_URL = URL.createObjectURL(new Blob([${JSON.stringify(workerCode)}], { type: 'text/javascript' }));
const INLINE = ${JSON.stringify(inline)};
const LEFT_OUT = ${JSON.stringify(leftOut)};
const realFetch = globalThis.fetch.bind(globalThis);
globalThis.fetch = async (input, init) => {
  const url = String(input instanceof Request ? input.url : input);
  for (const [rel, b64] of Object.entries(INLINE)) {
    if (url.endsWith('/' + rel)) return new Response(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
  }
  const missing = LEFT_OUT.find((x) => url.endsWith('/' + x.split(' ')[0]));
  if (missing) throw new Error(missing + ' is not part of the single-file page: use the hosted dist/ for it');
  return realFetch(input, init);
};
`;
const sfApp = await bundle({
  entries: { single: 'dropscore:sf-page' },
  write: false,
  mods: {
    'dropscore:sf-page': "import 'dropscore:sf-prelude';\nimport './page.js';\n",
    'dropscore:sf-prelude': sfPrelude,
  },
});
const appCode = sfApp.outputFiles.find((f) => f.path.endsWith('.js')).text;
const safe = (t) => t.replace(/<\/(script|style)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
let single = fs.readFileSync(path.join(root, 'index.html'), 'utf8');
single = single
  .replace(/<meta http-equiv="Content-Security-Policy"[^>]*>\n?/, '')
  .replace('<link rel="stylesheet" href="www/style.css">', () => `<style>\n${css.replace(/<\/style/gi, '<\\/style')}\n</style>`)
  .replace('<script type="module" src="www/page.js"></script>', () => `<script type="module">\n${safe(appCode)}\n</script>`);
fs.writeFileSync(path.join(out, 'dropscore.html'), single);

// ---------------------------------------------------------------- report

const gzipOf = (b) => zlib.gzipSync(b, { level: 9 }).length;
const brotliOf = (b) => zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const gz = gzipOf(wasm);
const br = brotliOf(wasm);
const moduleInfo = Object.fromEntries(Object.entries(modules).map(([k, m]) =>
  [k, { file: `assets/${m.name}`, protocols: split.modules[k].protocols, raw: m.bytes.length, gzip: gzipOf(m.bytes), brotli: brotliOf(m.bytes) }]));
const files = walk(out).filter((f) => !f.startsWith('assets/examples/') && !f.startsWith('assets/assets/')).sort();
const info = {
  wasm: { file: `assets/${wasmName}`, raw: wasm.length, gzip: gz, brotli: br },
  // The page loads one of these, the module of the protocol picked.
  modules: moduleInfo,
  single_file: { file: 'dropscore.html', bytes: fs.statSync(path.join(out, 'dropscore.html')).size, left_out: leftOut },
  files: Object.fromEntries(files.map((f) => [f, fs.statSync(path.join(out, f)).size])),
};
fs.writeFileSync(path.join(out, 'build-info.json'), JSON.stringify(info, null, 2) + '\n');
console.log(`dist: ${path.relative(root, out)}/ (${files.length} files besides the data folders)`);
console.log(`  wasm ${info.wasm.file}: ${kb(wasm.length)} raw, ${kb(gz)} gzip, ${kb(br)} brotli`);
for (const [k, m] of Object.entries(moduleInfo)) {
  console.log(`  module ${k} ${m.file}: ${kb(m.raw)} raw, ${kb(m.gzip)} gzip, ${kb(m.brotli)} brotli (${m.protocols.join(', ')})`);
}
console.log(`  single file dropscore.html: ${kb(info.single_file.bytes)}${leftOut.length ? `; left out (over ${kb(INLINE_LIMIT)}): ${leftOut.join(', ')}` : ''}`);
console.log('  serve .wasm as application/wasm, .js as text/javascript, .css as text/css, .html as text/html');
