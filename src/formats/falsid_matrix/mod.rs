//! FalsID distance matrices (docs/specs/falsid.md 2.2): D1 labelled square (header of ids, rows `id, d…`), D2
//! sample-name rows (`name, [integer], d…`, no header), D3 bare N×N numbers, D4 `.npy` (float32/float64, any
//! endianness, C or Fortran order). Text is streamed through the `csv` crate (or split on whitespace runs)
//! straight into one `Vec<f64>`: memory is N² floats, never the text. Every problem is located.

mod npy;
#[cfg(test)]
mod tests;
mod text;

pub use npy::read_npy;
pub use text::read_text;

/// Largest accepted N (N² binary64 values must fit a browser tab: 12000² × 8 B = 1.15 GB).
pub const MAX_N: usize = 12_000;

#[derive(Clone, Debug, Default)]
pub struct Matrix {
    pub n: usize,
    /// Ids of rows and columns (D1, D2); `None` for D3 and D4 (GT order).
    pub ids: Option<Vec<String>>,
    /// Row-major N×N; rows are queries. Non-finite values are kept as read (see [`Matrix::stats`]).
    pub data: Vec<f64>,
    /// `D1`, `D2`, `D3` or `D4`.
    pub layout: &'static str,
    /// File line of each row (text layouts), for locating values.
    pub row_lines: Vec<u64>,
    /// D1 rows were given in another order than the columns (and were aligned).
    pub reordered: bool,
}

/// Counts and first positions (0-based row, column) of non-finite and negative values, and symmetry facts.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    pub nonfinite: usize,
    pub first_nonfinite: Option<(usize, usize)>,
    pub negative: usize,
    pub first_negative: Option<(usize, usize)>,
    pub nonzero_diagonal: usize,
    pub asymmetric_pairs: usize,
    pub first_asymmetric: Option<(usize, usize)>,
}

impl Matrix {
    pub fn row(&self, i: usize) -> &[f64] {
        &self.data[i * self.n..(i + 1) * self.n]
    }
    pub fn stats(&self) -> Stats {
        let n = self.n;
        let mut s = Stats::default();
        for i in 0..n {
            let row = self.row(i);
            for (j, &v) in row.iter().enumerate() {
                if !v.is_finite() {
                    s.nonfinite += 1;
                    s.first_nonfinite.get_or_insert((i, j));
                } else if v < 0.0 {
                    s.negative += 1;
                    s.first_negative.get_or_insert((i, j));
                }
                if j > i {
                    let w = self.data[j * n + i];
                    let same = v == w || (v.is_nan() && w.is_nan());
                    if !same {
                        s.asymmetric_pairs += 1;
                        s.first_asymmetric.get_or_insert((i, j));
                    }
                }
            }
            if row[i] != 0.0 {
                s.nonzero_diagonal += 1;
            }
        }
        s
    }
    /// NaN, +inf and −inf become +inf (`nonfinite = as_inf`).
    pub fn nonfinite_as_inf(&mut self) {
        for v in &mut self.data {
            if !v.is_finite() {
                *v = f64::INFINITY;
            }
        }
    }
}

/// A number as Python's `float()` reads it (correctly rounded; `nan`, `inf`, `-inf` in any case).
pub fn parse_number(b: &[u8]) -> Option<f64> {
    let b = b.trim_ascii();
    if let Some(v) = fast_decimal(b) {
        return Some(v);
    }
    if b.is_empty() || b.len() > 400 {
        return None;
    }
    let s = std::str::from_utf8(b).ok()?;
    s.parse::<f64>().ok()
}

const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// Clinger's fast path for the common `[-]digits[.digits]` form: with the digits as an integer m ≤ 2⁵³ and
/// at most 22 fraction digits, m and 10ᵏ are exact binary64 values and one division rounds correctly, so the
/// result is the correctly rounded value (what `str::parse` and Python's `float()` give). `None` otherwise.
fn fast_decimal(b: &[u8]) -> Option<f64> {
    let (neg, d) = match b.first()? {
        b'-' => (true, &b[1..]),
        b'+' => (false, &b[1..]),
        _ => (false, b),
    };
    if d.is_empty() || d.len() > 20 {
        return None;
    }
    let mut m: u64 = 0;
    let mut i = 0;
    while i < d.len() && d[i].is_ascii_digit() {
        m = m.wrapping_mul(10).wrapping_add(u64::from(d[i] - b'0'));
        i += 1;
    }
    let int_digits = i;
    let mut nfrac = 0;
    if i < d.len() {
        if d[i] != b'.' {
            return None;
        }
        i += 1;
        while i < d.len() && d[i].is_ascii_digit() {
            m = m.wrapping_mul(10).wrapping_add(u64::from(d[i] - b'0'));
            i += 1;
            nfrac += 1;
        }
        if i < d.len() || int_digits + nfrac == 0 {
            return None;
        }
    }
    // More than 19 digits may have wrapped: those take the slow path.
    if int_digits + nfrac > 19 || m > 1 << 53 || nfrac > 22 {
        return None;
    }
    let v = m as f64 / POW10[nfrac];
    Some(if neg { -v } else { v })
}

/// The delimiter of a matrix (2.2): TAB, else `,`, else `;` if the first non-blank line has one, else
/// whitespace runs (`None`).
pub fn detect_delimiter(head: &[u8]) -> Option<u8> {
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let line = head
        .split(|b| *b == b'\n' || *b == b'\r')
        .find(|l| !l.trim_ascii().is_empty())
        .unwrap_or(b"");
    [b'\t', b',', b';'].into_iter().find(|d| line.contains(d))
}
