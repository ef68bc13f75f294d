//! The binary metrics of one score column — scikit-learn 1.9's `roc_auc_score`, `average_precision_score` and
//! `log_loss` — from one pass over its samples, in buffers kept from column to column: each sample's sort key goes
//! to its class's list ([`super::groups::binary_curve_split_into`]'s split sort) while its log-loss term is summed
//! as NumPy sums ([`crate::metrics::mean::numpy_sum_of`]), then the curve's points are merged from the two
//! sorted lists as two 32-bit counts each (8 bytes a point rather than the 24 of a [`ThresholdCurve`], whose
//! thresholds neither metric reads). The values are those of [`super::curves::roc_auc_of`],
//! [`super::curves::average_precision_of`] and [`super::scores::log_loss_binary`] of the column, bit for bit:
//! the same terms in the same order.

use super::curves::{self, ThresholdCurve};
use super::groups::{self, SplitKeys};
use super::scores::log_loss_term;
use crate::metrics::radix;

/// The buffers of [`binary_metrics`], kept from call to call (a column of a million rows needs 16 MB of keys
/// and scratch and up to 8 MB of points: fresh pages for every column cost more than the sort).
pub struct PassBuffers {
    keys: SplitKeys,
    points: Vec<[u32; 2]>,
    curve: ThresholdCurve,
}

impl PassBuffers {
    /// No buffers yet (a `const`, for a thread-local's initialiser).
    pub const EMPTY: PassBuffers = PassBuffers {
        keys: SplitKeys::EMPTY,
        points: Vec::new(),
        curve: ThresholdCurve {
            fps: Vec::new(),
            tps: Vec::new(),
            thresholds: Vec::new(),
        },
    };
}

/// ROC AUC, average precision and log loss of the `n` samples `(score, is_positive)` (`n` is their number);
/// null where scikit-learn raises or returns NaN: one class only (ROC AUC, log loss), no sample, a
/// probability outside [0, 1] (log loss).
pub fn binary_metrics<I: Iterator<Item = (f64, bool)> + Clone>(
    samples: I,
    n: usize,
    b: &mut PassBuffers,
) -> [Option<f64>; 3] {
    let cap = (n / 4).min(1 << 18);
    if groups::few(samples.clone(), cap, &mut b.curve) {
        let mut terms = samples.clone().map(|(v, y)| log_loss_term(y, v));
        let valid = samples.clone().all(|(v, _)| (0.0..=1.0).contains(&v));
        let loss = crate::metrics::mean::numpy_mean_of(n, &mut terms).filter(|_| valid);
        return of_curve(&b.curve, loss);
    }
    let keys = &mut b.keys;
    keys.pos.clear();
    keys.neg.clear();
    let (mut negative_zero, mut nan, mut valid) = (false, false, true);
    let mut terms = samples.clone().map(|(v, y)| {
        negative_zero |= v == 0.0 && v.is_sign_negative();
        nan |= v.is_nan();
        valid &= (0.0..=1.0).contains(&v);
        let key = (radix::desc_key(v + 0.0), ());
        if y {
            keys.pos.push(key);
        } else {
            keys.neg.push(key);
        }
        log_loss_term(y, v)
    });
    let sum = crate::metrics::mean::numpy_sum_of(n, &mut terms);
    terms.for_each(drop);
    let two_classes = !keys.pos.is_empty() && !keys.neg.is_empty();
    let loss = (n > 0 && valid && two_classes).then(|| sum / n as f64);
    if nan || n > u32::MAX as usize {
        // NaN scores are one run each there (scikit-learn's `np.diff(y_score) != 0`).
        b.curve = curves::threshold_curve(&mut samples.collect::<Vec<_>>());
        return of_curve(&b.curve, loss);
    }
    radix::sort(&mut keys.pos, &mut keys.scratch);
    radix::sort(&mut keys.neg, &mut keys.scratch);
    let points = &mut b.points;
    points.clear();
    groups::merge_runs(&keys.pos, &keys.neg, negative_zero, |tp, fp, _| {
        points.push([fp as u32, tp as u32]);
    });
    let (f, t) = (
        |i: usize| points[i][0] as f64,
        |i: usize| points[i][1] as f64,
    );
    [
        curves::roc_auc_by(points.len(), f, t),
        curves::average_precision_by(points.len(), f, t),
        loss,
    ]
}

/// The three metrics of a curve built otherwise (few distinct scores, or a NaN score), the log loss given (it
/// is null unless both classes are present).
fn of_curve(c: &ThresholdCurve, loss: Option<f64>) -> [Option<f64>; 3] {
    let last = |v: &[f64]| v.last().copied().unwrap_or(0.0);
    let two_classes = last(&c.tps) > 0.0 && last(&c.fps) > 0.0;
    [
        curves::roc_auc_of(c),
        curves::average_precision_of(c),
        loss.filter(|_| two_classes),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::classification::scores::log_loss_binary;

    /// The three values of the separate functions, bit for bit: scores with few distinct values, many, ties,
    /// both zeros, a NaN, one class only, a probability outside [0, 1], no sample.
    #[test]
    fn equals_the_separate_metrics() {
        let mut x: u64 = 0x5851_f42d_4c95_7f2d;
        let mut b = PassBuffers::EMPTY;
        for case in 0..60usize {
            let n = [0, 1, 2, 7, 300, 5000, 40_000][case % 7];
            let mut s = Vec::with_capacity(n);
            for i in 0..n {
                let r = crate::xorshift64(&mut x);
                let v = match case % 5 {
                    0 => (r % 11) as f64 / 10.0,
                    1 => (r >> 11) as f64 / (1u64 << 53) as f64,
                    2 => [0.0, -0.0, 0.5, 1.0][(r % 4) as usize],
                    3 => (r % 1_000_001) as f64 / 1e6,
                    _ => ((r % 1000) as f64 - 10.0) / 900.0,
                };
                let v = if case % 13 == 6 && i == n / 2 {
                    f64::NAN
                } else {
                    v
                };
                let y = match case % 4 {
                    3 => false,
                    _ => (r >> 40) % 7 < 2 + (case % 3) as u64,
                };
                s.push((v, y));
            }
            let got = binary_metrics(s.iter().copied(), n, &mut b);
            let c = curves::threshold_curve(&mut s.clone());
            let y: Vec<bool> = s.iter().map(|p| p.1).collect();
            let p: Vec<f64> = s.iter().map(|p| p.0).collect();
            let two = y.iter().any(|&v| v) && y.iter().any(|&v| !v);
            let want = [
                curves::roc_auc_of(&c),
                curves::average_precision_of(&c),
                log_loss_binary(&y, &p).filter(|_| two),
            ];
            let bits = |v: [Option<f64>; 3]| v.map(|o| o.map(f64::to_bits));
            assert_eq!(bits(got), bits(want), "case {case}, n = {n}");
        }
    }
}
