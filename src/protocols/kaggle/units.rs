//! The bootstrap's units of `kaggle` (docs/specs/statistics.md section 1): one unit per solution id (all its
//! rows: a mask image's objects), in the order of the report's items. Each metric is recomputed from weighted
//! per-id statistics, as the published code computes it on the solution and submission in which every drawn
//! id's rows appear as many times as drawn:
//!
//! - the means over ids (`mean_dice`, `iou_precision`, `hausdorff`, `map`, `f1_samples`, `levenshtein`,
//!   `sequence_levenshtein`, `word_jaccard`; an id left out of a mean, as `empty = skip` leaves it, is left out
//!   of the weighted mean): the report's per-id values;
//! - `dice` and `fbeta` over all pixels: each image's true positive, false positive and false negative pixel
//!   counts, summed (the intersection from the image's Dice and areas: 2 I / (A + B), an integer);
//! - `f1_micro`: each id's (true positives, true labels, predicted labels), summed; `f1_macro`: the per-label
//!   counts of the drawn ids, F1 averaged over the labels the drawn ids hold (`MultiLabelBinarizer` fitted on the
//!   repeated files knows no other label);
//! - `kendall_tau` (AI4Code): each id's inversions and n(n − 1), summed.
//!
//! A metric whose recomputation on every id once does not give the report's value (another rule applies to
//! this input) has no interval, with the reason.

use super::{formulas, inputs, lists, KaggleOptions, Kind};
use crate::diag::Diags;
use crate::input::{Entry, FileSet};
use crate::items::ItemTable;
use crate::metrics::kaggle::ordering;
use crate::metrics::kaggle::rle::PixelCounts;
use crate::report::Report;
use crate::stats::sums::{Custom, Finish, SumsBuilder};
use crate::stats::units::{Replicate, Slot, Units};
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// The solution's ids and one row per id, from a second read of both files.
type Read<T> = Option<(Vec<String>, Vec<T>)>;

/// An id's solution and submission label sets.
type Sets = (Vec<u32>, Vec<u32>);

/// The report's units: every metric of `scores` with a value.
pub fn slot(files: &FileSet, opts: &KaggleOptions, report: &Report) -> Slot {
    let (Ok(kind), Some(table)) = (Kind::of(&opts.metric), report.item_table.as_ref()) else {
        return Slot::default();
    };
    let order: Vec<usize> = table.order.iter().map(|&r| r as usize).collect();
    let n = order.len();
    if n == 0 || table.ids.len() != n {
        return Slot::default();
    }
    let column = |key: &str| -> Option<Vec<f64>> {
        let c = table.scores.iter().find(|c| c.key == key)?;
        Some(order.iter().map(|&r| c.values[r]).collect())
    };
    let mut b = SumsBuilder::new(n);
    let defined: Vec<&str> = report
        .scores
        .iter()
        .filter(|(_, v)| v.is_some())
        .map(|(k, _)| k)
        .collect();
    let wants = |m: &str| defined.contains(&m);
    match kind {
        Kind::Masks => masks(&mut b, &column, opts, &wants),
        Kind::Map => mean(&mut b, "map", column("ap")),
        Kind::Strings => {
            for m in ["levenshtein", "sequence_levenshtein"] {
                mean(&mut b, m, column(m).filter(|_| wants(m)));
            }
            defined_mean(&mut b, "word_jaccard", column("word_jaccard"));
        }
        Kind::Tags => {
            mean(
                &mut b,
                "f1_samples",
                column("f1").filter(|_| wants("f1_samples")),
            );
            if let Some(rows) = reread(files, opts, &order, table, read_tags) {
                tags(&mut b, rows);
            }
        }
        Kind::Orderings => {
            if let Some(rows) = reread(files, opts, &order, table, read_orderings) {
                let finish: Finish =
                    Arc::new(|s, _| ordering::kendall_tau(s[0] as u64, s[1] as u64));
                b.sums("kendall_tau", 2, rows.concat(), finish);
            }
        }
        Kind::Formulas => {
            let rows = || reread_formulas(files, opts, &order, table);
            formulas::units::declare(&mut b, &opts.metric, &column, &rows);
        }
        Kind::Boxes => {
            defined_mean(&mut b, "wheat_precision", column("wheat_precision"));
            let read = |gt: &Entry, pred: &Entry, opts: &KaggleOptions, delim: u8| {
                let (ids, input) = super::pstring::coco_input(gt, pred, opts, delim)?;
                Some((ids, vec![input]))
            };
            if let Some(input) = reread_whole(files, opts, table, read) {
                let iou = opts.iou.unwrap_or(0.5);
                formulas::units::boxes(&mut b, &input, iou, &order, &defined);
            }
        }
    }
    let mut lower = vec!["hausdorff", "levenshtein", "sequence_levenshtein"];
    lower.extend(formulas::units::LOWER_IS_BETTER);
    let first = formulas::row_column(&opts.metric).map_or(first_column(kind), |c| c.0);
    let replicate = b.build(column(first), &lower);
    finish(replicate, report, &defined, n, order, table)
}

/// Units of the metrics that the replicate on every id once recomputes; the others without interval.
fn finish(
    replicate: crate::stats::sums::UnitSums,
    report: &Report,
    defined: &[&str],
    n: usize,
    order: Vec<usize>,
    table: &ItemTable,
) -> Slot {
    let metrics = replicate.metrics();
    let ones = replicate.values(&vec![1; n]);
    let mut no_interval = Vec::new();
    for m in defined {
        let at = metrics.iter().position(|x| x == m);
        let same = at.is_some_and(|i| close(ones[i], report.scores.get(m)));
        if !same {
            let why = if at.is_some() {
                "its recomputation from the ids does not give the score on this input"
            } else {
                "not recomputed from weighted ids"
            };
            no_interval.push((m.to_string(), why.to_string()));
        }
    }
    if metrics.is_empty() {
        return Slot::default();
    }
    let ids = order
        .iter()
        .map(|&r| table.ids.get(r).to_string())
        .collect();
    let mut units = Units::plain("row", n, Box::new(replicate)).with_ids(ids);
    units.no_interval = no_interval;
    Slot::new(units)
}

fn close(a: Option<f64>, b: Option<f64>) -> bool {
    match (a, b) {
        (Some(x), Some(y)) => x == y || (x - y).abs() <= 1e-12 * x.abs().max(y.abs()),
        _ => false,
    }
}

/// The per-id column shown first (per-unit wins in `compare`).
fn first_column(kind: Kind) -> &'static str {
    match kind {
        Kind::Masks => "dice",
        Kind::Map => "ap",
        Kind::Tags => "f1",
        Kind::Strings => "levenshtein",
        Kind::Orderings => "kendall_tau",
        Kind::Formulas => "",
        Kind::Boxes => "wheat_precision",
    }
}

fn mean(b: &mut SumsBuilder, id: &str, values: Option<Vec<f64>>) {
    if let Some(v) = values {
        b.mean(id, v, 1.0);
    }
}

/// The mean over the ids with a value (NaN in the report's column: left out).
fn defined_mean(b: &mut SumsBuilder, id: &str, values: Option<Vec<f64>>) {
    if let Some(v) = values {
        let v: Vec<Option<f64>> = v.iter().map(|x| x.is_finite().then_some(*x)).collect();
        b.mean_of_defined(id, &v);
    }
}

fn masks(
    b: &mut SumsBuilder,
    column: &dyn Fn(&str) -> Option<Vec<f64>>,
    opts: &KaggleOptions,
    wants: &dyn Fn(&str) -> bool,
) {
    let (Some(dice), Some(a), Some(p)) =
        (column("dice"), column("gt_pixels"), column("pred_pixels"))
    else {
        return;
    };
    let mut counts = Vec::with_capacity(3 * dice.len());
    for ((d, a), p) in dice.iter().zip(&a).zip(&p) {
        let i = if a + p > 0.0 && d.is_finite() {
            (d * (a + p) / 2.0).round()
        } else {
            0.0
        };
        counts.extend([i, p - i, a - i]);
    }
    let pixels = |s: &[f64]| PixelCounts {
        tp: s[0] as u64,
        fp: s[1] as u64,
        fn_: s[2] as u64,
    };
    let beta = opts.beta.unwrap_or(1.0);
    b.sums(
        "dice",
        3,
        counts.clone(),
        Arc::new(move |s, _| pixels(s).dice()),
    );
    defined_mean(b, "mean_dice", Some(dice));
    defined_mean(b, "iou_precision", column("iou_precision"));
    b.sums(
        "fbeta",
        3,
        counts,
        Arc::new(move |s, _| pixels(s).fbeta(beta)),
    );
    if wants("hausdorff") {
        defined_mean(b, "hausdorff", column("hausdorff"));
    }
}

/// Each id's row of a second read of both files, in unit order: `read` returns the solution's ids and one
/// row per id; `None` when the ids differ from the report's.
fn reread<T>(
    files: &FileSet,
    opts: &KaggleOptions,
    order: &[usize],
    table: &ItemTable,
    read: impl FnOnce(&Entry, &Entry, &KaggleOptions, u8) -> Read<T>,
) -> Option<Vec<T>> {
    let mut diags = Diags::new();
    let (gt, pred) = inputs::pick(files, &mut diags)?;
    let delim = inputs::delimiter(&opts.delimiter).ok()?;
    let (ids, rows) = read(gt, pred, opts, delim)?;
    if ids.len() != table.ids.len() || ids.iter().enumerate().any(|(i, id)| table.ids.get(i) != id)
    {
        return None;
    }
    let mut rows: Vec<Option<T>> = rows.into_iter().map(Some).collect();
    order.iter().map(|&r| rows[r].take()).collect()
}

/// Like [`reread`] for a value of the whole file set (one element), the ids checked against the report's.
fn reread_whole<T>(
    files: &FileSet,
    opts: &KaggleOptions,
    table: &ItemTable,
    read: impl FnOnce(&Entry, &Entry, &KaggleOptions, u8) -> Read<T>,
) -> Option<T> {
    let mut diags = Diags::new();
    let (gt, pred) = inputs::pick(files, &mut diags)?;
    let delim = inputs::delimiter(&opts.delimiter).ok()?;
    let (ids, mut one) = read(gt, pred, opts, delim)?;
    if ids.len() != table.ids.len() || ids.iter().enumerate().any(|(i, id)| table.ids.get(i) != id)
    {
        return None;
    }
    one.pop()
}

/// The formula metrics' rows read again ([`formulas::units::rows`]), in unit order.
fn reread_formulas(
    files: &FileSet,
    opts: &KaggleOptions,
    order: &[usize],
    table: &ItemTable,
) -> Option<formulas::units::Reread> {
    let mut options = None;
    let rows = reread(files, opts, order, table, |gt, pred, opts, delim| {
        let (ids, rows, o) = formulas::units::rows(gt, pred, opts, delim)?;
        options = Some(o);
        Some((ids, rows))
    })?;
    Some((Vec::new(), rows, options?))
}

/// Each id's solution and submission label sets (labels numbered in order of appearance).
fn read_tags(gt: &Entry, pred: &Entry, opts: &KaggleOptions, delim: u8) -> Read<Sets> {
    let mut codes: FxHashMap<String, u32> = FxHashMap::default();
    let mut set = |cell: &str| {
        let mut v: Vec<u32> = cell
            .split_ascii_whitespace()
            .map(|w| {
                let next = codes.len() as u32;
                *codes.entry(w.to_string()).or_insert(next)
            })
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    lists::read_pairs(gt, pred, opts, delim, &mut Diags::new(), &mut |r, at| {
        set(r.get(at.value))
    })
}

/// Each id's (inversions, n(n − 1)) of its predicted order; `None` when an order holds an unknown item.
fn read_orderings(gt: &Entry, pred: &Entry, opts: &KaggleOptions, delim: u8) -> Read<Vec<f64>> {
    let (ids, pairs) =
        lists::read_pairs(gt, pred, opts, delim, &mut Diags::new(), &mut |r, at| {
            r.get(at.value).to_string()
        })?;
    let mut rows = Vec::with_capacity(pairs.len());
    for (t, p) in &pairs {
        let t: Vec<&str> = t.split_ascii_whitespace().collect();
        let p: Vec<&str> = p.split_ascii_whitespace().collect();
        let r = ordering::ranks(&t, &p).ok()?;
        let n = t.len() as u64;
        rows.push(vec![
            ordering::inversions(&r) as f64,
            (n * n.saturating_sub(1)) as f64,
        ]);
    }
    Some((ids, rows))
}

/// `f1_micro` from summed (true positives, true labels, predicted labels); `f1_macro` from the per-label sums
/// of the drawn ids, over the labels they hold.
fn tags(b: &mut SumsBuilder, rows: Vec<Sets>) {
    let f = |tp: f64, t: f64, p: f64| {
        if t + p == 0.0 {
            0.0
        } else {
            2.0 * tp / (t + p)
        }
    };
    let mut micro = Vec::with_capacity(3 * rows.len());
    for (t, p) in &rows {
        let tp = t.iter().filter(|x| p.contains(x)).count();
        micro.extend([tp as f64, t.len() as f64, p.len() as f64]);
    }
    b.sums(
        "f1_micro",
        3,
        micro,
        Arc::new(move |s, _| Some(f(s[0], s[1], s[2]))),
    );
    let labels = rows
        .iter()
        .flat_map(|(a, p)| a.iter().chain(p))
        .map(|&c| c as usize + 1)
        .max()
        .unwrap_or(0);
    let macro_: Custom = Arc::new(move |w| {
        let mut per = vec![(0u64, 0u64, 0u64); labels];
        for ((t, p), &k) in rows.iter().zip(w) {
            let k = k as u64;
            if k == 0 {
                continue;
            }
            for &x in t {
                per[x as usize].1 += k;
                if p.contains(&x) {
                    per[x as usize].0 += k;
                }
            }
            for &x in p {
                per[x as usize].2 += k;
            }
        }
        let held: Vec<f64> = per
            .iter()
            .filter(|c| c.1 + c.2 > 0)
            .map(|c| f(c.0 as f64, c.1 as f64, c.2 as f64))
            .collect();
        crate::metrics::mean::numpy_mean(&held)
    });
    b.custom("f1_macro", macro_);
}
