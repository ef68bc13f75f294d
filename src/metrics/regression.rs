//! Regression metrics, exact to scikit-learn 1.9 (`sklearn/metrics/_regression.py`) and SciPy 1.17
//! (`scipy.stats.pearsonr`, `scipy.stats.spearmanr`), docs/specs/families.md section 2. `t` is the target
//! (`y_true`), `p` the prediction (`y_pred`); both finite and of equal length. Means and sums are NumPy's
//! (pairwise, [`crate::metrics::mean`]). `None` where scikit-learn or SciPy raise or return NaN.

use crate::metrics::mean::{numpy_mean, numpy_mean_of, numpy_sum_of};
pub use crate::metrics::rank::doubled_ranks;

/// `numpy_sum` of `f(0)`, …, `f(n − 1)` without storing them ([`numpy_sum_of`]).
fn sum_by(n: usize, f: impl Fn(usize) -> f64) -> f64 {
    numpy_sum_of(n, &mut (0..n).map(f))
}

/// [`numpy_mean`] of `f(0)`, …, `f(n − 1)` without storing them ([`numpy_mean_of`]). `None` if n = 0.
fn mean_by(n: usize, f: impl Fn(usize) -> f64) -> Option<f64> {
    numpy_mean_of(n, &mut (0..n).map(f))
}

/// `mean_absolute_error`: mean |p − t|.
pub fn mean_absolute_error(t: &[f64], p: &[f64]) -> Option<f64> {
    mean_by(t.len().min(p.len()), |i| (p[i] - t[i]).abs())
}

/// `mean_squared_error`: mean (t − p)².
pub fn mean_squared_error(t: &[f64], p: &[f64]) -> Option<f64> {
    mean_by(t.len().min(p.len()), |i| (t[i] - p[i]) * (t[i] - p[i]))
}

/// `root_mean_squared_error`: √(mean (t − p)²).
pub fn root_mean_squared_error(t: &[f64], p: &[f64]) -> Option<f64> {
    mean_squared_error(t, p).map(f64::sqrt)
}

/// `mean_squared_log_error`: `None` (scikit-learn raises) when a target or prediction is ≤ −1; else
/// mean (log1p t − log1p p)². `log1p` is `libm::log1p` (musl's, the same on every target).
pub fn mean_squared_log_error(t: &[f64], p: &[f64]) -> Option<f64> {
    if t.iter().chain(p).any(|&v| v <= -1.0) {
        return None;
    }
    mean_by(t.len().min(p.len()), |i| {
        let d = libm::log1p(t[i]) - libm::log1p(p[i]);
        d * d
    })
}

/// `root_mean_squared_log_error`: √ of [`mean_squared_log_error`].
pub fn root_mean_squared_log_error(t: &[f64], p: &[f64]) -> Option<f64> {
    mean_squared_log_error(t, p).map(f64::sqrt)
}

/// `mean_absolute_percentage_error`: mean |p − t| / max(|t|, ε), ε = `np.finfo(float64).eps` = 2⁻⁵².
pub fn mean_absolute_percentage_error(t: &[f64], p: &[f64]) -> Option<f64> {
    mean_by(t.len().min(p.len()), |i| {
        (p[i] - t[i]).abs() / t[i].abs().max(f64::EPSILON)
    })
}

/// `median_absolute_error`: `np.median` of |p − t| (the mean (a + b) / 2 of the two middle values for even n).
/// The middle values are selected (`select_nth_unstable`), not sorted: the same values.
pub fn median_absolute_error(t: &[f64], p: &[f64]) -> Option<f64> {
    let mut e: Vec<f64> = t.iter().zip(p).map(|(&a, &b)| (b - a).abs()).collect();
    let n = e.len();
    if n == 0 {
        return None;
    }
    let (below, &mut mid, _) = e.select_nth_unstable_by(n / 2, f64::total_cmp);
    Some(if n % 2 == 1 {
        mid
    } else {
        // The greatest value below the middle one is the (n/2 − 1)-th in order.
        let lower = below.iter().copied().fold(f64::NEG_INFINITY, |a, b| {
            if b.total_cmp(&a).is_gt() {
                b
            } else {
                a
            }
        });
        (lower + mid) / 2.0
    })
}

/// `max_error`: max |t − p|.
pub fn max_error(t: &[f64], p: &[f64]) -> Option<f64> {
    t.iter()
        .zip(p)
        .map(|(&a, &b)| (a - b).abs())
        .reduce(f64::max)
}

/// `_assemble_fraction_of_explained_deviance(force_finite=True)`: 1 − num/den; 1.0 when num = 0 (even with
/// den = 0), 0.0 when num ≠ 0 and den = 0.
fn assemble(num: f64, den: f64) -> f64 {
    if num == 0.0 {
        1.0
    } else if den == 0.0 {
        0.0
    } else {
        1.0 - num / den
    }
}

/// `r2_score`: `None` for fewer than 2 samples (NaN with a warning); else num = Σ(t − p)², den = Σ(t − mean t)²
/// (pairwise sums), assembled with `force_finite=True` (a constant target scores 1.0 or 0.0).
pub fn r2(t: &[f64], p: &[f64]) -> Option<f64> {
    if t.len() < 2 {
        return None;
    }
    let n = t.len().min(p.len());
    let num = sum_by(n, |i| (t[i] - p[i]) * (t[i] - p[i]));
    let m = numpy_mean(t)?;
    let den = sum_by(t.len(), |i| (t[i] - m) * (t[i] - m));
    Some(assemble(num, den))
}

/// `explained_variance_score`: d = t − p, num = mean (d − mean d)², den = mean (t − mean t)², assembled as
/// [`r2`] (`force_finite=True`). `None` for no samples.
pub fn explained_variance(t: &[f64], p: &[f64]) -> Option<f64> {
    let n = t.len().min(p.len());
    let md = mean_by(n, |i| t[i] - p[i])?;
    let num = mean_by(n, |i| (t[i] - p[i] - md) * (t[i] - p[i] - md))?;
    let mt = numpy_mean(t)?;
    let den = mean_by(t.len(), |i| (t[i] - mt) * (t[i] - mt))?;
    Some(assemble(num, den))
}

/// Σ a·b with a compensated (Ogita–Rump–Oishi Dot2) accumulation: close to the exact dot product, so that the
/// result does not depend on the order a BLAS `ddot` sums in.
fn dot2(a: impl Iterator<Item = f64>, b: impl Iterator<Item = f64>) -> f64 {
    let (mut s, mut c) = (0.0f64, 0.0f64);
    for (x, y) in a.zip(b) {
        let h = x * y;
        let r = x.mul_add(y, -h);
        let t = s + h;
        let z = t - s;
        c += (s - (t - z)) + (h - z) + r;
        s = t;
    }
    s + c
}

/// `scipy.stats.pearsonr(t, p).statistic`: `None` for n < 2 (SciPy raises) or a constant input (NaN);
/// else xm = x − mean x, normxm = max|xm| · ‖xm / max|xm|‖₂ (pairwise sum of squares), the same for y, and
/// r = Σ (xm/normxm)·(ym/normym) clipped to [−1, 1]. NumPy's `vecdot` sums in BLAS order; here the dot is
/// compensated (close to exact), so the two agree to a few ulps.
pub fn pearson(t: &[f64], p: &[f64]) -> Option<f64> {
    if t.len() < 2 || t.iter().all(|&v| v == t[0]) || p.iter().all(|&v| v == p[0]) {
        return None;
    }
    // (mean, max |x − mean|, norm) of each input; the centred and scaled values are computed as they are read.
    let centred = |x: &[f64]| -> Option<(f64, f64)> {
        let m = numpy_mean(x)?;
        let mx = x.iter().fold(0.0f64, |a, &v| a.max((v - m).abs()));
        let norm = mx * sum_by(x.len(), |i| ((x[i] - m) / mx) * ((x[i] - m) / mx)).sqrt();
        Some((m, norm))
    };
    let ((mt, nt), (mp, np)) = (centred(t)?, centred(p)?);
    let r = dot2(
        t.iter().map(|&v| (v - mt) / nt),
        p.iter().map(|&v| (v - mp) / np),
    );
    r.is_finite().then(|| r.clamp(-1.0, 1.0))
}

/// `scipy.stats.spearmanr(t, p).statistic`: `None` for n ≤ 1 or a constant input (NaN); else average ranks
/// and `np.corrcoef`: c = X·Xᵀ · (1/(n − 1)) of the centred ranks, r = (c_tp / √c_pp) / √c_tt, clipped to
/// [−1, 1]. The centred ranks are half-integers, so the sums are computed exactly (in i128) and rounded once.
pub fn spearman(t: &[f64], p: &[f64]) -> Option<f64> {
    // The two rankings at once natively (each a radix sort of n keys).
    let (rt, rp) = crate::par::join(|| doubled_ranks(t), || doubled_ranks(p));
    spearman_of_ranks(t, p, &rt, &rp)
}

/// [`spearman`] given the [`doubled_ranks`] of `t` (`rt`) and of `p` (`rp`), computed apart.
pub fn spearman_of_ranks(t: &[f64], p: &[f64], rt: &[i64], rp: &[i64]) -> Option<f64> {
    let n = t.len();
    if n <= 1 || t.iter().all(|&v| v == t[0]) || p.iter().all(|&v| v == p[0]) {
        return None;
    }
    // (Reading the prediction's ranks off its sorted values instead of storing them is slower: random reads of
    // the target's ranks, 5M rows +80 ms.)
    let c = (n + 1) as i64; // doubled mean rank
    let (mut stt, mut spp, mut stp) = (0i128, 0i128, 0i128);
    for (&a, &b) in rt.iter().zip(rp) {
        let (a, b) = ((a - c) as i128, (b - c) as i128);
        stt += a * a;
        spp += b * b;
        stp += a * b;
    }
    spearman_of_sums(stt, spp, stp, n as u64)
}

/// Spearman's correlation from the exact sums of the centred doubled ranks over `n` values (Σ (a − c)²,
/// Σ (b − c)², Σ (a − c)(b − c)): `np.corrcoef`'s c = X·Xᵀ · (1/(n − 1)) of the centred ranks (a − c) / 2, then
/// r = (c_tp / √c_pp) / √c_tt, clipped to [−1, 1]; `None` when not finite.
pub fn spearman_of_sums(stt: i128, spp: i128, stp: i128, n: u64) -> Option<f64> {
    let f = 1.0 / (n - 1) as f64;
    let (ctt, cpp, ctp) = (
        stt as f64 / 4.0 * f,
        spp as f64 / 4.0 * f,
        stp as f64 / 4.0 * f,
    );
    let r = ctp / cpp.sqrt() / ctt.sqrt();
    r.is_finite().then(|| r.clamp(-1.0, 1.0))
}

/// Kaggle's SMAPE: 100/n · Σ 2·|F − A| / (|A| + |F|), a term with |A| + |F| = 0 counting 0; computed as
/// `100 / n * np.sum(terms)` with each term `2 * |F - A| / (|A| + |F|)`. `None` for no samples.
pub fn smape(t: &[f64], p: &[f64]) -> Option<f64> {
    if t.is_empty() {
        return None;
    }
    let sum = sum_by(t.len().min(p.len()), |i| {
        let (a, f) = (t[i], p[i]);
        let d = a.abs() + f.abs();
        if d == 0.0 {
            0.0
        } else {
            2.0 * (f - a).abs() / d
        }
    });
    Some(100.0 / t.len() as f64 * sum)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sklearn_docstring_values() {
        let t = [3.0, -0.5, 2.0, 7.0];
        let p = [2.5, 0.0, 2.0, 8.0];
        assert_eq!(mean_absolute_error(&t, &p), Some(0.5));
        assert_eq!(mean_squared_error(&t, &p), Some(0.375));
        assert_eq!(median_absolute_error(&t, &p), Some(0.5));
        assert_eq!(r2(&t, &p), Some(0.9486081370449679));
        assert_eq!(explained_variance(&t, &p), Some(0.9571734475374732));
        assert_eq!(
            max_error(&[3.0, 2.0, 7.0, 1.0], &[4.0, 2.0, 7.0, 1.0]),
            Some(1.0)
        );
        // Constant target: r2 is 1.0 for a perfect prediction, 0.0 otherwise (force_finite).
        assert_eq!(r2(&[1.0, 1.0], &[1.0, 1.0]), Some(1.0));
        assert_eq!(r2(&[1.0, 1.0], &[1.0, 2.0]), Some(0.0));
        assert_eq!(r2(&[1.0], &[1.0]), None);
        assert_eq!(spearman(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0]), Some(-1.0));
        assert_eq!(pearson(&[1.0, 1.0], &[1.0, 2.0]), None);
        assert_eq!(mean_squared_log_error(&[-1.0], &[0.0]), None);
    }
}
