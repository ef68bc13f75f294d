//! The column-wise metrics of `classification` with `target_columns` (docs/kaggle.md): per binary target column,
//! scikit-learn's `roc_auc_score`, `average_precision_score` and `log_loss`, unweighted or with the GT's weights.

use super::{columns, ID};

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

/// The buffers of a column's metrics, kept from column to column on each thread (a column of a million rows
/// needs 16 MB to sort and up to 24 MB of curve: fresh pages for every column cost more than the sort).
struct ColumnBuffers {
    keys: crate::metrics::classification::groups::SplitKeys,
    y: Vec<bool>,
    curve: crate::metrics::classification::curves::ThresholdCurve,
}

/// One binary target column: ROC AUC, average precision and log loss (null where scikit-learn raises or
/// returns NaN: one class only, a probability outside [0, 1]).
fn binary_column(t: &[f64], p: &[f64]) -> Vec<Option<f64>> {
    use crate::metrics::classification::{curves, groups, scores};
    thread_local! {
        static BUFFERS: std::cell::RefCell<ColumnBuffers> = const {
            std::cell::RefCell::new(ColumnBuffers {
                keys: groups::SplitKeys::EMPTY,
                y: Vec::new(),
                curve: curves::ThresholdCurve {
                    fps: Vec::new(),
                    tps: Vec::new(),
                    thresholds: Vec::new(),
                },
            })
        };
    }
    BUFFERS.with_borrow_mut(|b| {
        b.y.clear();
        b.y.extend(t.iter().map(|&v| v == 1.0));
        let y = &b.y;
        let samples = p.iter().copied().zip(y.iter().copied());
        let cap = (p.len() / 4).min(1 << 18);
        groups::binary_curve_split_into(samples, cap, &mut b.keys, &mut b.curve);
        let two_classes = y.iter().any(|&b| b) && y.iter().any(|&b| !b);
        vec![
            curves::roc_auc_of(&b.curve),
            curves::average_precision_of(&b.curve),
            scores::log_loss_binary(y, p).filter(|_| two_classes),
        ]
    })
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
