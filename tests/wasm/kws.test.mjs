// wasm-vs-native parity: for every kws fixture case, the wasm engine (www/pkg, run in Node) must return a JSON
// report byte-identical to `target/release/dropscore kws ... --format json` on the same files.
//
//   node --test tests/wasm/
//
// Needs: www/pkg (scripts/build-wasm) and target/release/dropscore (cargo build --release), tests/data/kws.
// Environment (optional): see harness.mjs; DROPSCORE_PARITY_BIG=0 to skip the 125 MB synthetic case.
//
// Both sides see each file under its base name (as the page does: a dropped file's path is its name): the CLI
// runs in a temporary folder holding links to the two files, and wasm gets the same path strings.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import * as harness from './harness.mjs';
import { setup, stage, inWasm, throwsIn, repoRoot, bin, check as checkParity } from './harness.mjs';

const execFileP = promisify(execFile);
const data = path.join(repoRoot, 'tests', 'data', 'kws');

const R = (f) => path.join(data, 'rusteval', f);
const E = (f) => path.join(data, 'edge', f);
const T = (f) => path.join(data, 'trec', f);
const sampleGt = R('GroundTruthRelevanceJudgementsSample.xml');
const samplePred = R('WordSpottingResultsSample.xml');

// [name, gt, pred, extra --set options]
const CASES = [
  ['sample', sampleGt, samplePred],
  ['sample k=1,5,10,20', sampleGt, samplePred, { k: '1,5,10,20' }],
  ['sample preset=icfhr14 match_document dedupe', sampleGt, samplePred,
    { preset: 'icfhr14', match_document: 'true', dedupe: 'true' }],
  // trec pairs (docs/specs/kws.md 7.1)
  ['trec sample bin', T('sample.qrels.bin'), T('sample.run')],
  ['trec sample graded10', T('sample.qrels.graded10'), T('sample.run')],
  ['trec sample float', T('sample.qrels.float'), T('sample.run')],
  ['trec sample missing', T('sample.qrels.bin'), T('sample_missing.run')],
  ['trec sample missing v10', T('sample.qrels.bin'), T('sample_missing.run'), { trec_version: '10.0' }],
  ['trec sample missing complete', T('sample.qrels.bin'), T('sample_missing.run'), { complete: 'true' }],
  ['trec sample extra', T('sample.qrels.bin'), T('sample_extra.run')],
  ['trec sample measures', T('sample.qrels.graded10'), T('sample.run'),
    { measures: 'map,P_5,relative_P_10,ndcg_cut_10,success,recall_100,bpref' }],
  // an unknown measure: a usage error or an error diagnostic, the same on both sides
  ['trec sample bad measure', T('sample.qrels.bin'), T('sample.run'), { measures: 'map,not_a_measure' }],
  // edge cases (docs/specs/kws.md 6 and 7.4)
  ...['res_ok', 'res_short', 'res_missingq2', 'res_extra', 'res_dup', 'res_wrongdoc', 'res_oneline', 'res_blank']
    .map((r) => [`edge gt + ${r}`, E('gt.xml'), E(`${r}.xml`)]),
  ['edge gt_rel0 + res_ok', E('gt_rel0.xml'), E('res_ok.xml')],
  ['edge gt_empty + res_ok', E('gt_empty.xml'), E('res_ok.xml')],
  ['edge gt_empty + res_ok zero', E('gt_empty.xml'), E('res_ok.xml'), { empty_gt_query: 'zero' }],
  ['edge gt_utf8 + res_ok', E('gt_utf8.xml'), E('res_ok.xml')],
  ['edge sample gt + sample_swapped', sampleGt, E('sample_swapped.xml')],
  ['edge sample gt + sample_squote', sampleGt, E('sample_squote.xml')],
  // roles swapped: GT given as predictions and vice versa (detected by tag names)
  ['edge swapped roles', E('res_ok.xml'), E('gt.xml')],
];
const BIG = ['bentham synthetic (125 MB, .gz)', R('TRACK_I_Bentham_ICFHR2014.RelevanceJudgements.xml'),
  path.join(data, 'synthetic', 'SYNTH_TRACK_I_Bentham.xml.gz')];

setup();

const check = ([name, gt, pred, set = {}], mode) => checkParity('kws', [gt], [pred], mode, set, `${name} (${mode})`);
const inWasmKws = (dir, g, p, mode, set) => inWasm('kws', dir, [g], [p], mode, set);
const stage1 = (gt, pred) => {
  const { dir, gts, preds } = stage([gt], [pred]);
  return { dir, g: gts[0], p: preds[0] };
};

for (const c of CASES) {
  for (const mode of ['official', 'corrected']) {
    test(`${c[0]} (${mode})`, async () => {
      for (const f of [c[1], c[2]]) assert.ok(fs.existsSync(f), `fixture missing: ${f}`);
      await check(c, mode);
    });
  }
}

test('Session: both modes from one read, and explain() the same differences as `--mode both`', async () => {
  for (const [name, gt, pred] of [CASES[0], ...CASES.filter((c) => /missingq2|res_dup|wrongdoc|gt_empty \+ res_ok$/.test(c[0]))]) {
    const { dir, g, p } = stage1(gt, pred);
    let stdout;
    try {
      ({ stdout } = await execFileP(bin, ['kws', '--gt', g, '--pred', p, '--mode', 'both', '--format', 'json', '--quiet'],
        { cwd: dir, encoding: 'utf8' }));
    } catch (e) {
      if (e.code !== 1) throw e;
      stdout = e.stdout;
    }
    const both = JSON.parse(stdout);
    const session = new harness.wasm.Session('kws', [...harness.wasmFiles(dir, [g], 'gt'), ...harness.wasmFiles(dir, [p], 'pred')]);
    try {
      assert.throws(() => session.explain(), /both modes/, 'explain() before both modes are kept');
      const off = session.score({ mode: 'official', set: {} }, () => {}, true);
      const cor = session.score({ mode: 'corrected', set: {} }, () => {}, true);
      // a report that is not kept (a detail) leaves the two kept ones alone
      assert.equal(session.score({ mode: 'official', set: { dedupe: 'true' } }, () => {}), inWasmKws(dir, g, p, 'official', { dedupe: 'true' }).json);
      assert.equal(off, inWasmKws(dir, g, p, 'official', {}).json, `${name}: the session's official report is the one-shot score()`);
      assert.equal(cor, inWasmKws(dir, g, p, 'corrected', {}).json, `${name}: corrected, likewise`);
      assert.deepEqual(JSON.parse(off), both.official, `${name}: official report`);
      assert.deepEqual(JSON.parse(cor), both.corrected, `${name}: corrected report`);
      assert.deepEqual(JSON.parse(session.explain()), both.differences, `${name}: differences`);
      assert.ok(session.bytes_in_memory > 0, 'the files are held in wasm memory');
    } finally {
      session.free();
    }
  }
});

// Usage errors: the CLI exits 2 and wasm throws the same message.
const USAGE = [
  ['preset=trec on XML', sampleGt, samplePred, { preset: 'trec' }],
  ['unknown option', sampleGt, samplePred, { no_such_option: '1' }],
];
for (const [name, gt, pred, set] of USAGE) {
  test(`usage error: ${name}`, async () => {
    const { dir, g, p } = stage1(gt, pred);
    const args = ['kws', '--gt', g, '--pred', p, '--format', 'json', '--quiet'];
    for (const [k, v] of Object.entries(set)) args.push('--set', `${k}=${v}`);
    const err = await execFileP(bin, args, { cwd: dir, encoding: 'utf8' }).then(() => null, (e) => e);
    assert.ok(err, `${name}: the CLI accepted it`);
    assert.equal(err.code, 2, `${name}: CLI exit status`);
    const thrown = throwsIn(() => inWasmKws(dir, g, p, 'official', set));
    assert.ok(thrown !== null, `${name}: wasm did not throw`);
    assert.equal(typeof thrown, 'string', 'usage errors are thrown as strings (www/API.md)');
    assert.ok(err.stderr.includes(thrown), `${name}: CLI said ${JSON.stringify(err.stderr)}, wasm threw ${JSON.stringify(thrown)}`);
  });
}

test('protocols(): lists kws as built', () => {
  const list = JSON.parse(harness.wasm.protocols());
  const kws = list.find((p) => p.id === 'kws');
  assert.ok(kws && kws.built, 'kws is listed and built');
});

test('usage errors throw; input errors do not', () => {
  assert.throws(() => harness.wasm.score('no-such-protocol', [], { mode: 'official', set: {} }, () => {}));
  assert.throws(() => harness.wasm.score('kws', [], { mode: 'sideways', set: {} }, () => {}));
  const garbage = [
    { path: 'gt.xml', role: 'gt', data: new Uint8Array([0xff, 0xfe, 0x00, 0x3c]) },
    { path: 'res.xml', role: 'pred', data: new Uint8Array(0) },
  ];
  const report = JSON.parse(harness.wasm.score('kws', garbage, { mode: 'official', set: {} }, () => {}));
  assert.ok(report.diagnostics.some((d) => d.severity === 'error'));
});

test(BIG[0], { skip: process.env.DROPSCORE_PARITY_BIG === '0' || !fs.existsSync(BIG[2]) }, async () => {
  for (const mode of ['official', 'corrected']) {
    const report = await check(BIG, mode);
    assert.ok(report, 'scored');
    assert.equal(report.items.length, 320);
  }
});
