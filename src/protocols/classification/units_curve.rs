//! A ranking metric's replicate (ROC AUC and average precision on weighted rows): one score column sorted once,
//! swept in that order with the replicate's weights into the weighted threshold curve, and both metrics read
//! off the curve in one pass, operation for operation as scikit-learn 1.x's `roc_auc_score` and
//! `average_precision_score` with `sample_weight` (src/metrics/classification/curves.rs computes the same).

use crate::metrics::mean::numpy_sum;
use crate::stats::units::Weight;
use crate::stats::wide::{fused, has_fma, wide};
use divide::quotient;

#[path = "units_divide.rs"]
mod divide;
use std::cell::RefCell;

/// One score column sorted once (decreasing score): the rows in that order, each one's class, and where each
/// run of equal scores ends. A replicate reads the rows' weights in that order (independent reads, no
/// read-modify-write into a run table) and emits a curve point at the end of each run that holds weight.
pub(super) struct Column {
    order: Vec<u32>,
    /// Each sorted row's class times 2, plus 1 at the last row of a run of equal scores (one stream for the
    /// sweep to read instead of two).
    class_end: Vec<u32>,
    /// Each row's place in the sorted order (`order`'s inverse), where a block of four replicates writes the
    /// row's weights.
    rank: Vec<u32>,
}

/// The weights gathered at a time in a sorted sweep (a few kilobytes on the stack).
const GATHER: usize = 512;

/// A replicate's buffers, one set per thread, kept from one replicate to the next (a replicate of a million
/// rows would otherwise allocate and fault in tens of megabytes). Written before read: never cleared.
#[derive(Default)]
struct Scratch {
    /// A block of four replicates' weights in sorted order, side by side ([`Column::auc_ap4`]).
    sorted: Vec<[u8; 4]>,
    /// The curves' points: cumulated true positives (high 32 bits) and false positives (low 32 bits); for a
    /// block of four replicates, four curves one after the other, each with room for a point per row and one.
    points: Vec<u64>,
    roc_terms: Vec<f64>,
    ap_terms: Vec<f64>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::default();
}

impl Column {
    /// `values`: the rows' scores; `class`: each row's class (the positive flag of a binary problem).
    pub(super) fn new(values: impl Iterator<Item = f64>, class: &[u32]) -> Column {
        let mut v: Vec<(f64, u32)> = values.enumerate().map(|(i, s)| (s, i as u32)).collect();
        v.sort_by(|a, b| b.0.total_cmp(&a.0));
        // np.diff(y_score) != 0 ends a run; -0.0 and 0.0 are one run.
        let end = |j: usize| (j + 1 == v.len() || v[j + 1].0 != v[j].0) as u32;
        Column {
            class_end: (0..v.len())
                .map(|j| class[v[j].1 as usize] << 1 | end(j))
                .collect(),
            rank: {
                let mut rank = vec![0u32; v.len()];
                for (j, &(_, i)) in (0..).zip(&v) {
                    rank[i as usize] = j;
                }
                rank
            },
            order: v.into_iter().map(|(_, i)| i).collect(),
        }
    }

    /// ROC AUC and average precision of the weighted threshold curve of rows whose class is `pos` against
    /// those of class `other` (every row when `None`): one point per run of equal scores holding weight
    /// (`confusion_matrix_at_thresholds` with `sample_weight`, zero weights removed first), then
    /// `roc_auc_score` and `average_precision_score` of that curve ([`curve_metrics`]). The sweep is
    /// branch-free (a branch on the draws would mispredict): each row writes the running point at the curve's
    /// end, which only a run's last row holding weight keeps. The weights (at most one unit's draw count, so
    /// that every sum stays below 2^32) in sorted order are gathered GATHER at a time first (independent
    /// loads, in flight together), then swept.
    pub(super) fn auc_ap<W: Copy + Default + Into<u64>>(
        &self,
        w: &[W],
        pos: u32,
        other: Option<u32>,
    ) -> (Option<f64>, Option<f64>) {
        SCRATCH.with(|cell| {
            let mut scratch = cell.borrow_mut();
            let Scratch {
                points,
                roc_terms,
                ap_terms,
                ..
            } = &mut *scratch;
            let m = self.order.len();
            if points.len() < m + 1 {
                points.resize(m + 1, 0);
            }
            let out = &mut points[..m + 1];
            let len = match other {
                None => self.sweep_all(w, pos, out),
                Some(o) => self.sweep_pair(w, pos, o, out),
            };
            match len {
                Some(len) => curve_metrics(&points[..len], roc_terms, ap_terms),
                None => (None, None), // not reached: the weights of one replicate sum to the units' number
            }
        })
    }

    /// [`Column::auc_ap`] of class `pos` against every other row for four replicates at once (`ws[r]`:
    /// replicate r's weights): the rows' four weights written as bytes side by side at their sorted places
    /// (reads in row order, one write at random per row that serves the four: the processor need not wait on
    /// a write as on a read), one sweep of the four in sorted order, then each curve's metrics. Each
    /// replicate's values are those it has alone, to the bit (the same points); `None` when a weight does not
    /// fit in a byte.
    pub(super) fn auc_ap4<W: Weight>(
        &self,
        ws: [&[W]; 4],
        pos: u32,
    ) -> Option<[(Option<f64>, Option<f64>); 4]> {
        SCRATCH.with(|cell| {
            let mut scratch = cell.borrow_mut();
            let Scratch {
                sorted,
                points,
                roc_terms,
                ap_terms,
            } = &mut *scratch;
            if !self.scatter4(ws, sorted) {
                return None;
            }
            let w = &sorted[..];
            let stride = self.order.len() + 1;
            if points.len() < 4 * stride {
                points.resize(4 * stride, 0);
            }
            let ends = self.sweep_all4(w, pos, &mut points[..4 * stride]);
            // Every sum stays below 2^32 when 255 times the rows does, else each replicate's is checked.
            let fits = |r: usize| {
                stride <= 1 << 24 || w.iter().map(|k| k[r] as u64).sum::<u64>() >> 32 == 0
            };
            Some(std::array::from_fn(|r| match fits(r) {
                true => curve_metrics(&points[r * stride..ends[r]], roc_terms, ap_terms),
                false => (None, None), // not reached (see auc_ap)
            }))
        })
    }

    /// `out[rank[i]][r] = ws[r][i]` as bytes; false when a weight does not fit in one or a replicate has too
    /// few weights.
    fn scatter4<W: Weight>(&self, ws: [&[W]; 4], out: &mut Vec<[u8; 4]>) -> bool {
        let n = self.rank.len();
        if ws.iter().any(|w| w.len() < n) {
            return false;
        }
        out.resize(n, [0; 4]);
        let ws = ws.map(|w| &w[..n]);
        let mut any = 0u32;
        for (i, &j) in self.rank.iter().enumerate() {
            let k: [u32; 4] = [
                ws[0][i].into(),
                ws[1][i].into(),
                ws[2][i].into(),
                ws[3][i].into(),
            ];
            any |= k[0] | k[1] | k[2] | k[3];
            if let Some(o) = out.get_mut(j as usize) {
                *o = k.map(|k| k as u8);
            }
        }
        any <= 255
    }

    /// [`Column::sweep_all`] of four replicates in one pass into `out` (four curves of a quarter of it each),
    /// `sorted`: the four weights of each row in sorted order. Each row's class and run end read once, and
    /// each replicate's running point written at its own curve's end; where each curve ends. Whether a run
    /// holds weight is one bit per replicate (the four weights' bytes or-ed together).
    fn sweep_all4(&self, sorted: &[[u8; 4]], pos: u32, out: &mut [u64]) -> [usize; 4] {
        let stride = out.len() / 4;
        let mut at: [usize; 4] = std::array::from_fn(|r| r * stride);
        let (mut point, mut run) = ([0u64; 4], 0u32);
        {
            for (k, &ce) in sorted.iter().zip(&self.class_end) {
                let shift = (((ce >> 1) == pos) as u64) << 5;
                let end = ce & 1;
                run |= u32::from_le_bytes(*k);
                for r in 0..4 {
                    point[r] = point[r].wrapping_add((k[r] as u64) << shift);
                    if let Some(o) = out.get_mut(at[r]) {
                        *o = point[r];
                    }
                    at[r] += (end & (run >> (8 * r) & 0xff != 0) as u32) as usize;
                }
                run &= end.wrapping_sub(1);
            }
        }
        at
    }

    /// [`Column::auc_ap`]'s sweep of class `pos` against every other row into `out`: the running point,
    /// positives' weight in the high 32 bits and the others' in the low ones, is one sum (a row adds its weight
    /// shifted by 32 bits or not). The curve's length; `None` when the weights sum past 2^32 − 1 (a half would
    /// then have carried into the other).
    fn sweep_all<W: Copy + Default + Into<u64>>(
        &self,
        w: &[W],
        pos: u32,
        out: &mut [u64],
    ) -> Option<usize> {
        let (mut point, mut run, mut total, mut len) = (0u64, 0u64, 0u64, 0usize);
        let mut gathered = [W::default(); GATHER];
        for (order, class_end) in self.order.chunks(GATHER).zip(self.class_end.chunks(GATHER)) {
            gather(&mut gathered, w, order);
            for (&k, &ce) in gathered.iter().zip(class_end) {
                let k: u64 = k.into();
                let shift = (((ce >> 1) == pos) as u64) << 5;
                point = point.wrapping_add(k << shift);
                run += k;
                total += k;
                out[len] = point;
                let end = ce & 1;
                len += ((end != 0) & (run != 0)) as usize;
                run &= mask(end ^ 1);
            }
        }
        (total <= u32::MAX as u64).then_some(len)
    }

    /// [`Column::auc_ap`]'s sweep of class `pos` against class `other` (rows of other classes count for
    /// neither: masks, not branches) into `out`; the curve's length, `None` when a sum passes 2^32 − 1.
    fn sweep_pair<W: Copy + Default + Into<u64>>(
        &self,
        w: &[W],
        pos: u32,
        other: u32,
        out: &mut [u64],
    ) -> Option<usize> {
        let (mut t, mut f, mut run, mut len) = (0u64, 0u64, 0u64, 0usize);
        let mut gathered = [W::default(); GATHER];
        for (order, class_end) in self.order.chunks(GATHER).zip(self.class_end.chunks(GATHER)) {
            gather(&mut gathered, w, order);
            for (&k, &ce) in gathered.iter().zip(class_end) {
                let k: u64 = k.into();
                let (l, end) = (ce >> 1, ce & 1);
                let (kp, ko) = (k & mask((l == pos) as u32), k & mask((l == other) as u32));
                t += kp;
                f += ko;
                run += kp + ko;
                out[len] = t << 32 | (f & 0xffff_ffff);
                len += ((end != 0) & (run != 0)) as usize;
                run &= mask(end ^ 1);
            }
        }
        (t <= u32::MAX as u64 && f <= u32::MAX as u64).then_some(len)
    }
}

/// `out[j] = w[at[j]]` (independent loads, in flight together, before the sweep that adds them up in order).
#[inline(always)]
fn gather<W: Copy>(out: &mut [W], w: &[W], at: &[u32]) {
    for (o, &i) in out.iter_mut().zip(at) {
        *o = w[i as usize];
    }
}

/// All ones when `bit` is 1, zero when 0.
#[inline(always)]
fn mask(bit: u32) -> u64 {
    (bit as u64).wrapping_neg()
}

/// A point's (tps, fps) as f64 (exact: both below 2^32).
fn split(p: u64) -> (f64, f64) {
    ((p >> 32) as f64, (p & 0xffff_ffff) as f64)
}

/// The curve's points handled at a time by [`curve_metrics`] (their x, y and precision on the stack).
const CHUNK: usize = 256;

/// `v` as f64, exactly, for `v` below 2^52: the bits of 2^52 + v minus 2^52 (integer and subtraction
/// operations, which the compiler turns into vector instructions where a conversion from u64 has none).
#[inline(always)]
fn exact(v: u64) -> f64 {
    const TWO_52: f64 = 4_503_599_627_370_496.0;
    f64::from_bits(TWO_52.to_bits() | v) - TWO_52
}

/// Each point's x = fps / neg, y = tps / pos and precision tps / (tps + fps), into `xs`, `ys`, `ps`: the same
/// IEEE quotients as one division at a time, in one loop without dependencies between points (vector
/// operations). With `FMA`, x and y from the reciprocals `recip` = (1 / neg, 1 / pos) ([`quotient`]: the
/// division's bits, the counts being integers below 2^32), the precision by division.
#[inline(always)]
fn divide<const FMA: bool>(
    points: &[u64],
    (pos, neg): (f64, f64),
    recip: (f64, f64),
    [xs, ys, ps]: [&mut [f64]; 3],
) {
    let n = points.len().min(xs.len()).min(ys.len()).min(ps.len());
    let (xs, ys, ps) = (&mut xs[..n], &mut ys[..n], &mut ps[..n]);
    for (j, &p) in points[..n].iter().enumerate() {
        let (t, f) = (exact(p >> 32), exact(p & 0xffff_ffff));
        if FMA {
            xs[j] = quotient(f, neg, recip.0);
            ys[j] = quotient(t, pos, recip.1);
        } else {
            xs[j] = f / neg;
            ys[j] = t / pos;
        }
        ps[j] = t / (t + f);
    }
}

/// `roc_auc_score` and `average_precision_score` of the threshold curve `points` (a chunk of [`CHUNK`] points
/// at a time: first their divisions, [`divide`]): per point x = fps / neg, y = tps / pos (ROC; also the
/// recall, tps / tps_last, since pos = tps_last) and the precision tps / (tps + fps); the ROC terms of
/// `roc_curve`'s kept points (the slope changes: second differences of the integer counts, exact in f64 as in
/// `roc_auc_of`) and the average precision's terms (recall[i−1] − recall[i]) · precision[i] written at their
/// place in the reversed curve, each summed with NumPy's pairwise sum as `roc_auc_of` and
/// `average_precision_of` sum them (src/metrics/classification/curves.rs), so the values are theirs to the
/// bit. A curve without a positive or a negative (no ROC AUC) goes through the library's operations on f64
/// points.
fn curve_metrics(
    points: &[u64],
    roc_terms: &mut Vec<f64>,
    ap_terms: &mut Vec<f64>,
) -> (Option<f64>, Option<f64>) {
    let m = points.len();
    let Some(&last) = points.last() else {
        return (None, None);
    };
    let (pos, neg) = split(last);
    if pos == 0.0 || neg == 0.0 {
        let (t, f): (Vec<f64>, Vec<f64>) = points.iter().map(|&p| split(p)).unzip();
        return (
            roc_auc(&t, &f, roc_terms),
            average_precision(&t, &f, ap_terms),
        );
    }
    for terms in [&mut *roc_terms, &mut *ap_terms] {
        if terms.len() < m {
            terms.resize(m, 0.0);
        }
    }
    let (roc, ap) = (&mut roc_terms[..m], &mut ap_terms[..m]);
    let kept = match has_fma() {
        true => fused(
            #[inline(always)]
            || terms::<true>(points, (pos, neg), roc, ap),
        ),
        false => wide(
            #[inline(always)]
            || terms::<false>(points, (pos, neg), roc, ap),
        ),
    };
    let auc = Some(numpy_sum(&roc[..kept])).filter(|v| v.is_finite());
    let s = -numpy_sum(ap);
    (auc, Some(if s > 0.0 { s } else { 0.0 }))
}

/// [`curve_metrics`]' terms of a curve with positives and negatives (`pos`, `neg`: its last point), into
/// `roc` (the trapezoids: how many, returned) and `ap` (one per point), [`CHUNK`] points at a time: first
/// their quotients ([`divide`]), then the terms. Inlined into the caller's vector code ([`wide`], [`fused`]).
#[inline(always)]
fn terms<const FMA: bool>(
    points: &[u64],
    (pos, neg): (f64, f64),
    roc: &mut [f64],
    ap: &mut [f64],
) -> usize {
    let m = points.len();
    let recip = (1.0 / neg, 1.0 / pos);
    let mut sweep = RocSweep::default();
    let mut recall0 = 0.0f64;
    let (mut xs, mut ys, mut ps) = ([0.0f64; CHUNK], [0.0f64; CHUNK], [0.0f64; CHUNK]);
    let mut keep = [0u64; CHUNK];
    for (c, chunk) in points.chunks(CHUNK).enumerate() {
        let (start, len) = (c * CHUNK, chunk.len());
        // This chunk's average precision terms, at positions m − 1 − i of the reversed curve.
        let dst = &mut ap[m - start - len..m - start];
        divide::<FMA>(chunk, (pos, neg), recip, [&mut xs, &mut ys, &mut ps]);
        dst[len - 1] = (recall0 - ys[0]) * ps[0];
        let pairs = ys[..len].windows(2).zip(&ps[1..len]);
        for (d, (y, &p)) in dst[..len - 1].iter_mut().rev().zip(pairs) {
            *d = (y[0] - y[1]) * p;
        }
        kept_points(points, start, &mut keep[..len]);
        recall0 = ys[len - 1];
        sweep.add(roc, &keep[..len], &xs[..len], &ys[..len]);
    }
    sweep.kept
}

/// Which of the points `start`, `start + 1`, … (as many as `keep` holds) `roc_curve` keeps, as masks (all
/// ones or 0): the first and last points, and those where the slope changes (`drop_intermediate`: a second
/// difference of the integer counts is not 0, exact in f64 as in `roc_auc_of`); every point of a curve of
/// at most two. One loop without branches on the points.
#[inline(always)]
fn kept_points(points: &[u64], start: usize, keep: &mut [u64]) {
    keep.fill(u64::MAX);
    let m = points.len();
    // The points of this chunk with a neighbour on each side.
    let (lo, hi) = (start.max(1), (start + keep.len()).min(m.saturating_sub(1)));
    if m <= 2 || lo >= hi {
        return;
    }
    let low = |q: u64| q & 0xffff_ffff;
    let neighbours = points[lo - 1..hi - 1].iter().zip(&points[lo + 1..hi + 1]);
    let inner = keep[lo - start..hi - start].iter_mut().zip(&points[lo..hi]);
    for ((k, &h), (&b, &n)) in inner.zip(neighbours) {
        let bend = (low(n) + low(b) != 2 * low(h)) | ((n >> 32) + (b >> 32) != 2 * (h >> 32));
        *k = (bend as u64).wrapping_neg();
    }
}

/// The ROC trapezoids of the kept points, in order: the points since the last kept one and its (x, y).
#[derive(Default)]
struct RocSweep {
    kept: usize,
    x0: f64,
    y0: f64,
}

impl RocSweep {
    /// The trapezoids from the last kept point through the kept ones of (`xs`, `ys`) (`keep`: all ones where a
    /// point is kept, else 0), written at `roc[kept..]`: the kept points first gathered after the last one
    /// (each written at the next place, which only a kept point keeps: a branch would mispredict), then
    /// each trapezoid (x − x0) · (y + y0) / 2 of neighbours (a loop of independent points).
    #[inline(always)]
    fn add(&mut self, roc: &mut [f64], keep: &[u64], xs: &[f64], ys: &[f64]) {
        let (mut kx, mut ky) = ([0.0f64; CHUNK + 1], [0.0f64; CHUNK + 1]);
        (kx[0], ky[0]) = (self.x0, self.y0);
        let mut n = 1;
        for ((&k, &x), &y) in keep.iter().zip(xs).zip(ys) {
            if let (Some(a), Some(b)) = (kx.get_mut(n), ky.get_mut(n)) {
                (*a, *b) = (x, y);
            }
            n += (k & 1) as usize;
        }
        let n = n.min(CHUNK + 1);
        let Some(dst) = roc.get_mut(self.kept..self.kept + n - 1) else {
            return; // not reached: `roc` holds a place for every point
        };
        let pairs = kx[..n].windows(2).zip(ky[..n].windows(2));
        for (d, (x, y)) in dst.iter_mut().zip(pairs) {
            *d = (x[1] - x[0]) * (y[1] + y[0]) / 2.0;
        }
        self.kept += n - 1;
        (self.x0, self.y0) = (kx[n - 1], ky[n - 1]);
    }
}

/// `roc_auc_score` of a threshold curve: the library's `roc_auc_of`
/// (src/metrics/classification/curves.rs) operation for operation (the same kept points of `roc_curve`, the
/// same trapezoids, NumPy's pairwise sum), on borrowed slices with a reused buffer for the trapezoids.
fn roc_auc(t: &[f64], f: &[f64], terms: &mut Vec<f64>) -> Option<f64> {
    let pos = t.last().copied().unwrap_or(0.0);
    let neg = f.last().copied().unwrap_or(0.0);
    if pos == 0.0 || neg == 0.0 {
        return None;
    }
    let m = f.len();
    let (mut x0, mut y0) = (0.0 / neg, 0.0 / pos);
    terms.clear();
    for i in 0..m {
        let keep = m <= 2
            || i == 0
            || i == m - 1
            || (f[i + 1] - f[i]) - (f[i] - f[i - 1]) != 0.0
            || (t[i + 1] - t[i]) - (t[i] - t[i - 1]) != 0.0;
        if keep {
            let (x, y) = (f[i] / neg, t[i] / pos);
            terms.push((x - x0) * (y + y0) / 2.0);
            (x0, y0) = (x, y);
        }
    }
    Some(numpy_sum(terms)).filter(|v| v.is_finite())
}

/// `average_precision_score` of a threshold curve: the library's `average_precision_of` operation for
/// operation (−Σ (recall[j+1] − recall[j]) · precision[j] over the reversed curve with (1, 0) appended,
/// NumPy's pairwise sum, clipped at 0), without building the reversed curve.
fn average_precision(t: &[f64], f: &[f64], terms: &mut Vec<f64>) -> Option<f64> {
    let m = t.len();
    if m == 0 {
        return None;
    }
    let tl = t[m - 1];
    let precision = |i: usize| {
        let ps = t[i] + f[i];
        if ps != 0.0 {
            t[i] / ps
        } else {
            0.0
        }
    };
    let recall = |i: usize| if tl == 0.0 { 1.0 } else { t[i] / tl };
    terms.clear();
    // recall(i − 1) of one term is recall(i) of the next: computed once.
    let mut here = recall(m - 1);
    for j in 0..m {
        let i = m - 1 - j;
        let next = if i == 0 { 0.0 } else { recall(i - 1) };
        terms.push((next - here) * precision(i));
        here = next;
    }
    let s = -numpy_sum(terms);
    Some(if s > 0.0 { s } else { 0.0 })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::classification::curves::{
        average_precision_of, roc_auc_of, threshold_curve,
    };

    /// A column's ROC AUC and average precision on weights equal, bit for bit, the library's on the repeated
    /// rows (ties, zero weights, one class missing), on 32-bit weights and on the bytes.
    #[test]
    fn weighted_sweep_equals_the_repeated_rows() {
        let mut x: u64 = 0x0123_4567_89ab_cdef;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for n in [1usize, 2, 5, 40, 700, 3000] {
            let scores: Vec<f64> = (0..n).map(|_| (next() % 23) as f64 / 7.0).collect();
            let class: Vec<u32> = (0..n).map(|_| (next() % 3) as u32).collect();
            let column = Column::new(scores.iter().copied(), &class);
            for round in 0..20 {
                let w: Vec<u32> = (0..n).map(|_| (next() % (2 + round % 5)) as u32).collect();
                for (pos, other) in [(1, None), (0, None), (2, Some(0)), (1, Some(2))] {
                    let mut pairs: Vec<(f64, bool)> = Vec::new();
                    for i in 0..n {
                        if class[i] == pos || other.is_none_or(|o| class[i] == o) {
                            for _ in 0..w[i] {
                                pairs.push((scores[i], class[i] == pos));
                            }
                        }
                    }
                    let curve = threshold_curve(&mut pairs);
                    let bits = |v: Option<f64>| v.map(f64::to_bits);
                    let expected = (bits(roc_auc_of(&curve)), bits(average_precision_of(&curve)));
                    let bytes: Vec<u8> = w.iter().map(|&k| k as u8).collect();
                    let got = |(a, b): (Option<f64>, Option<f64>)| (bits(a), bits(b));
                    assert_eq!(got(column.auc_ap(&w, pos, other)), expected, "n {n}");
                    assert_eq!(got(column.auc_ap(&bytes, pos, other)), expected, "n {n}");
                }
            }
            // Four replicates swept together: each one's values to the bit.
            let ws: Vec<Vec<u32>> = (0..4)
                .map(|r| {
                    (0..n)
                        .map(|_| (next() % (1 + r as u64 * 2)) as u32)
                        .collect()
                })
                .collect();
            let bytes: Vec<Vec<u8>> = ws
                .iter()
                .map(|w| w.iter().map(|&k| k as u8).collect())
                .collect();
            for pos in [0, 1, 2] {
                let four = column
                    .auc_ap4([&ws[0], &ws[1], &ws[2], &ws[3]], pos)
                    .unwrap();
                let from_bytes = column.auc_ap4([&bytes[0], &bytes[1], &bytes[2], &bytes[3]], pos);
                assert_eq!(
                    from_bytes.map(|v| format!("{v:?}")),
                    Some(format!("{four:?}"))
                );
                for (r, w) in ws.iter().enumerate() {
                    let bits = |(a, b): (Option<f64>, Option<f64>)| {
                        (a.map(f64::to_bits), b.map(f64::to_bits))
                    };
                    assert_eq!(bits(four[r]), bits(column.auc_ap(w, pos, None)), "n {n}");
                }
            }
        }
    }
}
