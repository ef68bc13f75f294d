//! The weighted ROC AUC of ALASKA2 Image Steganalysis (2020): the ROC curve's area split into true-positive-rate
//! ranges, each range weighted (`tpr_thresholds = [0.0, 0.4, 1.0]`, `weights = [2, 1]`), as the competition's
//! published metric (`alaska_weighted_auc`, the host's evaluation code shared on the competition's forum)
//! computes it with scikit-learn 1.9 and NumPy 2.4:
//!
//! ```python
//! fpr, tpr, thresholds = metrics.roc_curve(y_true, y_valid, pos_label=1)
//! areas = np.array(tpr_thresholds[1:]) - np.array(tpr_thresholds[:-1])
//! normalization = np.dot(areas, weights)
//! competition_metric = 0
//! for idx, weight in enumerate(weights):
//!     y_min = tpr_thresholds[idx]
//!     y_max = tpr_thresholds[idx + 1]
//!     mask = (y_min < tpr) & (tpr < y_max)
//!     x_padding = np.linspace(fpr[mask][-1], 1, 100)
//!     x = np.concatenate([fpr[mask], x_padding])
//!     y = np.concatenate([tpr[mask], [y_max] * len(x_padding)])
//!     y = y - y_min  # normalize such that curve starts at y=0
//!     score = metrics.auc(x, y)
//!     submetric = score * weight
//!     competition_metric += submetric
//! return competition_metric / normalization
//! ```

use crate::metrics::mean::numpy_sum;

/// scikit-learn's `roc_curve(y_true, y_score, pos_label=1)` (`drop_intermediate=True`): the false and true
/// positive rates, from (0, 0). `labels` are 0 or 1. `None` when one class is absent (scikit-learn's rates
/// are NaN there, and the metric's `fpr[mask][-1]` raises or gives NaN).
pub fn roc_curve(labels: &[bool], scores: &[f64]) -> Option<(Vec<f64>, Vec<f64>)> {
    let mut order: Vec<usize> = (0..scores.len()).collect();
    order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
    // `_binary_clf_curve`: the counts at the last row of each distinct score, in decreasing score order.
    let (mut fps, mut tps) = (Vec::new(), Vec::new());
    let (mut tp, mut fp) = (0u64, 0u64);
    for (k, &i) in order.iter().enumerate() {
        if labels[i] {
            tp += 1;
        } else {
            fp += 1;
        }
        let last = k + 1 == order.len() || scores[order[k + 1]] != scores[i];
        if last {
            fps.push(fp as f64);
            tps.push(tp as f64);
        }
    }
    // `drop_intermediate`: keep the ends and the points where either count's second difference is not 0.
    if fps.len() > 2 {
        let n = fps.len();
        let keep: Vec<usize> = (0..n)
            .filter(|&i| {
                i == 0
                    || i == n - 1
                    || fps[i + 1] - 2.0 * fps[i] + fps[i - 1] != 0.0
                    || tps[i + 1] - 2.0 * tps[i] + tps[i - 1] != 0.0
            })
            .collect();
        fps = keep.iter().map(|&i| fps[i]).collect();
        tps = keep.iter().map(|&i| tps[i]).collect();
    }
    fps.insert(0, 0.0);
    tps.insert(0, 0.0);
    let (fmax, tmax) = (*fps.last()?, *tps.last()?);
    if fmax <= 0.0 || tmax <= 0.0 {
        return None;
    }
    let fpr = fps.iter().map(|f| f / fmax).collect();
    let tpr = tps.iter().map(|t| t / tmax).collect();
    Some((fpr, tpr))
}

/// `np.linspace(start, stop, num)` (endpoint included, the last value `stop` exactly).
fn linspace(start: f64, stop: f64, num: usize) -> Vec<f64> {
    let div = (num - 1) as f64;
    let step = (stop - start) / div;
    let mut y: Vec<f64> = (0..num)
        .map(|i| {
            if step == 0.0 {
                i as f64 / div * (stop - start) + start
            } else {
                i as f64 * step + start
            }
        })
        .collect();
    if num > 1 {
        y[num - 1] = stop;
    }
    y
}

/// `metrics.auc(x, y)` for a non-decreasing `x`: NumPy's `trapezoid`, `add.reduce(d * (y[1:] + y[:-1]) / 2.0)`.
fn trapezoid(x: &[f64], y: &[f64]) -> f64 {
    let terms: Vec<f64> = (1..x.len())
        .map(|i| (x[i] - x[i - 1]) * (y[i] + y[i - 1]) / 2.0)
        .collect();
    numpy_sum(&terms)
}

/// The weighted AUC: `thresholds` (n + 1 increasing true-positive rates) and `weights` (n). `None` where the
/// published code raises or gives NaN: one class absent, or no point of the curve strictly inside a range
/// (`fpr[mask][-1]` of an empty mask).
pub fn weighted_auc(
    labels: &[bool],
    scores: &[f64],
    thresholds: &[f64],
    weights: &[f64],
) -> Option<f64> {
    let (fpr, tpr) = roc_curve(labels, scores)?;
    let mut normalization = 0.0;
    for (i, w) in weights.iter().enumerate() {
        normalization += (thresholds[i + 1] - thresholds[i]) * w;
    }
    let mut metric = 0.0;
    for (i, &weight) in weights.iter().enumerate() {
        let (y_min, y_max) = (thresholds[i], thresholds[i + 1]);
        let inside: Vec<usize> = (0..tpr.len())
            .filter(|&k| y_min < tpr[k] && tpr[k] < y_max)
            .collect();
        let last = fpr[*inside.last()?];
        let mut x: Vec<f64> = inside.iter().map(|&k| fpr[k]).collect();
        let mut y: Vec<f64> = inside.iter().map(|&k| tpr[k]).collect();
        x.extend(linspace(last, 1.0, 100));
        y.extend(std::iter::repeat_n(y_max, 100));
        let y: Vec<f64> = y.iter().map(|v| v - y_min).collect();
        metric += trapezoid(&x, &y) * weight;
    }
    Some(metric / normalization)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn curve_as_scikit_learn() {
        // roc_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]): fpr [0, 0, .5, .5, 1], tpr [0, .5, .5, 1, 1]
        let (f, t) = roc_curve(&[false, false, true, true], &[0.1, 0.4, 0.35, 0.8]).unwrap();
        assert_eq!(f, vec![0.0, 0.0, 0.5, 0.5, 1.0]);
        assert_eq!(t, vec![0.0, 0.5, 0.5, 1.0, 1.0]);
        assert_eq!(roc_curve(&[true, true], &[0.1, 0.2]), None);
        let l = linspace(0.25, 1.0, 100);
        assert_eq!((l[0], l[99], l.len()), (0.25, 1.0, 100));
    }
}
