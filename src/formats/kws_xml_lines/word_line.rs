//! rusteval's word-line reader (`parse_tokenstring_fast` in rusteval v0.5's `src/main.rs`), reproduced: the
//! values it reads from one `<word …/>` line, and where it panics.

use super::super::kws_xml::{Docs, Word};
use crate::diag::excerpt;

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
pub(super) fn word_line_ascii(b: &[u8], docs: &mut Docs) -> Option<Word> {
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
    let q = Quotes::of(line)?;
    let mut shifted: Option<u64> = None;
    let mut value = |k: usize| -> Result<&str, Panic> {
        let v = q.value(line, k)?;
        if !q.ascii && shifted.is_none() && v != q.true_value(line, k) {
            shifted = Some(q.ends[k][0] as u64 + 2);
        }
        Ok(v)
    };
    let document: std::rc::Rc<str> = value(0)?.into();
    let mut coord = |k: usize| -> Result<u32, Panic> {
        value(k)?.parse::<u32>().map_err(|e| Panic {
            message: format!("called `Result::unwrap()` on an `Err` value: {e:?}"),
            column: q.ends[k][0] as u64 + 2,
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
        if q.ends[k][1] == 0 {
            break;
        }
        // The character two before the opening quote: the last letter of the attribute name.
        let c = line.chars().nth(q.ends[k][0].wrapping_sub(2));
        let v = value(k)?;
        match c {
            Some('e') => {
                let r = relevance(v, q.ends[k][0] as u64 + 2)?;
                word.relevance = Some(r as f64);
                word.relevance_text = Some(v.to_string());
            }
            Some('t') => {}
            _ => {
                return Err(Panic {
                    message: "Unidentified token field".into(),
                    column: q.ends[k][0] as u64 + 1,
                    hint: "The 6th and 7th values must be Relevance or Text.",
                })
            }
        }
    }
    Ok((word, shifted))
}

/// The quotes of a word line, in pairs (at most 7: the 15th quote panics in rusteval).
struct Quotes {
    /// (char index, char index) of the opening and closing quote of each pair.
    ends: [[usize; 2]; 7],
    /// The same as byte indices.
    byte_ends: [[usize; 2]; 7],
    ascii: bool,
}

impl Quotes {
    fn of(line: &str) -> Result<Quotes, Panic> {
        let ascii = line.is_ascii();
        let mut q = Quotes {
            ends: [[0; 2]; 7],
            byte_ends: [[0; 2]; 7],
            ascii,
        };
        let (mut next, mut inv) = (0usize, 0usize);
        let mut push = |n: usize, b: usize| -> Result<(), Panic> {
            if next >= 7 {
                return Err(Panic {
                    message: "index out of bounds: the len is 7 but the index is 7".into(),
                    column: n as u64 + 1,
                    hint: "A <word> line may hold at most 7 quoted values (document, x, y, width, height, Relevance, Text).",
                });
            }
            q.ends[next][inv] = n;
            q.byte_ends[next][inv] = b;
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
        Ok(q)
    }
    /// The value of pair `k` as rusteval slices it (char positions as byte offsets).
    fn value<'l>(&self, line: &'l str, k: usize) -> Result<&'l str, Panic> {
        rust_slice(line, self.ends[k][0] + 1, self.ends[k][1])
    }
    /// The text between the quotes of pair `k`.
    fn true_value<'l>(&self, line: &'l str, k: usize) -> &'l str {
        line.get(self.byte_ends[k][0] + 1..self.byte_ends[k][1])
            .unwrap_or("")
    }
}

/// A Relevance value as rusteval reads it (an `f32`, in (0, 1]); the panic at `column` otherwise.
fn relevance(v: &str, column: u64) -> Result<f32, Panic> {
    let r: f32 = v.parse().map_err(|e| Panic {
        message: format!("called `Result::unwrap()` on an `Err` value: {e:?}"),
        column,
        hint: "Relevance must be a decimal number in (0, 1].",
    })?;
    if r <= 0.0 || r > 1.0 {
        return Err(Panic {
            message: "Invalid value for relevance".into(),
            column,
            hint: "rusteval only accepts Relevance in (0, 1]; remove non-relevant entries, or use corrected mode.",
        });
    }
    Ok(r)
}

/// `&s[a..b]` with Rust's panics turned into errors (messages as Rust prints them).
fn rust_slice(s: &str, a: usize, b: usize) -> Result<&str, Panic> {
    if let Some(v) = s.get(a..b) {
        return Ok(v);
    }
    let len = s.len();
    let col = |byte: usize| super::super::lines::column_of(s.as_bytes(), byte.min(len));
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
pub(super) fn attribute_order_ok(line: &str) -> bool {
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
