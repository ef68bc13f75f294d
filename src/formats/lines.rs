//! Streaming line splitting shared by the text readers: `\n`, `\r\n` and lone `\r` all end a line
//! (specs README, "Inputs"). Lines are handed out as byte slices, 1-based numbered, without their ending;
//! nothing but the current line is held, and a line longer than the field limit (1/32 of the memory budget,
//! 64 MiB by default) is refused at its line instead of being buffered.

use std::io::{self, BufRead};

pub struct Lines<R> {
    inner: R,
    buf: Vec<u8>,
    line_no: u64,
    consumed: u64,
    /// The previous line ended with a lone `\r`: drop a `\n` that starts the next read.
    pending_cr: bool,
    /// Treat a lone `\r` as a line end (false for readers that emulate a tool that only splits at `\n`).
    cr_breaks: bool,
    /// Longest line held ([`crate::budget::Budget::field_limit`]).
    max_line: usize,
}

impl<R: BufRead> Lines<R> {
    pub fn new(inner: R) -> Self {
        Lines {
            inner,
            buf: Vec::with_capacity(256),
            line_no: 0,
            consumed: 0,
            pending_cr: false,
            cr_breaks: true,
            max_line: crate::budget::Budget::default().field_limit() as usize,
        }
    }
    /// Sets the longest line held (the budget's field limit, [`crate::budget::Budget::field_limit`]).
    pub fn max_line(mut self, bytes: u64) -> Self {
        self.max_line = usize::try_from(bytes).unwrap_or(usize::MAX);
        self
    }
    /// Splits at `\n` only and strips one trailing `\r` (Rust's `BufRead::lines`).
    pub fn lf_only(inner: R) -> Self {
        Lines {
            cr_breaks: false,
            ..Self::new(inner)
        }
    }
    /// Bytes consumed so far (for progress).
    pub fn consumed(&self) -> u64 {
        self.consumed
    }
    pub fn line_no(&self) -> u64 {
        self.line_no
    }

    /// The next line, or `None` at end of input.
    pub fn next_line(&mut self) -> io::Result<Option<&[u8]>> {
        self.buf.clear();
        let mut saw_any = false;
        loop {
            let chunk = match self.inner.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                break;
            }
            let mut start = 0;
            if self.pending_cr {
                self.pending_cr = false;
                if chunk[0] == b'\n' {
                    start = 1;
                }
            }
            let rest = &chunk[start..];
            let hit = if self.cr_breaks {
                memchr::memchr2(b'\n', b'\r', rest)
            } else {
                memchr::memchr(b'\n', rest)
            };
            match hit {
                Some(i) => {
                    if self.buf.len() + i > self.max_line {
                        return Err(crate::budget::line_too_long(
                            self.line_no + 1,
                            self.max_line as u64,
                        ));
                    }
                    self.buf.extend_from_slice(&rest[..i]);
                    let end = rest[i];
                    let mut used = start + i + 1;
                    if end == b'\r' {
                        if i + 1 < rest.len() {
                            if rest[i + 1] == b'\n' {
                                used += 1;
                            }
                        } else {
                            self.pending_cr = true;
                        }
                    }
                    self.inner.consume(used);
                    self.consumed += used as u64;
                    self.line_no += 1;
                    if !self.cr_breaks && self.buf.last() == Some(&b'\r') {
                        self.buf.pop();
                    }
                    return Ok(Some(&self.buf));
                }
                None => {
                    if self.buf.len() + rest.len() > self.max_line {
                        return Err(crate::budget::line_too_long(
                            self.line_no + 1,
                            self.max_line as u64,
                        ));
                    }
                    self.buf.extend_from_slice(rest);
                    let n = chunk.len();
                    self.inner.consume(n);
                    self.consumed += n as u64;
                    saw_any = true;
                }
            }
        }
        if saw_any || !self.buf.is_empty() {
            self.line_no += 1;
            if !self.cr_breaks && self.buf.last() == Some(&b'\r') {
                self.buf.pop();
            }
            Ok(Some(&self.buf))
        } else {
            Ok(None)
        }
    }
}

/// The lines of an in-memory buffer, split as [`Lines::new`] splits them (at `\n`, `\r\n` or a lone `\r`; a
/// last line without an end counts), but borrowed from the buffer instead of copied.
pub struct SliceLines<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> SliceLines<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        SliceLines { data, pos: 0 }
    }
    /// The next line, or `None` at the end.
    pub fn next_line(&mut self) -> Option<&'a [u8]> {
        let rest = self.data.get(self.pos..).filter(|r| !r.is_empty())?;
        match memchr::memchr2(b'\n', b'\r', rest) {
            Some(i) => {
                let mut used = i + 1;
                if rest[i] == b'\r' && rest.get(i + 1) == Some(&b'\n') {
                    used += 1;
                }
                self.pos += used;
                Some(&rest[..i])
            }
            None => {
                self.pos = self.data.len();
                Some(rest)
            }
        }
    }
}

/// Strips a UTF-8 byte-order mark.
pub fn strip_bom(b: &[u8]) -> &[u8] {
    b.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(b)
}

/// 1-based column (in Unicode scalar values) of byte offset `byte` in `line` (lossy for invalid UTF-8).
pub fn column_of(line: &[u8], byte: usize) -> u64 {
    let upto = &line[..byte.min(line.len())];
    String::from_utf8_lossy(upto).chars().count() as u64 + 1
}

/// Checks UTF-8; on failure returns the 1-based column of the first invalid byte.
pub fn utf8(line: &[u8]) -> Result<&str, u64> {
    std::str::from_utf8(line).map_err(|e| column_of(line, e.valid_up_to()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8], lf_only: bool) -> Vec<String> {
        let mut l = if lf_only {
            Lines::lf_only(io::BufReader::with_capacity(2, input))
        } else {
            Lines::new(io::BufReader::with_capacity(2, input))
        };
        let mut v = Vec::new();
        while let Some(x) = l.next_line().unwrap() {
            v.push(String::from_utf8_lossy(x).into_owned());
        }
        v
    }

    #[test]
    fn line_ends() {
        assert_eq!(all(b"a\r\nb\rc\nd", false), vec!["a", "b", "c", "d"]);
        assert_eq!(all(b"a\r\n\r\nb\n", false), vec!["a", "", "b"]);
        assert_eq!(all(b"a\rb\r\nc", true), vec!["a\rb", "c"]);
        assert_eq!(all(b"", false), Vec::<String>::new());
        assert_eq!(all(b"\n", false), vec![""]);
    }

    #[test]
    fn long_lines_are_refused_at_their_line() {
        let data = b"ok\n0123456789\nnext\n";
        let mut l = Lines::new(io::BufReader::with_capacity(3, &data[..])).max_line(8);
        assert_eq!(l.next_line().unwrap(), Some(&b"ok"[..]));
        let err = l.next_line().unwrap_err();
        let e = err.to_string();
        assert!(
            e.starts_with("line 2 is longer than the field limit"),
            "{e}"
        );
        assert!(crate::budget::is_limit(&err));
    }

    #[test]
    fn slice_lines_split_as_lines_does() {
        let cases: [&[u8]; 9] = [
            b"",
            b"a",
            b"a\nb\n",
            b"a\r\nb\rc\n\n",
            b"\r\r\n\n",
            b"x\r",
            b"\n",
            b"a b\t1\r\n\r\nlast",
            b"\xEF\xBB\xBFid 0.5\r",
        ];
        for data in cases {
            let mut a = Lines::new(data);
            let mut b = SliceLines::new(data);
            loop {
                let x = a.next_line().unwrap().map(|l| l.to_vec());
                let y = b.next_line().map(|l| l.to_vec());
                assert_eq!(x, y, "{data:?}");
                if x.is_none() {
                    break;
                }
            }
        }
    }
}
