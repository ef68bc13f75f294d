//! The records of a streaming CSV table (specs/families.md section 0), for [`super::id_csv`]: RFC 4180 records
//! read with the `csv` crate from any `Read`, a UTF-8 BOM dropped, every field located by line and column (the
//! column counts Unicode scalar values, fields separated by one delimiter; quotes are not counted).
//!
//! Natively, an input that can move to another thread ([`CsvIn::Ahead`]: a file on disk or bytes in memory) is
//! tokenised ahead on a second thread, in blocks of at most [`BLOCK_RECORDS`] records and [`BLOCK_BYTES`]
//! bytes, at most [`BLOCKS`] blocks in flight; the calling thread checks the records and runs the callback.
//! Both ways hand the callback the same records, diagnostics and order.

use crate::diag::{Diagnostic, Diags};
use std::io::Read;

/// One record: its 1-based line and its fields (UTF-8, not trimmed). A field's 1-based column (Unicode scalar
/// values, fields separated by one delimiter) is computed when a diagnostic asks for it.
pub struct Row<'a> {
    pub line: u64,
    pub fields: Vec<&'a str>,
}

impl Row<'_> {
    /// Field `i` trimmed of ASCII spaces (ids, labels and numbers all compare trimmed).
    #[inline]
    pub fn get(&self, i: usize) -> &str {
        self.fields.get(i).map_or("", |s| trim(s))
    }
    pub fn column(&self, i: usize) -> u64 {
        if i >= self.fields.len() {
            return 1;
        }
        1 + self.fields[..i]
            .iter()
            .map(|f| f.chars().count() as u64 + 1)
            .sum::<u64>()
    }
}

/// An empty vector that keeps `v`'s allocation, for borrows of another lifetime (an in-place `collect` of
/// nothing: same layout, so the buffer is reused); one field list serves every record.
fn recycle<'b>(mut v: Vec<&str>) -> Vec<&'b str> {
    v.clear();
    v.into_iter().map(|_| "").collect()
}

/// Trims ASCII spaces and tabs (byte by byte: both are ASCII, so the cut is a character boundary).
#[inline]
pub fn trim(s: &str) -> &str {
    let b = s.as_bytes();
    let blank = |c: &u8| *c == b' ' || *c == b'\t';
    if !b.first().is_some_and(blank) && !b.last().is_some_and(blank) {
        return s;
    }
    let start = b.iter().position(|c| !blank(c)).unwrap_or(b.len());
    let end = b.iter().rposition(|c| !blank(c)).map_or(start, |e| e + 1);
    s.get(start..end).unwrap_or("")
}

/// What [`read`] hands its callback: the header once (trimmed, BOM dropped), then each record.
pub enum Event<'a, 'b> {
    Header(&'a [String]),
    Row(&'a Row<'b>),
}

/// What [`read_batched`] hands its callback: the header once (trimmed, BOM dropped), then runs of consecutive
/// records (in file order; a diagnostic of the reader comes after the records before it).
pub enum Batch<'a, 'b> {
    Header(&'a [String]),
    Rows(&'a [Row<'b>]),
}

/// Records [`read_batched`] hands its callback at a time: enough for the lookups of one batch to wait on
/// memory together.
pub const BATCH: usize = 32;
/// Most records in a block tokenised ahead (rounded down to whole batches, at least one).
pub const BLOCK_RECORDS: usize = 4096;
/// A block tokenised ahead is closed once its records hold this many bytes (at the end of a batch).
pub const BLOCK_BYTES: usize = 1 << 20;
/// Most blocks tokenised ahead and not yet checked.
pub const BLOCKS: usize = 4;

/// A CSV input: a stream read on the calling thread, or one that may be tokenised ahead on a second thread.
pub enum CsvIn<'a> {
    Stream(Box<dyn Read + 'a>),
    Ahead(Box<dyn Read + Send + 'a>),
}

impl<'a> From<&'a [u8]> for CsvIn<'a> {
    fn from(b: &'a [u8]) -> Self {
        CsvIn::Stream(Box::new(b))
    }
}

impl<'a> From<Box<dyn Read + 'a>> for CsvIn<'a> {
    fn from(r: Box<dyn Read + 'a>) -> Self {
        CsvIn::Stream(r)
    }
}

/// Reads a CSV stream: calls `each` with the header, then with every later record that has the header's number
/// of fields, while `each` returns true. Returns the header (`None` with an error diagnostic when the file is
/// empty or unreadable). Records with another number of fields, invalid UTF-8 and CSV syntax errors are located
/// errors (`<family>.csv`, `input.invalid_utf8`).
pub fn read<'i>(
    family: &str,
    file: &str,
    input: impl Into<CsvIn<'i>>,
    delimiter: u8,
    diags: &mut Diags,
    mut each: impl FnMut(Event, &mut Diags) -> bool,
) -> Option<Vec<String>> {
    read_batched(
        family,
        file,
        input,
        delimiter,
        1,
        diags,
        |b, diags| match b {
            Batch::Header(h) => each(Event::Header(h), diags),
            Batch::Rows(rows) => rows.iter().all(|r| each(Event::Row(r), diags)),
        },
    )
}

/// [`read`], handing `each` up to `batch` records at a time: the same records, diagnostics and order.
pub fn read_batched<'i>(
    family: &str,
    file: &str,
    input: impl Into<CsvIn<'i>>,
    delimiter: u8,
    batch: usize,
    diags: &mut Diags,
    each: impl FnMut(Batch, &mut Diags) -> bool,
) -> Option<Vec<String>> {
    let mut feed = Feed {
        file,
        code: format!("{family}.csv"),
        header: None,
        pool: Vec::new(),
        each,
    };
    let batch = batch.max(1);
    match input.into() {
        #[cfg(not(target_arch = "wasm32"))]
        CsvIn::Ahead(r) => ahead(r, delimiter, batch, &mut feed, diags),
        #[cfg(target_arch = "wasm32")]
        CsvIn::Ahead(r) => in_turn(r, delimiter, batch, &mut feed, diags),
        CsvIn::Stream(r) => in_turn(r, delimiter, batch, &mut feed, diags),
    }
    if feed.header.is_none() {
        diags.push(
            Diagnostic::error(
                &format!("{family}.empty_file"),
                "the file has no header row",
            )
            .file(file)
            .hint("Start the file with a header row naming its columns, e.g. `id,label`."),
        );
    }
    feed.header
}

fn reader<R: Read>(r: R, delimiter: u8) -> csv::Reader<R> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delimiter)
        .from_reader(r)
}

/// Tokenises and checks in turn, on the calling thread: `batch` records at a time.
fn in_turn<F: FnMut(Batch, &mut Diags) -> bool>(
    r: impl Read,
    delimiter: u8,
    batch: usize,
    feed: &mut Feed<F>,
    diags: &mut Diags,
) {
    let mut rdr = reader(r, delimiter);
    let mut recs: Vec<csv::ByteRecord> = (0..batch).map(|_| csv::ByteRecord::new()).collect();
    loop {
        let (filled, end) = fill(&mut rdr, &mut recs, usize::MAX, batch);
        if !feed.records(&recs[..filled], end.failure, diags) || end.done {
            return;
        }
    }
}

/// How a run of reads ended: at the end of the input, or at a failure (after the records before it).
struct End {
    done: bool,
    failure: Option<csv::Error>,
}

/// Reads records into `recs` until it is full, the input ends, a read fails, or the records hold `bytes` bytes
/// at a multiple of `batch` records; returns how many were read and how the run ended.
fn fill<R: Read>(
    rdr: &mut csv::Reader<R>,
    recs: &mut [csv::ByteRecord],
    bytes: usize,
    batch: usize,
) -> (usize, End) {
    let (mut filled, mut held) = (0, 0);
    while filled < recs.len() && (held < bytes || filled % batch != 0) {
        match rdr.read_byte_record(&mut recs[filled]) {
            Ok(false) => {
                let end = End {
                    done: true,
                    failure: None,
                };
                return (filled, end);
            }
            Ok(true) => {
                held += recs[filled].as_slice().len();
                filled += 1;
            }
            Err(e) => {
                let end = End {
                    done: false,
                    failure: Some(e),
                };
                return (filled, end);
            }
        }
    }
    let end = End {
        done: false,
        failure: None,
    };
    (filled, end)
}

/// A block tokenised ahead: its records, how many are filled, and how the run ended.
#[cfg(not(target_arch = "wasm32"))]
struct Block {
    recs: Vec<csv::ByteRecord>,
    filled: usize,
    end: End,
}

/// Tokenises on a second thread while the calling thread checks: blocks go one way through a bounded channel
/// and come back empty through another, so their records' buffers are reused.
#[cfg(not(target_arch = "wasm32"))]
fn ahead<F: FnMut(Batch, &mut Diags) -> bool>(
    r: Box<dyn Read + Send + '_>,
    delimiter: u8,
    batch: usize,
    feed: &mut Feed<F>,
    diags: &mut Diags,
) {
    use std::sync::mpsc::sync_channel;
    // Whole batches per block, so that the callback sees the batches it would see in turn.
    let per_block = (BLOCK_RECORDS / batch).max(1) * batch;
    let (full_tx, full_rx) = sync_channel::<Block>(BLOCKS - 1);
    let (empty_tx, empty_rx) = sync_channel::<Vec<csv::ByteRecord>>(BLOCKS);
    // The reader moves to the tokeniser through `slot`, and back here if no thread can be started.
    let slot = std::sync::Mutex::new(Some(r));
    std::thread::scope(|s| {
        // Owned here: a return below drops it, so the tokeniser's next send fails and it stops (the scope
        // waits for it after this closure returns).
        let full_rx = full_rx;
        let slot = &slot;
        let started = std::thread::Builder::new().spawn_scoped(s, move || {
            let Some(r) = slot.lock().ok().and_then(|mut g| g.take()) else {
                return;
            };
            let mut rdr = reader(r, delimiter);
            loop {
                let mut recs = empty_rx.try_recv().unwrap_or_default();
                recs.resize_with(per_block, csv::ByteRecord::new);
                let (filled, end) = fill(&mut rdr, &mut recs, BLOCK_BYTES, batch);
                let stop = end.done
                    || matches!(&end.failure, Some(e) if matches!(e.kind(), csv::ErrorKind::Io(_)));
                // The checker stopped (its receiver is gone): stop too.
                if full_tx.send(Block { recs, filled, end }).is_err() || stop {
                    return;
                }
            }
        });
        if started.is_err() {
            if let Some(r) = slot.lock().ok().and_then(|mut g| g.take()) {
                in_turn(r, delimiter, batch, feed, diags);
            }
            return;
        }
        for Block {
            mut recs,
            filled,
            end,
        } in full_rx.iter()
        {
            let runs = recs[..filled].chunks(batch).count();
            let mut failure = end.failure;
            for (k, run) in recs[..filled].chunks(batch).enumerate() {
                let last = if k + 1 == runs { failure.take() } else { None };
                if !feed.records(run, last, diags) {
                    return;
                }
            }
            if failure.is_some() && !feed.records(&[], failure, diags) {
                return;
            }
            if end.done {
                return;
            }
            // A record that grew past a block's bytes is not kept for the next block.
            recs.retain(|r| r.as_slice().len() <= BLOCK_BYTES / 16);
            let _ = empty_tx.try_send(recs);
        }
    });
}

/// The checking of records, the same whoever tokenised them: UTF-8, the header, the number of fields.
struct Feed<'f, F> {
    file: &'f str,
    code: String,
    header: Option<Vec<String>>,
    pool: Vec<Vec<&'static str>>,
    each: F,
}

impl<F: FnMut(Batch, &mut Diags) -> bool> Feed<'_, F> {
    /// Hands `rows` to `each` (if any) and recycles their field lists; false when `each` says stop.
    fn flush(&mut self, rows: &mut Vec<Row>, diags: &mut Diags) -> bool {
        if rows.is_empty() {
            return true;
        }
        let go = (self.each)(Batch::Rows(rows), diags);
        self.pool.extend(rows.drain(..).map(|r| recycle(r.fields)));
        go
    }

    /// Checks `recs` (consecutive records, in order) and hands them on, then reports `failure` (the read that
    /// failed after them); false when reading must stop.
    fn records(
        &mut self,
        recs: &[csv::ByteRecord],
        failure: Option<csv::Error>,
        diags: &mut Diags,
    ) -> bool {
        let file = self.file;
        let mut rows: Vec<Row> = Vec::with_capacity(recs.len());
        for rec in recs {
            let line = rec.position().map_or(0, |p| p.line());
            let mut fields = recycle(self.pool.pop().unwrap_or_default());
            let mut col = 1u64;
            let mut bad = None;
            // An ASCII record (after the header: no BOM to drop) is checked once, its fields cut from it.
            let whole = rec.as_slice();
            let ascii = if self.header.is_some() && whole.is_ascii() {
                std::str::from_utf8(whole).ok()
            } else {
                None
            };
            if let Some(all) = ascii {
                let mut at = 0;
                for f in rec.iter() {
                    fields.push(all.get(at..at + f.len()).unwrap_or(""));
                    at += f.len();
                }
            }
            for (i, f) in rec.iter().enumerate().filter(|_| ascii.is_none()) {
                let f = if self.header.is_none() && i == 0 {
                    f.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(f)
                } else {
                    f
                };
                match simdutf8::basic::from_utf8(f) {
                    Ok(s) => {
                        fields.push(s);
                    }
                    Err(_) => {
                        col += fields
                            .iter()
                            .map(|s| s.chars().count() as u64 + 1)
                            .sum::<u64>();
                        let good =
                            std::str::from_utf8(f).map_or_else(|e| e.valid_up_to(), |s| s.len());
                        let before =
                            std::str::from_utf8(&f[..good]).map_or(0, |s| s.chars().count());
                        bad = Some(col + before as u64);
                        break;
                    }
                }
            }
            if let Some(c) = bad {
                if !self.flush(&mut rows, diags) {
                    return false;
                }
                diags.push(
                    Diagnostic::error("input.invalid_utf8", "invalid UTF-8")
                        .file(file)
                        .at(line, c)
                        .hint("Save the file as UTF-8."),
                );
                continue;
            }
            match &self.header {
                None => {
                    if fields.len() == 1 && trim(fields[0]).is_empty() {
                        continue; // blank lines before the header
                    }
                    let h: Vec<String> = fields.iter().map(|s| trim(s).to_string()).collect();
                    let go = (self.each)(Batch::Header(&h), diags);
                    self.header = Some(h);
                    if !go {
                        return false;
                    }
                }
                Some(h) => {
                    if fields.len() == 1 && fields[0].is_empty() {
                        continue; // a blank line
                    }
                    if fields.len() != h.len() {
                        let want = h.len();
                        if !self.flush(&mut rows, diags) {
                            return false;
                        }
                        diags.push(
                            Diagnostic::error(
                                &self.code,
                                format!("{} fields where the header has {want}", fields.len()),
                            )
                            .file(file)
                            .at(line, 1)
                            .expected(want.to_string())
                            .found(fields.len().to_string())
                            .hint("Give every row one value per header column."),
                        );
                        continue;
                    }
                    rows.push(Row { line, fields });
                }
            }
        }
        if !self.flush(&mut rows, diags) {
            return false;
        }
        if let Some(e) = failure {
            let (line, msg) = match e.kind() {
                csv::ErrorKind::Io(io) => {
                    diags.push(Diagnostic::read_error(file, io));
                    return false;
                }
                _ => (
                    e.position().map_or(0, |p| p.line()),
                    format!("CSV syntax: {e}"),
                ),
            };
            diags.push(
                Diagnostic::error(&self.code, msg)
                    .file(file)
                    .line(line.max(1))
                    .hint("Write the file as RFC 4180 CSV (quote fields that contain the delimiter or quotes)."),
            );
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Everything a read hands on: the header, each row (line and fields), where each batch ends, and the
    /// diagnostics, as text.
    fn trace(input: CsvIn, batch: usize, stop_after: usize) -> Vec<String> {
        let mut out = Vec::new();
        let mut d = Diags::new();
        let mut rows = 0;
        let h = read_batched("t", "f.csv", input, b',', batch, &mut d, |b, d| {
            match b {
                Batch::Header(h) => out.push(format!("header {h:?}")),
                Batch::Rows(rs) => {
                    for r in rs {
                        out.push(format!("{} {:?}", r.line, r.fields));
                    }
                    out.push(format!("batch ({} diagnostics)", d.list.len()));
                    rows += rs.len();
                }
            }
            rows < stop_after
        });
        out.push(format!("returned {h:?}"));
        out.extend(d.finish().iter().map(|x| format!("{x:?}")));
        out
    }

    /// A reader that fails after `n` bytes.
    struct Failing<'a>(&'a [u8], usize);
    impl Read for Failing<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.1 == 0 {
                return Err(std::io::Error::other("disk gone"));
            }
            let n = buf.len().min(self.1).min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            self.1 -= n;
            Ok(n)
        }
    }

    /// Tokenising ahead hands on the same records, batches and diagnostics as tokenising in turn: over several
    /// blocks, with invalid UTF-8, short rows, blank lines, quoted newlines, a BOM, a stop and a failing read.
    #[test]
    fn ahead_is_in_turn() {
        let mut text = b"\xEF\xBB\xBF\n id ,v\n".to_vec();
        // Enough blocks to fill the channel while the checker stops early.
        for i in 0..(4 * BLOCKS * BLOCK_RECORDS + 77) {
            match i % 997 {
                5 => text.extend_from_slice(b"bad\xff,1\n"),
                9 => text.extend_from_slice(b"short\n"),
                11 => text.extend_from_slice(b"\n"),
                13 => text.extend_from_slice(b"\"q\nq\",2\n"),
                _ => text.extend_from_slice(format!("id{i},{i}.5\n").as_bytes()),
            }
        }
        let b: &[u8] = &text;
        for batch in [1, 32, 5000] {
            for stop in [usize::MAX, 0, 10, 9000] {
                let want = trace(CsvIn::Stream(Box::new(b)), batch, stop);
                let got = trace(CsvIn::Ahead(Box::new(b)), batch, stop);
                let k = got.iter().zip(&want).position(|(a, b)| a != b);
                assert_eq!(
                    got.len(),
                    want.len(),
                    "{batch} {stop} {k:?} {:?}",
                    k.map(|k| (&got[k], &want[k]))
                );
                assert_eq!(got, want);
            }
            let fails = |n| Box::new(Failing(b, n));
            let want = trace(CsvIn::Stream(fails(100_000)), batch, usize::MAX);
            assert!(want.iter().any(|l| l.contains("disk gone")));
            assert_eq!(trace(CsvIn::Ahead(fails(100_000)), batch, usize::MAX), want);
        }
    }
}
