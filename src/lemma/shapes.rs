//! Character classes and word shapes of pymorphy3's shape analyzers (`pymorphy3/shapes.py`,
//! `units/by_shape.py`), with Python's Unicode tables carried in the asset.

/// Sorted, disjoint code point ranges.
#[derive(Debug, Default)]
pub struct Class(Vec<(u32, u32)>);

impl Class {
    pub fn contains(&self, c: char) -> bool {
        let c = c as u32;
        match self.0.binary_search_by(|&(lo, _)| lo.cmp(&c)) {
            Ok(_) => true,
            Err(0) => false,
            Err(i) => self.0.get(i - 1).is_some_and(|&(_, hi)| c <= hi),
        }
    }
}

/// Python's `unicodedata` classes used by the analyzers.
#[derive(Debug, Default)]
pub struct Unicode {
    /// general category P*
    pub punct: Class,
    /// `str.isalpha`
    pub alpha: Class,
    /// alphabetic and "LATIN" in the character's name
    pub latin: Class,
    /// `str.isspace`
    pub space: Class,
    /// `str.isdecimal`
    pub decimal: Class,
}

impl Unicode {
    pub fn parse(lines: &[String]) -> Result<Self, String> {
        let mut u = Unicode::default();
        for line in lines {
            let mut f = line.split(' ');
            let (Some(c), Some(lo), Some(hi)) = (f.next(), f.next(), f.next()) else {
                continue;
            };
            let class = match c {
                "P" => &mut u.punct,
                "A" => &mut u.alpha,
                "L" => &mut u.latin,
                "S" => &mut u.space,
                "D" => &mut u.decimal,
                _ => continue,
            };
            let lo = u32::from_str_radix(lo, 16).map_err(|_| "asset: bad Unicode range")?;
            let hi = u32::from_str_radix(hi, 16).map_err(|_| "asset: bad Unicode range")?;
            class.0.push((lo, hi));
        }
        for c in [
            &mut u.punct,
            &mut u.alpha,
            &mut u.latin,
            &mut u.space,
            &mut u.decimal,
        ] {
            c.0.sort_unstable();
        }
        Ok(u)
    }

    /// `is_punctuation`: non-empty, not only spaces, every non-space character in category P.
    pub fn is_punctuation(&self, w: &str) -> bool {
        !w.is_empty()
            && !w.chars().all(|c| self.space.contains(c))
            && w.chars()
                .all(|c| self.space.contains(c) || self.punct.contains(c))
    }

    /// `is_latin`: at least one letter, and every letter Latin.
    pub fn is_latin(&self, w: &str) -> bool {
        let mut any = false;
        for c in w.chars() {
            if self.alpha.contains(c) {
                if !self.latin.contains(c) {
                    return false;
                }
                any = true;
            }
        }
        any
    }

    fn strip<'a>(&self, w: &'a str) -> &'a str {
        w.trim_matches(|c| self.space.contains(c))
    }

    /// Digits with single underscores between them (Python's integer literal body).
    fn digits(&self, s: &str) -> bool {
        let mut prev_digit = false;
        let mut any = false;
        for c in s.chars() {
            if self.decimal.contains(c) {
                prev_digit = true;
                any = true;
            } else if c == '_' && prev_digit {
                prev_digit = false;
            } else {
                return false;
            }
        }
        any && prev_digit
    }

    /// Python `int(w)` succeeds.
    pub fn is_int(&self, w: &str) -> bool {
        let s = self.strip(w);
        let s = s.strip_prefix(['+', '-']).unwrap_or(s);
        self.digits(s)
    }

    /// Python `float(w)` succeeds.
    pub fn is_float(&self, w: &str) -> bool {
        let s = self.strip(w);
        let s = s.strip_prefix(['+', '-']).unwrap_or(s);
        let lower = s.to_ascii_lowercase();
        if matches!(lower.as_str(), "inf" | "infinity" | "nan") {
            return true;
        }
        let (mant, exp) = match s.find(['e', 'E']) {
            Some(i) => (&s[..i], Some(&s[i + 1..])),
            None => (s, None),
        };
        if let Some(e) = exp {
            let e = e.strip_prefix(['+', '-']).unwrap_or(e);
            if !self.digits(e) {
                return false;
            }
        }
        match mant.split_once('.') {
            Some((a, b)) => {
                (a.is_empty() || self.digits(a))
                    && (b.is_empty() || self.digits(b))
                    && !(a.is_empty() && b.is_empty())
            }
            None => self.digits(mant),
        }
    }
}

/// `is_roman_number`: the "Dive into Python" regex, case-insensitive, whole token, non-empty.
pub fn is_roman(w: &str) -> bool {
    if w.is_empty() || !w.is_ascii() {
        return false;
    }
    let u = w.to_ascii_uppercase();
    let mut s = u.as_str();
    let take = |s: &mut &str, options: &[&str]| {
        for o in options {
            if let Some(r) = s.strip_prefix(o) {
                *s = r;
                return;
            }
        }
    };
    let mut m = 0;
    while m < 4 && s.starts_with('M') {
        s = &s[1..];
        m += 1;
    }
    take(
        &mut s,
        &["CM", "CD", "DCCC", "DCC", "DC", "D", "CCC", "CC", "C"],
    );
    take(
        &mut s,
        &["XC", "XL", "LXXX", "LXX", "LX", "L", "XXX", "XX", "X"],
    );
    take(
        &mut s,
        &["IX", "IV", "VIII", "VII", "VI", "V", "III", "II", "I"],
    );
    s.is_empty() || s == "\n"
}
