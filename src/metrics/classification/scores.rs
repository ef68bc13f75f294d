//! Score-based classification metrics as scikit-learn 1.9 computes them. Scores are an n×k row-major matrix
//! (`scores[i * k + c]`: sample i, class c in class order); `truth[i]` is the class index of sample i.

use super::curves::{average_precision, roc_auc};
use crate::metrics::mean::{numpy_mean, numpy_sum};

/// `numpy.argmax` of one row: the first maximum in class order.
pub fn argmax(row: &[f64]) -> usize {
    let mut best = 0;
    for (c, &v) in row.iter().enumerate() {
        if v > row[best] {
            best = c;
        }
    }
    best
}

/// `log_loss(y_true, y_proba)`: `None` when a score is < 0 or > 1 (scikit-learn ≥ 1.9 raises); else
/// p = clip(score of the true class, ε, 1 − ε) with ε = `np.finfo(float64).eps` = 2⁻⁵², and the NumPy mean of
/// −ln p. Rows are not renormalised (scikit-learn only warns). `ln` is `libm::log` (musl's), within 1 ulp of
/// the `log` NumPy calls.
pub fn log_loss(truth: &[usize], scores: &[f64], k: usize) -> Option<f64> {
    if scores.iter().any(|&v| !(0.0..=1.0).contains(&v)) {
        return None;
    }
    let eps = f64::EPSILON;
    let losses: Vec<f64> = truth
        .iter()
        .enumerate()
        .map(|(i, &t)| -libm::log(scores[i * k + t].clamp(eps, 1.0 - eps)))
        .collect();
    numpy_mean(&losses)
}

/// `log_loss` of a binary problem given one column, the positive class's probability p: the matrix
/// [1 − p, p] (computed as scikit-learn does, so 1 − p is rounded), then as [`log_loss`].
pub fn log_loss_binary(positive: &[bool], p: &[f64]) -> Option<f64> {
    if p.iter().any(|&v| !(0.0..=1.0).contains(&v)) {
        return None;
    }
    let mut losses = positive.iter().zip(p).map(|(&y, &v)| log_loss_term(y, v));
    crate::metrics::mean::numpy_mean_of(positive.len().min(p.len()), &mut losses)
}

/// One sample's term of [`log_loss_binary`]: −ln clip(p of its class, ε, 1 − ε), the negative class's p
/// being 1 − p.
#[inline]
pub fn log_loss_term(positive: bool, p: f64) -> f64 {
    let eps = f64::EPSILON;
    let q = if positive { p } else { 1.0 - p };
    -libm::log(q.clamp(eps, 1.0 - eps))
}

/// `brier_score_loss(y_true, y_proba, pos_label)` of a binary problem: with y ∈ {0, 1} the positive
/// indicator, per sample ((1 − y) − (1 − p))² + (y − p)² (the two-column form scikit-learn builds), NumPy mean,
/// times 0.5 (`scale_by_half='auto'`). `None` when a probability is < 0 or > 1 (scikit-learn raises).
pub fn brier_binary(positive: &[bool], p: &[f64]) -> Option<f64> {
    if p.iter().any(|&v| !(0.0..=1.0).contains(&v)) {
        return None;
    }
    let terms: Vec<f64> = positive
        .iter()
        .zip(p)
        .map(|(&y, &v)| {
            let (t0, t1) = if y { (0.0, 1.0) } else { (1.0, 0.0) };
            let a = t0 - (1.0 - v);
            let b = t1 - v;
            a * a + b * b
        })
        .collect();
    numpy_mean(&terms).map(|m| m * 0.5)
}

/// `brier_score_loss(y_true, y_proba)` of a multi-class problem (scikit-learn 1.9, `_classification.py`): per
/// sample the NumPy sum over the classes of (one-hot − score)², their NumPy mean; not halved for three classes
/// or more (`scale_by_half='auto'`), rows not renormalised (scikit-learn only warns). `None` when a score is < 0
/// or > 1 (scikit-learn raises).
pub fn brier_multiclass(truth: &[usize], scores: &[f64], k: usize) -> Option<f64> {
    if scores.iter().any(|&v| !(0.0..=1.0).contains(&v)) {
        return None;
    }
    let mut row = vec![0.0; k];
    let terms: Vec<f64> = truth
        .iter()
        .zip(scores.chunks_exact(k))
        .map(|(&t, r)| {
            for (c, (&v, out)) in r.iter().zip(&mut row).enumerate() {
                let d = if c == t { 1.0 } else { 0.0 } - v;
                *out = d * d;
            }
            numpy_sum(&row)
        })
        .collect();
    let half = if k < 3 { 0.5 } else { 1.0 };
    numpy_mean(&terms).map(|m| m * half)
}

/// `top_k_accuracy_score(y_true, y_score, k)` (multi-class): a hit when the true class is among the first k
/// of `np.argsort(row, kind='mergesort')[::-1]`, i.e. by decreasing score, equal scores by decreasing class
/// index. Hits / n.
pub fn top_k_accuracy(truth: &[usize], scores: &[f64], k: usize, top: usize) -> Option<f64> {
    if truth.is_empty() {
        return None;
    }
    let mut hits = 0u64;
    for (i, &t) in truth.iter().enumerate() {
        let row = &scores[i * k..(i + 1) * k];
        let st = row[t];
        // Classes ranked before t: higher score, or equal score and higher index.
        let ahead = row
            .iter()
            .enumerate()
            .filter(|&(c, &v)| v > st || (v == st && c > t))
            .count();
        if ahead < top {
            hits += 1;
        }
    }
    Some(hits as f64 / truth.len() as f64)
}

fn column_pairs(truth: &[usize], scores: &[f64], k: usize, c: usize) -> Vec<(f64, bool)> {
    truth
        .iter()
        .enumerate()
        .map(|(i, &t)| (scores[i * k + c], t == c))
        .collect()
}

/// Per class one-vs-rest: `roc_auc_score` of (truth == c, column c).
pub fn roc_auc_per_class(truth: &[usize], scores: &[f64], k: usize) -> Vec<Option<f64>> {
    (0..k)
        .map(|c| roc_auc(&mut column_pairs(truth, scores, k, c)))
        .collect()
}

/// Per class one-vs-rest: `average_precision_score` of (truth == c, column c).
pub fn average_precision_per_class(truth: &[usize], scores: &[f64], k: usize) -> Vec<Option<f64>> {
    (0..k)
        .map(|c| average_precision(&mut column_pairs(truth, scores, k, c)))
        .collect()
}

/// `_average_binary_score` with `average='macro'`: the NumPy mean of the per-class values; `None` if one is
/// undefined (NaN in scikit-learn).
pub fn macro_mean(per_class: &[Option<f64>]) -> Option<f64> {
    let xs: Option<Vec<f64>> = per_class.iter().copied().collect();
    numpy_mean(&xs?)
}

/// `_average_binary_score` with `average='weighted'`: weights = positives per class; a class with weight 0
/// scores 0; Σ(score·w) / Σw (pairwise sums).
pub fn weighted_mean(per_class: &[Option<f64>], weights: &[f64]) -> Option<f64> {
    let mut xw = Vec::with_capacity(per_class.len());
    for (s, &w) in per_class.iter().zip(weights) {
        let s = if w == 0.0 { 0.0 } else { (*s)? };
        xw.push(s * w);
    }
    let d = numpy_sum(weights);
    (d != 0.0).then(|| numpy_sum(&xw) / d)
}

/// [`roc_auc_ovo`] from the directed pair AUCs: `directed[a][b]` = AUC(truth == a, column a) over the samples
/// of class a or b. The pair means in `combinations` order, then their NumPy mean; `None` if one is undefined.
pub fn roc_auc_ovo_from(directed: &[Vec<Option<f64>>]) -> Option<f64> {
    let mut pair_scores = Vec::new();
    for (a, row) in directed.iter().enumerate() {
        for (b, other) in directed.iter().enumerate().skip(a + 1) {
            pair_scores.push((row[b]? + other[a]?) / 2.0);
        }
    }
    numpy_mean(&pair_scores)
}

/// `roc_auc_score(multi_class='ovo', average='macro')` (`_average_multiclass_ovo_score`): for each pair a < b of
/// classes, the samples of class a or b, AUC(truth == a, column a) and AUC(truth == b, column b), their mean
/// (sa + sb) / 2; then the NumPy mean over the pairs in `combinations` order.
pub fn roc_auc_ovo(truth: &[usize], scores: &[f64], k: usize) -> Option<f64> {
    let mut pair_scores = Vec::new();
    for a in 0..k {
        for b in a + 1..k {
            let mut pa = Vec::new();
            let mut pb = Vec::new();
            for (i, &t) in truth.iter().enumerate() {
                if t == a || t == b {
                    pa.push((scores[i * k + a], t == a));
                    pb.push((scores[i * k + b], t == b));
                }
            }
            let sa = roc_auc(&mut pa)?;
            let sb = roc_auc(&mut pb)?;
            pair_scores.push((sa + sb) / 2.0);
        }
    }
    numpy_mean(&pair_scores)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_k_ties_follow_reversed_mergesort() {
        // Row [0.5, 0.5, 0.0]: reversed stable argsort = [1, 0, 2]; top-1 is class 1, not class 0.
        let s = [0.5, 0.5, 0.0];
        assert_eq!(top_k_accuracy(&[0], &s, 3, 1), Some(0.0));
        assert_eq!(top_k_accuracy(&[1], &s, 3, 1), Some(1.0));
        assert_eq!(top_k_accuracy(&[0], &s, 3, 2), Some(1.0));
        assert_eq!(argmax(&s), 0);
    }

    #[test]
    fn log_loss_docstring() {
        // log_loss(["spam", "ham", "ham", "spam"], [[.1, .9], [.9, .1], [.8, .2], [.35, .65]]) = 0.21616...
        let s = [0.1, 0.9, 0.9, 0.1, 0.8, 0.2, 0.35, 0.65];
        let v = log_loss(&[1, 0, 0, 1], &s, 2).unwrap();
        assert!((v - 0.21616187468057912).abs() < 1e-15, "{v}");
    }
}
