//! The bootstrap's units of `classification` with a `weight_column` (docs/specs/statistics.md section 1): one
//! unit per GT row; a replicate is every metric of the weighted report with scikit-learn's `sample_weight` =
//! the row's weight × its draw count (what scikit-learn computes on the repeated file, each copy keeping its
//! row's weight, up to the order of the weights' sums: equal to the bit where those sums are exact). The
//! metrics are computed as the weighted report computes them (the weighted confusion matrix, the weighted
//! threshold curves, `np.average` of the per-row losses: src/metrics/classification/weighted.rs), on the rows
//! kept for the replicates ([`Rows`]). One-vs-one ROC AUC has no value with weights (scikit-learn raises), so
//! none on a replicate either.

use super::super::compute::{label_metrics, single_class_binary};
use super::Rows;
use crate::formats::classification_csv::{Layout, NONE};
use crate::metrics::classification::curves::{average_precision_of, roc_auc_of};
use crate::metrics::classification::scores::{macro_mean, weighted_mean};
use crate::metrics::classification::weighted::{self as mw, WeightedConfusion};
use crate::report::Scores;
use crate::stats::units::Replicate;
use std::any::Any;

/// The rows and their GT weights.
pub(super) struct WeightedUnits {
    pub metrics: Vec<String>,
    pub rows: Rows,
    /// Each GT row's weight.
    pub weights: Vec<f64>,
    /// Every multi-class score row sums to 1 (the one-vs-rest ROC AUC is defined).
    pub probabilities: bool,
}

impl WeightedUnits {
    /// Every weighted metric with `sample_weight` = `w` (the weighted report's rules: every weight 0 gives
    /// no value, as scikit-learn raises).
    fn scores(&self, w: &[f64]) -> Scores {
        let mut s = Scores::new();
        if w.iter().all(|&x| x == 0.0) {
            return s;
        }
        labels(&self.rows, w, &mut s);
        if self.rows.layout != Layout::Labels {
            score_metrics(&self.rows, self.probabilities, w, &mut s);
        }
        s
    }
}

/// The label metrics from the confusion matrix of summed weights.
fn labels(r: &Rows, w: &[f64], s: &mut Scores) {
    let labels_ok =
        r.layout != Layout::BinaryScore && !r.mixed_types && r.pred.iter().all(|&p| p != NONE);
    let mut conf = WeightedConfusion::new(r.union.len());
    if labels_ok {
        for ((&t, &p), &wi) in r.truth.iter().zip(&r.pred).zip(w) {
            conf.add(r.position[t as usize], r.position[p as usize], wi);
        }
    }
    let binary_positive = (r.positive)
        .filter(|_| r.k == 2 && r.no_extra)
        .map(|p| r.position[p]);
    label_metrics(&conf, labels_ok, r.k == 2, binary_positive, s);
    if r.single_binary {
        single_class_binary(&conf, &r.union, labels_ok, s);
    }
}

/// The score metrics: two classes as [`binary`], more as [`multiclass`].
fn score_metrics(r: &Rows, probabilities: bool, w: &[f64], s: &mut Scores) {
    let one_column = matches!(r.layout, Layout::BinaryScore | Layout::LabelScores);
    if !(r.k >= 2 || (r.single_binary && one_column)) {
        return;
    }
    let truth: Vec<usize> = r.truth.iter().map(|&l| l as usize).collect();
    if r.binary {
        binary(r, one_column, &truth, w, s);
    } else {
        multiclass(r, probabilities, &truth, w, s);
    }
}

/// Two classes: ROC AUC, average precision, log loss and the Brier score of the positive class's scores.
fn binary(r: &Rows, one_column: bool, truth: &[usize], w: &[f64], s: &mut Scores) {
    let p = r.positive.unwrap_or(1);
    let sp: Vec<f64> = match one_column {
        true => r.scores.clone(),
        false => r.scores.chunks_exact(2).map(|row| row[p]).collect(),
    };
    let y: Vec<bool> = truth.iter().map(|&t| t == p).collect();
    let c = mw::weighted_curve((sp.iter().zip(&y).zip(w)).map(|((&v, &y), &w)| (v, y, w)));
    s.set("roc_auc", roc_auc_of(&c));
    s.set("average_precision", average_precision_of(&c));
    let log_loss = match (r.k == 1, one_column) {
        (true, _) => None,
        (false, true) => mw::log_loss_binary(&y, &sp, w),
        (false, false) => mw::log_loss(truth, &r.scores, 2, w),
    };
    s.set("log_loss", log_loss);
    s.set("brier_score", mw::brier_binary(&y, &sp, w));
}

/// More classes: one-vs-rest ROC AUC (macro, and weighted by each class's summed weights) when every row
/// sums to 1, macro average precision, log loss, the Brier score and top-k accuracy.
fn multiclass(r: &Rows, probabilities: bool, truth: &[usize], w: &[f64], s: &mut Scores) {
    let k = r.k;
    let (mut auc, mut ap) = (Vec::with_capacity(k), Vec::with_capacity(k));
    for c in 0..k {
        let column =
            (r.scores.chunks_exact(k).zip(truth).zip(w)).map(|((row, &t), &w)| (row[c], t == c, w));
        let curve = mw::weighted_curve(column);
        auc.push(roc_auc_of(&curve));
        ap.push(average_precision_of(&curve));
    }
    s.set("roc_auc_ovr", macro_mean(&auc).filter(|_| probabilities));
    let class_weights = mw::class_weights(truth, w, k);
    let ovr_weighted = weighted_mean(&auc, &class_weights).filter(|_| probabilities);
    s.set("roc_auc_ovr_weighted", ovr_weighted);
    s.set("average_precision", macro_mean(&ap));
    s.set("log_loss", mw::log_loss(truth, &r.scores, k, w));
    s.set("brier_score", mw::brier_multiclass(truth, &r.scores, k, w));
    let top_k = mw::top_k_accuracy(truth, &r.scores, k, r.top_k, w);
    s.set("top_k_accuracy", top_k);
}

impl Replicate for WeightedUnits {
    fn metrics(&self) -> Vec<String> {
        self.metrics.clone()
    }

    /// `sample_weight` = each row's weight × its draw count.
    fn values(&self, w: &[u32]) -> Vec<Option<f64>> {
        let sw: Vec<f64> = (self.weights.iter().zip(w))
            .map(|(&g, &k)| g * k as f64)
            .collect();
        let s = self.scores(&sw);
        self.metrics.iter().map(|m| s.get(m)).collect()
    }

    fn lower_is_better(&self, metric: &str) -> bool {
        matches!(metric, "log_loss" | "brier_score")
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
