//! C text-to-number and field splitting as trec_eval's C reads them: `isspace`, whitespace fields, glibc
//! `atol` and `atof` (decimal and hexadecimal floats, `inf`, `nan`).

/// C `isspace` in the C locale: space, \t, \n, \v, \f, \r.
fn is_c_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// Up to `N` whitespace-separated fields as byte ranges, and the total number of fields.
pub(super) fn fields<const N: usize>(line: &[u8]) -> ([(usize, usize); N], usize) {
    let mut out = [(0usize, 0usize); N];
    let mut n = 0;
    let mut i = 0;
    while i < line.len() {
        while i < line.len() && is_c_space(line[i]) {
            i += 1;
        }
        if i >= line.len() {
            break;
        }
        let start = i;
        while i < line.len() && !is_c_space(line[i]) {
            i += 1;
        }
        if let Some(slot) = out.get_mut(n) {
            *slot = (start, i);
        }
        n += 1;
    }
    (out, n)
}

/// C `atol` (glibc `strtol(s, NULL, 10)`): leading whitespace, an optional sign, then decimal digits up to
/// the first non-digit; no digits gives 0; out-of-range values saturate to the `long` limits.
pub fn atol(s: &[u8]) -> i64 {
    let mut i = 0;
    while i < s.len() && is_c_space(s[i]) {
        i += 1;
    }
    let neg = match s.get(i) {
        Some(b'-') => {
            i += 1;
            true
        }
        Some(b'+') => {
            i += 1;
            false
        }
        _ => false,
    };
    let mut v: i64 = 0;
    while let Some(d) = s.get(i).filter(|c| c.is_ascii_digit()) {
        let d = (d - b'0') as i64;
        v = if neg {
            v.saturating_mul(10).saturating_sub(d)
        } else {
            v.saturating_mul(10).saturating_add(d)
        };
        i += 1;
    }
    v
}

/// C `atof` (glibc `strtod(s, NULL)`, C locale): the longest prefix that is a decimal float
/// (`[+-]digits[.digits][e[+-]digits]`), `inf`/`infinity`/`nan[(…)]` (any case) or a hexadecimal float
/// (`0x…[p…]`); 0 if there is none. Decimal values are correctly rounded, as glibc's are.
pub fn atof(s: &[u8]) -> f64 {
    let mut i = 0;
    while i < s.len() && is_c_space(s[i]) {
        i += 1;
    }
    let start = i;
    let neg = matches!(s.get(i), Some(b'-'));
    if matches!(s.get(i), Some(b'-' | b'+')) {
        i += 1;
    }
    let sign = if neg { -1.0 } else { 1.0 };
    let rest = s.get(i..).unwrap_or(&[]);
    let lower: Vec<u8> = rest
        .iter()
        .take(8)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    if lower.starts_with(b"inf") {
        return sign * f64::INFINITY;
    }
    if lower.starts_with(b"nan") {
        return f64::NAN;
    }
    if lower.starts_with(b"0x")
        && rest
            .get(2)
            .is_some_and(|c| c.is_ascii_hexdigit() || *c == b'.')
    {
        if let Some(v) = hex_float(&rest[2..]) {
            return sign * v;
        }
    }
    // Decimal: digits, optional fraction, optional exponent.
    let mut j = i;
    let mut digits = 0;
    while s.get(j).is_some_and(|c| c.is_ascii_digit()) {
        j += 1;
        digits += 1;
    }
    if s.get(j) == Some(&b'.') {
        j += 1;
        while s.get(j).is_some_and(|c| c.is_ascii_digit()) {
            j += 1;
            digits += 1;
        }
    }
    if digits == 0 {
        return 0.0;
    }
    if matches!(s.get(j), Some(b'e' | b'E')) {
        let mut k = j + 1;
        if matches!(s.get(k), Some(b'+' | b'-')) {
            k += 1;
        }
        if s.get(k).is_some_and(|c| c.is_ascii_digit()) {
            while s.get(k).is_some_and(|c| c.is_ascii_digit()) {
                k += 1;
            }
            j = k;
        }
    }
    let text = String::from_utf8_lossy(s.get(start..j).unwrap_or(&[])).into_owned();
    let text = text
        .strip_suffix('.')
        .unwrap_or(&text)
        .replace(".e", "e")
        .replace(".E", "E");
    text.parse::<f64>().unwrap_or(0.0)
}

/// The value of hexadecimal float digits after `0x` (`h.hhhp±d`), or `None` if there is no digit.
fn hex_float(s: &[u8]) -> Option<f64> {
    let mut mant: u64 = 0;
    let mut exp: i64 = 0;
    let mut any = false;
    let mut sticky = false;
    let mut i = 0;
    let mut frac = false;
    while let Some(c) = s.get(i) {
        if *c == b'.' && !frac {
            frac = true;
            i += 1;
            continue;
        }
        let Some(d) = (*c as char).to_digit(16) else {
            break;
        };
        any = true;
        if mant >> 59 == 0 {
            mant = mant * 16 + d as u64;
            if frac {
                exp -= 4;
            }
        } else {
            sticky |= d != 0;
            if !frac {
                exp += 4;
            }
        }
        i += 1;
    }
    if !any {
        return None;
    }
    if matches!(s.get(i), Some(b'p' | b'P')) {
        let mut k = i + 1;
        let neg = matches!(s.get(k), Some(b'-'));
        if matches!(s.get(k), Some(b'+' | b'-')) {
            k += 1;
        }
        if s.get(k).is_some_and(|c| c.is_ascii_digit()) {
            let mut e: i64 = 0;
            while let Some(c) = s.get(k).filter(|c| c.is_ascii_digit()) {
                e = (e * 10 + (c - b'0') as i64).min(100_000);
                k += 1;
            }
            exp += if neg { -e } else { e };
        }
    }
    let m = (mant | sticky as u64) as f64;
    Some(m * 2f64.powi(exp.clamp(-2000, 2000) as i32))
}
