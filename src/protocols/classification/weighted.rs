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

/// Replaces the report's scores (the ids it already names) by their weighted values, and the confusion
/// matrix's cells by summed weights; says so with the info `classification.weighted`.
pub fn apply(report: &mut Report, d: &Data, out: &Outcome, w: &[f64], diags: &mut Diags) {
    let mut s = Scores::new();
    if w.iter().any(|&x| x != 0.0) {
        if let Some(m) = labels(d, out, w, &mut s).and_then(|c| c.m) {
            let heatmap = report.plots.iter_mut().find(|p| p.id == "confusion_matrix");
            if let Some(p) = heatmap {
                p.values = m.iter().map(|&c| Some(c)).collect();
            }
        }
        if d.sub.layout != Layout::Labels {
            scores(d, out, w, &mut s);
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

/// The label metrics with weights (as [`super::compute::compute`] without them); returns the matrix when the
/// labels are scored.
fn labels(d: &Data, out: &Outcome, w: &[f64], s: &mut Scores) -> Option<WeightedConfusion> {
    let (gt, sub) = (d.gt, d.sub);
    let k = gt.classes.len();
    let pred = &out.pred;
    let labels_ok =
        sub.layout != Layout::BinaryScore && sub.mixed.is_none() && pred.iter().all(|&p| p != NONE);
    let mut conf = WeightedConfusion::new(out.union.len());
    if labels_ok {
        for ((&t, &p), &wi) in gt.labels.iter().zip(pred).zip(w) {
            conf.add(out.position[t as usize], out.position[p as usize], wi);
        }
    }
    let binary_positive = (d.positive)
        .filter(|_| k == 2 && sub.extra.is_empty())
        .map(|p| out.position[p]);
    label_metrics(&conf, labels_ok, k == 2, binary_positive, s);
    if gt.classes.single_binary() {
        single_class_binary(&conf, &out.union, labels_ok, s);
    }
    labels_ok.then_some(conf)
}

/// The score metrics with weights: two classes as [`binary`], more as [`multiclass`].
fn scores(d: &Data, out: &Outcome, w: &[f64], s: &mut Scores) {
    let k = d.gt.classes.len();
    let one_column = matches!(d.sub.layout, Layout::BinaryScore | Layout::LabelScores);
    let truth: Vec<usize> = d.gt.labels.iter().map(|&l| l as usize).collect();
    if !(k >= 2 || (d.gt.classes.single_binary() && one_column)) {
        return;
    }
    if d.gt.classes.binary() {
        binary(d, &truth, w, s);
    } else {
        multiclass(d, out, &truth, w, s);
    }
}

/// Two classes: ROC AUC, average precision, log loss and the Brier score of the positive class's scores.
fn binary(d: &Data, truth: &[usize], w: &[f64], s: &mut Scores) {
    let sub = d.sub;
    let p = d.positive.unwrap_or(1);
    let one_column = matches!(sub.layout, Layout::BinaryScore | Layout::LabelScores);
    let sp: Vec<f64> = match one_column {
        true => sub.scores.clone(),
        false => sub.scores.chunks_exact(2).map(|r| r[p]).collect(),
    };
    let y: Vec<bool> = truth.iter().map(|&t| t == p).collect();
    let c = mw::weighted_curve((sp.iter().zip(&y).zip(w)).map(|((&v, &y), &w)| (v, y, w)));
    s.set("roc_auc", roc_auc_of(&c));
    s.set("average_precision", average_precision_of(&c));
    let log_loss = match (d.gt.classes.len() == 1, one_column) {
        // One class in the ground truth: scikit-learn's log_loss raises.
        (true, _) => None,
        (false, true) => mw::log_loss_binary(&y, &sp, w),
        (false, false) => mw::log_loss(truth, &sub.scores, 2, w),
    };
    s.set("log_loss", log_loss);
    s.set("brier_score", mw::brier_binary(&y, &sp, w));
}

/// More classes: one-vs-rest ROC AUC (macro, and weighted by each class's summed weights) when every row
/// sums to 1, macro average precision, log loss, the Brier score and top-k accuracy; one-vs-one null.
fn multiclass(d: &Data, out: &Outcome, truth: &[usize], w: &[f64], s: &mut Scores) {
    let k = d.gt.classes.len();
    let scores = &d.sub.scores;
    let (mut auc, mut ap) = (Vec::with_capacity(k), Vec::with_capacity(k));
    for c in 0..k {
        let column =
            (scores.chunks_exact(k).zip(truth).zip(w)).map(|((r, &t), &w)| (r[c], t == c, w));
        let curve = mw::weighted_curve(column);
        auc.push(roc_auc_of(&curve));
        ap.push(average_precision_of(&curve));
    }
    let probabilities = out.not_probabilities.is_none();
    s.set("roc_auc_ovr", macro_mean(&auc).filter(|_| probabilities));
    let class_weights = mw::class_weights(truth, w, k);
    let ovr_weighted = weighted_mean(&auc, &class_weights);
    s.set(
        "roc_auc_ovr_weighted",
        ovr_weighted.filter(|_| probabilities),
    );
    s.set("roc_auc_ovo", None);
    s.set("average_precision", macro_mean(&ap));
    s.set("log_loss", mw::log_loss(truth, scores, k, w));
    s.set("brier_score", mw::brier_multiclass(truth, scores, k, w));
    s.set(
        "top_k_accuracy",
        mw::top_k_accuracy(truth, scores, k, d.top_k, w),
    );
}
