//! The `icfhr14` report's parts for one run: items per query, the headline means (rusteval's binary32 mean in
//! official mode), the plots, the trec_eval-equivalent and results-only readings, and the display.

use super::{units, EmptyGt, Scored, Settings};
use crate::diag::{Diagnostic, Diags};
use crate::metrics::rusteval;
use crate::protocols::kws::gtindex::GtIndex;
use crate::protocols::kws::plots;
use crate::report::{natural_cmp, Column, Display, Item, Label, Mode, Plot, Reading, Scores};
use crate::stats::units::Slot;
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, HashMap};

/// What the queries in the mean add up: their values (binary64 and rusteval's binary32), those of the queries
/// with a results block only, their trec_eval-equivalent rows and their 11-point PR curves.
#[derive(Default)]
struct Sums<'a> {
    rows: Vec<Vec<Option<f64>>>,
    rows_f32: Vec<Vec<Option<f32>>>,
    results_only: Vec<Vec<Option<f64>>>,
    results_only_f32: Vec<Vec<Option<f32>>>,
    trec_rows: Vec<&'a Vec<(String, f64)>>,
    pr_sum: [f64; 11],
    pr_n: usize,
    /// Each GT query with its row of the mean (none when it is not in the mean): the bootstrap's units.
    units: Vec<(String, Option<units::Row>)>,
}

/// Items, headline means and plots for one run.
pub(super) fn assemble(
    index: &GtIndex,
    scored: &HashMap<String, Scored>,
    s: &Settings,
    file: &str,
    diags: &mut Diags,
    warn: bool,
) -> (Scores, Vec<Item>, Vec<Plot>, Vec<Reading>, Slot) {
    let nv = s.ks.len() + 1;
    // Queries in the mean, in rusteval's summing order (ascending byte order of query id).
    let mut all: BTreeMap<&str, (Option<&Scored>, bool)> = BTreeMap::new();
    for q in index.queries() {
        all.insert(q, (scored.get(q), true));
    }
    for (q, sc) in scored {
        all.entry(q.as_str()).or_insert((Some(sc), false));
    }
    let mut sums = Sums::default();
    let mut items = Vec::new();
    for (q, (sc, in_gt)) in &all {
        let r = index.get(q).map_or(0, |g| g.relevant);
        let excluded = r == 0 && s.empty == EmptyGt::Exclude && *in_gt;
        let before = sums.rows.len();
        let (values, detail) = match sc {
            Some(sc) => with_results(sc, *in_gt, excluded, nv, &mut sums),
            None => {
                if warn {
                    diags.push(
                        Diagnostic::warning("kws.results.missing_query", format!("GT query `{q}` has no results block"))
                            .file(file)
                            .hint(if s.complete { "It counts 0 in every metric (complete averaging)." } else { "It is left out of the mean, as rusteval does; set complete=true to count it as 0." })
                            .official("silently left out of the mean"),
                    );
                }
                without_results(r, s.complete && !excluded, nv, &mut sums)
            }
        };
        if *in_gt {
            let row = (sums.rows.len() > before).then(|| units::Row {
                values: sums.rows[before].clone(),
                values_f32: sums.rows_f32[before].clone(),
            });
            sums.units.push((q.to_string(), row));
        }
        let mut sc = Scores::new();
        for (i, k) in s.ks.iter().enumerate() {
            sc.set(&format!("precAt{k}"), values[i]);
        }
        sc.set("ap", values[nv - 1]);
        items.push(Item {
            id: q.to_string(),
            group: None,
            scores: sc,
            detail,
        });
    }
    items.sort_by(|a, b| natural_cmp(&a.id, &b.id));
    let (scores, results_only_scores) = means(&sums, s);
    let plots = plots_of(&items, &sums, index);
    // trec_eval 9.0.8 averages over the queries present in both files, in binary64.
    let mut trec = Scores::new();
    if let Some(first) = sums.trec_rows.first() {
        for (i, (name, _)) in first.iter().enumerate() {
            let sum = sums.trec_rows.iter().fold(0.0f64, |a, r| a + r[i].1);
            trec.set(name, Some(sum / sums.trec_rows.len() as f64));
        }
    }
    let reading = Reading { id: "trec_equivalent".into(), label: "trec_eval-equivalent (converted run, bin qrels; graded10 for nDCG): not official ICFHR'14 numbers".into(), scores: trec };
    let mut readings = vec![reading];
    if s.complete {
        readings.push(Reading {
            id: "results_queries_only".into(),
            label: "official (results queries only): the mean over the queries that have a results block, as rusteval takes it".into(),
            scores: results_only_scores,
        });
    }
    let ids = score_ids(s);
    let slot = units::slot(
        ids,
        s.mode == Mode::Official,
        std::mem::take(&mut sums.units),
    );
    (scores, items, plots, readings, slot)
}

/// A query with a results block: its values (none when its empty GT is excluded) and its detail; counted in
/// `sums` when its GT is known and it is not excluded.
fn with_results<'a>(
    sc: &'a Scored,
    in_gt: bool,
    excluded: bool,
    nv: usize,
    sums: &mut Sums<'a>,
) -> (Vec<Option<f64>>, Map<String, Value>) {
    if sc.known && !excluded {
        sums.rows.push(sc.values.clone());
        sums.rows_f32.push(sc.values_f32.clone());
        sums.results_only.push(sc.values.clone());
        sums.results_only_f32.push(sc.values_f32.clone());
        if let Some(p) = sc.pr11 {
            for (a, b) in sums.pr_sum.iter_mut().zip(p) {
                *a += b;
            }
            sums.pr_n += 1;
        }
    }
    let mut d = Map::new();
    d.insert("R".into(), json!(if sc.known { Some(sc.r) } else { None }));
    d.insert("n".into(), json!(sc.n));
    d.insert("hits".into(), json!(sc.hits));
    d.insert("in_gt".into(), json!(in_gt));
    d.insert("in_results".into(), json!(true));
    d.insert("line".into(), json!(sc.line));
    d.insert("hit_strip".into(), json!(sc.hit_strip));
    d.insert("pr11".into(), sc.pr11.map_or(Value::Null, |p| json!(p)));
    if sc.known {
        d.insert(
            "trec".into(),
            Value::Object(sc.trec.iter().map(|(k, v)| (k.clone(), json!(v))).collect()),
        );
        sums.trec_rows.push(&sc.trec);
    }
    let values = if excluded {
        vec![None; nv]
    } else {
        sc.values.clone()
    };
    (values, d)
}

/// A GT query without a results block (`r` relevant items): 0 in every metric when `zero` (complete
/// averaging), else left out.
fn without_results(
    r: usize,
    zero: bool,
    nv: usize,
    sums: &mut Sums,
) -> (Vec<Option<f64>>, Map<String, Value>) {
    if zero {
        sums.rows.push(vec![Some(0.0); nv]);
        sums.rows_f32.push(vec![Some(0.0); nv]);
        sums.pr_n += 1;
    }
    let mut d = Map::new();
    d.insert("R".into(), json!(r));
    d.insert("n".into(), json!(0));
    d.insert("hits".into(), json!(0));
    d.insert("in_gt".into(), json!(true));
    d.insert("in_results".into(), json!(false));
    let values = if zero {
        vec![Some(0.0); nv]
    } else {
        vec![None; nv]
    };
    (values, d)
}

/// The headline means, and (with complete averaging, docs/specs/kws.md 4 #5) the rusteval-style means over the
/// queries with a results block only.
fn means(sums: &Sums, s: &Settings) -> (Scores, Scores) {
    let nv = s.ks.len() + 1;
    let official = s.mode == Mode::Official;
    let mean = |rows: &[Vec<Option<f64>>], rows32: &[Vec<Option<f32>>], i: usize| -> Option<f64> {
        if rows.is_empty() {
            return None;
        }
        if official {
            // rusteval: Σ f32 / count as f32; a NaN query makes the mean NaN (→ null).
            let v: Vec<f32> = rows32.iter().map(|r| r[i].unwrap_or(f32::NAN)).collect();
            Some(rusteval::mean_f32(&v) as f64)
        } else {
            let mut acc = 0.0f64;
            for r in rows {
                acc += r[i].unwrap_or(f64::NAN);
            }
            Some(acc / rows.len() as f64)
        }
    };
    let mut scores = Scores::new();
    for (i, k) in s.ks.iter().enumerate() {
        scores.set(&prec_id(*k), mean(&sums.rows, &sums.rows_f32, i));
    }
    scores.set(MAP, mean(&sums.rows, &sums.rows_f32, nv - 1));
    let mut results_only_scores = Scores::new();
    if s.complete {
        for (i, k) in s.ks.iter().enumerate() {
            results_only_scores.set(
                &prec_id(*k),
                mean(&sums.results_only, &sums.results_only_f32, i),
            );
        }
        results_only_scores.set(
            MAP,
            mean(&sums.results_only, &sums.results_only_f32, nv - 1),
        );
    }
    (scores, results_only_scores)
}

/// The sorted APs, the mean 11-point PR curve and the histogram of R.
fn plots_of(items: &[Item], sums: &Sums, index: &GtIndex) -> Vec<Plot> {
    let aps: Vec<(&str, f64)> = items
        .iter()
        .filter_map(|it| it.scores.get("ap").map(|v| (it.id.as_str(), v)))
        .collect();
    let mut plots = vec![plots::ap_sorted(aps)];
    if sums.pr_n > 0 {
        plots.push(plots::pr11_mean(
            sums.pr_sum
                .iter()
                .map(|v| Some(v / sums.pr_n as f64))
                .collect(),
        ));
    }
    let rs: Vec<u64> = index
        .queries()
        .filter_map(|q| index.get(q))
        .map(|g| g.relevant as u64)
        .collect();
    plots.extend(plots::r_histogram(&rs, "Relevant items per query (R)", "R"));
    plots
}

pub(super) fn display(s: &Settings) -> Display {
    let mut headline: Vec<Label> =
        s.ks.iter()
            .map(|k| Label {
                id: format!("precAt{k}"),
                label: format!("P@{k} (capped)"),
                decimals: 5,
            })
            .collect();
    headline.push(Label {
        id: "map".into(),
        label: "MAP".into(),
        decimals: 5,
    });
    let mut columns = vec![
        Column::detail("R", "R"),
        Column::detail("n", "n"),
        Column::detail("hits", "hits"),
    ];
    for k in &s.ks {
        columns.push(Column::score(&format!("precAt{k}"), &format!("P@{k}"), 5));
    }
    columns.push(Column::score("ap", "AP", 5));
    Display {
        title: match s.mode {
            Mode::Official => "ICFHR'14 keyword spotting, as rusteval v0.5 scores it".into(),
            Mode::Corrected => "ICFHR'14 keyword spotting, corrected".into(),
        },
        headline,
        item_label: "query".into(),
        columns,
        footer: "k capped at R (= trec_eval relative_P)".into(),
    }
}

/// The report's top-level id of P@k.
pub(super) fn prec_id(k: usize) -> String {
    format!("precAt{k}")
}

/// The report's top-level id of the mean AP.
pub(super) const MAP: &str = "map";

/// The top-level ids a report under `s` holds: P@k for each cut-off, then the mean AP.
pub(super) fn score_ids(s: &Settings) -> Vec<String> {
    let precs = s.ks.iter().map(|&k| prec_id(k));
    precs.chain(std::iter::once(MAP.to_string())).collect()
}
