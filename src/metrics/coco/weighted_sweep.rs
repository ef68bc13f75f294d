//! The weighted replicate's sweep of one category's detections (see [`super::weighted`]): every IoU threshold
//! of one (area range, maxDets) pair at once. A detection is one entry with a bit per threshold for "true
//! positive there" and one for "false positive there" (neither: ignored or beyond maxDets), so the
//! detections that are false positives at every threshold (most of them) cost one masked addition, not one
//! pass per threshold.
//!
//! Per threshold the sweep is `accumulate()`'s: the detections in its order (a run of equal scores in one
//! cell repeated as a block, copy after copy), `tp` and `fp` counted with the weights, `pr = tp / (fp + tp +
//! np.spacing(1))` at each true positive, `pr` made monotone from the right and read at the first point whose
//! recall reaches each threshold (`np.searchsorted(rc, recThrs, 'left')`; a point past the last true positive
//! reads 0).

use super::accumulate::SPACING_1;
use super::evaluate_img::{FP, TP};
use std::ops::Range;

/// Thresholds swept together (the bits of a mask).
pub const LANES: usize = 32;

/// A detection in `accumulate()`'s order: its cell and, bit per threshold of the group, whether it is a true or
/// a false positive there. With `cell == RUN_MARK` it heads a run of equal scores in one cell with two or more
/// entries: `tp` is the run's length, its entries follow. With `cell == FP_BLOCK` it stands for consecutive
/// detections that are false positives at every threshold of the group (most of them): their cells are
/// `Stream::cells[tp..tp + fp]`, and a replicate adds their weights in one tight loop, without a branch per
/// detection.
#[derive(Clone, Copy, Debug, Default)]
pub struct Entry {
    pub cell: u32,
    pub tp: u32,
    pub fp: u32,
}

const RUN_MARK: u32 = u32::MAX;
const FP_BLOCK: u32 = u32::MAX - 1;

/// The entries of one (precision pair, group of thresholds), and the cells of their false-positive blocks.
#[derive(Clone, Debug, Default)]
pub struct Stream {
    entries: Vec<Entry>,
    cells: Vec<u32>,
}

/// The combined stream of the thresholds `lanes` (at most [`LANES`]) of one precision pair: `order` is
/// `accumulate()`'s order (cell, rank in the cell), `start` where each run of equal scores within one cell
/// starts, `state(cell, rank, t)` [`TP`], [`FP`] or ignored. Detections ignored at every threshold are left
/// out (they add to neither count); the stream is cut after its last true positive (what follows changes no
/// precision read). The detections false positives at every threshold (their order among themselves changes
/// no count) are gathered into blocks.
pub fn stream(
    order: &[(u32, u32)],
    start: &[bool],
    lanes: Range<usize>,
    state: impl Fn(u32, u32, usize) -> u8,
) -> Stream {
    let every = if lanes.len() >= LANES {
        u32::MAX
    } else {
        (1u32 << lanes.len()) - 1
    };
    let mut out = Stream::default();
    let (mut end, mut cells_end) = (0, 0);
    let mut block = 0;
    let mut run: Vec<Entry> = Vec::new();
    let mut i = 0;
    while i < order.len() {
        let mut j = i + 1;
        while j < order.len() && !start[j] {
            j += 1;
        }
        run.clear();
        for &(c, d) in &order[i..j] {
            let (mut tp, mut fp) = (0u32, 0u32);
            for (bit, t) in lanes.clone().enumerate() {
                match state(c, d, t) {
                    TP => tp |= 1 << bit,
                    FP => fp |= 1 << bit,
                    _ => {}
                }
            }
            if tp | fp != 0 {
                run.push(Entry { cell: c, tp, fp });
            }
        }
        i = j;
        if run.iter().all(|e| e.tp == 0 && e.fp == every) {
            out.cells.extend(run.iter().map(|e| e.cell));
            continue;
        }
        if out.cells.len() > block {
            out.entries.push(Entry {
                cell: FP_BLOCK,
                tp: block as u32,
                fp: (out.cells.len() - block) as u32,
            });
            block = out.cells.len();
        }
        if run.len() > 1 {
            out.entries.push(Entry {
                cell: RUN_MARK,
                tp: run.len() as u32,
                fp: 0,
            });
        }
        out.entries.extend_from_slice(&run);
        if run.iter().any(|e| e.tp != 0) {
            (end, cells_end) = (out.entries.len(), out.cells.len());
        }
    }
    out.entries.truncate(end);
    out.cells.truncate(cells_end);
    out
}

/// `np.searchsorted(rc, recThrs, 'left')` as true-positive counts: for each recall threshold, the smallest
/// k >= 1 with k / npig >= thr (k = 1 when thr <= 0), thresholds ascending. A threshold above 1 (recThrs is
/// `linspace(0, 1, 101)`) stops at `npig + 1`, beyond every point: the true positives matched GT that is not
/// ignored, at most `npig`.
pub fn first_points(npig: u64, rec_thrs: &[f64], ks: &mut Vec<u64>) {
    ks.clear();
    let mut k = 1u64;
    for &thr in rec_thrs {
        while k <= npig && (k as f64 / npig as f64) < thr {
            k += 1;
        }
        ks.push(k);
    }
}

/// The state of one sweep. Per threshold t the true positives are numbered 1, 2, …; `bucket[t][s]` is the
/// largest `pr` of those whose number k has exactly s recall thresholds with `ks[r] <= k`. The precision read
/// at recall threshold r, the maximum of `pr` from the `ks[r]`-th true positive on, is the maximum over the
/// buckets after r. Within a stretch of true positives (no false positive between) `pr` only grows (the
/// numerator grows by one, the rounded denominator by at most one), so only the last of a stretch in each
/// bucket is computed (`pending`, bit t). Threshold t's false positives are `all_fp + fp[t]`: those at every
/// threshold of the group (most of them) are one addition.
pub struct Sweep<'a> {
    ks: &'a [u64],
    bucket: &'a mut [f64],
    s: [usize; LANES],
    tp: [u64; LANES],
    fp: [u64; LANES],
    all_fp: u64,
    every: u32,
    pending: u32,
}

impl<'a> Sweep<'a> {
    /// A sweep of `lanes` thresholds; `bucket` scratch space of at least `lanes * (ks.len() + 1)`.
    pub fn new(ks: &'a [u64], bucket: &'a mut [f64], lanes: usize) -> Sweep<'a> {
        let used = lanes * (ks.len() + 1);
        bucket[..used].fill(0.0);
        Sweep {
            ks,
            bucket: &mut bucket[..used],
            s: [0; LANES],
            tp: [0; LANES],
            fp: [0; LANES],
            all_fp: 0,
            every: if lanes >= LANES {
                u32::MAX
            } else {
                (1u32 << lanes) - 1
            },
            pending: 0,
        }
    }

    /// `pr` as `accumulate()` computes it at the last true positive of threshold t, into its bucket.
    fn flush_lane(&mut self, t: usize) {
        let fp = self.all_fp + self.fp[t];
        let pr = self.tp[t] as f64 / (fp as f64 + self.tp[t] as f64 + SPACING_1);
        let b = &mut self.bucket[t * (self.ks.len() + 1) + self.s[t]];
        if pr > *b {
            *b = pr;
        }
    }

    fn flush(&mut self, lanes: u32) {
        let mut m = self.pending & lanes;
        self.pending &= !lanes;
        while m != 0 {
            self.flush_lane(m.trailing_zeros() as usize);
            m &= m - 1;
        }
    }

    /// `n` false positives at the thresholds of `lanes`.
    fn false_positives(&mut self, lanes: u32, n: u64) {
        if self.pending & lanes != 0 {
            self.flush(lanes);
        }
        if lanes == self.every {
            self.all_fp += n;
        } else {
            let mut m = lanes;
            while m != 0 {
                self.fp[m.trailing_zeros() as usize] += n;
                m &= m - 1;
            }
        }
    }

    /// `n` true positives in a row at the thresholds of `lanes`.
    fn true_positives(&mut self, lanes: u32, n: u64) {
        let r_n = self.ks.len();
        let mut m = lanes;
        while m != 0 {
            let t = m.trailing_zeros() as usize;
            m &= m - 1;
            if self.s[t] < r_n && self.ks[self.s[t]] <= self.tp[t] + n {
                for _ in 0..n {
                    if self.s[t] < r_n && self.ks[self.s[t]] <= self.tp[t] + 1 {
                        if self.pending & (1 << t) != 0 {
                            self.flush_lane(t);
                        }
                        while self.s[t] < r_n && self.ks[self.s[t]] <= self.tp[t] + 1 {
                            self.s[t] += 1;
                        }
                    }
                    self.tp[t] += 1;
                    self.pending |= 1 << t;
                }
            } else {
                self.tp[t] += n;
                self.pending |= 1 << t;
            }
        }
    }

    #[inline]
    fn entry(&mut self, e: &Entry, n: u64) {
        if e.fp != 0 {
            self.false_positives(e.fp, n);
        }
        if e.tp != 0 {
            self.true_positives(e.tp, n);
        }
    }

    /// Sweeps `stream` with `wc[cell]` copies of each cell.
    pub fn run(&mut self, stream: &Stream, wc: &[u32]) {
        let entries = &stream.entries;
        let mut i = 0;
        while i < entries.len() {
            let e = entries[i];
            i += 1;
            if e.cell == FP_BLOCK {
                let cells = &stream.cells[e.tp as usize..(e.tp + e.fp) as usize];
                let n: u64 = cells.iter().map(|&c| u64::from(wc[c as usize])).sum();
                if n > 0 {
                    self.false_positives(self.every, n);
                }
            } else if e.cell == RUN_MARK {
                // A run of equal scores in one cell: the copies' blocks one after the other.
                let block = &entries[i..i + e.tp as usize];
                i += block.len();
                for _ in 0..wc[block[0].cell as usize] {
                    for x in block {
                        self.entry(x, 1);
                    }
                }
            } else {
                let w = wc[e.cell as usize];
                if w > 0 {
                    self.entry(&e, w as u64);
                }
            }
        }
        self.flush(u32::MAX);
    }

    /// The precision at each recall threshold r of threshold (lane) t into `q[r * stride]`.
    pub fn read(&self, t: usize, q: &mut [f64], stride: usize) {
        let r_n = self.ks.len();
        let b = &self.bucket[t * (r_n + 1)..(t + 1) * (r_n + 1)];
        let mut best = 0.0f64;
        for r in (0..r_n).rev() {
            if b[r + 1] > best {
                best = b[r + 1];
            }
            q[r * stride] = best;
        }
    }
}
