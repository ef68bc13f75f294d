// Unit tests of the page's formatting helpers (www/util.js), run in node: numbers must print exactly as the
// CLI's text output does (Rust `{:.N}` / C printf: exact decimal value, ties to even).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixed, auto, formatValue, naturalCompare, pluralWord, toCsv, formatBytes } from '../../www/util.js';

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

test('CSV quoting and small helpers', () => {
  assert.equal(toCsv([['query', 'a,b'], ['q"1', null], [0.5, 1]]), 'query,"a,b"\r\n"q""1",\r\n0.5,1\r\n');
  assert.equal(pluralWord('query'), 'queries');
  assert.equal(pluralWord('image'), 'images');
  assert.equal(pluralWord('category'), 'categories');
  assert.equal(formatBytes(1536), '1.50 KB');
  assert.equal(formatBytes(512), '512 B');
});

test('shortestBinary32(): the shortest decimal that round-trips through Math.fround (as numpy prints float32)', async () => {
  const { shortestBinary32 } = await import('../../www/util.js');
  // want = str(numpy.float32(v)) (numpy 2.4.6, Dragon4 shortest round-trip)
  const cases = [
    [0.6000000238418579, '0.6'],
    [0.8999999761581421, '0.9'],
    [0.5185185670852661, '0.51851857'],
    [0.5555555820465088, '0.5555556'],
    [0.4444444477558136, '0.44444445'],
    [0.48148149251937866, '0.4814815'],
    [0.800000011920929, '0.8'],
    [1, '1'],
    [0, '0'],
    [1.401298464324817e-45, '1e-45'],
    [3.4028234663852886e+38, '3.4028235e+38'],
  ];
  for (const [v, want] of cases) assert.equal(shortestBinary32(v), want, `shortestBinary32(${v})`);
  // not a binary32 value: unchanged
  assert.equal(shortestBinary32(0.1), '0.1');
  assert.equal(shortestBinary32(0.5185185185185185), '0.5185185185185185');
  // every answer reads back as the same binary32, and one digit fewer never does
  let seed = 7;
  for (let i = 0; i < 2000; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const v = Math.fround(seed / 2147483648);
    const t = shortestBinary32(v);
    assert.equal(Math.fround(Number(t)), v);
    const digits = t.replace(/e.*$/, '').replace(/^[0.]+/, '').replace('.', '').length;
    if (digits > 1) assert.notEqual(Math.fround(Number(v.toPrecision(digits - 1))), v, `${t} is not the shortest`);
  }
});
