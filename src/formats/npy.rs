//! NumPy `.npy` arrays (format versions 1–3, as `numpy.lib.format` writes them): the preamble (magic, version,
//! header length), the header's `descr`, `fortran_order` and `shape`, and float32/float64 data of either
//! endianness, C or Fortran order. The one reader of the format: [`parse`] reads the 1-D or 2-D arrays of
//! aij2022 (FID activations, `.npz` statistics members `mu.npy`, `sigma.npy`, CLIP embeddings; docs/specs/aij2022.md
//! 2.3), and the FalsID matrix reader (`falsid_matrix::read_npy`) streams square matrices through the same
//! pieces. Problems are located by byte offset.

use crate::diag::Diagnostic;

/// A float array as binary64, row-major.
#[derive(Clone, Debug, PartialEq)]
pub struct Array {
    pub shape: Vec<usize>,
    pub data: Vec<f64>,
    /// `<f4`, `<f8`, …
    pub descr: String,
}

impl Array {
    pub fn rows(&self) -> usize {
        self.shape.first().copied().unwrap_or(1)
    }
    pub fn cols(&self) -> usize {
        match self.shape.len() {
            0 => 1,
            1 => self.shape[0],
            _ => self.shape[1],
        }
    }
}

fn err(file: &str, offset: u64, msg: impl Into<String>) -> Box<Diagnostic> {
    let mut d = Diagnostic::error("aij.npy.invalid", msg)
        .file(file)
        .hint("Save the array with numpy.save (float32 or float64), or the statistics with pytorch-fid --save-stats.");
    d.offset = Some(offset);
    Box::new(d)
}

/// What the first bytes of a file say: the magic `\x93NUMPY`, the version, the header's length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preamble {
    /// The header is `len` bytes from byte `at` (10 in version 1, 12 in versions 2 and 3).
    Header { len: usize, at: usize },
    /// Fewer than 10 bytes, or no magic.
    NotNpy,
    /// Versions 2 and 3 hold the length in bytes 8–11: fewer than 12 bytes given.
    ShortLength,
    /// A version other than 1, 2 and 3.
    Version(u8),
}

/// The [`Preamble`] of the bytes `b` a file starts with (10 are enough for version 1, 12 for versions 2 and 3).
pub fn preamble(b: &[u8]) -> Preamble {
    if b.len() < 10 || &b[..6] != b"\x93NUMPY" {
        return Preamble::NotNpy;
    }
    match b[6] {
        1 => Preamble::Header {
            len: u16::from_le_bytes([b[8], b[9]]) as usize,
            at: 10,
        },
        2 | 3 if b.len() < 12 => Preamble::ShortLength,
        2 | 3 => Preamble::Header {
            len: u32::from_le_bytes([b[8], b[9], b[10], b[11]]) as usize,
            at: 12,
        },
        v => Preamble::Version(v),
    }
}

/// The text of `key`'s value in a header (a Python dict literal: `{'descr': '<f8', 'fortran_order': False,
/// 'shape': (3, 4), }`): inside the quotes of a string, inside the parentheses of a tuple, else up to the next
/// `,` or `}`, trimmed. Keys in single or double quotes.
pub fn header_value<'a>(header: &'a str, key: &str) -> Option<&'a str> {
    let after = [format!("'{key}'"), format!("\"{key}\"")]
        .iter()
        .find_map(|k| header.find(k.as_str()).map(|i| &header[i + k.len()..]))?;
    let rest = after.trim_start().strip_prefix(':')?.trim_start();
    if let Some(q) = rest.chars().next().filter(|&c| c == '\'' || c == '"') {
        let r = &rest[1..];
        return Some(&r[..r.find(q)?]);
    }
    if let Some(r) = rest.strip_prefix('(') {
        return Some(&r[..r.find(')')?]);
    }
    let end = rest.find([',', '}']).unwrap_or(rest.len());
    Some(rest[..end].trim())
}

/// The sizes of a `shape` value ([`header_value`]: `3, 4`, `3,`, ``); `Err` with the first entry that is not a
/// size (Python 2's `3L` is read as 3).
pub fn dims(shape: &str) -> Result<Vec<usize>, &str> {
    shape
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| p.trim_end_matches('L').parse::<usize>().map_err(|_| p))
        .collect()
}

/// A float dtype: its size in bytes (4 or 8) and byte order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dtype {
    pub size: usize,
    pub big_endian: bool,
}

impl Dtype {
    /// The dtype of a `descr` (`<f8`, `>f4`, `=f8`, `|f4`, …), `None` unless float32 or float64.
    pub fn of(descr: &str) -> Option<Dtype> {
        let (size, big_endian) = match descr {
            "<f4" | "=f4" | "|f4" => (4, false),
            "<f8" | "=f8" | "|f8" => (8, false),
            ">f4" => (4, true),
            ">f8" => (8, true),
            _ => return None,
        };
        Some(Dtype { size, big_endian })
    }

    /// Appends the values of `bytes` (whole values; a trailing part is ignored) to `out`, as binary64.
    pub fn decode(self, bytes: &[u8], out: &mut Vec<f64>) {
        for c in bytes.chunks_exact(self.size) {
            out.push(match (self.size, self.big_endian) {
                (4, false) => f32::from_le_bytes([c[0], c[1], c[2], c[3]]) as f64,
                (4, true) => f32::from_be_bytes([c[0], c[1], c[2], c[3]]) as f64,
                (_, false) => f64::from_le_bytes(c.try_into().unwrap_or([0; 8])),
                (_, true) => f64::from_be_bytes(c.try_into().unwrap_or([0; 8])),
            });
        }
    }
}

/// The `rows × cols` values of a Fortran-order (column-major) array in row-major order; a square matrix is
/// transposed in place (no second copy of a large matrix).
pub fn to_row_major(data: &mut Vec<f64>, rows: usize, cols: usize) {
    if rows == cols {
        for i in 0..rows {
            for j in i + 1..rows {
                data.swap(i * rows + j, j * rows + i);
            }
        }
        return;
    }
    let mut t = vec![0.0; data.len()];
    for j in 0..cols {
        for i in 0..rows {
            t[i * cols + j] = data[j * rows + i];
        }
    }
    *data = t;
}

/// The shape an `.npy` header declares, from the first bytes of the file (the header only: nothing is
/// allocated for the data), or `None` when the header is not readable there.
pub fn peek_shape(head: &[u8]) -> Option<Vec<usize>> {
    header("", head).ok().map(|h| h.shape)
}

struct Header {
    shape: Vec<usize>,
    descr: String,
    fortran: bool,
    start: usize,
    end: usize,
}

fn header(file: &str, b: &[u8]) -> Result<Header, Box<Diagnostic>> {
    let (hlen, start) = match preamble(b) {
        Preamble::Header { len, at } => (len, at),
        Preamble::NotNpy => return Err(err(file, 0, "not a .npy file (magic \\x93NUMPY missing)")),
        Preamble::ShortLength => return Err(err(file, 8, "truncated header length")),
        Preamble::Version(v) => return Err(err(file, 6, format!("unsupported .npy version {v}"))),
    };
    let end = start
        .checked_add(hlen)
        .filter(|e| *e <= b.len())
        .ok_or_else(|| err(file, start as u64, "header longer than the file"))?;
    let header = String::from_utf8_lossy(&b[start..end]);
    let descr = header_value(&header, "descr")
        .ok_or_else(|| err(file, start as u64, "header has no 'descr'"))?
        .to_string();
    let fortran = header_value(&header, "fortran_order") == Some("True");
    let shape = header_value(&header, "shape")
        .ok_or_else(|| err(file, start as u64, "header has no 'shape'"))?;
    let shape =
        dims(shape).map_err(|p| err(file, start as u64, format!("bad shape entry `{p}`")))?;
    if shape.len() > 2 {
        return Err(err(
            file,
            start as u64,
            format!("expected a 1-D or 2-D array, found shape {shape:?}"),
        ));
    }
    Ok(Header {
        shape,
        descr,
        fortran,
        start,
        end,
    })
}

/// Parses a whole `.npy` file.
pub fn parse(file: &str, b: &[u8]) -> Result<Array, Box<Diagnostic>> {
    let Header {
        shape,
        descr,
        fortran,
        start,
        end,
    } = header(file, b)?;
    let Some(dtype) = Dtype::of(&descr) else {
        return Err(err(
            file,
            start as u64,
            format!("unsupported dtype `{descr}` (float32 or float64 expected)"),
        ));
    };
    let size = dtype.size;
    let count = shape
        .iter()
        .try_fold(1usize, |a, &s| a.checked_mul(s))
        .ok_or_else(|| err(file, start as u64, "shape too large"))?;
    let need = count
        .checked_mul(size)
        .ok_or_else(|| err(file, start as u64, "shape too large"))?;
    let body = &b[end..];
    if body.len() < need {
        return Err(err(
            file,
            end as u64 + body.len() as u64,
            format!(
                "data truncated: shape {shape:?} needs {need} bytes, found {}",
                body.len()
            ),
        ));
    }
    let mut data = Vec::with_capacity(count);
    dtype.decode(&body[..need], &mut data);
    if fortran && shape.len() == 2 {
        to_row_major(&mut data, shape[0], shape[1]);
    }
    if let Some(i) = data.iter().position(|v| !v.is_finite()) {
        return Err(Box::new(Diagnostic {
            offset: Some((end + i * size) as u64),
            ..Diagnostic::error("aij.npy.non_finite", format!("element {i} is not finite"))
                .file(file)
                .hint("Activations and statistics must be finite numbers.")
                .official("NaN propagates into the FID (the official scorer prints nan)")
        }));
    }
    Ok(Array { shape, data, descr })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn npy(descr: &str, shape: &str, data: &[u8]) -> Vec<u8> {
        let mut h = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
        while (10 + h.len() + 1) % 64 != 0 {
            h.push(' ');
        }
        h.push('\n');
        let mut v = b"\x93NUMPY\x01\x00".to_vec();
        v.extend((h.len() as u16).to_le_bytes());
        v.extend(h.as_bytes());
        v.extend(data);
        v
    }

    #[test]
    fn reads_f4_and_f8() {
        let a = parse("a", &npy("<f4", "(2,)", &[0, 0, 128, 63, 0, 0, 0, 64])).unwrap();
        assert_eq!(a.data, vec![1.0, 2.0]);
        let b = parse("a", &npy("<f8", "(1, 1)", &1.5f64.to_le_bytes())).unwrap();
        assert_eq!((b.rows(), b.cols(), b.data[0]), (1, 1, 1.5));
        assert!(parse("a", &npy("<i4", "(1,)", &[0; 4])).is_err());
        assert!(parse("a", &npy("<f8", "(3,)", &[0; 8])).is_err());
    }
}
