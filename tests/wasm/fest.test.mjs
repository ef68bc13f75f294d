// wasm-vs-native parity for fest: for the synthetic fixture, its variants, the edge cases of docs/specs/fest.md 6 and
// the layouts of 2.1 (folders, a prediction zip, the data set layout, Codalab ref/res), the wasm engine must return
// a JSON report byte-identical to `dropscore fest ... --format json`. Also: the overlay view draws the synthetic page.
//
//   node --test tests/wasm/fest.test.mjs      (needs www/pkg and target/release/dropscore)

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setup, check, repoRoot, wasmFiles } from './harness.mjs';
import * as harness from './harness.mjs';
import { png } from './fest_png.mjs';
import { storedZip } from '../e2e/harness.mjs';

const syn = path.join(repoRoot, 'tests', 'data', 'fest', 'synthetic');
const gtDir = path.join(syn, 'gt');
const predDir = path.join(syn, 'pred');
let tmp;

setup();

/** Writes `files` ({ relative path: bytes }) under a fresh folder `name` in tmp; returns its path. */
function folder(name, files) {
  const root = path.join(tmp, name);
  for (const [rel, bytes] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), bytes);
  }
  return root;
}

const W = 40;
const H = 20;
let gtGray; // the synthetic GT as gray samples
before(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fest-parity-'));
  // Recreate the synthetic GT (spec 7.1) to derive edge-case predictions from it.
  gtGray = new Uint8Array(W * H);
  const box = (r0, r1, c0, c1) => { for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) gtGray[r * W + c] = 255; };
  box(2, 4, 2, 37); box(8, 10, 2, 37); box(14, 16, 2, 19); gtGray[17 * W + 20] = 255; gtGray[18 * W + 21] = 255;
});

const rgbFrom = (f) => { const out = []; for (let i = 0; i < W * H; i++) out.push(...f(i)); return out; };

const CASES = [
  ['synthetic folders', () => [[gtDir], [predDir]], {}],
  ['synthetic connectivity=4', () => [[gtDir], [predDir]], { connectivity: '4' }],
  ['synthetic hungarian pooled', () => [[gtDir], [predDir]], { matching: 'hungarian', aggregation: 'pooled' }],
  ['synthetic two files', () => [[path.join(gtDir, '001.png')], [path.join(predDir, '001.png')]], {}],
  ['prediction zip', () => {
    const z = path.join(tmp, 'pred.zip');
    fs.writeFileSync(z, storedZip([{ name: 'pred/001.png', data: fs.readFileSync(path.join(predDir, '001.png')) }]));
    return [[gtDir], [z]];
  }, {}],
  ['all-black prediction', () => [[gtDir], [folder('black', { '001.png': png(W, H, new Array(W * H * 3).fill(0)) })]], {}],
  ['binary prediction = GT mask', () => [[gtDir], [folder('binary', { '001.png': png(W, H, rgbFrom((i) => [gtGray[i], gtGray[i], gtGray[i]])) })]], {}],
  ['missing prediction + extra', () => [[folder('gt2', { '001.png': fs.readFileSync(path.join(gtDir, '001.png')), '002.png': fs.readFileSync(path.join(gtDir, '001.png')) })],
    [folder('pred2', { '001.png': fs.readFileSync(path.join(predDir, '001.png')), '007.png': fs.readFileSync(path.join(predDir, '001.png')) })]], {}],
  ['16-bit GT, palette prediction', () => [[folder('gt16', { '001.png': png(W, H, Array.from(gtGray, (v) => (v ? 40000 : 100)), { color: 'gray', depth: 16 }) })],
    [folder('pal', { '001.png': png(W, H, Array.from(gtGray, (v, i) => (v ? 1 + (Math.floor(i / W) >> 2) % 3 : 0)), { color: 'palette', depth: 2, palette: [[0, 0, 0], [255, 0, 0], [0, 255, 0], [0, 0, 255]] }) })]], {}],
  ['data set layout, Codalab ref/res', () => {
    const g = fs.readFileSync(path.join(gtDir, '001.png'));
    const p = fs.readFileSync(path.join(predDir, '001.png'));
    return [[folder('input/ref', { 'Latin2/text-line-gt-Latin2/test/001.png': g, 'Latin2/text-line-gt-Latin2/training/001.png': g, 'Syr341/text-line-gt-Syr341/test/001.png': g })],
      [folder('input/res', { 'Latin2/001.png': p, 'syr341/001.png': p })]];
  }, {}],
  ['bad PNG', () => [[gtDir], [folder('bad', { '001.png': Buffer.from('not a png at all') })]], {}],
];

for (const [name, make, set] of CASES) {
  for (const mode of ['official', 'corrected']) {
    test(`${name} (${mode})`, async () => {
      const [gts, preds] = make();
      const report = await check('fest', gts, preds, mode, set, `${name} (${mode})`);
      assert.ok(report, 'scored');
      if (name === 'synthetic folders' && mode === 'official') {
        assert.equal(report.scores.line_iu, 0.3333333333333333);
        assert.deepEqual(Object.values(report.items[0].scores), [0.6845425867507886, 0.3333333333333333, 0.3333333333333333, 0.2, 0.25]);
      }
      if (name === 'all-black prediction' && mode === 'official') {
        assert.ok(report.diagnostics.some((d) => d.code === 'fest.official.ra_division_by_zero'));
        assert.equal(report.scores.line_iu, null);
      }
    });
  }
}

test('Session.view(\'overlay\'): the synthetic page as RGBA with line metadata', () => {
  const files = [...wasmFiles(syn, ['gt'], 'gt'), ...wasmFiles(syn, ['pred'], 'pred')];
  const session = new harness.wasm.Session('fest', files);
  const out = session.view('overlay', { mode: 'official', set: {} }, JSON.stringify({ image: '001' }));
  const o = { ...JSON.parse(out.json), ...out.arrays };
  assert.equal(o.width, 40);
  assert.equal(o.height, 20);
  assert.equal(o.rgba.length, 40 * 20 * 4);
  const meta = o.meta;
  assert.equal(meta.gt_lines.length, 3);
  assert.deepEqual(meta.gt_lines.map((l) => l.class), ['CL', 'ML', 'EL']);
  const px = (x, y) => Array.from(o.rgba.slice((y * 40 + x) * 4, (y * 40 + x) * 4 + 4));
  assert.deepEqual(px(2, 2), [0, 200, 0, 255], 'L1 = red: true positive (green)');
  assert.deepEqual(px(5, 8), [40, 90, 255, 255], 'left half of L2: false negative (blue), green is not its best');
  assert.deepEqual(px(30, 19), [120, 120, 120, 255], 'the magenta box overlaps no GT: not counted in official mode (hatched grey)');
  assert.equal(o.gt_labels[2 * 40 + 2], 1);
  assert.throws(() => session.view('overlay', { mode: 'official', set: {} }, JSON.stringify({ image: 'nope' })));
  assert.throws(() => session.view('no-such-view', { mode: 'official', set: {} }, '{}'));
  session.free();
});
