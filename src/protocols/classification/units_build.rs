//! Building the units of `classification` ([`super::ClassificationUnits`]): the hard labels' part, and the
//! scores' part (each score column sorted once, the per-row terms of the mean metrics), the parts and the
//! columns built side by side ([`crate::par`]): this is serial time before the replicates start.

use super::curve::Column;
use super::{ClassificationUnits, Labels, Rows, ScoresPart};
use crate::formats::classification_csv::Layout;
use crate::metrics::classification::scores::{
    brier_binary, brier_multiclass, log_loss, log_loss_binary, top_k_accuracy,
};

/// The units of `rows`: `metrics` are the ids whose full-set value is defined. The hard labels' part and the
/// scores' part are built side by side ([`crate::par::join`]): the serial time before the replicates.
pub(super) fn build(rows: Rows, metrics: Vec<String>) -> ClassificationUnits {
    let (labels, scores) = crate::par::join(|| labels_part(&rows), || scores_part(&rows));
    ClassificationUnits {
        metrics,
        rows,
        labels,
        scores,
    }
}

/// Each row's true and predicted positions when the hard labels are scored.
fn labels_part(r: &Rows) -> Option<Labels> {
    let k = r.k;
    r.has_labels().then(|| Labels {
        cell: (r.union.len() <= 2).then(|| {
            let at = |label: u32| r.position[label as usize];
            (r.truth.iter().zip(&r.pred))
                .map(|(&t, &p)| (at(t) * r.union.len() + at(p)) as u8)
                .collect()
        }),
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
    })
}

/// The score metrics' part when the layout has scores and the classes give them.
fn scores_part(r: &Rows) -> Option<ScoresPart> {
    let one_column = matches!(r.layout, Layout::BinaryScore | Layout::LabelScores);
    let has_scores = r.layout != Layout::Labels;
    if !has_scores || !(r.k >= 2 || (r.single_binary && one_column)) {
        None
    } else if r.binary {
        Some(binary_part(r, one_column))
    } else {
        Some(multi_part(r))
    }
}

/// The positive class's column sorted, beside the per-row terms ([`crate::par::join`]).
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
    let per_row = || {
        let log_loss = if single {
            None
        } else if one_column {
            terms(n, |i| log_loss_binary(&y[i..=i], &sp[i..=i]))
        } else {
            terms(n, |i| {
                log_loss(&[r.truth[i] as usize], &r.scores[2 * i..2 * i + 2], 2)
            })
        };
        (log_loss, terms(n, |i| brier_binary(&y[i..=i], &sp[i..=i])))
    };
    let sorted = || {
        let positive: Vec<u32> = y.iter().map(|&b| b as u32).collect();
        Column::new(sp.iter().copied(), &positive)
    };
    let (column, (log_loss, brier)) = crate::par::join(sorted, per_row);
    ScoresPart::Binary {
        column,
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

/// One sorted column per class (shared among the cores, [`crate::par::map`]), beside the per-row terms.
fn multi_part(r: &Rows) -> ScoresPart {
    let k = r.k;
    let scores = &r.scores;
    let n = r.truth.len();
    let row = |i: usize| &scores[i * k..(i + 1) * k];
    let t = |i: usize| r.truth[i] as usize;
    let per_row = || {
        let probabilities = scores.chunks_exact(k).all(|row| {
            crate::protocols::classification::compute::sums_to_one(crate::metrics::mean::numpy_sum(
                row,
            ))
        });
        let log_loss = terms(n, |i| log_loss(&[t(i)], row(i), k));
        let brier = terms(n, |i| brier_multiclass(&[t(i)], row(i), k));
        let top_k = terms(n, |i| top_k_accuracy(&[t(i)], row(i), k, r.top_k));
        (probabilities, log_loss, brier, top_k)
    };
    let sorted = || {
        crate::par::map(
            k,
            || (),
            |_, c| Column::new(scores.chunks_exact(k).map(|row| row[c]), &r.truth),
        )
    };
    let (columns, (probabilities, log_loss, brier, top_k)) = crate::par::join(sorted, per_row);
    ScoresPart::Multi {
        columns,
        truth: r.truth.clone(),
        probabilities,
        finite: all_finite(&[&log_loss, &brier, &top_k]),
        log_loss,
        brier,
        top_k,
    }
}

/// Per-row terms of a mean metric, each the library function on that one row; `None` when one is undefined
/// (then the metric is undefined on every replicate holding the row, and on the full set).
fn terms(n: usize, f: impl Fn(usize) -> Option<f64>) -> Option<Vec<f64>> {
    (0..n).map(f).collect()
}
