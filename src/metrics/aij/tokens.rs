//! Tokenisers and converters of the contest's METEOR pipelines (docs/specs/aij2022.md 3.4, 3.5, 3.9):
//! `wordtodigits.convert` 1.0.2, NLTK `word_tokenize` and `razdel.tokenize` for the cases the spec covers,
//! the captioning `postprocess`, and NLTK's Snowball Russian stemmer.

use crate::pycompat::{split as py_split, strip as py_strip};

const STARTING: [&str; 20] = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
];
const TENS: [&str; 8] = [
    "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
];
const HIGHER: [&str; 3] = ["hundred", "thousand", "million"];

fn starting(w: &str) -> Option<u128> {
    STARTING.iter().position(|s| *s == w).map(|i| i as u128)
}
fn tens(w: &str) -> Option<u128> {
    TENS.iter()
        .position(|s| *s == w)
        .map(|i| (i as u128 + 2) * 10)
}
/// [`is_number_word`] of the ASCII lower case of `w`.
fn is_number_word_ci(w: &str) -> bool {
    let eq = |s: &&str| s.eq_ignore_ascii_case(w);
    w.len() <= 9 && (STARTING.iter().any(eq) || TENS.iter().any(eq) || HIGHER.iter().any(eq))
}
fn is_number_word(w: &str) -> bool {
    starting(w).is_some() || tens(w).is_some() || HIGHER.contains(&w)
}

/// True if [`w2d`] only rejoins the words of `text` with single spaces: no `.`, `?` or `!` and no number word (the
/// `and` and `point` rules need a number word next, so they cannot fire either).
/// `spaced`: as for [`super::text::words`].
pub fn w2d_is_rejoin(text: &str, spaced: bool) -> bool {
    // A word with a non-ASCII character is no number word once lower-cased (the one non-ASCII character whose
    // lower case is ASCII is the Kelvin sign, and no number word has a `k`).
    !text.contains(['.', '?', '!'])
        && super::text::words(text, spaced).all(|w| !w.is_ascii() || !is_number_word_ci(w))
}

/// `wordtodigits.convert(text)` 1.0.2, line for line (Python ints are unbounded; here they saturate at 2¹²⁸).
pub fn w2d(text: &str) -> String {
    let padded = if text.contains(['.', '?', '!']) {
        text.replace('.', " . ")
            .replace('?', " ? ")
            .replace('!', " ! ")
    } else {
        text.to_string()
    };
    let mut tokens: Vec<&str> = py_split(&padded).collect();
    tokens.push("");
    let (mut temp, mut fin): (u128, u128) = (0, 0);
    let (mut point, mut number) = (false, false);
    let mut out = String::new();
    let term = |w: &str| matches!(w, "." | "?" | "!");
    for i in 0..tokens.len() {
        let word = tokens[i];
        let lw = crate::pycompat::lower_cow(word);
        let next = tokens.get(i + 1).copied().unwrap_or("");
        if is_number_word(&lw) && !point {
            number = true;
            if let Some(v) = starting(&lw) {
                temp = temp.saturating_add(v);
            } else if let Some(v) = tens(&lw) {
                temp = temp.saturating_add(v);
            } else if lw == "hundred" {
                temp = temp.saturating_mul(100);
            } else {
                let k = if lw == "thousand" { 1000 } else { 1_000_000 };
                fin = fin.saturating_add(temp.saturating_mul(k));
                temp = 0;
            }
        } else if point && starting(&lw).is_some() {
            out.push_str(&starting(&lw).unwrap_or(0).to_string());
        } else if word == "and" && is_number_word(next) {
            continue;
        } else if lw == "point" && is_number_word(next) {
            fin = fin.saturating_add(temp);
            point = true;
            number = false;
            out.push(' ');
            out.push_str(&fin.to_string());
            out.push('.');
            continue;
        } else {
            point = false;
            if number {
                fin = fin.saturating_add(temp);
                out.push(' ');
                out.push_str(&fin.to_string());
                if !term(word) {
                    out.push(' ');
                }
                out.push_str(word);
                number = false;
            } else {
                if !term(word) {
                    out.push(' ');
                }
                out.push_str(word);
            }
            fin = 0;
            temp = 0;
        }
    }
    // final_string[1:-1]
    let mut cs = out.chars();
    cs.next();
    cs.next_back();
    cs.as_str().to_string()
}

/// True if NLTK 3.7's `word_tokenize` ([`super::nltk_tokenize::word_tokenize`]) gives Python's `str.split()` of
/// `text`: none of the characters its substitutions look at (``"'`.:,;@#$%&?!*()[]{}<>`` and `«“‘„»”’`), no `--`,
/// and none of the contractions it splits without an apostrophe (`cannot`, `gimme`, `gonna`, `gotta`, `lemme`,
/// `wanna`, in any case: any `nno`, `mme`, `nna` or `tta`, or an `İ` or `ı`, which `(?i)` matches to `i`, sends the
/// text to the port). Every substitution needs one of these, so the split is then exact.
pub fn word_tokenize_is_split(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let x = b[i];
        if x < 0x80 {
            let touched = matches!(
                x,
                b'"' | b'\''
                    | b'`'
                    | b'.'
                    | b':'
                    | b','
                    | b';'
                    | b'@'
                    | b'#'
                    | b'$'
                    | b'%'
                    | b'&'
                    | b'?'
                    | b'!'
                    | b'*'
                    | b'('
                    | b')'
                    | b'['
                    | b']'
                    | b'{'
                    | b'}'
                    | b'<'
                    | b'>'
            );
            if touched
                || x == b'-' && b.get(i + 1) == Some(&b'-')
                || x.is_ascii_alphabetic() && may_contract(&b[i..])
            {
                return false;
            }
            i += 1;
        } else if x == 0xd0 || x == 0xd1 {
            i += 2; // U+0400..U+047F: Cyrillic letters
        } else {
            let Some(c) = text.get(i..).and_then(|r| r.chars().next()) else {
                return false;
            };
            if matches!(
                c,
                '«' | '“' | '‘' | '„' | '»' | '”' | '’' | '\u{130}' | '\u{131}'
            ) {
                return false;
            }
            i += c.len_utf8();
        }
    }
    true
}

/// Whether `b` starts with `nno`, `mme`, `nna` or `tta` in any ASCII case (a possible NLTK contraction).
#[inline]
fn may_contract(b: &[u8]) -> bool {
    match b.get(..3) {
        Some(w) => matches!(
            [w[0] | 0x20, w[1] | 0x20, w[2] | 0x20],
            [b'n', b'n', b'o'] | [b'm', b'm', b'e'] | [b'n', b'n', b'a'] | [b't', b't', b'a']
        ),
        None => false,
    }
}

/// NLTK 3.7 `word_tokenize(text)`, its tokens joined with single spaces when they are not just
/// [`super::text::words`] of `text` (`None` then, as [`word_tokenize_is_split`] proves).
pub fn word_tokenize_joined(text: &str) -> Option<String> {
    (!word_tokenize_is_split(text)).then(|| super::nltk_tokenize::word_tokenize_joined(text))
}

/// `punct_detokenize` of captioning `metrics/utils.py`.
fn punct_detokenize(text: &str) -> String {
    let mut t: String = py_strip(text)
        .chars()
        .filter(|c| {
            !matches!(
                c,
                ',' | '.' | '!' | '?' | ':' | ';' | '%' | ')' | ']' | '}' | '(' | '['
            )
        })
        .collect();
    for q in ['"', '\''] {
        if t.contains(q) {
            t = collapse_quoted(&t, q);
        }
    }
    if t.contains('\'') {
        t = t.replace("' s", "'s").replace(" 's", "'s");
    }
    let s = py_strip(&t);
    if s.len() == t.len() {
        t
    } else {
        s.to_string()
    }
}

/// `for f in re.findall(r'"\s[^"]+\s"', text): text = text.replace(f, f[0] + f[2:-2] + f[-1])`.
fn collapse_quoted(text: &str, q: char) -> String {
    if !text.contains(q) {
        return text.to_string();
    }
    let cs: Vec<char> = text.chars().collect();
    let mut found: Vec<String> = Vec::new();
    let mut i = 0;
    while i < cs.len() {
        if cs[i] == q && cs.get(i + 1).is_some_and(|c| c.is_whitespace()) {
            // [^q]+ greedy, then backtrack to a whitespace followed by q.
            let mut end = i + 2;
            while end < cs.len() && cs[end] != q {
                end += 1;
            }
            // cs[i+2..end] are non-quote chars; need some k in (i+2..end) with cs[k] whitespace, cs[k+1] == q
            // and k+1 == end (greedy [^q]+ stops at the first quote).
            if end < cs.len() && end >= i + 4 && cs[end - 1].is_whitespace() {
                found.push(cs[i..=end].iter().collect());
                i = end + 1;
                continue;
            }
        }
        i += 1;
    }
    let mut t = text.to_string();
    for f in found {
        let fc: Vec<char> = f.chars().collect();
        let n = fc.len();
        let mut r = String::new();
        r.push(fc[0]);
        r.extend(&fc[2..n - 2]);
        r.push(fc[n - 1]);
        t = t.replace(&f, &r);
    }
    t
}

/// `postprocess(ref, hyp, "ru", detokenize_after=True, tokenize_after=True, lower=True)` → (ref, hyp).
pub fn caption_postprocess(reference: &str, hyp: &str) -> (String, String) {
    (caption_side(reference, false), caption_side(hyp, true))
}

/// One side of the captioning `postprocess` (each side is processed on its own).
pub fn caption_side(text: &str, hyp: bool) -> String {
    let mut out = String::new();
    caption_side_into(text, hyp, &mut out);
    out
}

/// What [`caption_side_into`] knows of the processed text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideFlags {
    /// [`word_tokenize_is_split`] of it.
    pub split: bool,
    /// Its words are joined by single ASCII spaces ([`super::text::words`]): razdel's tokens hold no whitespace.
    pub spaced: bool,
}

/// [`caption_side`] into `out` (cleared first), so that a loop reuses one buffer. The one-pass path
/// ([`caption_side_plain`]) gives the text when it proves razdel keeps every whitespace-separated chunk whole, and
/// then knows [`word_tokenize_is_split`] without a scan; every other text takes the exact ports.
pub fn caption_side_into(text: &str, hyp: bool, out: &mut String) -> SideFlags {
    if let Some(contraction) = caption_side_plain(text, out) {
        return SideFlags {
            split: !contraction,
            spaced: true,
        };
    }
    *out = caption_side_general(text, hyp);
    SideFlags {
        split: word_tokenize_is_split(out),
        spaced: true,
    }
}

/// Characters `punct_detokenize` deletes.
fn is_detok_punct(c: char) -> bool {
    matches!(
        c,
        ',' | '.' | '!' | '?' | ':' | ';' | '%' | ')' | ']' | '}' | '(' | '['
    )
}

/// [`caption_side`] in one pass, for a text whose razdel tokens are its whitespace-separated chunks (after
/// `punct_detokenize`), which it proves on the way; `None` for any other text (and `out` is left half-written).
/// Each chunk must be words joined by single inner hyphens, a word being ASCII letters, ASCII digits or basic
/// Cyrillic letters (А-я, Ё, ё), one kind only: razdel's dash rule then joins every hyphen to both its words, and
/// no other rule applies; two kinds side by side (`a1`), `_`, quotes, any other character, a chunk that starts or
/// ends with `-` (which razdel may join across the space) and `--` are left to the exact port. Stripping is
/// implicit, and the text is lower-cased as it is copied. It reads UTF-8 bytes directly (ASCII, and Cyrillic
/// letters as two bytes). `Some(true)` when the text holds `nno`, `mme`, `nna` or `tta` ([`may_contract`]).
fn caption_side_plain(text: &str, out: &mut String) -> Option<bool> {
    const NONE: u8 = 0; // at the start of a chunk
    const LAT: u8 = 1;
    const INT: u8 = 2;
    const RU: u8 = 3;
    const DASH: u8 = 4;
    let b = text.as_bytes();
    out.clear();
    out.reserve(b.len() + 8);
    let mut contraction = false;
    let mut last = NONE; // the kind of the previous kept character of the chunk
    let mut i = 0;
    while i < b.len() {
        let x = b[i];
        let kind = if x < 0x80 {
            if is_detok_punct(x as char) {
                i += 1;
                continue;
            }
            if matches!(x, b'\t'..=b'\r' | 0x1c..=b' ') {
                if last == DASH {
                    return None;
                }
                last = NONE;
                i += 1;
                continue;
            }
            match x {
                b'a'..=b'z' | b'A'..=b'Z' => LAT,
                b'0'..=b'9' => INT,
                b'-' => DASH,
                _ => return None,
            }
        } else {
            RU
        };
        match (last, kind) {
            (NONE | DASH, DASH) => return None,
            (LAT | INT | RU, LAT | INT | RU) if last != kind => return None,
            _ => {}
        }
        if last == NONE && !out.is_empty() {
            out.push(' ');
        }
        last = kind;
        if kind != RU {
            out.push(x.to_ascii_lowercase() as char);
            i += 1;
            contraction |=
                kind == LAT && out.len() >= 3 && may_contract(&out.as_bytes()[out.len() - 3..]);
            continue;
        }
        let u = cyrillic_at(b, i)?;
        let lower = match u {
            0x410..=0x42f => u + 0x20,
            0x401 => 0x451,
            0x430..=0x44f | 0x451 => u,
            _ => return None,
        };
        if lower == u {
            // A run of lower-case letters is copied as it is (most of a Russian caption).
            let start = i;
            i += 2;
            while is_lower_cyrillic_at(b, i) {
                i += 2;
            }
            out.push_str(text.get(start..i)?);
        } else {
            i += 2;
            out.push(char::from_u32(lower)?);
        }
    }
    (last != DASH).then_some(contraction)
}

/// Whether `b[i..]` starts with а..я or ё (UTF-8 D0 B0..BF, D1 80..8F, D1 91).
#[inline]
fn is_lower_cyrillic_at(b: &[u8], i: usize) -> bool {
    match (b.get(i), b.get(i + 1)) {
        (Some(0xd0), Some(y)) => (0xb0..=0xbf).contains(y),
        (Some(0xd1), Some(y)) => (0x80..=0x8f).contains(y) || *y == 0x91,
        _ => false,
    }
}

/// The code point of the two-byte character at `b[i]` when it is in U+0400..U+047F (lead byte D0 or D1).
#[inline]
fn cyrillic_at(b: &[u8], i: usize) -> Option<u32> {
    let (x, y) = (b[i], *b.get(i + 1)?);
    ((0xd0..=0xd1).contains(&x) && y & 0xc0 == 0x80)
        .then(|| (u32::from(x & 0x1f) << 6) | u32::from(y & 0x3f))
}

/// [`caption_side`] step by step, for any text: `punct_detokenize`, `<unk>` in a hypothesis, razdel 0.5.0's
/// tokens joined with single spaces, lower-cased.
fn caption_side_general(text: &str, hyp: bool) -> String {
    let t = punct_detokenize(py_strip(text));
    let t = if hyp && t.contains("@@UNKNOWN@@") {
        t.replace("@@UNKNOWN@@", "<unk>")
    } else {
        t
    };
    crate::pycompat::lower(&super::razdel::join_tokens(&t))
}

/// NLTK `SnowballStemmer("russian").stem(word)`: a word without a character above U+00FF comes back
/// unchanged; otherwise the Snowball Russian algorithm on the lower-cased word with ё folded to е.
pub fn stem_ru(stemmer: &rust_stemmers::Stemmer, word: &str) -> String {
    if word.chars().all(|c| (c as u32) <= 255) {
        return word.to_string();
    }
    let folded: String = word
        .to_lowercase()
        .chars()
        .map(|c| if c == 'ё' { 'е' } else { c })
        .collect();
    stemmer.stem(&folded).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_tokenize_is_split_is_proved() {
        for (t, want) in [
            ("кошка спит", true),
            ("ѿ Ѡ-x_1\tz", true),
            ("кошка, спит", false),
            ("«кошка»", false),
            ("кошка é", true),
            ("é «", false),
            ("a--b", false),
            ("日本 語 + / = ^ ~ | \\", true),
            ("x\u{a0}y", true),
            ("x\u{200b}y", true),
            ("cannot", false),
            ("GoNNa", false),
            ("gİmme", false),
            ("светло-бежевой 2- car", true),
        ] {
            assert_eq!(word_tokenize_is_split(t), want, "{t:?}");
            // What the proof accepts, the port splits on whitespace.
            if want {
                let port = super::super::nltk_tokenize::word_tokenize(t);
                assert_eq!(port, py_split(t).collect::<Vec<_>>(), "{t:?}");
            }
        }
        assert_eq!(
            word_tokenize_joined("«кошка» cannot"),
            Some("« кошка » can not".to_string())
        );
        assert_eq!(word_tokenize_joined("кошка спит"), None);
    }

    #[test]
    fn w2d_examples() {
        assert_eq!(w2d("two birds"), "2 birds");
        assert_eq!(w2d("one hundred and five"), "105");
        assert_eq!(w2d("three point five"), "3.5");
        assert_eq!(w2d("0.5"), "0. 5");
        assert_eq!(w2d(""), "");
        assert_eq!(w2d("две птицы"), "две птицы");
        assert_eq!(w2d("one thousand?"), "1000?");
        for t in ["две  птицы ", " a and b point c", "Four-legged", "x y"] {
            assert!(w2d_is_rejoin(t, false));
            assert_eq!(w2d(t), py_split(t).collect::<Vec<_>>().join(" "));
        }
        for t in ["две птицы.", "point FOUR", "and two"] {
            assert!(!w2d_is_rejoin(t, false));
        }
    }

    #[test]
    fn plain_path_matches_the_general_one() {
        // Random texts over the characters each rule looks at; the one-pass path, where it answers, must give the
        // text of the exact ports, and its contraction flag must be word_tokenize_is_split's answer.
        let alphabet: Vec<char> = "аБвЁё xyZ-_-.,!?:;%()[]{}09 \t\u{a0}@#ѣéЯя\u{1c}\"'nNotamM"
            .chars()
            .collect();
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let (mut checked, mut plain) = (0, 0);
        for _ in 0..20_000 {
            let mut s = String::new();
            crate::xorshift64(&mut seed);
            for k in 0..(seed % 12) {
                let x = seed.rotate_left(5 * k as u32) ^ k.wrapping_mul(0x2545_F491_4F6C_DD1D);
                s.push(alphabet[(x % alphabet.len() as u64) as usize]);
            }
            if seed >> 58 == 0 {
                // One text in 64 gets `@@UNKNOWN@@` (replaced on the hypothesis side only).
                s.push_str("@@UNKNOWN@@");
            }
            for hyp in [false, true] {
                let general = caption_side_general(&s, hyp);
                let mut out = String::from("left over");
                let flags = caption_side_into(&s, hyp, &mut out);
                assert_eq!(out, general, "{s:?}");
                assert_eq!(flags.split, word_tokenize_is_split(&general), "{s:?}");
                // Spaced text splits on ' ' as Python's split() does.
                let py: Vec<&str> = py_split(&out).collect();
                assert_eq!(
                    crate::metrics::aij::text::words(&out, flags.spaced).collect::<Vec<_>>(),
                    py,
                    "{s:?}"
                );
                checked += 1;
                plain += usize::from(caption_side_plain(&s, &mut String::new()).is_some());
            }
        }
        assert!(
            plain > 2_000 && checked - plain > 10_000,
            "{checked} {plain}"
        );
    }

    #[test]
    fn captions() {
        let (r, h) = caption_postprocess(
            "торт со светло-бежевой глазурью",
            "Торт со светло-бежевой глазурью!",
        );
        assert_eq!(h, "торт со светло-бежевой глазурью");
        assert_eq!(r, h);
        // razdel glues a dash to the word on its far side, across a space.
        assert_eq!(
            caption_side("Человек -две, девяти— поле", false),
            "человек -две девяти— поле"
        );
        assert_eq!(caption_side("a1 _x @@UNKNOWN@@", true), "a 1 _x < unk >");
    }
}
