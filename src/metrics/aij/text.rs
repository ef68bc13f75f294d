//! Text normalisation and the TextQA / MathQA / TRitW per-answer scores of the AI Journey 2022 contest
//! (specs/aij2022.md 3.0–3.3; ai-forever/fbc2_aij2022 `evaluation/textqa/metric/calculate_f1.py`,
//! `mathqa/metric/calculate_exact_score.py`, `text_recognition/metric/calculate_NED.py`).

use std::collections::HashMap;
use unicode_general_category::{get_general_category, GeneralCategory as G};

/// Python's `string.punctuation`: the 32 ASCII punctuation characters.
pub const ASCII_PUNCT: &str = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

/// The contest's `manualMap_ru`: a lemma that is a number word becomes its digits.
pub fn number_word(lemma: &str) -> Option<&'static str> {
    Some(match lemma {
        "ноль" | "нисколько" | "никакой" => "0",
        "один" => "1",
        "два" => "2",
        "три" => "3",
        "четыре" => "4",
        "пять" => "5",
        "шесть" => "6",
        "семь" => "7",
        "восемь" => "8",
        "девять" => "9",
        "десять" => "10",
        _ => return None,
    })
}

/// Python `str.isspace()`: Unicode White_Space plus U+001C..U+001F (the separators Python counts).
pub fn py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Python `str.split()` (no argument): runs of whitespace, no empty pieces.
pub fn py_split(s: &str) -> PySplit<'_> {
    PySplit { s, pos: 0 }
}

/// [`py_split`] of `s`; `spaced` says `s` is words joined by single ASCII spaces (no other whitespace, none at the
/// ends, as the captioning one-pass path writes them), and then a split on `' '` gives the same words faster.
pub fn words(s: &str, spaced: bool) -> Words<'_> {
    match spaced && !s.is_empty() {
        true => Words::Spaced(Some(s)),
        false => Words::Py(py_split(s)),
    }
}

/// The iterator of [`words`]. `Spaced` holds the text not yet split (a byte loop: words are a few bytes long,
/// shorter than `str::split`'s memchr needs to pay off).
pub enum Words<'a> {
    Spaced(Option<&'a str>),
    Py(PySplit<'a>),
}

impl<'a> Iterator for Words<'a> {
    type Item = &'a str;
    #[inline]
    fn next(&mut self) -> Option<&'a str> {
        match self {
            Words::Spaced(rest) => {
                let r = (*rest)?;
                match r.bytes().position(|b| b == b' ') {
                    // Both sides of an ASCII space are character boundaries.
                    Some(i) => {
                        *rest = r.get(i + 1..);
                        r.get(..i)
                    }
                    None => rest.take(),
                }
            }
            Words::Py(w) => w.next(),
        }
    }
}

/// The iterator of [`py_split`]. It reads bytes: only ASCII bytes and the lead bytes C2, E1, E2 and E3 can start
/// a whitespace character, so the text is not decoded character by character.
pub struct PySplit<'a> {
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

/// The length in bytes of the whitespace character (as [`py_space`]) starting at byte `i`, if one does.
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

impl<'a> Iterator for PySplit<'a> {
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
pub fn py_strip(s: &str) -> &str {
    s.trim_matches(py_space)
}

/// Python `str.lower()`: the full Unicode lower-case mapping (final sigma included), as Rust's `to_lowercase`.
/// Text of ASCII and the basic Cyrillic letters (the contest's Russian) is mapped directly, without the
/// general Unicode table search; the result is the same.
pub fn py_lower(s: &str) -> String {
    if !s.chars().all(is_simple_case) {
        return s.to_lowercase();
    }
    s.chars().map(simple_lower).collect()
}

/// True for the characters [`py_lower`] maps directly: ASCII and the basic Cyrillic letters.
pub fn is_simple_case(c: char) -> bool {
    c.is_ascii() || matches!(c, 'А'..='я' | 'Ё' | 'ё')
}

/// [`py_lower`] of one character for which [`is_simple_case`] holds.
pub fn simple_lower(c: char) -> char {
    match c {
        'А'..='Я' => char::from_u32(c as u32 + 0x20).unwrap_or(c),
        'Ё' => 'ё',
        c => c.to_ascii_lowercase(),
    }
}

/// [`py_lower`], borrowing the text when it is already lower case (ASCII and basic Cyrillic checked directly).
pub fn py_lower_cow(s: &str) -> std::borrow::Cow<'_, str> {
    if s.chars()
        .all(|c| (c.is_ascii() && !c.is_ascii_uppercase()) || matches!(c, 'а'..='я' | 'ё'))
    {
        std::borrow::Cow::Borrowed(s)
    } else {
        std::borrow::Cow::Owned(py_lower(s))
    }
}

/// `c.is_alphanumeric()` (Python's `str.isalnum` for one character), with ASCII and the basic Cyrillic
/// letters answered without the Unicode table search.
pub fn is_alnum(c: char) -> bool {
    match c {
        c if c.is_ascii() => c.is_ascii_alphanumeric(),
        'А'..='я' | 'Ё' | 'ё' => true,
        c => c.is_alphanumeric(),
    }
}

/// Deletes the characters of Python's `string.punctuation`; `keep_minus` keeps `-` (MathQA).
pub fn remove_ascii_punct(s: &str, keep_minus: bool) -> String {
    s.chars()
        .filter(|&c| !(ASCII_PUNCT.contains(c) && !(keep_minus && c == '-')))
        .collect()
}

/// Corrected-mode punctuation removal (specs/aij2022.md 4 #6): every character of general category P goes,
/// except a `,` or `.` between two digits (kept as `.`) and, with `keep_minus`, a `-` or U+2212 directly
/// before a digit (kept as `-`).
pub fn remove_unicode_punct(s: &str, keep_minus: bool) -> String {
    let cs: Vec<char> = s.chars().collect();
    let digit = |i: Option<usize>| i.and_then(|i| cs.get(i)).is_some_and(|c| c.is_numeric());
    let mut out = String::with_capacity(s.len());
    for (i, &c) in cs.iter().enumerate() {
        let prev = i.checked_sub(1);
        if (c == ',' || c == '.') && digit(prev) && digit(Some(i + 1)) {
            out.push('.');
        } else if keep_minus && (c == '-' || c == '\u{2212}') && digit(Some(i + 1)) {
            out.push('-');
        } else if !is_punct(c) {
            out.push(c);
        }
    }
    out
}

/// Unicode general category P (Pc, Pd, Ps, Pe, Pi, Pf, Po).
pub fn is_punct(c: char) -> bool {
    matches!(
        get_general_category(c),
        G::ConnectorPunctuation
            | G::DashPunctuation
            | G::OpenPunctuation
            | G::ClosePunctuation
            | G::InitialPunctuation
            | G::FinalPunctuation
            | G::OtherPunctuation
    )
}

/// True if the word needs the Russian lemmatiser: pymorphy returns every word without a Cyrillic letter
/// unchanged (its Latin, number, Roman-numeral and punctuation analysers keep the form).
pub fn needs_lemmatiser(w: &str) -> bool {
    w.chars()
        .any(|c| matches!(c, '\u{400}'..='\u{52f}' | '\u{1c80}'..='\u{1c8f}' | '\u{2de0}'..='\u{2dff}' | '\u{a640}'..='\u{a69f}'))
}

/// `normalize_answer(s)`: lower → punctuation removal → split → lemma per word (then the number table) → join.
/// `lemma` gets each lower-cased word and returns pymorphy's normal form.
pub fn normalize(
    s: &str,
    punct: impl Fn(&str) -> String,
    lemma: &mut dyn FnMut(&str) -> String,
) -> String {
    let cleaned = punct(&py_lower(s));
    let mut out: Vec<String> = Vec::new();
    for w in py_split(&cleaned) {
        let l = lemma(w);
        let l = match number_word(&l) {
            Some(d) => d.to_string(),
            None => l,
        };
        out.push(l);
    }
    // white_space_fix: a lemma may itself contain whitespace only if the lemmatiser returned it.
    let joined = out.join(" ");
    py_split(&joined).collect::<Vec<_>>().join(" ")
}

/// `get_tokens(s)`: `[]` for `""`, else the normalised string split on whitespace.
pub fn tokens(norm: &str) -> Vec<&str> {
    py_split(norm).collect()
}

/// SQuAD token F1 as `compute_f1` computes it: both empty → 1, one empty → 0 (integers), no common token → 0,
/// else 2PR/(P+R) with P = same/|pred|, R = same/|gold|.
pub fn f1(gold: &[&str], pred: &[&str]) -> f64 {
    if gold.is_empty() || pred.is_empty() {
        return if gold == pred { 1.0 } else { 0.0 };
    }
    let mut counts: HashMap<&str, (usize, usize)> = HashMap::new();
    for g in gold {
        counts.entry(g).or_default().0 += 1;
    }
    for p in pred {
        counts.entry(p).or_default().1 += 1;
    }
    let same: usize = counts.values().map(|(a, b)| *a.min(b)).sum();
    if same == 0 {
        return 0.0;
    }
    let precision = 1.0 * same as f64 / pred.len() as f64;
    let recall = 1.0 * same as f64 / gold.len() as f64;
    (2.0 * precision * recall) / (precision + recall)
}

/// The official letter fallback: the first character of `[abcde]` anywhere in the original prediction
/// (`re.search('[abcde]', prediction)`), as a one-character string.
pub fn fallback_letter_official(pred: &str) -> Option<char> {
    pred.chars().find(|c| matches!(c, 'a'..='e'))
}

/// Corrected letter fallback (specs/aij2022.md 4 #5): the first whitespace token that is a single a–e
/// (either case), alone or followed by `)`, `.` or `:`; returned lower-case.
pub fn fallback_letter_corrected(pred: &str) -> Option<char> {
    py_split(pred).find_map(|t| {
        let mut cs = t.chars();
        let c = cs.next()?.to_ascii_lowercase();
        let rest: String = cs.collect();
        (matches!(c, 'a'..='e') && matches!(rest.as_str(), "" | ")" | "." | ":")).then_some(c)
    })
}

/// `compute_NED(gt, pred)`: 0 if either string is empty, else 1 − lev(pred, gt) / max(len) on code points.
/// `both_empty_one` (corrected #8) scores two empty strings 1.
pub fn ned(gt: &str, pred: &str, both_empty_one: bool) -> f64 {
    let (lg, lp) = (gt.chars().count(), pred.chars().count());
    if lg == 0 || lp == 0 {
        return if both_empty_one && lg == 0 && lp == 0 {
            1.0
        } else {
            0.0
        };
    }
    let d = strsim::levenshtein(pred, gt);
    1.0 - d as f64 / lg.max(lp) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn py_split_reads_bytes_as_python_splits() {
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
            let want: Vec<&str> = s.split(py_space).filter(|t| !t.is_empty()).collect();
            assert_eq!(py_split(&s).collect::<Vec<_>>(), want, "{s:?}");
        }
    }

    #[test]
    fn punctuation() {
        assert_eq!(remove_ascii_punct("a) на 0,3!", false), "a на 03");
        assert_eq!(remove_ascii_punct("-0,5", true), "-05");
        assert_eq!(remove_unicode_punct("«0,3» — да…", false), "0.3  да");
        assert_eq!(remove_unicode_punct("ответ: −5", true), "ответ -5");
    }

    #[test]
    fn ned_examples() {
        assert_eq!(ned("хор", "Хор", false), 0.6666666666666667);
        assert_eq!(ned("Sale 50%", "sale 50 %", false), 0.7777777777777778);
        assert_eq!(ned("", "", false), 0.0);
        assert_eq!(ned("", "", true), 1.0);
    }

    #[test]
    fn letters() {
        assert_eq!(fallback_letter_official("The answer is c"), Some('e'));
        assert_eq!(fallback_letter_corrected("The answer is c"), Some('c'));
        assert_eq!(fallback_letter_corrected("B) 5"), Some('b'));
        assert_eq!(fallback_letter_corrected("Bee"), None);
    }
}

#[cfg(test)]
mod fast_path_tests {
    use super::*;

    #[test]
    fn fast_paths_equal_the_unicode_tables() {
        for u in 0..0x800u32 {
            if let Some(c) = char::from_u32(u) {
                assert_eq!(is_alnum(c), c.is_alphanumeric(), "{c:?}");
                let s = format!("a{c}Я");
                assert_eq!(py_lower(&s), s.to_lowercase(), "{c:?}");
            }
        }
        for s in ["ΣΑΣ", "ОДИСΣ", "Ёлка ИДЁТ", "ǅ", "İ"] {
            assert_eq!(py_lower(s), s.to_lowercase());
        }
    }
}
