//! The plots of docs/specs/chalearn-ce.md section 8. Per category (in the item's detail, drawn by the page when the
//! row is opened): the PR curve with its monotone envelope (series style `fill`: the shaded area is the AP),
//! the sentinel segments (`dashed`) and the raw points (`points`); the confidence histograms of positives and
//! negatives. For the whole report: AP per category sorted, and the change from official to corrected ranking.
//! Coordinates in the detail plots are display data, rounded to 4 decimals (4 significant digits for
//! confidences) and thinned to at most [`MAX_POINTS`] per series, so 100 curves stay small.

use crate::metrics::voc_ap::{envelope, Integration};
use crate::report::{natural_cmp, Plot};
use serde_json::{json, Value};

pub const MAX_POINTS: usize = 160;

fn r4(x: f64) -> f64 {
    (x * 1e4).round() / 1e4
}

/// 4 significant digits (deterministic on every target: Rust's formatting and parsing are exact).
fn sig4(x: f64) -> f64 {
    format!("{x:.3e}").parse().unwrap_or(x)
}

/// Drops points inside straight vertical or horizontal runs, then thins evenly (first and last kept).
fn thin(pts: Vec<(f64, f64)>) -> Vec<(f64, f64)> {
    let mut kept: Vec<(f64, f64)> = Vec::with_capacity(pts.len().min(4 * MAX_POINTS));
    for (i, &p) in pts.iter().enumerate() {
        if kept.last() == Some(&p) {
            continue;
        }
        if let (Some(&a), Some(&c)) = (kept.last(), pts.get(i + 1)) {
            if (a.0 == p.0 && p.0 == c.0) || (a.1 == p.1 && p.1 == c.1) {
                continue;
            }
        }
        kept.push(p);
    }
    if kept.len() <= MAX_POINTS {
        return kept;
    }
    let n = kept.len();
    (0..MAX_POINTS)
        .map(|k| kept[k * (n - 1) / (MAX_POINTS - 1)])
        .collect()
}

fn series(label: &str, style: &str, pts: &[(f64, Option<f64>)]) -> Value {
    json!({
        "label": label,
        "style": style,
        "x": pts.iter().map(|p| r4(p.0)).collect::<Vec<_>>(),
        "y": pts.iter().map(|p| p.1.map(r4)).collect::<Vec<_>>(),
    })
}

/// The PR curve of one category under the active reading.
pub fn pr_curve(
    category: &str,
    points: &[(f64, f64)],
    integration: Integration,
    sentinels: bool,
) -> Value {
    let (mrec, mpre) = envelope(points, sentinels);
    let mut env: Vec<(f64, f64)> = Vec::with_capacity(mrec.len() * 2);
    for i in 0..mrec.len() {
        if integration == Integration::Step && i > 0 {
            env.push((mrec[i - 1], mpre[i]));
        }
        env.push((mrec[i], mpre[i]));
    }
    let mut out = vec![series(
        "monotone envelope (shaded area = AP)",
        "fill",
        &thin(env)
            .into_iter()
            .map(|(x, y)| (x, Some(y)))
            .collect::<Vec<_>>(),
    )];
    let n = mrec.len();
    if sentinels && n >= 3 {
        let first = [(mrec[0], Some(mpre[0])), (mrec[1], Some(mpre[1]))];
        let last = if integration == Integration::Step {
            [(mrec[n - 2], Some(0.0)), (mrec[n - 1], Some(0.0))]
        } else {
            [
                (mrec[n - 2], Some(mpre[n - 2])),
                (mrec[n - 1], Some(mpre[n - 1])),
            ]
        };
        let mut pts = first.to_vec();
        pts.push((mrec[1], None));
        pts.extend(last);
        out.push(series("sentinel segments", "dashed", &pts));
    }
    // Raw points where recall grows (the positives), plus the last one.
    let mut raw: Vec<(f64, f64)> = Vec::new();
    for (i, &p) in points.iter().enumerate() {
        let grows = i == 0 || p.0 != points[i - 1].0;
        if grows || i + 1 == points.len() {
            raw.push(p);
        }
    }
    let raw = thin_even(raw);
    out.push(series(
        "raw precision/recall",
        "points",
        &raw.into_iter()
            .map(|(x, y)| (x, Some(y)))
            .collect::<Vec<_>>(),
    ));
    json!({
        "id": "pr_curve",
        "kind": "lines",
        "title": format!("{category}: precision–recall"),
        "x_label": "recall",
        "y_label": "precision",
        "series": out,
    })
}

fn thin_even(v: Vec<(f64, f64)>) -> Vec<(f64, f64)> {
    if v.len() <= MAX_POINTS {
        return v;
    }
    let n = v.len();
    (0..MAX_POINTS)
        .map(|k| v[k * (n - 1) / (MAX_POINTS - 1)])
        .collect()
}

/// Share of the positives and of the negatives in each of 20 confidence bins.
pub fn confidence_hist(category: &str, ranked: &[(f64, bool)]) -> Option<Value> {
    let (first, last) = (ranked.first()?, ranked.last()?);
    let (hi, lo) = (first.0, last.0);
    const BINS: usize = 20;
    let width = (hi - lo) / BINS as f64;
    let mut pos = [0u64; BINS];
    let mut neg = [0u64; BINS];
    for &(c, p) in ranked {
        let k = if width > 0.0 && width.is_finite() {
            (((c - lo) / width) as usize).min(BINS - 1)
        } else {
            0
        };
        if p {
            pos[k] += 1;
        } else {
            neg[k] += 1;
        }
    }
    let (np, nn) = (pos.iter().sum::<u64>(), neg.iter().sum::<u64>());
    let bins = if width > 0.0 && width.is_finite() {
        BINS
    } else {
        1
    };
    let centers: Vec<f64> = (0..bins)
        .map(|k| sig4(lo + (k as f64 + 0.5) * width))
        .collect();
    let share = |c: &[u64; BINS], n: u64| -> Vec<Option<f64>> {
        c[..bins]
            .iter()
            .map(|x| (n > 0).then(|| r4(*x as f64 / n as f64)))
            .collect()
    };
    Some(json!({
        "id": "confidence_hist",
        "kind": "lines",
        "title": format!("{category}: confidences of positives and negatives"),
        "x_label": "confidence (bin centre)",
        "y_label": "share of the class",
        "series": [
            { "label": format!("positives ({np})"), "x": centers, "y": share(&pos, np) },
            { "label": format!("negatives ({nn})"), "x": centers, "y": share(&neg, nn) },
        ],
    }))
}

/// AP per category, highest first (ties by name).
pub fn ap_sorted(mut aps: Vec<(&str, f64)>) -> Plot {
    aps.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| natural_cmp(a.0, b.0)));
    Plot {
        id: "ap_sorted".into(),
        kind: "bars".into(),
        title: "AP per category, sorted".into(),
        x_label: "category".into(),
        y_label: "AP".into(),
        labels: aps.iter().map(|b| b.0.to_string()).collect(),
        values: aps.iter().map(|b| Some(b.1)).collect(),
        series: vec![],
    }
}

/// Corrected-minus-official AP of the categories where the ranking rules change it, most negative first.
pub fn mode_change(mut diffs: Vec<(&str, f64)>) -> Option<Plot> {
    if diffs.is_empty() {
        return None;
    }
    diffs.sort_by(|a, b| a.1.total_cmp(&b.1).then_with(|| natural_cmp(a.0, b.0)));
    Some(Plot {
        id: "ap_official_vs_corrected".into(),
        kind: "bars".into(),
        title: "AP change, corrected − official ranking (tie groups, appended missing images)"
            .into(),
        x_label: "category".into(),
        y_label: "ΔAP".into(),
        labels: diffs.iter().map(|b| b.0.to_string()).collect(),
        values: diffs.iter().map(|b| Some(b.1)).collect(),
        series: vec![],
    })
}
