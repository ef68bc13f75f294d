//! Every plot of a report as a spec: its kind, axes with their ticks and tick labels computed, bars, series,
//! heat-map cells, legend, an accessible summary and a data table, all texts formatted. Two small drawers draw a
//! spec, and decide nothing: `www/plots.js` on the page (at its container's width) and [`super::svg`] in
//! `detailed_results.html`.

pub use super::axis::{auto, distinct_labels, nice_axis, nice_step, shorten};
use super::axis::{round_to_12_digits, y_range};
use crate::report::Plot;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The most rows of a plot's data table.
const MAX_TABLE_ROWS: usize = 500;
/// Heat maps show their values in the cells up to this many rows.
const HEAT_VALUES_UP_TO: usize = 6;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Spec {
    pub id: String,
    /// `bars`, `histogram`, `lines`, `heatmap`; anything else is drawn as a note.
    pub kind: String,
    pub title: String,
    /// One sentence for screen readers: the kind, the count, the range and the axes.
    pub summary: String,
    pub x: Axis,
    pub y: Axis,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub bars: Vec<Bar>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub series: Vec<Line>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub legend: Vec<LegendEntry>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heat: Option<Heat>,
    pub data: Table,
}

/// An axis: its title, its domain and its ticks (for bars, `at` is a 1-based bar position).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Axis {
    pub label: String,
    pub lo: f64,
    pub hi: f64,
    pub ticks: Vec<Tick>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Tick {
    pub at: f64,
    pub text: String,
}

/// A bar: its full label, the label without the labels' common prefix (`short`), its value and its hover text.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Bar {
    pub label: String,
    pub short: String,
    pub value: Option<f64>,
    pub text: String,
}

/// A series: `points` in data units (`None` breaks the line), the colour class, the style (`fill`, `dashed`,
/// `points` or empty) and, when markers are drawn, one hover text per drawn point.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Line {
    pub label: String,
    pub class: String,
    pub style: String,
    pub points: Vec<Option<[f64; 2]>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub markers: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LegendEntry {
    pub label: String,
    pub class: String,
}

/// A heat map's n×n cells (row-major) and the runs of labels named on both axes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Heat {
    pub n: usize,
    pub cells: Vec<Cell>,
    /// Whether each cell shows its value (few rows).
    pub values_shown: bool,
    /// Runs of rows named on the axes: every row when few, else runs of one label prefix (before " #"),
    /// separated by lines.
    pub blocks: Vec<Block>,
}

/// A cell: its colour (`None`: no value, drawn empty), its value's text, and its hover text.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Cell {
    pub fill: Option<String>,
    pub text: String,
    /// Light text on a dark cell.
    pub light: bool,
    pub title: String,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Block {
    pub start: usize,
    pub end: usize,
    pub text: String,
}

/// The plot's numbers as a table (head, rows), for screen readers and copying.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Table {
    pub head: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

/// What a spec is computed from: a report's [`Plot`], or a plot object in an item's detail (the same fields,
/// and a `style` per series: `fill`, `dashed` or `points`).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct Source {
    pub id: String,
    pub kind: String,
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub labels: Vec<String>,
    pub values: Vec<Option<f64>>,
    pub series: Vec<SourceSeries>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct SourceSeries {
    pub label: String,
    pub x: Vec<f64>,
    pub y: Vec<Option<f64>>,
    pub style: String,
}

impl From<&Plot> for Source {
    fn from(p: &Plot) -> Self {
        Source {
            id: p.id.clone(),
            kind: p.kind.clone(),
            title: p.title.clone(),
            x_label: p.x_label.clone(),
            y_label: p.y_label.clone(),
            labels: p.labels.clone(),
            values: p.values.clone(),
            series: p
                .series
                .iter()
                .map(|s| SourceSeries {
                    label: s.label.clone(),
                    x: s.x.clone(),
                    y: s.y.clone(),
                    style: String::new(),
                })
                .collect(),
        }
    }
}

/// The spec of a report's plot.
pub fn spec(p: &Plot) -> Spec {
    spec_of(&Source::from(p))
}

/// The plot of an item's detail value `key`, if it is one: a plot object (kind `lines`, `bars` or `histogram`),
/// or an array of numbers, drawn as a line over its index, or as an interpolated precision–recall curve over
/// evenly spaced recall when the key names one (`pr`, `pr11`, or a key with "precision" or "recall").
pub fn detail_spec(item: &str, key: &str, v: &Value) -> Option<Spec> {
    match v {
        Value::Object(m)
            if matches!(
                m.get("kind").and_then(Value::as_str),
                Some("lines" | "bars" | "histogram")
            ) =>
        {
            serde_json::from_value::<Source>(v.clone())
                .ok()
                .map(|s| spec_of(&s))
        }
        Value::Array(a) if a.len() > 1 && a.iter().all(|x| x.is_null() || x.is_number()) => {
            let low = key.to_lowercase();
            let pr = (low.starts_with("pr") && low[2..].bytes().all(|b| b.is_ascii_digit()))
                || low.contains("precision")
                || low.contains("recall");
            let n = a.len();
            let x = (0..n).map(|i| {
                if pr {
                    i as f64 / (n - 1) as f64
                } else {
                    (i + 1) as f64
                }
            });
            let series = SourceSeries {
                label: item.to_string(),
                x: x.collect(),
                y: a.iter().map(Value::as_f64).collect(),
                style: String::new(),
            };
            Some(spec_of(&Source {
                id: format!("{item}-{key}"),
                kind: "lines".into(),
                title: if pr {
                    format!("{item}: {n}-point interpolated precision–recall")
                } else {
                    format!("{item}: {key}")
                },
                x_label: if pr { "recall" } else { "index" }.into(),
                y_label: if pr {
                    "precision".into()
                } else {
                    key.to_string()
                },
                series: vec![series],
                ..Source::default()
            }))
        }
        _ => None,
    }
}

/// The spec of `p`.
pub fn spec_of(p: &Source) -> Spec {
    let mut s = Spec {
        id: p.id.clone(),
        kind: p.kind.clone(),
        title: p.title.clone(),
        summary: summary(p),
        x: Axis::default(),
        y: Axis::default(),
        bars: Vec::new(),
        series: Vec::new(),
        legend: Vec::new(),
        heat: None,
        data: Table::default(),
    };
    match p.kind.as_str() {
        "bars" | "histogram" => bars(p, &mut s),
        "lines" => lines(p, &mut s),
        "heatmap" => heatmap(p, &mut s),
        _ => {}
    }
    s
}

fn summary(p: &Source) -> String {
    let n = p.labels.len();
    let kind = match p.kind.as_str() {
        "lines" => "line chart".to_string(),
        "histogram" => "histogram".to_string(),
        "heatmap" => format!("{n}×{n} heat map"),
        _ => "bar chart".to_string(),
    };
    let title = if p.title.is_empty() { "Plot" } else { &p.title };
    let mut parts = vec![format!("{title}: {kind}")];
    if p.kind == "lines" {
        let names: Vec<&str> = p.series.iter().take(5).map(|s| s.label.as_str()).collect();
        let more = if p.series.len() > 5 { ", …" } else { "" };
        parts.push(format!(
            "{} series ({}{more})",
            p.series.len(),
            names.join(", ")
        ));
    } else {
        parts.push(format!("{} values", p.values.len()));
        let vals: Vec<f64> = p.values.iter().flatten().copied().collect();
        if !vals.is_empty() {
            let lo = vals.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = vals.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            parts.push(format!("from {} to {}", auto(Some(lo)), auto(Some(hi))));
        }
    }
    if !p.x_label.is_empty() {
        parts.push(format!("x axis: {}", p.x_label));
    }
    if !p.y_label.is_empty() {
        parts.push(format!("y axis: {}", p.y_label));
    }
    parts.join("; ")
}

fn or<'a>(text: &'a str, fallback: &'a str) -> &'a str {
    if text.is_empty() {
        fallback
    } else {
        text
    }
}

/// Bars and histograms: one bar per value; the x ticks name a few positions (the drawer shows every label
/// instead when they fit).
fn bars(p: &Source, s: &mut Spec) {
    let hist = p.kind == "histogram";
    let n = p.values.len();
    let counts = hist && p.values.iter().flatten().all(|v| v.fract() == 0.0);
    let (lo, hi) = y_range(p.values.iter().flatten().copied(), counts);
    s.y = Axis {
        label: p.y_label.clone(),
        ..nice_axis(lo, hi, 5, counts)
    };
    let labels: Vec<String> = (0..n)
        .map(|i| {
            p.labels
                .get(i)
                .cloned()
                .unwrap_or_else(|| (i + 1).to_string())
        })
        .collect();
    let (prefix, short) = if hist {
        (String::new(), labels.clone())
    } else {
        distinct_labels(&labels)
    };
    let x_label = if prefix.is_empty() {
        p.x_label.clone()
    } else {
        format!("{} ({prefix}…)", or(&p.x_label, "label"))
    };
    let ticks = index_ticks(n, &p.labels, &short);
    s.x = Axis {
        label: x_label,
        lo: 0.0,
        hi: n as f64,
        ticks,
    };
    s.bars = p
        .values
        .iter()
        .zip(labels.into_iter().zip(short))
        .map(|(v, (label, short))| {
            let value = v.filter(|v| v.is_finite());
            let text = match value {
                Some(v) => format!("{label}: {}", auto(Some(v))),
                None => format!("{label}: no value"),
            };
            Bar {
                label,
                short,
                value,
                text,
            }
        })
        .collect();
    s.data = Table {
        head: vec![
            or(&p.x_label, "label").to_string(),
            or(&p.y_label, "value").to_string(),
        ],
        rows: s
            .bars
            .iter()
            .take(MAX_TABLE_ROWS)
            .map(|b| vec![b.label.clone(), auto(b.value)])
            .collect(),
    };
}

/// A few bar positions (1-based: the first, the last, and nice steps between), named by their bar's label
/// (`short`: without the labels' common prefix) where the plot gives labels, else by their position.
fn index_ticks(n: usize, labels: &[String], short: &[String]) -> Vec<Tick> {
    let mut ticks = Vec::new();
    if n > 0 {
        let step = nice_step(n as f64, 5);
        let mut marks = vec![1usize];
        let mut k = step;
        while k < n as f64 {
            marks.push(k.round() as usize);
            k += step;
        }
        marks.push(n);
        marks.dedup();
        for k in marks {
            // The bar's own label (a class id 0 … n − 1, a name) where the plot gives one; its position else.
            let text = match (labels.get(k - 1), short.get(k - 1)) {
                (Some(l), Some(s)) if !l.is_empty() && !s.is_empty() => shorten(s, 10),
                _ => k.to_string(),
            };
            ticks.push(Tick { at: k as f64, text });
        }
    }
    ticks
}

/// Whether a series of many is drawn strongly: the mean (or "all", "average") over the others.
fn emphasised(label: &str) -> bool {
    let l = label.to_lowercase();
    ["mean", "all", "average"].iter().any(|w| l.contains(w))
}

/// Lines: nice axes over every series, one colour class per series (up to 8; with more, the means strong and
/// the rest faint), markers on short emphasised series, and a legend when there are several.
fn lines(p: &Source, s: &mut Spec) {
    let xs = p.series.iter().flat_map(|se| se.x.iter().copied());
    let xs: Vec<f64> = xs.filter(|x| x.is_finite()).collect();
    let (lo, hi) = y_range(
        p.series
            .iter()
            .flat_map(|se| se.y.iter().flatten().copied()),
        false,
    );
    s.y = Axis {
        label: p.y_label.clone(),
        ..nice_axis(lo, hi, 5, false)
    };
    let xmin = xs.iter().copied().fold(f64::INFINITY, f64::min);
    let xmax = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let (xmin, xmax) = if xs.is_empty() {
        (0.0, 1.0)
    } else {
        (xmin, xmax)
    };
    s.x = Axis {
        label: p.x_label.clone(),
        ..nice_axis(xmin, if xmax == xmin { xmin + 1.0 } else { xmax }, 6, false)
    };
    let many = p.series.len() > 8;
    s.series = p
        .series
        .iter()
        .enumerate()
        .map(|(k, se)| line(p, se, k, many))
        .collect();
    if p.series.len() > 1 {
        let shown = s.series.iter().filter(|l| !many || emphasised(&l.label));
        s.legend = shown
            .take(10)
            .map(|l| LegendEntry {
                label: l.label.clone(),
                class: l.class.clone(),
            })
            .collect();
        let hidden = p.series.iter().filter(|se| !emphasised(&se.label)).count();
        if many {
            s.legend.push(LegendEntry {
                label: format!("{hidden} more series"),
                class: "series-faint".into(),
            });
        }
    }
    let cols = &p.series[..p.series.len().min(12)];
    let mut head = vec![or(&p.x_label, "x").to_string()];
    head.extend(cols.iter().map(|se| se.label.clone()));
    let xs0 = p.series.first().map_or(&[][..], |se| &se.x[..]);
    let rows = xs0.iter().take(MAX_TABLE_ROWS).enumerate().map(|(i, x)| {
        let mut row = vec![auto(Some(*x))];
        row.extend(cols.iter().map(|se| auto(se.y.get(i).copied().flatten())));
        row
    });
    s.data = Table {
        head,
        rows: rows.collect(),
    };
}

fn line(p: &Source, se: &SourceSeries, k: usize, many: bool) -> Line {
    let strong = !many || emphasised(&se.label);
    let class = match (many, strong) {
        (false, _) => format!("series-{}", k % 8),
        (true, true) => "series-0".into(),
        (true, false) => "series-faint".into(),
    };
    let points: Vec<Option<[f64; 2]>> =
        se.x.iter()
            .enumerate()
            .map(|(i, &x)| {
                let y = se.y.get(i).copied().flatten();
                y.filter(|y| y.is_finite() && x.is_finite()).map(|y| [x, y])
            })
            .collect();
    let style = se.style.clone();
    let drawn = points.iter().flatten().count();
    let markers =
        style == "points" || (strong && drawn <= 30 && style != "dashed" && style != "fill");
    let label = if se.label.is_empty() {
        format!("series {}", k + 1)
    } else {
        se.label.clone()
    };
    let named = if se.label.is_empty() {
        String::new()
    } else {
        format!("{}: ", se.label)
    };
    let (xl, yl) = (or(&p.x_label, "x"), or(&p.y_label, "y"));
    Line {
        label,
        class,
        markers: if markers {
            let pts = points.iter().flatten();
            pts.map(|[x, y]| format!("{named}{xl} {}, {yl} {}", auto(Some(*x)), auto(Some(*y))))
                .collect()
        } else {
            Vec::new()
        },
        style,
        points,
    }
}

/// A heat map: `labels` name the n rows and columns, `values` the n×n cells row-major. Darker is larger.
fn heatmap(p: &Source, s: &mut Spec) {
    let n = p.labels.len();
    let finite: Vec<f64> = p
        .values
        .iter()
        .flatten()
        .copied()
        .filter(|v| v.is_finite())
        .collect();
    let lo = finite.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = finite.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let (row, col) = (or(&p.y_label, "row"), or(&p.x_label, "column"));
    let cells = (0..n * n)
        .map(|k| {
            let v = p.values.get(k).copied().flatten().filter(|v| v.is_finite());
            let t = v.map_or(0.0, |v| if hi > lo { (v - lo) / (hi - lo) } else { 0.5 });
            let (i, j) = (k / n, k % n);
            let text = v.map_or("no value".to_string(), |v| auto(Some(v)));
            Cell {
                fill: v.map(|_| format!("hsl(214 70% {}%)", round_to_12_digits(94.0 - 62.0 * t))),
                title: format!("{row} {}, {col} {}: {text}", p.labels[i], p.labels[j]),
                text: if v.is_some() { text } else { String::new() },
                light: t > 0.55,
            }
        })
        .collect();
    let values_shown = n <= HEAT_VALUES_UP_TO;
    let blocks = if values_shown {
        let each = p.labels.iter().enumerate();
        each.map(|(k, l)| Block {
            start: k,
            end: k + 1,
            text: shorten(l, 12),
        })
        .collect()
    } else {
        prefix_blocks(&p.labels)
    };
    s.x.label = if p.x_label.is_empty() {
        String::new()
    } else {
        format!("{} →", p.x_label)
    };
    s.y.label = if p.y_label.is_empty() {
        String::new()
    } else {
        format!("← {}", p.y_label)
    };
    s.heat = Some(Heat {
        n,
        cells,
        values_shown,
        blocks,
    });
    let shown = &p.labels[..n.min(60)];
    let mut head = vec![format!("{row} \\ {col}")];
    head.extend(shown.iter().cloned());
    let rows = shown.iter().enumerate().map(|(i, l)| {
        let mut r = vec![l.clone()];
        r.extend((0..shown.len()).map(|j| auto(p.values.get(i * n + j).copied().flatten())));
        r
    });
    s.data = Table {
        head,
        rows: rows.collect(),
    };
}

/// Runs of equal label prefixes (the text before " #").
fn prefix_blocks(labels: &[String]) -> Vec<Block> {
    let prefix = |l: &str| l.split(" #").next().unwrap_or("").to_string();
    let mut out = Vec::new();
    let mut start = 0;
    for k in 1..=labels.len() {
        if k == labels.len() || prefix(&labels[k]) != prefix(&labels[start]) {
            out.push(Block {
                start,
                end: k,
                text: shorten(&prefix(&labels[start]), 14),
            });
            start = k;
        }
    }
    out
}

#[cfg(test)]
#[path = "plot_tests.rs"]
mod tests;
