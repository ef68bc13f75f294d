//! Python's `repr(float)` and `float(str)` / `int(str)` (CPython 3.11: `Objects/floatobject.c`
//! `float_repr` → `PyOS_double_to_string(x, 'r', 0, Py_DTSF_ADD_DOT_0)`; `PyFloat_FromString` →
//! `_PyUnicode_TransformDecimalAndSpaceToASCII` → `_Py_string_to_number_with_underscores` →
//! `float_from_string_inner` → `_Py_dg_strtod`; `Objects/longobject.c`).

use super::text::is_space;
use super::unicode14::DECIMAL_ZEROS;
use std::borrow::Cow;

/// `repr(x)` (and `str(x)`): the shortest digits that read back as `x`, in fixed notation when
/// 1e-4 ≤ |x| < 1e16 (with `.0` on integral values), else `d.ddde±XX` (at least two exponent digits);
/// `nan`, `inf`, `-inf`, `-0.0`: the digits of David Gay's mode 0 (`_Py_dg_dtoa`).
pub fn float_repr(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    if x == 0.0 {
        return if x.is_sign_negative() { "-0.0" } else { "0.0" }.into();
    }
    // The number of shortest round-trip digits, from Rust's shortest form ("6.845425867507886e-1"); then the
    // digits themselves correctly rounded to that many (exact, ties to even). Both give the same digits
    // except on a tie: 1978400870704755.25 is 1978400870704755.2 in Python (Gay's mode 0 rounds half to even)
    // and 1978400870704755.3 in Rust's shortest form.
    let shortest = format!("{:e}", x.abs());
    let n = shortest
        .split_once('e')
        .map_or(1, |(m, _)| m.bytes().filter(u8::is_ascii_digit).count());
    let e = format!("{:.*e}", n.saturating_sub(1), x.abs());
    let (mant, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mant.chars().filter(char::is_ascii_digit).collect();
    let sign = if x < 0.0 { "-" } else { "" };
    let n = digits.len() as i32;
    if (-4..16).contains(&exp) {
        let body = if exp < 0 {
            format!("0.{}{digits}", "0".repeat((-exp - 1) as usize))
        } else if exp + 1 >= n {
            format!("{digits}{}.0", "0".repeat((exp + 1 - n) as usize))
        } else {
            let (a, b) = digits.split_at((exp + 1) as usize);
            format!("{a}.{b}")
        };
        format!("{sign}{body}")
    } else {
        let (a, b) = digits.split_at(1);
        let dot = if b.is_empty() { "" } else { "." };
        let es = if exp < 0 { '-' } else { '+' };
        format!("{sign}{a}{dot}{b}e{es}{:02}", exp.abs())
    }
}

/// `float(s)` as Python reads it, or `None` where Python raises `ValueError`. The text (UTF-8; other bytes
/// are refused) may be surrounded by whitespace; Unicode decimal digits read as ASCII digits; then an
/// optional sign and digits with an optional fraction and exponent (`1`, `.5`, `5.`, `1e-3`, `1.E+5`), or
/// `inf` / `infinity` / `nan` in any case; PEP 515 underscores, each between two digits (`1_000.5`, `1e1_0`).
/// Refused: hexadecimal, a lone `.`, an empty string, inner whitespace, a NUL. The value is correctly
/// rounded (Rust's parser and `_Py_dg_strtod` both round to nearest, so the bits agree); overflow gives an
/// infinity. Infinities and NaN are returned as such (the caller decides whether they are allowed).
pub fn parse_float(s: &[u8]) -> Option<f64> {
    if let Some(x) = clinger(s) {
        return Some(x);
    }
    let ascii = if s.is_ascii() {
        Cow::Borrowed(s)
    } else {
        Cow::Owned(to_ascii(std::str::from_utf8(s).ok()?)?)
    };
    let mut t: &[u8] = &ascii;
    // `_Py_string_to_number_with_underscores`: a NUL ends the text (refused), underscores go between digits;
    // only then is the surrounding ASCII whitespace stripped.
    if t.contains(&0) {
        return None;
    }
    let cleaned;
    if t.contains(&b'_') {
        cleaned = strip_underscores(t)?;
        t = cleaned.as_bytes();
    }
    // Py_ISSPACE: tab, newline, vertical tab, form feed, carriage return and space (not U+001C..U+001F).
    let py_isspace = |b: &u8| matches!(b, b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | b' ');
    while let [b, rest @ ..] = t {
        if !py_isspace(b) {
            break;
        }
        t = rest;
    }
    while let [rest @ .., b] = t {
        if !py_isspace(b) {
            break;
        }
        t = rest;
    }
    // Rust's grammar is Python's for ASCII: [+-] (inf | infinity | nan | digits [. digits] [e [+-] digits] |
    // . digits [exp]), words in any case.
    std::str::from_utf8(t).ok()?.parse::<f64>().ok()
}

/// `_PyUnicode_TransformDecimalAndSpaceToASCII`: ASCII kept, Unicode whitespace becomes a space, a Unicode
/// decimal digit its ASCII digit; any other character makes the text unreadable (`None`).
fn to_ascii(s: &str) -> Option<Vec<u8>> {
    s.chars()
        .map(|c| {
            if c.is_ascii() {
                Some(c as u8)
            } else if is_space(c) {
                Some(b' ')
            } else {
                decimal(c).map(|d| b'0' + d)
            }
        })
        .collect()
}

/// The value of a Unicode decimal digit (category Nd, Unicode 14.0) outside ASCII.
fn decimal(c: char) -> Option<u8> {
    let u = c as u32;
    let i = DECIMAL_ZEROS.partition_point(|&z| z <= u).checked_sub(1)?;
    let d = u - DECIMAL_ZEROS[i];
    (d < 10).then_some(d as u8)
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
    fn repr_like_python() {
        for (x, want) in [
            (0.6845425867507886, "0.6845425867507886"),
            (1.0 / 3.0, "0.3333333333333333"),
            (0.2, "0.2"),
            (1.0, "1.0"),
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (1e-5, "1e-05"),
            (1.5e-5, "1.5e-05"),
            (0.0001, "0.0001"),
            (0.00012345, "0.00012345"),
            (123.5, "123.5"),
            (1e16, "1e+16"),
            (9999999999999998.0, "9999999999999998.0"),
            (0.20000000000000004, "0.20000000000000004"),
            (-1.7763568394002505e-15, "-1.7763568394002505e-15"),
            // Ties: 2228219372025782.25 and -123143566564752.125 exactly.
            (f64::from_bits(0x431F_AA37_009A_DED9), "2228219372025782.2"),
            (f64::from_bits(0xC2DB_FFE6_22A7_6408), "-123143566564752.12"),
            (5e-324, "5e-324"),
            (f64::MAX, "1.7976931348623157e+308"),
            (f64::NEG_INFINITY, "-inf"),
        ] {
            assert_eq!(float_repr(x), want);
        }
        assert_eq!(float_repr(f64::NAN), "nan");
    }

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
            ("١", 1.0),
            (" \t1.5\u{b}\n", 1.5),
            ("\u{a0}-٢_٣\u{3000}", -23.0),
        ];
        for (s, v) in ok {
            assert_eq!(parse_float(s.as_bytes()), Some(*v), "{s}");
        }
        assert!(parse_float(b"nan").unwrap().is_nan());
        assert!(parse_float(b"-NaN").unwrap().is_nan());
        for s in [
            "", ".", "e5", "1e", "0x10", "_1", "1_", "1__0", "1_.5", "1._5", "1,5", "1 5", "nan1",
            "infinit", "1e_5", "--1", "+-1", "1.5.2", "\u{1c}1", "1\0", "1x", "½",
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
