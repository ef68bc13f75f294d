//! The report of paired items: the scores of every applicable metric, the per-item rows (id, reference(s),
//! hypothesis, per-item values, character and word edit counts), the histograms of per-item CER and WER and
//! the most frequent character confusions.

use super::inputs::Pairs;
use super::metrics::{self as table, Corpus};
use super::{not_applicable, TextOptions, ID};
use crate::budget::Budget;
use crate::diag::{Diagnostic, Diags};
use crate::items::{DetailColumn, DetailValues, Ids, ItemTable, ScoreColumn};
use crate::metrics::edit::Counts;
use crate::protocols::classification::inputs::plot;
use crate::report::{Column, Display, Label, Plot, Report};
use std::sync::Arc;

/// Separates several references in the `reference` cell.
pub const REF_SEPARATOR: &str = " ‖ ";

fn label(id: &str) -> Label {
    Label {
        id: id.into(),
        label: id.into(),
        decimals: 5,
    }
}

/// Headline `metric` null (nothing could be read).
pub fn blank(report: &mut Report, metric: &str) {
    report.scores.set(metric, None);
    report.display = Display {
        title: super::INFO.name.into(),
        headline: vec![label(metric)],
        item_label: "id".into(),
        ..Display::default()
    };
}

/// Every score null (an error blocks them).
pub fn null_scores(report: &mut Report) {
    for (_, v) in report.scores.0.iter_mut() {
        *v = None;
    }
    report.plots.clear();
}

/// Scores, rows and plots of `p`.
pub fn fill(report: &mut Report, p: &Pairs, opts: &TextOptions, budget: Budget, diags: &mut Diags) {
    let many = p.refs.iter().any(|r| r.len() != 1);
    let version = p.squad.as_ref().map(|s| s.0);
    let single = !many && version.is_none();
    let wanted = table::requested(&opts.metrics, &opts.metric).unwrap_or_default();
    let applicable: Vec<&table::Metric> = table::METRICS
        .iter()
        .filter(|m| table::applies(m, version, many))
        .filter(|m| {
            wanted
                .as_ref()
                .is_none_or(|w| w.iter().any(|id| id == m.id))
        })
        .collect();
    let rouge = applicable.iter().any(|m| m.id.starts_with("rouge"));
    if let Some(d) = super::budget::refusal(p, &applicable, budget)
        .or_else(|| super::work::refusal(p, &applicable, budget, single))
    {
        diags.push(d);
        blank(report, &opts.metric);
        return;
    }
    let (chars, words, confusions) = if single {
        table::align_all(p)
    } else {
        Default::default()
    };
    let corpus = Corpus {
        refs: &p.refs,
        hyps: &p.hyps,
        chars,
        words,
        anls_threshold: opts.anls_threshold.unwrap_or(0.5),
        squad: p.squad.as_ref().map(|(v, h)| (*v, &h[..])),
        shared: Default::default(),
    };
    let mut scores: Vec<(&str, Option<f64>)> = Vec::new();
    let mut columns: Vec<ScoreColumn> = Vec::new();
    let mut labels: Vec<Column> = Vec::new();
    // The metrics are independent: shared among the cores, results in the table's order. Those that read what
    // an earlier one computes for both (chrF++ chrF's n-gram counts) come after the others, so that no core
    // waits for another.
    let (first, after): (Vec<usize>, Vec<usize>) =
        (0..applicable.len()).partition(|&k| !applicable[k].reads_shared);
    let mut computed: Vec<Option<table::Computed>> = (0..applicable.len()).map(|_| None).collect();
    let done = crate::par::map(
        first.len(),
        || (),
        |_, k| (applicable[first[k]].compute)(&corpus),
    );
    for (k, c) in first.into_iter().zip(done) {
        computed[k] = Some(c);
    }
    for k in after {
        computed[k] = Some((applicable[k].compute)(&corpus));
    }
    let computed = computed.into_iter().flatten();
    for (m, c) in applicable.into_iter().zip(computed) {
        if let (Some(note), Some(_)) = (m.note, c.value) {
            diags.push(crate::diag::Diagnostic::new(
                crate::diag::Severity::Info,
                "text.signature",
                format!("{} signature: {}", m.id, note(&corpus)),
            ));
        }
        scores.push((m.id, c.value));
        if let (Some(key), Some(values)) = (m.item_key, c.per_item) {
            labels.push(Column::score(key, key, 5));
            columns.push(ScoreColumn {
                key: key.into(),
                values,
            });
        }
    }
    if !scores.iter().any(|(id, _)| *id == opts.metric) {
        let why = if version.is_some() {
            "the squad layout has SQuAD's metrics and anls"
        } else {
            "some item has several references"
        };
        diags.push(not_applicable(&opts.metric, why));
        scores.insert(0, (leak(&opts.metric), None));
    }
    if scores.iter().any(|(id, v)| *id == "jaccard" && v.is_none()) && !p.ids.is_empty() {
        diags.push(
            Diagnostic::warning(
                &format!("{ID}.jaccard_undefined"),
                "an item has no word on either side: jaccard is null",
            )
            .official("the published jaccard function divides by zero"),
        );
    }
    if version.is_none() && rouge {
        let ranked = opts.metric.starts_with("rouge");
        diags.extend(super::warnings::rouge_dropped_letters(p, ranked));
    }
    // The leaderboard metric first, then the others in the table's order.
    scores.sort_by_key(|(id, _)| *id != opts.metric);
    for (id, v) in &scores {
        report.scores.set(id, *v);
    }
    if single {
        add_counts(&mut columns, &mut labels, "char", &corpus.chars);
        add_counts(&mut columns, &mut labels, "word", &corpus.words);
        report.plots = plots(&columns, &confusions);
    }
    let mut display_columns = vec![
        Column::detail("reference", "reference"),
        Column::detail("hypothesis", "hypothesis"),
    ];
    display_columns.extend(labels);
    report.display = Display {
        title: super::INFO.name.into(),
        headline: scores.iter().map(|(id, _)| label(id)).collect(),
        item_label: "id".into(),
        columns: display_columns,
        footer: String::new(),
    };
    report.item_table = Some(Arc::new(items(p, columns)));
}

/// An option's text as a `'static` metric id (only ever one of the table's ids, or the usage error before).
fn leak(id: &str) -> &'static str {
    table::METRICS
        .iter()
        .map(|m| m.id)
        .find(|m| *m == id)
        .unwrap_or("cer")
}

fn add_counts(
    columns: &mut Vec<ScoreColumn>,
    labels: &mut Vec<Column>,
    level: &str,
    counts: &[Counts],
) {
    type Part = (&'static str, fn(&Counts) -> u64);
    let parts: [Part; 4] = [
        ("hits", |c| c.hits),
        ("substitutions", |c| c.substitutions),
        ("deletions", |c| c.deletions),
        ("insertions", |c| c.insertions),
    ];
    for (name, f) in parts {
        let key = format!("{level}_{name}");
        labels.push(Column::score(&key, &key, 0));
        columns.push(ScoreColumn {
            key,
            values: counts.iter().map(|c| f(c) as f64).collect(),
        });
    }
}

fn items(p: &Pairs, scores: Vec<ScoreColumn>) -> ItemTable {
    let mut ids = Ids::default();
    for id in &p.ids {
        ids.push(id);
    }
    let n = p.ids.len() as u32;
    let texts = |names: Vec<String>| DetailValues::Names {
        names,
        codes: (0..n).collect(),
    };
    ItemTable {
        ids,
        order: (0..n).collect(),
        scores,
        detail: vec![
            DetailColumn {
                key: "reference".into(),
                values: texts(p.refs.iter().map(|r| r.join(REF_SEPARATOR)).collect()),
            },
            DetailColumn {
                key: "hypothesis".into(),
                values: texts(p.hyps.clone()),
            },
        ],
    }
}

/// Histograms of the per-item CER and WER (bins of 0.05 from 0 to 1, then one bin for 1 and above) and the 20
/// most frequent character substitutions.
fn plots(columns: &[ScoreColumn], confusions: &table::Confusions) -> Vec<Plot> {
    let mut out = Vec::new();
    for key in ["cer", "wer"] {
        let Some(c) = columns.iter().find(|c| c.key == key) else {
            continue;
        };
        let mut counts = [0u64; 21];
        for &v in &c.values {
            counts[((v / 0.05) as usize).min(20)] += 1;
        }
        let upper = key.to_uppercase();
        let mut h = plot(
            &format!("{key}_histogram"),
            "histogram",
            &format!("Per-item {upper}"),
            key,
            "items",
        );
        h.labels = (0..20)
            .map(|j| format!("{:.3}", j as f64 * 0.05 + 0.025))
            .chain(["≥ 1".to_string()])
            .collect();
        h.values = counts.iter().map(|&c| Some(c as f64)).collect();
        out.push(h);
    }
    let mut top: Vec<(&(char, char), &u64)> = confusions.iter().collect();
    top.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    if !top.is_empty() {
        let mut b = plot(
            "confusions",
            "bars",
            "Most frequent character substitutions (reference → hypothesis)",
            "substitution",
            "count",
        );
        for ((r, h), n) in top.into_iter().take(20) {
            b.labels.push(format!("{} → {}", shown(*r), shown(*h)));
            b.values.push(Some(*n as f64));
        }
        out.push(b);
    }
    out
}

/// A character as a label shows it: spaces and controls by their code point.
fn shown(c: char) -> String {
    if c.is_whitespace() || c.is_control() || (c as u32) == 0x200b {
        format!("U+{:04X}", c as u32)
    } else {
        c.to_string()
    }
}
