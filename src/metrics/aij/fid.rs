//! Fréchet Inception Distance from activations or statistics (docs/specs/aij2022.md 3.6; pytorch-fid
//! `calculate_frechet_distance`, as in ai-forever/fbc2_aij2022 `evaluation/generation/metrics/fid.py`):
//!
//! FID = ‖μ₁ − μ₂‖² + tr Σ₁ + tr Σ₂ − 2·tr √(Σ₁Σ₂), μ = column mean, Σ = sample covariance (N − 1).
//!
//! pytorch-fid takes `scipy.linalg.sqrtm` of the (non-symmetric) product. Its trace equals Σ √λᵢ over the
//! eigenvalues of any symmetric matrix similar to Σ₁Σ₂: Lᵀ Σ₂ L with Σ₁ = L Lᵀ (Cholesky), A Σ₂ A with
//! A = Σ₁^{1/2} (when Σ₁ is singular), or — from activations with few samples — K Kᵀ/((N₁−1)(N₂−1)) with
//! K = X̃₁ X̃₂ᵀ (the centred activations). Negative eigenvalues (rounding) are clamped to 0.
//! Small matrices (d ≤ 64) use plain binary64 loops (identical bits natively and in wasm); larger ones faer.

use faer::linalg::matmul::matmul;
use faer::linalg::matmul::triangular::{self as tri, BlockStructure};
use faer::{Accum, Mat, Par, Side};

/// μ and Σ of one side, plus N when computed from activations.
#[derive(Clone, Debug)]
pub struct Stats {
    pub mu: Vec<f64>,
    /// d×d, row-major.
    pub sigma: Vec<f64>,
    pub n: Option<usize>,
    /// Centred activations (row-major N×d), kept when N ≤ d for the small-sample route.
    pub centred: Option<Vec<f64>>,
}

impl Stats {
    pub fn dim(&self) -> usize {
        self.mu.len()
    }
}

/// Column means and the N−1 covariance of `rows` (N×d, row-major), as `np.mean(axis=0)` and
/// `np.cov(rowvar=False)`. `rows` yields blocks of whole rows converted to f64.
pub fn stats_from_rows(data: &[f64], n: usize, d: usize, progress: &mut dyn FnMut(f64)) -> Stats {
    let mut mu = vec![0.0; d];
    for r in 0..n {
        let row = &data[r * d..(r + 1) * d];
        for (m, x) in mu.iter_mut().zip(row) {
            *m += x;
        }
    }
    for m in &mut mu {
        *m /= n as f64;
    }
    let denom = n as f64 - 1.0;
    let mut sigma = vec![0.0; d * d];
    if d <= 64 {
        let mut c = vec![0.0; d];
        for r in 0..n {
            let row = &data[r * d..(r + 1) * d];
            for j in 0..d {
                c[j] = row[j] - mu[j];
            }
            for i in 0..d {
                for j in 0..d {
                    sigma[i * d + j] += c[i] * c[j];
                }
            }
        }
    } else {
        let mut acc = Mat::<f64>::zeros(d, d);
        let block = 512;
        let mut r0 = 0;
        while r0 < n {
            let b = block.min(n - r0);
            let x = Mat::<f64>::from_fn(b, d, |i, j| data[(r0 + i) * d + j] - mu[j]);
            // Σ is symmetric: only the lower triangle of X̃ᵀX̃ is formed (half the work of a full GEMM).
            tri::matmul(
                &mut acc,
                BlockStructure::TriangularLower,
                Accum::Add,
                x.transpose(),
                BlockStructure::Rectangular,
                &x,
                BlockStructure::Rectangular,
                1.0,
                Par::Seq,
            );
            r0 += b;
            progress(r0 as f64 / n as f64);
        }
        for i in 0..d {
            for j in 0..=i {
                sigma[i * d + j] = acc[(i, j)];
                sigma[j * d + i] = acc[(i, j)];
            }
        }
    }
    for s in &mut sigma {
        *s /= denom;
    }
    let centred = (n <= d).then(|| {
        let mut c = data[..n * d].to_vec();
        for r in 0..n {
            for j in 0..d {
                c[r * d + j] -= mu[j];
            }
        }
        c
    });
    Stats {
        mu,
        sigma,
        n: Some(n),
        centred,
    }
}

/// The FID value and its terms.
#[derive(Clone, Debug, PartialEq)]
pub struct Fid {
    pub fid: f64,
    pub mean_term: f64,
    pub trace1: f64,
    pub trace2: f64,
    pub tr_covmean: f64,
    /// Most negative eigenvalue relative to the largest magnitude (0 if none is negative).
    pub negative_ratio: f64,
    /// `cholesky`, `eigen` or `samples`.
    pub route: &'static str,
}

/// `calculate_frechet_distance(mu1, sigma1, mu2, sigma2)` with tr √(Σ₁Σ₂) from symmetric eigenvalues.
pub fn frechet(a: &Stats, b: &Stats, progress: &mut dyn FnMut(f64)) -> Fid {
    let d = a.dim();
    let mean_term: f64 =
        a.mu.iter()
            .zip(&b.mu)
            .map(|(x, y)| (x - y) * (x - y))
            .fold(0.0, |s, v| s + v);
    let trace = |s: &[f64]| (0..d).fold(0.0, |t, i| t + s[i * d + i]);
    let (trace1, trace2) = (trace(&a.sigma), trace(&b.sigma));
    let (eig, route) = match (&a.centred, &b.centred, a.n, b.n) {
        (Some(x1), Some(x2), Some(n1), Some(n2)) => (sample_route(x1, n1, x2, n2, d), "samples"),
        _ => match cholesky(&a.sigma, d) {
            Some(l) => {
                progress(0.3);
                let m = lt_s_l(&l, &b.sigma, d);
                progress(0.5);
                (sym_eigenvalues(&m, d), "cholesky")
            }
            None => {
                let s1h = sym_sqrt(&a.sigma, d);
                progress(0.5);
                let m = mul(&mul(&s1h, &b.sigma, d, d, d), &s1h, d, d, d);
                (sym_eigenvalues(&symmetrize(m, d), d), "eigen")
            }
        },
    };
    let big = eig.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let low = eig.iter().fold(0.0f64, |m, v| m.min(*v));
    let tr_covmean = eig.iter().fold(0.0, |t, v| t + v.max(0.0).sqrt());
    let fid = mean_term + trace1 + trace2 - 2.0 * tr_covmean;
    Fid {
        fid,
        mean_term,
        trace1,
        trace2,
        tr_covmean,
        negative_ratio: if big > 0.0 { -low / big } else { 0.0 },
        route,
    }
}

/// Eigenvalues of K Kᵀ / ((N₁−1)(N₂−1)) with K = X̃₁ X̃₂ᵀ, on the smaller side.
fn sample_route(x1: &[f64], n1: usize, x2: &[f64], n2: usize, d: usize) -> Vec<f64> {
    let scale = (n1 as f64 - 1.0) * (n2 as f64 - 1.0);
    // K[i][j] = <x1_i, x2_j>
    let mut k = vec![0.0; n1 * n2];
    for i in 0..n1 {
        for j in 0..n2 {
            k[i * n2 + j] = (0..d).fold(0.0, |s, t| s + x1[i * d + t] * x2[j * d + t]);
        }
    }
    let (rows, cols, kk) = if n1 <= n2 {
        (n1, n2, k)
    } else {
        (n2, n1, transpose(&k, n1, n2))
    };
    let mut g = vec![0.0; rows * rows];
    for i in 0..rows {
        for j in 0..rows {
            g[i * rows + j] =
                (0..cols).fold(0.0, |s, t| s + kk[i * cols + t] * kk[j * cols + t]) / scale;
        }
    }
    sym_eigenvalues(&g, rows)
}

fn transpose(a: &[f64], r: usize, c: usize) -> Vec<f64> {
    let mut t = vec![0.0; r * c];
    for i in 0..r {
        for j in 0..c {
            t[j * r + i] = a[i * c + j];
        }
    }
    t
}

fn symmetrize(mut m: Vec<f64>, d: usize) -> Vec<f64> {
    for i in 0..d {
        for j in 0..i {
            let v = 0.5 * (m[i * d + j] + m[j * d + i]);
            m[i * d + j] = v;
            m[j * d + i] = v;
        }
    }
    m
}

fn to_mat(a: &[f64], r: usize, c: usize) -> Mat<f64> {
    Mat::from_fn(r, c, |i, j| a[i * c + j])
}

fn from_mat(m: &Mat<f64>) -> Vec<f64> {
    let (r, c) = (m.nrows(), m.ncols());
    let mut v = vec![0.0; r * c];
    for i in 0..r {
        for j in 0..c {
            v[i * c + j] = m[(i, j)];
        }
    }
    v
}

/// A (r×k) · B (k×c), row-major.
fn mul(a: &[f64], b: &[f64], r: usize, k: usize, c: usize) -> Vec<f64> {
    if r.max(k).max(c) > 64 {
        let mut out = Mat::<f64>::zeros(r, c);
        matmul(
            &mut out,
            Accum::Replace,
            &to_mat(a, r, k),
            &to_mat(b, k, c),
            1.0,
            Par::Seq,
        );
        return from_mat(&out);
    }
    let mut out = vec![0.0; r * c];
    for i in 0..r {
        for j in 0..c {
            out[i * c + j] = (0..k).fold(0.0, |s, t| s + a[i * k + t] * b[t * c + j]);
        }
    }
    out
}

/// Lower Cholesky factor (row-major) of a symmetric matrix, `None` unless positive definite.
fn cholesky(s: &[f64], d: usize) -> Option<Vec<f64>> {
    if d > 64 {
        let l = to_mat(s, d, d).llt(Side::Lower).ok()?;
        let l = l.L().to_owned();
        return Some(from_mat(&l));
    }
    let mut l = vec![0.0; d * d];
    for i in 0..d {
        for j in 0..=i {
            let mut sum = s[i * d + j];
            for k in 0..j {
                sum -= l[i * d + k] * l[j * d + k];
            }
            if i == j {
                if sum <= 0.0 || !sum.is_finite() {
                    return None;
                }
                l[i * d + i] = sum.sqrt();
            } else {
                l[i * d + j] = sum / l[j * d + j];
            }
        }
    }
    Some(l)
}

/// Lᵀ S L, symmetrised.
fn lt_s_l(l: &[f64], s: &[f64], d: usize) -> Vec<f64> {
    if d > 64 {
        // S·L with L lower triangular, then only the lower triangle of Lᵀ·(S·L) (symmetric): about a third of
        // the work of two full GEMMs.
        let lm = to_mat(l, d, d);
        let mut sl = Mat::<f64>::zeros(d, d);
        tri::matmul(
            &mut sl,
            BlockStructure::Rectangular,
            Accum::Replace,
            &to_mat(s, d, d),
            BlockStructure::Rectangular,
            &lm,
            BlockStructure::TriangularLower,
            1.0,
            Par::Seq,
        );
        let mut m = Mat::<f64>::zeros(d, d);
        tri::matmul(
            &mut m,
            BlockStructure::TriangularLower,
            Accum::Replace,
            lm.transpose(),
            BlockStructure::TriangularUpper,
            &sl,
            BlockStructure::Rectangular,
            1.0,
            Par::Seq,
        );
        let mut out = vec![0.0; d * d];
        for i in 0..d {
            for j in 0..=i {
                out[i * d + j] = m[(i, j)];
                out[j * d + i] = m[(i, j)];
            }
        }
        return out;
    }
    let sl = mul(s, l, d, d, d);
    let lt = transpose(l, d, d);
    symmetrize(mul(&lt, &sl, d, d, d), d)
}

/// Σ^{1/2} = U diag(√max(λ, 0)) Uᵀ.
fn sym_sqrt(s: &[f64], d: usize) -> Vec<f64> {
    let (vals, vecs) = sym_eigen(s, d);
    let mut us = vecs.clone();
    for i in 0..d {
        for (j, v) in vals.iter().enumerate() {
            us[i * d + j] *= v.max(0.0).sqrt();
        }
    }
    mul(&us, &transpose(&vecs, d, d), d, d, d)
}

/// Eigenvalues of a symmetric matrix (row-major).
pub fn sym_eigenvalues(s: &[f64], d: usize) -> Vec<f64> {
    if d > 64 {
        return to_mat(s, d, d)
            .self_adjoint_eigenvalues(Side::Lower)
            .unwrap_or_else(|_| vec![f64::NAN; d]);
    }
    jacobi(s, d, false).0
}

/// Eigenvalues and eigenvectors (columns of the row-major d×d matrix).
fn sym_eigen(s: &[f64], d: usize) -> (Vec<f64>, Vec<f64>) {
    if d > 64 {
        return match to_mat(s, d, d).self_adjoint_eigen(Side::Lower) {
            Ok(e) => {
                let vals = (0..d).map(|i| e.S()[i]).collect();
                (vals, from_mat(&e.U().to_owned()))
            }
            Err(_) => (vec![f64::NAN; d], vec![0.0; d * d]),
        };
    }
    jacobi(s, d, true)
}

/// Cyclic Jacobi eigenvalue iteration (Golub & Van Loan 8.5), plain binary64.
fn jacobi(s: &[f64], d: usize, vectors: bool) -> (Vec<f64>, Vec<f64>) {
    let mut a = s.to_vec();
    let mut v = vec![0.0; if vectors { d * d } else { 0 }];
    if vectors {
        for i in 0..d {
            v[i * d + i] = 1.0;
        }
    }
    for _sweep in 0..100 {
        let off: f64 = (0..d)
            .flat_map(|i| (0..d).filter(move |&j| j != i).map(move |j| (i, j)))
            .fold(0.0, |t, (i, j)| t + a[i * d + j] * a[i * d + j]);
        let total: f64 = a.iter().fold(0.0, |t, x| t + x * x);
        if off == 0.0 || off <= 1e-34 * total {
            break;
        }
        for p in 0..d {
            for q in p + 1..d {
                let apq = a[p * d + q];
                if apq == 0.0 {
                    continue;
                }
                let theta = (a[q * d + q] - a[p * d + p]) / (2.0 * apq);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let t = if theta == 0.0 { 1.0 } else { t };
                let c = 1.0 / (t * t + 1.0).sqrt();
                let sn = t * c;
                for k in 0..d {
                    let (akp, akq) = (a[k * d + p], a[k * d + q]);
                    a[k * d + p] = c * akp - sn * akq;
                    a[k * d + q] = sn * akp + c * akq;
                }
                for k in 0..d {
                    let (apk, aqk) = (a[p * d + k], a[q * d + k]);
                    a[p * d + k] = c * apk - sn * aqk;
                    a[q * d + k] = sn * apk + c * aqk;
                }
                if vectors {
                    for k in 0..d {
                        let (vkp, vkq) = (v[k * d + p], v[k * d + q]);
                        v[k * d + p] = c * vkp - sn * vkq;
                        v[k * d + q] = sn * vkp + c * vkq;
                    }
                }
            }
        }
    }
    ((0..d).map(|i| a[i * d + i]).collect(), v)
}

/// FID of two fixed, well-conditioned d×d statistics (Cholesky route, symmetric eigenvalues). It does no scoring:
/// the wasm worker runs it once before its first FID input (d = 300) so that V8 compiles faer's long-running routines
/// (Cholesky, triangular products, tridiagonalisation) with its optimising tier; a function V8 enters once and
/// runs for seconds otherwise stays in baseline code (FID of two 2048-d `.npz` files: 6.7 s → 4.5 s in V8).
pub fn exercise(d: usize) -> f64 {
    let stats = |shift: f64| {
        let mut sigma = vec![0.0; d * d];
        for i in 0..d {
            for j in 0..d {
                let k = i.abs_diff(j) as f64;
                sigma[i * d + j] = (0.5 + shift).powf(k) / (1.0 + shift);
            }
        }
        Stats {
            mu: (0..d).map(|i| shift * i as f64 / d as f64).collect(),
            sigma,
            n: None,
            centred: None,
        }
    };
    frechet(&stats(0.0), &stats(0.1), &mut |_| {}).fid
}

/// S_gen = ½·(CLIP + (200 − min(200, FID))/200) (`evaluate_fid_clip.py`); nothing is clamped.
pub fn generation_score(fid: f64, clip: f64) -> f64 {
    0.5 * (clip + (200.0 - fid.min(200.0)) / 200.0)
}

/// S_cap = ½·(CLIP + METEOR) (`evaluate_ruclip_meteor.py`: `1/2*(ruclip_score + meteor)`).
pub fn captioning_score(meteor: f64, clip: f64) -> f64 {
    1.0 / 2.0 * (clip + meteor)
}

/// S = Σ open / 15 + Σ hidden / 10 (README_EN.md), left-to-right sums.
pub fn integral(open: &[f64; 6], hidden: &[f64; 6]) -> f64 {
    open.iter().fold(0.0, |s, v| s + v) / 15.0 + hidden.iter().fold(0.0, |s, v| s + v) / 10.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pseudo(n: usize, seed: u64) -> Vec<f64> {
        let mut x = seed;
        (0..n)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (x >> 11) as f64 / (1u64 << 53) as f64 - 0.5
            })
            .collect()
    }

    #[test]
    fn exercise_is_finite_and_positive() {
        for d in [8, 80] {
            let f = exercise(d);
            assert!(f.is_finite() && f > 0.0, "d = {d}: {f}");
        }
    }

    #[test]
    fn triangular_products_match_plain_loops() {
        // d > 64 takes faer's triangular products; compare with the plain definitions.
        let (n, d) = (150, 80);
        let x = pseudo(n * d, 1);
        let st = stats_from_rows(&x, n, d, &mut |_| {});
        for i in 0..d {
            for j in 0..d {
                let c: f64 = (0..n)
                    .map(|r| (x[r * d + i] - st.mu[i]) * (x[r * d + j] - st.mu[j]))
                    .sum::<f64>()
                    / (n as f64 - 1.0);
                assert!((st.sigma[i * d + j] - c).abs() <= 1e-14, "{i},{j}");
            }
        }
        let l = cholesky(&st.sigma, d).unwrap();
        let s2 = stats_from_rows(&pseudo(n * d, 2), n, d, &mut |_| {}).sigma;
        let got = lt_s_l(&l, &s2, d);
        for i in 0..d {
            for j in 0..d {
                let want: f64 = (0..d)
                    .map(|a| {
                        l[a * d + i] * (0..d).map(|b| s2[a * d + b] * l[b * d + j]).sum::<f64>()
                    })
                    .sum();
                assert!((got[i * d + j] - want).abs() <= 1e-13, "{i},{j}");
            }
        }
    }
}
