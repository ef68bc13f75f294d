//! The bootstrap's units of `regression` (docs/specs/statistics.md section 1): one unit per GT row. A
//! replicate is every metric on the repeated rows (each drawn row as many times as drawn, copies adjacent, in
//! row order): for the means this is scikit-learn's `sample_weight` = the draw counts; for the median, Pearson
//! and Spearman (SciPy has no weights) it is the metric of the repeated set itself. With the GT's weights
//! (`weight_column`), a drawn row keeps its weight on each copy: scikit-learn's `sample_weight` = the weights
//! of the repeated set.
//!
//! A replicate never builds the repeated set: the means are weighted sums of per-row terms (with GT weights,
//! the draw count times the row's weight; summed in blocks, within 1e-12 of NumPy's pairwise sums of the
//! repeated values), R², explained variance and Pearson take the centred second moments (summed in the same
//! pass around fixed centres and shifted, see `units_moments.rs`, or in a second pass around the weighted
//! means), the median is read off the rows sorted once by absolute error, and Spearman's ranks of the
//! repeated set come from the rows' groups of equal values (sorted once): a group of weight W after C
//! repeated values has the doubled average rank 2C + W + 1, and the sums of the centred doubled ranks are exact integers, as in the metric on the repeated set.

#[cfg(test)]
use super::metric_values;
#[path = "units_moments.rs"]
mod moments;
#[path = "units_moments4.rs"]
mod moments4;
#[path = "units_passes.rs"]
mod passes;
#[path = "units_quad.rs"]
mod quad;
#[path = "units_runs.rs"]
mod runs;
#[path = "units_runs4.rs"]
mod runs4;
use crate::metrics::regression::spearman_of_sums;
use crate::report::Scores;
use crate::stats::units::{times, weights_as_bytes, Replicate, Slot, Units, Weight};
use runs::{gather, Runs, GATHER};
use std::any::Any;

/// The targets and predictions, row by row.
pub struct RegressionUnits {
    metrics: Vec<String>,
    targets: Vec<f64>,
    preds: Vec<f64>,
    /// The GT's row weights (`weight_column`); empty without.
    weights: Vec<f64>,
    /// What a replicate reads, computed once.
    fast: Fast,
    /// Every GT weight at most 1e100 in size.
    weights_small: bool,
}

/// The report's units: every metric of `scores` with a value.
pub fn slot(targets: &[f64], preds: &[f64], weights: &[f64], scores: &Scores) -> Slot {
    let metrics: Vec<String> = scores
        .iter()
        .filter(|(_, v)| v.is_some())
        .map(|(k, _)| k.to_string())
        .collect();
    if metrics.is_empty() || targets.is_empty() || targets.len() != preds.len() {
        return Slot::default();
    }
    let units = RegressionUnits::new(metrics, targets.to_vec(), preds.to_vec(), weights.to_vec());
    Slot::new(Units::plain("row", targets.len(), Box::new(units)))
}

impl RegressionUnits {
    fn new(
        metrics: Vec<String>,
        targets: Vec<f64>,
        preds: Vec<f64>,
        weights: Vec<f64>,
    ) -> RegressionUnits {
        let fast = Fast::new(&targets, &preds, weights.is_empty());
        RegressionUnits {
            metrics,
            targets,
            preds,
            weights_small: small(&weights, 1e100),
            weights,
            fast,
        }
    }
}

/// Per-row terms and orders of the unweighted metrics (see the module's comment).
struct Fast {
    targets: Vec<f64>,
    preds: Vec<f64>,
    /// |p − t|, |p − t| / max(|t|, ε), Kaggle's SMAPE term, (log1p t − log1p p)² (0 where a side is ≤ −1,
    /// which `log_bad` lists).
    abs: Vec<f64>,
    ape: Vec<f64>,
    smape: Vec<f64>,
    sle: Vec<f64>,
    /// The rows where a side is ≤ −1 (MSLE undefined when one is drawn).
    log_bad: Vec<u32>,
    /// The rows in increasing |p − t| (`total_cmp`).
    by_abs: Vec<u32>,
    /// 1 for the first `skip` rows of `by_abs`, 0 for the others (see [`quad::skipped`]).
    low_abs: Vec<u8>,
    skip: usize,
    /// The targets' and the predictions' runs of equal values.
    t_runs: Runs,
    p_runs: Runs,
    /// For the rows in the targets' sorted order, each one's run of the predictions.
    p_run_by_t: Vec<u32>,
    /// Every target and prediction at most 1e100 in size, the stored terms at most 1e200: every term of the
    /// weighted sums is then finite (differences, squares and products with GT weights up to 1e100).
    plain: bool,
    /// The means of the targets and of the predictions (the centres of [`moments`]).
    centre: [f64; 2],
}

/// Whether every value of `x` is at most `bound` in size (and so finite).
fn small(x: &[f64], bound: f64) -> bool {
    x.iter().all(|v| v.abs() <= bound)
}

thread_local! {
    /// Spearman's run ranks of the predictions, reused from one replicate to the next.
    static RANKS: std::cell::RefCell<(Vec<u32>, Vec<u64>)> = Default::default();
    /// A replicate's weights as bytes, for the reads in sorted order when its block did not make them.
    static BYTES: std::cell::RefCell<Vec<u8>> = Default::default();
}

/// Weighted sums over the rows in blocks of 256 (each block summed apart, then the blocks' sums added): the
/// rounding error stays near a pairwise sum's. `plain`: every term is finite, so that the plain product
/// term · k adds nothing for k = 0 (±0.0), as [`times`] does (see `stats::units::weighted_means`).
fn block_sums<const K: usize>(
    n: usize,
    w: &[u32],
    plain: bool,
    f: impl Fn(usize) -> [f64; K],
) -> [f64; K] {
    let mut total = [0.0f64; K];
    let mut start = 0;
    while start < n {
        let end = (start + 256).min(n);
        let mut block = [0.0f64; K];
        for (i, &k) in w.iter().enumerate().take(end).skip(start) {
            let terms = f(i);
            for (b, t) in block.iter_mut().zip(terms) {
                *b += if plain { t * k as f64 } else { times(t, k) };
            }
        }
        for (s, b) in total.iter_mut().zip(block) {
            *s += b;
        }
        start = end;
    }
    total
}

/// (log1p t − log1p p)², 0 where a side is ≤ −1 (`bad`).
fn squared_log_error(t: f64, p: f64, bad: bool) -> f64 {
    if bad {
        return 0.0;
    }
    let d = libm::log1p(t) - libm::log1p(p);
    d * d
}

/// Kaggle's SMAPE term: 2 |p − t| / (|t| + |p|), 0 where both are 0.
fn smape_term(t: f64, p: f64) -> f64 {
    let d = t.abs() + p.abs();
    if d == 0.0 {
        0.0
    } else {
        2.0 * (p - t).abs() / d
    }
}

impl Fast {
    /// `orders`: the sorted orders for the median and Spearman, which take no GT weights (without them the
    /// orders stay empty: [`Fast::weighted_values`] reads none).
    fn new(t: &[f64], p: &[f64], orders: bool) -> Fast {
        let n = t.len();
        let sorted = |x| if orders { x } else { &[][..] };
        let abs: Vec<f64> = (0..n).map(|i| (p[i] - t[i]).abs()).collect();
        let bad = |i: usize| t[i] <= -1.0 || p[i] <= -1.0;
        // The three sorts and the terms side by side ([`crate::par::all`]), the longest first.
        let (mut t_runs, mut p_runs, mut by_abs) = (None, None, Vec::new());
        let (mut sle, mut smape, mut ape) = (Vec::new(), Vec::new(), Vec::new());
        crate::par::all(&mut [
            &mut || t_runs = Some(Runs::new(sorted(t))),
            &mut || p_runs = Some(Runs::new(sorted(p))),
            &mut || {
                by_abs = (0..sorted(t).len() as u32).collect();
                by_abs.sort_unstable_by(|&a, &b| abs[a as usize].total_cmp(&abs[b as usize]));
            },
            &mut || {
                sle = (0..n)
                    .map(|i| squared_log_error(t[i], p[i], bad(i)))
                    .collect();
                smape = (0..n).map(|i| smape_term(t[i], p[i])).collect();
                let ape_of = |i: usize| (p[i] - t[i]).abs() / t[i].abs().max(f64::EPSILON);
                ape = (0..n).map(ape_of).collect();
            },
        ]);
        let (t_runs, p_runs) = (
            t_runs.unwrap_or_else(|| Runs::new(sorted(t))),
            p_runs.unwrap_or_else(|| Runs::new(sorted(p))),
        );
        let skip = quad::skipped(by_abs.len());
        let mut low_abs = vec![0u8; by_abs.len()];
        for &i in &by_abs[..skip] {
            low_abs[i as usize] = 1;
        }
        let log_bad: Vec<u32> = (0..n as u32).filter(|&i| bad(i as usize)).collect();
        let mut fast = Fast {
            targets: t.to_vec(),
            preds: p.to_vec(),
            ape,
            abs,
            smape,
            sle,
            log_bad,
            by_abs,
            low_abs,
            skip,
            plain: false,
            centre: [t, p].map(|x| x.iter().sum::<f64>() / n as f64),
            p_run_by_t: t_runs
                .order
                .iter()
                .map(|&i| p_runs.run[i as usize])
                .collect(),
            t_runs,
            p_runs,
        };
        fast.plain = small(t, 1e100) && small(p, 1e100);
        fast.plain &= [&fast.ape, &fast.smape, &fast.sle]
            .iter()
            .all(|x| small(x, 1e200));
        fast
    }

    /// Every metric of `metric_values` on the rows repeated as `w` draws them.
    fn values<W: Weight>(&self, w: &[W]) -> Vec<(&'static str, Option<f64>)> {
        let [v] = self.values_k([w]);
        v
    }

    /// [`Fast::values`] of each replicate of a block: eight, then four at a time, their weights side by side
    /// ([`Fast::block8`], [`Fast::block4`]), then one by one.
    fn values_block<W: Weight>(&self, ws: &[&[W]]) -> Vec<Vec<(&'static str, Option<f64>)>> {
        let mut out = Vec::with_capacity(ws.len());
        let mut eights = ws.chunks_exact(8);
        for e in &mut eights {
            let e: [&[W]; 8] = std::array::from_fn(|r| e[r]);
            out.extend(self.values_side(e, self.block8(e)));
        }
        let mut quads = eights.remainder().chunks_exact(4);
        for q in &mut quads {
            let q = [q[0], q[1], q[2], q[3]];
            out.extend(self.values_side(q, self.block4(q)));
        }
        for &w in quads.remainder() {
            out.push(self.values(w));
        }
        out
    }

    /// [`Fast::values`] of L replicates from what their weights side by side give (`block`), or when they
    /// do not fit in bytes ([`Fast::block4`] gives `None`) from [`Fast::values_k`].
    fn values_side<W: Weight, const L: usize>(
        &self,
        ws: [&[W]; L],
        block: Option<quad::Block<L>>,
    ) -> [Vec<(&'static str, Option<f64>)>; L] {
        let Some((first, second, sorted)) = block else {
            return self.values_k(ws);
        };
        std::array::from_fn(|r| {
            let sorted = sorted.map(|s| s[r]);
            self.finish(ws[r], &first[r], second[r], sorted)
        })
    }

    /// [`Fast::values`] of K replicates: their moments ([`Fast::moments_of`]), then each one's reads in
    /// sorted order.
    fn values_k<W: Weight, const K: usize>(
        &self,
        ws: [&[W]; K],
    ) -> [Vec<(&'static str, Option<f64>)>; K] {
        let (first, second) = self.moments_of(ws, moments::fused(self, ws));
        std::array::from_fn(|r| self.finish(ws[r], &first[r], second[r], None))
    }

    /// Each replicate's first pass and moments: from one pass over the columns for the K when it gives them
    /// (`fused`: [`moments::fused`]), else the two passes (`passes`; for the block, or for a replicate whose
    /// moments the one pass does not give); each replicate's sums as one replicate alone gives them, to the
    /// bit.
    #[allow(clippy::type_complexity)]
    fn moments_of<W: Weight, const K: usize>(
        &self,
        ws: [&[W]; K],
        fused: Option<moments::Fused<K>>,
    ) -> ([passes::First; K], [[f64; 4]; K]) {
        match fused {
            Some((first, moments)) => (
                first,
                std::array::from_fn(|r| {
                    moments[r].unwrap_or_else(|| {
                        let [first] = passes::first(self, [ws[r]]);
                        let [second] = passes::second(self, [ws[r]], [first.means()]);
                        second
                    })
                }),
            ),
            None => {
                let first = passes::first(self, ws);
                (first, passes::second(self, ws, first.map(|f| f.means())))
            }
        }
    }

    /// A replicate's metrics from its two passes' sums and, when the block gave them ([`Fast::sorted4`]), its
    /// median and Spearman.
    fn finish<W: Weight>(
        &self,
        w: &[W],
        first: &passes::First,
        second: [f64; 4],
        sorted: Option<quad::Sorted>,
    ) -> Vec<(&'static str, Option<f64>)> {
        let (t, p) = (&self.targets, &self.preds);
        let n = t.len();
        let (count, largest, fits) = (first.count, first.largest, first.fits);
        if count == 0 {
            return Vec::new();
        }
        let nf = count as f64;
        let [s_abs, s_sq, s_ape, s_smape, s_sle, _, _, _] = first.sums;
        let bad = self.log_bad.iter().any(|&i| w[i as usize] != W::default());
        let [ctt, cpp, ctp, cdd] = second;
        let drawn = |x: &[f64]| {
            let mut it = (0..n).filter(|&i| w[i] != W::default()).map(|i| x[i]);
            let first = it.next();
            first.is_some_and(|f| it.any(|v| v != f))
        };
        let varies = count >= 2 && drawn(t) && drawn(p);
        let max_error = Some(largest);
        // The reads in sorted order on the weights as bytes when they fit (src/stats/units.rs).
        let (median, spearman) = if let Some((median, rho)) = sorted {
            (median, varies.then_some(rho).flatten())
        } else if fits {
            BYTES.with(|cell| {
                let b = &mut *cell.borrow_mut();
                weights_as_bytes(w, b);
                let b: &[u8] = b;
                (
                    self.median(b, count),
                    varies.then(|| self.spearman(b, count)).flatten(),
                )
            })
        } else {
            (
                self.median(w, count),
                varies.then(|| self.spearman(w, count)).flatten(),
            )
        };
        let msle = (!bad).then(|| s_sle / nf);
        let mse = s_sq / nf;
        let pearson = varies.then(|| (ctp / (ctt.sqrt() * cpp.sqrt())).clamp(-1.0, 1.0));
        vec![
            ("mean_absolute_error", Some(s_abs / nf)),
            ("mean_squared_error", Some(mse)),
            ("root_mean_squared_error", Some(mse.sqrt())),
            ("mean_squared_log_error", msle),
            ("root_mean_squared_log_error", msle.map(f64::sqrt)),
            ("mean_absolute_percentage_error", Some(s_ape / nf)),
            ("median_absolute_error", median),
            ("max_error", max_error),
            ("r2", (count >= 2).then(|| assemble(s_sq, ctt))),
            ("explained_variance", Some(assemble(cdd / nf, ctt / nf))),
            ("pearson", pearson),
            ("spearman", spearman),
            ("smape", Some(100.0 / nf * s_smape)),
        ]
    }

    /// The metrics `regression_weighted::by_id` weights, on the rows repeated as `w` draws them with each copy
    /// keeping its GT weight `g` (scikit-learn's `sample_weight` of the repeated set): each `np.average` is
    /// Σ k·g·x / Σ k·g, summed in blocks as without GT weights; `None` where the weights sum to 0.
    /// `g_small`: every GT weight at most 1e100 in size (see [`Fast::plain`]).
    fn weighted_values(
        &self,
        g: &[f64],
        g_small: bool,
        w: &[u32],
    ) -> Vec<(&'static str, Option<f64>)> {
        let plain = self.plain && g_small;
        let (t, p) = (&self.targets, &self.preds);
        let count: u64 = w.iter().map(|&k| k as u64).sum();
        let n = t.len();
        let [scale, s_abs, s_sq, s_ape, s_sle, s_t, s_d] = block_sums(n, w, plain, |i| {
            let d = t[i] - p[i];
            let abs = (p[i] - t[i]).abs();
            [1.0, abs, d * d, self.ape[i], self.sle[i], t[i], d].map(|x| x * g[i])
        });
        if count == 0 || scale == 0.0 {
            return Vec::new();
        }
        let (mt, md) = (s_t / scale, s_d / scale);
        let [ctt, cdd] = block_sums(n, w, plain, |i| {
            let (a, e) = (t[i] - mt, t[i] - p[i] - md);
            [a * a * g[i], e * e * g[i]]
        });
        let bad = self.log_bad.iter().any(|&i| w[i as usize] != 0);
        let msle = (!bad).then(|| s_sle / scale);
        let mse = s_sq / scale;
        vec![
            ("mean_absolute_error", Some(s_abs / scale)),
            ("mean_squared_error", Some(mse)),
            ("root_mean_squared_error", Some(mse.sqrt())),
            ("mean_squared_log_error", msle),
            ("root_mean_squared_log_error", msle.map(f64::sqrt)),
            ("mean_absolute_percentage_error", Some(s_ape / scale)),
            ("r2", (count >= 2).then(|| assemble(s_sq, ctt))),
            (
                "explained_variance",
                Some(assemble(cdd / scale, ctt / scale)),
            ),
        ]
    }

    /// `np.median` of the repeated |p − t|: the middle value, or the mean of the two middle values (value q of
    /// the repeated values in increasing order: the row where the cumulated weight first exceeds q; both
    /// middle values found in one walk).
    fn median<W: Copy + Default + Into<u64>>(&self, w: &[W], count: u64) -> Option<f64> {
        let (q_lo, q_hi) = (count.saturating_sub(1) / 2, count / 2);
        let (mut lo, mut hi, mut cum) = (f64::NAN, f64::NAN, 0u64);
        let mut found_lo = false;
        let mut gathered = [W::default(); GATHER];
        'walk: for order in self.by_abs.chunks(GATHER) {
            gather(&mut gathered, w, order);
            for (&i, &k) in order.iter().zip(&gathered) {
                cum += k.into();
                if !found_lo && cum > q_lo {
                    lo = self.abs[i as usize];
                    found_lo = true;
                }
                if cum > q_hi {
                    hi = self.abs[i as usize];
                    break 'walk;
                }
            }
        }
        Some(if count % 2 == 1 { hi } else { (lo + hi) / 2.0 })
    }

    /// `spearmanr` of the repeated rows, as `spearman_of_ranks` computes it (src/metrics/regression.rs).
    fn spearman<W: Copy + Default + Into<u64>>(&self, w: &[W], count: u64) -> Option<f64> {
        let c = count as i128 + 1;
        // Σ k·(a − c)², Σ k·(b − c)², Σ k·(a − c)(b − c) over the rows (a, b: the doubled ranks of the row's
        // target and prediction), summed run by run: the same integers.
        let (stt, spp, stp) = RANKS.with(|cell| {
            let (narrow, wide) = &mut *cell.borrow_mut();
            // The doubled ranks are at most 2·count + 1: in 32 bits when they fit (half the memory that the
            // cross sum reads at random).
            if 2 * count < u32::MAX as u64 {
                let spp = self.p_runs.doubled_ranks(w, narrow, c);
                let (stt, stp) = self.t_runs.cross(w, narrow, &self.p_run_by_t, c);
                (stt, spp, stp)
            } else {
                let spp = self.p_runs.doubled_ranks(w, wide, c);
                let (stt, stp) = self.t_runs.cross(w, wide, &self.p_run_by_t, c);
                (stt, spp, stp)
            }
        });
        spearman_of_sums(stt, spp, stp, count)
    }
}

/// `_assemble_fraction_of_explained_deviance(force_finite=True)`, as src/metrics/regression.rs assembles.
fn assemble(num: f64, den: f64) -> f64 {
    if num == 0.0 {
        1.0
    } else if den == 0.0 {
        0.0
    } else {
        1.0 - num / den
    }
}

/// `x` with element i repeated `w[i]` times.
#[cfg(test)]
fn repeated(x: &[f64], w: &[u32]) -> Vec<f64> {
    let mut out = Vec::with_capacity(x.len());
    for (&v, &k) in x.iter().zip(w) {
        for _ in 0..k {
            out.push(v);
        }
    }
    out
}

impl RegressionUnits {
    /// The report's metrics, in order, from a replicate's values (`None` where undefined or not finite).
    fn pick(&self, values: &[(&'static str, Option<f64>)]) -> Vec<Option<f64>> {
        (self.metrics.iter())
            .map(|m| {
                let v = values.iter().find(|(k, _)| k == m).and_then(|(_, v)| *v);
                v.filter(|v| v.is_finite())
            })
            .collect()
    }
}

impl Replicate for RegressionUnits {
    fn metrics(&self) -> Vec<String> {
        self.metrics.clone()
    }

    fn values(&self, w: &[u32]) -> Vec<Option<f64>> {
        let values = match self.weights.is_empty() {
            true => self.fast.values(w),
            false => (self.fast).weighted_values(&self.weights, self.weights_small, w),
        };
        self.pick(&values)
    }

    /// Without GT weights, the columns read once for four or eight replicates ([`Fast::values_block`]).
    fn values_block(&self, ws: &[&[u32]]) -> Vec<Vec<Option<f64>>> {
        if !self.weights.is_empty() {
            return ws.iter().map(|w| self.values(w)).collect();
        }
        let values = self.fast.values_block(ws);
        values.iter().map(|v| self.pick(v)).collect()
    }

    /// Eight replicates side by side: Spearman's sweeps read each row's place once for eight (measured: B = 1000
    /// on a million rows takes a quarter less CPU than in blocks of four).
    fn block(&self) -> usize {
        8
    }

    /// [`RegressionUnits::values_block`] on counts as bytes (without GT weights).
    fn values_block_bytes(&self, ws: &[&[u8]]) -> Option<Vec<Vec<Option<f64>>>> {
        if !self.weights.is_empty() {
            return None;
        }
        let values = self.fast.values_block(ws);
        Some(values.iter().map(|v| self.pick(v)).collect())
    }

    /// The other submission's predictions where `take_other`.
    fn mixed(
        &self,
        other: &dyn Replicate,
        take_other: &[bool],
        w: &[u32],
    ) -> Option<Vec<Option<f64>>> {
        let o = other.as_any().downcast_ref::<RegressionUnits>()?;
        if o.targets != self.targets || take_other.len() != self.preds.len() {
            return None;
        }
        let preds: Vec<f64> = (0..self.preds.len())
            .map(|i| {
                if take_other[i] {
                    o.preds[i]
                } else {
                    self.preds[i]
                }
            })
            .collect();
        let mixed = RegressionUnits::new(
            self.metrics.clone(),
            self.targets.clone(),
            preds,
            self.weights.clone(),
        );
        Some(mixed.values(w))
    }

    /// Minus the absolute error: higher is better.
    fn unit_scores(&self) -> Option<Vec<f64>> {
        Some(
            self.targets
                .iter()
                .zip(&self.preds)
                .map(|(t, p)| -(p - t).abs())
                .collect(),
        )
    }

    /// Every metric but R², explained variance and the correlations is an error.
    fn lower_is_better(&self, metric: &str) -> bool {
        !matches!(metric, "r2" | "explained_variance" | "pearson" | "spearman")
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

#[cfg(test)]
#[path = "units_tests.rs"]
mod tests;
