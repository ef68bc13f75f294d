//! Streaming CSV tables keyed by an id column, shared by the `classification` and `regression` families
//! (specs/families.md section 0): RFC 4180 records read with the `csv` crate from any `Read`, a UTF-8 BOM
//! dropped, every field located by line and column (the column counts Unicode scalar values, fields separated
//! by one delimiter; quotes are not counted). Ids are stored once, in one arena ([`IdIndex`]).

use crate::diag::{excerpt, Diagnostic, Diags};
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

/// Records [`read_batched`] reads ahead: enough for the lookups of one batch to wait on memory together.
pub const BATCH: usize = 32;

/// Reads a CSV stream: calls `each` with the header, then with every later record that has the header's number
/// of fields, while `each` returns true. Returns the header (`None` with an error diagnostic when the file is
/// empty or unreadable). Records with another number of fields, invalid UTF-8 and CSV syntax errors are located
/// errors (`<family>.csv`, `input.invalid_utf8`).
pub fn read<R: Read>(
    family: &str,
    file: &str,
    reader: R,
    delimiter: u8,
    diags: &mut Diags,
    mut each: impl FnMut(Event, &mut Diags) -> bool,
) -> Option<Vec<String>> {
    read_batched(
        family,
        file,
        reader,
        delimiter,
        1,
        diags,
        |b, diags| match b {
            Batch::Header(h) => each(Event::Header(h), diags),
            Batch::Rows(rows) => rows.iter().all(|r| each(Event::Row(r), diags)),
        },
    )
}

/// Hands `rows` to `each` (if any) and recycles their field lists; false when `each` says stop.
fn flush<'r>(
    rows: &mut Vec<Row<'r>>,
    pool: &mut Vec<Vec<&'static str>>,
    diags: &mut Diags,
    each: &mut impl FnMut(Batch, &mut Diags) -> bool,
) -> bool {
    if rows.is_empty() {
        return true;
    }
    let go = each(Batch::Rows(rows), diags);
    pool.extend(rows.drain(..).map(|r| recycle(r.fields)));
    go
}

/// [`read`], handing `each` up to `batch` records at a time: the same records, diagnostics and order.
pub fn read_batched<R: Read>(
    family: &str,
    file: &str,
    reader: R,
    delimiter: u8,
    batch: usize,
    diags: &mut Diags,
    mut each: impl FnMut(Batch, &mut Diags) -> bool,
) -> Option<Vec<String>> {
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delimiter)
        .from_reader(reader);
    let code = format!("{family}.csv");
    let batch = batch.max(1);
    let mut recs: Vec<csv::ByteRecord> = (0..batch).map(|_| csv::ByteRecord::new()).collect();
    let mut pool: Vec<Vec<&'static str>> = Vec::new();
    let mut header: Option<Vec<String>> = None;
    let mut done = false;
    'outer: while !done {
        let mut filled = 0;
        let mut failure = None;
        while filled < batch {
            match rdr.read_byte_record(&mut recs[filled]) {
                Ok(false) => {
                    done = true;
                    break;
                }
                Ok(true) => filled += 1,
                Err(e) => {
                    failure = Some(e);
                    break;
                }
            }
        }
        let mut rows: Vec<Row> = Vec::with_capacity(filled);
        for rec in &recs[..filled] {
            let line = rec.position().map_or(0, |p| p.line());
            let mut fields = recycle(pool.pop().unwrap_or_default());
            let mut col = 1u64;
            let mut bad = None;
            for (i, f) in rec.iter().enumerate() {
                let f = if header.is_none() && i == 0 {
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
                if !flush(&mut rows, &mut pool, diags, &mut each) {
                    break 'outer;
                }
                diags.push(
                    Diagnostic::error("input.invalid_utf8", "invalid UTF-8")
                        .file(file)
                        .at(line, c)
                        .hint("Save the file as UTF-8."),
                );
                continue;
            }
            match &header {
                None => {
                    if fields.len() == 1 && trim(fields[0]).is_empty() {
                        continue; // blank lines before the header
                    }
                    let h: Vec<String> = fields.iter().map(|s| trim(s).to_string()).collect();
                    let go = each(Batch::Header(&h), diags);
                    header = Some(h);
                    if !go {
                        break 'outer;
                    }
                }
                Some(h) => {
                    if fields.len() == 1 && fields[0].is_empty() {
                        continue; // a blank line
                    }
                    if fields.len() != h.len() {
                        if !flush(&mut rows, &mut pool, diags, &mut each) {
                            break 'outer;
                        }
                        diags.push(
                            Diagnostic::error(
                                &code,
                                format!("{} fields where the header has {}", fields.len(), h.len()),
                            )
                            .file(file)
                            .at(line, 1)
                            .expected(h.len().to_string())
                            .found(fields.len().to_string())
                            .hint("Give every row one value per header column."),
                        );
                        continue;
                    }
                    rows.push(Row { line, fields });
                }
            }
        }
        if !flush(&mut rows, &mut pool, diags, &mut each) {
            break;
        }
        if let Some(e) = failure {
            let (line, msg) = match e.kind() {
                csv::ErrorKind::Io(io) => {
                    diags.push(Diagnostic::read_error(file, io));
                    break;
                }
                _ => (
                    e.position().map_or(0, |p| p.line()),
                    format!("CSV syntax: {e}"),
                ),
            };
            diags.push(
                Diagnostic::error(&code, msg)
                    .file(file)
                    .line(line.max(1))
                    .hint("Write the file as RFC 4180 CSV (quote fields that contain the delimiter or quotes)."),
            );
        }
    }
    if header.is_none() {
        diags.push(
            Diagnostic::error(
                &format!("{family}.empty_file"),
                "the file has no header row",
            )
            .file(file)
            .hint("Start the file with a header row naming its columns, e.g. `id,label`."),
        );
    }
    header
}

/// The index of the column named `name` (ASCII case-insensitive).
pub fn find_column(header: &[String], name: &str) -> Option<usize> {
    header.iter().position(|h| h.eq_ignore_ascii_case(name))
}

/// The id column: `option` if given (an error when absent), else the first column named `id` (any case), else
/// the first column.
pub fn id_column(
    family: &str,
    file: &str,
    header: &[String],
    option: &str,
    diags: &mut Diags,
) -> Option<usize> {
    if !option.is_empty() {
        let c = header.iter().position(|h| h == option);
        if c.is_none() {
            diags.push(missing_column(family, file, header, option, "id_column"));
        }
        return c;
    }
    Some(find_column(header, "id").unwrap_or(0))
}

/// A located error: the header lacks a named column.
pub fn missing_column(
    family: &str,
    file: &str,
    header: &[String],
    name: &str,
    option: &str,
) -> Diagnostic {
    Diagnostic::error(
        &format!("{family}.missing_column"),
        format!("no column named `{name}` in the header"),
    )
    .file(file)
    .at(1, 1)
    .expected(name.to_string())
    .found(excerpt(&header.join(",")))
    .hint(format!(
        "Name the column `{name}` in the header, or set the option `{option}`."
    ))
}

/// The value column besides `id`: `option` if given, else the only other column, else the first of
/// `defaults` (any case). `None` (with an error) when none fits.
pub fn value_column(
    family: &str,
    file: &str,
    header: &[String],
    id: usize,
    option: &str,
    defaults: &[&str],
    diags: &mut Diags,
) -> Option<usize> {
    if !option.is_empty() {
        if let Some(c) = header.iter().position(|h| h == option) {
            return Some(c);
        }
    }
    let others: Vec<usize> = (0..header.len()).filter(|&i| i != id).collect();
    if others.len() == 1 && option.is_empty() {
        return Some(others[0]);
    }
    for d in defaults {
        if let Some(c) = find_column(header, d).filter(|&c| c != id) {
            return Some(c);
        }
    }
    let name = if option.is_empty() {
        defaults.first().copied().unwrap_or("label")
    } else {
        option
    };
    diags.push(missing_column(family, file, header, name, "label_column"));
    None
}

/// Ids stored once: one byte arena, offsets, and an open-addressing table (FxHash, linear probing, at most half
/// full) of 64-bit entries: the high 32 bits of the id's hash (its tag) beside the row index. A probe compares
/// tags first and reads the arena only when they are equal, and the table grows without reading the arena (an
/// entry's home slot is its tag's low bits). While every id has the same length (`id00000001`, …), an id's
/// bytes are found from its index alone, without reading `ends`: one cache miss fewer per lookup.
#[derive(Default)]
pub struct IdIndex {
    arena: String,
    ends: Vec<u64>,
    table: Vec<u64>,
    /// The common length of all ids so far (`None` once two lengths differ, or when empty).
    uniform: Option<usize>,
}

const EMPTY: u64 = u64::MAX;

/// The tag of an id in an [`IdIndex`]: the high half of its hash.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tag(u64);

/// The [`Tag`] of `id`.
#[inline]
pub fn tag(id: &str) -> Tag {
    Tag(super::fxhash::hash_bytes(id.as_bytes()) >> 32)
}

/// Byte equality of two short strings without a call to `memcmp` (ids are mostly 4 to 16 bytes).
#[inline]
fn same(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let w8 = |s: &[u8], at: usize| u64::from_le_bytes(s[at..at + 8].try_into().unwrap_or([0; 8]));
    let w4 = |s: &[u8], at: usize| u32::from_le_bytes(s[at..at + 4].try_into().unwrap_or([0; 4]));
    match n {
        0..=3 => a == b,
        4..=7 => w4(a, 0) == w4(b, 0) && w4(a, n - 4) == w4(b, n - 4),
        8..=16 => w8(a, 0) == w8(b, 0) && w8(a, n - 8) == w8(b, n - 8),
        _ => a == b,
    }
}

/// `vec![v; n]`, asking Linux for huge pages when large (fewer TLB misses in random probes).
fn big_vec<T: Copy>(n: usize, v: T) -> Vec<T> {
    let mut out: Vec<T> = Vec::with_capacity(n);
    #[cfg(target_os = "linux")]
    if n * std::mem::size_of::<T>() >= 4 << 20 {
        let p = out.as_mut_ptr() as usize;
        let start = (p + (2 << 20) - 1) & !((2 << 20) - 1);
        let end = (p + n * std::mem::size_of::<T>()) & !((2 << 20) - 1);
        if end > start {
            // SAFETY: advice on pages of this allocation, which nothing has touched yet.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
    out.resize(n, v);
    out
}

impl IdIndex {
    pub fn len(&self) -> usize {
        self.ends.len()
    }
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }
    pub fn get(&self, i: usize) -> &str {
        let (s, e) = self.span(i);
        self.arena.get(s..e).unwrap_or("")
    }
    #[inline]
    fn span(&self, i: usize) -> (usize, usize) {
        if let Some(l) = self.uniform {
            return (i * l, (i + 1) * l);
        }
        let s = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        (s, self.ends[i] as usize)
    }
    #[inline]
    fn bytes(&self, i: usize) -> &[u8] {
        let (s, e) = self.span(i);
        &self.arena.as_bytes()[s..e]
    }
    /// Whether row `i` (a valid row index) has id `id`.
    #[inline]
    pub fn is(&self, i: usize, id: &str) -> bool {
        match self.uniform {
            Some(l) if l != id.len() => false,
            _ => same(self.bytes(i), id.as_bytes()),
        }
    }
    /// `Ok(row index)` of `id` (tag `tag`), or `Err(the empty slot where it would go)`.
    #[inline]
    fn slot(&self, id: &str, tag: u64) -> Result<usize, usize> {
        let mask = self.table.len() - 1;
        let mut s = tag as usize & mask;
        loop {
            let v = self.table[s];
            if v == EMPTY {
                return Err(s);
            }
            if v >> 32 == tag && self.is(v as u32 as usize, id) {
                return Ok(v as u32 as usize);
            }
            s = (s + 1) & mask;
        }
    }
    /// The row index of `id`.
    pub fn find(&self, id: &str) -> Option<usize> {
        self.find_tagged(id, tag(id))
    }
    /// [`IdIndex::find`] of an id whose [`tag`] is known.
    #[inline]
    pub fn find_tagged(&self, id: &str, tag: Tag) -> Option<usize> {
        if self.table.is_empty() {
            return None;
        }
        self.slot(id, tag.0).ok()
    }
    /// The tags of `ids` (into `tags`), each id's home slot read meanwhile: the reads of a batch wait on memory
    /// together, and the lookups or inserts that follow find the slots in cache.
    pub fn prepare<'s>(&self, ids: impl Iterator<Item = &'s str>, tags: &mut Vec<Tag>) {
        tags.clear();
        tags.extend(ids.map(tag));
        if self.table.is_empty() {
            return;
        }
        let mask = self.table.len() - 1;
        let touched = tags
            .iter()
            .fold(0u64, |a, t| a ^ self.table[t.0 as usize & mask]);
        std::hint::black_box(touched);
    }
    /// Adds `id` and returns its new row index, or `Err(first row index)` when it is already there.
    pub fn insert(&mut self, id: &str) -> Result<usize, usize> {
        self.insert_tagged(id, tag(id))
    }
    /// [`IdIndex::insert`] of an id whose [`tag`] is known.
    pub fn insert_tagged(&mut self, id: &str, tag: Tag) -> Result<usize, usize> {
        if (self.ends.len() + 1) * 2 > self.table.len() {
            self.grow();
        }
        let tag = tag.0;
        let s = match self.slot(id, tag) {
            Ok(first) => return Err(first),
            Err(s) => s,
        };
        let i = self.ends.len();
        if i == 0 {
            self.uniform = Some(id.len());
        } else if self.uniform != Some(id.len()) {
            self.uniform = None;
        }
        self.arena.push_str(id);
        self.ends.push(self.arena.len() as u64);
        self.table[s] = tag << 32 | i as u64;
        Ok(i)
    }
    fn grow(&mut self) {
        let n = (self.table.len() * 2).max(64);
        let old = std::mem::replace(&mut self.table, big_vec(n, EMPTY));
        let mask = n - 1;
        for v in old.into_iter().filter(|&v| v != EMPTY) {
            let mut s = (v >> 32) as usize & mask;
            while self.table[s] != EMPTY {
                s = (s + 1) & mask;
            }
            self.table[s] = v;
        }
    }
}

/// Matches submission rows to GT rows: unknown and repeated ids are located errors.
pub struct Matcher<'a> {
    pub family: &'a str,
    pub file: &'a str,
    pub seen: Vec<u64>,
    /// The GT row after the last one matched: tried first, so that a submission in GT order is matched
    /// without hashing.
    next: usize,
    tags: Vec<Tag>,
}

impl<'a> Matcher<'a> {
    pub fn new(family: &'a str, file: &'a str, n: usize) -> Self {
        Matcher {
            family,
            file,
            seen: vec![0; n],
            next: 0,
            tags: Vec::new(),
        }
    }
    /// The GT row of the submission row's id (field `col`), or `None` with an error diagnostic.
    pub fn row(
        &mut self,
        ids: &IdIndex,
        row: &Row,
        col: usize,
        diags: &mut Diags,
    ) -> Option<usize> {
        let id = row.get(col);
        let found = if self.next < ids.len() && ids.is(self.next, id) {
            Some(self.next)
        } else {
            ids.find(id)
        };
        self.accept(row, col, found, diags)
    }
    /// The GT rows of the ids (field `col`) of a batch of rows (`None`: not in the GT), into `found`, to be
    /// given to [`Matcher::accept`] row by row. The batch's memory reads overlap (see [`IdIndex::prepare`]).
    pub fn lookup(
        &mut self,
        ids: &IdIndex,
        rows: &[Row],
        col: usize,
        found: &mut Vec<Option<usize>>,
    ) {
        found.clear();
        // Rows in GT order are matched without hashing; the others are looked up.
        let mut guess = self.next;
        for row in rows {
            let id = row.get(col);
            if guess < ids.len() && ids.is(guess, id) {
                found.push(Some(guess));
                guess += 1;
            } else {
                found.push(None);
            }
        }
        let rest = || {
            rows.iter()
                .zip(found.iter())
                .filter(|(_, f)| f.is_none())
                .map(|(r, _)| r.get(col))
        };
        ids.prepare(rest(), &mut self.tags);
        let mut tags = self.tags.iter();
        let mut touched = 0;
        for (row, f) in rows.iter().zip(found.iter_mut()) {
            if f.is_none() {
                let t = tags.next().copied().unwrap_or_default();
                *f = ids.find_tagged(row.get(col), t);
                if let Some(i) = *f {
                    touched ^= self.seen[i];
                }
            }
        }
        std::hint::black_box(touched);
    }
    /// The GT row `found` for the submission row's id (field `col`), or `None` with an error diagnostic (an
    /// unknown id: `found` is `None`, or a repeated one).
    pub fn accept(
        &mut self,
        row: &Row,
        col: usize,
        found: Option<usize>,
        diags: &mut Diags,
    ) -> Option<usize> {
        let id = row.get(col);
        if let Some(i) = found.filter(|&i| self.seen[i] == 0) {
            self.seen[i] = row.line.max(1);
            self.next = i + 1;
            return Some(i);
        }
        let at = (row.line, row.column(col));
        match found {
            None => {
                diags.push(
                    Diagnostic::error(&format!("{}.unknown_id", self.family), format!("id `{}` is not in the ground truth", excerpt(id)))
                        .file(self.file)
                        .at(at.0, at.1)
                        .found(excerpt(id))
                        .hint("Submit exactly the ids of the ground truth (check the id column and spelling).")
                        .official("rejects the submission (as Kaggle does)"),
                );
                None
            }
            Some(i) => {
                diags.push(
                    Diagnostic::error(
                        &format!("{}.duplicate_id", self.family),
                        format!(
                            "id `{}` repeated (first on line {})",
                            excerpt(id),
                            self.seen[i]
                        ),
                    )
                    .file(self.file)
                    .at(at.0, at.1)
                    .found(excerpt(id))
                    .hint("Give one row per id.")
                    .official("rejects the submission (as Kaggle does)"),
                );
                None
            }
        }
    }
    /// GT rows the submission did not give (in GT order).
    pub fn missing(&self) -> Vec<usize> {
        (0..self.seen.len())
            .filter(|&i| self.seen[i] == 0)
            .collect()
    }
}

/// A parsed number field: finite f64, or a located error (`<family>.empty_cell`, `.non_numeric`, `.non_finite`).
pub fn number(family: &str, file: &str, row: &Row, col: usize, diags: &mut Diags) -> Option<f64> {
    let s = row.get(col);
    if let Ok(v) = s.parse::<f64>() {
        if v.is_finite() {
            return Some(v);
        }
    }
    let err = |code: &str, msg: String, hint: &str| {
        Diagnostic::error(&format!("{family}.{code}"), msg)
            .file(file)
            .at(row.line, row.column(col))
            .expected("a finite decimal number")
            .found(excerpt(s))
            .hint(hint.to_string())
    };
    if s.is_empty() {
        diags.push(err(
            "empty_cell",
            "empty cell".into(),
            "Fill every cell with a number.",
        ));
        return None;
    }
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() => Some(v),
        Ok(_) => {
            diags.push(err(
                "non_finite",
                format!("`{}` is not a finite number", excerpt(s)),
                "Replace NaN and infinities by finite numbers.",
            ));
            None
        }
        Err(_) => {
            diags.push(err(
                "non_numeric",
                format!("`{}` is not a number", excerpt(s)),
                "Write decimal numbers such as 0.25 or 1e-3.",
            ));
            None
        }
    }
}
