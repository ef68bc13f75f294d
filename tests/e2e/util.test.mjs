// Unit tests of the page's formatting helpers (www/util.js), run in node: numbers must print exactly as the
// CLI's text output does (Rust `{:.N}` / C printf: exact decimal value, ties to even).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixed, auto, formatValue, naturalCompare, pluralWord, formatBytes } from '../../www/util.js';

test('fixed(): exact rounding, ties to even, like Rust {:.N} and printf', () => {
  const cases = [
    [0.015625, 5, '0.01562'], // exact tie → even (JS toFixed would give 0.01563)
    [0.046875, 5, '0.04688'],
    [2.5, 0, '2'],
    [3.5, 0, '4'],
    [0.125, 2, '0.12'],
    [0.375, 2, '0.38'],
    [0.8999999761581421, 5, '0.90000'], // binary32 0.9 widened
    [0.5185185670852661, 5, '0.51852'],
    [1, 5, '1.00000'],
    [0, 4, '0.0000'],
    [-0.0000001, 3, '-0.000'],
    [123456.789, 4, '123456.7890'],
  ];
  for (const [v, d, want] of cases) assert.equal(fixed(v, d), want, `fixed(${v}, ${d})`);
});

test('null, NaN and missing values show as an em dash', () => {
  assert.equal(fixed(null, 5), '—');
  assert.equal(fixed(NaN, 5), '—');
  assert.equal(formatValue(null, 5), '—');
  assert.equal(formatValue(undefined), '—');
  assert.equal(auto(null), '—');
});

test('auto(): integers as is, others to 6 decimals', () => {
  assert.equal(auto(5000), '5000');
  assert.equal(auto(0.5185185185185185), '0.518519');
  assert.equal(auto(true), 'true');
});

test('naturalCompare(): digit runs by value, like the crate', () => {
  assert.deepEqual(['q10', 'q2', 'q1', 'a', 'q02'].sort(naturalCompare), ['a', 'q1', 'q02', 'q2', 'q10']);
  assert.deepEqual(['sb0010', 'sb0002', 'sb0001'].sort(naturalCompare), ['sb0001', 'sb0002', 'sb0010']);
});

test('small helpers', () => {
  assert.equal(pluralWord('query'), 'queries');
  assert.equal(pluralWord('image'), 'images');
  assert.equal(pluralWord('category'), 'categories');
  assert.equal(formatBytes(1536), '1.50 KB');
  assert.equal(formatBytes(512), '512 B');
});

