//! Binary ranking metrics as scikit-learn 1.9 computes them (`sklearn/metrics/_ranking.py`): the
//! threshold curve of `confusion_matrix_at_thresholds` (formerly `_binary_clf_curve`), `roc_curve`
//! (`drop_intermediate=True`) integrated by `scipy.integrate.trapezoid` (`auc`), and
//! `average_precision_score`'s step sum over `precision_recall_curve`. Sums are NumPy's pairwise sums.

use crate::metrics::mean::numpy_sum;
use crate::metrics::mean::numpy_sum_of;

/// The curve of `confusion_matrix_at_thresholds`: samples sorted by decreasing score, one point per distinct
/// score (the last index of each run of equal scores): cumulative true positives `tps`, false positives
/// `fps = 1 + index − tps`, and the threshold (the score). Ties are one point, so the order inside a tie does
/// not matter.
#[derive(Clone, Debug, PartialEq)]
pub struct ThresholdCurve {
    pub fps: Vec<f64>,
    pub tps: Vec<f64>,
    pub thresholds: Vec<f64>,
}

/// Builds the threshold curve from (score, is_positive) pairs; sorts `pairs` in place (decreasing score).
/// Scores must be finite (the readers refuse NaN and infinities, as scikit-learn's `assert_all_finite` does).
pub fn threshold_curve(pairs: &mut [(f64, bool)]) -> ThresholdCurve {
    crate::metrics::radix::sort_desc(pairs);
    let n = pairs.len();
    let mut out = ThresholdCurve {
        fps: Vec::new(),
        tps: Vec::new(),
        thresholds: Vec::new(),
    };
    let mut tp = 0.0f64;
    for i in 0..n {
        tp += pairs[i].1 as u8 as f64;
        // np.diff(y_score) != 0 ends a run; -0.0 and 0.0 are equal.
        if i + 1 == n || pairs[i + 1].0 != pairs[i].0 {
            out.tps.push(tp);
            out.fps.push(1.0 + i as f64 - tp);
            out.thresholds.push(pairs[i].0);
        }
    }
    out
}

/// The threshold curve of class `pos` against the samples of class `pos` or `other` (all samples when `other`
/// is `None`), from one score column already sorted by decreasing score (`ranked`: (score, class)). The
/// same points as [`threshold_curve`] of those samples: a point at the last sample of the subset in each run of
/// equal scores (runs of the whole column: a run of the subset is the subset's part of one), with
/// `fps` = samples of the subset so far − `tps`. One sort of a column serves one-vs-rest and every one-vs-one
/// pair of its class.
pub fn ranked_curve(ranked: &[(f64, u32)], pos: u32, other: Option<u32>) -> ThresholdCurve {
    let mut out = ThresholdCurve {
        fps: Vec::new(),
        tps: Vec::new(),
        thresholds: Vec::new(),
    };
    let (mut tp, mut count) = (0.0f64, 0.0f64);
    let mut pending = false;
    let n = ranked.len();
    for i in 0..n {
        let (s, l) = ranked[i];
        if l == pos || other.is_none_or(|o| l == o) {
            tp += (l == pos) as u8 as f64;
            count += 1.0;
            pending = true;
        }
        if pending && (i + 1 == n || ranked[i + 1].0 != s) {
            out.tps.push(tp);
            out.fps.push(count - tp);
            out.thresholds.push(s);
            pending = false;
        }
    }
    out
}

/// `roc_curve(drop_intermediate=True)`: keeps the first and last point and every point where the second
/// difference of `fps` or of `tps` is non-zero, prepends (0, 0), and divides by the last `fps` / `tps`
/// (NaN when there are no negatives / positives). Returns (fpr, tpr, thresholds; the first one is +inf).
pub fn roc_curve(c: &ThresholdCurve) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let m = c.fps.len();
    let keep: Vec<usize> = if m > 2 {
        (0..m)
            .filter(|&i| {
                i == 0
                    || i == m - 1
                    || (c.fps[i + 1] - c.fps[i]) - (c.fps[i] - c.fps[i - 1]) != 0.0
                    || (c.tps[i + 1] - c.tps[i]) - (c.tps[i] - c.tps[i - 1]) != 0.0
            })
            .collect()
    } else {
        (0..m).collect()
    };
    let mut fps = vec![0.0];
    let mut tps = vec![0.0];
    let mut th = vec![f64::INFINITY];
    for &i in &keep {
        fps.push(c.fps[i]);
        tps.push(c.tps[i]);
        th.push(c.thresholds[i]);
    }
    let (fl, tl) = (*fps.last().unwrap_or(&0.0), *tps.last().unwrap_or(&0.0));
    let fpr = fps
        .iter()
        .map(|&f| if fl <= 0.0 { f64::NAN } else { f / fl })
        .collect();
    let tpr = tps
        .iter()
        .map(|&t| if tl <= 0.0 { f64::NAN } else { t / tl })
        .collect();
    (fpr, tpr, th)
}

/// `scipy.integrate.trapezoid(y, x)`: Σ (x[i+1] − x[i]) · (y[i+1] + y[i]) / 2.0, summed pairwise.
pub fn trapezoid(y: &[f64], x: &[f64]) -> f64 {
    let terms: Vec<f64> = (1..x.len())
        .map(|i| (x[i] - x[i - 1]) * (y[i] + y[i - 1]) / 2.0)
        .collect();
    numpy_sum(&terms)
}

/// `roc_auc_score` of a binary problem (`_binary_roc_auc_score`): `None` (scikit-learn: NaN with a warning)
/// unless both classes are present; else `auc(fpr, tpr)`, the trapezoid over the ROC curve.
pub fn roc_auc(pairs: &mut [(f64, bool)]) -> Option<f64> {
    roc_auc_of(&threshold_curve(pairs))
}

/// [`roc_auc`] of a threshold curve already built.
/// The points of [`roc_curve`] are computed as they are summed: the same terms, one vector instead of six.
pub fn roc_auc_of(c: &ThresholdCurve) -> Option<f64> {
    roc_auc_by(c.fps.len().min(c.tps.len()), |i| c.fps[i], |i| c.tps[i])
}

/// [`roc_auc_of`] of the curve of `m` points whose false and true positives are `f(i)` and `t(i)` (the same
/// arithmetic, whatever holds the points).
#[inline]
pub fn roc_auc_by(m: usize, f: impl Fn(usize) -> f64, t: impl Fn(usize) -> f64) -> Option<f64> {
    let pos = if m > 0 { t(m - 1) } else { 0.0 };
    let neg = if m > 0 { f(m - 1) } else { 0.0 };
    if pos == 0.0 || neg == 0.0 {
        return None;
    }
    // `roc_curve`'s kept points, (0, 0) first, divided by the last one (pos, neg > 0); counted, then summed
    // as they are computed.
    let keep = |i: &usize| {
        let i = *i;
        m <= 2
            || i == 0
            || i == m - 1
            || (f(i + 1) - f(i)) - (f(i) - f(i - 1)) != 0.0
            || (t(i + 1) - t(i)) - (t(i) - t(i - 1)) != 0.0
    };
    let kept = (0..m).filter(keep).count();
    let (mut x0, mut y0) = (0.0 / neg, 0.0 / pos);
    let mut terms = (0..m).filter(keep).map(|i| {
        let (x, y) = (f(i) / neg, t(i) / pos);
        let term = (x - x0) * (y + y0) / 2.0;
        (x0, y0) = (x, y);
        term
    });
    Some(numpy_sum_of(kept, &mut terms)).filter(|v| v.is_finite())
}

/// `precision_recall_curve(drop_intermediate=False)`: precision = tps / (tps + fps), recall = tps / tps_last
/// (all 1 when there is no positive), both reversed with a final (precision 1, recall 0) appended.
pub fn precision_recall_curve(c: &ThresholdCurve) -> (Vec<f64>, Vec<f64>) {
    let m = c.tps.len();
    let tl = c.tps.last().copied().unwrap_or(0.0);
    let mut precision = Vec::with_capacity(m + 1);
    let mut recall = Vec::with_capacity(m + 1);
    for i in (0..m).rev() {
        let ps = c.tps[i] + c.fps[i];
        precision.push(if ps != 0.0 { c.tps[i] / ps } else { 0.0 });
        recall.push(if tl == 0.0 { 1.0 } else { c.tps[i] / tl });
    }
    precision.push(1.0);
    recall.push(0.0);
    (precision, recall)
}

/// `average_precision_score` of a binary problem (`_binary_uninterpolated_average_precision`):
/// max(0, −Σ (recall[i+1] − recall[i]) · precision[i]) over the reversed precision/recall curve, summed
/// pairwise. `None` for no samples.
pub fn average_precision(pairs: &mut [(f64, bool)]) -> Option<f64> {
    average_precision_of(&threshold_curve(pairs))
}

/// [`average_precision`] of a threshold curve already built.
pub fn average_precision_of(c: &ThresholdCurve) -> Option<f64> {
    average_precision_by(c.tps.len().min(c.fps.len()), |i| c.fps[i], |i| c.tps[i])
}

/// [`average_precision_of`] of the curve of `m` points whose false and true positives are `f(i)` and `t(i)`.
#[inline]
pub fn average_precision_by(
    m: usize,
    f: impl Fn(usize) -> f64,
    t: impl Fn(usize) -> f64,
) -> Option<f64> {
    if m == 0 {
        return None;
    }
    // The terms of the reversed curve with its final (precision 1, recall 0) point ([`precision_recall_curve`]),
    // computed as they are summed: one vector instead of three.
    let tl = t(m - 1);
    let precision = |j: usize| {
        let ps = t(j) + f(j);
        if ps != 0.0 {
            t(j) / ps
        } else {
            0.0
        }
    };
    let recall = |j: usize| if tl == 0.0 { 1.0 } else { t(j) / tl };
    let mut terms = (0..m).map(|i| {
        let j = m - 1 - i;
        let next = if j > 0 { recall(j - 1) } else { 0.0 };
        (next - recall(j)) * precision(j)
    });
    let s = -numpy_sum_of(m, &mut terms);
    Some(if s > 0.0 { s } else { 0.0 })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(y: &[u8], s: &[f64]) -> Vec<(f64, bool)> {
        s.iter().zip(y).map(|(&s, &y)| (s, y == 1)).collect()
    }

    #[test]
    fn sklearn_docstring_values() {
        // roc_auc_score / average_precision_score docstrings: y = [0, 0, 1, 1], s = [0.1, 0.4, 0.35, 0.8]
        // → 0.75 and 0.8333333333333333.
        let y = [0, 0, 1, 1];
        let s = [0.1, 0.4, 0.35, 0.8];
        assert_eq!(roc_auc(&mut pairs(&y, &s)), Some(0.75));
        assert_eq!(
            average_precision(&mut pairs(&y, &s)),
            Some(0.8333333333333333)
        );
        assert_eq!(roc_auc(&mut pairs(&[1, 1], &[0.1, 0.2])), None);
    }

    /// `roc_auc_of` is the trapezoid over `roc_curve`, bit for bit.
    #[test]
    fn roc_auc_is_the_trapezoid_of_the_roc_curve() {
        let mut x: u64 = 0x1234_5678_9abc_def1;
        for n in 1..300 {
            let mut pairs: Vec<(f64, bool)> = (0..n)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    ((x % 37) as f64 / 7.0, (x >> 50).is_multiple_of(3))
                })
                .collect();
            let c = threshold_curve(&mut pairs);
            let (fpr, tpr, _) = roc_curve(&c);
            let want = Some(trapezoid(&tpr, &fpr)).filter(|v| {
                v.is_finite() && c.tps.last() > Some(&0.0) && c.fps.last() > Some(&0.0)
            });
            assert_eq!(
                roc_auc_of(&c).map(f64::to_bits),
                want.map(f64::to_bits),
                "n = {n}"
            );
        }
    }

    /// `average_precision_of` is the step sum over `precision_recall_curve`, bit for bit.
    #[test]
    fn average_precision_is_the_step_sum_of_the_pr_curve() {
        let mut x: u64 = 0x0fed_cba9_8765_4321;
        for n in 1..300 {
            let mut pairs: Vec<(f64, bool)> = (0..n)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    ((x % 41) as f64 / 9.0, (x >> 50).is_multiple_of(4))
                })
                .collect();
            let c = threshold_curve(&mut pairs);
            let (p, r) = precision_recall_curve(&c);
            let terms: Vec<f64> = (0..r.len() - 1).map(|i| (r[i + 1] - r[i]) * p[i]).collect();
            let s = -numpy_sum(&terms);
            let want = if s > 0.0 { s } else { 0.0 };
            assert_eq!(
                average_precision_of(&c).map(f64::to_bits),
                Some(want.to_bits()),
                "n = {n}"
            );
        }
    }

    /// `ranked_curve` of a subset gives the points `threshold_curve` gives for the subset alone.
    #[test]
    fn ranked_curve_is_the_subsets_curve() {
        let s = [0.9, 0.5, 0.5, 0.5, 0.3, 0.3, 0.1, 0.9, 0.0, 0.5];
        let y = [0u32, 1, 2, 0, 2, 1, 0, 2, 1, 1];
        let mut ranked: Vec<(f64, u32)> = s.iter().copied().zip(y).collect();
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
        for pos in 0..3u32 {
            let mut all: Vec<(f64, bool)> =
                s.iter().zip(&y).map(|(&s, &l)| (s, l == pos)).collect();
            assert_eq!(ranked_curve(&ranked, pos, None), threshold_curve(&mut all));
            for other in (0..3u32).filter(|&o| o != pos) {
                let mut sub: Vec<(f64, bool)> = s
                    .iter()
                    .zip(&y)
                    .filter(|(_, &l)| l == pos || l == other)
                    .map(|(&s, &l)| (s, l == pos))
                    .collect();
                assert_eq!(
                    ranked_curve(&ranked, pos, Some(other)),
                    threshold_curve(&mut sub)
                );
            }
        }
    }
}
