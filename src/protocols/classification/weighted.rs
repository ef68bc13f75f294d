//! Option `weight_column`: each GT row's weight is scikit-learn's `sample_weight` (scikit-learn 1.9) of every
//! metric that takes one. The label metrics come from a confusion matrix of summed weights, the ranking metrics
//! from weighted cumulative sums, the losses from `np.average(…, weights=w)`
//! ([`crate::metrics::classification::weighted`]). Where scikit-learn raises, the score is null: every weight 0
//! ("Sample weights must contain at least one non-zero number"), and `roc_auc_ovo` ("sample_weight is not
//! supported for multiclass one-vs-one ROC AUC").

use super::compute::{label_metrics, single_class_binary, Data, Outcome};
use super::ID;
use crate::diag::{Diagnostic, Diags};
use crate::formats::classification_csv::{Layout, NONE};
use crate::metrics::classification::curves::{average_precision_of, roc_auc_of};
use crate::metrics::classification::scores::{macro_mean, weighted_mean};
use crate::metrics::classification::weighted::{self as mw, WeightedConfusion};
use crate::report::{Report, Scores};

/// What the weighted metrics read: the report's rows (as [`Data`] and [`Outcome`] hold them, or as the bootstrap
/// keeps them).
pub(super) struct Inputs<'a> {
    pub truth: &'a [u32],
    /// Predicted label index per row (`NONE` for the binary score layout).
    pub pred: &'a [u32],
    /// The submission's scores: n × k, or n for one column.
    pub scores: &'a [f64],
    pub layout: Layout,
    pub k: usize,
    pub positive: Option<usize>,
    pub top_k: usize,
    pub position: &'a [usize],
    pub union: &'a [String],
    pub no_extra: bool,
    pub mixed_types: bool,
    pub single_binary: bool,
    pub binary: bool,
    /// Every multi-class score row sums to 1 (the one-vs-rest ROC AUC is defined).
    pub probabilities: bool,
}

impl<'a> Inputs<'a> {
    pub fn of(d: &'a Data, out: &'a Outcome) -> Self {
        Inputs {
            truth: &d.gt.labels,
            pred: &out.pred,
            scores: &d.sub.scores,
            layout: d.sub.layout,
            k: d.gt.classes.len(),
            positive: d.positive,
            top_k: d.top_k,
            position: &out.position,
            union: &out.union,
            no_extra: d.sub.extra.is_empty(),
            mixed_types: d.sub.mixed.is_some(),
            single_binary: d.gt.classes.single_binary(),
            binary: d.gt.classes.binary(),
            probabilities: out.not_probabilities.is_none(),
        }
    }
}

/// Replaces the report's scores (the ids it already names) by their weighted values, and the confusion
/// matrix's cells by summed weights; says so with the info `classification.weighted`.
pub fn apply(report: &mut Report, d: &Data, out: &Outcome, w: &[f64], diags: &mut Diags) {
    let mut s = Scores::new();
    if let Some(m) = weighted_scores(&Inputs::of(d, out), w, &mut s).and_then(|c| c.m) {
        let heatmap = report.plots.iter_mut().find(|p| p.id == "confusion_matrix");
        if let Some(p) = heatmap {
            p.values = m.iter().map(|&c| Some(c)).collect();
        }
    }
    let ids: Vec<String> = report.scores.iter().map(|(k, _)| k.to_string()).collect();
    for id in ids {
        report.scores.set(&id, s.get(&id));
    }
    let mut note = "weighted by the GT's weight column (scikit-learn's sample_weight)".to_string();
    if report.scores.contains("roc_auc_ovo") {
        note += "; roc_auc_ovo takes no sample_weight in scikit-learn (it raises): null";
    }
    if w.iter().all(|&x| x == 0.0) {
        note += "; every weight is 0 (scikit-learn raises): every score null";
    }
    diags.push(Diagnostic::info(&format!("{ID}.weighted"), note));
}

/// Every weighted metric with `sample_weight` = `w` into `s` (none when every weight is 0, as scikit-learn
/// raises); returns the confusion matrix of summed weights when the labels are scored.
pub(super) fn weighted_scores(x: &Inputs, w: &[f64], s: &mut Scores) -> Option<WeightedConfusion> {
    if w.iter().all(|&v| v == 0.0) {
        return None;
    }
    let conf = labels(x, w, s);
    if x.layout != Layout::Labels {
        scores(x, w, s);
    }
    conf
}

/// The label metrics with weights (as [`super::compute::compute`] without them); returns the matrix when the
/// labels are scored.
fn labels(x: &Inputs, w: &[f64], s: &mut Scores) -> Option<WeightedConfusion> {
    let labels_ok =
        x.layout != Layout::BinaryScore && !x.mixed_types && x.pred.iter().all(|&p| p != NONE);
    let mut conf = WeightedConfusion::new(x.union.len());
    if labels_ok {
        for ((&t, &p), &wi) in x.truth.iter().zip(x.pred).zip(w) {
            conf.add(x.position[t as usize], x.position[p as usize], wi);
        }
    }
    let binary_positive = (x.positive)
        .filter(|_| x.k == 2 && x.no_extra)
        .map(|p| x.position[p]);
    label_metrics(&conf, labels_ok, x.k == 2, binary_positive, s);
    if x.single_binary {
        single_class_binary(&conf, x.union, labels_ok, s);
    }
    labels_ok.then_some(conf)
}

/// The score metrics with weights: two classes as [`binary`], more as [`multiclass`].
fn scores(x: &Inputs, w: &[f64], s: &mut Scores) {
    let one_column = matches!(x.layout, Layout::BinaryScore | Layout::LabelScores);
    if !(x.k >= 2 || (x.single_binary && one_column)) {
        return;
    }
    let truth: Vec<usize> = x.truth.iter().map(|&l| l as usize).collect();
    if x.binary {
        binary(x, one_column, &truth, w, s);
    } else {
        multiclass(x, &truth, w, s);
    }
}

/// Two classes: ROC AUC, average precision, log loss and the Brier score of the positive class's scores.
fn binary(x: &Inputs, one_column: bool, truth: &[usize], w: &[f64], s: &mut Scores) {
    let p = x.positive.unwrap_or(1);
    let sp: Vec<f64> = match one_column {
        true => x.scores.to_vec(),
        false => x.scores.chunks_exact(2).map(|r| r[p]).collect(),
    };
    let y: Vec<bool> = truth.iter().map(|&t| t == p).collect();
    let c = mw::weighted_curve((sp.iter().zip(&y).zip(w)).map(|((&v, &y), &w)| (v, y, w)));
    s.set("roc_auc", roc_auc_of(&c));
    s.set("average_precision", average_precision_of(&c));
    let log_loss = match (x.k == 1, one_column) {
        // One class in the ground truth: scikit-learn's log_loss raises.
        (true, _) => None,
        (false, true) => mw::log_loss_binary(&y, &sp, w),
        (false, false) => mw::log_loss(truth, x.scores, 2, w),
    };
    s.set("log_loss", log_loss);
    s.set("brier_score", mw::brier_binary(&y, &sp, w));
}

/// More classes: one-vs-rest ROC AUC (macro, and weighted by each class's summed weights) when every row
/// sums to 1, macro average precision, log loss, the Brier score and top-k accuracy; one-vs-one null.
fn multiclass(x: &Inputs, truth: &[usize], w: &[f64], s: &mut Scores) {
    let (k, scores) = (x.k, x.scores);
    let (mut auc, mut ap) = (Vec::with_capacity(k), Vec::with_capacity(k));
    for c in 0..k {
        let column =
            (scores.chunks_exact(k).zip(truth).zip(w)).map(|((r, &t), &w)| (r[c], t == c, w));
        let curve = mw::weighted_curve(column);
        auc.push(roc_auc_of(&curve));
        ap.push(average_precision_of(&curve));
    }
    s.set("roc_auc_ovr", macro_mean(&auc).filter(|_| x.probabilities));
    let class_weights = mw::class_weights(truth, w, k);
    let ovr_weighted = weighted_mean(&auc, &class_weights);
    s.set(
        "roc_auc_ovr_weighted",
        ovr_weighted.filter(|_| x.probabilities),
    );
    s.set("roc_auc_ovo", None);
    s.set("average_precision", macro_mean(&ap));
    s.set("log_loss", mw::log_loss(truth, scores, k, w));
    s.set("brier_score", mw::brier_multiclass(truth, scores, k, w));
    s.set(
        "top_k_accuracy",
        mw::top_k_accuracy(truth, scores, k, x.top_k, w),
    );
}
