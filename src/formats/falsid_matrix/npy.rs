//! `.npy` matrices (D4): the header parse (format 1.0–3.0) and the 2-D float32/float64 data, C or Fortran
//! order, any endianness; problems located by byte offset.

use super::{Matrix, MAX_N};
use crate::diag::{excerpt, Diagnostic, Diags};
use std::io::Read;

/// Reads a `.npy` array (D4): a small header parse (format 1.0–3.0), 2-D `<f8`/`>f8`/`<f4`/`>f4`, C or
/// Fortran order. Problems are located by byte offset.
pub fn read_npy(
    path: &str,
    mut reader: impl Read,
    size_hint: u64,
    diags: &mut Diags,
) -> Option<Matrix> {
    let err = |off: u64, msg: &str, found: String| {
        Diagnostic::error("falsid.matrix.npy", msg.to_string())
            .file(path)
            .found(found)
            .hint("Save the matrix with numpy.save(path, matrix.astype('float64')).")
            .with_offset(off)
    };
    let mut pre = [0u8; 10];
    if reader.read_exact(&mut pre).is_err() || &pre[..6] != b"\x93NUMPY" {
        diags.push(err(
            0,
            "not a .npy file (magic \\x93NUMPY missing)",
            excerpt(&String::from_utf8_lossy(&pre)),
        ));
        return None;
    }
    let (hlen, start) = match pre[6] {
        1 => (u16::from_le_bytes([pre[8], pre[9]]) as usize, 10u64),
        2 | 3 => {
            let mut more = [0u8; 2];
            if reader.read_exact(&mut more).is_err() {
                diags.push(err(10, "truncated .npy header", String::new()));
                return None;
            }
            (
                u32::from_le_bytes([pre[8], pre[9], more[0], more[1]]) as usize,
                12u64,
            )
        }
        v => {
            diags.push(err(6, "unsupported .npy format version", format!("{v}")));
            return None;
        }
    };
    if hlen > 1 << 20 {
        diags.push(err(8, "implausible .npy header length", format!("{hlen}")));
        return None;
    }
    let mut header = vec![0u8; hlen];
    if reader.read_exact(&mut header).is_err() {
        diags.push(err(start, "truncated .npy header", String::new()));
        return None;
    }
    let h = String::from_utf8_lossy(&header).to_string();
    let value_of = |key: &str| -> Option<String> {
        let k = h.find(&format!("'{key}'"))?;
        let rest = &h[k + key.len() + 2..];
        let rest = rest.trim_start().strip_prefix(':')?.trim_start();
        if let Some(r) = rest.strip_prefix('\'') {
            return Some(r[..r.find('\'')?].to_string());
        }
        if let Some(r) = rest.strip_prefix('(') {
            return Some(r[..r.find(')')?].to_string());
        }
        let end = rest.find([',', '}']).unwrap_or(rest.len());
        Some(rest[..end].trim().to_string())
    };
    let descr = value_of("descr").unwrap_or_default();
    let fortran = value_of("fortran_order").unwrap_or_default() == "True";
    let shape: Vec<Option<usize>> = value_of("shape")
        .unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.trim_end_matches('L').parse().ok())
        .collect();
    let (size, big) = match descr.as_str() {
        "<f8" | "=f8" => (8, false),
        ">f8" => (8, true),
        "<f4" | "=f4" => (4, false),
        ">f4" => (4, true),
        _ => {
            diags.push(err(start, "dtype must be float32 or float64", descr));
            return None;
        }
    };
    let n = match shape.as_slice() {
        [Some(a), Some(b)] if a == b => *a,
        _ => {
            diags.push(
                Diagnostic::error("falsid.matrix.shape", "the array must be 2-D and square")
                    .file(path)
                    .found(format!("shape ({})", value_of("shape").unwrap_or_default()))
                    .hint("Save one N×N matrix per subset.")
                    .with_offset(start),
            );
            return None;
        }
    };
    if n > MAX_N {
        diags.push(
            Diagnostic::error(
                "falsid.matrix.too_large",
                format!("{n}×{n}: more than the {MAX_N} items dropscore holds in memory"),
            )
            .file(path),
        );
        return None;
    }
    let data_start = start + hlen as u64;
    let mut data = Vec::with_capacity((n * n).min((size_hint / size as u64) as usize));
    let mut buf = vec![0u8; 1 << 16];
    let total = n * n * size;
    let mut read = 0usize;
    while read < total {
        let want = (total - read).min(buf.len());
        if let Err(e) = reader.read_exact(&mut buf[..want]) {
            diags.push(err(
                data_start + read as u64,
                "the data ends early",
                format!("{e}"),
            ));
            return None;
        }
        for c in buf[..want].chunks_exact(size) {
            let v = match (size, big) {
                (8, false) => f64::from_le_bytes(c.try_into().unwrap_or([0; 8])),
                (8, true) => f64::from_be_bytes(c.try_into().unwrap_or([0; 8])),
                (_, false) => f32::from_le_bytes(c.try_into().unwrap_or([0; 4])) as f64,
                (_, true) => f32::from_be_bytes(c.try_into().unwrap_or([0; 4])) as f64,
            };
            data.push(v);
        }
        read += want;
    }
    if fortran {
        for i in 0..n {
            for j in i + 1..n {
                data.swap(i * n + j, j * n + i);
            }
        }
    }
    Some(Matrix {
        n,
        ids: None,
        data,
        layout: "D4",
        row_lines: Vec::new(),
        reordered: false,
    })
}

trait WithOffset {
    fn with_offset(self, off: u64) -> Self;
}
impl WithOffset for Diagnostic {
    fn with_offset(mut self, off: u64) -> Self {
        self.offset = Some(off);
        self
    }
}
