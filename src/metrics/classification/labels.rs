//! Hard-label classification metrics from a confusion matrix, as scikit-learn 1.9 computes them
//! (`sklearn/metrics/_classification.py`). The matrix's labels are scikit-learn's `unique_labels(y_true,
//! y_pred)`: the sorted union of true and predicted labels, so a predicted label that is not a true class has a
//! row of zeros. Means over labels are NumPy's (pairwise sum, [`crate::metrics::mean`]).

use crate::metrics::mean::{numpy_mean, numpy_sum};

/// Per-label counts of a confusion matrix, row = true label, column = predicted label (`confusion_matrix`),
/// in O(labels) memory: the diagonal, the row and column sums and the sums over samples of |t − p| and
/// (t − p)² that the weighted kappas read. Every metric of this module reads only these, so 100,000 labels
/// need 100,000 entries, not 10¹⁰. Below [`DENSE_LABELS`] labels the full matrix is kept too (the plot and
/// Cohen's kappa summed as scikit-learn sums it).
#[derive(Clone, Debug, PartialEq)]
pub struct Confusion {
    pub k: usize,
    /// `C[i,i]`.
    pub tp: Vec<u64>,
    /// Row sums `Σ_j C[i,j]` (true samples of label i).
    pub truth: Vec<u64>,
    /// Column sums `Σ_i C[i,j]` (predictions of label j).
    pub pred: Vec<u64>,
    /// `Σ |t − p|` and `Σ (t − p)²` over the samples (label positions).
    pub abs_diff: u128,
    pub sq_diff: u128,
    /// The full k×k matrix (row-major), only when k ≤ [`DENSE_LABELS`].
    pub m: Option<Vec<u64>>,
}

/// Label counts up to which the full matrix is kept (8 MiB of counts at most).
pub const DENSE_LABELS: usize = 1024;

impl Confusion {
    pub fn new(k: usize) -> Self {
        Confusion {
            k,
            tp: vec![0; k],
            truth: vec![0; k],
            pred: vec![0; k],
            abs_diff: 0,
            sq_diff: 0,
            m: (k <= DENSE_LABELS).then(|| vec![0; k * k]),
        }
    }
    /// Counts one sample with true label index `t` and predicted label index `p`.
    pub fn add(&mut self, t: usize, p: usize) {
        self.add_n(t, p, 1);
    }
    /// Counts `n` samples with true label index `t` and predicted label index `p` (a sample of weight `n`,
    /// as scikit-learn's integer `sample_weight`).
    pub fn add_n(&mut self, t: usize, p: usize, n: u64) {
        self.truth[t] += n;
        self.pred[p] += n;
        if t == p {
            self.tp[t] += n;
        }
        let d = t.abs_diff(p) as u128;
        self.abs_diff += d * n as u128;
        self.sq_diff += d * d * n as u128;
        if let Some(m) = &mut self.m {
            m[t * self.k + p] += n;
        }
    }
    pub fn at_diag(&self, i: usize) -> u64 {
        self.tp[i]
    }
    pub fn row_sum(&self, i: usize) -> u64 {
        self.truth[i]
    }
    pub fn col_sum(&self, j: usize) -> u64 {
        self.pred[j]
    }
    pub fn trace(&self) -> u64 {
        self.tp.iter().sum()
    }
    pub fn total(&self) -> u64 {
        self.truth.iter().sum()
    }
}

/// What the metrics of this module read from a confusion matrix: integer counts ([`Confusion`]) or sums of
/// scikit-learn's float `sample_weight` ([`super::weighted::WeightedConfusion`]).
pub trait Counts {
    /// The number of labels.
    fn k(&self) -> usize;
    /// `C[i,i]`, the row sum and the column sum of label `i`.
    fn diag(&self, i: usize) -> f64;
    fn row(&self, i: usize) -> f64;
    fn col(&self, j: usize) -> f64;
    /// The trace and the sum of every entry.
    fn trace_f64(&self) -> f64;
    fn n(&self) -> f64;
    /// The full k×k matrix (row-major) as floats, when kept.
    fn dense(&self) -> Option<Vec<f64>>;
    /// Without the full matrix: Σ w·C and n·Σ w·expected of Cohen's kappa with weights `w`.
    fn kappa_sums(&self, w: KappaWeights) -> (f64, f64);
    /// Float counts with the full matrix: its row sums, column sums and trace as scikit-learn computes them from
    /// the matrix ([`matrix_sums`]); `None` where they equal `row`, `col` and `trace_f64` (integer counts).
    fn matrix_sums(&self) -> Option<(Vec<f64>, Vec<f64>, f64)> {
        None
    }
}

impl Counts for Confusion {
    fn k(&self) -> usize {
        self.k
    }
    fn diag(&self, i: usize) -> f64 {
        self.tp[i] as f64
    }
    fn row(&self, i: usize) -> f64 {
        self.truth[i] as f64
    }
    fn col(&self, j: usize) -> f64 {
        self.pred[j] as f64
    }
    fn trace_f64(&self) -> f64 {
        self.trace() as f64
    }
    fn n(&self) -> f64 {
        self.total() as f64
    }
    fn dense(&self) -> Option<Vec<f64>> {
        (self.m.as_ref()).map(|m| m.iter().map(|&c| c as f64).collect())
    }
    fn kappa_sums(&self, w: KappaWeights) -> (f64, f64) {
        let (num, den) = kappa_sums(self, w);
        (num as f64, den as f64)
    }
}

/// scikit-learn's `C.sum(axis=1)`, `C.sum(axis=0)` and `np.trace(C)` of the row-major k×k matrix `m`: each row's
/// sum pairwise (NumPy's contiguous reduction), each column's down the rows one after the other (NumPy's reduction
/// over the outer axis), the diagonal's pairwise. With float weights these differ in the last bits from the
/// per-label running sums, and `matthews_corrcoef`'s test `cov_ypyp·cov_ytyt == 0` needs scikit-learn's: with one
/// label in y_true, `n² − t·t` is exactly 0 only when t is the row sum of the matrix that n is the sum of.
pub fn matrix_sums(m: &[f64], k: usize) -> (Vec<f64>, Vec<f64>, f64) {
    let rows = m.chunks(k.max(1)).map(numpy_sum).collect();
    let mut cols = vec![0.0; k];
    for row in m.chunks(k.max(1)) {
        for (c, x) in cols.iter_mut().zip(row) {
            *c += x;
        }
    }
    let diag: Vec<f64> = (0..k).map(|i| m[i * k + i]).collect();
    (rows, cols, numpy_sum(&diag))
}

/// `accuracy_score`: correct / n. `None` for no samples.
pub fn accuracy(c: &impl Counts) -> Option<f64> {
    let n = c.n();
    (n > 0.0).then(|| c.trace_f64() / n)
}

/// `balanced_accuracy_score(adjusted=False)`: per label `C[i,i] / Σ_j C[i,j]`, labels with no true sample
/// (NaN, "y_pred contains classes not in y_true") dropped, then `np.mean` of the rest in label order.
pub fn balanced_accuracy(c: &impl Counts) -> Option<f64> {
    let per: Vec<f64> = (0..c.k())
        .filter_map(|i| {
            let r = c.row(i);
            (r > 0.0).then(|| c.diag(i) / r)
        })
        .collect();
    numpy_mean(&per)
}

/// The `average` argument of `precision_recall_fscore_support`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Average {
    /// `average='binary'` with `pos_label` at this label index.
    Binary(usize),
    Macro,
    Micro,
    Weighted,
}

/// Precision, recall and F1 (β = 1) as `precision_recall_fscore_support(average=…, zero_division=0)`:
/// per label tp = C[i,i], pred = column sum, true = row sum; precision = tp / pred, recall = tp / true,
/// F = 2·tp / (true + pred) (scikit-learn's form in confusion-matrix entries), 0 where a denominator is 0.
/// `micro` sums tp, pred and true first; `macro` is `np.mean` over the labels (sorted union of true and predicted
/// labels); `weighted` is `np.average(…, weights=true)` = Σ(x·w) / Σw, both sums pairwise.
pub fn precision_recall_f1(c: &impl Counts, avg: Average) -> (f64, f64, f64) {
    let div = |a: f64, b: f64| if b == 0.0 { 0.0 } else { a / b };
    let stats = |i: usize| (c.diag(i), c.col(i), c.row(i));
    let one = |(tp, pred, tru): (f64, f64, f64)| {
        (div(tp, pred), div(tp, tru), div(2.0 * tp, 1.0 * tru + pred))
    };
    match avg {
        Average::Binary(p) => one(stats(p)),
        Average::Micro => {
            let (mut tp, mut pred, mut tru) = (0.0, 0.0, 0.0);
            for i in 0..c.k() {
                let s = stats(i);
                tp += s.0;
                pred += s.1;
                tru += s.2;
            }
            one((tp, pred, tru))
        }
        Average::Macro | Average::Weighted => {
            let all: Vec<(f64, f64, f64)> = (0..c.k()).map(|i| one(stats(i))).collect();
            let pick = |f: &dyn Fn(&(f64, f64, f64)) -> f64| -> f64 {
                let xs: Vec<f64> = all.iter().map(f).collect();
                if avg == Average::Macro {
                    numpy_mean(&xs).unwrap_or(f64::NAN)
                } else {
                    let w: Vec<f64> = (0..c.k()).map(|i| c.row(i)).collect();
                    let xw: Vec<f64> = xs.iter().zip(&w).map(|(x, w)| x * w).collect();
                    numpy_sum(&xw) / numpy_sum(&w)
                }
            };
            (pick(&|t| t.0), pick(&|t| t.1), pick(&|t| t.2))
        }
    }
}

/// `matthews_corrcoef` (multi-class form): with t = row sums, p = column sums, c = trace, s = n,
/// cov_ytyp = c·s − t·p, cov_ypyp = s² − p·p, cov_ytyt = s² − t·t; 0 when cov_ypyp·cov_ytyt = 0, else
/// cov_ytyp / √(cov_ypyp·cov_ytyt). The dot products are of integer-valued floats, exact below 2⁵³.
pub fn matthews(c: &impl Counts) -> f64 {
    let (t, p, correct) = match c.matrix_sums() {
        Some(sums) => sums,
        None => (
            (0..c.k()).map(|i| c.row(i)).collect(),
            (0..c.k()).map(|j| c.col(j)).collect(),
            c.trace_f64(),
        ),
    };
    let s = numpy_sum(&p);
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).fold(0.0, |acc, (x, y)| acc + x * y);
    let cov_ytyp = correct * s - dot(&t, &p);
    let cov_ypyp = s * s - dot(&p, &p);
    let cov_ytyt = s * s - dot(&t, &t);
    let prod = cov_ypyp * cov_ytyt;
    if prod == 0.0 {
        0.0
    } else {
        cov_ytyp / prod.sqrt()
    }
}

/// Weights of `cohen_kappa_score`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KappaWeights {
    None,
    Linear,
    Quadratic,
}

/// `cohen_kappa_score(y_true, y_pred, weights=…)`: expected = outer(column sums, row sums) / n;
/// w = 1 − I, |i − j| or (i − j)²; κ = 1 − Σ(w·C) / Σ(w·expected). With the full matrix, both sums are NumPy's
/// pairwise sum over the flattened k×k matrix (scikit-learn's own arithmetic); without it ([`DENSE_LABELS`]),
/// the same sums in closed form from the per-label counts, in exact integers up to the one division by n
/// ([`kappa_sums`]): equal to scikit-learn's to a few ulps. `None` (scikit-learn's
/// `replace_undefined_by=np.nan`) when n = 0 or Σ(w·expected) = 0.
pub fn cohen_kappa(c: &impl Counts, w: KappaWeights) -> Option<f64> {
    let k = c.k();
    let sum0: Vec<f64> = (0..k).map(|j| c.col(j)).collect();
    let sum1: Vec<f64> = (0..k).map(|i| c.row(i)).collect();
    let n = numpy_sum(&sum0);
    if n == 0.0 {
        return None;
    }
    let Some(m) = c.dense() else {
        let (num, den) = c.kappa_sums(w);
        let d = den / n;
        return (d != 0.0).then(|| 1.0 - num / d);
    };
    let weight = |i: usize, j: usize| -> f64 {
        let d = i as f64 - j as f64;
        match w {
            KappaWeights::None => {
                if i == j {
                    0.0
                } else {
                    1.0
                }
            }
            KappaWeights::Linear => d.abs(),
            KappaWeights::Quadratic => d * d,
        }
    };
    let mut num = Vec::with_capacity(k * k);
    let mut den = Vec::with_capacity(k * k);
    for (i, s0) in sum0.iter().enumerate() {
        for (j, s1) in sum1.iter().enumerate() {
            let wij = weight(i, j);
            num.push(wij * m[i * k + j]);
            den.push(wij * (s0 * s1 / n));
        }
    }
    let d = numpy_sum(&den);
    if d == 0.0 {
        return None;
    }
    Some(1.0 - numpy_sum(&num) / d)
}

/// Σ w·C and n·Σ w·expected = Σ_ij w_ij·pred_i·truth_j in exact integers, in O(k): unweighted, n − trace and
/// n² − Σ pred_i·truth_i; linear, the sample sum of |t − p| and Σ_i pred_i·Σ_j truth_j·|i − j| by prefix sums;
/// quadratic, the sample sum of (t − p)² and A₂B₀ − 2A₁B₁ + A₀B₂ with A_r = Σ pred_i·iʳ, B_r = Σ truth_j·jʳ.
fn kappa_sums(c: &Confusion, w: KappaWeights) -> (u128, u128) {
    let k = c.k;
    let n = c.total() as u128;
    match w {
        KappaWeights::None => {
            let diag: u128 = (0..k).map(|i| c.pred[i] as u128 * c.truth[i] as u128).sum();
            (n - c.trace() as u128, n * n - diag)
        }
        KappaWeights::Linear => {
            // Σ_j truth_j·|i − j| = i·L_i − S_i + (Stot − S_i − t_i·i) − i·(n − L_i − t_i), with L_i, S_i the
            // count and Σ j·truth_j of labels j < i.
            let s_total: u128 = (0..k).map(|j| j as u128 * c.truth[j] as u128).sum();
            let (mut below, mut below_sum, mut den) = (0u128, 0u128, 0u128);
            for i in 0..k {
                let (t, ii) = (c.truth[i] as u128, i as u128);
                let left = ii * below - below_sum;
                let right = (s_total - below_sum - t * ii) - ii * (n - below - t);
                den += c.pred[i] as u128 * (left + right);
                below += t;
                below_sum += t * ii;
            }
            (c.abs_diff, den)
        }
        KappaWeights::Quadratic => {
            let moments = |v: &[u64]| {
                v.iter()
                    .enumerate()
                    .fold((0i128, 0i128, 0i128), |(a, b, d), (i, &x)| {
                        let (x, i) = (x as i128, i as i128);
                        (a + x, b + x * i, d + x * i * i)
                    })
            };
            let (a0, a1, a2) = moments(&c.pred);
            let (b0, b1, b2) = moments(&c.truth);
            (c.sq_diff, (a2 * b0 - 2 * a1 * b1 + a0 * b2) as u128)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conf(k: usize, pairs: &[(usize, usize)]) -> Confusion {
        let mut c = Confusion::new(k);
        for &(t, p) in pairs {
            c.add(t, p);
        }
        c
    }

    #[test]
    fn sklearn_docstring_values() {
        // y_true = [0, 1, 2, 0, 1, 2], y_pred = [0, 2, 1, 0, 0, 1] (precision_recall_fscore_support docstring):
        // macro (0.2222222222222222, 0.3333333333333333, 0.26666666666666666), micro 1/3, weighted (.2222, .3333, .2667).
        let c = conf(3, &[(0, 0), (1, 2), (2, 1), (0, 0), (1, 0), (2, 1)]);
        let (p, r, f) = precision_recall_f1(&c, Average::Macro);
        assert_eq!(
            (p, r, f),
            (0.2222222222222222, 0.3333333333333333, 0.26666666666666666)
        );
        let (p, r, f) = precision_recall_f1(&c, Average::Micro);
        assert_eq!(
            (p, r, f),
            (0.3333333333333333, 0.3333333333333333, 0.3333333333333333)
        );
        assert_eq!(accuracy(&c), Some(0.3333333333333333));
        // matthews_corrcoef([+1, +1, +1, -1], [+1, -1, +1, +1]) = -0.3333333333333333 (its docstring).
        let m = conf(2, &[(1, 1), (1, 0), (1, 1), (0, 1)]);
        assert_eq!(matthews(&m), -0.3333333333333333);
        // balanced_accuracy_score([0, 1, 0, 0, 1, 0], [0, 1, 0, 0, 0, 1]) = 0.625 (its docstring).
        let b = conf(2, &[(0, 0), (1, 1), (0, 0), (0, 0), (1, 0), (0, 1)]);
        assert_eq!(balanced_accuracy(&b), Some(0.625));
    }

    #[test]
    fn counts_alone_give_the_dense_kappas() {
        let mut x: u64 = 7;
        let mut pairs = Vec::new();
        for _ in 0..500 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let t = (x >> 33) as usize % 9;
            let p = if (x >> 20).is_multiple_of(3) {
                t
            } else {
                (x >> 40) as usize % 11
            };
            pairs.push((t, p));
        }
        let dense = conf(11, &pairs);
        let mut sparse = dense.clone();
        sparse.m = None;
        for w in [
            KappaWeights::None,
            KappaWeights::Linear,
            KappaWeights::Quadratic,
        ] {
            let (a, b) = (
                cohen_kappa(&dense, w).unwrap(),
                cohen_kappa(&sparse, w).unwrap(),
            );
            assert!((a - b).abs() <= 1e-14 * a.abs().max(1e-3), "{w:?}: {a} {b}");
        }
    }

    #[test]
    fn kappa_undefined_is_none() {
        let c = conf(1, &[(0, 0), (0, 0)]);
        assert_eq!(cohen_kappa(&c, KappaWeights::None), None);
        assert_eq!(matthews(&c), 0.0);
    }
}
