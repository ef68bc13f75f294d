//! The input layer's size limits ([`Limits`], derived from the run's memory budget) and the reader that
//! enforces the decompressed size of one stream ([`Limited`]).

use std::io::{self, Read};

/// Size limits, derived from the run's memory budget ([`crate::budget::Budget`]; README, "Limits and the
/// memory budget"). Defaults suit a browser tab and a scoring server alike.
#[derive(Clone, Debug)]
pub struct Limits {
    /// The budget the limits derive from (named in every refusal).
    pub budget: crate::budget::Budget,
    /// Largest decompressed size of one entry: half the budget (1 GiB by default).
    pub max_entry_bytes: u64,
    /// Decompressed bytes across all compressed entries of the run (zip deflate members and `.gz`): twice
    /// the budget. They are streamed, not held, but a few kilobytes must not buy hours of inflating.
    pub max_total_bytes: u64,
    /// Largest compression ratio accepted for entries whose decompressed size exceeds `ratio_floor`. Deflate
    /// tops out near 1032:1, so the rule must sit well below that to fire at all: 250:1 above 64 MiB is
    /// beyond any real text (qrels, runs and XML compress 5–30:1) and typical of a bomb.
    pub max_ratio: u64,
    pub ratio_floor: u64,
    /// Largest zip nested inside a zip (it is inflated into memory to be opened).
    pub max_nested_zip: u64,
    /// Most entries in one archive.
    pub max_entries: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits::from_budget(crate::budget::Budget::default())
    }
}

impl Limits {
    pub fn from_budget(budget: crate::budget::Budget) -> Limits {
        Limits {
            budget,
            max_entry_bytes: budget.entry_limit(),
            max_total_bytes: budget.total_limit(),
            max_ratio: 250,
            ratio_floor: 64 << 20,
            max_nested_zip: budget.entry_limit().min(1 << 30),
            max_entries: 200_000,
        }
    }
    /// The limits for `--set` pairs (their `max_memory`, or the default budget).
    pub fn from_set(set: &[(String, String)]) -> Limits {
        Limits::from_budget(crate::budget::Budget::from_set(set))
    }
    /// The refusal of a decompressed size over the per-entry limit.
    pub(crate) fn entry_refusal(&self, what: &str, size: u64) -> String {
        format!(
            "{what} {} decompressed, over the per-file limit of {} (half of max_memory = {}); {}",
            crate::budget::human(size),
            crate::budget::human(self.max_entry_bytes),
            crate::budget::human(self.budget.max_memory),
            crate::budget::RAISE
        )
    }
}

/// Fails a read once more than `limit` bytes came out (a zip bomb, or a header that lies).
pub(super) struct Limited<R> {
    inner: R,
    left: u64,
    limit: u64,
}

impl<R: Read> Limited<R> {
    pub(super) fn new(inner: R, limit: u64) -> Self {
        Limited {
            inner,
            left: limit,
            limit,
        }
    }
}

impl<R: Read> Read for Limited<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n as u64 > self.left {
            return Err(crate::budget::limit_error(format!(
                "decompressed data exceeds {} (the size its archive declares, or the per-file limit of half \
                 of max_memory): refused as a possible zip bomb; {}",
                crate::budget::human(self.limit),
                crate::budget::RAISE
            )));
        }
        self.left -= n as u64;
        Ok(n)
    }
}
