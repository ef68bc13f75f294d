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
