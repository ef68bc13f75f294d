//! ICFHR'14 XML read the way rusteval v0.5 reads it (`official` mode, specs/kws.md 2.4): not as XML, but
//! line by line (`BufRead::lines`), with a two-state machine and a positional word-line reader
//! (`parse_tokenstring_fast` in rusteval's `src/main.rs`). Wherever rusteval gives a number, this gives the
//! same number; wherever rusteval panics, this gives a located `kws.official.reader_panic` error and goes on,
//! so that every problem of the file is reported at once.

use super::kws_xml::{Block, Docs, Kind, OnBlock, Word};
use super::lines::Lines;
use crate::diag::{excerpt, Diagnostic, Diags};
use std::io::BufRead;

const OFFICIAL_PANIC: &str = "rusteval panics";

/// Reads every block; `on_block` is called when a block closes (results are scored there).
pub fn read(
    input: impl BufRead,
    file: &str,
    kind: Kind,
    diags: &mut Diags,
    progress: &mut dyn FnMut(u64),
    on_block: &mut OnBlock,
) {
    let (open_pat, close_pat): (&[u8], &[u8]) = match kind {
        Kind::Gt => (b"<GTRel queryid=\"", b"</GTRel>"),
        Kind::Results => (b"<Rel queryid=\"", b"</Rel>"),
    };
    let open_finder = memchr::memmem::Finder::new(open_pat);
    let close_finder = memchr::memmem::Finder::new(close_pat);
    let mut lines = Lines::lf_only(input);
    let mut current: Option<Block> = None;
    let mut order_warned = false;
    let mut no = 0u64;
    let mut docs = Docs::default();
    let mut last_len = 0usize;
    loop {
        if no % 8192 == 0 {
            progress(lines.consumed());
        }
        no += 1;
        let line = match lines.next_line() {
            Ok(Some(l)) => l,
            Ok(None) => break,
            Err(e) => {
                diags.push(Diagnostic::read_error(file, e).line(no));
                break;
            }
        };
        if let Some(block) = current.as_mut() {
            // The first word of each block goes the slow way: it is checked for attribute order.
            if (order_warned || !block.words.is_empty()) && close_finder.find(line).is_none() {
                if let Some(w) = word_line_ascii(line, &mut docs) {
                    block.words.push(Word { line: no, ..w });
                    continue;
                }
            }
        }
        let text: std::borrow::Cow<str> = match std::str::from_utf8(line) {
            Ok(s) => s.into(),
            Err(e) => {
                diags.push(
                    Diagnostic::error("kws.official.invalid_utf8", "invalid UTF-8")
                        .file(file)
                        .at(no, super::lines::column_of(line, e.valid_up_to()))
                        .expected("UTF-8 text")
                        .found(format!("byte 0x{:02X}", line[e.valid_up_to()]))
                        .hint("Save the file as UTF-8.")
                        .official("rusteval panics (stream did not contain valid UTF-8)"),
                );
                if let Some(b) = current.as_mut() {
                    b.broken = true;
                }
                String::from_utf8_lossy(line).into_owned().into()
            }
        };
        let bytes = text.as_bytes();
        match current.as_mut() {
            None => {
                if let Some(i) = open_finder.find(bytes) {
                    let start = i + open_pat.len();
                    match memchr::memmem::find(&bytes[start..], b"\">") {
                        Some(j) => {
                            current = Some(Block {
                                query: text[start..start + j].to_string(),
                                line: no,
                                // Lists tend to have one length: no regrowth after the first block.
                                words: Vec::with_capacity(last_len.min(1 << 16)),
                                ..Block::default()
                            });
                            continue;
                        }
                        None => not_recognised(diags, file, no, &text, i, kind),
                    }
                } else if let Some(i) = looks_like_open(bytes, kind) {
                    not_recognised(diags, file, no, &text, i, kind);
                }
            }
            Some(block) => {
                if close_finder.find(bytes).is_some() {
                    if let Some(b) = current.take() {
                        last_len = b.words.len();
                        on_block(b, diags);
                    }
                    continue;
                }
                match word_line(&text) {
                    Ok((w, shifted)) => {
                        if !order_warned && block.words.is_empty() && !attribute_order_ok(&text) {
                            order_warned = true;
                            diags.push(
                                Diagnostic::warning("kws.official.attribute_order", "attributes are not in the order document, x, y, width, height")
                                    .file(file)
                                    .line(no)
                                    .expected("document=\"…\" x=\"…\" y=\"…\" width=\"…\" height=\"…\"")
                                    .found(excerpt(text.trim()))
                                    .hint("rusteval reads values by position: write the attributes in this order, or use corrected mode.")
                                    .official("values are read by position, so every match fails silently"),
                            );
                        }
                        if let Some(col) = shifted {
                            diags.push(
                                Diagnostic::warning("kws.official.shifted_value", "non-ASCII text shifts rusteval's value positions")
                                    .file(file)
                                    .at(no, col)
                                    .hint("Avoid non-ASCII characters before the last attribute, or use corrected mode.")
                                    .official("reads a value at character positions used as byte offsets"),
                            );
                        }
                        block.words.push(Word { line: no, ..w });
                    }
                    Err(p) => {
                        block.broken = true;
                        diags.push(
                            Diagnostic::error("kws.official.reader_panic", format!("the official scorer stops on this line: {}", p.plain()))
                                .file(file)
                                .at(no, p.column)
                                .expected("a <word …/> line with 5 to 7 double-quoted values: document, x, y, width, height[, Relevance][, Text]")
                                .found(if text.trim().is_empty() { "blank line".to_string() } else { excerpt(text.trim()) })
                                .hint(p.hint)
                                .official(format!("{OFFICIAL_PANIC} on this line (an internal error of the program, not a message meant for participants) and prints no score")),
                        );
                    }
                }
            }
        }
    }
    if let Some(b) = current.take() {
        diags.push(super::kws_xml::unclosed(file, kind, &b, true));
    }
    progress(lines.consumed());
}

/// A line that opens a block in XML terms but not in rusteval's literal terms.
fn looks_like_open(bytes: &[u8], kind: Kind) -> Option<usize> {
    let tag: &[u8] = match kind {
        Kind::Gt => b"<GTRel",
        Kind::Results => b"<Rel",
    };
    memchr::memmem::find_iter(bytes, tag)
        .find(|&i| matches!(bytes.get(i + tag.len()), Some(b' ' | b'\t' | b'>' | b'/')))
}

fn not_recognised(diags: &mut Diags, file: &str, no: u64, text: &str, at: usize, kind: Kind) {
    let single = text.contains("queryid='");
    diags.push(
        Diagnostic::warning("kws.official.tag_not_recognised", format!("rusteval does not recognise this <{}> opening tag: its block is ignored", kind.tag()))
            .file(file)
            .at(no, super::lines::column_of(text.as_bytes(), at))
            .expected(format!("<{} queryid=\"…\"> written literally", kind.tag()))
            .found(excerpt(text.trim()))
            .hint(if single { "Use double quotes: rusteval only recognises queryid=\"…\"." } else { "Write the tag exactly as <Rel queryid=\"…\"> (no space before >), or use corrected mode." })
            .official("the block is silently ignored"),
    );
}

/// Why rusteval panics on a word line.
#[derive(Debug, PartialEq)]
pub struct Panic {
    pub message: String,
    pub column: u64,
    pub hint: &'static str,
}

impl Panic {
    /// What is wrong with the line, in plain words (the panic text itself is Rust's, not for participants).
    pub fn plain(&self) -> &'static str {
        let m = self.message.as_str();
        if m.starts_with("index out of bounds") {
            "it has more than 7 quoted values"
        } else if m.starts_with("called `Result::unwrap()`") && self.hint.starts_with("Relevance") {
            "its Relevance is not a number"
        } else if m.starts_with("called `Result::unwrap()`") {
            "x, y, width or height is not a whole number"
        } else if m == "Invalid value for relevance" {
            "its Relevance is not in (0, 1]"
        } else if m == "Unidentified token field" {
            "its 6th or 7th value is neither Relevance nor Text"
        } else if m.ends_with("out of bounds of ``") {
            "the line is blank"
        } else if m.starts_with("begin <= end") {
            "it has fewer than 5 quoted values"
        } else {
            "non-ASCII text moves the places where it reads the values"
        }
    }
}

/// rusteval's `parse_tokenstring_fast`: the positions of up to 7 pairs of `"` are counted in characters and
/// then used as byte offsets. Returns the word and, when that mix-up changed a value, the column where it did.
pub fn word_line(line: &str) -> Result<(Word, Option<u64>), Panic> {
    if let Some(w) = word_line_ascii(line.as_bytes(), &mut Docs::default()) {
        return Ok((w, None));
    }
    word_line_exact(line)
}

/// The common case in one pass: an ASCII line with 5 to 7 well-formed values. `None` sends anything else to
/// the exact emulation (which gives the same word for every line this accepts).
fn word_line_ascii(b: &[u8], docs: &mut Docs) -> Option<Word> {
    let mut q = [0usize; 14];
    let n = quote_positions(b, &mut q)?;
    if n < 10 || n % 2 == 1 {
        return None;
    }
    let val = |k: usize| -> &[u8] { &b[q[2 * k] + 1..q[2 * k + 1]] };
    let num = |k: usize| parse_u32(val(k));
    let mut w = Word {
        document: docs.get(val(0))?,
        x: num(1)?,
        y: num(2)?,
        width: num(3)?,
        height: num(4)?,
        relevance: None,
        relevance_text: None,
        line: 0,
    };
    for k in 5..n / 2 {
        let at = q[2 * k].checked_sub(2)?;
        match b[at] {
            b'e' => {
                let t = std::str::from_utf8(val(k)).ok()?;
                let r: f32 = t.parse().ok()?;
                if r <= 0.0 || r > 1.0 {
                    return None;
                }
                w.relevance = Some(r as f64);
                w.relevance_text = Some(t.to_string());
            }
            b't' => {}
            _ => return None,
        }
    }
    Some(w)
}

/// Byte positions of the `"` in an ASCII line, eight bytes at a time (SWAR). `None` when the line is not
/// ASCII or holds more than 14 quotes (both go to the exact emulation).
fn quote_positions(b: &[u8], q: &mut [usize; 14]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const LO7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let mut n = 0usize;
    let mut push = |pos: usize| -> Option<()> {
        *q.get_mut(n)? = pos;
        n += 1;
        Some(())
    };
    let mut chunks = b.chunks_exact(8);
    let mut base = 0usize;
    for c in &mut chunks {
        let mut a = [0u8; 8];
        a.copy_from_slice(c);
        let w = u64::from_le_bytes(a);
        if w & HIGH != 0 {
            return None;
        }
        // High bit set exactly in the bytes equal to `"` (no borrow crosses bytes: (x & 0x7f) + 0x7f <= 0xfe).
        let x = w ^ (ONES * b'"' as u64);
        let mut m = !(((x & LO7) + LO7) | x | LO7);
        while m != 0 {
            push(base + (m.trailing_zeros() / 8) as usize)?;
            m &= m - 1;
        }
        base += 8;
    }
    for (i, c) in chunks.remainder().iter().enumerate() {
        if *c >= 0x80 {
            return None;
        }
        if *c == b'"' {
            push(base + i)?;
        }
    }
    Some(n)
}

/// Rust's `u32::from_str` on ASCII: an optional `+`, then one or more decimal digits, no overflow.
fn parse_u32(v: &[u8]) -> Option<u32> {
    let digits = v.strip_prefix(b"+").unwrap_or(v);
    if digits.is_empty() {
        return None;
    }
    let mut n: u32 = 0;
    for d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        n = n.checked_mul(10)?.checked_add((d - b'0') as u32)?;
    }
    Some(n)
}

fn word_line_exact(line: &str) -> Result<(Word, Option<u64>), Panic> {
    // (char index, byte index) of every quote, at most 14 (the 15th panics in rusteval).
    let mut ends = [[0usize; 2]; 7];
    let mut byte_ends = [[0usize; 2]; 7];
    let (mut next, mut inv) = (0usize, 0usize);
    let ascii = line.is_ascii();
    let mut push = |n: usize, b: usize| -> Result<(), Panic> {
        if next >= 7 {
            return Err(Panic {
                message: "index out of bounds: the len is 7 but the index is 7".into(),
                column: n as u64 + 1,
                hint: "A <word> line may hold at most 7 quoted values (document, x, y, width, height, Relevance, Text).",
            });
        }
        ends[next][inv] = n;
        byte_ends[next][inv] = b;
        inv = 1 - inv;
        if inv == 0 {
            next += 1;
        }
        Ok(())
    };
    if ascii {
        for b in memchr::memchr_iter(b'"', line.as_bytes()) {
            push(b, b)?;
        }
    } else {
        for (n, (b, c)) in line.char_indices().enumerate() {
            if c == '"' {
                push(n, b)?;
            }
        }
    }
    // The value of pair k as rusteval slices it (char positions as byte offsets).
    let slice = |k: usize| -> Result<&str, Panic> { rust_slice(line, ends[k][0] + 1, ends[k][1]) };
    let true_value =
        |k: usize| -> &str { line.get(byte_ends[k][0] + 1..byte_ends[k][1]).unwrap_or("") };
    let mut shifted: Option<u64> = None;
    let mut note_shift = |k: usize, v: &str| {
        if !ascii && shifted.is_none() && v != true_value(k) {
            shifted = Some(ends[k][0] as u64 + 2);
        }
    };
    let document: std::rc::Rc<str> = slice(0)?.into();
    note_shift(0, &document);
    let mut coord = |k: usize| -> Result<u32, Panic> {
        let s = slice(k)?;
        note_shift(k, s);
        s.parse::<u32>().map_err(|e| Panic {
            message: format!("called `Result::unwrap()` on an `Err` value: {e:?}"),
            column: ends[k][0] as u64 + 2,
            hint: "x, y, width and height must be non-negative whole numbers, in this order, in double quotes.",
        })
    };
    let (x, y, width, height) = (coord(1)?, coord(2)?, coord(3)?, coord(4)?);
    let mut word = Word {
        document,
        x,
        y,
        width,
        height,
        relevance: None,
        relevance_text: None,
        line: 0,
    };
    for k in [5usize, 6] {
        if ends[k][1] == 0 {
            break;
        }
        // The character two before the opening quote: the last letter of the attribute name.
        let c = line.chars().nth(ends[k][0].wrapping_sub(2));
        let value = slice(k)?;
        note_shift(k, value);
        match c {
            Some('e') => {
                let r: f32 = value.parse().map_err(|e| Panic {
                    message: format!("called `Result::unwrap()` on an `Err` value: {e:?}"),
                    column: ends[k][0] as u64 + 2,
                    hint: "Relevance must be a decimal number in (0, 1].",
                })?;
                if r <= 0.0 || r > 1.0 {
                    return Err(Panic {
                        message: "Invalid value for relevance".into(),
                        column: ends[k][0] as u64 + 2,
                        hint: "rusteval only accepts Relevance in (0, 1]; remove non-relevant entries, or use corrected mode.",
                    });
                }
                word.relevance = Some(r as f64);
                word.relevance_text = Some(value.to_string());
            }
            Some('t') => {}
            _ => {
                return Err(Panic {
                    message: "Unidentified token field".into(),
                    column: ends[k][0] as u64 + 1,
                    hint: "The 6th and 7th values must be Relevance or Text.",
                })
            }
        }
    }
    Ok((word, shifted))
}

/// `&s[a..b]` with Rust's panics turned into errors (messages as Rust prints them).
fn rust_slice(s: &str, a: usize, b: usize) -> Result<&str, Panic> {
    if let Some(v) = s.get(a..b) {
        return Ok(v);
    }
    let len = s.len();
    let col = |byte: usize| super::lines::column_of(s.as_bytes(), byte.min(len));
    let hint_ascii = "Non-ASCII characters before a quoted value break rusteval's reader: remove them, or use corrected mode.";
    Err(if a > len {
        Panic {
            message: format!("start byte index {a} is out of bounds of `{}`", excerpt(s)),
            column: col(len),
            hint: if len == 0 {
                "Remove blank lines inside blocks, or use corrected mode."
            } else {
                hint_ascii
            },
        }
    } else if b > len {
        Panic {
            message: format!("end byte index {b} is out of bounds of `{}`", excerpt(s)),
            column: col(len),
            hint: hint_ascii,
        }
    } else if a > b {
        Panic {
            message: format!("begin <= end ({a} <= {b}) when slicing `{}`", excerpt(s)),
            column: col(a),
            hint: "A <word> line needs at least 5 double-quoted values.",
        }
    } else {
        let bad = if !s.is_char_boundary(a) { a } else { b };
        let start = (0..=bad)
            .rev()
            .find(|i| s.is_char_boundary(*i))
            .unwrap_or(0);
        let ch = s[start..].chars().next().unwrap_or('?');
        Panic {
            message: format!(
                "byte index {bad} is not a char boundary; it is inside {ch:?} (bytes {start}..{})",
                start + ch.len_utf8()
            ),
            column: col(start),
            hint: hint_ascii,
        }
    })
}

/// True when the first five quoted values are document, x, y, width, height (by the names before them).
fn attribute_order_ok(line: &str) -> bool {
    let mut names = Vec::new();
    let mut rest = line;
    while let Some(eq) = rest.find("=\"") {
        let before = &rest[..eq];
        let name = before
            .rsplit(|c: char| c.is_whitespace() || c == '<')
            .next()
            .unwrap_or("");
        names.push(name);
        match rest[eq + 2..].find('"') {
            Some(end) => rest = &rest[eq + 2 + end + 1..],
            None => break,
        }
        if names.len() == 5 {
            break;
        }
    }
    names.len() < 5 || names == ["document", "x", "y", "width", "height"]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_word_line() {
        let (w, s) = word_line(r#"    <word document="027_029_001" x="159" y="1775" width="184" height="89" Relevance="0.9" />"#).unwrap();
        assert_eq!(
            (&*w.document, w.x, w.y, w.width, w.height),
            ("027_029_001", 159, 1775, 184, 89)
        );
        assert_eq!(w.relevance, Some(0.9f32 as f64));
        assert_eq!(s, None);
    }

    #[test]
    fn typo_elevance_reads_as_relevance() {
        let (w, _) =
            word_line(r#"<word document="d" x="1" y="2" width="3" height="4" elevance="1" />"#)
                .unwrap();
        assert_eq!(w.relevance, Some(1.0));
    }

    #[test]
    fn panics_become_errors() {
        assert!(word_line("").unwrap_err().message.contains("out of bounds"));
        assert!(word_line(r#"<word document="d" x="-1" y="2" width="3" height="4"/>"#).is_err());
        assert_eq!(
            word_line(r#"<word document="d" x="1" y="2" width="3" height="4" Relevance="0"/>"#)
                .unwrap_err()
                .message,
            "Invalid value for relevance"
        );
        assert_eq!(
            word_line(r#"<word document="d" x="1" y="2" width="3" height="4" Score="0.5"/>"#)
                .unwrap()
                .0
                .relevance,
            Some(0.5)
        );
        assert_eq!(
            word_line(r#"<word document="d" x="1" y="2" width="3" height="4" foo="0.5"/>"#)
                .unwrap_err()
                .message,
            "Unidentified token field"
        );
        let e = word_line("    <word document=\"d1\" x=\"20\" y=\"20\" width=\"5\" height=\"5\" Text=\"Bentham\u{2019}s\" Relevance=\"0.5\" />").unwrap_err();
        assert!(e.message.contains("not a char boundary"), "{}", e.message);
        assert!(e.message.contains("byte index 74"), "{}", e.message);
    }

    #[test]
    fn fast_path_agrees_with_exact_emulation() {
        for l in [
            r#"<word document="d" x="1" y="2" width="3" height="4" />"#,
            r#"<word document="d" x="1" y="2" width="3" height="4" Relevance="0.7" Text="ab" />"#,
            r#"<word document="d" x="1" y="2" width="3" height="4" Text="ab" Relevance="1" />"#,
            r#"<word document="" x="+1" y="2" width="3" height="4" elevance="1e0"/>"#,
        ] {
            assert_eq!(
                word_line_ascii(l.as_bytes(), &mut Docs::default()),
                Some(word_line_exact(l).unwrap().0),
                "{l}"
            );
        }
        for v in [
            "0",
            "+7",
            "4294967295",
            "4294967296",
            "",
            "+",
            "-1",
            "1a",
            "00012",
        ] {
            assert_eq!(parse_u32(v.as_bytes()), v.parse::<u32>().ok(), "{v}");
        }
        for l in [
            "",
            r#"<word document="d" x="1" y="2" width="3" height="4" Relevance="0" />"#,
            r#"<word document="d" x="a" y="2" width="3" height="4"/>"#,
        ] {
            assert_eq!(
                word_line_ascii(l.as_bytes(), &mut Docs::default()),
                None,
                "{l}"
            );
        }
    }

    #[test]
    fn swapped_attributes_read_by_position() {
        let (w, _) = word_line(r#"<word document="d" y="2" x="1" width="3" height="4"/>"#).unwrap();
        assert_eq!((w.x, w.y), (2, 1));
        assert!(!attribute_order_ok(
            r#"<word document="d" y="2" x="1" width="3" height="4"/>"#
        ));
    }
}
