//! The ids of a GT table, stored once ([`IdIndex`]), and the matching of submission rows to them ([`Matcher`]),
//! for the `classification` and `regression` families (docs/specs/families.md section 0).

use super::csv_block::Records;
use super::csv_records::{raw_field, Early, EarlyFn, Worked};
use super::id_csv::{finite, Row};
use crate::diag::{excerpt, Diagnostic, Diags};
use crate::items::Ids;
use std::sync::OnceLock;

mod lookalike;

const BATCH_ROWS: usize = super::csv_records::BATCH;

/// Ids stored once ([`Ids`]: one text arena, and each id's end once their lengths differ) and an
/// open-addressing table (FxHash, linear probing, at most half full) of 64-bit entries: the high 32 bits of the
/// id's hash (its tag) beside the row index. A probe compares tags first and reads the arena only when they are
/// equal, and the table grows without reading the arena (an entry's home slot is its tag's low bits). While
/// every id has the same length, an id's bytes are found from its index alone: one cache miss fewer per lookup.
#[derive(Default)]
pub struct IdIndex {
    ids: Ids,
    table: Vec<u64>,
}

const EMPTY: u64 = u64::MAX;

/// The tag of an id in an [`IdIndex`]: the high half of its hash.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tag(u64);

/// The [`Tag`] of `id`.
#[inline]
pub fn tag(id: &str) -> Tag {
    tag_bytes(id.as_bytes())
}

/// The [`Tag`] of an id given as bytes: the high half of a 64-bit hash. `FxHasher`'s state is a `usize`, so on
/// a 32-bit target (wasm32, the page) its hash has no high half: every id would get tag 0 and one probe chain,
/// and reading n ids would take O(n²) (a 100,000-row CSV took a minute in the page). There foldhash's 64-bit
/// hash is used instead; on 64-bit targets FxHasher, the faster of the two for short ids.
#[inline]
pub fn tag_bytes(id: &[u8]) -> Tag {
    use std::hash::Hasher;
    #[cfg(target_pointer_width = "64")]
    let mut h = rustc_hash::FxHasher::default();
    #[cfg(not(target_pointer_width = "64"))]
    let mut h = std::hash::BuildHasher::build_hasher(&foldhash::fast::FixedState::with_seed(0));
    h.write(id);
    Tag(h.finish() >> 32)
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

impl IdIndex {
    pub fn len(&self) -> usize {
        self.ids.len()
    }
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }
    pub fn get(&self, i: usize) -> &str {
        self.ids.get(i)
    }
    /// Every id, one after another (for a check of their characters at once).
    pub fn text(&self) -> &str {
        self.ids.text()
    }
    /// The ids, without the table that finds them (the per-item table keeps them).
    pub fn into_ids(self) -> Ids {
        self.ids
    }
    /// Whether row `i` (a valid row index) has id `id`.
    #[inline]
    pub fn is(&self, i: usize, id: &str) -> bool {
        self.is_bytes(i, id.as_bytes())
    }
    /// [`IdIndex::is`] of an id given as bytes.
    #[inline]
    pub fn is_bytes(&self, i: usize, id: &[u8]) -> bool {
        match self.ids.uniform() {
            Some(l) if l != id.len() => false,
            _ => same(self.ids.bytes(i), id),
        }
    }
    /// `Ok(row index)` of `id` (tag `tag`), or `Err(the empty slot where it would go)`.
    #[inline]
    fn slot(&self, id: &[u8], tag: u64) -> Result<usize, usize> {
        let mask = self.table.len() - 1;
        let mut s = tag as usize & mask;
        loop {
            let v = self.table[s];
            if v == EMPTY {
                return Err(s);
            }
            if v >> 32 == tag && self.is_bytes(v as u32 as usize, id) {
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
        self.find_bytes(id.as_bytes(), tag)
    }
    /// [`IdIndex::find_tagged`] of an id given as bytes.
    #[inline]
    pub fn find_bytes(&self, id: &[u8], tag: Tag) -> Option<usize> {
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
        self.touch(tags);
    }
    /// [`IdIndex::prepare`] of the ids (field `col`) of a batch of rows, taking the tags [`early_tags`] worked
    /// out when every row has one.
    pub fn prepare_rows<'r, 's: 'r>(
        &self,
        rows: impl Iterator<Item = &'r Row<'s>> + Clone,
        col: usize,
        tags: &mut Vec<Tag>,
    ) {
        if rows.clone().all(|r| r.early.key.is_some()) {
            tags.clear();
            tags.extend(rows.map(|r| Tag(r.early.key.unwrap_or(0))));
            self.touch(tags);
        } else {
            self.prepare(rows.map(|r| r.get(col)), tags);
        }
    }
    /// Reads the home slots of `tags` (see [`IdIndex::prepare`]).
    pub fn touch(&self, tags: &[Tag]) {
        if self.table.is_empty() {
            return;
        }
        let mask = self.table.len() - 1;
        let touched = tags
            .iter()
            .fold(0u64, |a, t| a ^ self.table[t.0 as usize & mask]);
        std::hint::black_box(touched);
    }
    /// Frees the table that finds ids (the index's largest part: 8 bytes × twice the ids), once every lookup is
    /// done: afterwards [`IdIndex::find`] finds nothing, [`IdIndex::get`] and [`IdIndex::len`] are unchanged,
    /// and an [`IdIndex::insert`] builds the table again first.
    pub fn done_finding(&mut self) {
        self.table = Vec::new();
    }
    /// Adds `id` and returns its new row index, or `Err(first row index)` when it is already there.
    pub fn insert(&mut self, id: &str) -> Result<usize, usize> {
        self.insert_tagged(id, tag(id))
    }
    /// [`IdIndex::insert`] of an id whose [`tag`] is known.
    pub fn insert_tagged(&mut self, id: &str, tag: Tag) -> Result<usize, usize> {
        if self.freed() {
            // After `done_finding`: the ids so far, hashed again.
            let n = self.ids.len();
            let entries: Vec<u64> = (0..n)
                .map(|i| tag_bytes(self.ids.bytes(i)).0 << 32 | i as u64)
                .collect();
            self.place(n.next_power_of_two() * 2, entries);
        }
        if (self.ids.len() + 1) * 2 > self.table.len() {
            self.grow();
        }
        let tag = tag.0;
        let s = match self.slot(id.as_bytes(), tag) {
            Ok(first) => return Err(first),
            Err(s) => s,
        };
        let i = self.ids.push(id);
        self.table[s] = tag << 32 | i as u64;
        Ok(i)
    }
    /// The most table bytes [`IdIndex::reserve`] takes per id: 8-byte slots, twice the ids rounded up to a power
    /// of two.
    pub const TABLE_BYTES_PER_ID: u64 = 8 * 4;
    /// Sizes the table for `rows` ids in all, so that it does not grow (and place every id again) while they are
    /// inserted (5M-row regression GT: 0.54 -> 0.37 s). Never shrinks it.
    pub fn reserve(&mut self, rows: usize) {
        let n = rows.saturating_mul(2).next_power_of_two();
        if n > self.table.len() && !self.freed() {
            let old = std::mem::take(&mut self.table);
            self.place(n, old);
        }
    }
    /// Whether [`IdIndex::done_finding`] freed the table (an insert builds it again).
    fn freed(&self) -> bool {
        self.table.is_empty() && !self.ids.is_empty()
    }
    fn grow(&mut self) {
        let old = std::mem::take(&mut self.table);
        self.place((old.len() * 2).max(64), old);
    }
    /// A new table of `n` slots (a power of two) holding `entries` (`EMPTY` ones skipped).
    fn place(&mut self, n: usize, entries: Vec<u64>) {
        self.table = vec![EMPTY; n];
        let mask = n - 1;
        for v in entries.into_iter().filter(|&v| v != EMPTY) {
            let mut s = (v >> 32) as usize & mask;
            while self.table[s] != EMPTY {
                s = (s + 1) & mask;
            }
            self.table[s] = v;
        }
    }
}

/// The columns an `early` function reads: the id's and, if any, the number's; set once the header is read.
pub type EarlyColumns = OnceLock<(usize, Option<usize>)>;

/// The `early` function of a GT table: each record's id [`Tag`] (key) and number field (if a column is given).
pub fn early_tags(cols: &EarlyColumns) -> impl EarlyFn + '_ {
    move |recs: &Records, out: &mut Worked| {
        let Some(&(ic, vc)) = cols.get() else { return };
        out.early.extend(recs.iter().map(|r| Early {
            key: Some(tag_bytes(raw_field(&r, ic)).0),
            number: vc.and_then(|c| finite(raw_field(&r, c))),
            row: None,
        }));
    }
}

/// The `early` function of a submission: [`early_tags`], and in every other block each record's GT row (`row`),
/// found as [`Matcher::lookup`] finds it, so that the two threads share the lookups. (All of them on the
/// tokenising thread made it the slower one: 5M-row regression 1.54–1.60 s; none there 1.58–1.65 s; every
/// other block 1.41–1.47 s.)
pub fn early_rows<'a>(ids: &'a IdIndex, cols: &'a EarlyColumns) -> impl EarlyFn + 'a {
    early_rows_every(ids, cols, 2)
}

/// [`early_rows`], the rows found in one block out of `every` (the first, then every `every`-th). A reader
/// whose tokenising thread also reads several numbers a record gives it fewer lookups: 1M x 6 columns
/// (perf, load 5): with every other block the
/// tokeniser took 324 samples of the submission's reading against the checker's 216.
pub fn early_rows_every<'a>(
    ids: &'a IdIndex,
    cols: &'a EarlyColumns,
    every: usize,
) -> impl EarlyFn + 'a {
    let mut tags_only = early_tags(cols);
    let mut block = 0usize;
    let mut tags = Vec::new();
    move |recs: &Records, out: &mut Worked| {
        tags_only(recs, out);
        let this = block.is_multiple_of(every.max(1));
        block += 1;
        let Some(&(ic, _)) = cols.get().filter(|_| this && !ids.is_empty()) else {
            return;
        };
        for (b, early) in out.early.chunks_mut(BATCH_ROWS).enumerate() {
            tags.clear();
            tags.extend(early.iter().map(|e| Tag(e.key.unwrap_or(0))));
            ids.touch(&tags);
            for (k, (e, &t)) in early.iter_mut().zip(&tags).enumerate() {
                let r = recs.get(b * BATCH_ROWS + k);
                e.row = Some(ids.find_bytes(raw_field(&r, ic), t).map(|i| i as u32));
            }
        }
    }
}

/// The number columns an [`early_numbers`] function reads, set once the header is read.
pub type NumberColumns = OnceLock<Vec<usize>>;

/// `inner`, and each record's fields in `cols` read as numbers ([`Worked::numbers`]: the checker then reads
/// them from [`super::csv_records::Row::numbers`] instead of parsing them itself, the tokenising thread's copy of
/// the record being still in its cache).
pub fn early_numbers<'a>(
    mut inner: impl EarlyFn + 'a,
    cols: &'a NumberColumns,
) -> impl EarlyFn + 'a {
    move |recs: &Records, out: &mut Worked| {
        inner(recs, out);
        let Some(cols) = cols.get().filter(|c| !c.is_empty()) else {
            return;
        };
        out.per_record = cols.len();
        out.numbers.reserve(recs.len() * cols.len());
        for r in recs.iter() {
            let read = cols
                .iter()
                .map(|&c| finite(raw_field(&r, c)).unwrap_or(f64::NAN));
            out.numbers.extend(read);
        }
    }
}

/// Matches submission rows to GT rows: unknown and repeated ids are located errors.
pub struct Matcher<'a> {
    pub family: &'a str,
    pub file: &'a str,
    /// The submission's line per GT row (0: not given). Only written while matching: whether a row was given is
    /// read from `given`, a bit per row that stays in cache (5M rows: 625 KB), so that accepting a row waits on
    /// no memory read.
    pub seen: Vec<u64>,
    given: Vec<u64>,
    /// The GT row after the last one matched: tried first, so that a submission in GT order is matched
    /// without hashing.
    next: usize,
    tags: Vec<Tag>,
    /// Unknown ids that are GT ids in another Unicode form or with invisible characters.
    lookalikes: lookalike::Lookalikes,
}

impl<'a> Matcher<'a> {
    pub fn new(family: &'a str, file: &'a str, n: usize) -> Self {
        Matcher {
            family,
            file,
            seen: vec![0; n],
            given: vec![0; n.div_ceil(64)],
            next: 0,
            tags: Vec::new(),
            lookalikes: Default::default(),
        }
    }
    /// Notes the GT lookalikes of the ids (field `col`) of `rows` not found in the GT (`found[k]` is `None`).
    fn note_lookalikes(
        &mut self,
        ids: &IdIndex,
        rows: &[Row],
        col: usize,
        found: &[Option<usize>],
    ) {
        for (row, f) in rows.iter().zip(found) {
            if f.is_none() {
                self.lookalikes.note(ids, row.get(col));
            }
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
        if found.is_none() {
            self.lookalikes.note(ids, id);
        }
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
        // Rows the tokenising thread found (see [`early_rows`]).
        if !rows.is_empty() && rows.iter().all(|r| r.early.row.is_some()) {
            found.extend(
                rows.iter()
                    .map(|r| r.early.row.flatten().map(|i| i as usize)),
            );
            self.note_lookalikes(ids, rows, col, found);
            return;
        }
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
        let rest = rows
            .iter()
            .zip(found.iter())
            .filter(|(_, f)| f.is_none())
            .map(|(r, _)| r);
        ids.prepare_rows(rest, col, &mut self.tags);
        let mut tags = self.tags.iter();
        for (row, f) in rows.iter().zip(found.iter_mut()) {
            if f.is_none() {
                let t = tags.next().copied().unwrap_or_default();
                *f = ids.find_tagged(row.get(col), t);
            }
        }
        self.note_lookalikes(ids, rows, col, found);
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
        if let Some(i) = found.filter(|&i| !self.given(i)) {
            self.given[i / 64] |= 1 << (i % 64);
            self.seen[i] = row.line.max(1);
            self.next = i + 1;
            return Some(i);
        }
        let at = (row.line, row.column(col));
        match found {
            None => {
                let message = match self.lookalikes.words(id) {
                    Some(w) => format!(
                        "id `{}` is not in the ground truth: {w}",
                        lookalike::shown(&excerpt(id))
                    ),
                    None => format!("id `{}` is not in the ground truth", excerpt(id)),
                };
                diags.push(
                    Diagnostic::error(&format!("{}.unknown_id", self.family), message)
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
    /// Whether GT row `i` was given.
    fn given(&self, i: usize) -> bool {
        self.given[i / 64] >> (i % 64) & 1 == 1
    }
}

/// GT rows a submission did not give (in GT order), from its line per GT row ([`Matcher::seen`]: 0 when not
/// given).
pub fn missing(seen: &[u64]) -> Vec<usize> {
    (0..seen.len()).filter(|&i| seen[i] == 0).collect()
}

/// Reads the first and last value of each found row of a row-major table of `width` values per row: the rows a
/// batch is about to write are then fetched together rather than one miss at a time.
pub fn touch_rows(values: &[f64], found: &[Option<usize>], width: usize) {
    let mut sum = 0.0;
    for &i in found.iter().flatten() {
        sum += values.get(i * width).copied().unwrap_or(0.0);
        sum += values.get((i + 1) * width - 1).copied().unwrap_or(0.0);
    }
    std::hint::black_box(sum);
}

#[cfg(test)]
mod tests {
    use super::IdIndex;

    /// Ids that differ only in one middle byte (`002234.jpg`, `002235.jpg`) spread over the tag's low bits, where
    /// an entry's home slot is.
    #[test]
    fn similar_ids_fill_the_low_bits() {
        let mut slots = std::collections::HashSet::new();
        for i in 0..30_000u32 {
            slots.insert(super::tag(&format!("{i:06}.jpg")).0 & 0xffff);
        }
        // 30,000 keys into 65,536 slots: a uniform hash fills about 24,200 distinct slots.
        assert!(slots.len() > 23_000, "{} distinct slots", slots.len());
    }

    /// A reserved table never takes more than `TABLE_BYTES_PER_ID` a row (what `id_csv::expected_rows` caps by).
    #[test]
    fn reserve_stays_within_its_bytes_per_id() {
        for rows in [1usize, 2, 3, 31, 32, 33, 1000, 1 << 20, (1 << 20) + 1] {
            let mut ids = IdIndex::default();
            ids.reserve(rows);
            let bytes = (ids.table.len() * std::mem::size_of::<u64>()) as u64;
            assert!(
                bytes <= rows as u64 * IdIndex::TABLE_BYTES_PER_ID,
                "{rows} rows: {bytes} bytes"
            );
            assert!(ids.table.len() >= rows * 2, "{rows} rows at most half full");
        }
    }

    /// After `done_finding`, names stay, finding stops, and inserting builds the table again: earlier ids are
    /// still repeats.
    #[test]
    fn done_finding_keeps_names() {
        let mut ids = IdIndex::default();
        let names: Vec<String> = (0..1000).map(|i| format!("id{}", i * 7)).collect();
        for (i, n) in names.iter().enumerate() {
            assert_eq!(ids.insert(n), Ok(i));
        }
        ids.done_finding();
        assert_eq!(ids.len(), 1000);
        assert_eq!(ids.get(999), "id6993");
        assert_eq!(ids.find("id7"), None);
        assert_eq!(ids.insert("id14"), Err(2));
        assert_eq!(ids.insert("new"), Ok(1000));
        for (i, n) in names.iter().enumerate() {
            assert_eq!(ids.find(n), Some(i));
        }
        assert_eq!(ids.find("new"), Some(1000));
    }
}
