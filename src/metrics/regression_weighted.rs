//! Regression metrics with scikit-learn's `sample_weight` (scikit-learn 1.9, `sklearn/metrics/_regression.py`):
//! each mean is `np.average(x, weights=w)` = Σ wᵢxᵢ / Σ wᵢ (NumPy's pairwise sums, [`numpy_sum`]), `None` where
//! scikit-learn raises (weights summing to 0: NumPy's "Weights sum to zero"). `t` is `y_true`, `p` `y_pred`, `w`
//! `sample_weight`, all finite and of equal length.

use crate::metrics::mean::numpy_sum;

/// `np.average(x(i), weights=w)`.
fn average(w: &[f64], x: impl Fn(usize) -> f64) -> Option<f64> {
    let scale = numpy_sum(w);
    if scale == 0.0 {
        return None;
    }
    let wx: Vec<f64> = (0..w.len()).map(|i| x(i) * w[i]).collect();
    Some(numpy_sum(&wx) / scale)
}

/// `mean_absolute_error(t, p, sample_weight=w)`: `np.average(np.abs(p - t), weights=w)`.
pub fn mean_absolute_error(t: &[f64], p: &[f64], w: &[f64]) -> Option<f64> {
    average(w, |i| (p[i] - t[i]).abs())
}

/// `mean_squared_error(t, p, sample_weight=w)`: `np.average((t - p) ** 2, weights=w)`.
pub fn mean_squared_error(t: &[f64], p: &[f64], w: &[f64]) -> Option<f64> {
    average(w, |i| (t[i] - p[i]) * (t[i] - p[i]))
}

/// `root_mean_squared_error(t, p, sample_weight=w)`: √ of [`mean_squared_error`].
pub fn root_mean_squared_error(t: &[f64], p: &[f64], w: &[f64]) -> Option<f64> {
    mean_squared_error(t, p, w).map(f64::sqrt)
}

/// `mean_squared_log_error(t, p, sample_weight=w)`: the weighted MSE of `log1p` (musl's `libm::log1p`, as the
/// unweighted one); `None` when a value is ≤ −1 (scikit-learn raises).
pub fn mean_squared_log_error(t: &[f64], p: &[f64], w: &[f64]) -> Option<f64> {
    if t.iter().chain(p).any(|&v| v <= -1.0) {
        return None;
    }
    average(w, |i| {
        let d = libm::log1p(t[i]) - libm::log1p(p[i]);
        d * d
    })
}

/// `root_mean_squared_log_error(t, p, sample_weight=w)`: √ of [`mean_squared_log_error`].
pub fn root_mean_squared_log_error(t: &[f64], p: &[f64], w: &[f64]) -> Option<f64> {
    mean_squared_log_error(t, p, w).map(f64::sqrt)
}

/// `mean_absolute_percentage_error(t, p, sample_weight=w)`: `np.average(|p - t| / max(|t|, eps), weights=w)`.
pub fn mean_absolute_percentage_error(t: &[f64], p: &[f64], w: &[f64]) -> Option<f64> {
    average(w, |i| (p[i] - t[i]).abs() / t[i].abs().max(f64::EPSILON))
}

/// `r2_score(t, p, sample_weight=w)`: 1 − Σ w(t − p)² / Σ w(t − t̄_w)², t̄_w = `np.average(t, weights=w)`;
/// `force_finite`: 1 when both sums are 0, 0 when only the denominator is; `None` (NaN: "not well-defined with
/// less than two samples") for one row.
pub fn r2(t: &[f64], p: &[f64], w: &[f64]) -> Option<f64> {
    if t.len() < 2 {
        return None;
    }
    let mean = average(w, |i| t[i])?;
    let num: Vec<f64> = (0..t.len()).map(|i| w[i] * (t[i] - p[i]).powi(2)).collect();
    let den: Vec<f64> = (0..t.len()).map(|i| w[i] * (t[i] - mean).powi(2)).collect();
    finite_ratio(numpy_sum(&num), numpy_sum(&den))
}

/// `explained_variance_score(t, p, sample_weight=w)`: 1 − var_w(t − p) / var_w(t), each variance the weighted
/// average of squared deviations from the weighted average; `force_finite` as [`r2`].
pub fn explained_variance(t: &[f64], p: &[f64], w: &[f64]) -> Option<f64> {
    let diff_avg = average(w, |i| t[i] - p[i])?;
    let num = average(w, |i| (t[i] - p[i] - diff_avg).powi(2))?;
    let true_avg = average(w, |i| t[i])?;
    let den = average(w, |i| (t[i] - true_avg).powi(2))?;
    finite_ratio(num, den)
}

/// scikit-learn's `_assemble_r2_explained_variance` with `force_finite=True`: 1 − num/den, 1.0 when both are 0,
/// 0.0 when only den is.
fn finite_ratio(num: f64, den: f64) -> Option<f64> {
    Some(match (num == 0.0, den == 0.0) {
        (_, false) => 1.0 - num / den,
        (true, true) => 1.0,
        (false, true) => 0.0,
    })
}

/// The weighted value of regression metric `id` (`None` for the metrics scikit-learn and SciPy take no weights
/// for here: median absolute error, max error, Pearson, Spearman, SMAPE).
pub fn by_id(id: &str, t: &[f64], p: &[f64], w: &[f64]) -> Option<f64> {
    match id {
        "mean_absolute_error" => mean_absolute_error(t, p, w),
        "mean_squared_error" => mean_squared_error(t, p, w),
        "root_mean_squared_error" => root_mean_squared_error(t, p, w),
        "mean_squared_log_error" => mean_squared_log_error(t, p, w),
        "root_mean_squared_log_error" => root_mean_squared_log_error(t, p, w),
        "mean_absolute_percentage_error" => mean_absolute_percentage_error(t, p, w),
        "r2" => r2(t, p, w),
        "explained_variance" => explained_variance(t, p, w),
        _ => None,
    }
}

/// The regression metrics [`by_id`] weights.
pub const WEIGHTED: &[&str] = &[
    "mean_absolute_error",
    "mean_squared_error",
    "root_mean_squared_error",
    "mean_squared_log_error",
    "root_mean_squared_log_error",
    "mean_absolute_percentage_error",
    "r2",
    "explained_variance",
];

#[cfg(test)]
mod tests {
    use super::*;

    /// Unit weights give the unweighted values; values from scikit-learn 1.9.1.
    #[test]
    fn as_scikit_learn() {
        let (t, p, w) = (
            [3.0, -0.5, 2.0, 7.0],
            [2.5, 0.0, 2.0, 8.0],
            [1.0, 2.0, 0.5, 3.0],
        );
        // mean_absolute_error([3, -0.5, 2, 7], [2.5, 0, 2, 8], sample_weight=[1, 2, 0.5, 3]) = 4.5 / 6.5
        assert_eq!(mean_absolute_error(&t, &p, &w), Some(4.5 / 6.5));
        assert_eq!(mean_absolute_error(&t, &p, &[0.0; 4]), None);
        let ones = [1.0; 4];
        let unweighted = crate::metrics::regression::r2(&t, &p).unwrap();
        assert!((r2(&t, &p, &ones).unwrap() - unweighted).abs() < 1e-15);
    }
}
