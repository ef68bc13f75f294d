//! The `trec` report's parts: the `all` headline, one item per query, the plots (AP per query, the mean
//! interpolated precision-recall curve, num_rel histogram, paired ΔAP per further run) and the display.

use super::{QueryResult, RunResult, Settings};
use crate::formats::trec::QrelsQuery;
use crate::metrics::trec::{self as m, Family, Measure};
use crate::protocols::kws::plots as kws_plots;
use crate::report::{natural_cmp, Column, Display, Item, Label, Plot, Scores};
use serde_json::{json, Map, Value};

/// The `all` values of one run, in measure order (runid excluded).
pub(super) fn headline(
    s: &Settings,
    results: &[QueryResult],
    divisor: usize,
    blocked: bool,
) -> Scores {
    let mut scores = Scores::new();
    let measures = s.scored_measures();
    for (k, meas) in measures.iter().enumerate() {
        let v = if blocked || divisor == 0 {
            None
        } else if meas.family == Family::NumRel && s.complete {
            // trec_eval -c: every qrels line with rel > 0, whatever relevance_level (m_num_rel.c).
            Some(results.iter().map(|r| r.positive_lines as f64).sum::<f64>())
        } else {
            let vals: Vec<f64> = results
                .iter()
                .filter(|r| r.in_sum)
                .filter_map(|r| r.values.as_ref().and_then(|v| v.get(k).copied()))
                .collect();
            Some(m::mean(meas, &vals, divisor))
        };
        scores.set(&meas.name(), v);
    }
    scores
}

pub(super) fn items(s: &Settings, f: &RunResult) -> Vec<Item> {
    let measures = s.scored_measures();
    let mut items: Vec<Item> = f
        .queries
        .iter()
        .map(|q| {
            let mut sc = Scores::new();
            for (k, meas) in measures.iter().enumerate() {
                if meas.per_query() {
                    sc.set(
                        &meas.name(),
                        q.values.as_ref().and_then(|v| v.get(k).copied()),
                    );
                }
            }
            let mut d = Map::new();
            d.insert("num_rel".into(), json!(q.num_rel));
            d.insert("num_ret".into(), json!(q.num_ret));
            d.insert("num_rel_ret".into(), json!(q.num_rel_ret));
            d.insert("in_gt".into(), json!(q.in_gt));
            d.insert("in_results".into(), json!(q.in_results));
            d.insert("evaluated".into(), json!(q.evaluated));
            if let Some(l) = q.line {
                d.insert("line".into(), json!(l));
            }
            if q.evaluated && q.in_results {
                d.insert("hit_strip".into(), json!(q.hit_strip));
            }
            d.insert(
                "pr11".into(),
                q.iprec.map_or(Value::Null, |p| json!(p.map(finite))),
            );
            Item {
                id: q.qid.clone(),
                group: None,
                scores: sc,
                detail: d,
            }
        })
        .collect();
    items.sort_by(|a, b| natural_cmp(&a.id, &b.id));
    items
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

pub(super) fn plots(s: &Settings, f: &RunResult, qrels: &[QrelsQuery]) -> Vec<Plot> {
    let aps: Vec<(&str, f64)> = f
        .queries
        .iter()
        .filter(|q| q.evaluated && q.in_results)
        .filter_map(|q| q.ap.map(|v| (q.qid.as_str(), v)))
        .collect();
    let mut plots = vec![kws_plots::ap_sorted(aps)];
    // The mean interpolated precision-recall curve, averaged as trec_eval averages iprec_at_recall.
    let divisor = if s.complete {
        qrels.len()
    } else {
        f.queries.iter().filter(|q| q.evaluated).count()
    };
    if divisor > 0 && !f.blocked {
        let y: Vec<Option<f64>> = (0..11)
            .map(|l| {
                let vals: Vec<f64> = f
                    .queries
                    .iter()
                    .filter(|q| q.in_sum)
                    .filter_map(|q| q.iprec.map(|p| p[l]))
                    .collect();
                finite(m::mean(
                    &Measure::cut(Family::IprecAtRecall, 0),
                    &vals,
                    divisor,
                ))
            })
            .collect();
        plots.push(kws_plots::pr11_mean(y));
    }
    let rs: Vec<u64> = f
        .queries
        .iter()
        .filter(|q| q.in_gt)
        .filter_map(|q| q.num_rel)
        .collect();
    plots.extend(kws_plots::r_histogram(
        &rs,
        "Relevant documents per query (num_rel)",
        "num_rel",
    ));
    plots
}

/// Per-query AP of a further run minus that of the first run, on the queries both evaluate.
pub(super) fn paired_plot(first: &RunResult, other: &RunResult, path: &str) -> Plot {
    let mut pairs: Vec<(&str, f64)> = Vec::new();
    for q in other.queries.iter().filter(|q| q.evaluated && q.in_results) {
        let base = first
            .queries
            .iter()
            .find(|b| b.qid == q.qid && b.evaluated && b.in_results)
            .and_then(|b| b.ap);
        if let (Some(a), Some(b)) = (q.ap, base) {
            pairs.push((q.qid.as_str(), a - b));
        }
    }
    pairs.sort_by(|a, b| natural_cmp(a.0, b.0));
    Plot {
        id: format!("paired_diff:{path}"),
        kind: "bars".into(),
        title: format!(
            "AP of {} minus AP of {}, per query",
            other.runid, first.runid
        ),
        x_label: "query".into(),
        y_label: "ΔAP".into(),
        labels: pairs.iter().map(|p| p.0.to_string()).collect(),
        values: pairs.iter().map(|p| Some(p.1)).collect(),
        series: vec![],
    }
}

pub(super) fn display(s: &Settings, runid: &str) -> Display {
    let measures = s.scored_measures();
    let headline = measures
        .iter()
        .map(|meas| Label {
            id: meas.name(),
            label: meas.name(),
            decimals: if meas.is_count() { 0 } else { 4 },
        })
        .collect();
    let mut columns = vec![
        Column::detail("num_rel", "num_rel"),
        Column::detail("num_ret", "num_ret"),
        Column::detail("num_rel_ret", "num_rel_ret"),
    ];
    for meas in measures.iter().filter(|m| m.per_query() && !m.is_count()) {
        columns.push(Column::score(&meas.name(), &meas.name(), 4));
    }
    let mut footer = format!(
        "as trec_eval {} computes it (relevance_level {}",
        s.version_name(),
        s.level
    );
    if s.complete {
        footer.push_str(", -c");
    }
    if let Some(d) = s.depth {
        footer.push_str(&format!(", -M {d}"));
    }
    footer.push(')');
    if s.file_order {
        footer.push_str("; ties in file order (deviates from trec_eval)");
    }
    Display {
        title: format!("trec_eval (run {runid})"),
        headline,
        item_label: "query".into(),
        columns,
        footer,
    }
}
