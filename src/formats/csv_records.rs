//! The records of a streaming CSV table (docs/specs/families.md section 0), for [`super::id_csv`]: RFC 4180 records
//! read from any `Read` as the `csv` crate reads them ([`super::csv_fast`]: plain lines cut with `memchr`, the
//! rest by the crate), a UTF-8 BOM dropped, every field located by line and column (the
//! column counts Unicode scalar values, fields separated by one delimiter; quotes are not counted).
//!
//! Natively, an input that can move to another thread ([`CsvIn::Ahead`]: a file on disk or bytes in memory) is
//! tokenised ahead on a second thread, in blocks of at most [`BLOCK_RECORDS`] records and [`BLOCK_BYTES`]
//! bytes, at most [`BLOCKS`] blocks in flight; the calling thread checks the records and runs the callback.
//! Both ways hand the callback the same records, diagnostics and order. The tokenising thread may also work
//! out ahead what the checker would compute from a record ([`Early`], by the reader's `early` function), so that
//! the two threads share the work; without it (in turn, and in wasm) the checker computes it.

use crate::diag::{Diagnostic, Diags};
use crate::formats::csv_block::{Record, Records};
use crate::formats::csv_fast::Tokens;
use std::io::Read;

/// One record: its 1-based line and its fields (UTF-8, not trimmed). A field's 1-based column (Unicode scalar
/// values, fields separated by one delimiter) is computed when a diagnostic asks for it.
pub struct Row<'a> {
    pub line: u64,
    pub fields: Vec<&'a str>,
    /// What the tokenising thread worked out ahead for this record (all `None` when nothing was).
    pub early: Early,
    /// The number fields the tokenising thread read from this record (see [`Worked`]; empty when none were).
    pub numbers: &'a [f64],
}

/// What a reader's `early` function worked out from a raw record on the tokenising thread (`None`: not worked
/// out; the checker then computes it). Each reader says what its fields hold; they must be exactly what the
/// checker would compute, so that a read gives the same result with or without them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Early {
    /// Worked out from the record's id: e.g. its hash.
    pub key: Option<u64>,
    /// The record's number field, parsed (only when it is a finite number).
    pub number: Option<f64>,
    /// The row its id names in a table read before (`Some(None)`: in none).
    pub row: Option<Option<u32>>,
}

/// What a reader's `early` function worked out for a block of raw records: one [`Early`] per record (or none),
/// and, when it reads `per_record` number fields of each record (a reader's list of columns), their values
/// record after record, each exactly what [`super::id_csv::finite`] gives, NaN where that is `None` (the
/// checker then reads the field itself, and reports it).
#[derive(Default)]
pub struct Worked {
    pub early: Vec<Early>,
    pub numbers: Vec<f64>,
    pub per_record: usize,
}

impl Worked {
    #[cfg(not(target_arch = "wasm32"))]
    fn clear(&mut self) {
        self.early.clear();
        self.numbers.clear();
        self.per_record = 0;
    }

    /// The numbers read from record `k` of the block (empty when none were).
    fn numbers_of(&self, k: usize) -> &[f64] {
        let n = self.per_record;
        self.numbers.get(k * n..(k + 1) * n).unwrap_or(&[])
    }
}

/// A reader's `early` function: fills `out` (which arrives cleared) for the raw records of a block.
pub trait EarlyFn: FnMut(&Records, &mut Worked) + Send {}
impl<T: FnMut(&Records, &mut Worked) + Send> EarlyFn for T {}

/// An `early` function that works out nothing.
pub fn no_early(_: &Records, _: &mut Worked) {}

/// Field `i` of a raw record trimmed of ASCII spaces and tabs, as [`Row::get`] would give it (`b""` if absent).
#[inline]
pub fn raw_field<'a>(rec: &Record<'a>, i: usize) -> &'a [u8] {
    trim_bytes(rec.get(i).unwrap_or(b""))
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

/// Trims ASCII spaces and tabs (both ASCII, so the cut is a character boundary).
#[inline]
pub fn trim(s: &str) -> &str {
    let b = s.as_bytes();
    let blank = |c: &u8| *c == b' ' || *c == b'\t';
    if !b.first().is_some_and(blank) && !b.last().is_some_and(blank) {
        return s;
    }
    let t = trim_bytes(b);
    let start = t.as_ptr() as usize - b.as_ptr() as usize;
    s.get(start..start + t.len()).unwrap_or("")
}

/// [`trim`] of bytes.
#[inline]
pub fn trim_bytes(b: &[u8]) -> &[u8] {
    let blank = |c: &u8| *c == b' ' || *c == b'\t';
    let start = b.iter().position(|c| !blank(c)).unwrap_or(b.len());
    let end = b.iter().rposition(|c| !blank(c)).map_or(start, |e| e + 1);
    &b[start..end]
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
    let no = no_early;
    read_batched_with(family, file, input, delimiter, batch, no, diags, each)
}

/// [`read_batched`], with an `early` function run on the tokenising thread when there is one (each row's
/// [`Row::early`]); the rows are otherwise the same.
#[allow(clippy::too_many_arguments)]
pub fn read_batched_with<'i>(
    family: &str,
    file: &str,
    input: impl Into<CsvIn<'i>>,
    delimiter: u8,
    batch: usize,
    early: impl EarlyFn,
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
        CsvIn::Ahead(r) => ahead(r, delimiter, batch, early, &mut feed, diags),
        #[cfg(target_arch = "wasm32")]
        CsvIn::Ahead(r) => {
            drop(early);
            in_turn(r, delimiter, batch, &mut feed, diags)
        }
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

/// Tokenises and checks in turn, on the calling thread: `batch` records at a time.
fn in_turn<F: FnMut(Batch, &mut Diags) -> bool>(
    r: impl Read,
    delimiter: u8,
    batch: usize,
    feed: &mut Feed<F>,
    diags: &mut Diags,
) {
    let mut rdr = Tokens::new(r, delimiter);
    let mut recs = Records::default();
    loop {
        let end = fill(&mut rdr, &mut recs, (batch, usize::MAX), batch);
        recs.seal();
        let none = Worked::default();
        if !feed.records((&recs, 0..recs.len()), (&none, 0), end.failure, diags) || end.done {
            return;
        }
    }
}

/// How a run of reads ended: at the end of the input, or at a failure (after the records before it).
struct End {
    done: bool,
    failure: Option<csv::Error>,
}

/// Reads records into `recs` (cleared first) until it holds `most` records, the input ends, a read fails, or
/// the records hold `bytes` bytes at a multiple of `batch` records; returns how the run ended.
fn fill<R: Read>(
    rdr: &mut Tokens<R>,
    recs: &mut Records,
    (most, bytes): (usize, usize),
    batch: usize,
) -> End {
    recs.clear();
    while recs.len() < most && (recs.bytes() < bytes || !recs.len().is_multiple_of(batch)) {
        match rdr.read_into(recs) {
            Ok(true) => {}
            Ok(false) => {
                return End {
                    done: true,
                    failure: None,
                };
            }
            Err(e) => {
                return End {
                    done: false,
                    failure: Some(e),
                };
            }
        }
    }
    End {
        done: false,
        failure: None,
    }
}

/// A block tokenised ahead: its records, what was worked out early for them, and how the run ended.
#[cfg(not(target_arch = "wasm32"))]
struct Block {
    recs: Records,
    early: Worked,
    end: End,
}

/// Tokenises on a second thread while the calling thread checks: blocks go one way through a bounded channel
/// and come back empty through another, so their records' buffers are reused.
#[cfg(not(target_arch = "wasm32"))]
fn ahead<F: FnMut(Batch, &mut Diags) -> bool>(
    r: Box<dyn Read + Send + '_>,
    delimiter: u8,
    batch: usize,
    mut early: impl EarlyFn,
    feed: &mut Feed<F>,
    diags: &mut Diags,
) {
    use std::sync::mpsc::sync_channel;
    // Whole batches per block, so that the callback sees the batches it would see in turn.
    let per_block = (BLOCK_RECORDS / batch).max(1) * batch;
    let (full_tx, full_rx) = sync_channel::<Block>(BLOCKS - 1);
    let (empty_tx, empty_rx) = sync_channel::<(Records, Worked)>(BLOCKS);
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
            let mut rdr = Tokens::new(r, delimiter);
            loop {
                let (mut recs, mut worked) = empty_rx.try_recv().unwrap_or_default();
                let end = fill(&mut rdr, &mut recs, (per_block, BLOCK_BYTES), batch);
                recs.seal();
                worked.clear();
                early(&recs, &mut worked);
                let stop = end.done
                    || matches!(&end.failure, Some(e) if matches!(e.kind(), csv::ErrorKind::Io(_)));
                let block = Block {
                    recs,
                    early: worked,
                    end,
                };
                // The checker stopped (its receiver is gone): stop too.
                if full_tx.send(block).is_err() || stop {
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
        for Block { recs, early, end } in full_rx.iter() {
            let filled = recs.len();
            let runs = filled.div_ceil(batch);
            let mut failure = end.failure;
            for k in 0..runs {
                let last = if k + 1 == runs { failure.take() } else { None };
                let run = k * batch..((k + 1) * batch).min(filled);
                if !feed.records((&recs, run), (&early, k * batch), last, diags) {
                    return;
                }
            }
            if failure.is_some()
                && !feed.records((&recs, filled..filled), (&early, filled), failure, diags)
            {
                return;
            }
            if end.done {
                return;
            }
            // A block that grew past what blocks need (a long record) is not kept for the next block.
            if recs.capacity() <= 4 * BLOCK_BYTES {
                let _ = empty_tx.try_send((recs, early));
            }
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

    /// Checks records `run` of `recs` (consecutive records, in order; what `worked` holds for record `from + k`
    /// of its block, if anything, was worked out for the run's `k`-th record) and hands them on, then reports
    /// `failure` (the read that failed after them); false when reading must stop.
    fn records<'r>(
        &mut self,
        (recs, run): (&'r Records, std::ops::Range<usize>),
        (worked, from): (&'r Worked, usize),
        failure: Option<csv::Error>,
        diags: &mut Diags,
    ) -> bool {
        let file = self.file;
        let mut rows: Vec<Row> = Vec::with_capacity(run.len());
        for (k, rec) in run.map(|i| recs.get(i)).enumerate() {
            let line = rec.line();
            let mut fields = recycle(self.pool.pop().unwrap_or_default());
            let bad = utf8_fields(&rec, self.header.is_none(), &mut fields).err();
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
                    let early = worked.early.get(from + k).copied().unwrap_or_default();
                    rows.push(Row {
                        line,
                        fields,
                        early,
                        numbers: worked.numbers_of(from + k),
                    });
                }
            }
        }
        if !self.flush(&mut rows, diags) {
            return false;
        }
        match failure {
            Some(e) => self.failed(e, diags),
            None => true,
        }
    }

    /// Reports the read that failed: a read error (false: reading stops), or a CSV syntax error.
    fn failed(&self, e: csv::Error, diags: &mut Diags) -> bool {
        let (line, msg) = match e.kind() {
            csv::ErrorKind::Io(io) => {
                diags.push(Diagnostic::read_error(self.file, io));
                return false;
            }
            _ => (
                e.position().map_or(0, |p| p.line()),
                format!("CSV syntax: {e}"),
            ),
        };
        diags.push(
            Diagnostic::error(&self.code, msg)
                .file(self.file)
                .line(line.max(1))
                .hint("Write the file as RFC 4180 CSV (quote fields that contain the delimiter or quotes)."),
        );
        true
    }
}

/// The fields of `rec` as text, pushed to `fields`; before the header (`first`) a BOM at the start of the first
/// field is dropped. `Err(column)`: the 1-based column (in chars) of the first byte that is not UTF-8.
#[inline]
fn utf8_fields<'r>(rec: &Record<'r>, first: bool, fields: &mut Vec<&'r str>) -> Result<(), u64> {
    // A record of a block found UTF-8 as a whole (after the header: no BOM to drop): its fields cut from it.
    if !first {
        let start = fields.len();
        fields.extend((0..rec.len()).map_while(|i| rec.checked_field(i)));
        if fields.len() == start + rec.len() {
            return Ok(());
        }
        fields.truncate(start);
    }
    // An ASCII record is checked once, its fields cut from it.
    let whole = rec.as_slice();
    let ascii = if !first && whole.is_ascii() {
        std::str::from_utf8(whole).ok()
    } else {
        None
    };
    if let Some(all) = ascii {
        let cut = |i| rec.range_in(i).and_then(|r| all.get(r)).unwrap_or("");
        fields.extend((0..rec.len()).map(cut));
        return Ok(());
    }
    for (i, f) in rec.iter().enumerate() {
        let f = if first && i == 0 {
            f.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(f)
        } else {
            f
        };
        match simdutf8::basic::from_utf8(f) {
            Ok(s) => fields.push(s),
            Err(_) => {
                let col = 1 + fields
                    .iter()
                    .map(|s| s.chars().count() as u64 + 1)
                    .sum::<u64>();
                let good = std::str::from_utf8(f).map_or_else(|e| e.valid_up_to(), |s| s.len());
                let before = std::str::from_utf8(&f[..good]).map_or(0, |s| s.chars().count());
                return Err(col + before as u64);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
#[path = "csv_records_tests.rs"]
mod tests;
