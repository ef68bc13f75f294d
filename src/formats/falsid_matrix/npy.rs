//! `.npy` matrices (D4): 2-D square float32/float64, C or Fortran order, any endianness, read with the pieces of
//! [`crate::formats::npy`] and streamed (the file is never held whole); problems located by byte offset.

use super::{Matrix, MAX_N};
use crate::diag::{excerpt, Diagnostic, Diags};
use crate::formats::npy::{self, Dtype, Preamble};
use std::io::Read;

/// A `falsid.matrix.npy` error at byte `off`.
fn err(path: &str, off: u64, msg: &str, found: String) -> Diagnostic {
    Diagnostic::error("falsid.matrix.npy", msg.to_string())
        .file(path)
        .found(found)
        .hint("Save the matrix with numpy.save(path, matrix.astype('float64')).")
        .with_offset(off)
}

/// Reads a `.npy` array (D4): the header (format 1.0–3.0), 2-D `<f8`/`>f8`/`<f4`/`>f4`, C or Fortran order.
/// Problems are located by byte offset.
pub fn read_npy(
    path: &str,
    mut reader: impl Read,
    size_hint: u64,
    diags: &mut Diags,
) -> Option<Matrix> {
    let (header, start) = match read_header(path, &mut reader) {
        Ok(h) => h,
        Err(d) => {
            diags.push(*d);
            return None;
        }
    };
    let h = String::from_utf8_lossy(&header).to_string();
    let descr = npy::header_value(&h, "descr").unwrap_or_default();
    let fortran = npy::header_value(&h, "fortran_order") == Some("True");
    let Some(dtype) = Dtype::of(descr) else {
        diags.push(err(
            path,
            start,
            "dtype must be float32 or float64",
            descr.to_string(),
        ));
        return None;
    };
    let shape = npy::header_value(&h, "shape").unwrap_or_default();
    let n = match npy::dims(shape).as_deref() {
        Ok([a, b]) if a == b => *a,
        _ => {
            diags.push(
                Diagnostic::error("falsid.matrix.shape", "the array must be 2-D and square")
                    .file(path)
                    .found(format!("shape ({shape})"))
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
    let data_start = start + header.len() as u64;
    let mut data = read_data(path, reader, dtype, n, data_start, size_hint, diags)?;
    if fortran {
        npy::to_row_major(&mut data, n, n);
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

/// The header's bytes and the offset they start at, read after the preamble.
fn read_header(path: &str, reader: &mut impl Read) -> Result<(Vec<u8>, u64), Box<Diagnostic>> {
    let mut pre = [0u8; 12];
    if reader.read_exact(&mut pre[..10]).is_err() || &pre[..6] != b"\x93NUMPY" {
        let found = excerpt(&String::from_utf8_lossy(&pre[..10]));
        return Err(Box::new(err(
            path,
            0,
            "not a .npy file (magic \\x93NUMPY missing)",
            found,
        )));
    }
    let mut known = 10;
    if npy::preamble(&pre[..10]) == Preamble::ShortLength {
        if reader.read_exact(&mut pre[10..]).is_err() {
            return Err(Box::new(err(
                path,
                10,
                "truncated .npy header",
                String::new(),
            )));
        }
        known = 12;
    }
    let (hlen, start) = match npy::preamble(&pre[..known]) {
        Preamble::Header { len, at } => (len, at as u64),
        Preamble::Version(v) => {
            let d = err(path, 6, "unsupported .npy format version", format!("{v}"));
            return Err(Box::new(d));
        }
        Preamble::NotNpy | Preamble::ShortLength => {
            return Err(Box::new(err(
                path,
                10,
                "truncated .npy header",
                String::new(),
            )))
        }
    };
    if hlen > 1 << 20 {
        return Err(Box::new(err(
            path,
            8,
            "implausible .npy header length",
            format!("{hlen}"),
        )));
    }
    let mut header = vec![0u8; hlen];
    if reader.read_exact(&mut header).is_err() {
        return Err(Box::new(err(
            path,
            start,
            "truncated .npy header",
            String::new(),
        )));
    }
    Ok((header, start))
}

/// The n × n values after the header, read in blocks.
fn read_data(
    path: &str,
    mut reader: impl Read,
    dtype: Dtype,
    n: usize,
    data_start: u64,
    size_hint: u64,
    diags: &mut Diags,
) -> Option<Vec<f64>> {
    let size = dtype.size;
    let mut data = Vec::with_capacity((n * n).min((size_hint / size as u64) as usize));
    let mut buf = vec![0u8; 1 << 16];
    let total = n * n * size;
    let mut read = 0usize;
    while read < total {
        let want = (total - read).min(buf.len());
        if let Err(e) = reader.read_exact(&mut buf[..want]) {
            diags.push(err(
                path,
                data_start + read as u64,
                "the data ends early",
                format!("{e}"),
            ));
            return None;
        }
        dtype.decode(&buf[..want], &mut data);
        read += want;
    }
    Some(data)
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
