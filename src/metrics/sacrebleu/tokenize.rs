//! sacreBLEU 2.6.0's BLEU tokenizers (sacrebleu/tokenizers/): `13a` (mteval-v13a.pl as `tokenizer_13a.py` +
//! `tokenizer_re.py`), `intl` (mteval-v14.pl's international tokenization, `tokenizer_intl.py`), `zh`
//! (`tokenizer_zh.py`), `char` and `none`. Tokenizers that need model files (`ja-mecab`, `ko-mecab`, `spm`,
//! `flores101`, `flores200`, `spBLEU-1K`) are refused by [`Tokenizer::from_name`].
//!
//! Every tokenizer returns the tokenized line as one string, as sacreBLEU does (`' '.join(line.split())` where it
//! joins); BLEU splits it again with Python's `str.split()`.

use super::intl_tables::{NUMBER, PUNCT, SYMBOL};
use crate::pycompat;

/// A BLEU tokenizer sacreBLEU names by its signature (`tok:…`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tokenizer {
    /// `13a`, sacreBLEU's default: mteval-v13a.pl.
    Thirteen,
    /// `intl`: mteval-v14.pl's international tokenization (Unicode punctuation and symbols).
    Intl,
    /// `zh`: CJK characters split apart, then the `13a` rules.
    Zh,
    /// `char`: every character a token.
    Char,
    /// `none`: the line as it is.
    None,
}

impl Tokenizer {
    /// The tokenizer sacreBLEU calls `name` (its `tokenize=` argument). Names that need model files or are
    /// unknown give a message for the user.
    pub fn from_name(name: &str) -> Result<Tokenizer, String> {
        Ok(match name {
            "13a" => Tokenizer::Thirteen,
            "intl" => Tokenizer::Intl,
            "zh" => Tokenizer::Zh,
            "char" => Tokenizer::Char,
            "none" => Tokenizer::None,
            "ja-mecab" | "ko-mecab" | "spm" | "flores101" | "flores200" | "spBLEU-1K" => {
                return Err(format!(
                    "sacreBLEU tokenizer `{name}` needs a model file (MeCab dictionary or SentencePiece model) \
                     that dropscore does not ship; use `13a`, `intl`, `zh`, `char` or `none`"
                ))
            }
            _ => {
                return Err(format!(
                    "unknown sacreBLEU tokenizer `{name}`; use `13a`, `intl`, `zh`, `char` or `none`"
                ))
            }
        })
    }

    /// The name in sacreBLEU's signature (`tok:13a`).
    pub fn name(self) -> &'static str {
        match self {
            Tokenizer::Thirteen => "13a",
            Tokenizer::Intl => "intl",
            Tokenizer::Zh => "zh",
            Tokenizer::Char => "char",
            Tokenizer::None => "none",
        }
    }

    /// The tokenized line, as the tokenizer's `__call__` returns it.
    pub fn tokenize(self, line: &str) -> String {
        match self {
            Tokenizer::Thirteen => tokenize_13a(line),
            Tokenizer::Intl => tokenize_intl(line),
            Tokenizer::Zh => tokenize_zh(line),
            Tokenizer::Char => char_tokens(line),
            Tokenizer::None => line.to_string(),
        }
    }
}

/// `Tokenizer13a.__call__`: drop `<skipped>`, join hyphenated line ends (`-\n`), newlines to spaces, unescape
/// `&quot;`, `&amp;`, `&lt;`, `&gt;` (in that order, each `str.replace`), then [`regexp_rules`] on `f' {line} '`.
pub fn tokenize_13a(line: &str) -> String {
    let mut s = std::borrow::Cow::Borrowed(line);
    if s.contains("<skipped>") {
        s = s.replace("<skipped>", "").into();
    }
    if s.contains('\n') {
        s = s.replace("-\n", "").replace('\n', " ").into();
    }
    if s.contains('&') {
        s = s
            .replace("&quot;", "\"")
            .replace("&amp;", "&")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .into();
    }
    regexp_rules(&format!(" {s} "))
}

/// `TokenizerRegexp.__call__` (sacrebleu/tokenizers/tokenizer_re.py), four `re.sub` passes then
/// `' '.join(line.split())`:
/// 1. `([\{-\~\[-\` -\&\(-\+\:-\@\/])` → ` \1 ` (ASCII punctuation but `'`, `,`, `-`, `.`);
/// 2. `([^0-9])([\.,])` → `\1 \2 `; 3. `([\.,])([^0-9])` → ` \1 \2`; 4. `([0-9])(-)` → `\1 \2 `.
///
/// Every pattern decides on ASCII characters only (`[0-9]` is ASCII in `re`), and a match consumes its two
/// characters, so each pass scans the UTF-8 bytes left to right as `re.sub` scans characters: a multi-byte
/// character's bytes (all ≥ 0x80) match `[^0-9]` and never `[\.,]`, `[0-9]` or `-`, and every space is
/// inserted next to an ASCII byte, so the text stays valid UTF-8.
pub fn regexp_rules(line: &str) -> String {
    let mut a = Vec::with_capacity(line.len() * 2);
    for &c in line.as_bytes() {
        if matches!(c, b'{'..=b'~' | b'['..=b'`' | b' '..=b'&' | b'('..=b'+' | b':'..=b'@' | b'/') {
            a.extend_from_slice(&[b' ', c, b' ']);
        } else {
            a.push(c);
        }
    }
    let digit = |b: u8| b.is_ascii_digit();
    let dot = |b: u8| b == b'.' || b == b',';
    let mut b = Vec::with_capacity(a.len() + a.len() / 4);
    pair_pass(&a, &mut b, |x, y| !digit(x) && dot(y), Layout::AfterBoth);
    pair_pass(&b, &mut a, |x, y| dot(x) && !digit(y), Layout::AroundFirst);
    pair_pass(&a, &mut b, |x, y| digit(x) && y == b'-', Layout::AfterBoth);
    let s =
        String::from_utf8(b).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    join_split(&s)
}

/// Where a two-character match's spaces go: `\1 \2 ` or ` \1 \2`.
#[derive(Clone, Copy)]
enum Layout {
    AfterBoth,
    AroundFirst,
}

/// One `re.sub` of a two-character pattern over bytes (see [`regexp_rules`]), from `s` into `out` (cleared).
fn pair_pass(s: &[u8], out: &mut Vec<u8>, hit: impl Fn(u8, u8) -> bool, layout: Layout) {
    out.clear();
    let mut i = 0;
    while i < s.len() {
        if i + 1 < s.len() && hit(s[i], s[i + 1]) {
            match layout {
                Layout::AfterBoth => out.extend_from_slice(&[s[i], b' ', s[i + 1], b' ']),
                Layout::AroundFirst => out.extend_from_slice(&[b' ', s[i], b' ', s[i + 1]]),
            }
            i += 2;
        } else {
            out.push(s[i]);
            i += 1;
        }
    }
}

/// `' '.join(line.split())` with Python's whitespace.
pub fn join_split(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for w in pycompat::split(s) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

fn in_ranges(table: &[(u32, u32)], c: char) -> bool {
    let u = c as u32;
    let i = table.partition_point(|r| r.1 < u);
    i < table.len() && table[i].0 <= u
}

/// `\p{N}` of the `regex` module (its tables: src/metrics/sacrebleu/intl_tables.rs).
fn is_number(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_digit();
    }
    in_ranges(&NUMBER, c)
}

/// `\p{P}` of the `regex` module.
fn is_punct(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_punctuation()
            && !matches!(c, '$' | '+' | '<' | '=' | '>' | '^' | '`' | '|' | '~');
    }
    in_ranges(&PUNCT, c)
}

/// `\p{S}` of the `regex` module.
fn is_symbol(c: char) -> bool {
    if c.is_ascii() {
        return matches!(c, '$' | '+' | '<' | '=' | '>' | '^' | '`' | '|' | '~');
    }
    in_ranges(&SYMBOL, c)
}

/// `TokenizerV14International.__call__`: three `regex.sub` passes, then `' '.join(line.split())`:
/// `(\P{N})(\p{P})` → `\1 \2 `, `(\p{P})(\P{N})` → ` \1 \2`, `(\p{S})` → ` \1 `.
pub fn tokenize_intl(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let a = char_pair_pass(
        &chars,
        |x, y| !is_number(x) && is_punct(y),
        Layout::AfterBoth,
    );
    let b = char_pair_pass(&a, |x, y| is_punct(x) && !is_number(y), Layout::AroundFirst);
    let mut s = String::with_capacity(b.len() * 2);
    for c in b {
        if is_symbol(c) {
            s.push(' ');
            s.push(c);
            s.push(' ');
        } else {
            s.push(c);
        }
    }
    join_split(&s)
}

/// [`pair_pass`] on code points.
fn char_pair_pass(s: &[char], hit: impl Fn(char, char) -> bool, layout: Layout) -> Vec<char> {
    let mut out = Vec::with_capacity(s.len() + s.len() / 4);
    let mut i = 0;
    while i < s.len() {
        if i + 1 < s.len() && hit(s[i], s[i + 1]) {
            match layout {
                Layout::AfterBoth => out.extend([s[i], ' ', s[i + 1], ' ']),
                Layout::AroundFirst => out.extend([' ', s[i], ' ', s[i + 1]]),
            }
            i += 2;
        } else {
            out.push(s[i]);
            i += 1;
        }
    }
    out
}

/// `TokenizerZh._is_chinese_char`: sacreBLEU's `_UCODE_RANGES`, compared as Python strings. Two of its
/// entries are written `u'\u20000'` and `u'\u2f800'`, which Python reads as a 4-digit escape plus a digit: the
/// comparison `start <= uchar <= end` of one character with those two-character strings makes them
/// U+2001..=U+2A6D and U+2F81..=U+2FA1, not the Extension B and Compatibility Supplement blocks (the first
/// also covers the list's U+2600..=U+26FF and U+2700..=U+27BF, left out here).
fn is_chinese_char(c: char) -> bool {
    matches!(c,
        '\u{3400}'..='\u{4db5}'
        | '\u{4e00}'..='\u{9fa5}'
        | '\u{9fa6}'..='\u{9fbb}'
        | '\u{f900}'..='\u{fa2d}'
        | '\u{fa30}'..='\u{fa6a}'
        | '\u{fa70}'..='\u{fad9}'
        | '\u{2001}'..='\u{2a6d}'
        | '\u{2f81}'..='\u{2fa1}'
        | '\u{ff00}'..='\u{ffef}'
        | '\u{2e80}'..='\u{2eff}'
        | '\u{3000}'..='\u{303f}'
        | '\u{31c0}'..='\u{31ef}'
        | '\u{2f00}'..='\u{2fdf}'
        | '\u{2ff0}'..='\u{2fff}'
        | '\u{3100}'..='\u{312f}'
        | '\u{31a0}'..='\u{31bf}'
        | '\u{fe10}'..='\u{fe1f}'
        | '\u{fe30}'..='\u{fe4f}'
        | '\u{3200}'..='\u{32ff}'
        | '\u{3300}'..='\u{33ff}')
}

/// `TokenizerZh.__call__`: `line.strip()`, each Chinese character (as [`is_chinese_char`]) surrounded by
/// spaces, then [`regexp_rules`] (no surrounding spaces added, unlike `13a`).
pub fn tokenize_zh(line: &str) -> String {
    let mut s = String::with_capacity(line.len() * 2);
    for c in pycompat::strip(line).chars() {
        if is_chinese_char(c) {
            s.push(' ');
            s.push(c);
            s.push(' ');
        } else {
            s.push(c);
        }
    }
    regexp_rules(&s)
}

/// `TokenizerChar.__call__`: `" ".join(line)`.
fn char_tokens(line: &str) -> String {
    let mut s = String::with_capacity(line.len() * 2);
    for (i, c) in line.chars().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        s.push(c);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thirteen_a_examples() {
        assert_eq!(
            tokenize_13a("Hello, world. 3.5 1,000 a-b 3-4 &amp;x"),
            "Hello , world . 3.5 1,000 a-b 3 - 4 & x"
        );
        assert_eq!(tokenize_13a("end.\n-next"), "end . -next");
        assert_eq!(tokenize_13a("x..y"), "x . . y");
    }

    #[test]
    fn intl_examples() {
        assert_eq!(
            tokenize_intl("Hello, world! 1,000 «quote» €5"),
            "Hello , world ! 1,000 « quote » € 5"
        );
    }
}
