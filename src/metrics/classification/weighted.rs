//! Classification metrics with scikit-learn's float `sample_weight` (scikit-learn 1.9,
//! `sklearn/metrics/_classification.py` and `_ranking.py`). The label metrics read a confusion matrix of summed
//! weights ([`WeightedConfusion`], `confusion_matrix(…, sample_weight=w)`, through the same functions as the
//! integer counts, [`super::labels`]); the ranking metrics a threshold curve of weighted cumulative sums
//! ([`weighted_curve`], `confusion_matrix_at_thresholds`); the per-sample losses `np.average(x, weights=w)`.
//! Weights are finite and ≥ 0 (the reader refuses others); every caller makes sure one is non-zero (scikit-learn's
//! `_check_sample_weight` raises "Sample weights must contain at least one non-zero number").

use super::curves::ThresholdCurve;
use super::labels::{matrix_sums, Counts, KappaWeights, DENSE_LABELS};
use crate::metrics::mean::numpy_sum;

/// `confusion_matrix(y_true, y_pred, sample_weight=w)` in O(labels) memory: per label the diagonal, row and
/// column sums of the weights, the weighted sums of |t − p| and (t − p)², and below [`DENSE_LABELS`] labels the
/// full matrix. Each entry is a running sum over the samples in file order (NumPy's `bincount` and SciPy's
/// `coo_matrix` sum them one after the other).
#[derive(Clone, Debug, PartialEq)]
pub struct WeightedConfusion {
    pub k: usize,
    pub tp: Vec<f64>,
    pub truth: Vec<f64>,
    pub pred: Vec<f64>,
    pub abs_diff: f64,
    pub sq_diff: f64,
    pub m: Option<Vec<f64>>,
}

impl WeightedConfusion {
    pub fn new(k: usize) -> Self {
        WeightedConfusion {
            k,
            tp: vec![0.0; k],
            truth: vec![0.0; k],
            pred: vec![0.0; k],
            abs_diff: 0.0,
            sq_diff: 0.0,
            m: (k <= DENSE_LABELS).then(|| vec![0.0; k * k]),
        }
    }
    /// Adds a sample of weight `w` with true label index `t` and predicted label index `p`.
    pub fn add(&mut self, t: usize, p: usize, w: f64) {
        self.truth[t] += w;
        self.pred[p] += w;
        if t == p {
            self.tp[t] += w;
        }
        let d = t.abs_diff(p) as f64;
        self.abs_diff += d * w;
        self.sq_diff += d * d * w;
        if let Some(m) = &mut self.m {
            m[t * self.k + p] += w;
        }
    }
}

impl Counts for WeightedConfusion {
    fn k(&self) -> usize {
        self.k
    }
    fn diag(&self, i: usize) -> f64 {
        self.tp[i]
    }
    fn row(&self, i: usize) -> f64 {
        self.truth[i]
    }
    fn col(&self, j: usize) -> f64 {
        self.pred[j]
    }
    fn trace_f64(&self) -> f64 {
        self.tp.iter().sum()
    }
    fn n(&self) -> f64 {
        self.truth.iter().sum()
    }
    fn dense(&self) -> Option<Vec<f64>> {
        self.m.clone()
    }
    fn matrix_sums(&self) -> Option<(Vec<f64>, Vec<f64>, f64)> {
        Some(matrix_sums(self.m.as_ref()?, self.k))
    }
    /// The closed forms of the integer counts' (`labels::kappa_sums`) in floats: above [`DENSE_LABELS`] labels
    /// only, within a few ulps of the matrix sums.
    fn kappa_sums(&self, w: KappaWeights) -> (f64, f64) {
        let (k, n) = (self.k, self.n());
        match w {
            KappaWeights::None => {
                let diag: f64 = (0..k).map(|i| self.pred[i] * self.truth[i]).sum();
                (n - self.trace_f64(), n * n - diag)
            }
            KappaWeights::Linear => {
                let mut den = 0.0;
                for i in 0..k {
                    let row: f64 = (0..k).map(|j| self.truth[j] * i.abs_diff(j) as f64).sum();
                    den += self.pred[i] * row;
                }
                (self.abs_diff, den)
            }
            KappaWeights::Quadratic => {
                let moments = |v: &[f64]| {
                    v.iter()
                        .enumerate()
                        .fold((0.0, 0.0, 0.0), |(a, b, d), (i, &x)| {
                            let i = i as f64;
                            (a + x, b + x * i, d + x * i * i)
                        })
                };
                let (a0, a1, a2) = moments(&self.pred);
                let (b0, b1, b2) = moments(&self.truth);
                (self.sq_diff, a2 * b0 - 2.0 * a1 * b1 + a0 * b2)
            }
        }
    }
}

/// `confusion_matrix_at_thresholds(y_true, y_score, sample_weight=w)` from (score, is_positive, weight)
/// samples: zero weights left out, the rest sorted by decreasing score (stable: equal scores keep their order),
/// `tps = cumsum(y·w)` and `fps = cumsum((1 − y)·w)` taken at the last index of each run of equal scores (−0.0
/// and 0.0 are equal). Scores are finite.
pub fn weighted_curve(samples: impl Iterator<Item = (f64, bool, f64)>) -> ThresholdCurve {
    let mut kept: Vec<(f64, bool, f64)> = samples
        .filter(|s| s.2 != 0.0)
        .map(|(v, y, w)| (v + 0.0, y, w))
        .collect();
    kept.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut out = ThresholdCurve {
        fps: Vec::new(),
        tps: Vec::new(),
        thresholds: Vec::new(),
    };
    let (mut tp, mut fp) = (0.0f64, 0.0f64);
    let n = kept.len();
    for i in 0..n {
        let (v, y, w) = kept[i];
        let y = y as u8 as f64;
        tp += y * w;
        fp += (1.0 - y) * w;
        if i + 1 == n || kept[i + 1].0 != v {
            out.tps.push(tp);
            out.fps.push(fp);
            out.thresholds.push(v);
        }
    }
    out
}

/// `np.average(x, weights=w)`: Σ xᵢwᵢ / Σ wᵢ, both NumPy pairwise sums; `None` when the weights sum to 0
/// (NumPy raises).
pub fn average(x: &[f64], w: &[f64]) -> Option<f64> {
    let scale = numpy_sum(w);
    if scale == 0.0 {
        return None;
    }
    let xw: Vec<f64> = x.iter().zip(w).map(|(x, w)| x * w).collect();
    Some(numpy_sum(&xw) / scale)
}

/// Per class, Σ of the weights of its samples (`np.sum(y_true_onehot * w[:, None], axis=0)`, the weights of
/// `roc_auc_score(average='weighted')`).
pub fn class_weights(truth: &[usize], w: &[f64], k: usize) -> Vec<f64> {
    let mut per = vec![Vec::new(); k];
    for (&t, &wi) in truth.iter().zip(w) {
        per[t].push(wi);
    }
    per.iter().map(|v| numpy_sum(v)).collect()
}

/// `log_loss(y_true, y_proba, sample_weight=w)`: the per-sample −ln p of [`super::scores::log_loss`] averaged
/// with the weights. `None` when a score is < 0 or > 1 (scikit-learn raises).
pub fn log_loss(truth: &[usize], scores: &[f64], k: usize, w: &[f64]) -> Option<f64> {
    if scores.iter().any(|&v| !(0.0..=1.0).contains(&v)) {
        return None;
    }
    let eps = f64::EPSILON;
    let losses: Vec<f64> = (truth.iter().enumerate())
        .map(|(i, &t)| -libm::log(scores[i * k + t].clamp(eps, 1.0 - eps)))
        .collect();
    average(&losses, w)
}

/// [`log_loss`] of one column, the positive class's probability p (the matrix [1 − p, p]).
pub fn log_loss_binary(positive: &[bool], p: &[f64], w: &[f64]) -> Option<f64> {
    if p.iter().any(|&v| !(0.0..=1.0).contains(&v)) {
        return None;
    }
    let eps = f64::EPSILON;
    let losses: Vec<f64> = (positive.iter().zip(p))
        .map(|(&y, &v)| -libm::log((if y { v } else { 1.0 - v }).clamp(eps, 1.0 - eps)))
        .collect();
    average(&losses, w)
}

/// `brier_score_loss(y_true, y_proba, sample_weight=w)` of a binary problem: the terms of
/// [`super::scores::brier_binary`] averaged with the weights, times 0.5.
pub fn brier_binary(positive: &[bool], p: &[f64], w: &[f64]) -> Option<f64> {
    if p.iter().any(|&v| !(0.0..=1.0).contains(&v)) {
        return None;
    }
    let terms: Vec<f64> = (positive.iter().zip(p))
        .map(|(&y, &v)| {
            let (t0, t1) = if y { (0.0, 1.0) } else { (1.0, 0.0) };
            let (a, b) = (t0 - (1.0 - v), t1 - v);
            a * a + b * b
        })
        .collect();
    average(&terms, w).map(|m| m * 0.5)
}

/// `brier_score_loss` of a multi-class problem with weights: per sample the NumPy sum over the classes of
/// (one-hot − score)², averaged with the weights (not halved for three classes or more).
pub fn brier_multiclass(truth: &[usize], scores: &[f64], k: usize, w: &[f64]) -> Option<f64> {
    if scores.iter().any(|&v| !(0.0..=1.0).contains(&v)) {
        return None;
    }
    let mut row = Vec::with_capacity(k);
    let terms: Vec<f64> = (truth.iter().enumerate())
        .map(|(i, &t)| {
            row.clear();
            row.extend((0..k).map(|c| {
                let d = (c == t) as u8 as f64 - scores[i * k + c];
                d * d
            }));
            numpy_sum(&row)
        })
        .collect();
    let half = if k < 3 { 0.5 } else { 1.0 };
    average(&terms, w).map(|m| m * half)
}

/// `top_k_accuracy_score(y_true, y_score, k=top, sample_weight=w)`: the hits of
/// [`super::scores::top_k_accuracy`] averaged with the weights.
pub fn top_k_accuracy(
    truth: &[usize],
    scores: &[f64],
    k: usize,
    top: usize,
    w: &[f64],
) -> Option<f64> {
    let hits: Vec<f64> = (truth.iter().enumerate())
        .map(|(i, &t)| {
            let row = &scores[i * k..(i + 1) * k];
            let st = row[t];
            let ahead = (row.iter().enumerate())
                .filter(|&(c, &v)| v > st || (v == st && c > t))
                .count();
            (ahead < top) as u8 as f64
        })
        .collect();
    average(&hits, w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::classification::curves::{roc_auc_of, threshold_curve};

    /// Weights of 1 give the unweighted curve.
    #[test]
    fn unit_weights_give_the_unweighted_curve() {
        let s = [0.9, 0.5, 0.5, 0.5, 0.3, -0.0, 0.0, 0.9];
        let y = [true, false, true, true, false, true, false, false];
        let mut pairs: Vec<(f64, bool)> = s.iter().copied().zip(y).collect();
        let want = threshold_curve(&mut pairs);
        let got = weighted_curve(s.iter().zip(y).map(|(&s, y)| (s, y, 1.0)));
        assert_eq!(got, want);
        // A sample of weight 0 is left out; weight 2 counts twice.
        let w =
            weighted_curve([(0.4, true, 2.0), (0.2, false, 0.0), (0.1, false, 1.0)].into_iter());
        assert_eq!(w.tps, vec![2.0, 2.0]);
        assert_eq!(w.fps, vec![0.0, 1.0]);
        assert_eq!(roc_auc_of(&w), Some(1.0));
    }

    /// One label in y_true, float weights: scikit-learn 1.9's
    /// `matthews_corrcoef(['a'] * 4, ['a', 'b', 'a', 'b'], sample_weight=[2.31, 1.47, 1.2, 0.71])` is 0.0, as
    /// its `n² − t·t` is exactly 0 with t the matrix's row sum; the per-label running sums gave a NaN.
    #[test]
    fn matthews_of_one_true_label_is_zero() {
        use crate::metrics::classification::labels::matthews;
        let mut c = WeightedConfusion::new(2);
        for (p, w) in [(0, 2.31), (1, 1.47), (0, 1.2), (1, 0.71)] {
            c.add(0, p, w);
        }
        assert_eq!(matthews(&c), 0.0);
    }
}
