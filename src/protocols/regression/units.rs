//! The bootstrap's units of `regression` (docs/specs/statistics.md section 1): one unit per GT row. A
//! replicate is every metric on the repeated rows (each drawn row as many times as drawn, copies adjacent, in
//! row order): for the means this is scikit-learn's `sample_weight` = the draw counts; for the median, Pearson
//! and Spearman (SciPy has no weights) it is the metric of the repeated set itself. With the GT's weights
//! (`weight_column`), a drawn row keeps its weight on each copy: scikit-learn's `sample_weight` = the weights
//! of the repeated set.
//!
//! Without GT weights a replicate never builds the repeated set: the means are weighted sums of per-row terms
//! (summed in blocks, within 1e-12 of NumPy's pairwise sums of the repeated values), R², explained variance
//! and Pearson take a second weighted pass around the weighted means, the median is read off the rows sorted
//! once by absolute error, and Spearman's ranks of the repeated set come from the rows' groups of equal values
//! (sorted once): a group of weight W after C repeated values has the doubled average rank 2C + W + 1, and
//! the sums of the centred doubled ranks are exact integers, as in the metric on the repeated set.

use super::metric_values;
use crate::metrics::regression_weighted::by_id;
use crate::report::Scores;
use crate::stats::units::{weights_as_bytes, Replicate, Slot, Units};
use std::any::Any;

/// The targets and predictions, row by row.
pub struct RegressionUnits {
    metrics: Vec<String>,
    targets: Vec<f64>,
    preds: Vec<f64>,
    /// The GT's row weights (`weight_column`); empty without.
    weights: Vec<f64>,
    /// What a replicate reads without GT weights, computed once.
    fast: Option<Fast>,
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
        let fast = weights.is_empty().then(|| Fast::new(&targets, &preds));
        RegressionUnits {
            metrics,
            targets,
            preds,
            weights,
            fast,
        }
    }
}

/// Per-row terms and orders of the unweighted metrics (see the module's comment).
struct Fast {
    targets: Vec<f64>,
    preds: Vec<f64>,
    /// |p − t|, (t − p)², |p − t| / max(|t|, ε), Kaggle's SMAPE term, (log1p t − log1p p)² (0 where a side is
    /// ≤ −1, which `log_bad` marks).
    abs: Vec<f64>,
    sq: Vec<f64>,
    ape: Vec<f64>,
    smape: Vec<f64>,
    sle: Vec<f64>,
    log_bad: Vec<u32>,
    /// The rows in increasing |p − t| (`total_cmp`).
    by_abs: Vec<u32>,
    /// The targets' and the predictions' runs of equal values.
    t_runs: Runs,
    p_runs: Runs,
}

/// The rows of `x` sorted once (`total_cmp`), and where each run of `==` values ends (as `rankdata` ties
/// them); each row's run, numbered in increasing value.
struct Runs {
    order: Vec<u32>,
    ends: Vec<u8>,
    run: Vec<u32>,
    count: usize,
}

impl Runs {
    fn new(x: &[f64]) -> Runs {
        let mut order: Vec<u32> = (0..x.len() as u32).collect();
        order.sort_unstable_by(|&a, &b| x[a as usize].total_cmp(&x[b as usize]));
        let at = |j: usize| x[order[j] as usize];
        let ends: Vec<u8> = (0..x.len())
            .map(|j| (j + 1 == x.len() || at(j + 1) != at(j)) as u8)
            .collect();
        let mut run = vec![0u32; x.len()];
        let mut r = 0u32;
        for (&i, &e) in order.iter().zip(&ends) {
            run[i as usize] = r;
            r += e as u32;
        }
        Runs {
            order,
            ends,
            run,
            count: r as usize,
        }
    }

    /// Each run's doubled average rank in the repeated rows (2C + W + 1 for a run of weight W after C repeated
    /// values), into `out` (index: the run). The rows' weights are read in sorted order; branch-free.
    fn doubled_ranks<W: Copy + Into<u64>>(&self, w: &[W], out: &mut Vec<u64>) {
        out.clear();
        out.resize(self.count + 1, 0);
        let (mut before, mut run, mut idx) = (0u64, 0u64, 0usize);
        for (&i, &e) in self.order.iter().zip(&self.ends) {
            let e = e as u64;
            run += w[i as usize].into();
            out[idx] = 2 * before + run + 1;
            before += run * e;
            run *= 1 - e;
            idx += e as usize;
        }
    }
}

thread_local! {
    /// Spearman's run ranks of the targets and of the predictions, reused from one replicate to the next.
    static RANKS: std::cell::RefCell<(Vec<u64>, Vec<u64>)> = Default::default();
    /// The replicate's weights as bytes (`weights_as_bytes`), for the reads in sorted order.
    static BYTES: std::cell::RefCell<Vec<u8>> = Default::default();
}

/// Weighted sums over the rows in blocks of 256 (each block summed apart, then the blocks' sums added): the
/// rounding error stays near a pairwise sum's.
fn block_sums<const K: usize>(n: usize, w: &[u32], f: impl Fn(usize) -> [f64; K]) -> [f64; K] {
    let mut total = [0.0f64; K];
    let mut start = 0;
    while start < n {
        let end = (start + 256).min(n);
        let mut block = [0.0f64; K];
        for (i, &k) in w.iter().enumerate().take(end).skip(start) {
            let terms = f(i);
            for (b, t) in block.iter_mut().zip(terms) {
                // A select, not a branch: 0 × an infinite term would be NaN.
                *b += if k != 0 { t * k as f64 } else { 0.0 };
            }
        }
        for (s, b) in total.iter_mut().zip(block) {
            *s += b;
        }
        start = end;
    }
    total
}

impl Fast {
    fn new(t: &[f64], p: &[f64]) -> Fast {
        let n = t.len();
        let abs: Vec<f64> = (0..n).map(|i| (p[i] - t[i]).abs()).collect();
        let mut by_abs: Vec<u32> = (0..n as u32).collect();
        by_abs.sort_unstable_by(|&a, &b| abs[a as usize].total_cmp(&abs[b as usize]));
        let log_bad: Vec<u32> = (0..n)
            .map(|i| (t[i] <= -1.0 || p[i] <= -1.0) as u32)
            .collect();
        let sle = (0..n)
            .map(|i| {
                if log_bad[i] != 0 {
                    return 0.0;
                }
                let d = libm::log1p(t[i]) - libm::log1p(p[i]);
                d * d
            })
            .collect();
        let smape = (0..n)
            .map(|i| {
                let d = t[i].abs() + p[i].abs();
                if d == 0.0 {
                    0.0
                } else {
                    2.0 * (p[i] - t[i]).abs() / d
                }
            })
            .collect();
        Fast {
            targets: t.to_vec(),
            preds: p.to_vec(),
            sq: (0..n).map(|i| (t[i] - p[i]) * (t[i] - p[i])).collect(),
            ape: (0..n)
                .map(|i| (p[i] - t[i]).abs() / t[i].abs().max(f64::EPSILON))
                .collect(),
            abs,
            smape,
            sle,
            log_bad,
            by_abs,
            t_runs: Runs::new(t),
            p_runs: Runs::new(p),
        }
    }

    /// Every metric of `metric_values` on the rows repeated as `w` draws them.
    fn values(&self, w: &[u32]) -> Vec<(&'static str, Option<f64>)> {
        let (t, p) = (&self.targets, &self.preds);
        let n = t.len();
        let count: u64 = w.iter().map(|&k| k as u64).sum();
        if count == 0 {
            return Vec::new();
        }
        let nf = count as f64;
        let [s_abs, s_sq, s_ape, s_smape, s_sle, bad, s_t, s_p, s_d] = block_sums(n, w, |i| {
            let d = t[i] - p[i];
            [
                self.abs[i],
                self.sq[i],
                self.ape[i],
                self.smape[i],
                self.sle[i],
                self.log_bad[i] as f64,
                t[i],
                p[i],
                d,
            ]
        });
        let (mt, mp, md) = (s_t / nf, s_p / nf, s_d / nf);
        let [ctt, cpp, ctp, cdd] = block_sums(n, w, |i| {
            let (a, b, d) = (t[i] - mt, p[i] - mp, t[i] - p[i] - md);
            [a * a, b * b, a * b, d * d]
        });
        let drawn = |x: &[f64]| {
            let mut it = (0..n).filter(|&i| w[i] != 0).map(|i| x[i]);
            let first = it.next();
            first.is_some_and(|f| it.any(|v| v != f))
        };
        let varies = count >= 2 && drawn(t) && drawn(p);
        let max_error = (0..n)
            .filter(|&i| w[i] != 0)
            .map(|i| (t[i] - p[i]).abs())
            .reduce(f64::max);
        // The reads in sorted order on the weights as bytes when they fit (src/stats/units.rs).
        let (median, spearman) = BYTES.with(|cell| {
            let mut bytes = cell.borrow_mut();
            if weights_as_bytes(w, &mut bytes) {
                let b: &[u8] = &bytes;
                (
                    self.median(b, count),
                    varies.then(|| self.spearman(b, count)).flatten(),
                )
            } else {
                (
                    self.median(w, count),
                    varies.then(|| self.spearman(w, count)).flatten(),
                )
            }
        });
        let msle = (bad == 0.0).then(|| s_sle / nf);
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

    /// `np.median` of the repeated |p − t|: the middle value, or the mean of the two middle values.
    fn median<W: Copy + Into<u64>>(&self, w: &[W], count: u64) -> Option<f64> {
        let at = |q: u64| {
            let mut cum = 0u64;
            for &i in &self.by_abs {
                cum += w[i as usize].into();
                if cum > q {
                    return self.abs[i as usize];
                }
            }
            f64::NAN
        };
        let hi = at(count / 2);
        Some(if count % 2 == 1 {
            hi
        } else {
            (at(count / 2 - 1) + hi) / 2.0
        })
    }

    /// `spearmanr` of the repeated rows, as `spearman_of_ranks` computes it (src/metrics/regression.rs).
    fn spearman<W: Copy + Into<u64>>(&self, w: &[W], count: u64) -> Option<f64> {
        let c = count as i128 + 1;
        let (mut stt, mut spp, mut stp) = (0i128, 0i128, 0i128);
        RANKS.with(|cell| {
            let (rt, rp) = &mut *cell.borrow_mut();
            self.t_runs.doubled_ranks(w, rt);
            self.p_runs.doubled_ranks(w, rp);
            let rows = self.t_runs.run.iter().zip(&self.p_runs.run).zip(w);
            for ((&gt, &gp), &k) in rows {
                let (a, b) = (rt[gt as usize] as i128 - c, rp[gp as usize] as i128 - c);
                let k = k.into() as i128;
                stt += k * a * a;
                spp += k * b * b;
                stp += k * a * b;
            }
        });
        let f = 1.0 / (count - 1) as f64;
        let (ctt, cpp, ctp) = (
            stt as f64 / 4.0 * f,
            spp as f64 / 4.0 * f,
            stp as f64 / 4.0 * f,
        );
        let r = ctp / cpp.sqrt() / ctt.sqrt();
        r.is_finite().then(|| r.clamp(-1.0, 1.0))
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
fn repeated(x: &[f64], w: &[u32]) -> Vec<f64> {
    let mut out = Vec::with_capacity(x.len());
    for (&v, &k) in x.iter().zip(w) {
        for _ in 0..k {
            out.push(v);
        }
    }
    out
}

impl Replicate for RegressionUnits {
    fn metrics(&self) -> Vec<String> {
        self.metrics.clone()
    }

    fn values(&self, w: &[u32]) -> Vec<Option<f64>> {
        if let Some(fast) = &self.fast {
            let values = fast.values(w);
            return (self.metrics.iter())
                .map(|m| {
                    let v = values.iter().find(|(k, _)| k == m).and_then(|(_, v)| *v);
                    v.filter(|v| v.is_finite())
                })
                .collect();
        }
        let (t, p) = (repeated(&self.targets, w), repeated(&self.preds, w));
        if !self.weights.is_empty() {
            let rw = repeated(&self.weights, w);
            return (self.metrics.iter())
                .map(|m| by_id(m, &t, &p, &rw).filter(|v| v.is_finite()))
                .collect();
        }
        let values = metric_values(&t, &p, &mut || {});
        self.metrics
            .iter()
            .map(|m| {
                values
                    .iter()
                    .find(|(k, _)| k == m)
                    .and_then(|(_, v)| *v)
                    .filter(|v| v.is_finite())
            })
            .collect()
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
mod tests {
    use super::*;

    /// A replicate without GT weights equals every metric of the repeated rows (`metric_values`, the protocol's
    /// own computation): sizes 1 to 1,000 with many ties, weights 0 to 3. The values are dyadic, so that the
    /// sums are exact and the comparison checks the logic (median, ranks, undefined cases) to 1e-12.
    #[test]
    fn weighted_replicate_equals_the_repeated_rows() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for n in [1usize, 2, 3, 10, 200, 1000] {
            let t: Vec<f64> = (0..n).map(|_| (next() % 50) as f64 / 4.0 - 2.0).collect();
            let p: Vec<f64> = (0..n).map(|_| (next() % 40) as f64 / 8.0 - 0.5).collect();
            let fast = Fast::new(&t, &p);
            for _ in 0..20 {
                let w: Vec<u32> = (0..n).map(|_| (next() % 4) as u32).collect();
                if w.iter().all(|&k| k == 0) {
                    continue;
                }
                let got = fast.values(&w);
                let expected = metric_values(&repeated(&t, &w), &repeated(&p, &w), &mut || {});
                for (id, e) in expected {
                    let g = got.iter().find(|(k, _)| *k == id).and_then(|(_, v)| *v);
                    match (g.filter(|v| v.is_finite()), e.filter(|v| v.is_finite())) {
                        (Some(a), Some(b)) => assert!(
                            (a - b).abs() <= 1e-12 * a.abs().max(b.abs()).max(1.0),
                            "n {n}, {id}: {a} != {b}"
                        ),
                        (None, None) => {}
                        other => panic!("n {n}, {id}: {other:?}"),
                    }
                }
            }
        }
    }
}
