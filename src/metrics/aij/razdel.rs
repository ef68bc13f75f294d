//! `razdel.tokenize` of razdel 0.5.0 (`razdel/segmenters/tokenize.py`), ported exactly: the contest's captioning
//! `postprocess` re-tokenises both texts with it and joins the tokens with single spaces (docs/specs/aij2022.md 3.5).
//!
//! razdel cuts the text into atoms with one regex, tried in this order at each non-space position:
//!
//! ```text
//! RU    [а-яё]+      (re.I: also А-Я and Ё)
//! LAT   [a-z]+       (re.I: also A-Z and the four letters Python folds onto them: İ ı ſ K)
//! INT   \d+          (Unicode decimal digits, category Nd)
//! PUNCT one of  \/!#$%&*+,.:;<=>?@^_`|~№…  the dashes ‑–—−-  the quotes «“‘»”’"„'  the brackets ([})] (no `{`)
//! OTHER \S           (one character)
//! ```
//!
//! Two neighbouring atoms with nothing between them are joined into one token when the first of these rules that
//! decides says so (a rule that does not decide passes on to the next):
//!
//! - dash (`‑–—−-`), underscore (`_`), float (`.` `,`) and fraction (`/` `\`): when the left atom is the
//!   delimiter, look at the atom before it and the right atom; when the right atom is, at the left atom and the atom
//!   after it. These neighbours may lie across a space, which is how `человек -две` gives `-две`. Dash and
//!   underscore join unless one of the two is PUNCT; float and fraction join when both are INT; a missing
//!   neighbour does not decide;
//! - punct: both atoms PUNCT: join a smiley (`[=:;]-?[)(]{1,3}` for the token so far plus the right atom), two of
//!   `.?!…`, or `--` / `**`;
//! - other: OTHER next to OTHER, RU or LAT (either way round) joins;
//! - yahoo: `yahoo` (any case) followed by `!` joins.

use unicode_general_category::{get_general_category, GeneralCategory as G};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Ru,
    Lat,
    Int,
    Punct,
    Other,
}

#[derive(Clone, Copy, Debug)]
struct Atom {
    start: usize,
    stop: usize,
    kind: Kind,
}

const DASHES: &str = "\u{2011}\u{2013}\u{2014}\u{2212}-";
/// razdel's `OPEN_BRACKETS = '([}'` has `}` twice and no `{`, so `{` is an OTHER atom.
const PUNCTS: &str = "\\/!#$%&*+,.:;<=>?@^_`|~№…\u{2011}\u{2013}\u{2014}\u{2212}-«“‘»”’\"„'([})]";
const ENDINGS: &str = ".?!…";

fn is_ru(c: char) -> bool {
    matches!(c, 'а'..='я' | 'А'..='Я' | 'ё' | 'Ё')
}

/// `[a-z]` under `re.I`: the characters whose simple lower case is an ASCII letter, and `ı` and `ſ`, which
/// Python's `re` adds as case variants of `i` and `s`.
fn is_lat(c: char) -> bool {
    c.is_ascii_alphabetic() || matches!(c, '\u{130}' | '\u{131}' | '\u{17f}' | '\u{212a}')
}

/// Python `re`'s `\d` on `str`: a Unicode decimal digit (category Nd).
pub fn is_decimal(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_digit();
    }
    get_general_category(c) == G::DecimalNumber
}

fn kind_at(c: char) -> Option<Kind> {
    Some(if is_ru(c) {
        Kind::Ru
    } else if is_lat(c) {
        Kind::Lat
    } else if is_decimal(c) {
        Kind::Int
    } else if PUNCTS.contains(c) {
        Kind::Punct
    } else if crate::pycompat::is_space(c) {
        return None;
    } else {
        Kind::Other
    })
}

fn atoms(text: &str) -> Vec<Atom> {
    let mut out = Vec::new();
    let mut it = text.char_indices().peekable();
    while let Some((start, c)) = it.next() {
        let Some(kind) = kind_at(c) else { continue };
        let mut stop = start + c.len_utf8();
        if matches!(kind, Kind::Ru | Kind::Lat | Kind::Int) {
            while let Some(&(i, d)) = it.peek() {
                let same = match kind {
                    Kind::Ru => is_ru(d),
                    Kind::Lat => is_lat(d),
                    _ => is_decimal(d),
                };
                if !same {
                    break;
                }
                stop = i + d.len_utf8();
                it.next();
            }
        }
        out.push(Atom { start, stop, kind });
    }
    out
}

/// `SMILE = ^[=:;]-?[)(]{1,3}$`.
fn is_smile(s: &str) -> bool {
    let b = s.as_bytes();
    let Some((&first, rest)) = b.split_first() else {
        return false;
    };
    let rest = rest.strip_prefix(b"-").unwrap_or(rest);
    matches!(first, b'=' | b':' | b';')
        && (1..=3).contains(&rest.len())
        && rest.iter().all(|&x| x == b'(' || x == b')')
}

/// Whether atoms `k - 1` and `k` (nothing between them) are joined; `buffer` is the token so far.
fn join(text: &str, a: &[Atom], k: usize, buffer: &str) -> bool {
    let t = |x: &Atom| &text[x.start..x.stop];
    let (l1, r1) = (&a[k - 1], &a[k]);
    let (left, right) = (t(l1), t(r1));
    let l2 = k.checked_sub(2).map(|i| &a[i]);
    let r2 = a.get(k + 1);
    // Rule2112: `delimiter in DASHES` etc. is a substring test in Python; atom texts that are not one
    // character are letters or digits, never a substring of these sets.
    let one = |s: &str, set: &str| s.chars().count() == 1 && set.contains(s);
    // (delimiter set, both neighbours INT): dash and underscore join unless a neighbour is PUNCT.
    let rules = [(DASHES, false), ("_", false), (".,", true), ("/\\", true)];
    for (set, ints) in rules {
        let pair = if one(left, set) {
            l2.map(|x| (x, r1))
        } else if one(right, set) {
            r2.map(|x| (l1, x))
        } else {
            continue;
        };
        let joins = |(l, r): (&Atom, &Atom)| match ints {
            true => l.kind == Kind::Int && r.kind == Kind::Int,
            false => l.kind != Kind::Punct && r.kind != Kind::Punct,
        };
        if pair.is_some_and(joins) {
            return true;
        }
    }
    if l1.kind == Kind::Punct && r1.kind == Kind::Punct {
        let mut smile = String::with_capacity(buffer.len() + right.len());
        smile.push_str(buffer);
        smile.push_str(right);
        if is_smile(&smile)
            || one(left, ENDINGS) && one(right, ENDINGS)
            || matches!((left, right), ("-", "-") | ("*", "*"))
        {
            return true;
        }
    }
    let word = |k: Kind| matches!(k, Kind::Other | Kind::Ru | Kind::Lat);
    if l1.kind == Kind::Other && word(r1.kind) || word(l1.kind) && r1.kind == Kind::Other {
        return true;
    }
    // yahoo: `left_1.normal == 'yahoo'` (Python lower) and `right == '!'`.
    l1.kind == Kind::Lat && right == "!" && left.to_lowercase() == "yahoo"
}

/// `[t.text for t in razdel.tokenize(text)]`: the tokens, as slices of `text`.
pub fn tokenize(text: &str) -> Vec<&str> {
    let a = atoms(text);
    let mut out = Vec::new();
    let Some(first) = a.first() else {
        return out;
    };
    let mut start = first.start;
    for k in 1..a.len() {
        let glued = a[k - 1].stop == a[k].start;
        if !(glued && join(text, &a, k, &text[start..a[k - 1].stop])) {
            out.push(&text[start..a[k - 1].stop]);
            start = a[k].start;
        }
    }
    out.push(&text[start..a[a.len() - 1].stop]);
    out
}

/// `" ".join(t.text for t in razdel.tokenize(text))`.
pub fn join_tokens(text: &str) -> String {
    tokenize(text).join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn razdel_examples() {
        // razdel 0.5.0 on these texts (tests/reference/aij_tokenize_diff.py checks 100,000 random ones).
        for (text, want) in [
            ("человек -две", "человек -две"),
            ("девяти— поле", "девяти— поле"),
            ("человек- две", "человек- две"),
            ("_спит", "_ спит"),
            ("кошка _спит", "кошка _спит"),
            ("a__b", "a _ _ b"),
            ("a1 кошкаcat", "a 1 кошка cat"),
            ("1990-х светло-бежевой", "1990-х светло-бежевой"),
            ("a\u{2010}b x-", "a\u{2010}b x -"),
            ("-3 a -3", "- 3 a -3"),
            ("3,5 1/2 3.5.", "3,5 1/2 3.5 ."),
            (
                ":))) :-) ...?! -- ** Yahoo!",
                ":))) : - ) ...?! -- ** Yahoo!",
            ),
            ("ΔP Δσ mβж", "ΔP Δσ mβж"),
            ("«кошка»", "« кошка »"),
            ("", ""),
            ("  \u{a0}", ""),
        ] {
            assert_eq!(join_tokens(text), want, "{text:?}");
        }
    }
}
