//! The bootstrap's units of `classification` (docs/specs/statistics.md section 1): one unit per GT row. A
//! replicate is every metric with scikit-learn's `sample_weight` = the draw counts: the label metrics from the
//! weighted confusion matrix (its labels stay `unique_labels` of every row, as scikit-learn's do), the ranking
//! metrics from one sort per score column and a weighted sweep (zero-weight rows dropped, as
//! `_binary_clf_curve` drops them), the per-row losses as weighted means (`numpy.average(…, weights)`).
//! One-vs-one ROC AUC, which scikit-learn does not weight, is the metric on the repeated rows.

use super::compute::{label_metrics, single_class_binary, Data, Outcome};
use crate::formats::classification_csv::{Layout, NONE};
use crate::metrics::classification::curves::{average_precision_of, roc_auc_of, ThresholdCurve};
use crate::metrics::classification::labels::Confusion;
use crate::metrics::classification::scores::{
    brier_binary, brier_multiclass, log_loss, log_loss_binary, macro_mean, roc_auc_ovo_from,
    top_k_accuracy, weighted_mean as class_weighted_mean,
};
use crate::report::Scores;
use crate::stats::units::{weighted_mean, Replicate, Units};
use std::any::Any;

/// The hard labels' part: each row's true and predicted positions in the confusion matrix.
struct Labels {
    truth: Vec<u32>,
    pred: Vec<u32>,
    size: usize,
    two_classes: bool,
    binary_positive: Option<usize>,
    /// The union's names when the GT holds one binary class (scikit-learn's binary F1 of label 1 then).
    single_binary: Option<Vec<String>>,
}

/// One score column sorted once: each row's run of equal scores (`group`, 0 for the highest score) and each
/// run's score. A replicate adds the rows' weights into their runs in row order (sequential reads), then sweeps
/// the runs.
struct Column {
    group: Vec<u32>,
    thresholds: Vec<f64>,
}

impl Column {
    fn new(values: impl Iterator<Item = f64>) -> Column {
        let mut v: Vec<(f64, u32)> = values.enumerate().map(|(i, s)| (s, i as u32)).collect();
        v.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut group = vec![0u32; v.len()];
        let mut thresholds = Vec::new();
        for (j, &(s, i)) in v.iter().enumerate() {
            // np.diff(y_score) != 0 ends a run; -0.0 and 0.0 are one run.
            if j == 0 || v[j - 1].0 != s {
                thresholds.push(s);
            }
            group[i as usize] = thresholds.len() as u32 - 1;
        }
        Column { group, thresholds }
    }

    /// The weighted threshold curve of rows whose class is `pos` against those of class `other` (every row when
    /// `None`): one point per run of equal scores holding weight (`confusion_matrix_at_thresholds` with
    /// `sample_weight`, zero weights removed first).
    fn curve(&self, class: &[u32], w: &[u32], pos: u32, other: Option<u32>) -> ThresholdCurve {
        let m = self.thresholds.len();
        let (mut tp, mut fp) = (vec![0u64; m], vec![0u64; m]);
        for ((&g, &l), &k) in self.group.iter().zip(class).zip(w) {
            if k == 0 {
                continue;
            }
            if l == pos {
                tp[g as usize] += k as u64;
            } else if other.is_none_or(|o| l == o) {
                fp[g as usize] += k as u64;
            }
        }
        let mut c = ThresholdCurve {
            fps: Vec::new(),
            tps: Vec::new(),
            thresholds: Vec::new(),
        };
        let (mut t, mut f) = (0u64, 0u64);
        for g in 0..m {
            if tp[g] + fp[g] != 0 {
                t += tp[g];
                f += fp[g];
                c.tps.push(t as f64);
                c.fps.push(f as f64);
                c.thresholds.push(self.thresholds[g]);
            }
        }
        c
    }
}

/// The score metrics' part.
enum ScoresPart {
    /// Two classes: the positive class's column; per-row log loss and Brier terms.
    Binary {
        column: Column,
        positive: Vec<u32>,
        log_loss: Option<Vec<f64>>,
        brier: Option<Vec<f64>>,
    },
    /// More classes: one sorted column per class; per-row terms.
    Multi {
        columns: Vec<Column>,
        truth: Vec<u32>,
        probabilities: bool,
        log_loss: Option<Vec<f64>>,
        brier: Option<Vec<f64>>,
        top_k: Option<Vec<f64>>,
    },
}

/// Everything a replicate of `classification` reads.
pub struct ClassificationUnits {
    metrics: Vec<String>,
    rows: Rows,
    labels: Option<Labels>,
    scores: Option<ScoresPart>,
}

/// The rows as scoring read them, and what the metrics' rules read of the classes: enough to build the units
/// again for a mixture of two submissions ([`Replicate::mixed`]).
#[derive(Clone)]
struct Rows {
    truth: Vec<u32>,
    /// Predicted label index per row (`NONE` for the binary score layout).
    pred: Vec<u32>,
    /// The submission's scores: n × k, or n for one column.
    scores: Vec<f64>,
    layout: Layout,
    k: usize,
    positive: Option<usize>,
    top_k: usize,
    position: Vec<usize>,
    union: Vec<String>,
    no_extra: bool,
    mixed_types: bool,
    single_binary: bool,
    binary: bool,
}

/// Per-row terms of a mean metric, each the library function on that one row; `None` when one is undefined
/// (then the metric is undefined on every replicate holding the row, and on the full set).
fn terms(n: usize, f: impl Fn(usize) -> Option<f64>) -> Option<Vec<f64>> {
    (0..n).map(f).collect()
}

/// The report's units: every metric of `scores` with a value.
pub fn slot(d: &Data, out: &Outcome, scores: &Scores) -> crate::stats::units::Slot {
    let metrics: Vec<String> = scores
        .iter()
        .filter(|(_, v)| v.is_some())
        .map(|(k, _)| k.to_string())
        .collect();
    let n = d.gt.labels.len();
    if n == 0 || metrics.is_empty() {
        return crate::stats::units::Slot::default();
    }
    let rows = Rows {
        truth: d.gt.labels.clone(),
        pred: out.pred.clone(),
        scores: d.sub.scores.clone(),
        layout: d.sub.layout,
        k: d.gt.classes.len(),
        positive: d.positive,
        top_k: d.top_k,
        position: out.position.clone(),
        union: out.union.clone(),
        no_extra: d.sub.extra.is_empty(),
        mixed_types: d.sub.mixed.is_some(),
        single_binary: d.gt.classes.single_binary(),
        binary: d.gt.classes.binary(),
    };
    crate::stats::units::Slot::new(Units::plain("row", n, Box::new(build(rows, metrics))))
}

/// The units of `rows`: `metrics` are the ids whose full-set value is defined.
fn build(rows: Rows, metrics: Vec<String>) -> ClassificationUnits {
    let r = &rows;
    let k = r.k;
    let labels_ok =
        r.layout != Layout::BinaryScore && !r.mixed_types && r.pred.iter().all(|&p| p != NONE);
    let labels = labels_ok.then(|| Labels {
        truth: r
            .truth
            .iter()
            .map(|&t| r.position[t as usize] as u32)
            .collect(),
        pred: r
            .pred
            .iter()
            .map(|&p| r.position[p as usize] as u32)
            .collect(),
        size: r.union.len(),
        two_classes: k == 2,
        binary_positive: r
            .positive
            .filter(|_| k == 2 && r.no_extra)
            .map(|p| r.position[p]),
        single_binary: r.single_binary.then(|| r.union.clone()),
    });
    let one_column = matches!(r.layout, Layout::BinaryScore | Layout::LabelScores);
    let has_scores = r.layout != Layout::Labels;
    let scores = if !has_scores || !(k >= 2 || (r.single_binary && one_column)) {
        None
    } else if r.binary {
        Some(binary_part(r, one_column))
    } else {
        Some(multi_part(r))
    };
    ClassificationUnits {
        metrics,
        rows,
        labels,
        scores,
    }
}

fn binary_part(r: &Rows, one_column: bool) -> ScoresPart {
    let p = r.positive.unwrap_or(1);
    let sp: Vec<f64> = if one_column {
        r.scores.clone()
    } else {
        r.scores.chunks_exact(2).map(|row| row[p]).collect()
    };
    let y: Vec<bool> = r.truth.iter().map(|&t| t as usize == p).collect();
    let single = r.k == 1;
    let n = y.len();
    let log_loss = if single {
        None
    } else if one_column {
        terms(n, |i| log_loss_binary(&y[i..=i], &sp[i..=i]))
    } else {
        terms(n, |i| {
            log_loss(&[r.truth[i] as usize], &r.scores[2 * i..2 * i + 2], 2)
        })
    };
    ScoresPart::Binary {
        column: Column::new(sp.iter().copied()),
        positive: y.iter().map(|&b| b as u32).collect(),
        brier: terms(n, |i| brier_binary(&y[i..=i], &sp[i..=i])),
        log_loss,
    }
}

fn multi_part(r: &Rows) -> ScoresPart {
    let k = r.k;
    let scores = &r.scores;
    let n = r.truth.len();
    let probabilities = scores
        .chunks_exact(k)
        .all(|row| super::compute::sums_to_one(crate::metrics::mean::numpy_sum(row)));
    let row = |i: usize| &scores[i * k..(i + 1) * k];
    let t = |i: usize| r.truth[i] as usize;
    ScoresPart::Multi {
        columns: (0..k)
            .map(|c| Column::new(scores.chunks_exact(k).map(|row| row[c])))
            .collect(),
        truth: r.truth.clone(),
        probabilities,
        log_loss: terms(n, |i| log_loss(&[t(i)], row(i), k)),
        brier: terms(n, |i| brier_multiclass(&[t(i)], row(i), k)),
        top_k: terms(n, |i| top_k_accuracy(&[t(i)], row(i), k, r.top_k)),
    }
}

impl Labels {
    fn scores(&self, w: &[u32], s: &mut Scores) {
        let mut conf = Confusion::new(self.size);
        for ((&t, &p), &k) in self.truth.iter().zip(&self.pred).zip(w) {
            conf.add_n(t as usize, p as usize, k as u64);
        }
        label_metrics(&conf, true, self.two_classes, self.binary_positive, s);
        if let Some(union) = &self.single_binary {
            single_class_binary(&conf, union, true, s);
        }
    }
}

impl ScoresPart {
    fn scores(&self, w: &[u32], s: &mut Scores) {
        let mean = |t: &Option<Vec<f64>>| t.as_ref().and_then(|t| weighted_mean(t, w));
        match self {
            ScoresPart::Binary {
                column,
                positive,
                log_loss,
                brier,
            } => {
                let c = column.curve(positive, w, 1, None);
                s.set("roc_auc", roc_auc_of(&c));
                s.set("average_precision", average_precision_of(&c));
                s.set("log_loss", mean(log_loss));
                s.set("brier_score", mean(brier));
            }
            ScoresPart::Multi {
                columns,
                truth,
                probabilities,
                log_loss,
                brier,
                top_k,
            } => {
                multi_curves(columns, truth, *probabilities, w, s);
                s.set("log_loss", mean(log_loss));
                s.set("brier_score", mean(brier));
                s.set("top_k_accuracy", mean(top_k));
            }
        }
    }
}

/// One-vs-rest ROC AUC (macro, weighted by the weighted class counts), macro average precision, and one-vs-one
/// ROC AUC on the repeated rows (undefined when a class is not drawn: scikit-learn raises then).
fn multi_curves(columns: &[Column], truth: &[u32], probabilities: bool, w: &[u32], s: &mut Scores) {
    let k = columns.len();
    let mut counts = vec![0.0f64; k];
    for (&t, &x) in truth.iter().zip(w) {
        counts[t as usize] += x as f64;
    }
    let mut auc = Vec::with_capacity(k);
    let mut ap = Vec::with_capacity(k);
    for (c, column) in columns.iter().enumerate() {
        let curve = column.curve(truth, w, c as u32, None);
        auc.push(roc_auc_of(&curve));
        ap.push(average_precision_of(&curve));
    }
    s.set("average_precision", macro_mean(&ap));
    if !probabilities {
        return;
    }
    s.set("roc_auc_ovr", macro_mean(&auc));
    s.set("roc_auc_ovr_weighted", class_weighted_mean(&auc, &counts));
    let all_drawn = counts.iter().all(|&c| c > 0.0);
    let ovo = all_drawn.then(|| {
        let directed: Vec<Vec<Option<f64>>> = (0..k)
            .map(|a| {
                (0..k)
                    .map(|b| {
                        (a != b).then(|| {
                            roc_auc_of(&columns[a].curve(truth, w, a as u32, Some(b as u32)))
                        })?
                    })
                    .collect()
            })
            .collect();
        roc_auc_ovo_from(&directed)
    });
    s.set("roc_auc_ovo", ovo.flatten());
}

impl Replicate for ClassificationUnits {
    fn metrics(&self) -> Vec<String> {
        self.metrics.clone()
    }

    fn values(&self, w: &[u32]) -> Vec<Option<f64>> {
        let mut s = Scores::new();
        if let Some(l) = &self.labels {
            l.scores(w, &mut s);
        }
        if let Some(p) = &self.scores {
            p.scores(w, &mut s);
        }
        self.metrics.iter().map(|m| s.get(m)).collect()
    }

    /// The other submission's rows where `take_other` (its predictions and scores; the same ground truth), the
    /// units built again: the metrics of the mixture on weights `w`.
    fn mixed(
        &self,
        other: &dyn Replicate,
        take_other: &[bool],
        w: &[u32],
    ) -> Option<Vec<Option<f64>>> {
        let o = &other.as_any().downcast_ref::<ClassificationUnits>()?.rows;
        let r = &self.rows;
        let same = o.truth == r.truth && o.layout == r.layout && o.k == r.k && o.union == r.union;
        if !same || take_other.len() != r.truth.len() {
            return None;
        }
        let mut rows = r.clone();
        let width = r.scores.len() / r.truth.len().max(1);
        for (i, _) in take_other.iter().enumerate().filter(|(_, &t)| t) {
            rows.pred[i] = o.pred[i];
            rows.scores[i * width..(i + 1) * width]
                .copy_from_slice(&o.scores[i * width..(i + 1) * width]);
        }
        Some(build(rows, self.metrics.clone()).values(w))
    }

    /// 1 where the predicted label is right, else 0 (none for the binary score layout).
    fn unit_scores(&self) -> Option<Vec<f64>> {
        let l = self.labels.as_ref()?;
        Some(
            l.truth
                .iter()
                .zip(&l.pred)
                .map(|(t, p)| (t == p) as u8 as f64)
                .collect(),
        )
    }

    fn lower_is_better(&self, metric: &str) -> bool {
        matches!(metric, "log_loss" | "brier_score")
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
