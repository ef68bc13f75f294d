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

/// A reader that notes where its lines end as bytes pass through it, so that a record found at a byte offset
/// (as the `csv` crate reports it) is given its true line number. The `csv` crate counts only `\n`, and
/// counts it when it reads on, so after a `\r\n` (or a blank line, which it skips) a record's own line number
/// is one or more too low (csv 1.3, `Position::line`). Here `\n`, `\r\n` and a lone `\r` each end one line,
/// as [`Lines`] reads them. Only the line ends not yet asked about are held (those of the read-ahead buffer).
pub struct LineCount<R> {
    inner: R,
    pos: u64,
    state: std::cell::RefCell<Ends>,
}

/// Runs of line-end bytes (`\r`, `\n`) seen and not yet asked about: `(start, end, line ends in the run)`.
#[derive(Default)]
struct Ends {
    runs: std::collections::VecDeque<(u64, u64, u64)>,
    /// Line ends before the first held run.
    before: u64,
    /// The byte before the next one read was `\r` (a `\n` after it ends no new line).
    after_cr: bool,
}

impl<R> LineCount<R> {
    pub fn new(inner: R) -> Self {
        LineCount {
            inner,
            pos: 0,
            state: Default::default(),
        }
    }
    /// The 1-based line of the record that starts at byte `byte` (offsets asked in increasing order). A
    /// record the `csv` crate places at a line end (the `\n` of `\r\n`, or blank lines it skipped) starts
    /// after those line ends.
    pub fn line_at(&self, byte: u64) -> u64 {
        let mut s = self.state.borrow_mut();
        while let Some(&(_, end, n)) = s.runs.front() {
            if end > byte {
                break;
            }
            s.before += n;
            s.runs.pop_front();
        }
        match s.runs.front() {
            Some(&(start, _, n)) if start <= byte => s.before + n + 1,
            _ => s.before + 1,
        }
    }
    /// Gives `rec` the line of its first byte (see [`LineCount::line_at`]).
    pub fn fix(&self, rec: &mut csv::ByteRecord) {
        if let Some(p) = rec.position() {
            let mut p = p.clone();
            p.set_line(self.line_at(p.byte()));
            rec.set_position(Some(p));
        }
    }
    fn note(&mut self, bytes: &[u8]) {
        let mut s = self.state.borrow_mut();
        let mut i = 0;
        while let Some(k) = memchr::memchr2(b'\n', b'\r', &bytes[i..]) {
            let at = self.pos + (i + k) as u64;
            if k > 0 {
                s.after_cr = false;
            }
            let b = bytes[i + k];
            let ends = u64::from(b == b'\r' || !s.after_cr);
            s.after_cr = b == b'\r';
            match s.runs.back_mut() {
                Some(run) if run.1 == at => {
                    run.1 = at + 1;
                    run.2 += ends;
                }
                _ => s.runs.push_back((at, at + 1, ends)),
            }
            i += k + 1;
        }
        if i < bytes.len() {
            s.after_cr = false;
        }
        drop(s);
        self.pos += bytes.len() as u64;
    }
}

impl<R: io::Read> io::Read for LineCount<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.note(&buf[..n]);
        Ok(n)
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

    /// The line of each record the `csv` crate reads, through [`LineCount`].
    fn csv_lines(input: &[u8]) -> Vec<u64> {
        let mut rdr = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .buffer_capacity(3)
            .from_reader(LineCount::new(input));
        let mut rec = csv::ByteRecord::new();
        let mut out = Vec::new();
        while rdr.read_byte_record(&mut rec).unwrap() {
            rdr.get_ref().fix(&mut rec);
            out.push(rec.position().unwrap().line());
        }
        out
    }

    #[test]
    fn csv_records_on_their_lines() {
        let rows = vec![1, 2, 4, 5, 7];
        assert_eq!(csv_lines(b"a,1\nb,2\n\nc,3\n\"x\ny\"\nd,4\n"), rows);
        assert_eq!(
            csv_lines(b"a,1\r\nb,2\r\n\r\nc,3\r\n\"x\r\ny\"\r\nd,4\r\n"),
            rows
        );
        assert_eq!(csv_lines(b"a,1\rb,2\r\rc,3\r\"x\ry\"\rd,4"), rows);
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
