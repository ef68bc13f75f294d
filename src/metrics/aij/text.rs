//! Text normalisation and the TextQA / MathQA / TRitW per-answer scores of the AI Journey 2022 contest
//! (docs/specs/aij2022.md 3.0–3.3; ai-forever/fbc2_aij2022 `evaluation/textqa/metric/calculate_f1.py`,
//! `mathqa/metric/calculate_exact_score.py`, `text_recognition/metric/calculate_NED.py`).

use crate::pycompat::{lower, split};
use rustc_hash::FxHashMap;
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

/// Python `str.split()` of `s` ([`crate::pycompat::split`]); `spaced` says `s` is words joined by single ASCII spaces (no other whitespace, none at the
/// ends, as the captioning one-pass path writes them), and then a split on `' '` gives the same words faster.
pub fn words(s: &str, spaced: bool) -> Words<'_> {
    match spaced && !s.is_empty() {
        true => Words::Spaced(Some(s)),
        false => Words::Py(crate::pycompat::split(s)),
    }
}

/// The iterator of [`words`]. `Spaced` holds the text not yet split (a byte loop: words are a few bytes long,
/// shorter than `str::split`'s memchr needs to pay off).
pub enum Words<'a> {
    Spaced(Option<&'a str>),
    Py(crate::pycompat::Split<'a>),
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

/// Corrected-mode punctuation removal (docs/specs/aij2022.md 4 #6): every character of general category P goes,
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
/// `lemma` gets each lower-cased word and appends pymorphy's normal form to the string it is given. One pass into
/// one string (no string per word), so a long answer costs time and memory linear in its length.
pub fn normalize(
    s: &str,
    punct: impl Fn(&str) -> String,
    lemma: &mut dyn FnMut(&str, &mut String),
) -> String {
    let cleaned = punct(&lower(s));
    let mut out = String::with_capacity(cleaned.len());
    let mut spaced = true;
    for w in split(&cleaned) {
        if !out.is_empty() {
            out.push(' ');
        }
        let at = out.len();
        lemma(w, &mut out);
        if let Some(d) = number_word(&out[at..]) {
            out.truncate(at);
            out.push_str(d);
        }
        // A lemma is itself split again (white_space_fix) only if it has whitespace or is empty.
        let mut it = split(&out[at..]);
        spaced &= it.next() == Some(&out[at..]) && it.next().is_none();
    }
    if spaced {
        return out;
    }
    // white_space_fix: a lemma may itself contain whitespace only if the lemmatiser returned it.
    split(&out).collect::<Vec<_>>().join(" ")
}

/// `get_tokens(s)`: `[]` for `""`, else the normalised string split on whitespace.
pub fn tokens(norm: &str) -> Vec<&str> {
    split(norm).collect()
}

/// A token list's length and counts, for [`f1_counted`]: the prediction's side of the F1, counted once for all
/// the options of an id.
pub struct Counts<'a> {
    n: usize,
    counts: FxHashMap<&'a str, usize>,
}

impl<'a> Counts<'a> {
    pub fn of(tokens: impl IntoIterator<Item = &'a str>) -> Self {
        let mut counts = FxHashMap::default();
        let mut n = 0;
        for t in tokens {
            *counts.entry(t).or_default() += 1;
            n += 1;
        }
        Counts { n, counts }
    }
}

/// SQuAD token F1 as `compute_f1` computes it: both empty → 1, one empty → 0 (integers), no common token → 0,
/// else 2PR/(P+R) with P = same/|pred|, R = same/|gold|.
pub fn f1(gold: &[&str], pred: &[&str]) -> f64 {
    f1_counted(gold, &Counts::of(pred.iter().copied()))
}

/// [`f1`] with the prediction's tokens counted.
pub fn f1_counted(gold: &[&str], pred: &Counts) -> f64 {
    if gold.is_empty() || pred.n == 0 {
        return if gold.is_empty() && pred.n == 0 {
            1.0
        } else {
            0.0
        };
    }
    let mut gc: FxHashMap<&str, usize> = FxHashMap::default();
    for g in gold {
        *gc.entry(g).or_default() += 1;
    }
    let same: usize = gc
        .iter()
        .map(|(g, a)| (*a).min(pred.counts.get(g).copied().unwrap_or(0)))
        .sum();
    if same == 0 {
        return 0.0;
    }
    let precision = 1.0 * same as f64 / pred.n as f64;
    let recall = 1.0 * same as f64 / gold.len() as f64;
    (2.0 * precision * recall) / (precision + recall)
}

/// The official letter fallback: the first character of `[abcde]` anywhere in the original prediction
/// (`re.search('[abcde]', prediction)`), as a one-character string.
pub fn fallback_letter_official(pred: &str) -> Option<char> {
    pred.chars().find(|c| matches!(c, 'a'..='e'))
}

/// Corrected letter fallback (docs/specs/aij2022.md 4 #5): the first whitespace token that is a single a–e
/// (either case), alone or followed by `)`, `.` or `:`; returned lower-case.
pub fn fallback_letter_corrected(pred: &str) -> Option<char> {
    split(pred).find_map(|t| {
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
    let d = crate::metrics::edit::char_distance(pred, gt);
    1.0 - d as f64 / lg.max(lp) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

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
            }
        }
    }
}
