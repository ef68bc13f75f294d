//! Bombs built in milliseconds: raw deflate streams of gigabytes, and PNG files around them.

use flate2::{Compress, Compression, FlushCompress};

/// Raw deflate of `prefix`, then `mib` MiB of `byte`, then `suffix`, built in milliseconds: after a full
/// flush the compressor starts afresh, so the compressed form of one MiB of `byte` is the same bytes every
/// time and is repeated rather than recomputed.
pub fn deflate(prefix: &[u8], byte: u8, mib: usize, suffix: &[u8]) -> Vec<u8> {
    deflate_padded(prefix, byte, mib, suffix, 0)
}

/// [`deflate`] with `pad` empty stored blocks after each MiB (5 bytes each, inflating to nothing): a bomb
/// whose ratio stays under the 250:1 rule, so that what refuses it is the line or field limit.
pub fn deflate_padded(prefix: &[u8], byte: u8, mib: usize, suffix: &[u8], pad: usize) -> Vec<u8> {
    let mut c = Compress::new(Compression::best(), false);
    let step = |c: &mut Compress, input: &[u8], flush: FlushCompress| {
        let mut out = Vec::with_capacity(input.len() / 8 + 1024);
        let before = c.total_in();
        loop {
            let done = (c.total_in() - before) as usize;
            c.compress_vec(&input[done..], &mut out, flush).unwrap();
            if (c.total_in() - before) as usize == input.len() && out.len() < out.capacity() {
                break;
            }
            out.reserve(out.capacity().max(1024));
        }
        out
    };
    let mut out = step(&mut c, prefix, FlushCompress::Full);
    let chunk = vec![byte; 1 << 20];
    let a = step(&mut c, &chunk, FlushCompress::Full);
    let b = step(&mut c, &chunk, FlushCompress::Full);
    let d = step(&mut c, &chunk, FlushCompress::Full);
    assert_eq!(b, d, "the compressed chunk repeats");
    let padding: Vec<u8> = [0u8, 0, 0, 0xff, 0xff].repeat(pad);
    if mib > 0 {
        out.extend_from_slice(&a);
        out.extend_from_slice(&padding);
    }
    for _ in 1..mib {
        out.extend_from_slice(&b);
        out.extend_from_slice(&padding);
    }
    out.extend(step(&mut c, suffix, FlushCompress::Finish));
    out
}

/// Appends one PNG chunk (length, type, data, CRC).
pub fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let mut h = flate2::Crc::new();
    h.update(&out[start..]);
    out.extend_from_slice(&h.sum().to_be_bytes());
}

/// A `w`×`h` 8-bit PNG of colour type `colour` (0 gray, 3 palette) whose samples are `px` (one byte a
/// pixel), with the `chunks` placed between IHDR and IDAT (a PLTE among them for a palette image).
pub fn png(w: u32, h: u32, colour: u8, px: &[u8], chunks: &[(&[u8; 4], &[u8])]) -> Vec<u8> {
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = w.to_be_bytes().to_vec();
    ihdr.extend_from_slice(&h.to_be_bytes());
    ihdr.extend_from_slice(&[8, colour, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &ihdr);
    for (k, d) in chunks {
        chunk(&mut out, k, d);
    }
    let mut raw = Vec::new();
    for row in px.chunks(w as usize) {
        raw.push(0);
        raw.extend_from_slice(row);
    }
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), Compression::default());
    std::io::Write::write_all(&mut z, &raw).unwrap();
    chunk(&mut out, b"IDAT", &z.finish().unwrap());
    chunk(&mut out, b"IEND", &[]);
    out
}

/// A zlib stream (header, raw deflate, Adler-32 left 0) of `mib` MiB of zeros, after `prefix` bytes
/// stored as they are (an `iCCP` profile name and method, a `zTXt` keyword and method).
pub fn zlib_bomb(prefix: &[u8], mib: usize) -> Vec<u8> {
    let mut out = prefix.to_vec();
    out.extend_from_slice(&[0x78, 0xda]);
    out.extend(deflate(b"", 0, mib, b""));
    out.extend_from_slice(&[0, 0, 0, 0]);
    out
}
