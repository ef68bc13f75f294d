//! Numbers as Python's `float(str)` and `int(str)` read them (CPython 3.11 `Objects/floatobject.c`
//! `PyFloat_FromString` → `_Py_string_to_number_with_underscores` → `_Py_dg_strtod`; `Objects/longobject.c`),
//! for fields that are already split on whitespace:
//!
//! - an optional sign, then digits with an optional fraction and exponent (`1`, `.5`, `5.`, `1e-3`, `1.E+5`),
//!   or `inf` / `infinity` / `nan` in any case; the value is correctly rounded (Rust's parser and
//!   `_Py_dg_strtod` both round to nearest, so the bits agree);
//! - PEP 515 underscores, each between two digits (`1_000.5`, `1e1_0`); `_1`, `1_`, `1__0`, `1_.5` are refused;
//! - refused: hexadecimal, `0x…`, a lone `.`, an empty string, embedded whitespace.
//!
//! Not reproduced: non-ASCII Unicode decimal digits (`float('１')` is 1.0 in Python); they are refused here.

/// `float(s)` as Python reads it, or `None` where Python raises `ValueError`. Infinities and NaN are returned
/// as such (the caller decides whether they are allowed).
pub fn parse_float(s: &[u8]) -> Option<f64> {
    if let Some(x) = clinger(s) {
        return Some(x);
    }
    if s.is_empty() || !s.is_ascii() {
        return None;
    }
    // Rust accepts exactly Python's grammar without underscores, plus nothing else that Python refuses:
    // both take `inf`, `infinity`, `nan` case-insensitively with a sign, `.5`, `5.`, exponents with a sign.
    let text = std::str::from_utf8(s).ok()?;
    if !text.contains('_') {
        return fast(text);
    }
    let cleaned = strip_underscores(s)?;
    fast(&cleaned)
}

const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// The common case `[-+]digits[.digits]` with at most 15 significant digits, no exponent: the digits form an
/// integer m < 2⁵³ (exact in binary64) and the value is m / 10^k with 10^k exact (k ≤ 22), so one IEEE division
/// rounds it correctly (Clinger's fast path, which Rust's and Python's parsers also take). Anything else: `None`.
fn clinger(s: &[u8]) -> Option<f64> {
    let (neg, body) = match s.first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    let mut m: u64 = 0;
    let mut digits = 0u32;
    let mut frac: Option<u32> = None;
    for &b in body {
        match b {
            b'0'..=b'9' => {
                m = m * 10 + (b - b'0') as u64;
                if m > 0 {
                    digits += 1;
                }
                if digits > 15 {
                    return None;
                }
                if let Some(f) = frac.as_mut() {
                    *f += 1;
                }
            }
            b'.' if frac.is_none() => frac = Some(0),
            _ => return None,
        }
    }
    let k = frac.unwrap_or(0);
    // At least one digit on either side of the point ("." alone is not a number).
    let total = body.len() as u32 - u32::from(frac.is_some());
    if total == 0 || k as usize >= POW10.len() {
        return None;
    }
    let v = m as f64 / POW10[k as usize];
    Some(if neg { -v } else { v })
}

fn fast(text: &str) -> Option<f64> {
    // Rust's grammar: [+-] (inf | infinity | nan | digits [. digits] [e [+-] digits] | . digits [exp]),
    // case-insensitive words. Python's is the same for ASCII input.
    text.parse::<f64>().ok()
}

/// Removes underscores that sit between two ASCII digits; `None` if any underscore does not.
fn strip_underscores(s: &[u8]) -> Option<String> {
    let mut out = String::with_capacity(s.len());
    for (i, &b) in s.iter().enumerate() {
        if b == b'_' {
            let before = i.checked_sub(1).and_then(|j| s.get(j));
            let after = s.get(i + 1);
            match (before, after) {
                (Some(a), Some(c)) if a.is_ascii_digit() && c.is_ascii_digit() => continue,
                _ => return None,
            }
        }
        out.push(b as char);
    }
    Some(out)
}

/// `int(s)` as Python reads it (base 10, ASCII): optional sign, digits with PEP 515 underscores. Values beyond
/// `i64` saturate (only the comparison with small labels matters to the callers).
pub fn parse_int(s: &[u8]) -> Option<i64> {
    let (neg, digits) = match s.first()? {
        b'+' => (false, &s[1..]),
        b'-' => (true, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty()
        || !digits[0].is_ascii_digit()
        || !digits[digits.len() - 1].is_ascii_digit()
    {
        return None;
    }
    let mut v: i64 = 0;
    let mut prev_us = false;
    for &b in digits {
        if b == b'_' {
            if prev_us {
                return None;
            }
            prev_us = true;
            continue;
        }
        prev_us = false;
        if !b.is_ascii_digit() {
            return None;
        }
        v = v.saturating_mul(10).saturating_add((b - b'0') as i64);
    }
    Some(if neg { -v } else { v })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_like_python() {
        let ok: &[(&str, f64)] = &[
            ("0.056313", 0.056313),
            ("1", 1.0),
            (".5", 0.5),
            ("5.", 5.0),
            ("-1e-3", -0.001),
            ("+1.E+5", 1e5),
            ("1_000.5", 1000.5),
            ("1e1_0", 1e10),
            ("0_0.0_1", 0.01),
            ("1e400", f64::INFINITY),
            ("-Infinity", f64::NEG_INFINITY),
            ("iNf", f64::INFINITY),
        ];
        for (s, v) in ok {
            assert_eq!(parse_float(s.as_bytes()), Some(*v), "{s}");
        }
        assert!(parse_float(b"nan").unwrap().is_nan());
        assert!(parse_float(b"-NaN").unwrap().is_nan());
        for s in [
            "", ".", "e5", "1e", "0x10", "_1", "1_", "1__0", "1_.5", "1._5", "1,5", "1 5", "nan1",
            "infinit", "١", "1e_5", "--1", "+-1", "1.5.2",
        ] {
            assert_eq!(parse_float(s.as_bytes()), None, "{s}");
        }
    }

    #[test]
    fn fast_path_equals_the_full_parser() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for i in 0..200_000u64 {
            crate::xorshift64(&mut x);
            let digits = (x % 16) as usize;
            let point = (x >> 8) as usize % (digits + 2);
            let mut t = String::new();
            if i % 3 == 0 {
                t.push('-');
            }
            let mut y = x >> 12;
            for d in 0..digits {
                if d == point {
                    t.push('.');
                }
                t.push((b'0' + (y % 10) as u8) as char);
                y /= 10;
            }
            if point >= digits && i % 2 == 0 {
                t.push('.');
            }
            let want = t.parse::<f64>().ok();
            let got = clinger(t.as_bytes());
            if let Some(g) = got {
                assert_eq!(Some(g.to_bits()), want.map(f64::to_bits), "{t}");
            }
            assert_eq!(
                parse_float(t.as_bytes()).map(f64::to_bits),
                want.map(f64::to_bits),
                "{t}"
            );
        }
        for t in [
            "0.056313",
            "-0.0",
            "+.5",
            "5.",
            "000000000000000000001.5",
            "0.1234567890123456789",
            ".",
        ] {
            assert_eq!(
                parse_float(t.as_bytes()).map(f64::to_bits),
                t.parse::<f64>().ok().map(f64::to_bits),
                "{t}"
            );
        }
    }

    #[test]
    fn ints_like_python() {
        assert_eq!(parse_int(b"1"), Some(1));
        assert_eq!(parse_int(b"-1"), Some(-1));
        assert_eq!(parse_int(b"+01"), Some(1));
        assert_eq!(parse_int(b"1_0"), Some(10));
        for s in ["", "1.0", "_1", "1_", "1__0", "a", "+", "0x1"] {
            assert_eq!(parse_int(s.as_bytes()), None, "{s}");
        }
    }
}
