//! What Python's `json` reads beyond RFC 8259, for the readers of files that Python wrote (the aij2022 contest
//! JSON, docs/specs/aij2022.md 2.1, and COCO JSON, docs/specs/families.md section 3): the literals `NaN`, `Infinity` and
//! `-Infinity`, numbers beyond the float range (`1e999` is `float('inf')`, a 400-digit integer is a Python
//! `int`), and lone UTF-16 surrogate escapes (`"\ud800"`), which Python keeps as code points of category Cs.
//! Each reader says which of these it reads ([`Read`]).
//!
//! serde_json refuses all of these, so the text is rewritten once, and parsed again:
//! - each of these numbers becomes a JSON string of a marker character that the file does not hold, then a
//!   letter (`N` NaN, `I` +∞, `J` −∞, `B`/`b` a positive/negative integer beyond the float range), which the value
//!   reader turns back into the number;
//! - each lone surrogate escape `\udXXX` becomes the code point U+10F800 + (XXXX − 0xD800) (the last 2,048 code
//!   points of plane 16, private use), written as UTF-8: like a surrogate in Python it is no letter, digit,
//!   space or punctuation, its lower case is itself and it counts one code point, so every string operation of
//!   the scorers treats it as Python treats the surrogate. Reports show it as that private-use character.
//!
//! The rewrite never adds or removes a line break, so a later syntax error keeps its line; its column is mapped
//! back through the recorded edits. The positions of the original text (lines, code-point columns, the top-level
//! keys) are computed here too.

/// The edits of one rewrite: where each replaced span starts in the new and in the original text, and its lengths.
#[derive(Debug, Default)]
pub struct Rewrite {
    pub text: String,
    /// The marker character of the number strings.
    pub marker: char,
    /// (new offset, original offset) at the start of each replacement, and the byte lengths (new, original).
    edits: Vec<(usize, usize, usize, usize)>,
    /// Byte offsets (original text) and kinds of the extensions used, in file order.
    pub uses: Vec<(usize, Use)>,
}

/// One extension of Python's `json` over RFC 8259.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Use {
    /// `NaN`, `Infinity` or `-Infinity`: not JSON.
    Literal,
    /// A number beyond the float range: JSON, read as ±∞ (or a Python int) by Python.
    Huge,
    /// A lone surrogate escape: JSON grammar, but no Unicode text.
    Surrogate,
}

/// Which extensions a reader reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Read {
    /// The three literals also where an object key goes (Python's json refuses them there; a reader that
    /// replaces them there refuses the marker key itself, with Python's message).
    pub literal_keys: bool,
    /// Numbers beyond the float range ([`Use::Huge`]).
    pub huge: bool,
    /// Lone surrogate escapes ([`Use::Surrogate`]).
    pub surrogates: bool,
}

impl Read {
    /// Every extension (the aij2022 contest JSON).
    pub const ALL: Read = Read {
        literal_keys: true,
        huge: true,
        surrogates: true,
    };
    /// The three literals where a value goes, nothing else (COCO JSON).
    pub const LITERALS: Read = Read {
        literal_keys: false,
        huge: false,
        surrogates: false,
    };
}

/// The first code point of the range lone surrogates are mapped to.
pub const SURROGATE_BASE: u32 = 0x10F800;

/// The lone surrogate a mapped code point stands for (`None` for any other character).
pub fn surrogate_of(c: char) -> Option<u32> {
    (c as u32 >= SURROGATE_BASE).then(|| c as u32 - SURROGATE_BASE + 0xD800)
}

/// The value of a marker string: `Some(text after the marker)` when `s` is one.
pub fn marked(s: &str, marker: char) -> Option<&str> {
    s.strip_prefix(marker)
}

/// The literal a marker string of [`Use::Literal`] stands for (`NaN`, `Infinity`, `-Infinity`), with its value.
pub fn literal_of(s: &str, marker: char) -> Option<(&'static str, f64)> {
    match marked(s, marker)? {
        "N" => Some(("NaN", f64::NAN)),
        "I" => Some(("Infinity", f64::INFINITY)),
        "J" => Some(("-Infinity", f64::NEG_INFINITY)),
        _ => None,
    }
}

fn hex4(b: &[u8]) -> Option<u32> {
    let h = std::str::from_utf8(b.get(..4)?).ok()?;
    h.bytes()
        .all(|c| c.is_ascii_hexdigit())
        .then(|| u32::from_str_radix(h, 16).ok())?
}

/// Rewrites `body` as described in the module comment, replacing the extensions `read` names; `None` when it
/// uses none of them, or holds a character of the range lone surrogates are mapped to while `read` maps them
/// (then the strict parse's error stands).
pub fn rewrite(body: &str, read: Read) -> Option<Rewrite> {
    if read.surrogates && body.chars().any(|c| c as u32 >= SURROGATE_BASE) {
        return None;
    }
    let marker = ('\u{E000}'..='\u{F8FF}').find(|&m| !body.contains(m))?;
    let mut s = Scan {
        body,
        read,
        out: Rewrite {
            text: String::with_capacity(body.len()),
            marker,
            ..Rewrite::default()
        },
        copied: 0,
        open: Vec::new(),
        last: 0,
    };
    let b = body.as_bytes();
    let mut i = 0;
    while i < b.len() {
        i = if b[i] == b'"' {
            s.string(i + 1)?
        } else {
            s.outside(i)
        };
    }
    if s.out.uses.is_empty() {
        return None;
    }
    s.out.text.push_str(&body[s.copied..]);
    Some(s.out)
}

/// The state of one [`rewrite`]: the text written so far and where the scan is in the JSON structure.
struct Scan<'a> {
    body: &'a str,
    read: Read,
    out: Rewrite,
    /// The end (original offset) of what has been copied to `out.text`.
    copied: usize,
    /// The open containers, `true` for an object.
    open: Vec<bool>,
    /// The last significant byte outside strings (`"` after a string or a replacement; 0 at the start).
    last: u8,
}

impl Scan<'_> {
    /// Replaces `body[from..to]` by `with`.
    fn edit(&mut self, from: usize, to: usize, with: &str, u: Use) {
        let out = &mut self.out;
        out.text.push_str(&self.body[self.copied..from]);
        out.edits
            .push((out.text.len(), from, with.len(), to - from));
        out.text.push_str(with);
        out.uses.push((from, u));
        self.copied = to;
    }

    /// Where a value goes (as Python's json reads one): at the start, after `:` or `[`, after `,` in a list.
    fn value_position(&self) -> bool {
        match self.last {
            0 | b':' | b'[' => true,
            b',' => self.open.last() == Some(&false),
            _ => false,
        }
    }

    /// The string whose body starts at `i`, up to its closing quote; returns the offset after it. Lone
    /// surrogate escapes are replaced when read. `None` when one cannot be mapped.
    fn string(&mut self, mut i: usize) -> Option<usize> {
        let b = self.body.as_bytes();
        while i < b.len() {
            match b[i] {
                b'"' => {
                    self.last = b'"';
                    return Some(i + 1);
                }
                b'\\' if b.get(i + 1) == Some(&b'u') => i = self.escape(i)?,
                b'\\' => i += 2,
                _ => i += 1,
            }
        }
        Some(i)
    }

    /// The `\uXXXX` escape at `i` (a surrogate pair, both halves); returns the offset after it.
    fn escape(&mut self, i: usize) -> Option<usize> {
        let b = self.body.as_bytes();
        let Some(u) = hex4(&b[i + 2..]) else {
            return Some(i + 2);
        };
        let pair = (0xD800..0xDC00).contains(&u)
            && b.get(i + 6..i + 8) == Some(b"\\u")
            && hex4(&b[i + 8..]).is_some_and(|v| (0xDC00..0xE000).contains(&v));
        if pair {
            return Some(i + 12);
        }
        if self.read.surrogates && (0xD800..0xE000).contains(&u) {
            let ch = char::from_u32(SURROGATE_BASE + u - 0xD800)?;
            self.edit(i, i + 6, ch.encode_utf8(&mut [0; 4]), Use::Surrogate);
        }
        Some(i + 6)
    }

    /// The byte at `i`, outside strings: a literal, a number or a structural byte; returns the next offset.
    fn outside(&mut self, i: usize) -> usize {
        let (body, marker) = (self.body, self.out.marker);
        let rest = &body.as_bytes()[i..];
        let c = rest[0];
        let lit = [(&b"NaN"[..], 'N'), (b"Infinity", 'I'), (b"-Infinity", 'J')]
            .into_iter()
            .find(|(l, _)| rest.starts_with(l));
        if let Some((l, k)) = lit {
            if self.read.literal_keys || self.value_position() {
                self.edit(i, i + l.len(), &format!("\"{marker}{k}\""), Use::Literal);
                self.last = b'"';
                return i + l.len();
            }
        }
        if c == b'-' || c.is_ascii_digit() {
            let n = number_len(rest);
            self.number(i, n);
            self.last = body.as_bytes()[i + n.max(1) - 1];
            return i + n.max(1);
        }
        match c {
            b'{' => self.open.push(true),
            b'[' => self.open.push(false),
            b'}' | b']' => {
                self.open.pop();
            }
            _ => {}
        }
        if !c.is_ascii_whitespace() {
            self.last = c;
        }
        i + 1
    }

    /// The number `body[i..i + n]`: replaced when beyond the float range (and `read.huge`).
    fn number(&mut self, i: usize, n: usize) {
        let lit = &self.body[i..i + n];
        let huge = match lit.parse::<f64>() {
            Ok(v) => v.is_infinite(),
            Err(_) => false,
        };
        if !(huge && self.read.huge) {
            return;
        }
        let float = lit.contains(['.', 'e', 'E']);
        let neg = lit.starts_with('-');
        let k = match (float, neg) {
            (true, false) => "I".to_string(),
            (true, true) => "J".to_string(),
            (false, false) => format!("B{lit}"),
            (false, true) => format!("b{lit}"),
        };
        let with = format!("\"{}{k}\"", self.out.marker);
        self.edit(i, i + n, &with, Use::Huge);
    }
}

/// The length of the JSON number at the start of `b` (`-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?`, as Python's
/// `NUMBER_RE` reads it: the longest match of each part).
fn number_len(b: &[u8]) -> usize {
    let digits = |from: usize| from + b[from..].iter().take_while(|c| c.is_ascii_digit()).count();
    let mut i = usize::from(b.first() == Some(&b'-'));
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(c) if c.is_ascii_digit() => i = digits(i),
        _ => return i,
    }
    if b.get(i) == Some(&b'.') && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
        i = digits(i + 1);
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        let j = i + 1 + usize::from(matches!(b.get(i + 1), Some(b'+' | b'-')));
        if b.get(j).is_some_and(u8::is_ascii_digit) {
            i = digits(j);
        }
    }
    i
}

impl Rewrite {
    /// The original byte offset of byte offset `at` of the rewritten text (the start of a replacement for an
    /// offset inside one).
    pub fn original(&self, at: usize) -> usize {
        let k = self.edits.partition_point(|e| e.0 <= at);
        match k.checked_sub(1).map(|k| self.edits[k]) {
            None => at,
            Some((new, old, nl, ol)) if at < new + nl => old + (at - new).min(ol),
            Some((new, old, nl, ol)) => old + ol + (at - new - nl),
        }
    }

    /// [`Rewrite::original`], but an offset inside a replacement counts back from its end: serde_json reports
    /// an error about a value (a marker string) at the value's last byte, which then maps to the literal's last.
    pub fn original_from_end(&self, at: usize) -> usize {
        let k = self.edits.partition_point(|e| e.0 <= at);
        match k.checked_sub(1).map(|k| self.edits[k]) {
            Some((new, old, nl, ol)) if at < new + nl => {
                (old + ol).saturating_sub(new + nl - at).max(old)
            }
            _ => self.original(at),
        }
    }
}

/// 1-based line and code-point column of each byte offset of `at` (ascending) in `body`, in one pass.
pub fn line_cols(body: &[u8], at: &[usize]) -> Vec<(u64, u64)> {
    let (mut line, mut start, mut from) = (1u64, 0usize, 0usize);
    at.iter()
        .map(|&a| {
            let a = a.min(body.len());
            for (i, &b) in body[from.min(a)..a].iter().enumerate() {
                if b == b'\n' {
                    line += 1;
                    start = from + i + 1;
                }
            }
            from = from.max(a);
            let col = String::from_utf8_lossy(&body[start.min(a)..a])
                .chars()
                .count() as u64
                + 1;
            (line, col)
        })
        .collect()
}

/// 1-based code-point column from serde_json's 1-based byte column.
pub fn char_column(body: &[u8], line: usize, col: usize) -> u64 {
    let start = line_start(body, line);
    let end = (start + col).min(body.len());
    let seg = &body[start.min(end)..end];
    String::from_utf8_lossy(seg).chars().count().max(1) as u64
}

/// The byte offset where 1-based line `line` starts (the last line's start beyond the last line).
pub fn line_start(body: &[u8], line: usize) -> usize {
    let (mut l, mut start) = (1, 0);
    for (i, &b) in body.iter().enumerate() {
        if l >= line {
            break;
        }
        if b == b'\n' {
            l += 1;
            start = i + 1;
        }
    }
    start
}

/// Line and column (1-based, code points) of each key of the top-level object, in file order.
pub fn top_level_key_positions(body: &[u8]) -> Vec<(u64, u64)> {
    let mut out = Vec::new();
    let (mut line, mut col) = (1u64, 0u64);
    let mut depth = 0i64;
    let mut in_str = false;
    let mut esc = false;
    // At depth 1, a string that starts after `{` or `,` is a key.
    let mut expect_key = false;
    for &c in body {
        // Columns count code points: UTF-8 continuation bytes do not start one.
        if c & 0xC0 == 0x80 {
            continue;
        }
        if c == b'\n' {
            line += 1;
            col = 0;
        } else {
            col += 1;
        }
        if in_str {
            if esc {
                esc = false;
            } else if c == b'\\' {
                esc = true;
            } else if c == b'"' {
                in_str = false;
            }
            continue;
        }
        match c {
            b'"' => {
                if depth == 1 && expect_key {
                    out.push((line, col));
                    expect_key = false;
                }
                in_str = true;
            }
            b'{' | b'[' => {
                depth += 1;
                if depth == 1 && c == b'{' {
                    expect_key = true;
                }
            }
            b'}' | b']' => depth -= 1,
            b',' if depth == 1 => expect_key = true,
            _ => {}
        }
    }
    out
}
