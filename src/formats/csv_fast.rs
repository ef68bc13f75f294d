//! The tokeniser of [`super::csv_records`]: the records the `csv` crate reads (as `csv_records::reader` builds
//! it: RFC 4180, no headers, flexible, one delimiter, `\r`, `\n` and `\r\n` ending records), with the same
//! positions (byte, record, and the true line [`LineCount`] gives), found faster where the text is plain.
//!
//! A record on one line that holds no quote and no `\r` (but one before its `\n`) is cut at its delimiters with
//! `memchr` (SIMD) instead of `csv_core`'s byte-at-a-time automaton. At the first record that is not plain (a
//! quote, a lone `\r`, or a line longer than [`MAX_LINE`]) the rest of the input, from that record on, goes to
//! the `csv` crate itself, its positions shifted to the whole input's: so the records are the crate's in every
//! case. How `csv_core` reads plain lines (its `ReadRecordResult` states, csv-core 0.1): each delimiter ends a
//! field, `\n` ends the record, `\r` ends it and a `\n` after it is skipped, and line ends where a record would
//! start are skipped (a blank line is no record); the position of a record is where the reading of it started,
//! just after the first byte that ended the record before.

use super::csv_block::Records;
use super::lines::LineCount;
use std::io::{Chain, Cursor, Read};

/// The bytes read from the input at a time while lines are plain.
const CHUNK: usize = 256 << 10;
/// The longest line the plain reading holds: a longer one goes to the `csv` crate, which holds it anyway.
pub const MAX_LINE: usize = 64 << 20;

/// The `csv` crate's reader, as [`super::csv_records`] builds it.
pub type CsvReader<R> = csv::Reader<LineCount<R>>;

/// The `csv` reader of `r`, its records given their true line numbers by [`LineCount`].
pub fn reader<R: Read>(r: R, delimiter: u8) -> CsvReader<R> {
    csv::ReaderBuilder::new()
        // 64 KiB reads (the crate's default is 8 KiB): a 92 MB file on disk in 1,400 reads rather than 11,000.
        .buffer_capacity(64 << 10)
        .has_headers(false)
        .flexible(true)
        .delimiter(delimiter)
        .from_reader(LineCount::new(r))
}

/// The records of a CSV stream, read plainly while they are plain, then by the `csv` crate.
pub struct Tokens<R: Read> {
    state: State<R>,
    /// The record the `csv` crate reads into for [`Tokens::read_into`].
    scratch: csv::ByteRecord,
}

/// The rest of the input handed to the `csv` crate: the bytes read and not yet tokenised, then the input.
type Rest<R> = Chain<Cursor<Vec<u8>>, Pending<R>>;

/// The input after a read that failed: that failure first, then the input (so that the crate, reading the bytes
/// before it, hands on the records it would have and then fails where it would have).
struct Pending<R> {
    failed: Option<std::io::Error>,
    inner: R,
}

impl<R: Read> Read for Pending<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self.failed.take() {
            Some(e) => Err(e),
            None => self.inner.read(buf),
        }
    }
}

enum State<R: Read> {
    Plain(Plain<R>),
    Crate(Crate<R>),
    /// Between the two (only while switching).
    Gone,
}

/// The plain reading: `buf[start..end]` read and not yet tokenised.
struct Plain<R> {
    inner: R,
    buf: Vec<u8>,
    start: usize,
    end: usize,
    /// Bytes of `buf[start..end]` already searched for a `\n` (without one).
    scanned: usize,
    eof: bool,
    /// A read failed (the crate reads on, and fails there).
    failed: Option<std::io::Error>,
    delimiter: u8,
    /// The input's offset of `buf[0]`.
    base: u64,
    /// The line ends before `buf[start]`; the records read; the position of the next record.
    lines: u64,
    records: u64,
    next_byte: u64,
    chunk: usize,
}

/// The `csv` crate reading the rest, from the record at `byte` of the input (its line is `lines + 1`, and
/// `records` were read before it); the first record's position is `first_byte`, where the crate would start it.
struct Crate<R> {
    rdr: CsvReader<Rest<R>>,
    lines: u64,
    records: u64,
    byte: u64,
    first_byte: Option<u64>,
}

/// One line of the plain reading: its text without its end, and where it ends.
enum Line {
    /// `buf[a..b]`, ended by the `\n` at `nl` (a `\r` before it is not in the text).
    Ended {
        a: usize,
        b: usize,
        nl: usize,
    },
    /// The last line, without an end.
    Last {
        a: usize,
        b: usize,
    },
    End,
    /// Not plain: the `csv` crate reads on from `start`.
    Hard,
}

impl<R: Read> Tokens<R> {
    pub fn new(inner: R, delimiter: u8) -> Self {
        Self::with_chunk(inner, delimiter, CHUNK)
    }

    /// [`Tokens::new`], reading `chunk` bytes at a time (tests use small ones, to cut lines across reads).
    pub fn with_chunk(inner: R, delimiter: u8, chunk: usize) -> Self {
        let chunk = chunk.max(1);
        let plain = Plain {
            inner,
            buf: Vec::new(),
            start: 0,
            end: 0,
            scanned: 0,
            eof: false,
            failed: None,
            delimiter,
            base: 0,
            lines: 0,
            records: 0,
            next_byte: 0,
            chunk,
        };
        let mut t = Tokens {
            state: State::Plain(plain),
            scratch: csv::ByteRecord::new(),
        };
        // A quote, `\r` or `\n` as the delimiter: no line is plain.
        if matches!(delimiter, b'"' | b'\r' | b'\n') {
            t.hand_over();
        }
        t
    }

    /// Reads the next record into `rec`, as `csv::Reader::read_byte_record` does (with [`LineCount::fix`]'s
    /// lines): false at the end of the input.
    pub fn read(&mut self, rec: &mut csv::ByteRecord) -> csv::Result<bool> {
        loop {
            match &mut self.state {
                State::Plain(p) => match p.read(rec) {
                    Some(more) => return Ok(more),
                    None => self.hand_over(),
                },
                State::Crate(c) => return c.read(rec),
                State::Gone => return Ok(false),
            }
        }
    }

    /// [`Tokens::read`] appending the record to `recs` (false at the end of the input).
    pub fn read_into(&mut self, recs: &mut Records) -> csv::Result<bool> {
        loop {
            match &mut self.state {
                State::Plain(p) => match p.read_into(recs) {
                    Some(more) => return Ok(more),
                    None => self.hand_over(),
                },
                State::Crate(c) => {
                    let more = c.read(&mut self.scratch)?;
                    if more {
                        recs.push_record(&self.scratch);
                    }
                    return Ok(more);
                }
                State::Gone => return Ok(false),
            }
        }
    }

    /// Hands the rest of the input to the `csv` crate.
    fn hand_over(&mut self) {
        let State::Plain(p) = std::mem::replace(&mut self.state, State::Gone) else {
            return;
        };
        let left = p.buf[p.start..p.end].to_vec();
        let rest = Pending {
            failed: p.failed,
            inner: p.inner,
        };
        self.state = State::Crate(Crate {
            rdr: reader(Cursor::new(left).chain(rest), p.delimiter),
            lines: p.lines,
            records: p.records,
            byte: p.base + p.start as u64,
            first_byte: Some(p.next_byte),
        });
    }
}

impl<R: Read> Crate<R> {
    fn read(&mut self, rec: &mut csv::ByteRecord) -> csv::Result<bool> {
        if !self.rdr.read_byte_record(rec)? {
            return Ok(false);
        }
        self.rdr.get_ref().fix(rec);
        if let Some(p) = rec.position() {
            let mut q = p.clone();
            let byte = self.first_byte.take().unwrap_or(self.byte + p.byte());
            q.set_byte(byte)
                .set_line(self.lines + p.line())
                .set_record(self.records + p.record());
            rec.set_position(Some(q));
        }
        Ok(true)
    }
}

impl<R: Read> Plain<R> {
    /// The next plain record into `rec` (`Some(false)` at the end), or `None` when it is not plain or a read
    /// failed.
    fn read(&mut self, rec: &mut csv::ByteRecord) -> Option<bool> {
        let Some((a, b, pos)) = self.next()? else {
            return Some(false);
        };
        let text = &self.buf[a..b];
        rec.clear();
        let mut at = 0;
        for d in memchr::memchr_iter(self.delimiter, text) {
            rec.push_field(&text[at..d]);
            at = d + 1;
        }
        rec.push_field(&text[at..]);
        rec.set_position(Some(pos));
        Some(true)
    }

    /// [`Plain::read`] appending the record to `recs` (its text copied once, as read).
    fn read_into(&mut self, recs: &mut Records) -> Option<bool> {
        let Some((a, b, pos)) = self.next()? else {
            return Some(false);
        };
        let text = &self.buf[a..b];
        recs.push(text, memchr::memchr_iter(self.delimiter, text), pos.line());
        Some(true)
    }

    /// The next plain record, the reading moved past it: its text `buf[a..b]` (valid until the next read) and
    /// position; `Some(None)` at the end, `None` when it is not plain or a read failed.
    fn next(&mut self) -> Option<Option<(usize, usize, csv::Position)>> {
        loop {
            let line = self.line().unwrap_or_else(|e| {
                self.failed = Some(e);
                Line::Hard
            });
            let (a, b, nl) = match line {
                Line::Hard => return None,
                Line::End => return Some(None),
                Line::Ended { a, b, nl } => (a, b, Some(nl)),
                Line::Last { a, b } => (a, b, None),
            };
            let text = &self.buf[a..b];
            if memchr::memchr2(b'"', b'\r', text).is_some() {
                return None;
            }
            let next = nl.map_or(self.end, |n| n + 1);
            if text.is_empty() {
                // A blank line ended by `\n` or `\r\n`: no record (the record read next starts where the
                // crate started it, after the line end before).
                self.start = next;
                self.lines += 1;
                continue;
            }
            let mut pos = csv::Position::new();
            pos.set_byte(self.next_byte)
                .set_line(self.lines + 1)
                .set_record(self.records);
            // The crate ends a record at its first line-end byte: `\r` of `\r\n`, else `\n`.
            self.next_byte = self.base + b as u64 + 1;
            self.records += 1;
            self.lines += u64::from(nl.is_some());
            self.start = next;
            return Some(Some((a, b, pos)));
        }
    }

    /// The next line (reading more as needed).
    fn line(&mut self) -> std::io::Result<Line> {
        loop {
            let from = self.start + self.scanned;
            if let Some(i) = memchr::memchr(b'\n', &self.buf[from..self.end]) {
                let nl = from + i;
                self.scanned = 0;
                let b = if nl > self.start && self.buf[nl - 1] == b'\r' {
                    nl - 1
                } else {
                    nl
                };
                return Ok(Line::Ended {
                    a: self.start,
                    b,
                    nl,
                });
            }
            self.scanned = self.end - self.start;
            if self.eof {
                if self.start == self.end {
                    return Ok(Line::End);
                }
                let (a, b) = (self.start, self.end);
                self.scanned = 0;
                return Ok(Line::Last { a, b });
            }
            if !self.more()? {
                return Ok(Line::Hard);
            }
        }
    }

    /// Reads more of the input after `buf[start..end]` (moved to the front); false when the line would grow past
    /// [`MAX_LINE`].
    fn more(&mut self) -> std::io::Result<bool> {
        if self.start > 0 {
            self.buf.copy_within(self.start..self.end, 0);
            self.base += self.start as u64;
            self.end -= self.start;
            self.start = 0;
        }
        if self.end >= MAX_LINE {
            return Ok(false);
        }
        let want = (self.end + self.chunk).max(self.buf.len());
        if self.buf.len() < want {
            self.buf.resize(want, 0);
        }
        let n = self.inner.read(&mut self.buf[self.end..])?;
        self.end += n;
        self.eof = n == 0;
        Ok(true)
    }
}

#[cfg(test)]
#[path = "csv_fast_tests.rs"]
mod tests;
