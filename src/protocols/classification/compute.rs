//! From the GT and the submission to the headline metrics, per-item rows and plots (docs/specs/families.md
//! sections 1 and 5).

use super::inputs::{plot, thin};
use crate::formats::classification_csv::{Classes, Gt, Layout, Submission, NONE};
use crate::metrics::classification::curves::{
    average_precision_of, precision_recall_curve, roc_auc_of, roc_curve, ThresholdCurve,
};
use crate::metrics::classification::groups::{binary_curve, group, sorted_curves};
use crate::metrics::classification::labels::{
    accuracy, balanced_accuracy, cohen_kappa, matthews, precision_recall_f1, Average, Confusion,
    Counts, KappaWeights,
};
use crate::metrics::classification::scores::{
    argmax, brier_binary, brier_multiclass, log_loss, log_loss_binary, macro_mean,
    roc_auc_ovo_from, top_k_accuracy, weighted_mean,
};
use crate::metrics::mean::numpy_sum;
use crate::metrics::radix::{self, desc_key};
use crate::report::{Plot, Scores, Series};

/// Distinct scores a column of `n` may have for its curves to come from counts per score (`groups`) rather
/// than a sort: a quarter of the samples (a column of mostly distinct scores gives up early), at most 2¹⁸ (the
/// counts stay in cache).
fn group_cap(n: usize) -> usize {
    (n / 4).min(1 << 18)
}

/// Every metric id in the spec's order.
pub const METRICS: &[&str] = &[
    "accuracy",
    "balanced_accuracy",
    "f1",
    "precision",
    "recall",
    "f1_macro",
    "f1_micro",
    "f1_weighted",
    "precision_macro",
    "precision_micro",
    "precision_weighted",
    "recall_macro",
    "recall_micro",
    "recall_weighted",
    "matthews_corrcoef",
    "cohen_kappa",
    "cohen_kappa_linear",
    "cohen_kappa_quadratic",
    "roc_auc",
    "roc_auc_ovr",
    "roc_auc_ovr_weighted",
    "roc_auc_ovo",
    "average_precision",
    "log_loss",
    "brier_score",
    "top_k_accuracy",
];

/// Whether metric `id` applies to an input with `k` GT classes and score columns (`scores`).
pub fn applies(id: &str, k: usize, scores: bool) -> bool {
    match id {
        "f1" | "precision" | "recall" => k == 2,
        "roc_auc" => scores && k == 2,
        "roc_auc_ovr" | "roc_auc_ovr_weighted" | "roc_auc_ovo" | "top_k_accuracy" => {
            scores && k >= 3
        }
        "average_precision" | "log_loss" | "brier_score" => scores && k >= 2,
        _ => true,
    }
}

/// Whether metric `id` is computed from scores (scikit-learn's `needs_proba` / `needs_threshold` scorers).
pub fn needs_scores(id: &str) -> bool {
    matches!(
        id,
        "roc_auc"
            | "roc_auc_ovr"
            | "roc_auc_ovr_weighted"
            | "roc_auc_ovo"
            | "average_precision"
            | "log_loss"
            | "brier_score"
            | "top_k_accuracy"
    )
}

/// The inputs of the metrics, missing rows already filled (`missing = worst`) or absent (blocked).
pub struct Data<'a> {
    pub gt: &'a Gt,
    pub sub: &'a Submission,
    /// The positive class for f1/precision/recall (`positive_label`, or 1 for {0, 1}).
    pub positive: Option<usize>,
    pub top_k: usize,
}

pub struct Outcome {
    pub scores: Scores,
    /// Predicted label index per row (labels: as read; scores: argmax), `NONE` for binary score.
    pub pred: Vec<u32>,
    /// Union label names in sorted order and each label index's position in it.
    pub union: Vec<String>,
    pub position: Vec<usize>,
    pub plots: Vec<Plot>,
    /// Multi-class scores whose rows do not sum to 1 as `np.allclose` tests it: the first such GT row and its
    /// sum (scikit-learn's multi-class `roc_auc_score` raises).
    pub not_probabilities: Option<(usize, f64)>,
}

/// The sorted union of GT classes and extra predicted labels (`unique_labels(y_true, y_pred)`): names in order
/// and, for each label index (GT classes first, then `extra`), its position.
pub fn union_order(classes: &Classes, extra: &[String]) -> (Vec<String>, Vec<usize>) {
    let k = classes.len();
    let mut all: Vec<usize> = (0..k + extra.len()).collect();
    let name = |i: usize| {
        if i < k {
            classes.names[i].as_str()
        } else {
            extra[i - k].as_str()
        }
    };
    match &classes.ints {
        Some(v) => {
            let val = |i: usize| {
                if i < k {
                    v[i]
                } else {
                    extra[i - k].parse::<i64>().unwrap_or(i64::MAX)
                }
            };
            all.sort_by_key(|&i| val(i));
        }
        None => all.sort_by(|&a, &b| name(a).cmp(name(b))),
    }
    let mut position = vec![0; all.len()];
    for (p, &i) in all.iter().enumerate() {
        position[i] = p;
    }
    (all.iter().map(|&i| name(i).to_string()).collect(), position)
}

pub fn compute(d: &Data) -> Outcome {
    let gt = d.gt;
    let sub = d.sub;
    let k = gt.classes.len();
    let n = gt.labels.len();
    let truth: Vec<usize> = gt.labels.iter().map(|&l| l as usize).collect();
    let has_scores = sub.layout != Layout::Labels;
    let mut s = Scores::new();
    // Hard labels.
    let pred: Vec<u32> = match sub.layout {
        Layout::Labels | Layout::LabelScores => sub.pred.clone(),
        Layout::Scores => sub
            .scores
            .chunks_exact(k.max(1))
            .map(|r| argmax(r) as u32)
            .collect(),
        Layout::BinaryScore => vec![NONE; n],
    };
    let (union, position) = union_order(&gt.classes, &sub.extra);
    let labels_ok =
        sub.layout != Layout::BinaryScore && sub.mixed.is_none() && pred.iter().all(|&p| p != NONE);
    let mut conf = Confusion::new(union.len());
    if labels_ok {
        for (&t, &p) in truth.iter().zip(&pred) {
            conf.add(position[t], position[p as usize]);
        }
    }
    let binary_positive = d
        .positive
        .filter(|_| k == 2 && sub.extra.is_empty())
        .map(|p| position[p]);
    label_metrics(&conf, labels_ok, k == 2, binary_positive, &mut s);
    if gt.classes.single_binary() {
        single_class_binary(&conf, &union, labels_ok, &mut s);
    }
    let mut plots = Vec::new();
    // The heatmap needs the full matrix, kept up to `DENSE_LABELS` labels (a million cells).
    if let Some(m) = conf.m.as_ref().filter(|_| labels_ok) {
        let mut p = plot(
            "confusion_matrix",
            "heatmap",
            "Confusion matrix (rows: truth, columns: prediction)",
            "predicted",
            "true",
        );
        p.labels = union.clone();
        p.values = m.iter().map(|&c| Some(c as f64)).collect();
        plots.push(p);
    }
    let mut not_probabilities = None;
    let one_column = matches!(sub.layout, Layout::BinaryScore | Layout::LabelScores);
    if has_scores && (k >= 2 || (gt.classes.single_binary() && one_column)) {
        not_probabilities = score_metrics(d, &truth, &mut s, &mut plots);
    }
    Outcome {
        scores: s,
        pred,
        union,
        position,
        plots,
        not_probabilities,
    }
}

/// The metrics of the hard labels (null unless `labels_ok`): accuracy, balanced accuracy, with two classes F1,
/// precision and recall of `binary_positive` (its position in the confusion matrix), their macro, micro and
/// weighted averages, MCC and Cohen's kappa (unweighted, linear, quadratic).
pub(crate) fn label_metrics(
    conf: &impl Counts,
    labels_ok: bool,
    two_classes: bool,
    binary_positive: Option<usize>,
    s: &mut Scores,
) {
    let lab = |v: Option<f64>| if labels_ok { v } else { None };
    s.set("accuracy", lab(accuracy(conf)));
    s.set("balanced_accuracy", lab(balanced_accuracy(conf)));
    if two_classes {
        let binary = binary_positive.map(|p| precision_recall_f1(conf, Average::Binary(p)));
        s.set("f1", lab(binary.map(|x| x.2)));
        s.set("precision", lab(binary.map(|x| x.0)));
        s.set("recall", lab(binary.map(|x| x.1)));
    }
    let avgs = [Average::Macro, Average::Micro, Average::Weighted];
    let prf: Vec<(f64, f64, f64)> = avgs.iter().map(|&a| precision_recall_f1(conf, a)).collect();
    for (j, name) in ["f1", "precision", "recall"].iter().enumerate() {
        for (a, suffix) in ["macro", "micro", "weighted"].iter().enumerate() {
            let t = prf[a];
            let v = [t.2, t.0, t.1][j];
            s.set(&format!("{name}_{suffix}"), lab(Some(v)));
        }
    }
    s.set("matthews_corrcoef", lab(Some(matthews(conf))));
    s.set("cohen_kappa", lab(cohen_kappa(conf, KappaWeights::None)));
    s.set(
        "cohen_kappa_linear",
        lab(cohen_kappa(conf, KappaWeights::Linear)),
    );
    s.set(
        "cohen_kappa_quadratic",
        lab(cohen_kappa(conf, KappaWeights::Quadratic)),
    );
}

/// `f1_score`, `precision_score`, `recall_score` (average='binary', pos_label=1) when the ground truth holds one
/// class, 0 or 1: scikit-learn still scores the binary problem. The labels of `y_true ∪ y_pred` (`union`, the
/// confusion matrix's order): with 1 among them, its binary scores (0/0 is 0.0, scikit-learn's `zero_division`
/// default after its warning); without it, one label gives 0.0 for the three, two labels raise ("pos_label=1
/// is not a valid label"), more raise (multiclass): null.
pub(crate) fn single_class_binary(
    conf: &impl Counts,
    union: &[String],
    labels_ok: bool,
    s: &mut Scores,
) {
    let v = match union.iter().position(|l| l == "1") {
        _ if !labels_ok || union.len() > 2 => None,
        Some(p) => Some(precision_recall_f1(conf, Average::Binary(p))),
        None if union.len() == 1 => Some((0.0, 0.0, 0.0)),
        None => None,
    };
    s.set("f1", v.map(|x| x.2));
    s.set("precision", v.map(|x| x.0));
    s.set("recall", v.map(|x| x.1));
}

/// The positive class of score metrics in a binary problem: `positive_label`, 1 for {0, 1}, else the greater
/// class (scikit-learn's `roc_auc_score` convention).
fn score_positive(d: &Data) -> usize {
    d.positive.unwrap_or(1)
}

/// The score metrics and their plots; for more than two classes, the first row that is not a probability row
/// (see [`Outcome::not_probabilities`]).
fn score_metrics(
    d: &Data,
    truth: &[usize],
    s: &mut Scores,
    plots: &mut Vec<Plot>,
) -> Option<(usize, f64)> {
    let mut roc = plot(
        "roc",
        "lines",
        "ROC curves",
        "false positive rate",
        "true positive rate",
    );
    let mut pr = plot(
        "pr",
        "lines",
        "Precision–recall curves",
        "recall",
        "precision",
    );
    let mut not_probabilities = None;
    if d.gt.classes.binary() {
        binary_scores(d, truth, s, &mut roc, &mut pr);
    } else {
        not_probabilities = multiclass_scores(d, truth, s, &mut roc, &mut pr);
    }
    plots.push(roc);
    plots.push(pr);
    not_probabilities
}

/// Two classes: the positive class's scores (its column, or the one binary score) give ROC AUC, average
/// precision, log loss and the Brier score, and one curve of each plot.
fn binary_scores(d: &Data, truth: &[usize], s: &mut Scores, roc: &mut Plot, pr: &mut Plot) {
    let sub = d.sub;
    let p = score_positive(d);
    let one_column = matches!(sub.layout, Layout::BinaryScore | Layout::LabelScores);
    let sp: Vec<f64> = if one_column {
        sub.scores.clone()
    } else {
        sub.scores.chunks_exact(2).map(|r| r[p]).collect()
    };
    let y: Vec<bool> = truth.iter().map(|&t| t == p).collect();
    let samples = sp.iter().copied().zip(y.iter().copied());
    let c = binary_curve(
        samples,
        group_cap(sp.len()),
        &mut Vec::new(),
        &mut Vec::new(),
    );
    s.set("roc_auc", roc_auc_of(&c));
    s.set("average_precision", average_precision_of(&c));
    let single = d.gt.classes.len() == 1;
    s.set(
        "log_loss",
        // One class in the ground truth: scikit-learn's log_loss raises (y_true contains only one label).
        if single {
            None
        } else if one_column {
            log_loss_binary(&y, &sp)
        } else {
            log_loss(truth, &sub.scores, 2)
        },
    );
    s.set("brier_score", brier_binary(&y, &sp));
    let name = d.gt.classes.names.get(p).map_or("1", String::as_str);
    let (r, c) = curve_series(&format!("positive class {name}"), &c, &c);
    roc.series.push(r);
    pr.series.push(c);
}

/// More classes: one-vs-rest ROC AUC (macro and weighted) and one-vs-one ROC AUC of the raw rows when every row
/// sums to 1 (else `None`, and the first other row is returned), macro average precision, log loss, the Brier
/// score and top-k accuracy, and one curve per class in each plot.
fn multiclass_scores(
    d: &Data,
    truth: &[usize],
    s: &mut Scores,
    roc: &mut Plot,
    pr: &mut Plot,
) -> Option<(usize, f64)> {
    let sub = d.sub;
    let k = d.gt.classes.len();
    let scores = &sub.scores;
    let not_probabilities = scores
        .chunks_exact(k)
        .map(numpy_sum)
        .enumerate()
        .find(|&(_, sum)| !sums_to_one(sum));
    let mut class_counts = vec![0u64; k];
    for &t in truth {
        class_counts[t] += 1;
    }
    let counts: Vec<f64> = class_counts.iter().map(|&c| c as f64).collect();
    let columns = Columns {
        scores,
        truth,
        names: &d.gt.classes.names,
        k,
        probabilities: not_probabilities.is_none(),
    };
    let mut auc = Vec::with_capacity(k);
    let mut ap = Vec::with_capacity(k);
    let mut directed = Vec::with_capacity(k);
    for r in every_class(&columns) {
        auc.push(r.auc);
        ap.push(r.ap);
        directed.push(r.directed);
        roc.series.push(r.roc);
        pr.series.push(r.pr);
    }
    let probabilities = not_probabilities.is_none();
    s.set("roc_auc_ovr", macro_mean(&auc).filter(|_| probabilities));
    s.set(
        "roc_auc_ovr_weighted",
        weighted_mean(&auc, &counts).filter(|_| probabilities),
    );
    s.set(
        "roc_auc_ovo",
        probabilities.then(|| roc_auc_ovo_from(&directed)).flatten(),
    );
    s.set("average_precision", macro_mean(&ap));
    s.set("log_loss", log_loss(truth, &sub.scores, k));
    s.set("brier_score", brier_multiclass(truth, &sub.scores, k));
    s.set(
        "top_k_accuracy",
        top_k_accuracy(truth, &sub.scores, k, d.top_k),
    );
    not_probabilities
}

/// `np.allclose(1, row_sum)` as scikit-learn 1.9's multi-class `roc_auc_score` tests each row (`_ranking.py`,
/// `_multiclass_roc_auc_score`): |1 − sum| ≤ atol + rtol·|sum| with atol = 1e-8, rtol = 1e-5; NaN fails.
pub fn sums_to_one(sum: f64) -> bool {
    (1.0 - sum).abs() <= 1e-8 + 1e-5 * sum.abs()
}

/// The ROC and precision–recall series of a plot (at most 200 points each, see [`thin`]).
fn curve_series(label: &str, roc_c: &ThresholdCurve, pr_c: &ThresholdCurve) -> (Series, Series) {
    let (fpr, tpr, _) = roc_curve(roc_c);
    let (x, y) = thin(&fpr, &tpr, 200);
    let roc = Series {
        label: label.to_string(),
        x,
        y,
    };
    let (p, r) = precision_recall_curve(pr_c);
    let (x, y) = thin(&r, &p, 200);
    let pr = Series {
        label: label.to_string(),
        x,
        y,
    };
    (roc, pr)
}

/// The score matrix of a multi-class problem and what every class's curves read.
struct Columns<'a> {
    scores: &'a [f64],
    truth: &'a [usize],
    names: &'a [String],
    k: usize,
    /// Every row sums to 1: the one-vs-rest and one-vs-one ROC AUCs are defined.
    probabilities: bool,
}

/// What one class gives the multi-class score metrics and plots.
struct ClassCurves {
    ap: Option<f64>,
    /// One-vs-rest ROC AUC of the column.
    auc: Option<f64>,
    /// At b: the AUC of this class against class b over their samples (this class's side of the one-vs-one
    /// pair); `None` at the class itself.
    directed: Vec<Option<f64>>,
    roc: Series,
    pr: Series,
}

/// Buffers one worker reuses from class to class.
#[derive(Default)]
struct Buffers {
    column: Vec<f64>,
    keyed: Vec<(u64, u32)>,
    scratch: Vec<(u64, u32)>,
}

/// Class `c`: the curve of its column (average precision, PR curve, and when the rows are probabilities the
/// ROC AUC one-vs-rest and its side of every one-vs-one pair), from counts per distinct score when the column
/// has few, else from one sort of the column. scikit-learn scores the raw rows once they pass its check.
fn class_curves(x: &Columns, c: usize, b: &mut Buffers) -> ClassCurves {
    let (k, truth) = (x.k, x.truth);
    b.column.clear();
    b.column.extend(x.scores.chunks_exact(k).map(|r| r[c]));
    let column = &b.column;
    let labelled = || column.iter().zip(truth).map(|(&v, &t)| (v, t as u32));
    let label = format!("{} vs rest", x.names[c]);
    let mut directed = vec![None; k];
    if !x.probabilities {
        // Positives (1) against the rest (0): two counts per distinct score.
        let positive = labelled().map(|(v, t)| (v, t == c as u32));
        let raw_c = binary_curve(
            positive,
            group_cap(truth.len()),
            &mut b.keyed,
            &mut b.scratch,
        );
        let (roc, pr) = curve_series(&label, &raw_c, &raw_c);
        return ClassCurves {
            ap: average_precision_of(&raw_c),
            auc: None,
            directed,
            roc,
            pr,
        };
    }
    let nc = match group(labelled(), k, group_cap(truth.len())) {
        Some(g) => {
            for o in (0..k).filter(|&o| o != c) {
                directed[o] = roc_auc_of(&g.curve(c, Some(o)));
            }
            g.curve(c, None)
        }
        None => {
            b.keyed.clear();
            let mut negative_zero = false;
            b.keyed.extend(labelled().map(|(v, t)| {
                negative_zero |= v == 0.0 && v.is_sign_negative();
                (desc_key(v + 0.0), t)
            }));
            radix::sort(&mut b.keyed, &mut b.scratch);
            let (all, pairs) = sorted_curves(&b.keyed, c, k, negative_zero);
            for o in (0..k).filter(|&o| o != c) {
                directed[o] = roc_auc_of(&pairs[o]);
            }
            all
        }
    };
    let (roc, pr) = curve_series(&label, &nc, &nc);
    ClassCurves {
        ap: average_precision_of(&nc),
        auc: roc_auc_of(&nc),
        directed,
        roc,
        pr,
    }
}

/// [`class_curves`] of every class, in class order, the classes shared among the cores ([`crate::par::map`]).
fn every_class(x: &Columns) -> Vec<ClassCurves> {
    crate::par::map(x.k, Buffers::default, |b, c| class_curves(x, c, b))
}
