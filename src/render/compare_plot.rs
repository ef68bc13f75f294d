//! The compare view's scatter of per-unit scores (docs/specs/statistics.md section 3): each unit's own score
//! under submission A (x) against under B (y), from the protocol's [`crate::stats::units::Replicate::unit_scores`]
//! (the scores that `compare` counts wins, ties and losses from), coloured as it counts them, with the
//! diagonal A = B. A spec of kind `lines` whose series are `points`, drawn by `www/plots.js` as every plot is.
//!
//! Many units share one pair of scores (a classification row scores 0 or 1), so equal pairs are drawn once and
//! the point says how many units it stands for. Beyond [`MAX_POINTS`] distinct pairs, every k-th distinct pair in
//! unit order is drawn (k the smallest step that keeps at most [`MAX_POINTS`]), and the note says so: an SVG
//! of a million circles would stall the page, while the counts above the plot stay those of every unit.

use super::plot::{auto, spec_of, Axis, Source, SourceSeries, Spec, Table};
use crate::report::Report;
use crate::stats::interval::nearly_equal;
use rustc_hash::FxHashMap;
use serde::Serialize;

/// The most points the scatter draws.
pub const MAX_POINTS: usize = 2000;

/// The scatter and the sentence that says what it draws.
#[derive(Clone, Debug, Serialize)]
pub struct UnitScatter {
    pub spec: Spec,
    /// How many units, how many points, and whether the points are a sample.
    pub note: String,
    /// The points drawn.
    pub points: usize,
}

/// One drawn point: the first unit with this pair, the pair, and how many units have it.
struct Point {
    unit: usize,
    a: f64,
    b: f64,
    count: usize,
}

/// The scatter of A's and B's per-unit scores; `None` when the protocol has no per-unit score or the two
/// reports were not scored on the same units.
pub fn unit_scatter(a: &Report, b: &Report) -> Option<UnitScatter> {
    let (ua, ub) = (a.units.0.as_deref()?, b.units.0.as_deref()?);
    let (xa, xb) = (ua.replicate.unit_scores()?, ub.replicate.unit_scores()?);
    if xa.len() != xb.len() || xa.is_empty() {
        return None;
    }
    let unit = ua.unit;
    let distinct = distinct_pairs(&xa, &xb);
    let step = distinct.len().div_ceil(MAX_POINTS).max(1);
    let drawn: Vec<&Point> = distinct.iter().step_by(step).collect();
    let name = |p: &Point| match ua.ids.get(p.unit) {
        Some(id) => format!("{unit} {id}"),
        None => format!("{unit} #{}", p.unit + 1),
    };
    let (x_label, y_label) = (
        format!("A's score per {unit}"),
        format!("B's score per {unit}"),
    );
    let mut sides: [(Vec<&Point>, usize); 3] = Default::default();
    for (&p, &q) in xa.iter().zip(&xb) {
        sides[side(p, q)].1 += 1;
    }
    for p in &drawn {
        sides[side(p.a, p.b)].0.push(p);
    }
    let labels = ["A better", "tie", "B better"];
    let mut series: Vec<SourceSeries> = sides
        .iter()
        .zip(labels)
        .map(|((pts, units), label)| SourceSeries {
            label: format!("{label} ({units} {unit}s)"),
            x: pts.iter().map(|p| p.a).collect(),
            y: pts
                .iter()
                .map(|p| Some(p.b).filter(|v| v.is_finite()))
                .collect(),
            style: "points".into(),
        })
        .collect();
    let finite = xa.iter().chain(&xb).copied().filter(|v| v.is_finite());
    let lo = finite.clone().fold(f64::INFINITY, f64::min);
    let hi = finite.fold(f64::NEG_INFINITY, f64::max);
    if lo.is_finite() {
        series.push(SourceSeries {
            label: "A = B".into(),
            x: vec![lo, hi],
            y: vec![Some(lo), Some(hi)],
            style: "dashed".into(),
        });
    }
    let source = Source {
        id: "compare-units".into(),
        kind: "lines".into(),
        title: format!("Per-{unit} scores: A against B"),
        x_label: x_label.clone(),
        y_label: y_label.clone(),
        series,
        ..Source::default()
    };
    let mut spec = spec_of(&source);
    // One scale on both axes, so that the diagonal is the diagonal.
    spec.y = Axis {
        label: y_label.clone(),
        ..spec.x.clone()
    };
    // Each point's hover text names its unit and how many units share its pair.
    for (line, (pts, _)) in spec.series.iter_mut().zip(&sides) {
        line.markers = pts
            .iter()
            .filter(|p| p.a.is_finite() && p.b.is_finite())
            .map(|p| hover(p, &name(p), unit))
            .collect();
    }
    let n = xa.len();
    let note = note(n, distinct.len(), drawn.len(), step, unit);
    spec.summary = format!(
        "{}: scatter of {n} {unit}s' scores, A on the x axis, B on the y axis; {note}; A better on {}, tie on {}, B better on {} {unit}s",
        spec.title, sides[0].1, sides[1].1, sides[2].1
    );
    spec.data = Table {
        head: vec![unit.to_string(), "A".into(), "B".into(), format!("{unit}s")],
        rows: drawn
            .iter()
            .take(500)
            .map(|p| {
                vec![
                    name(p),
                    auto(Some(p.a)),
                    auto(Some(p.b)),
                    p.count.to_string(),
                ]
            })
            .collect(),
    };
    Some(UnitScatter {
        spec,
        note,
        points: drawn.len(),
    })
}

/// 0 where A's unit score is higher, 1 a tie (within 1e-12 relative, as `compare` counts it), 2 where B's is.
fn side(a: f64, b: f64) -> usize {
    if nearly_equal(a, b) {
        1
    } else if a > b {
        0
    } else {
        2
    }
}

/// The distinct (A, B) pairs in the order of their first unit, with their unit counts.
fn distinct_pairs(xa: &[f64], xb: &[f64]) -> Vec<Point> {
    let mut at: FxHashMap<(u64, u64), usize> = FxHashMap::default();
    let mut out: Vec<Point> = Vec::new();
    for (i, (&a, &b)) in xa.iter().zip(xb).enumerate() {
        let k = *at.entry((a.to_bits(), b.to_bits())).or_insert(out.len());
        if k == out.len() {
            out.push(Point {
                unit: i,
                a,
                b,
                count: 0,
            });
        }
        out[k].count += 1;
    }
    out
}

fn hover(p: &Point, name: &str, unit: &str) -> String {
    let more = match p.count {
        1 => String::new(),
        c => format!(" and {} more {unit}s", c - 1),
    };
    format!("{name}{more}: A {}, B {}", auto(Some(p.a)), auto(Some(p.b)))
}

/// "120 images, 118 distinct pairs of scores, each drawn once" and the sample when there are more.
fn note(n: usize, distinct: usize, drawn: usize, step: usize, unit: &str) -> String {
    let mut s = format!("{n} {unit}s, {distinct} distinct pairs of scores");
    if step > 1 {
        s.push_str(&format!(
            ", {drawn} drawn (one in every {step} distinct pairs, in {unit} order: at most {MAX_POINTS} points are drawn)"
        ));
    } else {
        s.push_str(", each drawn once");
    }
    s
}

#[cfg(test)]
#[path = "compare_plot_tests.rs"]
mod tests;
