//! The kws plots of docs/specs/kws.md section 8, shared by both presets.

use crate::metrics::interp::LEVELS_11;
use crate::report::{natural_cmp, Plot, Series};

/// Per-query AP as bars, highest first (ties by query id).
pub fn ap_sorted(mut aps: Vec<(&str, f64)>) -> Plot {
    aps.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| natural_cmp(a.0, b.0)));
    Plot {
        id: "ap_sorted".into(),
        kind: "bars".into(),
        title: "Per-query AP, sorted".into(),
        x_label: "query".into(),
        y_label: "AP".into(),
        labels: aps.iter().map(|b| b.0.to_string()).collect(),
        values: aps.iter().map(|b| Some(b.1)).collect(),
        series: vec![],
    }
}

/// The mean 11-point interpolated precision–recall curve.
pub fn pr11_mean(y: Vec<Option<f64>>) -> Plot {
    Plot {
        id: "pr11".into(),
        kind: "lines".into(),
        title: "11-point interpolated precision–recall (mean)".into(),
        x_label: "recall".into(),
        y_label: "precision".into(),
        labels: vec![],
        values: vec![],
        series: vec![Series {
            label: "mean".into(),
            x: LEVELS_11.to_vec(),
            y,
        }],
    }
}

/// How many queries have each number of relevant items, one bar per value from the least to the most
/// (`None` when there is no query or the range is wider than 200).
pub fn r_histogram(rs: &[u64], title: &str, x_label: &str) -> Option<Plot> {
    let (lo, hi) = (*rs.iter().min()?, *rs.iter().max()?);
    if hi - lo > 200 {
        return None;
    }
    Some(Plot {
        id: "r_hist".into(),
        kind: "histogram".into(),
        title: title.into(),
        x_label: x_label.into(),
        y_label: "queries".into(),
        labels: (lo..=hi).map(|r| r.to_string()).collect(),
        values: (lo..=hi)
            .map(|r| Some(rs.iter().filter(|x| **x == r).count() as f64))
            .collect(),
        series: vec![],
    })
}
