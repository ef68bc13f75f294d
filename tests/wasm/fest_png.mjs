// PNG writing for the fest tests (wasm parity, e2e, benchmark): any colour type and bit depth, from raw rows.
//
//   png(w, h, { color: 'gray' | 'rgb' | 'palette' | 'graya' | 'rgba', depth: 1|2|4|8|16, palette })(samples)
//   samples: an array or typed array of per-pixel channel values (row-major), packed here to the bit depth.

import zlib from 'node:zlib';

const TYPES = { gray: [0, 1], rgb: [2, 3], palette: [3, 1], graya: [4, 2], rgba: [6, 4] };

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

export function png(w, h, samples, { color = 'rgb', depth = 8, palette = null, level = 6 } = {}) {
  const [ct, ch] = TYPES[color];
  const rowBytes = Math.ceil((w * ch * depth) / 8);
  const raw = Buffer.alloc((rowBytes + 1) * h);
  for (let y = 0; y < h; y++) {
    const o = y * (rowBytes + 1) + 1;
    for (let x = 0; x < w * ch; x++) {
      const v = samples[y * w * ch + x];
      if (depth === 8) raw[o + x] = v;
      else if (depth === 16) raw.writeUInt16BE(v, o + 2 * x);
      else {
        const bit = x * depth;
        raw[o + (bit >> 3)] |= v << (8 - depth - (bit & 7));
      }
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = depth;
  ihdr[9] = ct;
  const parts = [Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr)];
  if (palette) parts.push(chunk('PLTE', Buffer.from(palette.flat())));
  parts.push(chunk('IDAT', zlib.deflateSync(raw, { level })), chunk('IEND', Buffer.alloc(0)));
  return Buffer.concat(parts);
}
