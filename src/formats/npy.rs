//! NumPy `.npy` arrays (format versions 1–3): little- or big-endian float32/float64, C or Fortran order,
//! 1-D or 2-D. Used for FID activations, `.npz` statistics members (`mu.npy`, `sigma.npy`) and CLIP
//! embeddings (specs/aij2022.md 2.3). Problems are located by byte offset.

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
    if b.len() < 10 || &b[..6] != b"\x93NUMPY" {
        return Err(err(file, 0, "not a .npy file (magic \\x93NUMPY missing)"));
    }
    let major = b[6];
    let (hlen, start): (usize, usize) = match major {
        1 => (u16::from_le_bytes([b[8], b[9]]) as usize, 10),
        2 | 3 => {
            if b.len() < 12 {
                return Err(err(file, 8, "truncated header length"));
            }
            (u32::from_le_bytes([b[8], b[9], b[10], b[11]]) as usize, 12)
        }
        v => return Err(err(file, 6, format!("unsupported .npy version {v}"))),
    };
    let end = start
        .checked_add(hlen)
        .filter(|e| *e <= b.len())
        .ok_or_else(|| err(file, start as u64, "header longer than the file"))?;
    let header = String::from_utf8_lossy(&b[start..end]);
    let descr = field(&header, "descr")
        .map(|s| s.trim_matches(|c| c == '\'' || c == '"').to_string())
        .ok_or_else(|| err(file, start as u64, "header has no 'descr'"))?;
    let fortran = field(&header, "fortran_order").is_some_and(|s| s.starts_with("True"));
    let shape_txt = header
        .split("'shape':")
        .nth(1)
        .or_else(|| header.split("\"shape\":").nth(1))
        .and_then(|s| s.split(')').next())
        .ok_or_else(|| err(file, start as u64, "header has no 'shape'"))?;
    let shape_txt = shape_txt.trim().trim_start_matches('(');
    let mut shape = Vec::new();
    for p in shape_txt
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        shape.push(
            p.trim_end_matches('L')
                .parse::<usize>()
                .map_err(|_| err(file, start as u64, format!("bad shape entry `{p}`")))?,
        );
    }
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
    let (size, big) = match descr.as_str() {
        "<f4" | "=f4" | "|f4" => (4, false),
        "<f8" | "=f8" | "|f8" => (8, false),
        ">f4" => (4, true),
        ">f8" => (8, true),
        _ => {
            return Err(err(
                file,
                start as u64,
                format!("unsupported dtype `{descr}` (float32 or float64 expected)"),
            ))
        }
    };
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
    for ch in body[..need].chunks_exact(size) {
        let v = match (size, big) {
            (4, false) => f32::from_le_bytes([ch[0], ch[1], ch[2], ch[3]]) as f64,
            (4, true) => f32::from_be_bytes([ch[0], ch[1], ch[2], ch[3]]) as f64,
            (_, false) => f64::from_le_bytes(ch.try_into().unwrap_or([0; 8])),
            (_, true) => f64::from_be_bytes(ch.try_into().unwrap_or([0; 8])),
        };
        data.push(v);
    }
    if fortran && shape.len() == 2 {
        let (r, c) = (shape[0], shape[1]);
        let mut t = vec![0.0; count];
        for j in 0..c {
            for i in 0..r {
                t[i * c + j] = data[j * r + i];
            }
        }
        data = t;
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

fn field<'a>(header: &'a str, key: &str) -> Option<&'a str> {
    let pat1 = format!("'{key}':");
    let pat2 = format!("\"{key}\":");
    let rest = header
        .split(&pat1)
        .nth(1)
        .or_else(|| header.split(&pat2).nth(1))?;
    Some(rest.trim_start().split(',').next()?.trim())
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
