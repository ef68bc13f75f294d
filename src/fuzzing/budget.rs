//! Targets of what the memory budget guards before anything is built: a pre-flight manifest, through every
//! protocol of the registry, and the chunks of a PNG mask or label map.

use super::{render_all, Bytes, SMALL_BUDGET};
use crate::formats::{label_map, png_chunks, png_mask};
use crate::input::{Entry, FileSet, Role};
use crate::protocols::{preflight, Options, PROTOCOLS};
use crate::Mode;
use serde_json::{json, Value};

/// The first example's prediction files of protocol `p`, read from the repository (`www/examples/`) (none when
/// missing: the check then runs on an empty submission).
fn submission(p: &dyn crate::protocols::AnyProtocol) -> FileSet {
    let root = env!("CARGO_MANIFEST_DIR");
    let entries = p
        .info()
        .examples
        .first()
        .map(|ex| {
            ex.pred
                .iter()
                .filter_map(|path| {
                    let bytes = std::fs::read(format!("{root}/www/{path}")).ok()?;
                    Some(Entry::from_bytes(path, Some(Role::Pred), bytes))
                })
                .collect()
        })
        .unwrap_or_default();
    FileSet::of(entries, Vec::new())
}

/// Manifest reader: the first byte picks a protocol of the registry (and, with bit 0x80, whether the rest
/// is the whole manifest or only its `expects`, wrapped with the protocol's default options); the check
/// then runs against that protocol's first example submission under the small budget, and its report is
/// rendered.
pub fn manifest(data: &[u8]) {
    let Some((&k, rest)) = data.split_first() else {
        return;
    };
    let p = PROTOCOLS[k as usize % PROTOCOLS.len()];
    let id = p.info().id;
    let text = String::from_utf8_lossy(rest);
    let text = if k & 0x80 == 0 {
        text.into_owned()
    } else {
        let Ok(expects) = serde_json::from_str::<Value>(&text) else {
            return;
        };
        let Ok(opts) = Options::resolve(p.info().options, Mode::Official, &[]) else {
            return;
        };
        json!({"schema": 1, "kind": preflight::KIND, "protocol": id, "options": opts.to_json(),
               "expects": expects})
        .to_string()
    };
    let set = [("max_memory".to_string(), SMALL_BUDGET.to_string())];
    if let Ok(checked) = preflight::check(id, &text, &submission(p), &set) {
        let _ = checked.to_json();
        render_all(&checked.report);
    }
}

/// A valid 8-bit PNG of `w`×`h` (colour type `ct`: 0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA) whose
/// samples are `fill`, with `chunks` between IHDR and IDAT, every CRC right.
fn png_with(w: u32, h: u32, ct: u8, fill: u8, chunks: &[([u8; 4], &[u8])]) -> Vec<u8> {
    let channels = match ct {
        2 => 3,
        4 => 2,
        6 => 4,
        _ => 1,
    };
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = w.to_be_bytes().to_vec();
    ihdr.extend_from_slice(&h.to_be_bytes());
    ihdr.extend_from_slice(&[8, ct, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &ihdr);
    for (kind, data) in chunks {
        chunk(&mut out, kind, data);
    }
    let row = w as usize * channels;
    let mut raw = Vec::with_capacity((row + 1) * h as usize);
    for _ in 0..h {
        raw.push(0);
        raw.extend(std::iter::repeat_n(fill, row));
    }
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
    let _ = std::io::Write::write_all(&mut z, &raw);
    chunk(&mut out, b"IDAT", &z.finish().unwrap_or_default());
    chunk(&mut out, b"IEND", &[]);
    out
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let mut h = flate2::Crc::new();
    h.update(&out[start..]);
    out.extend_from_slice(&h.sum().to_be_bytes());
}

/// Ancillary and critical chunk types a recipe picks from (the rest of the byte picks "raw 4 bytes").
const KINDS: [&[u8; 4]; 10] = [
    b"iCCP", b"zTXt", b"iTXt", b"tEXt", b"eXIf", b"PLTE", b"tRNS", b"sBIT", b"acTL", b"gAMA",
];

/// PNG chunks: the first byte picks raw or built. Raw: the rest is a PNG file. Built: a recipe (size up to
/// 32×32, colour type, fill, then chunks: a type byte, a 16-bit length, the data) makes a PNG with valid
/// CRCs around the fuzzed chunks, so that they reach the decoder. Each is read by the chunk walk, the
/// palette check, fest's GT and prediction decoders and segmentation's label-map decoder (4096-pixel cap).
pub fn png_chunks(data: &[u8]) {
    let Some((&k, rest)) = data.split_first() else {
        return;
    };
    let bytes = if k & 1 == 0 {
        rest.to_vec()
    } else {
        let mut b = Bytes { data: rest };
        let (w, h) = (u32::from(b.u8() % 32) + 1, u32::from(b.u8() % 32) + 1);
        let ct = [0u8, 2, 3, 4, 6][b.u8() as usize % 5];
        let fill = b.u8();
        let mut chunks: Vec<([u8; 4], &[u8])> = Vec::new();
        while !b.is_empty() && chunks.len() < 16 {
            let t = b.u8() as usize;
            let kind = match KINDS.get(t % 16) {
                Some(kind) => **kind,
                None => {
                    let raw = b.take(4);
                    let mut kind = *b"prVt";
                    kind[..raw.len()].copy_from_slice(raw);
                    kind
                }
            };
            let len = b.u16() as usize;
            chunks.push((kind, b.take(len)));
        }
        png_with(w, h, ct, fill, &chunks)
    };
    let _ = png_chunks::layout(&bytes);
    let _ = png_mask::decode_gray("gt.png", &bytes, 1 << 12);
    let _ = png_mask::decode_rgb("pred.png", &bytes, 1 << 12);
    if let Ok(m) = label_map::decode("x.png", &bytes, 1 << 12, None) {
        let _ = png_chunks::palette_warnings("segmentation", "x.png", &bytes, &m.values, m.width);
    }
}
