//! String metrics of the `text` family (docs/specs/text.md section 2): jiwer 4.0's error rates, 1 − NED, the
//! Robust Reading Competition's ANLS, SQuAD's exact match and F1, Kaggle's word Jaccard. Pure functions of
//! reference and hypothesis strings; the edit distance and alignment are [`crate::metrics::edit`]'s, Python's
//! string semantics [`crate::pycompat`]'s.

pub mod jiwer;
pub mod similarity;
pub mod squad;

/// Python's `sum(xs) / len(xs)`: a left-to-right sum in binary64, then one division; `None` for no values.
pub fn py_mean(xs: impl IntoIterator<Item = f64>) -> Option<f64> {
    let (mut s, mut n) = (0.0, 0usize);
    for x in xs {
        s += x;
        n += 1;
    }
    (n > 0).then(|| s / n as f64)
}
