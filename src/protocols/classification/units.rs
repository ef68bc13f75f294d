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
    brier_binary, brier_multiclass, log_loss, log_loss_binary, macro_mean, roc_auc_ovo_from,
    top_k_accuracy, weighted_mean as class_weighted_mean,
};
use crate::metrics::mean::numpy_sum;
use crate::report::Scores;
use crate::stats::units::{weighted_mean, weighted_means, weights_as_bytes, Replicate, Units};
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
}

/// One score column sorted once (decreasing score): the rows in that order, each one's class, and where each
/// run of equal scores ends. A replicate reads the rows' weights in that order (independent reads, no
/// read-modify-write into a run table) and emits a curve point at the end of each run that holds weight.
struct Column {
    order: Vec<u32>,
    /// Each sorted row's class times 2, plus 1 at the last row of a run of equal scores (one stream for the
    /// sweep to read instead of two).
    class_end: Vec<u32>,
}

impl Column {
    /// `values`: the rows' scores; `class`: each row's class (the positive flag of a binary problem).
    fn new(values: impl Iterator<Item = f64>, class: &[u32]) -> Column {
        let mut v: Vec<(f64, u32)> = values.enumerate().map(|(i, s)| (s, i as u32)).collect();
        v.sort_by(|a, b| b.0.total_cmp(&a.0));
        // np.diff(y_score) != 0 ends a run; -0.0 and 0.0 are one run.
        let end = |j: usize| (j + 1 == v.len() || v[j + 1].0 != v[j].0) as u32;
        Column {
            class_end: (0..v.len())
                .map(|j| class[v[j].1 as usize] << 1 | end(j))
                .collect(),
            order: v.into_iter().map(|(_, i)| i).collect(),
        }
    }

    /// ROC AUC and average precision of the weighted threshold curve of rows whose class is `pos` against
    /// those of class `other` (every row when `None`): one point per run of equal scores holding weight
    /// (`confusion_matrix_at_thresholds` with `sample_weight`, zero weights removed first), then
    /// `roc_auc_score` and `average_precision_score` of that curve. The curve lives in the thread's reused
    /// buffers (written before read: never cleared); the loop is branch-free (a branch on the draws would
    /// mispredict). The counts go to f64 through i64 (one instruction; the same value below 2^63).
    fn auc_ap<W: Copy + Default + Into<u64>>(
        &self,
        w: &[W],
        pos: u32,
        other: Option<u32>,
    ) -> (Option<f64>, Option<f64>) {
        SCRATCH.with(|cell| {
            let mut scratch = cell.borrow_mut();
            let Scratch { tps, fps, terms } = &mut *scratch;
            let m = self.order.len();
            if tps.len() < m + 1 {
                tps.resize(m + 1, 0.0);
                fps.resize(m + 1, 0.0);
            }
            let (mut t, mut f, mut run, mut len) = (0u64, 0u64, 0u64, 0usize);
            // The weights in sorted order are gathered GATHER at a time first (independent loads, in flight
            // together), then swept.
            let mut gathered = [W::default(); GATHER];
            for (order, class_end) in self.order.chunks(GATHER).zip(self.class_end.chunks(GATHER)) {
                for (g, &i) in gathered.iter_mut().zip(order) {
                    *g = w[i as usize];
                }
                for (&k, &ce) in gathered.iter().zip(class_end) {
                    let k: u64 = k.into();
                    let (l, end) = (ce >> 1, ce & 1);
                    let is_pos = (l == pos) as u64;
                    let is_other = other.map_or(1 - is_pos, |o| (l == o) as u64);
                    t += k * is_pos;
                    f += k * is_other;
                    run += k * (is_pos | is_other);
                    tps[len] = t as i64 as f64;
                    fps[len] = f as i64 as f64;
                    let emit = (end != 0) & (run != 0);
                    len += emit as usize;
                    run *= (end == 0) as u64;
                }
            }
            let (tps, fps) = (&tps[..len], &fps[..len]);
            (roc_auc(tps, fps, terms), average_precision(tps, fps, terms))
        })
    }
}

/// The weights gathered at a time in a sorted sweep (a few kilobytes on the stack).
const GATHER: usize = 512;

/// A replicate's buffers, one set per thread, kept from one replicate to the next (a replicate of a million
/// rows would otherwise allocate and fault in tens of megabytes).
#[derive(Default)]
struct Scratch {
    tps: Vec<f64>,
    fps: Vec<f64>,
    terms: Vec<f64>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::default();
    /// The replicate's weights as bytes (`weights_as_bytes`), for the sorted columns' reads.
    static BYTES: RefCell<Vec<u8>> = RefCell::default();
}

/// `f` on the weights as bytes when they fit, else on the weights themselves.
fn with_compact<R>(w: &[u32], f: impl FnOnce(Curve) -> R) -> R {
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

/// `roc_auc_score` of a threshold curve: the library's `roc_auc_of`
/// (src/metrics/classification/curves.rs) operation for operation (the same kept points of `roc_curve`, the
/// same trapezoids, NumPy's pairwise sum), on borrowed slices with a reused buffer for the trapezoids.
fn roc_auc(t: &[f64], f: &[f64], terms: &mut Vec<f64>) -> Option<f64> {
    let pos = t.last().copied().unwrap_or(0.0);
    let neg = f.last().copied().unwrap_or(0.0);
    if pos == 0.0 || neg == 0.0 {
        return None;
    }
    let m = f.len();
    let (mut x0, mut y0) = (0.0 / neg, 0.0 / pos);
    terms.clear();
    for i in 0..m {
        let keep = m <= 2
            || i == 0
            || i == m - 1
            || (f[i + 1] - f[i]) - (f[i] - f[i - 1]) != 0.0
            || (t[i + 1] - t[i]) - (t[i] - t[i - 1]) != 0.0;
        if keep {
            let (x, y) = (f[i] / neg, t[i] / pos);
            terms.push((x - x0) * (y + y0) / 2.0);
            (x0, y0) = (x, y);
        }
    }
    Some(numpy_sum(terms)).filter(|v| v.is_finite())
}

/// `average_precision_score` of a threshold curve: the library's `average_precision_of` operation for
/// operation (−Σ (recall[j+1] − recall[j]) · precision[j] over the reversed curve with (1, 0) appended,
/// NumPy's pairwise sum, clipped at 0), without building the reversed curve.
fn average_precision(t: &[f64], f: &[f64], terms: &mut Vec<f64>) -> Option<f64> {
    let m = t.len();
    if m == 0 {
        return None;
    }
    let tl = t[m - 1];
    let precision = |i: usize| {
        let ps = t[i] + f[i];
        if ps != 0.0 {
            t[i] / ps
        } else {
            0.0
        }
    };
    let recall = |i: usize| if tl == 0.0 { 1.0 } else { t[i] / tl };
    terms.clear();
    // recall(i − 1) of one term is recall(i) of the next: computed once.
    let mut here = recall(m - 1);
    for j in 0..m {
        let i = m - 1 - j;
        let next = if i == 0 { 0.0 } else { recall(i - 1) };
        terms.push((next - here) * precision(i));
        here = next;
    }
    let s = -numpy_sum(terms);
    Some(if s > 0.0 { s } else { 0.0 })
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
    let positive: Vec<u32> = y.iter().map(|&b| b as u32).collect();
    let brier = terms(n, |i| brier_binary(&y[i..=i], &sp[i..=i]));
    ScoresPart::Binary {
        column: Column::new(sp.iter().copied(), &positive),
        finite: all_finite(&[&log_loss, &brier]),
        brier,
        log_loss,
    }
}

/// Whether every value of the present term columns is finite.
fn all_finite(columns: &[&Option<Vec<f64>>]) -> bool {
    let mut values = columns.iter().filter_map(|c| c.as_ref()).flatten();
    values.all(|v| v.is_finite())
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
    let log_loss = terms(n, |i| log_loss(&[t(i)], row(i), k));
    let brier = terms(n, |i| brier_multiclass(&[t(i)], row(i), k));
    let top_k = terms(n, |i| top_k_accuracy(&[t(i)], row(i), k, r.top_k));
    ScoresPart::Multi {
        columns: (0..k)
            .map(|c| Column::new(scores.chunks_exact(k).map(|row| row[c]), &r.truth))
            .collect(),
        truth: r.truth.clone(),
        probabilities,
        finite: all_finite(&[&log_loss, &brier, &top_k]),
        log_loss,
        brier,
        top_k,
    }
}

impl Labels {
    fn scores(&self, w: &[u32], s: &mut Scores) {
        // The weighted counts of each (truth, prediction) cell first, then the matrix from them: the same
        // integer sums as adding row by row. Four tables, row i into table i mod 4, added at the end: rows in
        // one cell would otherwise wait on each other's addition through memory.
        let size = self.size;
        let cells = size * size;
        let mut tables = vec![0u64; 4 * cells];
        let rows = self
            .truth
            .chunks(4)
            .zip(self.pred.chunks(4))
            .zip(w.chunks(4));
        for ((t, p), k) in rows {
            for (j, ((&t, &p), &k)) in t.iter().zip(p).zip(k).enumerate() {
                tables[j * cells + t as usize * size + p as usize] += k as u64;
            }
        }
        let cells: Vec<u64> = (0..cells)
            .map(|c| (0..4).map(|j| tables[j * cells + c]).sum())
            .collect();
        let mut conf = Confusion::new(size);
        for (cell, &count) in cells.iter().enumerate() {
            if count != 0 {
                conf.add_n(cell / size, cell % size, count);
            }
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
                log_loss,
                brier,
                finite,
            } => {
                let (auc, ap) = with_compact(w, |curve| curve(column, 1, None));
                s.set("roc_auc", auc);
                s.set("average_precision", ap);
                let (ll, br) = match (log_loss, brier) {
                    (Some(l), Some(b)) => weighted_means([l, b], w, *finite).into(),
                    _ => (mean(log_loss), mean(brier)),
                };
                s.set("log_loss", ll);
                s.set("brier_score", br);
            }
            ScoresPart::Multi {
                columns,
                truth,
                probabilities,
                log_loss,
                brier,
                top_k,
                finite,
            } => {
                with_compact(w, |curve| {
                    multi_curves(columns, truth, *probabilities, w, s, curve)
                });
                let (ll, br, tk) = match (log_loss, brier, top_k) {
                    (Some(l), Some(b), Some(t)) => weighted_means([l, b, t], w, *finite).into(),
                    _ => (mean(log_loss), mean(brier), mean(top_k)),
                };
                s.set("log_loss", ll);
                s.set("brier_score", br);
                s.set("top_k_accuracy", tk);
            }
        }
    }
}

/// One-vs-rest ROC AUC (macro, weighted by the weighted class counts), macro average precision, and one-vs-one
/// ROC AUC on the repeated rows (undefined when a class is not drawn: scikit-learn raises then).
/// `curve(column, pos, other)`: [`Column::auc_ap`] on the replicate's weights.
type Curve<'a> = &'a dyn Fn(&Column, u32, Option<u32>) -> (Option<f64>, Option<f64>);

fn multi_curves(
    columns: &[Column],
    truth: &[u32],
    probabilities: bool,
    w: &[u32],
    s: &mut Scores,
    curve: Curve,
) {
    let k = columns.len();
    let mut counts = vec![0.0f64; k];
    for (&t, &x) in truth.iter().zip(w) {
        counts[t as usize] += x as f64;
    }
    let mut auc = Vec::with_capacity(k);
    let mut ap = Vec::with_capacity(k);
    for (c, column) in columns.iter().enumerate() {
        let (a, p) = curve(column, c as u32, None);
        auc.push(a);
        ap.push(p);
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
                    .map(|b| (a != b).then(|| curve(&columns[a], a as u32, Some(b as u32)).0)?)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::classification::curves::{
        average_precision_of, roc_auc_of, threshold_curve,
    };

    /// A column's ROC AUC and average precision on weights equal, bit for bit, the library's on the repeated
    /// rows (ties, zero weights, one class missing), on 32-bit weights and on the bytes.
    #[test]
    fn weighted_sweep_equals_the_repeated_rows() {
        let mut x: u64 = 0x0123_4567_89ab_cdef;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for n in [1usize, 2, 5, 40, 700] {
            let scores: Vec<f64> = (0..n).map(|_| (next() % 23) as f64 / 7.0).collect();
            let class: Vec<u32> = (0..n).map(|_| (next() % 3 == 0) as u32).collect();
            let column = Column::new(scores.iter().copied(), &class);
            for _ in 0..20 {
                let w: Vec<u32> = (0..n).map(|_| (next() % 4) as u32).collect();
                let mut pairs: Vec<(f64, bool)> = Vec::new();
                for i in 0..n {
                    for _ in 0..w[i] {
                        pairs.push((scores[i], class[i] == 1));
                    }
                }
                let curve = threshold_curve(&mut pairs);
                let expected = (roc_auc_of(&curve), average_precision_of(&curve));
                let bytes: Vec<u8> = w.iter().map(|&k| k as u8).collect();
                assert_eq!(column.auc_ap(&w, 1, None), expected, "n {n}");
                assert_eq!(column.auc_ap(&bytes, 1, None), expected, "n {n}");
            }
        }
    }
}
