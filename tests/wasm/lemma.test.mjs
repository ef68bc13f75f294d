// The built-in Russian lemmatiser gives the same normal forms in wasm as natively (`dropscore lemma`):
// the aij2022 fixtures' words with pymorphy3's expected forms, and 20,000 generated forms (dictionary-like
// words, misspellings, prefixes, hyphens, particles, mixed script, numbers, Latin, punctuation, spaces).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { setup, wasm, bin, repoRoot, lemmaAsset, loadLemmas } from './harness.mjs';

setup();

const asset = lemmaAsset;

function native(words) {
  const out = execFileSync(bin, ['lemma', '--lemmas', asset], { input: words.join('\n') + '\n', maxBuffer: 1 << 28 });
  return out.toString('utf8').split('\n').slice(0, -1);
}

function inWasm(words) {
  assert.ok(loadLemmas(), `${asset} is missing: run scripts/ensure-tools`);
  return wasm.lemma_normal_forms(words.join('\n') + '\n').split('\n').slice(0, -1);
}

test('fixture words: pymorphy3 forms in wasm and natively', () => {
  const rows = fs
    .readFileSync(path.join(repoRoot, 'tests', 'data', 'lemma', 'fixture_lemmas.tsv'), 'utf8')
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => l.split('\t'));
  const words = rows.map((r) => r[0]);
  const want = rows.map((r) => r[1]);
  assert.deepEqual(inWasm(words), want);
  assert.deepEqual(native(words), want);
});

test('20,000 generated forms: wasm equals native', () => {
  let s = 12345;
  const rnd = (n) => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s % n;
  };
  const pick = (a) => a[rnd(a.length)];
  const stems = ['кошк', 'велосипед', 'желт', 'красн', 'машин', 'секунд', 'ёжик', 'ёлк', 'трёх', 'сух', 'улиц',
    'вариант', 'ответ', 'птиц', 'больш', 'смотр', 'русск', 'интернет', 'человек', 'гор', 'звёзд', 'бутявк',
    'читал', 'делающ', 'по', 'наи', 'лучш', 'хорош', 'бегу', 'шли', 'пришедш'];
  const ends = ['', 'а', 'у', 'ой', 'ого', 'ые', 'ыми', 'ами', 'ах', 'ей', 'ёй', 'ость', 'ировать', 'ка', 'и', 'ем', 'ешь', 'ут', 'ий', 'ая'];
  const prefixes = ['', '', '', 'супер', 'анти', 'не', 'недо', 'пере', 'по', 'наи', 'по-', 'экс-', 'бу', 'раз'];
  const extra = ['-то', '-ка', '-таки', '', '', ''];
  const odd = ['12', '1,5', '-3.5', '12-й', 'wi-fi', 'xiv', 'pdf', '«', '—', '…', '!?', 'кotик', 'на велосипеде', ''];
  const words = [];
  while (words.length < 20000) {
    const k = rnd(10);
    let w;
    if (k === 0) w = pick(odd) + (rnd(2) ? pick(stems) : '');
    else if (k === 1) w = pick(stems) + pick(ends) + '-' + pick(stems) + pick(ends);
    else if (k === 2) w = pick(stems) + pick(ends) + ' ' + pick(stems) + pick(ends);
    else w = pick(prefixes) + pick(stems) + pick(ends) + pick(extra);
    if (rnd(8) === 0) w = w.replaceAll('ё', 'е');
    if (w && !w.includes('\n')) words.push(w);
  }
  const a = inWasm(words);
  const b = native(words);
  assert.equal(a.length, words.length);
  const diffs = words.filter((_, i) => a[i] !== b[i]);
  assert.deepEqual(diffs.slice(0, 10), []);
});
