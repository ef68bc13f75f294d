//! The chunk layer of a PNG file (W3C PNG Specification, Third Edition, §5 "Datastream structure" and §11.2
//! "Critical chunks"), for the mask and label-map readers: the png crate's decoder set up so that no
//! ancillary chunk is ever inflated (an `iCCP` colour profile or a `zTXt`/`iTXt` text is a zlib stream of
//! any size: a 4 MB file can hold a 4 GiB profile), and the palette facts a decoder does not report (a
//! palette image without `PLTE`, indices beyond its entries).
//!
//! No reader of this crate uses colour profiles, text or metadata: OpenCV's `imread` and Pillow's `np.array`
//! return the stored samples without colour management, so skipping them changes no value.

use crate::diag::Diagnostic;
use std::io::{BufRead, Seek};

/// Bytes the decoder may hold besides the image: the raw (compressed) bytes of the ancillary chunks it
/// keeps (`eXIf`, `PLTE`, `tRNS`, at most the file's own length) and one output row, plus this slack.
const SLACK: usize = 16 << 20;

/// A png crate decoder of `r` (a PNG of `len` bytes whose rows are at most `row_bytes` long) that skips
/// `iCCP`, `tEXt`, `zTXt` and `iTXt` without inflating them, and whose other allocations besides the image
/// buffer are capped by the file's size (png crate 0.18 `Limits`: `eXIf` and the row buffer are charged to
/// it; anything over is `LimitsExceeded`).
pub fn decoder<R: BufRead + Seek>(r: R, len: usize, row_bytes: u64) -> png::Decoder<R> {
    let row = usize::try_from(row_bytes).unwrap_or(usize::MAX);
    let bytes = SLACK.saturating_add(len).saturating_add(row);
    let mut d = png::Decoder::new_with_limits(r, png::Limits { bytes });
    d.set_ignore_iccp_chunk(true);
    d.set_ignore_text_chunk(true);
    d
}

/// The error of a palette image whose `PLTE` chunk is not a whole number of RGB entries: the PNG specification
/// (§11.2.3) requires a length divisible by 3 and libpng refuses the image ("PLTE: invalid", so OpenCV's
/// `imread` returns None). Checked before the png crate expands the palette: png 0.18.1 accepts any length from
/// 3 to 768 and then panics copying the last, partial entry.
pub fn palette_error(info: &png::Info) -> Option<String> {
    let palette = info.palette.as_deref()?;
    (info.color_type == png::ColorType::Indexed && palette.len() % 3 != 0).then(|| {
        format!(
            "invalid PLTE chunk: {} bytes, not a multiple of 3 (one RGB triple per entry)",
            palette.len()
        )
    })
}

/// The widest row a PNG of `width` pixels can decode to (RGBA, 16-bit: 8 bytes a pixel).
pub fn max_row_bytes(width: u32) -> u64 {
    width as u64 * 8
}

/// What the chunk walk found before the image data.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Layout {
    /// IHDR's colour type (3 = palette) and bit depth.
    pub colour_type: u8,
    pub bit_depth: u8,
    /// The `PLTE` chunk's byte offset and number of entries.
    pub palette: Option<(u64, usize)>,
    /// The byte offset of the first `IDAT` chunk.
    pub first_idat: Option<u64>,
}

/// Walks the chunks from the signature to the first `IDAT` (lengths only; the CRCs are the decoder's
/// business). `None` when the file does not start with a signature and an `IHDR`.
pub fn layout(bytes: &[u8]) -> Option<Layout> {
    if bytes.get(..8)? != b"\x89PNG\r\n\x1a\n" || bytes.get(12..16)? != b"IHDR" {
        return None;
    }
    let mut out = Layout {
        bit_depth: *bytes.get(24)?,
        colour_type: *bytes.get(25)?,
        ..Layout::default()
    };
    let mut at = 8usize;
    while let Some(head) = bytes.get(at..at + 8) {
        let len = u32::from_be_bytes([head[0], head[1], head[2], head[3]]) as usize;
        match &head[4..8] {
            b"PLTE" => out.palette = Some((at as u64, len / 3)),
            b"IDAT" => {
                out.first_idat = Some(at as u64);
                break;
            }
            b"IEND" => break,
            _ => {}
        }
        at = match at.checked_add(12).and_then(|x| x.checked_add(len)) {
            Some(next) => next,
            None => break,
        };
    }
    Some(out)
}

/// Warnings about the palette of a palette image whose decoded indices are `values` (raster order, `width`
/// a row): no `PLTE` chunk before the image data (libpng, hence OpenCV, refuses the file: "Missing PLTE
/// before IDAT"; Pillow reads the indices), and indices with no palette entry (the first located by pixel,
/// with the count). `code` prefixes the codes (`segmentation` → `segmentation.png_no_palette`,
/// `segmentation.png_palette_index`). Nothing for other colour types.
pub fn palette_warnings(
    code: &str,
    file: &str,
    bytes: &[u8],
    values: &[u16],
    width: u32,
) -> Vec<Diagnostic> {
    let Some(l) = layout(bytes) else {
        return Vec::new();
    };
    if l.colour_type != 3 {
        return Vec::new();
    }
    let Some((_, entries)) = l.palette else {
        let mut d = Diagnostic::warning(
            &format!("{code}.png_no_palette"),
            "palette image without a PLTE chunk: its indices are read as the values, but libpng and OpenCV refuse the file",
        )
        .file(file)
        .expected("a PLTE chunk before the first IDAT (PNG specification §11.2.3)")
        .found("no PLTE chunk")
        .hint("Re-save the image with its palette, or as an 8-bit gray PNG.")
        .official("reads the indices (Pillow does not require PLTE)");
        d.offset = Some(l.first_idat.unwrap_or(8));
        return vec![d];
    };
    let beyond = |v: &u16| *v as usize >= entries;
    let Some(first) = values.iter().position(beyond) else {
        return Vec::new();
    };
    let count = values.iter().filter(|v| beyond(v)).count();
    let w = width.max(1) as usize;
    let mut d = Diagnostic::warning(
        &format!("{code}.png_palette_index"),
        format!(
            "palette index {} has no entry in the {entries}-entry PLTE chunk ({count} pixels)",
            values[first]
        ),
    )
    .file(file)
    .expected(format!("indices 0–{}", entries.saturating_sub(1)))
    .found(values[first].to_string())
    .hint("Re-save the image with a palette covering every index, or as an 8-bit gray PNG.")
    .official("reads the index as the value (Pillow does not check it against PLTE)");
    d.pixel = Some([(first % w) as u64, (first / w) as u64]);
    vec![d]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        let mut body = kind.to_vec();
        body.extend_from_slice(data);
        let mut h = flate2::Crc::new();
        h.update(&body);
        out.extend_from_slice(&body);
        out.extend_from_slice(&h.sum().to_be_bytes());
    }

    /// A 2×1 8-bit PNG of colour type `ct` with pixels `px`, optional PLTE entries, and `extra` chunks
    /// before the image data.
    fn png(ct: u8, px: &[u8], plte: Option<usize>, extra: &[(&[u8; 4], Vec<u8>)]) -> Vec<u8> {
        let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
        let mut ihdr = Vec::new();
        ihdr.extend_from_slice(&2u32.to_be_bytes());
        ihdr.extend_from_slice(&1u32.to_be_bytes());
        ihdr.extend_from_slice(&[8, ct, 0, 0, 0]);
        chunk(&mut out, b"IHDR", &ihdr);
        for (k, d) in extra {
            chunk(&mut out, k, d);
        }
        if let Some(n) = plte {
            chunk(&mut out, b"PLTE", &vec![7u8; 3 * n]);
        }
        let mut raw = vec![0u8];
        raw.extend_from_slice(px);
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut z, &raw).unwrap();
        chunk(&mut out, b"IDAT", &z.finish().unwrap());
        chunk(&mut out, b"IEND", &[]);
        out
    }

    fn decode(bytes: &[u8]) -> Result<Vec<u8>, png::DecodingError> {
        let mut d = decoder(std::io::Cursor::new(bytes), bytes.len(), 16);
        d.set_transformations(png::Transformations::IDENTITY);
        let mut r = d.read_info()?;
        let mut buf = vec![0; r.output_buffer_size().unwrap()];
        r.next_frame(&mut buf)?;
        Ok(buf)
    }

    #[test]
    fn palette_facts_are_reported() {
        let ok = png(3, &[0, 1], Some(2), &[]);
        assert!(palette_warnings("s", "a.png", &ok, &[0, 1], 2).is_empty());
        let w = palette_warnings("s", "a.png", &ok, &[0, 5], 2);
        assert_eq!(
            (w[0].code.as_str(), w[0].pixel),
            ("s.png_palette_index", Some([1, 0]))
        );
        let none = png(3, &[0, 1], None, &[]);
        let w = palette_warnings("s", "a.png", &none, &[0, 1], 2);
        assert_eq!(w[0].code, "s.png_no_palette");
        assert_eq!(w[0].offset, layout(&none).unwrap().first_idat);
        let gray = png(0, &[0, 9], None, &[]);
        assert!(palette_warnings("s", "a.png", &gray, &[0, 9], 2).is_empty());
    }

    #[test]
    fn an_iccp_bomb_is_never_inflated() {
        // A profile inflating to 64 MiB: skipped (the decode needs no memory for it, and succeeds).
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
        std::io::Write::write_all(&mut z, &vec![0u8; 64 << 20]).unwrap();
        let mut iccp = b"bomb\0\0".to_vec();
        iccp.extend(z.finish().unwrap());
        let mut ztxt = b"k\0\0".to_vec();
        ztxt.extend_from_slice(&iccp[6..]);
        let bomb = png(0, &[3, 4], None, &[(b"iCCP", iccp), (b"zTXt", ztxt)]);
        assert!(bomb.len() < 200_000);
        assert_eq!(decode(&bomb).unwrap(), vec![3, 4]);
    }

    #[test]
    fn a_partial_palette_entry_is_an_error_not_a_panic() {
        // PLTE of 7 bytes (two entries and one byte): png 0.18.1 panics expanding it; libpng refuses it.
        for n in [4usize, 7, 8] {
            let bytes = png(3, &[0, 1], None, &[(b"PLTE", vec![9u8; n])]);
            let e = crate::formats::png_mask::decode_gray("m.png", &bytes, 1 << 12)
                .err()
                .expect("an error");
            assert!(e.message.contains("not a multiple of 3"), "{}", e.message);
            assert!(crate::formats::png_mask::decode_rgb("m.png", &bytes, 1 << 12).is_err());
        }
        let bytes = png(3, &[0, 1], None, &[(b"PLTE", vec![9u8; 6])]);
        assert!(crate::formats::png_mask::decode_gray("m.png", &bytes, 1 << 12).is_ok());
    }
}
