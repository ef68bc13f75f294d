// A deterministic synthetic chalearn-ce input (shared by tests/wasm and tests/e2e): `ref/<Category>_test.txt` GT
// files and a stored `submission.zip` of `<Category>.txt` files, with coarse confidences (many ties), images missing
// from the submission, unknown ids, a duplicate every 25 categories, CRLF in odd categories and one missing file
// (Event_007). Options: { categories, images, refZip } (refZip: also write the GT as `ref.zip`).
import fs from 'node:fs';
import path from 'node:path';
import { storedZip } from '../e2e/harness.mjs';

// A small deterministic generator (xorshift) for the synthetic submission.
function rng(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    return s / 4294967296;
  };
}

export function synthetic(dir, { categories = 100, images = 300, refZip = false } = {}) {
  const r = rng(12345);
  const ref = path.join(dir, 'ref');
  fs.mkdirSync(ref, { recursive: true });
  const entries = [];
  const gtEntries = [];
  for (let c = 0; c < categories; c++) {
    const cat = `Event_${String(c).padStart(3, '0')}`;
    const gt = [];
    const res = [];
    for (let i = 0; i < images; i++) {
      const id = `${String(i).padStart(6, '0')}.jpg`;
      const pos = r() < 0.05 || i === c;
      gt.push(`${id} ${pos ? 1 : -1}`);
      if (r() < 0.03) continue; // missing from the submission
      const conf = Math.round((pos ? 0.3 : 0) * 100 + r() * 70) / 100; // coarse: many ties
      res.push(`${id} ${conf.toFixed(2)}`);
    }
    if (c % 10 === 0) res.push('999999.jpg 0.5'); // unknown id
    if (c % 25 === 0) res.unshift(res[3]); // a duplicate
    fs.writeFileSync(path.join(ref, `${cat}_test.txt`), gt.join('\n') + '\n');
    gtEntries.push({ name: `${cat}_test.txt`, data: Buffer.from(gt.join('\n') + '\n') });
    if (c !== 7) entries.push({ name: `${cat}.txt`, data: Buffer.from(res.join(c % 2 ? '\r\n' : '\n')) });
  }
  const zip = path.join(dir, 'submission.zip');
  fs.writeFileSync(zip, storedZip(entries));
  const out = { ref, zip };
  if (refZip) {
    out.refZip = path.join(dir, 'ref.zip');
    fs.writeFileSync(out.refZip, storedZip(gtEntries));
  }
  return out;
}
