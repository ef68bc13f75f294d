//! Threshold curves from counts per distinct score, for score columns with few distinct values (scores written
//! with a handful of decimals): one pass counts the samples of each class at each distinct score in a small hash
//! table, and the distinct scores alone are sorted. The curves of scikit-learn's
//! `confusion_matrix_at_thresholds` ([`super::curves::threshold_curve`]) and of a class pair
//! ([`super::curves::ranked_curve`]) only read, per run of equal scores in decreasing order, how many samples of
//! each class the run holds: the counts give the same points, exactly (cumulative counts are integers below
//! 2⁵³, so their f64 values are the sums of ones the sorting code accumulates).

use super::curves::ThresholdCurve;

/// Samples of a score column grouped by distinct score (`-0.0` and `0.0` are one score, as `!=` has it).
pub struct Groups {
    /// Distinct scores, decreasing. The zero group's score is `-0.0` when the column holds a `-0.0` (the last of
    /// its run in `f64::total_cmp` order, the threshold the sorting code reports), else `0.0`.
    pub scores: Vec<f64>,
    /// Per distinct score (same order), the number of samples of each class: `counts[g * k + c]`.
    pub counts: Vec<u32>,
    /// Per distinct score, the number of samples.
    pub totals: Vec<u32>,
    pub k: usize,
}

const EMPTY: u32 = u32::MAX;

/// Groups `(score, class)` samples (classes below `k`) by score. `None` when the column has more than `cap`
/// distinct scores (sorting is then the better way), a NaN score, or 2³² samples or more.
pub fn group(samples: impl Iterator<Item = (f64, u32)>, k: usize, cap: usize) -> Option<Groups> {
    let mut d = Distinct::new(k);
    let mut negative_zero = false;
    let mut n = 0u64;
    for (s, c) in samples {
        if s.is_nan() || c as usize >= k {
            return None;
        }
        n += 1;
        if n >= u32::MAX as u64 {
            return None;
        }
        let key = if s == 0.0 {
            negative_zero |= s.is_sign_negative();
            0
        } else {
            s.to_bits()
        };
        let g = d.find_or_insert(key, cap)?;
        d.counts[g * k + c as usize] += 1;
    }
    Some(d.groups(negative_zero))
}

/// The distinct score keys (bits; zero for both zeros) in first-seen order, the class counts of each, and an
/// open-addressing table (linear probing, at most half full) from key to index.
struct Distinct {
    k: usize,
    keys: Vec<u64>,
    counts: Vec<u32>,
    bits: u32,
    table: Vec<u32>,
}

impl Distinct {
    fn new(k: usize) -> Distinct {
        Distinct {
            k,
            keys: Vec::new(),
            counts: Vec::new(),
            bits: 10,
            table: vec![EMPTY; 1 << 10],
        }
    }

    /// The home slot of `key` in a table of 2^`bits` slots (Fibonacci hashing).
    #[inline]
    fn home(key: u64, bits: u32) -> usize {
        (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - bits)) as usize
    }

    /// The index of `key`, added (with zero counts) when new; `None` when that would make more than `cap`.
    #[inline]
    fn find_or_insert(&mut self, key: u64, cap: usize) -> Option<usize> {
        let mask = self.table.len() - 1;
        let mut h = Self::home(key, self.bits);
        loop {
            let g = self.table[h];
            if g == EMPTY {
                let g = self.keys.len();
                if g >= cap {
                    return None;
                }
                self.keys.push(key);
                self.counts.resize(self.counts.len() + self.k, 0);
                self.table[h] = g as u32;
                if self.keys.len() * 2 > self.table.len() {
                    self.grow();
                }
                return Some(g);
            }
            if self.keys[g as usize] == key {
                return Some(g as usize);
            }
            h = (h + 1) & mask;
        }
    }

    /// Doubles the table and places every key again.
    fn grow(&mut self) {
        self.bits += 1;
        self.table = vec![EMPTY; 1 << self.bits];
        let mask = self.table.len() - 1;
        for (j, &kj) in self.keys.iter().enumerate() {
            let mut h = Self::home(kj, self.bits);
            while self.table[h] != EMPTY {
                h = (h + 1) & mask;
            }
            self.table[h] = j as u32;
        }
    }

    /// The groups by decreasing score (the zero group's score `-0.0` when `negative_zero`).
    fn groups(self, negative_zero: bool) -> Groups {
        let (keys, counts, k) = (self.keys, self.counts, self.k);
        let score = |key: u64| {
            if key == 0 && negative_zero {
                -0.0
            } else {
                f64::from_bits(key)
            }
        };
        let mut order: Vec<u32> = (0..keys.len() as u32).collect();
        order.sort_unstable_by(|&a, &b| {
            f64::from_bits(keys[b as usize]).total_cmp(&f64::from_bits(keys[a as usize]))
        });
        let mut out = Groups {
            scores: Vec::with_capacity(order.len()),
            counts: Vec::with_capacity(order.len() * k),
            totals: Vec::with_capacity(order.len()),
            k,
        };
        for &g in &order {
            let g = g as usize;
            out.scores.push(score(keys[g]));
            let row = &counts[g * k..(g + 1) * k];
            out.counts.extend_from_slice(row);
            out.totals.push(row.iter().sum());
        }
        out
    }
}

impl Groups {
    /// The threshold curve of class `pos` against the samples of class `pos` or `other` (all samples when
    /// `other` is `None`): what [`super::curves::ranked_curve`] gives on the column sorted, and, with `other =
    /// None`, what [`super::curves::threshold_curve`] gives on (score, class == pos).
    pub fn curve(&self, pos: usize, other: Option<usize>) -> ThresholdCurve {
        let k = self.k;
        let mut out = ThresholdCurve {
            fps: Vec::new(),
            tps: Vec::new(),
            thresholds: Vec::new(),
        };
        let (mut tp, mut count) = (0u64, 0u64);
        for (g, &s) in self.scores.iter().enumerate() {
            let p = self.counts[g * k + pos] as u64;
            let t = match other {
                None => self.totals[g] as u64,
                Some(o) => p + self.counts[g * k + o] as u64,
            };
            if t == 0 {
                continue;
            }
            tp += p;
            count += t;
            out.tps.push(tp as f64);
            out.fps.push((count - tp) as f64);
            out.thresholds.push(s);
        }
        out
    }
}

/// The curves of class `pos` from a column sorted by increasing key (`ranked`: (key, class), keys of
/// [`crate::metrics::radix::desc_key`] of the scores with `-0.0` keyed as `0.0`; `negative_zero`: the column holds a
/// `-0.0`), in one pass: against all samples (`ranked_curve(…, pos, None)`) and, at index b ≠ pos, against
/// the samples of class b (`ranked_curve(…, pos, Some(b))`; empty at index pos).
pub fn sorted_curves(
    ranked: &[(u64, u32)],
    pos: usize,
    k: usize,
    negative_zero: bool,
) -> (ThresholdCurve, Vec<ThresholdCurve>) {
    curves_of_sorted(ranked, pos, k, negative_zero, true)
}

/// The threshold curve of `(score, is_positive)` samples ([`super::curves::threshold_curve`]): from counts per
/// distinct score when there are at most `cap`, else from one radix sort in the buffers given (kept for the
/// next call). NaN scores (one run each there) take `threshold_curve` itself.
pub fn binary_curve<I: Iterator<Item = (f64, bool)> + Clone>(
    samples: I,
    cap: usize,
    keyed: &mut Vec<(u64, u32)>,
    scratch: &mut Vec<(u64, u32)>,
) -> ThresholdCurve {
    let mut out = ThresholdCurve {
        fps: Vec::new(),
        tps: Vec::new(),
        thresholds: Vec::new(),
    };
    binary_curve_into(samples, cap, keyed, scratch, &mut out);
    out
}

/// [`binary_curve`] written into `out` (its buffers kept: a column of a million distinct scores fills 24 MB
/// of curve, fresh pages for every column cost more than the arithmetic).
pub fn binary_curve_into<I: Iterator<Item = (f64, bool)> + Clone>(
    samples: I,
    cap: usize,
    keyed: &mut Vec<(u64, u32)>,
    scratch: &mut Vec<(u64, u32)>,
    out: &mut ThresholdCurve,
) {
    if few_or_nan(samples.clone(), cap, out) {
        return;
    }
    keyed.clear();
    let mut negative_zero = false;
    keyed.extend(samples.map(|(v, y)| {
        negative_zero |= v == 0.0 && v.is_sign_negative();
        (crate::metrics::radix::desc_key(v + 0.0), y as u32)
    }));
    crate::metrics::radix::sort(keyed, scratch);
    binary_curve_of_sorted(keyed, negative_zero, out);
}

/// The buffers of [`binary_curve_split_into`], kept from call to call: the keys of the positive samples, of the
/// negative ones, and a sort's scratch.
#[derive(Default)]
pub struct SplitKeys {
    pub(super) pos: Vec<(u64, ())>,
    pub(super) neg: Vec<(u64, ())>,
    pub(super) scratch: Vec<(u64, ())>,
}

impl SplitKeys {
    /// No buffers yet (a `const`, for a thread-local's initialiser).
    pub const EMPTY: SplitKeys = SplitKeys {
        pos: Vec::new(),
        neg: Vec::new(),
        scratch: Vec::new(),
    };
}

/// [`binary_curve_into`], the sort done on the keys of each class apart (8 bytes an item rather than a key and
/// a label in 16), the two sorted lists then merged: each run of equal scores counts the same positives and
/// negatives, so the curve is the same, point for point.
pub fn binary_curve_split_into<I: Iterator<Item = (f64, bool)> + Clone>(
    samples: I,
    cap: usize,
    keys: &mut SplitKeys,
    out: &mut ThresholdCurve,
) {
    if few_or_nan(samples.clone(), cap, out) {
        return;
    }
    keys.pos.clear();
    keys.neg.clear();
    let mut negative_zero = false;
    for (v, y) in samples {
        negative_zero |= v == 0.0 && v.is_sign_negative();
        let key = (crate::metrics::radix::desc_key(v + 0.0), ());
        if y {
            keys.pos.push(key);
        } else {
            keys.neg.push(key);
        }
    }
    crate::metrics::radix::sort(&mut keys.pos, &mut keys.scratch);
    crate::metrics::radix::sort(&mut keys.neg, &mut keys.scratch);
    for v in [&mut out.fps, &mut out.tps, &mut out.thresholds] {
        v.clear();
    }
    merge_runs(&keys.pos, &keys.neg, negative_zero, |tp, fp, s| {
        out.tps.push(tp as f64);
        out.fps.push(fp as f64);
        out.thresholds.push(s);
    });
}

/// The runs of equal keys of the positives' and the negatives' keys ([`crate::metrics::radix::desc_key`], each
/// list sorted increasing), merged: after each run, `emit(tp, fp, score)` with the positives and negatives up
/// to it and its score (`-0.0` for the zero key when `negative_zero`): the points of the column's curve.
#[inline]
pub(super) fn merge_runs(
    pos: &[(u64, ())],
    neg: &[(u64, ())],
    negative_zero: bool,
    mut emit: impl FnMut(u64, u64, f64),
) {
    let zero = crate::metrics::radix::desc_key(0.0);
    let (mut i, mut j, mut tp, mut fp) = (0, 0, 0u64, 0u64);
    while i < pos.len() || j < neg.len() {
        let key = match (pos.get(i), neg.get(j)) {
            (Some(a), Some(b)) => a.0.min(b.0),
            (Some(a), None) => a.0,
            (None, Some(b)) => b.0,
            (None, None) => break,
        };
        while i < pos.len() && pos[i].0 == key {
            tp += 1;
            i += 1;
        }
        while j < neg.len() && neg[j].0 == key {
            fp += 1;
            j += 1;
        }
        let s = if key == zero && negative_zero {
            -0.0
        } else {
            crate::metrics::radix::score_of(key)
        };
        emit(tp, fp, s);
    }
}

/// The curve of a column with at most `cap` distinct scores (from counts per score) or with a NaN score
/// (`threshold_curve` itself) written into `out`; false when the column is to be sorted.
fn few_or_nan<I: Iterator<Item = (f64, bool)> + Clone>(
    samples: I,
    cap: usize,
    out: &mut ThresholdCurve,
) -> bool {
    if few(samples.clone(), cap, out) {
        return true;
    }
    if samples.clone().any(|(v, _)| v.is_nan()) {
        *out = super::curves::threshold_curve(&mut samples.collect::<Vec<_>>());
        return true;
    }
    false
}

/// The curve of a column with at most `cap` distinct scores and no NaN (from counts per score) written into
/// `out`; false when the column is to be sorted.
pub(super) fn few<I: Iterator<Item = (f64, bool)> + Clone>(
    samples: I,
    cap: usize,
    out: &mut ThresholdCurve,
) -> bool {
    // A first block of mostly distinct scores says the column will not group within `cap`: sorted at once
    // (either way gives the same curve), without filling the table up to `cap` first.
    const PROBE: usize = 8192;
    let probe = samples.clone().take(PROBE).map(|(v, y)| (v, y as u32));
    let many = cap >= PROBE && group(probe, 2, PROBE / 2).is_none();
    if !many {
        if let Some(g) = group(samples.map(|(v, y)| (v, y as u32)), 2, cap) {
            *out = g.curve(1, None);
            return true;
        }
    }
    false
}

/// [`curves_of_sorted`]'s curve of a binary problem (label 1 positive, no pair curves), into `out`.
fn binary_curve_of_sorted(ranked: &[(u64, u32)], negative_zero: bool, out: &mut ThresholdCurve) {
    let runs = 1 + ranked.windows(2).filter(|w| w[0].0 != w[1].0).count();
    for v in [&mut out.fps, &mut out.tps, &mut out.thresholds] {
        v.clear();
        v.reserve(runs);
    }
    let zero = crate::metrics::radix::desc_key(0.0);
    let (mut tp, mut count) = (0u64, 0u64);
    let n = ranked.len();
    for i in 0..n {
        let (key, l) = ranked[i];
        count += 1;
        tp += (l == 1) as u64;
        if i + 1 == n || ranked[i + 1].0 != key {
            let s = if key == zero && negative_zero {
                -0.0
            } else {
                crate::metrics::radix::score_of(key)
            };
            out.tps.push(tp as f64);
            out.fps.push((count - tp) as f64);
            out.thresholds.push(s);
        }
    }
}

/// [`sorted_curves`], the pair curves only when `pairs`.
fn curves_of_sorted(
    ranked: &[(u64, u32)],
    pos: usize,
    k: usize,
    negative_zero: bool,
    with_pairs: bool,
) -> (ThresholdCurve, Vec<ThresholdCurve>) {
    // Every curve has at most one point per run: sized once, never moved while it grows.
    let runs = 1 + ranked.windows(2).filter(|w| w[0].0 != w[1].0).count();
    let empty = || ThresholdCurve {
        fps: Vec::with_capacity(runs),
        tps: Vec::with_capacity(runs),
        thresholds: Vec::with_capacity(runs),
    };
    let mut all = empty();
    let mut pairs: Vec<ThresholdCurve> = (0..k).filter(|_| with_pairs).map(|_| empty()).collect();
    let zero = crate::metrics::radix::desc_key(0.0);
    let (mut tp, mut count) = (0u64, 0u64);
    // Per class b: its samples so far (the false positives of the pair curve), and whether the current run has one.
    let mut negatives = vec![0u64; k];
    let mut pending = vec![false; k];
    let mut pos_pending = false;
    let n = ranked.len();
    for i in 0..n {
        let (key, l) = ranked[i];
        let l = l as usize;
        count += 1;
        if l == pos {
            tp += 1;
            pos_pending = true;
        } else if l < k {
            negatives[l] += 1;
            pending[l] = true;
        }
        if i + 1 == n || ranked[i + 1].0 != key {
            let s = if key == zero && negative_zero {
                -0.0
            } else {
                crate::metrics::radix::score_of(key)
            };
            all.tps.push(tp as f64);
            all.fps.push((count - tp) as f64);
            all.thresholds.push(s);
            for b in 0..pairs.len() {
                if b == pos || !(pos_pending || pending[b]) {
                    continue;
                }
                pairs[b].tps.push(tp as f64);
                pairs[b].fps.push(negatives[b] as f64);
                pairs[b].thresholds.push(s);
                pending[b] = false;
            }
            pos_pending = false;
        }
    }
    (all, pairs)
}

#[cfg(test)]
mod tests {
    use super::super::curves::{ranked_curve, threshold_curve};
    use super::*;

    /// The grouped curves are the sorting code's curves, thresholds included (a `-0.0` beside `0.0`).
    #[test]
    fn same_curves_as_sorting() {
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        for case in 0..40 {
            let n = 1 + case * 37;
            let k = 2 + case % 4;
            let mut ranked: Vec<(f64, u32)> = Vec::new();
            for i in 0..n {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let s = match i % 9 {
                    0 => 0.0,
                    1 if case % 2 == 0 => -0.0,
                    2 => -((x % 7) as f64),
                    _ => (x % 23) as f64 / 20.0,
                };
                ranked.push((s, (x >> 40) as u32 % k as u32));
            }
            let g = group(ranked.iter().copied(), k, 1 << 20).unwrap();
            ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
            let bits =
                |c: &ThresholdCurve| c.thresholds.iter().map(|t| t.to_bits()).collect::<Vec<_>>();
            for pos in 0..k {
                let mut pairs: Vec<(f64, bool)> = ranked
                    .iter()
                    .map(|&(s, l)| (s, l as usize == pos))
                    .collect();
                let want = threshold_curve(&mut pairs);
                let got = g.curve(pos, None);
                assert_eq!(got, want);
                assert_eq!(bits(&got), bits(&want));
                for o in (0..k).filter(|&o| o != pos) {
                    let want = ranked_curve(&ranked, pos as u32, Some(o as u32));
                    let got = g.curve(pos, Some(o));
                    assert_eq!(got, want);
                    assert_eq!(bits(&got), bits(&want));
                }
            }
            assert!(group(ranked.iter().copied(), k, 3).is_none() || g.scores.len() <= 3);
            for pos in 0..k {
                let samples = ranked.iter().map(|&(s, l)| (s, l as usize == pos));
                let mut pairs: Vec<(f64, bool)> = samples.clone().collect();
                let want = threshold_curve(&mut pairs);
                for cap in [1, 1 << 20] {
                    let got = binary_curve(samples.clone(), cap, &mut Vec::new(), &mut Vec::new());
                    assert_eq!(got, want);
                    assert_eq!(bits(&got), bits(&want));
                    let mut split = ThresholdCurve {
                        fps: vec![9.0],
                        tps: Vec::new(),
                        thresholds: Vec::new(),
                    };
                    binary_curve_split_into(
                        samples.clone(),
                        cap,
                        &mut SplitKeys::default(),
                        &mut split,
                    );
                    assert_eq!(split, want);
                    assert_eq!(bits(&split), bits(&want));
                }
            }
            let negative_zero = ranked.iter().any(|p| p.0 == 0.0 && p.0.is_sign_negative());
            let mut keyed: Vec<(u64, u32)> = ranked
                .iter()
                .map(|&(s, l)| (crate::metrics::radix::desc_key(s + 0.0), l))
                .collect();
            crate::metrics::radix::sort(&mut keyed, &mut Vec::new());
            for pos in 0..k {
                let (all, pairs) = sorted_curves(&keyed, pos, k, negative_zero);
                let want = ranked_curve(&ranked, pos as u32, None);
                assert_eq!(all, want);
                assert_eq!(bits(&all), bits(&want));
                for o in (0..k).filter(|&o| o != pos) {
                    let want = ranked_curve(&ranked, pos as u32, Some(o as u32));
                    assert_eq!(pairs[o], want);
                    assert_eq!(bits(&pairs[o]), bits(&want));
                }
            }
        }
    }
}
