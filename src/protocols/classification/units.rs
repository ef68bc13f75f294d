//! The bootstrap's units of `classification` (docs/specs/statistics.md section 1): one unit per GT row. A
//! replicate is every metric with scikit-learn's `sample_weight` = the draw counts: the label metrics from the
//! weighted confusion matrix (its labels stay `unique_labels` of every row, as scikit-learn's do), the ranking
//! metrics from one sort per score column and a weighted sweep (zero-weight rows dropped, as
//! `_binary_clf_curve` drops them), the per-row losses as weighted means (`numpy.average(…, weights)`).
//! One-vs-one ROC AUC, which scikit-learn does not weight, is the metric on the repeated rows.

use super::compute::{label_metrics, single_class_binary, Data, Outcome};
use crate::formats::classification_csv::{Layout, NONE};
use crate::metrics::classification::labels::Confusion;
use crate::metrics::classification::scores::{
    macro_mean, roc_auc_ovo_from, weighted_mean as class_weighted_mean,
};
use crate::report::Scores;
use crate::stats::units::{weighted_means_k, weights_as_bytes, Replicate, Units, Weight};
use std::any::Any;
use std::cell::RefCell;

/// The hard labels' part: each row's true and predicted positions in the confusion matrix.
struct Labels {
    truth: Vec<u32>,
    pred: Vec<u32>,
    size: usize,
    two_classes: bool,
    binary_positive: Option<usize>,
    /// The union's names when the GT holds one binary class (scikit-learn's binary F1 of label 1 then).
    single_binary: Option<Vec<String>>,
    /// Each row's cell (truth · size + prediction) when the matrix has at most four ([`rows`]).
    cell: Option<Vec<u8>>,
}

#[path = "units_curve.rs"]
mod curve;
use curve::Column;
#[path = "units_build.rs"]
mod building;
use building::build;
#[path = "units_rows.rs"]
mod rows;
#[path = "units_weighted.rs"]
mod weighted;

thread_local! {
    /// The replicate's weights as bytes (`weights_as_bytes`), for the sorted columns' reads.
    static BYTES: RefCell<Vec<u8>> = RefCell::default();
}

/// A replicate's ROC AUC and average precision of each sorted column against every other class.
type Ranked = Vec<(Option<f64>, Option<f64>)>;

/// `f` on the weights as bytes when they fit, else on the weights themselves.
fn with_compact<W: Weight, R>(w: &[W], f: impl FnOnce(Curve) -> R) -> R {
    BYTES.with(|cell| {
        let mut bytes = cell.borrow_mut();
        if weights_as_bytes(w, &mut bytes) {
            let b: &[u8] = &bytes;
            f(&|c: &Column, pos, other| c.auc_ap(b, pos, other))
        } else {
            f(&|c: &Column, pos, other| c.auc_ap(w, pos, other))
        }
    })
}

/// The score metrics' part.
enum ScoresPart {
    /// Two classes: the positive class's column; per-row log loss and Brier terms.
    Binary {
        column: Column,
        log_loss: Option<Vec<f64>>,
        brier: Option<Vec<f64>>,
        /// Every per-row term finite (see `weighted_means`).
        finite: bool,
    },
    /// More classes: one sorted column per class; per-row terms.
    Multi {
        columns: Vec<Column>,
        truth: Vec<u32>,
        probabilities: bool,
        log_loss: Option<Vec<f64>>,
        brier: Option<Vec<f64>>,
        top_k: Option<Vec<f64>>,
        finite: bool,
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

impl Rows {
    /// Whether the hard labels' metrics are read from these rows: predicted labels on every row, of one type.
    fn has_labels(&self) -> bool {
        self.layout != Layout::BinaryScore
            && !self.mixed_types
            && self.pred.iter().all(|&p| p != NONE)
    }

    /// Each row's own score: 1 where the predicted label is right, else 0 (none for the binary score layout).
    fn unit_scores(&self) -> Option<Vec<f64>> {
        let at = |label: u32| self.position[label as usize];
        self.has_labels().then(|| {
            (self.truth.iter().zip(&self.pred))
                .map(|(&t, &p)| (at(t) == at(p)) as u8 as f64)
                .collect()
        })
    }

    /// These rows with the other submission's predictions and scores where `take_other` (the same ground
    /// truth, layout and classes); `None` when `other` is not such a submission.
    fn mixed(&self, other: &Rows, take_other: &[bool]) -> Option<Rows> {
        let (r, o) = (self, other);
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
        Some(rows)
    }
}

/// The report's units: every metric of `scores` with a value (with the GT's weights, the weighted metrics).
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
    let replicate: Box<dyn Replicate> = if d.gt.weights.is_empty() {
        Box::new(build(rows, metrics))
    } else {
        Box::new(weighted::WeightedUnits {
            metrics,
            rows,
            weights: d.gt.weights.clone(),
            probabilities: out.not_probabilities.is_none(),
        })
    };
    crate::stats::units::Slot::new(Units::plain("row", n, replicate))
}

impl Labels {
    /// The weighted confusion matrices of K replicates in one pass over the rows: the weighted counts of
    /// each (truth, prediction) cell first, then each matrix from them (the same integer sums as adding row
    /// by row). Four tables per replicate, row i into table i mod 4, added at the end: rows in one cell would
    /// otherwise wait on each other's addition through memory.
    fn confusions<W: Weight, const K: usize>(&self, ws: [&[W]; K]) -> [Confusion; K] {
        let size = self.size;
        let cells = size * size;
        let n = ws
            .iter()
            .map(|w| w.len())
            .fold(self.truth.len(), usize::min);
        let ws = ws.map(|w| &w[..n]);
        let (truth, pred) = (&self.truth[..n], &self.pred[..n]);
        let mut tables = vec![0u64; K * 4 * cells];
        for i in 0..n {
            let cell = truth[i] as usize * size + pred[i] as usize;
            for (r, w) in ws.iter().enumerate() {
                tables[(r * 4 + i % 4) * cells + cell] += Into::<u64>::into(w[i]);
            }
        }
        std::array::from_fn(|r| {
            let mut conf = Confusion::new(size);
            for cell in 0..cells {
                let count: u64 = (0..4).map(|j| tables[(r * 4 + j) * cells + cell]).sum();
                if count != 0 {
                    conf.add_n(cell / size, cell % size, count);
                }
            }
            conf
        })
    }

    /// The confusion matrices of K replicates from each one's weighted count of each cell.
    fn counted<const K: usize>(&self, counts: [[u64; 4]; K]) -> [Confusion; K] {
        let size = self.size;
        counts.map(|count| {
            let mut conf = Confusion::new(size);
            for (cell, &c) in count.iter().enumerate().take(size * size) {
                if c != 0 {
                    conf.add_n(cell / size, cell % size, c);
                }
            }
            conf
        })
    }

    fn scores(&self, conf: &Confusion, s: &mut Scores) {
        label_metrics(conf, true, self.two_classes, self.binary_positive, s);
        if let Some(union) = &self.single_binary {
            single_class_binary(conf, union, true, s);
        }
    }
}

impl ScoresPart {
    /// The per-row mean metrics (log loss, Brier, top-k accuracy; `None` where the part has no such column or
    /// the weights sum to 0) of K replicates, the columns read once for the K (`weighted_means_k`: each
    /// value `weighted_mean` of its column to the bit).
    fn means<W: Weight, const K: usize>(&self, ws: [&[W]; K]) -> [[Option<f64>; 3]; K] {
        let (columns, finite) = self.mean_columns();
        let present: Vec<&[f64]> = columns.iter().filter_map(|c| *c).collect();
        let got = weighted_means_k(&present, ws, finite);
        got.map(|values| rows::placed(&columns, values.into_iter()))
    }

    /// The per-row terms of log loss, Brier and top-k accuracy (`None` where the part has no such column), and
    /// whether every one is finite.
    fn mean_columns(&self) -> ([Option<&[f64]>; 3], bool) {
        match self {
            ScoresPart::Binary {
                log_loss,
                brier,
                finite,
                ..
            } => ([log_loss.as_deref(), brier.as_deref(), None], *finite),
            ScoresPart::Multi {
                log_loss,
                brier,
                top_k,
                finite,
                ..
            } => (
                [log_loss.as_deref(), brier.as_deref(), top_k.as_deref()],
                *finite,
            ),
        }
    }

    /// The sorted columns, each with the class it ranks against the others.
    fn columns(&self) -> Vec<(&Column, u32)> {
        match self {
            ScoresPart::Binary { column, .. } => vec![(column, 1)],
            ScoresPart::Multi { columns, .. } => {
                (0..).zip(columns).map(|(c, col)| (col, c)).collect()
            }
        }
    }

    /// Each column's ROC AUC and average precision against every other class ([`Column::auc_ap`]) for K
    /// replicates: a block of four swept together ([`Column::auc_ap4`]) when its weights fit in bytes, else
    /// one replicate at a time.
    fn ranked<W: Weight, const K: usize>(&self, ws: [&[W]; K]) -> [Ranked; K] {
        let columns = self.columns();
        let four = <[&[W]; 4]>::try_from(ws.as_slice()).ok().and_then(|four| {
            let each: Option<Vec<_>> = columns
                .iter()
                .map(|&(c, pos)| c.auc_ap4(four, pos))
                .collect();
            let each = each?;
            Some(
                (0..4)
                    .map(|r| each.iter().map(|v| v[r]).collect())
                    .collect::<Vec<Ranked>>(),
            )
        });
        if let Some(got) = four.and_then(|v| <[Ranked; K]>::try_from(v).ok()) {
            return got;
        }
        ws.map(|w| {
            with_compact(w, |curve| {
                columns
                    .iter()
                    .map(|&(c, pos)| curve(c, pos, None))
                    .collect()
            })
        })
    }

    /// The ranking metrics on weights `w` (`ranked`: [`ScoresPart::ranked`]), and the mean metrics `means`
    /// ([`ScoresPart::means`]).
    fn scores<W: Weight>(&self, w: &[W], ranked: &Ranked, means: [Option<f64>; 3], s: &mut Scores) {
        let [ll, br, tk] = means;
        match self {
            ScoresPart::Binary { .. } => {
                let (auc, ap) = ranked.first().copied().unwrap_or((None, None));
                s.set("roc_auc", auc);
                s.set("average_precision", ap);
                s.set("log_loss", ll);
                s.set("brier_score", br);
            }
            ScoresPart::Multi {
                columns,
                truth,
                probabilities,
                ..
            } => {
                multi_curves(columns, truth, *probabilities, w, ranked, s);
                s.set("log_loss", ll);
                s.set("brier_score", br);
                s.set("top_k_accuracy", tk);
            }
        }
    }
}

impl ClassificationUnits {
    /// The metrics of each replicate of a block, four at a time ([`ClassificationUnits::values_k`]).
    fn values_quads<W: Weight>(&self, ws: &[&[W]]) -> Vec<Vec<Option<f64>>> {
        let mut out = Vec::with_capacity(ws.len());
        let mut quads = ws.chunks_exact(4);
        for q in &mut quads {
            out.extend(self.values_k([q[0], q[1], q[2], q[3]]));
        }
        for &w in quads.remainder() {
            let [v] = self.values_k([w]);
            out.push(v);
        }
        out
    }

    /// The metrics of K replicates: the label and mean metrics' columns read once for the K, the ranking
    /// metrics replicate by replicate.
    fn values_k<W: Weight, const K: usize>(&self, ws: [&[W]; K]) -> [Vec<Option<f64>>; K] {
        let cells = self.labels.as_ref().and_then(|l| l.cell.as_deref());
        let columns = (self.scores.as_ref()).map_or(([None; 3], true), ScoresPart::mean_columns);
        let pass = cells.map(|cell| rows::means_and_cells(columns, cell, ws));
        let (confusions, means) = match (&self.labels, pass) {
            (Some(l), Some((means, counts))) => (
                Some(counts.map_or_else(|| l.confusions(ws), |c| l.counted(c))),
                self.scores.as_ref().map(|_| means),
            ),
            _ => (
                self.labels.as_ref().map(|l| l.confusions(ws)),
                self.scores.as_ref().map(|p| p.means(ws)),
            ),
        };
        let ranked = self.scores.as_ref().map(|p| p.ranked(ws));
        std::array::from_fn(|r| {
            let mut s = Scores::new();
            if let (Some(l), Some(c)) = (&self.labels, &confusions) {
                l.scores(&c[r], &mut s);
            }
            if let (Some(p), Some(m), Some(k)) = (&self.scores, &means, &ranked) {
                p.scores(ws[r], &k[r], m[r], &mut s);
            }
            self.metrics.iter().map(|m| s.get(m)).collect()
        })
    }
}

/// `curve(column, pos, other)`: [`Column::auc_ap`] on the replicate's weights.
type Curve<'a> = &'a dyn Fn(&Column, u32, Option<u32>) -> (Option<f64>, Option<f64>);

/// One-vs-rest ROC AUC (macro, weighted by the weighted class counts) and macro average precision from each
/// column's `ovr` values, and one-vs-one ROC AUC on the repeated rows (undefined when a class is not drawn:
/// scikit-learn raises then) on weights `w`.
fn multi_curves<W: Weight>(
    columns: &[Column],
    truth: &[u32],
    probabilities: bool,
    w: &[W],
    ovr: &Ranked,
    s: &mut Scores,
) {
    let k = columns.len();
    let mut counts = vec![0.0f64; k];
    for (&t, &x) in truth.iter().zip(w) {
        counts[t as usize] += Into::<f64>::into(x);
    }
    let (auc, ap): (Vec<Option<f64>>, Vec<Option<f64>>) = ovr.iter().copied().unzip();
    s.set("average_precision", macro_mean(&ap));
    if !probabilities {
        return;
    }
    s.set("roc_auc_ovr", macro_mean(&auc));
    s.set("roc_auc_ovr_weighted", class_weighted_mean(&auc, &counts));
    let all_drawn = counts.iter().all(|&c| c > 0.0);
    let ovo = all_drawn.then(|| {
        let directed = |curve: Curve| -> Vec<Vec<Option<f64>>> {
            (0..k)
                .map(|a| {
                    (0..k)
                        .map(|b| {
                            (a != b).then(|| curve(&columns[a], a as u32, Some(b as u32)).0)?
                        })
                        .collect()
                })
                .collect()
        };
        roc_auc_ovo_from(&with_compact(w, directed))
    });
    s.set("roc_auc_ovo", ovo.flatten());
}

impl Replicate for ClassificationUnits {
    fn metrics(&self) -> Vec<String> {
        self.metrics.clone()
    }

    fn values(&self, w: &[u32]) -> Vec<Option<f64>> {
        let [v] = self.values_k([w]);
        v
    }

    /// Four replicates at a time ([`ClassificationUnits::values_k`]).
    fn values_block(&self, ws: &[&[u32]]) -> Vec<Vec<Option<f64>>> {
        self.values_quads(ws)
    }

    /// [`ClassificationUnits::values_block`] on counts as bytes.
    fn values_block_bytes(&self, ws: &[&[u8]]) -> Option<Vec<Vec<Option<f64>>>> {
        Some(self.values_quads(ws))
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
        let rows = self.rows.mixed(o, take_other)?;
        Some(build(rows, self.metrics.clone()).values(w))
    }

    /// 1 where the predicted label is right, else 0 (none for the binary score layout).
    fn unit_scores(&self) -> Option<Vec<f64>> {
        self.rows.unit_scores()
    }

    fn lower_is_better(&self, metric: &str) -> bool {
        matches!(metric, "log_loss" | "brier_score")
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
