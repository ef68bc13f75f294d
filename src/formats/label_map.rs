//! PNG label maps for `segmentation` (docs/specs/families.md section 4): one class value per pixel, as
//! mmsegmentation's `LoadAnnotations` reads a PNG (`mmcv.imfrombytes(..., flag='unchanged',
//! backend='pillow')`, then `np.array`): an 8- or 16-bit gray sample as is, a palette image's index (not its
//! colour), 2- and 4-bit gray scaled to 8 bits as Pillow does (×85, ×17), 1-bit gray 0/1. Gray + alpha keeps
//! the gray sample. Colour images (RGB, RGBA; 8-bit) go through a configured colour → class palette; a colour
//! it lacks is an error at its first pixel. The header is checked first (fest's [`png_mask::check_size`]):
//! an image over the pixel cap is refused before decoding; a broken file is located by byte offset.

use crate::diag::Diagnostic;
use crate::formats::{png_chunks, png_mask};
use png::{BitDepth, ColorType, Transformations};
use rustc_hash::FxHashMap;
use std::io::Cursor;

/// A decoded label map: `width × height` class values in raster order.
#[derive(Clone, Debug, PartialEq)]
pub struct LabelMap {
    pub width: u32,
    pub height: u32,
    pub values: Vec<u16>,
    /// Colour type and depth as stored, e.g. `palette 8-bit`.
    pub source: String,
}

const CODE: &str = "segmentation";
const OFFICIAL: &str = "crashes (mmcv.imfrombytes cannot decode the file)";

fn bad(file: &str, bytes: &[u8], why: &str) -> Box<Diagnostic> {
    Box::new(png_mask::bad_png_as(
        "segmentation.bad_png",
        OFFICIAL,
        file,
        bytes,
        why,
    ))
}

/// Decodes `bytes` (a PNG) to class values; RGB(A) pixels are mapped with `palette` (packed `0xRRGGBB` →
/// class), which must then be given.
pub fn decode(
    file: &str,
    bytes: &[u8],
    max_pixels: u64,
    palette: Option<&FxHashMap<u32, u16>>,
) -> Result<LabelMap, Box<Diagnostic>> {
    let (w, h) = png_mask::check_size(file, bytes, max_pixels, CODE, OFFICIAL)?;
    let mut dec = png_chunks::decoder(
        Cursor::new(bytes),
        bytes.len(),
        png_chunks::max_row_bytes(w),
    );
    dec.set_transformations(Transformations::IDENTITY);
    let mut reader = dec
        .read_info()
        .map_err(|e| bad(file, bytes, &e.to_string()))?;
    let n = reader
        .output_buffer_size()
        .ok_or_else(|| bad(file, bytes, "image too large"))?;
    let mut buf = vec![0u8; n];
    let frame = reader
        .next_frame(&mut buf)
        .map_err(|e| bad(file, bytes, &e.to_string()))?;
    let (ct, depth, line) = (frame.color_type, frame.bit_depth, frame.line_size);
    let (wu, hu) = (w as usize, h as usize);
    let bits = depth as u8 as usize;
    let kind = match ct {
        ColorType::Grayscale => "gray",
        ColorType::Rgb => "RGB",
        ColorType::Indexed => "palette",
        ColorType::GrayscaleAlpha => "gray+alpha",
        ColorType::Rgba => "RGBA",
    };
    let source = format!("{kind} {bits}-bit");
    let rows = buf.chunks(line.max(1)).take(hu);
    let values = match (ct, depth) {
        (ColorType::Rgb | ColorType::Rgba, BitDepth::Eight) => {
            let Some(pal) = palette else {
                return Err(needs_palette(file, source));
            };
            let ch = if ct == ColorType::Rgb { 3 } else { 4 };
            colour_values(file, rows, ch, wu, hu, pal)?
        }
        _ => match gray_values(ct, depth, rows, wu, hu) {
            Some(v) => v,
            None => {
                return Err(Box::new(
                    Diagnostic::error(
                        "segmentation.unsupported_png",
                        format!("{source} PNGs are not label maps"),
                    )
                    .file(file)
                    .expected("an 8/16-bit gray, palette, or 8-bit RGB(A) PNG")
                    .found(source)
                    .hint("Save label maps as 8-bit gray or palette PNGs."),
                ))
            }
        },
    };
    if values.len() != wu * hu {
        return Err(bad(file, bytes, "the image data is shorter than its size"));
    }
    Ok(LabelMap {
        width: w,
        height: h,
        values,
        source,
    })
}

/// The class values of a gray, palette-index or gray+alpha image, row by row (`rows`, each of `wu` pixels);
/// 2- and 4-bit gray scaled by 85 and 17 (to 0–255). `None` for another colour type or depth.
fn gray_values<'a>(
    ct: ColorType,
    depth: BitDepth,
    rows: impl Iterator<Item = &'a [u8]>,
    wu: usize,
    hu: usize,
) -> Option<Vec<u16>> {
    let mut values = Vec::with_capacity(wu * hu);
    let bits = depth as u8 as usize;
    match (ct, depth) {
        (
            ColorType::Grayscale | ColorType::Indexed,
            BitDepth::One | BitDepth::Two | BitDepth::Four,
        ) => {
            let scale: u16 = match (ct, depth) {
                (ColorType::Grayscale, BitDepth::Two) => 85,
                (ColorType::Grayscale, BitDepth::Four) => 17,
                _ => 1,
            };
            let mask = (1u16 << bits) - 1;
            for row in rows {
                for x in 0..wu {
                    let bit = x * bits;
                    let byte = row.get(bit / 8).copied().unwrap_or(0) as u16;
                    values.push(((byte >> (8 - bits - bit % 8)) & mask) * scale);
                }
            }
        }
        (ColorType::Grayscale | ColorType::Indexed, BitDepth::Eight) => {
            for row in rows {
                values.extend(row[..wu.min(row.len())].iter().map(|&v| v as u16));
            }
        }
        (ColorType::Grayscale, BitDepth::Sixteen) => {
            for row in rows {
                values.extend(
                    row.chunks_exact(2)
                        .take(wu)
                        .map(|c| u16::from_be_bytes([c[0], c[1]])),
                );
            }
        }
        (ColorType::GrayscaleAlpha, BitDepth::Eight) => {
            for row in rows {
                values.extend(row.chunks_exact(2).take(wu).map(|c| c[0] as u16));
            }
        }
        (ColorType::GrayscaleAlpha, BitDepth::Sixteen) => {
            for row in rows {
                values.extend(
                    row.chunks_exact(4)
                        .take(wu)
                        .map(|c| u16::from_be_bytes([c[0], c[1]])),
                );
            }
        }
        _ => return None,
    }
    Some(values)
}

/// The error of a colour label map without the `palette` option.
fn needs_palette(file: &str, source: String) -> Box<Diagnostic> {
    Box::new(
        Diagnostic::error(
            "segmentation.needs_palette",
            format!("{source} label map: colour label maps need the `palette` option"),
        )
        .file(file)
        .expected("a gray or palette PNG (one class value per pixel), or a `palette` option")
        .found(source)
        .hint(
            "Save label maps as 8-bit gray or palette PNGs, or set palette = \"#RRGGBB=class,…\".",
        )
        .official("fails (a 3-channel array is not a label map)"),
    )
}

/// The class values of an 8-bit RGB (`ch` 3) or RGBA (`ch` 4) image through `palette`; a colour it lacks is an
/// error at its first pixel, with the count of such pixels.
fn colour_values<'a>(
    file: &str,
    rows: impl Iterator<Item = &'a [u8]>,
    ch: usize,
    wu: usize,
    hu: usize,
    palette: &FxHashMap<u32, u16>,
) -> Result<Vec<u16>, Box<Diagnostic>> {
    let mut values = Vec::with_capacity(wu * hu);
    let mut missing: Option<(usize, u32)> = None;
    let mut count = 0u64;
    for (y, row) in rows.enumerate() {
        for (x, c) in row.chunks_exact(ch).take(wu).enumerate() {
            let rgb = (c[0] as u32) << 16 | (c[1] as u32) << 8 | c[2] as u32;
            match palette.get(&rgb) {
                Some(&v) => values.push(v),
                None => {
                    count += 1;
                    missing.get_or_insert((y * wu + x, rgb));
                    values.push(0);
                }
            }
        }
    }
    let Some((i, rgb)) = missing else {
        return Ok(values);
    };
    let mut d = Diagnostic::error(
        "segmentation.unknown_colour",
        format!("colour #{rgb:06X} is not in the palette ({count} pixels)"),
    )
    .file(file)
    .expected("a colour listed in `palette`")
    .found(format!("#{rgb:06X}"))
    .hint("Add the colour to the `palette` option or fix the label map.");
    d.pixel = Some([(i % wu) as u64, (i / wu) as u64]);
    Err(Box::new(d))
}

/// Parses a `palette` option: `#RRGGBB=class` pairs separated by `,` or `;`.
pub fn parse_palette(s: &str) -> Result<FxHashMap<u32, u16>, String> {
    let mut out = FxHashMap::default();
    for part in s.split([',', ';']).map(str::trim).filter(|p| !p.is_empty()) {
        let (c, v) = part
            .split_once('=')
            .ok_or_else(|| format!("`{part}`: expected #RRGGBB=class"))?;
        let hex = c.trim().trim_start_matches('#');
        let rgb = match (hex.len(), u32::from_str_radix(hex, 16)) {
            (6, Ok(x)) => x,
            _ => return Err(format!("`{part}`: expected #RRGGBB=class")),
        };
        let class: u16 = v
            .trim()
            .parse()
            .map_err(|_| format!("`{part}`: the class must be an integer 0–65535"))?;
        if out.insert(rgb, class).is_some() {
            return Err(format!("`{part}`: colour #{rgb:06X} is listed twice"));
        }
    }
    if out.is_empty() {
        return Err("expected #RRGGBB=class pairs".into());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encode(w: u32, h: u32, ct: ColorType, depth: BitDepth, data: &[u8], plte: bool) -> Vec<u8> {
        let mut out = Vec::new();
        let mut enc = png::Encoder::new(&mut out, w, h);
        enc.set_color(ct);
        enc.set_depth(depth);
        if plte {
            enc.set_palette((0..16u8).flat_map(|i| [i * 10, 0, 0]).collect::<Vec<u8>>());
        }
        let mut wr = enc.write_header().unwrap();
        wr.write_image_data(data).unwrap();
        wr.finish().unwrap();
        out
    }

    #[test]
    fn values_as_stored() {
        let g16 = encode(
            2,
            1,
            ColorType::Grayscale,
            BitDepth::Sixteen,
            &[1, 2, 0, 7],
            false,
        );
        assert_eq!(decode("a", &g16, 100, None).unwrap().values, vec![258, 7]);
        // 4-bit palette, 3 pixels: indices 1, 2, 15 (the colours do not matter).
        let p4 = encode(
            3,
            1,
            ColorType::Indexed,
            BitDepth::Four,
            &[0x12, 0xF0],
            true,
        );
        let m = decode("a", &p4, 100, None).unwrap();
        assert_eq!(
            (m.values.clone(), m.source.as_str()),
            (vec![1, 2, 15], "palette 4-bit")
        );
        // 2-bit gray is scaled as Pillow's "L" mode reads it.
        let g2 = encode(
            2,
            1,
            ColorType::Grayscale,
            BitDepth::Two,
            &[0b0111_0000],
            false,
        );
        assert_eq!(decode("a", &g2, 100, None).unwrap().values, vec![85, 255]);
    }

    #[test]
    fn rgb_needs_a_palette_and_locates_unknown_colours() {
        let rgb = encode(
            2,
            2,
            ColorType::Rgb,
            BitDepth::Eight,
            &[0, 0, 0, 255, 0, 0, 255, 0, 0, 1, 2, 3],
            false,
        );
        assert_eq!(
            decode("a", &rgb, 100, None).unwrap_err().code,
            "segmentation.needs_palette"
        );
        let pal = parse_palette("#000000=0; #FF0000=1").unwrap();
        let e = decode("a", &rgb, 100, Some(&pal)).unwrap_err();
        assert_eq!(
            (e.code.as_str(), e.pixel),
            ("segmentation.unknown_colour", Some([1, 1]))
        );
        let pal = parse_palette("#000000=0,#ff0000=1,#010203=2").unwrap();
        assert_eq!(
            decode("a", &rgb, 100, Some(&pal)).unwrap().values,
            vec![0, 1, 1, 2]
        );
        assert!(parse_palette("#12345=1").is_err());
    }

    #[test]
    fn broken_and_large_files_are_refused() {
        let g = encode(4, 4, ColorType::Grayscale, BitDepth::Eight, &[0; 16], false);
        assert_eq!(
            decode("a", &g, 15, None).unwrap_err().code,
            "segmentation.too_large"
        );
        assert_eq!(
            decode("a", &g[..g.len() - 20], 100, None).unwrap_err().code,
            "segmentation.bad_png"
        );
        assert_eq!(
            decode("a", b"GIF89a", 100, None).unwrap_err().code,
            "segmentation.bad_png"
        );
    }
}
