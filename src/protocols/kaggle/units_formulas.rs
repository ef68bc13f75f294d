//! The bootstrap's units of the single-competition formulas (the parent module, `formulas.rs`): one unit per solution id (one row
//! on each side), each metric recomputed as the published code computes it on the solution and submission in
//! which every drawn id's row appears as many times as drawn:
//!
//! - `kl_divergence`, `weighted_log_loss`, `angular_error`, `laplace_log_likelihood`: means of the report's
//!   per-row values (each metric is `np.mean`/`np.average` over rows);
//! - `lwlrap`: scikit-learn's `label_ranking_average_precision_score` weighted by each row's number of
//!   positive labels is Σ lrap·n / Σ n over the rows, so the weighted sums of (lrap·n, n);
//! - `pfbeta` (RSNA 2023's `pfbeta`): the weighted sums of the positive count, the clipped predictions of the
//!   positives and those of the negatives;
//! - `weighted_auc` (ALASKA2): scikit-learn's `roc_curve` on the repeated rows, each drawn row written as many
//!   times as drawn, then the same weighted areas;
//! - `haversine` (Google Smartphone Decimeter): each phone's 50th and 95th percentile of its repeated errors
//!   (`np.percentile`, linear), the mean over the phones that have a drawn row (pandas' `groupby` of the
//!   repeated rows knows no other phone).
//!
//! PredictionString boxes (`pstring.rs`), unit = image id: `wheat_precision` is the mean of the per-image
//! values; `box_ap`, `box_ap50`, `box_ap75`, `box_ar100` are pycocotools' stats with image weights
//! ([`crate::metrics::coco::weighted`]: the repeated files' images are the solution's order with a drawn image's
//! copies adjacent, as that module requires); `voc_ap` is VOC's AP at `iou` on the repeated files (the solution's
//! and the submission's rows of a drawn image written as many times as drawn, the copies adjacent at the row's
//! place), from the matches made once (`units_voc.rs`).

use super::{read_both, settings};
use voc::VocRanking;

/// VOC AP with image weights.
#[path = "units_voc.rs"]
mod voc;
use crate::diag::Diags;
use crate::input::Entry;
use crate::metrics::coco::weighted::WeightedEval;
use crate::metrics::coco::{Input, Params};
use crate::metrics::kaggle::{curves, geometry, probability};
use crate::metrics::mean::numpy_mean;
use crate::stats::sums::{Custom, Finish, SumsBuilder};
use std::sync::Arc;

/// What [`rows`] gives: the ids, each id's (solution numbers, submission numbers, group), (β, weights,
/// thresholds).
pub type Reread = (
    Vec<String>,
    Vec<(Vec<f64>, Vec<f64>, String)>,
    (f64, Vec<f64>, Vec<f64>),
);

/// Each id's solution and submission numbers and its group, in the solution's order, as `score` reads them,
/// and the options' β, weights and thresholds.
pub fn rows(gt: &Entry, pred: &Entry, opts: &super::KaggleOptions, delim: u8) -> Option<Reread> {
    let s = settings(opts, opts.beta.unwrap_or(1.0)).ok()?;
    let (ids, pairs) = read_both(gt, pred, opts, delim, &s.plan, &mut Diags::new())?;
    let rows = pairs
        .into_iter()
        .map(|(t, p)| (t.v, p.v, t.group))
        .collect();
    Some((ids, rows, (s.beta, s.weights, s.thresholds)))
}

/// The formula metrics where a smaller value is better.
pub const LOWER_IS_BETTER: &[&str] = &[
    "kl_divergence",
    "weighted_log_loss",
    "angular_error",
    "haversine",
];

/// Declares `metric`'s recomputation in `b`: `column(key)` gives a report column in unit order, `rows` the
/// files read again (in unit order), when the metric needs them.
pub fn declare(
    b: &mut SumsBuilder,
    metric: &str,
    column: &dyn Fn(&str) -> Option<Vec<f64>>,
    rows: &dyn Fn() -> Option<Reread>,
) {
    let mean = |b: &mut SumsBuilder, key: &str| {
        if let Some(v) = column(key) {
            b.mean(metric, v, 1.0);
        }
    };
    match metric {
        "kl_divergence" => mean(b, "kl_divergence"),
        "weighted_log_loss" => mean(b, "log_loss"),
        "angular_error" => mean(b, "angular_error"),
        "laplace_log_likelihood" => mean(b, "laplace"),
        "lwlrap" => {
            if let Some((_, rows, _)) = rows() {
                lwlrap(b, &rows);
            }
        }
        "pfbeta" => {
            if let Some((_, rows, (beta, _, _))) = rows() {
                pfbeta(b, &rows, beta);
            }
        }
        "weighted_auc" => {
            if let Some((_, rows, (_, weights, thresholds))) = rows() {
                weighted_auc(b, rows, weights, thresholds);
            }
        }
        "haversine" => {
            if let (Some(d), Some((_, rows, _))) = (column("distance_m"), rows()) {
                haversine(b, d, &rows);
            }
        }
        _ => {}
    }
}

type Rows = [(Vec<f64>, Vec<f64>, String)];

fn lwlrap(b: &mut SumsBuilder, rows: &Rows) {
    let mut data = Vec::with_capacity(2 * rows.len());
    for (t, p, _) in rows {
        let (aux, n) = probability::lrap_row(t, p);
        data.extend([aux * n, n]);
    }
    let finish: Finish = Arc::new(|s, _| (s[1] > 0.0).then(|| s[0] / s[1]));
    b.sums("lwlrap", 2, data, finish);
}

fn pfbeta(b: &mut SumsBuilder, rows: &Rows, beta: f64) {
    let mut data = Vec::with_capacity(3 * rows.len());
    for (t, p, _) in rows {
        let prediction = p[0].clamp(0.0, 1.0);
        if t[0] != 0.0 {
            data.extend([1.0, prediction, 0.0]);
        } else {
            data.extend([0.0, 0.0, prediction]);
        }
    }
    // `metrics::kaggle::probability::pfbeta` from its three sums.
    let finish: Finish = Arc::new(move |s, _| {
        let (count, ctp, cfp) = (s[0], s[1], s[2]);
        if ctp + cfp == 0.0 || count == 0.0 {
            return None;
        }
        let beta_squared = beta * beta;
        let (c_precision, c_recall) = (ctp / (ctp + cfp), ctp / count);
        Some(if c_precision > 0.0 && c_recall > 0.0 {
            (1.0 + beta_squared) * (c_precision * c_recall)
                / (beta_squared * c_precision + c_recall)
        } else {
            0.0
        })
    });
    b.sums("pfbeta", 3, data, finish);
}

fn weighted_auc(
    b: &mut SumsBuilder,
    rows: Vec<(Vec<f64>, Vec<f64>, String)>,
    weights: Vec<f64>,
    thresholds: Vec<f64>,
) {
    let pairs: Vec<(bool, f64)> = rows.iter().map(|(t, p, _)| (t[0] == 1.0, p[0])).collect();
    let f: Custom = Arc::new(move |w| {
        let (mut labels, mut scores) = (Vec::new(), Vec::new());
        for (&(l, s), &k) in pairs.iter().zip(w) {
            labels.extend(std::iter::repeat_n(l, k as usize));
            scores.extend(std::iter::repeat_n(s, k as usize));
        }
        curves::weighted_auc(&labels, &scores, &thresholds, &weights)
    });
    b.custom("weighted_auc", f);
}

fn haversine(b: &mut SumsBuilder, distances: Vec<f64>, rows: &Rows) {
    // Phones numbered in sorted order (pandas' groupby), each row's phone.
    let mut names: Vec<&str> = rows.iter().map(|r| r.2.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    let phone: Vec<usize> = rows
        .iter()
        .map(|r| names.binary_search(&r.2.as_str()).unwrap_or(0))
        .collect();
    let phones = names.len();
    let f: Custom = Arc::new(move |w| {
        let mut errors: Vec<Vec<f64>> = vec![Vec::new(); phones];
        for ((&d, &p), &k) in distances.iter().zip(&phone).zip(w) {
            errors[p].extend(std::iter::repeat_n(d, k as usize));
        }
        let scores: Vec<f64> = errors
            .iter_mut()
            .filter(|e| !e.is_empty())
            .map(|e| geometry::phone_score(e, &[50.0, 95.0]))
            .collect();
        numpy_mean(&scores)
    });
    b.custom("haversine", f);
}

/// pycocotools' AP, AP50, AP75 and AR@100 of the boxes with image weights: unit u is image `order[u]`; each
/// metric is the stats' value, as `pstring.rs` takes it from the evaluation of the repeated files; and VOC's AP
/// at `iou`.
pub fn boxes(b: &mut SumsBuilder, input: &Input, iou: f64, order: &[usize], defined: &[&str]) {
    let eval = Arc::new(WeightedEval::new(input, &Params::default()));
    let order: Arc<Vec<usize>> = Arc::new(order.to_vec());
    let by_image = {
        let (order, images) = (Arc::clone(&order), input.n_images);
        move |w: &[u32]| {
            let mut by_image = vec![0u32; images];
            for (&i, &k) in order.iter().zip(w) {
                by_image[i] = k;
            }
            by_image
        }
    };
    if defined.contains(&"voc_ap") {
        let ranking = VocRanking::new(input, iou);
        let by_image = by_image.clone();
        b.custom("voc_ap", Arc::new(move |w| ranking.map(&by_image(w))));
    }
    for (id, at) in [
        ("box_ap", 0),
        ("box_ap50", 1),
        ("box_ap75", 2),
        ("box_ar100", 8),
    ] {
        if !defined.contains(&id) {
            continue;
        }
        let (eval, by_image) = (Arc::clone(&eval), by_image.clone());
        let f: Custom = Arc::new(move |w| eval.stats(&by_image(w)).get(at).copied().flatten());
        b.custom(id, f);
    }
}
