//! Single-competition metrics over probability columns, each as the competition's published metric code
//! computes it (summation orders included: NumPy's pairwise sums where NumPy sums a contiguous array, a plain
//! loop where Python or a strided NumPy reduction adds):
//!
//! - [`kl_row`]: the Kullback–Leibler divergence of HMS – Harmful Brain Activity Classification (2024), Kaggle's
//!   metric notebook "Kullback Leibler Divergence" (`kl_divergence`, `micro_average=True`, `epsilon=1e-15`).
//! - [`log_loss_row`]: the weighted multi-label log loss of RSNA Intracranial Hemorrhage Detection (2019).
//! - [`pfbeta`]: the probabilistic F-beta of RSNA Screening Mammography Breast Cancer Detection (2023).
//! - [`lrap_row`]: label-weighted label-ranking average precision (lwlrap) of Freesound Audio Tagging 2019.

use crate::metrics::mean::numpy_sum;

/// One row's KL divergence, as HMS's `kl_divergence` computes it column by column, then sums the row
/// (`solution.sum(axis=1)`, a strided reduction: left to right):
///
/// ```python
/// submission[col] = np.clip(submission[col], epsilon, 1 - epsilon)
/// y_nonzero_indices = solution[col] != 0
/// solution.loc[y_nonzero_indices, col] = solution.loc[y_nonzero_indices, col] * np.log(
///     solution.loc[y_nonzero_indices, col] / submission.loc[y_nonzero_indices, col])
/// solution.loc[~y_nonzero_indices, col] = 0
/// ...
/// return np.average(solution.sum(axis=1), weights=sample_weights)
/// ```
pub fn kl_row(truth: &[f64], pred: &[f64], epsilon: f64) -> f64 {
    let mut sum = 0.0;
    for (&y, &p) in truth.iter().zip(pred) {
        let p = clip(p, epsilon, 1.0 - epsilon);
        sum += if y != 0.0 { y * (y / p).ln() } else { 0.0 };
    }
    sum
}

/// `np.clip(x, lo, hi)`: `min(max(x, lo), hi)`.
fn clip(x: f64, lo: f64, hi: f64) -> f64 {
    x.max(lo).min(hi)
}

/// One row's weighted log loss, the RSNA Intracranial Hemorrhage Detection (2019) metric ("weighted multi-label
/// logarithmic loss", weight 2 for `any`, 1 for the five subtypes), as its widely used NumPy form computes it:
///
/// ```python
/// preds = np.clip(preds, epsilon, 1 - epsilon)
/// loss = trues * np.log(preds) + (1 - trues) * np.log(1 - preds)
/// loss_samples = np.average(loss, axis=1, weights=class_weights)
/// return - loss_samples.mean()
/// ```
///
/// This is `-loss_samples[i]` (the sum along a contiguous row: NumPy's pairwise sum); the score is the
/// rows' NumPy mean. `weights` sum to a positive number (the option's check).
pub fn log_loss_row(truth: &[f64], pred: &[f64], weights: &[f64], epsilon: f64) -> f64 {
    let terms: Vec<f64> = truth
        .iter()
        .zip(pred)
        .zip(weights)
        .map(|((&t, &p), &w)| {
            let p = clip(p, epsilon, 1.0 - epsilon);
            (t * p.ln() + (1.0 - t) * (1.0 - p).ln()) * w
        })
        .collect();
    -(numpy_sum(&terms) / numpy_sum(weights))
}

/// The probabilistic F-beta of RSNA Screening Mammography Breast Cancer Detection (2023), its published
/// `pfbeta` (a Python loop, predictions clipped to [0, 1], a label counting as positive when truthy); `None`
/// where Python raises `ZeroDivisionError` (no positive label, or nothing predicted):
///
/// ```python
/// for idx in range(len(labels)):
///     prediction = min(max(predictions[idx], 0), 1)
///     if (labels[idx]):
///         y_true_count += 1
///         ctp += prediction
///     else:
///         cfp += prediction
/// beta_squared = beta * beta
/// c_precision = ctp / (ctp + cfp)
/// c_recall = ctp / y_true_count
/// if (c_precision > 0 and c_recall > 0):
///     result = (1 + beta_squared) * (c_precision * c_recall) / (beta_squared * c_precision + c_recall)
///     return result
/// else:
///     return 0
/// ```
pub fn pfbeta(labels: &[f64], predictions: &[f64], beta: f64) -> Option<f64> {
    let (mut count, mut ctp, mut cfp) = (0u64, 0.0f64, 0.0f64);
    for (&l, &p) in labels.iter().zip(predictions) {
        let prediction = p.clamp(0.0, 1.0);
        if l != 0.0 {
            count += 1;
            ctp += prediction;
        } else {
            cfp += prediction;
        }
    }
    let beta_squared = beta * beta;
    if ctp + cfp == 0.0 || count == 0 {
        return None;
    }
    let c_precision = ctp / (ctp + cfp);
    let c_recall = ctp / count as f64;
    if c_precision > 0.0 && c_recall > 0.0 {
        Some(
            (1.0 + beta_squared) * (c_precision * c_recall)
                / (beta_squared * c_precision + c_recall),
        )
    } else {
        Some(0.0)
    }
}

/// One row's label-ranking average precision and its weight (its number of positive labels), as Freesound
/// Audio Tagging 2019's lwlrap notebook computes lwlrap with scikit-learn:
/// `label_ranking_average_precision_score(truth, scores, sample_weight=np.sum(truth > 0, axis=1))`. Ties
/// count as scikit-learn's `rankdata(…, "max")` ranks them:
///
/// ```python
/// relevant = y_true.indices[start:stop]
/// if relevant.size == 0 or relevant.size == n_labels:
///     aux = 1.0
/// else:
///     scores_i = y_score[i]          # y_score = -y_score
///     rank = rankdata(scores_i, "max")[relevant]
///     L = rankdata(scores_i[relevant], "max")
///     aux = (L / rank).mean()
/// ```
///
/// lwlrap is Σ aux·weight / Σ weight, the sum left to right ([`lwlrap`]).
pub fn lrap_row(truth: &[f64], scores: &[f64]) -> (f64, f64) {
    let relevant: Vec<usize> = (0..truth.len()).filter(|&j| truth[j] != 0.0).collect();
    let weight = relevant.len() as f64;
    if relevant.is_empty() || relevant.len() == truth.len() {
        return (1.0, weight);
    }
    let ratios: Vec<f64> = relevant
        .iter()
        .map(|&j| {
            let s = scores[j];
            let rank = scores.iter().filter(|&&x| x >= s).count();
            let l = relevant.iter().filter(|&&k| scores[k] >= s).count();
            l as f64 / rank as f64
        })
        .collect();
    (numpy_sum(&ratios) / ratios.len() as f64, weight)
}

/// lwlrap from the rows' ([`lrap_row`]) values and weights: `out += aux * sample_weight[i]` left to right,
/// then `out / np.sum(sample_weight)`; `None` with no positive label at all (0/0).
pub fn lwlrap(rows: &[(f64, f64)]) -> Option<f64> {
    let mut out = 0.0;
    for (aux, w) in rows {
        out += aux * w;
    }
    let total: f64 = numpy_sum(&rows.iter().map(|r| r.1).collect::<Vec<_>>());
    (total > 0.0).then(|| out / total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn as_the_published_code() {
        // HMS's docstring: score(solution ham [0,1,1,0] spam [1,0,0,1], submission ham [.1,.9,.8,.35] …) = 0.216161…
        let t = [[0.0, 1.0], [1.0, 0.0], [1.0, 0.0], [0.0, 1.0]];
        let p = [[0.1, 0.9], [0.9, 0.1], [0.8, 0.2], [0.35, 0.65]];
        let rows: Vec<f64> = t.iter().zip(&p).map(|(a, b)| kl_row(a, b, 1e-15)).collect();
        let mean = numpy_sum(&rows) / 4.0;
        assert!((mean - 0.216161).abs() < 1e-6, "{mean}");
        assert_eq!(pfbeta(&[1.0, 0.0], &[0.0, 0.0], 1.0), None);
        assert_eq!(pfbeta(&[0.0, 0.0], &[0.5, 0.0], 1.0), None);
        assert_eq!(pfbeta(&[1.0, 0.0], &[1.0, 0.0], 1.0), Some(1.0));
        // scikit-learn's LRAP doc example: [[1,0,0],[0,0,1]] vs [[0.75,0.5,1],[1,0.2,0.1]] = 0.416… (unweighted)
        let a = lrap_row(&[1.0, 0.0, 0.0], &[0.75, 0.5, 1.0]);
        let b = lrap_row(&[0.0, 0.0, 1.0], &[1.0, 0.2, 0.1]);
        assert_eq!((a.0 + b.0) / 2.0, 0.41666666666666663);
        assert_eq!(lwlrap(&[a, b]), Some(0.41666666666666663));
        assert_eq!(lwlrap(&[(1.0, 0.0)]), None);
    }
}
