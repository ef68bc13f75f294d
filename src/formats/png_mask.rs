//! PNG masks for `fest` (docs/specs/fest.md 2.3, 2.4): bytes in, one 8-bit gray value per pixel (GT, as OpenCV's
//! `IMREAD_GRAYSCALE` reads a PNG) or one packed `0xRRGGBB` colour per pixel (prediction, as `IMREAD_COLOR`
//! reads it). The header is read first: an image larger than the memory cap is refused before decoding.
//! A file that does not decode is located by byte offset (signature, or the chunk whose CRC or length is wrong).

use crate::diag::Diagnostic;
use crate::formats::png_chunks;
use image::error::{
    DecodingError, ImageError, LimitError, LimitErrorKind, ParameterError, ParameterErrorKind,
};
use image::{ColorType, ImageFormat};
use std::io::Cursor;

/// A decoded mask: `width × height` values in raster order.
pub struct Mask<T> {
    pub width: u32,
    pub height: u32,
    pub pixels: Vec<T>,
    /// Source colour type and bit depth as read from IHDR, e.g. `RGB 8-bit`.
    pub source: String,
    /// True when the source had 16-bit samples.
    pub sixteen_bit: bool,
    /// True when the source was gray (or gray + alpha), before any expansion.
    pub gray_source: bool,
    /// GT only: pixels whose stored value is not zero but whose gray value is 0, and the index of the first.
    pub lost_count: u64,
    pub lost_first: u64,
}

const SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a];

/// Width and height from the IHDR chunk, without decoding. `None` if the file does not start like a PNG.
pub fn header_size(bytes: &[u8]) -> Option<(u32, u32)> {
    if bytes.get(..8)? != SIGNATURE || bytes.get(12..16)? != b"IHDR" {
        return None;
    }
    let w = u32::from_be_bytes(bytes.get(16..20)?.try_into().ok()?);
    let h = u32::from_be_bytes(bytes.get(20..24)?.try_into().ok()?);
    Some((w, h))
}

fn describe_source(bytes: &[u8]) -> (String, bool) {
    let depth = bytes.get(24).copied().unwrap_or(0);
    let kind = match bytes.get(25).copied().unwrap_or(255) {
        0 => "gray",
        2 => "RGB",
        3 => "palette",
        4 => "gray+alpha",
        6 => "RGBA",
        _ => "unknown",
    };
    let gray = matches!(bytes.get(25), Some(0) | Some(4));
    (format!("{kind} {depth}-bit"), gray)
}

/// The pixel cap of a run: `max_megapixels` lowered to what the memory budget holds at `bytes_per_pixel`
/// (README, "Limits and the memory budget"): raising `max_megapixels` never takes a decode past `max_memory`.
pub fn pixel_cap(max_megapixels: u64, budget: crate::budget::Budget, bytes_per_pixel: u64) -> u64 {
    max_megapixels
        .saturating_mul(1_000_000)
        .min(budget.max_memory / bytes_per_pixel.max(1))
}

/// Width and height from IHDR, refusing a file that is not a PNG (`<prefix>.bad_png`) or has more than
/// `max_pixels` pixels (`<prefix>.too_large`) before anything is decoded. `official` is the official
/// scorer's behaviour on a file that does not decode.
pub fn check_size(
    file: &str,
    bytes: &[u8],
    max_pixels: u64,
    prefix: &str,
    official: &str,
) -> Result<(u32, u32), Box<Diagnostic>> {
    let Some((w, h)) = header_size(bytes) else {
        return Err(Box::new(bad_png_as(
            &format!("{prefix}.bad_png"),
            official,
            file,
            bytes,
            "not a PNG file (no PNG signature and IHDR chunk)",
        )));
    };
    let pixels = w as u64 * h as u64;
    if pixels > max_pixels {
        return Err(Box::new(Diagnostic::error(
            &format!("{prefix}.too_large"),
            format!(
                "{w}×{h} = {pixels} pixels exceeds the memory cap of {max_pixels} pixels; refused before decoding"
            ),
        )
        .file(file)
        .expected(format!("at most {max_pixels} pixels"))
        .found(format!("{w}×{h}"))
        .hint("Raise the cap with --set max_megapixels=N if the machine has the memory (about 13 bytes per pixel); the cap is also at most what the memory budget holds, raised with --set max_memory=… (e.g. 4GiB).")));
    }
    Ok((w, h))
}

/// Decodes to the decoder's expanded samples (8- or 16-bit, 1–4 channels), checking the pixel cap first.
fn decode_raw(
    file: &str,
    bytes: &[u8],
    max_pixels: u64,
) -> Result<(u32, u32, ColorType, Vec<u8>), Box<Diagnostic>> {
    let (w, h) = check_size(
        file,
        bytes,
        max_pixels,
        "fest.input",
        "crashes (cv2.imread returns None)",
    )?;
    let (ct, buf) = expand(bytes, w).map_err(|e| bad_png_box(file, bytes, &e.to_string()))?;
    Ok((w, h, ct, buf))
}

/// The decoded samples as image 0.25's `PngDecoder::read_image` gives them (png's `Transformations::EXPAND`:
/// palette to RGB(A), low depths to 8 bits, `tRNS` to alpha; 16-bit samples in native byte order), read
/// through [`png_chunks::decoder`] so that no ancillary chunk is inflated; errors worded as image words them.
fn expand(bytes: &[u8], width: u32) -> Result<(ColorType, Vec<u8>), ImageError> {
    let mut d = png_chunks::decoder(
        Cursor::new(bytes),
        bytes.len(),
        png_chunks::max_row_bytes(width),
    );
    d.set_transformations(png::Transformations::EXPAND);
    let mut reader = d.read_info().map_err(image_error)?;
    if let Some(e) = png_chunks::palette_error(reader.info()) {
        return Err(ImageError::Decoding(DecodingError::new(
            ImageFormat::Png.into(),
            e,
        )));
    }
    let ct = match reader.output_color_type() {
        (png::ColorType::Grayscale, png::BitDepth::Eight) => ColorType::L8,
        (png::ColorType::Grayscale, png::BitDepth::Sixteen) => ColorType::L16,
        (png::ColorType::GrayscaleAlpha, png::BitDepth::Eight) => ColorType::La8,
        (png::ColorType::GrayscaleAlpha, png::BitDepth::Sixteen) => ColorType::La16,
        (png::ColorType::Rgb, png::BitDepth::Eight) => ColorType::Rgb8,
        (png::ColorType::Rgb, png::BitDepth::Sixteen) => ColorType::Rgb16,
        (png::ColorType::Rgba, png::BitDepth::Eight) => ColorType::Rgba8,
        (png::ColorType::Rgba, png::BitDepth::Sixteen) => ColorType::Rgba16,
        (ct, depth) => {
            return Err(ImageError::Parameter(ParameterError::from_kind(
                ParameterErrorKind::Generic(format!("unsupported colour {ct:?} {depth:?}")),
            )))
        }
    };
    let n = reader.output_buffer_size().ok_or_else(|| {
        ImageError::Limits(LimitError::from_kind(LimitErrorKind::InsufficientMemory))
    })?;
    let mut buf = vec![0u8; n];
    reader.next_frame(&mut buf).map_err(image_error)?;
    if ct.bytes_per_pixel() / ct.channel_count() == 2 {
        for c in buf.chunks_exact_mut(2) {
            let v = u16::from_be_bytes([c[0], c[1]]).to_ne_bytes();
            c.copy_from_slice(&v);
        }
    }
    Ok((ct, buf))
}

/// A png crate error as image 0.25 wraps it (`ImageError::from_png`), so that the messages stay its words.
fn image_error(e: png::DecodingError) -> ImageError {
    match e {
        png::DecodingError::IoError(e) => ImageError::IoError(e),
        e @ png::DecodingError::Format(_) => {
            ImageError::Decoding(DecodingError::new(ImageFormat::Png.into(), e))
        }
        e @ png::DecodingError::Parameter(_) => ImageError::Parameter(ParameterError::from_kind(
            ParameterErrorKind::Generic(e.to_string()),
        )),
        png::DecodingError::LimitsExceeded => {
            ImageError::Limits(LimitError::from_kind(LimitErrorKind::InsufficientMemory))
        }
    }
}

/// GT decoding (spec 2.3): one gray value per pixel, as libpng's `rgb_to_gray` + `strip_16` give it to OpenCV.
pub fn decode_gray(file: &str, bytes: &[u8], max_pixels: u64) -> Result<Mask<u8>, Box<Diagnostic>> {
    let (width, height, ct, buf) = decode_raw(file, bytes, max_pixels)?;
    let (source, gray_source) = describe_source(bytes);
    if ct == ColorType::L8 {
        return Ok(Mask {
            width,
            height,
            pixels: buf,
            source,
            sixteen_bit: false,
            gray_source,
            lost_count: 0,
            lost_first: 0,
        });
    }
    let pixels: Vec<u8> = match ct {
        ColorType::La8 => buf.chunks_exact(2).map(|c| c[0]).collect(),
        ColorType::Rgb8 => buf
            .chunks_exact(3)
            .map(|c| luma8(c[0], c[1], c[2]))
            .collect(),
        ColorType::Rgba8 => buf
            .chunks_exact(4)
            .map(|c| luma8(c[0], c[1], c[2]))
            .collect(),
        ColorType::L16 => u16s(&buf).step_by(1).map(|v| (v >> 8) as u8).collect(),
        ColorType::La16 => u16s(&buf).step_by(2).map(|v| (v >> 8) as u8).collect(),
        ColorType::Rgb16 => rgb16_gray(&buf, 3),
        ColorType::Rgba16 => rgb16_gray(&buf, 4),
        other => {
            return Err(bad_png_box(
                file,
                bytes,
                &format!("unsupported colour type {other:?}"),
            ))
        }
    };
    // Non-zero source samples (alpha ignored) that became gray 0.
    let (ch, bps) = match ct {
        ColorType::L8 => (1, 1),
        ColorType::La8 => (2, 1),
        ColorType::Rgb8 => (3, 1),
        ColorType::Rgba8 => (4, 1),
        ColorType::L16 => (1, 2),
        ColorType::La16 => (2, 2),
        ColorType::Rgb16 => (3, 2),
        _ => (4, 2),
    };
    let colour = if ch >= 3 { 3 } else { 1 };
    let (mut lost_count, mut lost_first) = (0u64, 0u64);
    for (i, (px, g)) in buf.chunks_exact(ch * bps).zip(&pixels).enumerate() {
        if *g == 0 && px[..colour * bps].iter().any(|b| *b != 0) {
            if lost_count == 0 {
                lost_first = i as u64;
            }
            lost_count += 1;
        }
    }
    Ok(Mask {
        width,
        height,
        pixels,
        source,
        sixteen_bit: matches!(
            ct,
            ColorType::L16 | ColorType::La16 | ColorType::Rgb16 | ColorType::Rgba16
        ),
        gray_source,
        lost_count,
        lost_first,
    })
}

/// Truncated 8-bit luma of libpng's `rgb_to_gray` with OpenCV's coefficients (spec 2.3):
/// `(9797·R + 19234·G + 3737·B) >> 15`; equal channels give R exactly.
pub fn luma8(r: u8, g: u8, b: u8) -> u8 {
    ((9797 * r as u32 + 19234 * g as u32 + 3737 * b as u32) >> 15) as u8
}

/// Rounded 16-bit luma, then the high byte (spec 2.3): `((9797·R + 19234·G + 3737·B + 16384) >> 15) >> 8`.
pub fn luma16(r: u16, g: u16, b: u16) -> u8 {
    (((9797 * r as u64 + 19234 * g as u64 + 3737 * b as u64 + 16384) >> 15) >> 8) as u8
}

fn u16s(buf: &[u8]) -> impl Iterator<Item = u16> + '_ {
    buf.chunks_exact(2)
        .map(|c| u16::from_ne_bytes([c[0], c[1]]))
}

fn rgb16_gray(buf: &[u8], channels: usize) -> Vec<u8> {
    buf.chunks_exact(2 * channels)
        .map(|c| {
            let s = |i: usize| u16::from_ne_bytes([c[2 * i], c[2 * i + 1]]);
            luma16(s(0), s(1), s(2))
        })
        .collect()
}

/// Prediction decoding (spec 2.4): one packed `0xRRGGBB` per pixel; gray replicated, alpha dropped,
/// 16-bit samples reduced to their high byte.
pub fn decode_rgb(file: &str, bytes: &[u8], max_pixels: u64) -> Result<Mask<u32>, Box<Diagnostic>> {
    let (width, height, ct, buf) = decode_raw(file, bytes, max_pixels)?;
    let (source, gray_source) = describe_source(bytes);
    let pack = |r: u8, g: u8, b: u8| (r as u32) << 16 | (g as u32) << 8 | b as u32;
    let gray = |v: u8| pack(v, v, v);
    let hi = |c: &[u8], i: usize| (u16::from_ne_bytes([c[2 * i], c[2 * i + 1]]) >> 8) as u8;
    let pixels: Vec<u32> = match ct {
        ColorType::L8 => buf.iter().map(|v| gray(*v)).collect(),
        ColorType::La8 => buf.chunks_exact(2).map(|c| gray(c[0])).collect(),
        ColorType::Rgb8 => buf
            .chunks_exact(3)
            .map(|c| pack(c[0], c[1], c[2]))
            .collect(),
        ColorType::Rgba8 => buf
            .chunks_exact(4)
            .map(|c| pack(c[0], c[1], c[2]))
            .collect(),
        ColorType::L16 => buf.chunks_exact(2).map(|c| gray(hi(c, 0))).collect(),
        ColorType::La16 => buf.chunks_exact(4).map(|c| gray(hi(c, 0))).collect(),
        ColorType::Rgb16 => buf
            .chunks_exact(6)
            .map(|c| pack(hi(c, 0), hi(c, 1), hi(c, 2)))
            .collect(),
        ColorType::Rgba16 => buf
            .chunks_exact(8)
            .map(|c| pack(hi(c, 0), hi(c, 1), hi(c, 2)))
            .collect(),
        other => {
            return Err(bad_png_box(
                file,
                bytes,
                &format!("unsupported colour type {other:?}"),
            ))
        }
    };
    Ok(Mask {
        width,
        height,
        pixels,
        source,
        sixteen_bit: matches!(
            ct,
            ColorType::L16 | ColorType::La16 | ColorType::Rgb16 | ColorType::Rgba16
        ),
        gray_source,
        lost_count: 0,
        lost_first: 0,
    })
}

fn bad_png_box(file: &str, bytes: &[u8], why: &str) -> Box<Diagnostic> {
    Box::new(bad_png(file, bytes, why))
}

/// `fest.input.bad_png`, located at the byte offset of the first structural problem found by walking the chunks.
fn bad_png(file: &str, bytes: &[u8], why: &str) -> Diagnostic {
    bad_png_as(
        "fest.input.bad_png",
        "crashes (cv2.imread returns None)",
        file,
        bytes,
        why,
    )
}

/// A `code` error for a file that is not a valid PNG, located as [`locate_problem`] finds it.
pub fn bad_png_as(code: &str, official: &str, file: &str, bytes: &[u8], why: &str) -> Diagnostic {
    let (offset, what) = locate_problem(bytes);
    let mut d = Diagnostic::error(
        code,
        format!(
            "not a valid PNG: {}",
            what.unwrap_or_else(|| why.to_string())
        ),
    )
    .file(file)
    .expected("a PNG image (signature 89 50 4E 47 0D 0A 1A 0A, chunks with valid CRCs)")
    .hint("Re-save the mask as PNG (lossless); JPEG or a truncated download cannot be scored.")
    .official(official);
    d.offset = Some(offset);
    if let Some(found) = bytes.get(..8.min(bytes.len())) {
        d.found = Some(
            found
                .iter()
                .map(|b| format!("{b:02X}"))
                .collect::<Vec<_>>()
                .join(" "),
        );
    }
    d
}

/// The byte offset of the first bad structure: the signature (0), a truncated chunk, or a chunk whose CRC is
/// wrong; otherwise the end of the data (`None` text: the decoder's own message is used).
pub fn locate_problem(bytes: &[u8]) -> (u64, Option<String>) {
    if bytes.get(..8) != Some(&SIGNATURE[..]) {
        return (
            0,
            Some("the file does not start with the PNG signature".into()),
        );
    }
    let mut at = 8usize;
    loop {
        let Some(head) = bytes.get(at..at + 8) else {
            return (
                at as u64,
                Some("the file ends before the IEND chunk (truncated)".into()),
            );
        };
        let len = u32::from_be_bytes([head[0], head[1], head[2], head[3]]) as usize;
        let kind = String::from_utf8_lossy(&head[4..8]).to_string();
        let end = at.checked_add(12).and_then(|x| x.checked_add(len));
        let Some(chunk) = end.and_then(|e| bytes.get(at + 4..e)) else {
            return (
                at as u64,
                Some(format!(
                    "chunk `{kind}` at byte {at} runs past the end of the file (truncated)"
                )),
            );
        };
        let (body, crc) = chunk.split_at(chunk.len() - 4);
        let want = u32::from_be_bytes([crc[0], crc[1], crc[2], crc[3]]);
        if crc32(body) != want {
            return (
                at as u64,
                Some(format!("CRC mismatch in chunk `{kind}` at byte {at}")),
            );
        }
        if kind == "IEND" {
            return (at as u64, None);
        }
        at += 12 + len;
    }
}

fn crc32(data: &[u8]) -> u32 {
    let mut h = flate2::Crc::new();
    h.update(data);
    h.sum()
}

/// An 8-bit gray PNG of `width` × `height` pixels, all `value`: a pre-flight check's stand-in for a ground-truth
/// mask or label map of that size (docs/specs/preflight.md). Written row by row, so only one row is held.
pub fn blank_gray(width: u32, height: u32, value: u8) -> Vec<u8> {
    let mut out = Vec::new();
    let mut e = png::Encoder::new(&mut out, width, height);
    e.set_color(png::ColorType::Grayscale);
    e.set_depth(png::BitDepth::Eight);
    let row = vec![value; width as usize];
    if let Ok(mut w) = e.write_header() {
        if let Ok(mut s) = w.stream_writer() {
            for _ in 0..height {
                if std::io::Write::write_all(&mut s, &row).is_err() {
                    break;
                }
            }
            let _ = s.finish();
        }
    }
    out
}
