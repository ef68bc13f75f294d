//! The falsid report (docs/specs/falsid.md 8): headline, per-subset groups, per-sample items, plots, and the
//! text output (4 decimals and a percentage with 2).

use super::compute::SubsetResult;
use super::options::{ConfusionConvention, FalsidOptions, Headline, MissingPrediction};
use crate::metrics::falsid::{mean_over_subsets, Confusion};
use crate::report::{
    natural_cmp, Column, Display, Group, Item, Label, Mode, Plot, Report, Scores, Series,
};
use serde_json::{json, Map, Value};

/// The class scores of the report (and of each subset), in report order: mean per-subset accuracy, UAR,
/// pooled macro recall, pooled accuracy; then one `top{k}` per cut-off ([`top_id`]).
pub const CLASS_IDS: [&str; 4] = ["accuracy", "uar", "pooled_macro_recall", "pooled_accuracy"];

/// The score id of the top-k accuracy at cut-off `k`.
pub fn top_id(k: usize) -> String {
    format!("top{k}")
}

const ACC_LABEL: &str = "Overall: mean per-subset accuracy (page formula)";
const UAR_LABEL: &str = "Overall: mean per-subset balanced accuracy (UAR)";
const PMR_LABEL: &str = "Pooled macro recall (all items)";
const PACC_LABEL: &str = "Pooled accuracy (all items)";

fn headline_id(opts: &FalsidOptions) -> &'static str {
    match opts.headline {
        Headline::SubsetBalancedAccuracy => "uar",
        Headline::PooledMacroRecall => "pooled_macro_recall",
        Headline::PooledAccuracy => "pooled_accuracy",
        Headline::SubsetAccuracy => "accuracy",
    }
}

fn class_name(c: u8) -> &'static str {
    if c == 0 {
        "authentic"
    } else {
        "imitation"
    }
}

pub fn build(
    mode: Mode,
    opts: &FalsidOptions,
    ks: &[usize],
    results: &[SubsetResult],
    has_pred: bool,
) -> Report {
    let mut report = Report::new("falsid", mode);
    let page = opts.confusion_convention == ConfusionConvention::Page;
    let mut pooled = Confusion::default();
    for r in results {
        pooled.add(&r.confusion);
    }
    let accs: Vec<Option<f64>> = results.iter().map(|r| r.confusion.accuracy()).collect();
    let bas: Vec<Option<f64>> = results
        .iter()
        .map(|r| r.confusion.balanced_accuracy())
        .collect();
    let with_matrix: Vec<&SubsetResult> = results.iter().filter(|r| r.has_matrix).collect();
    let mut scores = Scores::new();
    let cls = |v: Option<f64>| if has_pred { v } else { None };
    let class_values = [
        mean_over_subsets(&accs),
        mean_over_subsets(&bas),
        pooled.balanced_accuracy(),
        pooled.accuracy(),
    ];
    for (id, v) in CLASS_IDS.iter().zip(class_values) {
        scores.set(id, cls(v));
    }
    for (i, k) in ks.iter().enumerate() {
        let v: Vec<Option<f64>> = with_matrix.iter().map(|r| r.topk[i]).collect();
        scores.set(&top_id(*k), mean_over_subsets(&v));
    }
    report.scores = scores;
    report.groups = results
        .iter()
        .map(|r| group(r, ks, has_pred, page))
        .collect();
    report.groups.sort_by(|a, b| natural_cmp(&a.id, &b.id));
    let exclude = opts.missing_prediction == MissingPrediction::Exclude;
    for r in results {
        for (gi, (id, y, p)) in r.items.iter().enumerate() {
            let correct = match p {
                Some(p) => Some(f64::from(u8::from(p == y))),
                None if has_pred && !exclude => Some(0.0),
                None => None,
            };
            report.items.push(Item {
                id: id.clone(),
                group: Some(r.name.clone()),
                scores: Scores::new().with("correct", correct),
                detail: item_detail(r, gi, has_pred),
            });
        }
    }
    report.items.sort_by(|a, b| {
        natural_cmp(&a.id, &b.id).then_with(|| {
            natural_cmp(
                a.group.as_deref().unwrap_or(""),
                b.group.as_deref().unwrap_or(""),
            )
        })
    });
    report.display = display(opts, ks, page);
    report.plots = plots(results, has_pred, page);
    report
}

/// One subset's group: its readings, Top-k, counts (FP/FN as the convention `page` names them) and rates.
fn group(r: &SubsetResult, ks: &[usize], has_pred: bool, page: bool) -> Group {
    let cls = |v: Option<f64>| if has_pred { v } else { None };
    let c = &r.confusion;
    let (fp, fn_) = if page { (c.fn_, c.fp) } else { (c.fp, c.fn_) };
    let mut s = Scores::new();
    let class_values = [
        c.accuracy(),
        c.balanced_accuracy(),
        c.balanced_accuracy(),
        c.accuracy(),
    ];
    for (id, v) in CLASS_IDS.iter().zip(class_values) {
        s.set(id, cls(v));
    }
    for (i, k) in ks.iter().enumerate() {
        s.set(&top_id(*k), r.topk.get(i).copied().flatten());
    }
    let cnt = |x: u64| if has_pred { Some(x as f64) } else { None };
    s = s
        .with("n", Some(r.items.len() as f64))
        .with("tp", cnt(c.tp))
        .with("fp", cnt(fp))
        .with("fn", cnt(fn_))
        .with("tn", cnt(c.tn))
        .with("precision", cls(c.precision()))
        .with("recall", cls(c.recall()))
        .with("specificity", cls(c.specificity()));
    Group {
        id: r.name.clone(),
        scores: s,
    }
}

/// The detail of item `gi` of a subset: GT and predicted class, the result, and with a matrix its first
/// same-class rank and nearest neighbours.
fn item_detail(r: &SubsetResult, gi: usize, has_pred: bool) -> Map<String, Value> {
    let (_, y, p) = &r.items[gi];
    let mut d = Map::new();
    d.insert("gt".into(), json!(class_name(*y)));
    d.insert(
        "pred".into(),
        match p {
            Some(p) => json!(class_name(*p)),
            None if has_pred => json!("missing"),
            None => Value::Null,
        },
    );
    d.insert(
        "result".into(),
        match (p, has_pred) {
            (_, false) => Value::Null,
            (None, true) => json!("missing"),
            (Some(p), true) => json!(if p == y { "ok" } else { "error" }),
        },
    );
    if r.has_matrix {
        d.insert(
            "rank".into(),
            r.ranks
                .get(gi)
                .copied()
                .flatten()
                .map_or(Value::Null, |x| json!(x)),
        );
        let nn = r.neighbours.get(gi).cloned().unwrap_or_default();
        let text: Vec<String> = nn
            .iter()
            .map(|(j, dist)| {
                let (nid, ny, _) = &r.items[*j];
                format!("{nid} ({}, {})", fmt_dist(*dist), class_name(*ny))
            })
            .collect();
        d.insert("neighbours".into(), json!(text.join("; ")));
        d.insert(
            "nn".into(),
            Value::Array(
                nn.iter()
                    .map(|(j, dist)| json!([r.items[*j].0, num(*dist), r.items[*j].1]))
                    .collect(),
            ),
        );
    }
    d
}

/// The headline (the reading the options name first, then Top-k), the columns and the footer.
fn display(opts: &FalsidOptions, ks: &[usize], page: bool) -> Display {
    let active = headline_id(opts);
    let mut labels = [
        ("accuracy", ACC_LABEL),
        ("uar", UAR_LABEL),
        ("pooled_macro_recall", PMR_LABEL),
        ("pooled_accuracy", PACC_LABEL),
    ];
    labels.sort_by_key(|(id, _)| *id != active);
    let mut headline: Vec<Label> = labels
        .iter()
        .map(|(id, l)| Label {
            id: id.to_string(),
            label: l.to_string(),
            decimals: 4,
        })
        .collect();
    for k in ks {
        headline.push(Label {
            id: format!("top{k}"),
            label: format!("Top-{k} (same class among the {k} nearest)"),
            decimals: 4,
        });
    }
    Display {
        title: format!("ICDAR 2026 FalsID · headline: {}", labels[0].1),
        headline,
        item_label: "sample".into(),
        columns: vec![
            Column::score("correct", "correct", 0),
            Column::detail("gt", "GT"),
            Column::detail("pred", "prediction"),
            Column::detail("result", "result"),
            Column::detail("rank", "first same-class rank"),
            Column::detail("neighbours", "nearest (distance, GT)"),
        ],
        footer: format!(
            "Positive class = imitation (1). {} No official scorer is published: official = the evaluation page's formula.",
            if page { "FP/FN follow the evaluation page's legend (fp = imitation taken for authentic)." } else { "FP = authentic taken for imitation, FN = imitation taken for authentic." }
        ),
    }
}

fn num(x: f64) -> Value {
    serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number)
}

fn fmt_dist(x: f64) -> String {
    if x.is_finite() {
        let s = format!("{x:.4}");
        s
    } else {
        "inf".into()
    }
}

fn plots(results: &[SubsetResult], has_pred: bool, page: bool) -> Vec<Plot> {
    let mut out = Vec::new();
    if has_pred {
        prediction_plots(results, page, &mut out);
    }
    distance_plots(results, &mut out);
    if let Some(p) = topk_curve(results) {
        out.push(p);
    }
    out
}

/// A plot with no data yet.
fn empty_plot(id: String, kind: &str, title: String, x: &str, y: &str) -> Plot {
    Plot {
        id,
        kind: kind.into(),
        title,
        x_label: x.into(),
        y_label: y.into(),
        labels: vec![],
        values: vec![],
        series: vec![],
    }
}

/// Per-subset accuracy against balanced accuracy, and each subset's confusion matrix.
fn prediction_plots(results: &[SubsetResult], page: bool, out: &mut Vec<Plot>) {
    let mut p = empty_plot(
        "acc_vs_ba".into(),
        "bars",
        "Per-subset accuracy vs balanced accuracy".into(),
        "subset",
        "score",
    );
    for r in results {
        p.labels.push(format!("{} acc", r.name));
        p.values.push(r.confusion.accuracy());
        p.labels.push(format!("{} BA", r.name));
        p.values.push(r.confusion.balanced_accuracy());
    }
    out.push(p);
    for r in results {
        let c = &r.confusion;
        let mut p = empty_plot(
            format!("confusion_{}", r.name),
            "heatmap",
            format!(
                "Confusion, {} (rows GT, columns prediction; positive = imitation{})",
                r.name,
                if page { ", page naming" } else { "" }
            ),
            "prediction",
            "GT",
        );
        p.labels = vec!["authentic".into(), "imitation".into()];
        p.values = [c.tn, c.fp, c.fn_, c.tp]
            .iter()
            .map(|x| Some(*x as f64))
            .collect();
        out.push(p);
    }
}

/// Each subset's distance heat map (block means), then each subset's same-class / other-class histogram.
fn distance_plots(results: &[SubsetResult], out: &mut Vec<Plot>) {
    for r in results {
        if let Some((labels, vals)) = &r.heat {
            let mut p = empty_plot(
                format!("distance_{}", r.name),
                "heatmap",
                format!("Distances, {} (ordered by GT class; block means)", r.name),
                "item",
                "query",
            );
            p.labels = labels.clone();
            p.values = vals.clone();
            out.push(p);
        }
    }
    for r in results {
        if let Some((x, same, other)) = &r.hist {
            let mut p = empty_plot(
                format!("dist_hist_{}", r.name),
                "lines",
                format!("Distance histogram, {}: same class vs other class", r.name),
                "distance",
                "fraction of pairs",
            );
            let series = |label: &str, y: &Vec<Option<f64>>| Series {
                label: label.into(),
                x: x.clone(),
                y: y.clone(),
            };
            p.series = vec![series("same class", same), series("other class", other)];
            out.push(p);
        }
    }
}

/// Top-k against k = 1 … N − 1 for every subset with a distance matrix (every k up to 300, else the first 100
/// and 200 more spread evenly); `None` when no subset has one.
fn topk_curve(results: &[SubsetResult]) -> Option<Plot> {
    let with: Vec<&SubsetResult> = results.iter().filter(|r| r.has_matrix).collect();
    if with.is_empty() {
        return None;
    }
    let mut p = empty_plot(
        "topk_curve".into(),
        "lines",
        "Top-k curve (k = 1 … N − 1)".into(),
        "k",
        "Top-k",
    );
    for r in &with {
        let n = r.ranks.len();
        let kmax = n.saturating_sub(1).max(1);
        let ks: Vec<usize> = if kmax <= 300 {
            (1..=kmax).collect()
        } else {
            (1..=100)
                .chain((1..=200).map(|i| 100 + i * (kmax - 100) / 200))
                .collect()
        };
        let counted = r.ranks.len().max(1);
        let mut sorted: Vec<usize> = r.ranks.iter().flatten().copied().collect();
        sorted.sort_unstable();
        let y = ks
            .iter()
            .map(|&k| {
                let hits = sorted.partition_point(|&x| x <= k);
                Some(hits as f64 / counted as f64)
            })
            .collect();
        p.series.push(Series {
            label: r.name.clone(),
            x: ks.iter().map(|&k| k as f64).collect(),
            y,
        });
    }
    Some(p)
}

/// One plain line per step where the official and the corrected report differ, with one example sample.
pub fn explain(official: &Report, corrected: &Report) -> Vec<String> {
    let mut lines = Vec::new();
    let first_id = |r: &Report| {
        r.display
            .headline
            .first()
            .map(|l| l.id.clone())
            .unwrap_or_default()
    };
    let (oh, ch) = (first_id(official), first_id(corrected));
    if oh != ch {
        let f = |r: &Report, id: &str| {
            r.scores
                .get(id)
                .map_or("null".to_string(), |v| format!("{v:.4}"))
        };
        lines.push(format!(
            "Headline: official = {oh} {} (the page's formula, mean per-subset accuracy); corrected = {ch} {} (the UAR / balanced accuracy the page names, per subset then averaged). \
             Choosing the headline measure: the two modes report different measures of the same predictions.",
            f(official, &oh),
            f(corrected, &ch)
        ));
    }
    for g in &official.groups {
        if let (Some(a), Some(b)) = (g.scores.get("accuracy"), g.scores.get("uar")) {
            if (a - b).abs() > 5e-5 {
                let of = |class: &str| {
                    official
                        .items
                        .iter()
                        .filter(|i| i.group.as_deref() == Some(g.id.as_str()))
                        .filter(|i| i.detail.get("gt").and_then(|v| v.as_str()) == Some(class))
                        .collect::<Vec<_>>()
                };
                let (auth, imit) = (of("authentic"), of("imitation"));
                let minority = if imit.len() <= auth.len() {
                    &imit
                } else {
                    &auth
                };
                let example = minority
                    .iter()
                    .find(|i| i.scores.get("correct") == Some(0.0))
                    .map_or(String::new(), |i| {
                        let said = |k: &str| {
                            i.detail
                                .get(k)
                                .and_then(|v| v.as_str())
                                .unwrap_or("?")
                                .to_string()
                        };
                        format!(
                            " Example: `{}` is {} and was predicted {}.",
                            i.id,
                            said("gt"),
                            said("pred")
                        )
                    });
                lines.push(format!(
                    "{}: accuracy {a:.4} vs balanced accuracy {b:.4} (class imbalance: accuracy rewards the majority class). \
                     Averaging over samples or over classes: the subset has {} authentic and {} imitation samples; \
                     accuracy counts every sample alike, balanced accuracy gives both classes equal weight.{example}",
                    g.id,
                    auth.len(),
                    imit.len()
                ));
            }
        }
    }
    if lines.is_empty() && !official.official_fails {
        lines.push("Both modes agree on this input (to the printed decimals).".to_string());
    }
    lines
}

fn fmt(v: Option<f64>) -> String {
    match v {
        Some(x) => format!("{x:.4}  ({:.2} %)", x * 100.0),
        None => "null".into(),
    }
}

/// Text output: the headline with its labels, then the per-subset table.
pub fn render_text(report: &Report) -> String {
    let mut s = format!("FalsID ({} mode)\n", report.mode.as_str());
    for (i, l) in report.display.headline.iter().enumerate() {
        let mark = if i == 0 { "  <- headline" } else { "" };
        s.push_str(&format!(
            "{:<52} {:<10} {}{mark}\n",
            l.label,
            l.id,
            fmt(report.scores.get(&l.id))
        ));
    }
    let keys: Vec<String> = report
        .groups
        .first()
        .map(|g| g.scores.iter().map(|(k, _)| k.to_string()).collect())
        .unwrap_or_default();
    if !keys.is_empty() {
        s.push_str("\nsubset");
        for k in &keys {
            s.push_str(&format!("\t{k}"));
        }
        s.push('\n');
        for g in &report.groups {
            s.push_str(&g.id);
            for k in &keys {
                let v = g.scores.get(k);
                let int = matches!(k.as_str(), "n" | "tp" | "fp" | "fn" | "tn");
                s.push_str(&match v {
                    Some(x) if int => format!("\t{x}"),
                    Some(x) => format!("\t{x:.4}"),
                    None => "\tnull".into(),
                });
            }
            s.push('\n');
        }
    }
    s
}
