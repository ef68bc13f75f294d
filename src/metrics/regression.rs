//! Regression metrics, exact to scikit-learn 1.9 (`sklearn/metrics/_regression.py`) and SciPy 1.17
//! (`scipy.stats.pearsonr`, `scipy.stats.spearmanr`), specs/families.md section 2. `t` is the target
//! (`y_true`), `p` the prediction (`y_pred`); both finite and of equal length. Means and sums are NumPy's
//! (pairwise, [`crate::metrics::mean`]). `None` where scikit-learn or SciPy raise or return NaN.

use crate::metrics::mean::{numpy_mean, numpy_sum};

fn map2(t: &[f64], p: &[f64], f: impl Fn(f64, f64) -> f64) -> Vec<f64> {
    t.iter().zip(p).map(|(&a, &b)| f(a, b)).collect()
}

/// `mean_absolute_error`: mean |p − t|.
pub fn mean_absolute_error(t: &[f64], p: &[f64]) -> Option<f64> {
    numpy_mean(&map2(t, p, |a, b| (b - a).abs()))
}

/// `mean_squared_error`: mean (t − p)².
pub fn mean_squared_error(t: &[f64], p: &[f64]) -> Option<f64> {
    numpy_mean(&map2(t, p, |a, b| (a - b) * (a - b)))
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
    let lt: Vec<f64> = t.iter().map(|&v| libm::log1p(v)).collect();
    let lp: Vec<f64> = p.iter().map(|&v| libm::log1p(v)).collect();
    mean_squared_error(&lt, &lp)
}

/// `root_mean_squared_log_error`: √ of [`mean_squared_log_error`].
pub fn root_mean_squared_log_error(t: &[f64], p: &[f64]) -> Option<f64> {
    mean_squared_log_error(t, p).map(f64::sqrt)
}

/// `mean_absolute_percentage_error`: mean |p − t| / max(|t|, ε), ε = `np.finfo(float64).eps` = 2⁻⁵².
pub fn mean_absolute_percentage_error(t: &[f64], p: &[f64]) -> Option<f64> {
    numpy_mean(&map2(t, p, |a, b| {
        (b - a).abs() / a.abs().max(f64::EPSILON)
    }))
}

/// `median_absolute_error`: `np.median` of |p − t| (the mean (a + b) / 2 of the two middle values for even n).
pub fn median_absolute_error(t: &[f64], p: &[f64]) -> Option<f64> {
    let mut e = map2(t, p, |a, b| (b - a).abs());
    let n = e.len();
    if n == 0 {
        return None;
    }
    e.sort_unstable_by(f64::total_cmp);
    Some(if n % 2 == 1 {
        e[n / 2]
    } else {
        (e[n / 2 - 1] + e[n / 2]) / 2.0
    })
}

/// `max_error`: max |t − p|.
pub fn max_error(t: &[f64], p: &[f64]) -> Option<f64> {
    let e = map2(t, p, |a, b| (a - b).abs());
    e.into_iter().reduce(f64::max)
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
    let num = numpy_sum(&map2(t, p, |a, b| (a - b) * (a - b)));
    let m = numpy_mean(t)?;
    let den = numpy_sum(&t.iter().map(|&a| (a - m) * (a - m)).collect::<Vec<_>>());
    Some(assemble(num, den))
}

/// `explained_variance_score`: d = t − p, num = mean (d − mean d)², den = mean (t − mean t)², assembled as
/// [`r2`] (`force_finite=True`). `None` for no samples.
pub fn explained_variance(t: &[f64], p: &[f64]) -> Option<f64> {
    let d = map2(t, p, |a, b| a - b);
    let md = numpy_mean(&d)?;
    let num = numpy_mean(&d.iter().map(|&x| (x - md) * (x - md)).collect::<Vec<_>>())?;
    let mt = numpy_mean(t)?;
    let den = numpy_mean(&t.iter().map(|&a| (a - mt) * (a - mt)).collect::<Vec<_>>())?;
    Some(assemble(num, den))
}

/// Σ a·b with a compensated (Ogita–Rump–Oishi Dot2) accumulation: close to the exact dot product, so that the
/// result does not depend on the order a BLAS `ddot` sums in.
fn dot2(a: &[f64], b: &[f64]) -> f64 {
    let (mut s, mut c) = (0.0f64, 0.0f64);
    for (&x, &y) in a.iter().zip(b) {
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
    let centred = |x: &[f64]| -> Option<Vec<f64>> {
        let m = numpy_mean(x)?;
        let xm: Vec<f64> = x.iter().map(|&v| v - m).collect();
        let mx = xm.iter().fold(0.0f64, |a, &v| a.max(v.abs()));
        let sq: Vec<f64> = xm.iter().map(|&v| (v / mx) * (v / mx)).collect();
        let norm = mx * numpy_sum(&sq).sqrt();
        Some(xm.into_iter().map(|v| v / norm).collect())
    };
    let (a, b) = (centred(t)?, centred(p)?);
    let r = dot2(&a, &b);
    r.is_finite().then(|| r.clamp(-1.0, 1.0))
}

/// `scipy.stats.rankdata(x, method='average')` times 2 (so that every rank is an integer): a run of equal
/// values at sorted positions s..=e gets (s + 1) + (e + 1).
fn doubled_ranks(x: &[f64]) -> Vec<i64> {
    let mut idx: Vec<usize> = (0..x.len()).collect();
    idx.sort_unstable_by(|&a, &b| x[a].total_cmp(&x[b]));
    let mut r = vec![0i64; x.len()];
    let mut s = 0;
    while s < idx.len() {
        let mut e = s;
        while e + 1 < idx.len() && x[idx[e + 1]] == x[idx[s]] {
            e += 1;
        }
        for &i in &idx[s..=e] {
            r[i] = (s + 1 + e + 1) as i64;
        }
        s = e + 1;
    }
    r
}

/// `scipy.stats.spearmanr(t, p).statistic`: `None` for n ≤ 1 or a constant input (NaN); else average ranks
/// and `np.corrcoef`: c = X·Xᵀ · (1/(n − 1)) of the centred ranks, r = (c_tp / √c_pp) / √c_tt, clipped to
/// [−1, 1]. The centred ranks are half-integers, so the sums are computed exactly (in i128) and rounded once.
pub fn spearman(t: &[f64], p: &[f64]) -> Option<f64> {
    let n = t.len();
    if n <= 1 || t.iter().all(|&v| v == t[0]) || p.iter().all(|&v| v == p[0]) {
        return None;
    }
    let (rt, rp) = (doubled_ranks(t), doubled_ranks(p));
    let c = (n + 1) as i64; // doubled mean rank
    let (mut stt, mut spp, mut stp) = (0i128, 0i128, 0i128);
    for (&a, &b) in rt.iter().zip(&rp) {
        let (a, b) = ((a - c) as i128, (b - c) as i128);
        stt += a * a;
        spp += b * b;
        stp += a * b;
    }
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
    let terms = map2(t, p, |a, f| {
        let d = a.abs() + f.abs();
        if d == 0.0 {
            0.0
        } else {
            2.0 * (f - a).abs() / d
        }
    });
    Some(100.0 / t.len() as f64 * numpy_sum(&terms))
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
