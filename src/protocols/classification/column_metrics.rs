//! The column-wise metrics of `classification` with `target_columns` (docs/kaggle.md): per binary target column,
//! scikit-learn's `roc_auc_score`, `average_precision_score` and `log_loss`, unweighted or with the GT's weights.

use super::{columns, ID};
use crate::metrics::classification::binary_pass;

/// The column-wise metrics of a multi-label GT (`target_columns`): per binary column, scikit-learn's
/// `roc_auc_score`, `average_precision_score` and `log_loss` of the column's probabilities.
pub(super) const COLUMNS: columns::Family = columns::Family {
    id: ID,
    title: "Classification: the mean of per-column metrics (scikit-learn)",
    metrics: &["roc_auc", "average_precision", "log_loss"],
    binary: true,
    score: &binary_column,
    default_metric: ("accuracy", "mean_roc_auc"),
};

thread_local! {
    /// Each thread's buffers of [`binary_column`], kept from column to column.
    static BUFFERS: std::cell::RefCell<binary_pass::PassBuffers> =
        const { std::cell::RefCell::new(binary_pass::PassBuffers::EMPTY) };
}

/// One binary target column: ROC AUC, average precision and log loss (null where scikit-learn raises or
/// returns NaN: one class only, a probability outside [0, 1]).
fn binary_column(t: &[f64], p: &[f64]) -> Vec<Option<f64>> {
    let samples = p.iter().copied().zip(t.iter().map(|&v| v == 1.0));
    let n = t.len().min(p.len());
    BUFFERS.with_borrow_mut(|b| binary_pass::binary_metrics(samples, n, b).to_vec())
}

/// [`binary_column`] of a column read in place from the row-major tables (no copy of the column).
pub(super) fn binary_in_place(c: &columns::Column) -> Vec<Option<f64>> {
    let samples = c.pairs().map(|(t, p)| (p, t == 1.0));
    BUFFERS.with_borrow_mut(|b| binary_pass::binary_metrics(samples, c.rows, b).to_vec())
}

/// [`binary_column`] with sample weights (scikit-learn 1.9's `sample_weight` of `roc_auc_score`,
/// `average_precision_score` and `log_loss`): null where scikit-learn raises (one class only, every weight 0, a
/// probability outside [0, 1]) or returns NaN.
pub(super) fn weighted_binary_column(t: &[f64], p: &[f64], w: &[f64]) -> Vec<Option<f64>> {
    use crate::metrics::classification::{curves, weighted as mw};
    let y: Vec<bool> = t.iter().map(|&v| v == 1.0).collect();
    let two_classes = y.iter().any(|&b| b) && y.iter().any(|&b| !b);
    if !w.iter().any(|&x| x != 0.0) {
        return vec![None; 3];
    }
    let c = mw::weighted_curve((p.iter().zip(&y).zip(w)).map(|((&v, &y), &w)| (v, y, w)));
    vec![
        curves::roc_auc_of(&c).filter(|_| two_classes),
        curves::average_precision_of(&c),
        mw::log_loss_binary(&y, p, w).filter(|_| two_classes),
    ]
}
