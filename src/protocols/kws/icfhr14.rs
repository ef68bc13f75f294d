//! Preset `icfhr14`: ICFHR'14 XML scored as rusteval v0.5 does (specs/kws.md 3.1, binary32) in `official`
//! mode, and with the fixes of section 4 in `corrected` mode. Results are streamed: each `<Rel>` block is
//! scored when it closes and then dropped, so memory holds one block, not the file.

use super::gtindex::GtIndex;
use super::plots;
use crate::diag::{Diagnostic, Diags};
use crate::formats::kws_xml::{self, Block, Kind};
use crate::formats::kws_xml_lines;
use crate::input::Entry;
use crate::metrics::{interp, rusteval};
use crate::protocols::{Options, Progress};
use crate::report::{
    natural_cmp, Column, Display, Item, Label, Mode, Plot, Reading, Report, Scores,
};
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, HashMap};

type BBox = (u32, u32, u32, u32);

/// How a GT block without words is scored.
#[derive(Clone, Copy, PartialEq)]
enum EmptyGt {
    Nan,
    Exclude,
    Zero,
}

struct Settings {
    mode: Mode,
    ks: Vec<usize>,
    match_document: bool,
    dedupe: bool,
    complete: bool,
    empty: EmptyGt,
    threshold: f64,
}

/// One scored results block.
struct Scored {
    line: u64,
    n: usize,
    r: usize,
    hits: usize,
    /// precAt{k} for each k, then ap. `None` = not computable (rusteval panics, or excluded).
    values: Vec<Option<f64>>,
    /// The binary32 values (official mode), for rusteval's binary32 mean.
    values_f32: Vec<Option<f32>>,
    hit_strip: String,
    pr11: Option<[f64; 11]>,
    known: bool,
    /// The trec_eval-equivalent values of section 3.3 (bin qrels; graded10 for nDCG).
    trec: Vec<(String, f64)>,
}

/// specs/kws.md 3.3: the trec_eval measures of the converted run (section 2.8) for one query: `bin` qrels for
/// P, relative_P, map, recip_rank and Rprec, `graded10` qrels for ndcg and ndcg_cut_10. trec_eval matches by
/// docno, i.e. document and box.
fn trec_equivalent(
    gains: Vec<Option<i64>>,
    gtq: &super::gtindex::GtQuery,
    ks: &[usize],
) -> Vec<(String, f64)> {
    use crate::metrics::trec::{evaluate, Family, Judged, Measure};
    let qrels: Vec<i64> = gtq.qrels_gains().collect();
    let bin = Judged {
        ranked: gains.iter().map(|g| g.map(|_| 1)).collect(),
        qrels: vec![1; qrels.len()],
        relevance_level: 1,
        ..Judged::default()
    };
    let graded = Judged {
        ranked: gains,
        qrels,
        relevance_level: 1,
        ..Judged::default()
    };
    let mut m: Vec<Measure> = ks
        .iter()
        .map(|k| Measure::cut(Family::P, *k as u32))
        .collect();
    m.extend(
        ks.iter()
            .map(|k| Measure::cut(Family::RelativeP, *k as u32)),
    );
    m.extend([
        Measure::single(Family::Map),
        Measure::single(Family::RecipRank),
        Measure::single(Family::Rprec),
    ]);
    let mut out = evaluate(&bin, &m);
    out.extend(evaluate(
        &graded,
        &[
            Measure::single(Family::Ndcg),
            Measure::cut(Family::NdcgCut, 10),
        ],
    ));
    out
}

pub fn score(
    gt: &Entry,
    runs: &[&Entry],
    mode: Mode,
    opts: &Options,
    progress: &mut dyn Progress,
) -> Report {
    let mut diags = Diags::new();
    let mut ks: Vec<usize> = Vec::new();
    for k in opts.list("k") {
        match k.parse::<usize>() {
            Ok(v) if v > 0 => {
                if !ks.contains(&v) {
                    ks.push(v)
                }
            }
            _ => diags.push(
                Diagnostic::error(
                    "kws.option.bad_k",
                    format!("k must list positive integers, found `{k}`"),
                )
                .hint("Use e.g. --set k=5,10,20."),
            ),
        }
    }
    if ks.is_empty() {
        ks = vec![5, 10];
    }
    let s = Settings {
        mode,
        ks,
        match_document: opts.flag("match_document"),
        dedupe: opts.flag("dedupe"),
        complete: opts.flag("complete"),
        empty: match opts.get("empty_gt_query") {
            "exclude" => EmptyGt::Exclude,
            "zero" => EmptyGt::Zero,
            _ => EmptyGt::Nan,
        },
        threshold: opts.number("relevance_threshold").unwrap_or(0.0),
    };
    let total: u64 = gt.size + runs.iter().map(|r| r.size).sum::<u64>();
    let mut done = 0u64;

    // Ground truth: held whole (it is small); duplicate blocks: last wins (both readers report them).
    let mut gt_blocks: Vec<Block> = Vec::new();
    read(
        gt,
        Kind::Gt,
        mode,
        &mut diags,
        &mut |b| progress.update(b as f64 / total.max(1) as f64, "reading ground truth"),
        &mut |b, _| gt_blocks.push(b),
    );
    done += gt.size;
    let index = GtIndex::build(gt_blocks, &gt.path, mode, s.threshold, &mut diags);

    let mut report = Report::new("kws", mode);
    for (ri, run) in runs.iter().enumerate() {
        let mut scored: HashMap<String, Scored> = HashMap::new();
        let mut first_line: HashMap<String, u64> = HashMap::new();
        let base = done;
        read(
            run,
            Kind::Results,
            mode,
            &mut diags,
            &mut |b| progress.update((base + b) as f64 / total.max(1) as f64, "scoring results"),
            &mut |block, d| {
                if mode == Mode::Official {
                    if let Some(first) = first_line.get(&block.query) {
                        d.push(
                            Diagnostic::warning("kws.xml.duplicate_query", format!("query `{}` appears twice (lines {first} and {}): the last block wins", block.query, block.line))
                                .file(&run.path)
                                .line(block.line)
                                .hint("Keep one block per query.")
                                .official("rusteval keeps the last block"),
                        );
                    }
                }
                first_line.entry(block.query.clone()).or_insert(block.line);
                let sc = score_block(&block, &index, &s, &run.path, d);
                scored.insert(block.query, sc);
            },
        );
        done += run.size;
        if mode == Mode::Official && scored.is_empty() {
            let one_line = diags.count("kws.official.tag_not_recognised") == 0 && run.size > 0;
            diags.push(
                Diagnostic::error(
                    "kws.official.no_results",
                    "rusteval finds no results block in this file",
                )
                .file(&run.path)
                .expected("<Rel queryid=\"…\"> … </Rel> blocks, one element per line")
                .hint(
                    if diags.count("kws.official.tag_not_recognised") > 0
                        && diags.list.iter().any(|x| {
                            x.hint
                                .as_deref()
                                .is_some_and(|h| h.contains("double quotes"))
                        })
                    {
                        "Use double quotes: rusteval only recognises <Rel queryid=\"…\">."
                    } else if one_line {
                        "Put one element per line: rusteval reads the XML line by line."
                    } else {
                        "Add <Rel queryid=\"…\"> blocks, or use corrected mode."
                    },
                )
                .official("rusteval panics (called `Option::unwrap()` on a `None` value)"),
            );
        }
        let (scores, items, plots, trec) =
            assemble(&index, &scored, &s, &run.path, &mut diags, ri == 0);
        if ri == 0 {
            report.scores = scores;
            report.items = items;
            report.plots = plots;
            report
                .readings
                .extend(trec.into_iter().filter(|r| !r.scores.is_empty()));
        } else {
            report.readings.push(Reading {
                id: format!("run:{}", run.path),
                label: format!("Run {}", run.path),
                scores,
            });
        }
    }
    report.display = display(&s);
    let list = diags.finish();
    if list.iter().any(|d| d.is_error()) {
        // An error blocks the headline (the official scorer prints nothing; corrected input is unusable).
        for (_, v) in report.scores.0.iter_mut() {
            *v = None;
        }
    }
    report.diagnostics = list;
    report
}

fn read(
    entry: &Entry,
    kind: Kind,
    mode: Mode,
    diags: &mut Diags,
    progress: &mut dyn FnMut(u64),
    on_block: &mut kws_xml::OnBlock,
) {
    let input = match entry.buffered() {
        Ok(r) => r,
        Err(e) => {
            diags.push(Diagnostic::read_error(&entry.path, e));
            return;
        }
    };
    match mode {
        Mode::Official => kws_xml_lines::read(input, &entry.path, kind, diags, progress, on_block),
        Mode::Corrected => kws_xml::read(input, &entry.path, kind, diags, progress, on_block),
    }
}

fn score_block(block: &Block, index: &GtIndex, s: &Settings, file: &str, d: &mut Diags) -> Scored {
    let n = block.words.len();
    let q = &block.query;
    let gtq = index.get(q);
    let official = s.mode == Mode::Official;
    if official {
        let kmax = s.ks.iter().copied().max().unwrap_or(10);
        if n < kmax {
            d.push(
                Diagnostic::error(
                    "kws.official.short_list",
                    format!("query `{q}` lists {n} items; rusteval needs at least {kmax}"),
                )
                .file(file)
                .line(block.line)
                .expected(format!("at least {kmax} <word> items"))
                .found(format!("{n}"))
                .hint(
                    "Return at least 10 items per query, or use corrected mode (P@k ÷ min(k, R)).",
                )
                .official(format!(
                    "rusteval panics (range end index {} out of range for slice of length {n})",
                    s.ks.iter().copied().find(|k| *k > n).unwrap_or(kmax)
                )),
            );
        }
    }
    let Some(gtq) = gtq else {
        if official {
            d.push(
                Diagnostic::error("kws.official.unknown_query", format!("results query `{q}` has no GT block"))
                    .file(file)
                    .line(block.line)
                    .hint("Remove queries that are not in the ground truth, or use corrected mode (skipped with a warning).")
                    .official("rusteval panics (called `Option::unwrap()` on a `None` value)"),
            );
        } else {
            d.push(
                Diagnostic::warning(
                    "kws.results.unknown_query",
                    format!("results query `{q}` is not in the GT: skipped"),
                )
                .file(file)
                .line(block.line)
                .hint("Check the query id; it is not scored.")
                .official("rusteval panics"),
            );
        }
        return Scored {
            line: block.line,
            n,
            r: 0,
            hits: 0,
            values: vec![None; s.ks.len() + 1],
            values_f32: vec![None; s.ks.len() + 1],
            hit_strip: String::new(),
            pr11: None,
            known: false,
            trec: Vec::new(),
        };
    };
    // Hits, in rank order.
    let mut hits = Vec::with_capacity(n);
    let mut gains = Vec::with_capacity(n);
    // (document, box) of the hits so far, for dedupe.
    let mut seen: Vec<(&str, BBox)> = Vec::new();
    let (mut dups, mut cross) = (0usize, 0usize);
    let (mut dup_line, mut cross_line) = (0u64, 0u64);
    for w in &block.words {
        let m = gtq.find(w, s.match_document);
        gains.push(m.gain);
        let mut hit = m.hit;
        if hit {
            if !m.same_document {
                cross += 1;
                if cross_line == 0 {
                    cross_line = w.line;
                }
            }
            let key = (&*w.document, w.bbox());
            if seen.contains(&key) {
                dups += 1;
                if dup_line == 0 {
                    dup_line = w.line;
                }
                if s.dedupe {
                    hit = false;
                }
            } else {
                seen.push(key);
            }
        }
        hits.push(hit);
    }
    if dups > 0 {
        let sev = if s.dedupe {
            crate::diag::Severity::Info
        } else {
            crate::diag::Severity::Warning
        };
        d.push(
            Diagnostic::new(sev, "kws.results.duplicate_item", format!("query `{q}` lists a relevant item again ({dups}× repeated)"))
                .file(file)
                .line(dup_line)
                .hint(if s.dedupe { "Repeats count as non-relevant (dedupe = true)." } else { "List each item once; rusteval counts every repeat as a hit, so values can exceed 1." })
                .official("every repeat counts as a hit"),
        );
    }
    if cross > 0 && !s.match_document {
        d.push(
            Diagnostic::info("kws.results.cross_document_hit", format!("query `{q}`: {cross} hit(s) match a GT box on another page"))
                .file(file)
                .line(cross_line)
                .hint("rusteval ignores `document` when matching; corrected mode (match_document = true) does not count these.")
                .official("counted as hits"),
        );
    }
    let r = gtq.relevant;
    let nhits = hits.iter().filter(|h| **h).count();
    let mut values = Vec::with_capacity(s.ks.len() + 1);
    let mut values_f32 = Vec::with_capacity(s.ks.len() + 1);
    if official {
        let hf: Vec<f32> = hits.iter().map(|h| if *h { 1.0 } else { 0.0 }).collect();
        let rf = r as f32;
        for k in &s.ks {
            values_f32.push(rusteval::prec_at_k_f32(&hf, *k, rf));
        }
        values_f32.push(Some(rusteval::ap_f32(&hf, rf)));
        values = values_f32.iter().map(|v| v.map(|x| x as f64)).collect();
    } else {
        for k in &s.ks {
            values.push(rusteval::prec_at_k(&hits, *k, r));
        }
        values.push(rusteval::ap(&hits, r));
    }
    // An empty GT block: `nan` keeps what the arithmetic gives (0/0 = NaN in binary32; `None` in binary64,
    // which the mean reads as NaN too), `exclude` leaves every value out, `zero` scores 0.
    if r == 0 && s.empty != EmptyGt::Nan {
        let v = (s.empty == EmptyGt::Zero).then_some(0.0);
        values = vec![v; s.ks.len() + 1];
        values_f32 = vec![v.map(|x| x as f32); s.ks.len() + 1];
    }
    let hit_strip: String = hits
        .iter()
        .take(100)
        .map(|h| if *h { '1' } else { '0' })
        .collect();
    let trec = trec_equivalent(gains, gtq, &s.ks);
    Scored {
        line: block.line,
        n,
        r,
        hits: nhits,
        values,
        values_f32,
        hit_strip,
        pr11: interp::iprec_11(&hits, r),
        known: true,
        trec,
    }
}

/// Items, headline means and plots for one run.
fn assemble(
    index: &GtIndex,
    scored: &HashMap<String, Scored>,
    s: &Settings,
    file: &str,
    diags: &mut Diags,
    warn: bool,
) -> (Scores, Vec<Item>, Vec<Plot>, Vec<Reading>) {
    let official = s.mode == Mode::Official;
    let nv = s.ks.len() + 1;
    // Queries in the mean, in rusteval's summing order (ascending byte order of query id).
    let mut all: BTreeMap<&str, (Option<&Scored>, bool)> = BTreeMap::new();
    for q in index.queries() {
        all.insert(q, (scored.get(q), true));
    }
    for (q, sc) in scored {
        all.entry(q.as_str()).or_insert((Some(sc), false));
    }
    let mut mean_rows: Vec<Vec<Option<f64>>> = Vec::new();
    let mut mean_rows_f32: Vec<Vec<Option<f32>>> = Vec::new();
    let mut results_only: Vec<Vec<Option<f64>>> = Vec::new();
    let mut results_only_f32: Vec<Vec<Option<f32>>> = Vec::new();
    let mut items = Vec::new();
    let mut trec_rows: Vec<&Vec<(String, f64)>> = Vec::new();
    let mut pr_sum = [0.0f64; 11];
    let mut pr_n = 0usize;
    for (q, (sc, in_gt)) in &all {
        let r = index.get(q).map_or(0, |g| g.relevant);
        let excluded = r == 0 && s.empty == EmptyGt::Exclude && *in_gt;
        let (values, detail) = match sc {
            Some(sc) => {
                if sc.known && !excluded {
                    mean_rows.push(sc.values.clone());
                    mean_rows_f32.push(sc.values_f32.clone());
                    results_only.push(sc.values.clone());
                    results_only_f32.push(sc.values_f32.clone());
                    if let Some(p) = sc.pr11 {
                        for (a, b) in pr_sum.iter_mut().zip(p) {
                            *a += b;
                        }
                        pr_n += 1;
                    }
                }
                let mut d = Map::new();
                d.insert("R".into(), json!(if sc.known { Some(sc.r) } else { None }));
                d.insert("n".into(), json!(sc.n));
                d.insert("hits".into(), json!(sc.hits));
                d.insert("in_gt".into(), json!(*in_gt));
                d.insert("in_results".into(), json!(true));
                d.insert("line".into(), json!(sc.line));
                d.insert("hit_strip".into(), json!(sc.hit_strip));
                d.insert("pr11".into(), sc.pr11.map_or(Value::Null, |p| json!(p)));
                if sc.known {
                    d.insert(
                        "trec".into(),
                        Value::Object(sc.trec.iter().map(|(k, v)| (k.clone(), json!(v))).collect()),
                    );
                    trec_rows.push(&sc.trec);
                }
                (
                    if excluded {
                        vec![None; nv]
                    } else {
                        sc.values.clone()
                    },
                    d,
                )
            }
            None => {
                let zero = s.complete && !excluded;
                if zero {
                    mean_rows.push(vec![Some(0.0); nv]);
                    mean_rows_f32.push(vec![Some(0.0); nv]);
                    pr_n += 1;
                }
                if warn {
                    diags.push(
                        Diagnostic::warning("kws.results.missing_query", format!("GT query `{q}` has no results block"))
                            .file(file)
                            .hint(if s.complete { "It counts 0 in every metric (complete averaging)." } else { "It is left out of the mean, as rusteval does; set complete=true to count it as 0." })
                            .official("silently left out of the mean"),
                    );
                }
                let mut d = Map::new();
                d.insert("R".into(), json!(r));
                d.insert("n".into(), json!(0));
                d.insert("hits".into(), json!(0));
                d.insert("in_gt".into(), json!(true));
                d.insert("in_results".into(), json!(false));
                (
                    if zero {
                        vec![Some(0.0); nv]
                    } else {
                        vec![None; nv]
                    },
                    d,
                )
            }
        };
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
        scores.set(&format!("precAt{k}"), mean(&mean_rows, &mean_rows_f32, i));
    }
    scores.set("map", mean(&mean_rows, &mean_rows_f32, nv - 1));
    // specs/kws.md 4 #5: with complete averaging, the rusteval-style mean over results queries only.
    let mut results_only_scores = Scores::new();
    if s.complete {
        for (i, k) in s.ks.iter().enumerate() {
            results_only_scores.set(
                &format!("precAt{k}"),
                mean(&results_only, &results_only_f32, i),
            );
        }
        results_only_scores.set("map", mean(&results_only, &results_only_f32, nv - 1));
    }
    // Plots.
    let aps: Vec<(&str, f64)> = items
        .iter()
        .filter_map(|it| it.scores.get("ap").map(|v| (it.id.as_str(), v)))
        .collect();
    let mut plots = vec![plots::ap_sorted(aps)];
    if pr_n > 0 {
        plots.push(plots::pr11_mean(
            pr_sum.iter().map(|v| Some(v / pr_n as f64)).collect(),
        ));
    }
    let rs: Vec<u64> = index
        .queries()
        .filter_map(|q| index.get(q))
        .map(|g| g.relevant as u64)
        .collect();
    plots.extend(plots::r_histogram(&rs, "Relevant items per query (R)", "R"));
    // trec_eval 9.0.8 averages over the queries present in both files, in binary64.
    let mut trec = Scores::new();
    if let Some(first) = trec_rows.first() {
        for (i, (name, _)) in first.iter().enumerate() {
            let sum = trec_rows.iter().fold(0.0f64, |a, r| a + r[i].1);
            trec.set(name, Some(sum / trec_rows.len() as f64));
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
    (scores, items, plots, readings)
}

fn display(s: &Settings) -> Display {
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

/// rusteval's printed layout, with the columns in the fixed order precAt5, precAt10, ap and queries sorted.
pub fn render_text(report: &Report) -> String {
    let keys: Vec<String> = report
        .items
        .first()
        .map(|i| i.scores.iter().map(|(k, _)| k.to_string()).collect())
        .unwrap_or_else(|| vec!["precAt5".into(), "precAt10".into(), "ap".into()]);
    let cell = |v: Option<f64>| v.map_or("NaN".to_string(), |x| format!("{:.5}", x as f32));
    let mut out = String::from("\t\t");
    for k in &keys {
        out.push_str(&format!("{k:16}"));
    }
    out.push_str("\n=======================================================================\n");
    for it in &report.items {
        if it.detail.get("in_results") == Some(&Value::Bool(false))
            && it.scores.iter().all(|(_, v)| v.is_none())
        {
            continue;
        }
        if it.detail.get("in_gt") == Some(&Value::Bool(false)) {
            continue;
        }
        out.push_str(&it.id);
        for k in &keys {
            out.push_str(&format!("\t\t{}", cell(it.scores.get(k))));
        }
        out.push('\n');
    }
    out.push_str(
        "------------------------------------------------------------------------\nMEAN:\t\t",
    );
    for k in &keys {
        out.push_str(&format!("{k:16}"));
    }
    out.push_str("\n=======================================================================\n\t\t");
    let means: Vec<Option<f64>> = report.scores.iter().map(|(_, v)| v).collect();
    for v in &means {
        out.push_str(&format!("{}\t\t", cell(*v)));
    }
    out.push('\n');
    if !report.display.footer.is_empty() {
        out.push_str(&format!("({})\n", report.display.footer));
    }
    out
}
