//! Python's `str.isspace()`, `str.split()`, `str.strip()` (no argument) and `str.lower()` (CPython 3.11,
//! `Objects/unicodeobject.c` `split_whitespace`, `do_strip`, `do_lower` / `lower_ucs4` / `handle_capital_sigma`,
//! with the Unicode 14.0 tables of [`super::unicode14`]).

use super::unicode14::{CASED, CASE_IGNORABLE, LOWER};

/// Python `str.isspace()` of one character: Unicode White_Space plus U+001C..U+001F (Python counts the
/// characters of bidirectional class WS, B and S, and category Zs).
pub fn is_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Python `str.split()` (no argument): runs of whitespace, no empty pieces.
pub fn split(s: &str) -> Split<'_> {
    Split { s, pos: 0 }
}

/// The iterator of [`split`]. It reads bytes: only ASCII bytes and the lead bytes C2, E1, E2 and E3 can start
/// a whitespace character, so the text is not decoded character by character.
pub struct Split<'a> {
    s: &'a str,
    pos: usize,
}

/// Bytes that can start a whitespace character: ASCII whitespace and the lead bytes C2, E1, E2 and E3.
const WS_START: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = matches!(i as u8, b'\t'..=b'\r' | 0x1c..=b' ' | 0xc2 | 0xe1..=0xe3);
        i += 1;
    }
    t
};

/// The length in bytes of the whitespace character (as [`is_space`]) starting at byte `i`, if one does.
#[inline]
fn space_len(b: &[u8], i: usize) -> Option<usize> {
    let x = b[i];
    if !WS_START[x as usize] {
        return None;
    }
    match x {
        0..=0x7f => Some(1),
        0xc2 => matches!(b.get(i + 1), Some(0x85 | 0xa0)).then_some(2),
        _ => {
            let c = b.get(i..i + 3)?;
            let u = (u32::from(c[0] & 0x0f) << 12)
                | (u32::from(c[1] & 0x3f) << 6)
                | u32::from(c[2] & 0x3f);
            char::from_u32(u)
                .is_some_and(char::is_whitespace)
                .then_some(3)
        }
    }
}

impl<'a> Iterator for Split<'a> {
    type Item = &'a str;
    fn next(&mut self) -> Option<&'a str> {
        let b = self.s.as_bytes();
        let mut i = self.pos;
        while i < b.len() {
            match space_len(b, i) {
                Some(n) => i += n,
                None => break,
            }
        }
        if i >= b.len() {
            self.pos = i;
            return None;
        }
        let start = i;
        // Continuation bytes (0x80..0xBF) never start whitespace, so stepping one byte at a time stays on
        // character boundaries wherever a piece ends.
        while i < b.len() && !(WS_START[b[i] as usize] && space_len(b, i).is_some()) {
            i += 1;
        }
        self.pos = i;
        self.s.get(start..i)
    }
}

/// Python `str.strip()` (no argument).
pub fn strip(s: &str) -> &str {
    s.trim_matches(is_space)
}

/// Python `str.lower()`: the full lower-case mapping of Unicode 14.0 (U+0130 becomes "i" + U+0307) and the
/// final-sigma rule (Σ is ς after a cased letter, case-ignorable characters between, when no cased letter
/// follows). Text of ASCII and the basic Cyrillic letters (the contests' Russian) is mapped directly.
pub fn lower(s: &str) -> String {
    if s.chars().all(is_simple_case) {
        return s.chars().map(simple_lower).collect();
    }
    let mut out = String::with_capacity(s.len());
    for (i, c) in s.char_indices() {
        match c {
            '\u{3a3}' => out.push(if final_sigma(s, i) {
                '\u{3c2}'
            } else {
                '\u{3c3}'
            }),
            '\u{130}' => out.push_str("i\u{307}"),
            c if is_simple_case(c) => out.push(simple_lower(c)),
            c => out.push(lower_char(c)),
        }
    }
    out
}

/// True for the characters [`lower`] maps directly: ASCII and the basic Cyrillic letters.
pub fn is_simple_case(c: char) -> bool {
    c.is_ascii() || matches!(c, 'А'..='я' | 'Ё' | 'ё')
}

/// [`lower`] of one character for which [`is_simple_case`] holds.
pub fn simple_lower(c: char) -> char {
    match c {
        'А'..='Я' => char::from_u32(c as u32 + 0x20).unwrap_or(c),
        'Ё' => 'ё',
        c => c.to_ascii_lowercase(),
    }
}

/// [`lower`], borrowing the text when it is already lower case (ASCII and basic Cyrillic checked directly).
pub fn lower_cow(s: &str) -> std::borrow::Cow<'_, str> {
    if s.chars()
        .all(|c| (c.is_ascii() && !c.is_ascii_uppercase()) || matches!(c, 'а'..='я' | 'ё'))
    {
        std::borrow::Cow::Borrowed(s)
    } else {
        std::borrow::Cow::Owned(lower(s))
    }
}

/// The one-character lower case of `c` (any character but U+0130 and Σ), from the table's runs.
fn lower_char(c: char) -> char {
    let u = c as u32;
    let Some(i) = LOWER.partition_point(|r| r.0 <= u).checked_sub(1) else {
        return c;
    };
    let (first, last, stride, delta) = LOWER[i];
    if u > last || !(u - first).is_multiple_of(stride) {
        return c;
    }
    char::from_u32(u.wrapping_add_signed(delta)).unwrap_or(c)
}

fn in_ranges(table: &[(u32, u32)], c: char) -> bool {
    let u = c as u32;
    table
        .partition_point(|r| r.0 <= u)
        .checked_sub(1)
        .is_some_and(|i| u <= table[i].1)
}

/// `handle_capital_sigma`: the Σ at byte `i` is final when, case-ignorable characters skipped, a cased
/// character comes before it and none after it.
fn final_sigma(s: &str, i: usize) -> bool {
    let ignorable = |c: &char| in_ranges(&CASE_IGNORABLE, *c);
    let before = s[..i].chars().rev().find(|c| !ignorable(c));
    if !before.is_some_and(|c| in_ranges(&CASED, c)) {
        return false;
    }
    let after = s[i + '\u{3a3}'.len_utf8()..]
        .chars()
        .find(|c| !ignorable(c));
    !after.is_some_and(|c| in_ranges(&CASED, c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_reads_bytes_as_python_splits() {
        // Every whitespace Python's str.split() knows, next to letters whose UTF-8 shares bytes with them.
        let alphabet: Vec<char> = "a Я\t\n\u{b}\u{c}\r\u{1c}\u{1f}\u{85}\u{a0}\u{1680}\u{2000}\u{200a}\u{200b}\u{2028}\u{202f}\u{205f}\u{3000}\u{e1}\u{2019}\u{3001}ё-"
            .chars()
            .collect();
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..20_000 {
            crate::xorshift64(&mut seed);
            let s: String = (0..seed % 10)
                .map(|k| {
                    alphabet[(seed.rotate_left(6 * k as u32) % alphabet.len() as u64) as usize]
                })
                .collect();
            let want: Vec<&str> = s.split(is_space).filter(|t| !t.is_empty()).collect();
            assert_eq!(split(&s).collect::<Vec<_>>(), want, "{s:?}");
        }
    }

    #[test]
    fn lower_cases() {
        assert_eq!(lower("ΟΔΟΣ ΣΑΣ Σ"), "οδος σας σ");
        assert_eq!(lower("İ"), "i\u{307}");
        assert_eq!(lower("ẞ"), "ß");
        assert_eq!(lower("Ёлка ИДЁТ"), "ёлка идёт");
        assert_eq!(lower("ǅ"), "ǆ");
        assert_eq!(lower("A'Σ"), "a'ς");
        // Unicode 16 letters (Garay, Cyrillic TJE) that CPython 3.11 does not know keep their case.
        assert_eq!(lower("\u{10d50}\u{1c89}"), "\u{10d50}\u{1c89}");
    }

    #[test]
    fn fast_paths_equal_the_tables() {
        for u in 0x80..0x800u32 {
            if let Some(c) = char::from_u32(u) {
                if u != 0x130 && u != 0x3a3 {
                    let want: String = ['a', lower_char(c), 'я'].iter().collect();
                    assert_eq!(lower(&format!("a{c}Я")), want, "{c:?}");
                }
                if is_simple_case(c) {
                    assert_eq!(simple_lower(c), lower_char(c), "{c:?}");
                }
            }
        }
    }
}
