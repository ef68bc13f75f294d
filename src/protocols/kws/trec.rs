//! Preset `trec`: TREC qrels + run scored as trec_eval does (specs/kws.md 2.6, 2.7, 3.2, 4 #10, 6, 8).
//!
//! Per run: read (streaming), then for each query in trec_eval's order (ascending byte order of qid) sort
//! the documents (`form_res_rels.c`: sim descending, ties by docno descending), truncate at `depth`, look
//! each document up in the qrels and measure ([`crate::metrics::trec`]). The first run (by path) is the
//! report; each further run adds a [`Reading`].

use crate::diag::{excerpt, Diagnostic, Diags, Severity};
use crate::formats::trec::{read_qrels, read_run, QrelsQuery, ReadSettings, RunQuery};
use crate::input::Entry;
use crate::metrics::trec::{
    self as m, iprec_at_recall, map, parse_measures, Family, Judged, Measure, ResRels, Version,
};
use crate::protocols::{Options, Progress};
use crate::report::{
    natural_cmp, Column, Display, Item, Label, Mode, Plot, Reading, Report, Scores,
};
use serde_json::{json, Map, Value};
use std::cmp::Ordering;

/// The docno trec_eval 10.0 ranks alone for a qrels query missing from the run under `-c`.
const BOGUS_DOCNO: &[u8] = b"ceci_nest_pas_un_docno";

struct Settings {
    mode: Mode,
    complete: bool,
    level: i64,
    depth: Option<usize>,
    version: Version,
    file_order: bool,
    measures: Vec<Measure>,
}

impl Settings {
    fn version_name(&self) -> &'static str {
        match self.version {
            Version::V9 => "9.0.8",
            Version::V10 => "10.0",
        }
    }
}

/// One query of one run.
struct QueryResult {
    qid: String,
    in_gt: bool,
    in_results: bool,
    /// trec_eval computes (and with `-q` prints) it.
    evaluated: bool,
    /// Its values enter the `all` sums (evaluated, or v10's `-c` stand-in ranking).
    in_sum: bool,
    /// One value per non-runid measure; `None` = not scored.
    values: Option<Vec<f64>>,
    num_rel: Option<u64>,
    num_ret: u64,
    num_rel_ret: u64,
    /// Positive qrels lines, duplicates included (trec_eval `-c` num_rel).
    positive_lines: u64,
    ap: Option<f64>,
    iprec: Option<[f64; 11]>,
    hit_strip: String,
    line: Option<u64>,
}

/// A run scored.
struct RunResult {
    runid: String,
    queries: Vec<QueryResult>,
    scores: Scores,
    /// The official scorer fails on this run.
    official_fails: bool,
    /// An error blocks the scores.
    blocked: bool,
}

fn settings(opts: &Options, mode: Mode, diags: &mut Diags) -> Settings {
    let measures = match parse_measures(&opts.list("measures")) {
        Ok(v) => v,
        Err(e) => {
            diags.push(
                Diagnostic::error("kws.option.bad_measures", e)
                    .expected("trec_eval measure names, e.g. map,P_5,ndcg_cut_10")
                    .found(opts.get("measures").to_string())
                    .hint("Fix the `measures` option; `official` gives trec_eval's default set."),
            );
            m::measures::official()
        }
    };
    let measures = with_k(measures, opts, diags);
    Settings {
        mode,
        complete: opts.flag("complete"),
        level: opts.int("relevance_level").unwrap_or(1),
        depth: opts.get("depth").parse::<usize>().ok(),
        version: if opts.get("trec_version") == "10.0" {
            Version::V10
        } else {
            Version::V9
        },
        file_order: opts.get("tie_break") == "file_order",
        measures,
    }
}

/// Option `k` (specs/kws.md 5): cutoffs added to every selected cutoff family (P, recall, ndcg_cut,
/// map_cut, relative_P, success). Its default (`5,10`) is in every default cutoff list, so only a changed
/// value adds anything.
fn with_k(mut measures: Vec<Measure>, opts: &Options, diags: &mut Diags) -> Vec<Measure> {
    if opts.get("k").replace(' ', "") == "5,10" {
        return measures;
    }
    let mut ks = Vec::new();
    for k in opts.list("k") {
        match k.parse::<u32>() {
            Ok(v) if v > 0 => ks.push(v),
            _ => diags.push(
                Diagnostic::error(
                    "kws.option.bad_k",
                    format!("k must list positive integers, found `{k}`"),
                )
                .hint("Use e.g. --set k=5,10,20."),
            ),
        }
    }
    let families: Vec<Family> = measures
        .iter()
        .map(|x| x.family)
        .filter(|f| f.has_cutoffs() && *f != Family::IprecAtRecall)
        .collect();
    for f in families {
        for k in &ks {
            measures.push(Measure::cut(f, *k));
        }
    }
    measures.sort();
    measures.dedup();
    measures
}

/// Scores each run in `runs` against the qrels `gt`. The first run is the report; further runs are readings.
pub fn score(
    gt: &Entry,
    runs: &[&Entry],
    mode: Mode,
    opts: &Options,
    progress: &mut dyn Progress,
) -> Report {
    let mut diags = Diags::new();
    let s = settings(opts, mode, &mut diags);
    let rs = ReadSettings {
        float_rel_error: opts.get("float_rel") == "error",
        comments: s.version == Version::V10,
        extra_fields_ok: mode == Mode::Official,
    };
    let total = (gt.size + runs.iter().map(|r| r.size).sum::<u64>()).max(1) as f64;
    progress.update(0.0, "reading qrels");
    let qrels = read_qrels(gt, &rs, &mut diags);
    let mut qrels_blocked = qrels.bad_lines > 0 || diags.has_errors();
    let mut official_fails = qrels.official_refuses > 0;
    if qrels.queries.is_empty() && qrels.bad_lines == 0 {
        qrels_blocked = true;
        official_fails = true;
        diags.push(empty_file(gt, "qrels", "qid iter docno rel"));
    }
    let mut runs: Vec<&Entry> = runs.to_vec();
    runs.sort_by(|a, b| a.path.cmp(&b.path));

    let mut report = Report::new("kws", mode);
    let mut first: Option<RunResult> = None;
    let mut done = gt.size as f64;
    for (ri, entry) in runs.iter().enumerate() {
        let base = done;
        let run = read_run(entry, &rs, &mut diags, &mut |b| {
            progress.update((base + b as f64) / total, "reading run")
        });
        done += entry.size as f64;
        progress.update(done / total, "scoring run");
        let mut blocked = qrels_blocked || run.bad_lines > 0;
        let mut fails = run.official_refuses > 0;
        if run.queries.is_empty() && run.bad_lines == 0 {
            blocked = true;
            fails = true;
            diags.push(empty_file(entry, "run", "qid iter docno rank sim tag"));
        }
        let runid = run.tag.clone().unwrap_or_default();
        let mut qids: Vec<&str> = qrels.queries.iter().map(|q| q.qid.as_str()).collect();
        for q in &run.queries {
            if qrels.get(&q.qid).is_none() {
                qids.push(&q.qid);
            }
        }
        qids.sort_unstable();
        let mut results = Vec::with_capacity(qids.len());
        for qid in qids {
            let r = score_query(
                qrels.get(qid),
                run.get(qid),
                qid,
                &s,
                entry,
                &mut diags,
                &mut blocked,
                &mut fails,
            );
            results.push(r);
        }
        let evaluated = results.iter().filter(|r| r.evaluated).count();
        if evaluated == 0 && !qrels.queries.is_empty() && !run.queries.is_empty() {
            fails = true;
            let official = s.mode == Mode::Official;
            if official {
                blocked = true;
            }
            diags.push(
                Diagnostic::new(
                    if official {
                        Severity::Error
                    } else {
                        Severity::Warning
                    },
                    "kws.trec.no_common_queries",
                    "no query is both in the qrels and in the run",
                )
                .file(&entry.path)
                .expected("the qrels' query ids")
                .found(excerpt(
                    &run.queries
                        .iter()
                        .take(5)
                        .map(|q| q.qid.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                ))
                .hint("Check that the run and the qrels use the same query ids.")
                .official("trec_eval stops: \"No queries with both results and relevance info\" (exit status 7)"),
            );
        }
        let divisor = if s.complete {
            qrels.queries.len()
        } else {
            evaluated
        };
        let scores = headline(&s, &results, divisor, blocked);
        let rr = RunResult {
            runid,
            queries: results,
            scores,
            official_fails: fails,
            blocked,
        };
        official_fails |= rr.official_fails;
        if ri == 0 {
            first = Some(rr);
        } else {
            if let Some(f) = &first {
                report.plots.push(paired_plot(f, &rr, &entry.path));
            }
            report.readings.push(Reading {
                id: format!("run:{}", entry.path),
                label: format!("Run {} (runid {})", entry.path, rr.runid),
                scores: rr.scores,
            });
        }
    }
    if let Some(f) = first {
        report.options.insert("runid".into(), json!(f.runid));
        report.scores = f.scores.clone();
        let mut plots = plots(&s, &f, &qrels.queries);
        plots.append(&mut report.plots);
        report.plots = plots;
        report.items = items(&s, &f);
        report.display = display(&s, &f.runid);
    } else {
        report.display = display(&s, "");
    }
    report.official_fails = official_fails;
    report.diagnostics = diags.finish();
    report
}

fn empty_file(entry: &Entry, what: &str, layout: &str) -> Diagnostic {
    Diagnostic::error(
        "kws.trec.empty_file",
        format!("the {what} file has no data line"),
    )
    .file(&entry.path)
    .expected(format!("lines of `{layout}`"))
    .found("no data line")
    .hint(format!("Drop a non-empty {what} file."))
    .official("trec_eval cannot read the file (exit status 2)")
}

#[allow(clippy::too_many_arguments)]
fn score_query(
    qq: Option<&QrelsQuery>,
    rq: Option<&RunQuery>,
    qid: &str,
    s: &Settings,
    entry: &Entry,
    diags: &mut Diags,
    blocked: &mut bool,
    fails: &mut bool,
) -> QueryResult {
    let official = s.mode == Mode::Official;
    let mut r = QueryResult {
        qid: qid.to_string(),
        in_gt: qq.is_some(),
        in_results: rq.is_some(),
        evaluated: false,
        in_sum: false,
        values: None,
        num_rel: None,
        num_ret: rq.map_or(0, |q| q.docnos.len() as u64),
        num_rel_ret: 0,
        positive_lines: qq.map_or(0, |q| q.positive_lines),
        ap: None,
        iprec: None,
        hit_strip: String::new(),
        line: rq.and_then(|q| q.lines.first().copied()),
    };
    match (qq, rq) {
        (Some(qq), Some(rq)) => {
            if qq.duplicates > 0 {
                *fails = true;
            }
            let order = rank(rq, s, entry, diags, blocked, fails);
            let ranked: Vec<Option<i64>> = order
                .iter()
                .map(|i| qq.rel_of(rq.docnos.get(*i as usize)))
                .collect();
            r.evaluated = true;
            r.in_sum = true;
            measure(&mut r, qq, ranked, s, false);
        }
        (Some(qq), None) => {
            let v10_stop = s.version == Version::V10 && !s.complete;
            if v10_stop {
                *fails = true;
            }
            let error = v10_stop && official;
            if error {
                *blocked = true;
            }
            let msg = if v10_stop {
                format!("qrels query `{qid}` has no results; trec_eval 10.0 stops here")
            } else if s.complete {
                format!("qrels query `{qid}` has no results: it counts 0 (complete)")
            } else {
                format!("qrels query `{qid}` has no results: left out of the averages")
            };
            let code = if error {
                "kws.trec.missing_query_v10"
            } else {
                "kws.trec.missing_query"
            };
            diags.push(
                Diagnostic::new(if error { Severity::Error } else { Severity::Warning }, code, msg)
                    .file(&entry.path)
                    .expected(format!("results for query `{qid}`"))
                    .found("none")
                    .hint(if v10_stop {
                        "Add the query to the run, set complete=true (trec_eval -c), or use trec_version=9.0.8."
                    } else if s.complete {
                        "Nothing to do if the system found nothing for this query."
                    } else {
                        "Set complete=true (trec_eval -c) to count it as 0; otherwise the mean rewards leaving hard queries out."
                    })
                    .official(match s.version {
                        Version::V10 if !s.complete => format!(
                            "trec_eval 10.0 stops: \"result qid '{qid}' not found in qrels\" (exit status 4)"
                        ),
                        _ if s.complete => "counted 0 (-c)".to_string(),
                        _ => "trec_eval 9.0.8 leaves it out of the averages".to_string(),
                    }),
            );
            r.num_rel = Some(ResRels::new(&judged(vec![], qq, s)).num_rel);
            if s.complete {
                // trec_eval 10.0 -c ranks one stand-in document; 9.0.8 -c only counts the query in the divisor.
                let ranked = vec![qq.rel_of(BOGUS_DOCNO)];
                if s.version == Version::V10 && qq.duplicates > 0 {
                    *fails = true;
                }
                r.evaluated = s.version == Version::V10;
                r.in_sum = s.version == Version::V10;
                measure(&mut r, qq, ranked, s, true);
            }
        }
        (None, Some(rq)) => {
            let line = rq.lines.first().copied().unwrap_or(0);
            diags.push(
                Diagnostic::new(
                    if official {
                        Severity::Info
                    } else {
                        Severity::Warning
                    },
                    "kws.trec.unknown_query",
                    format!("run query `{qid}` has no qrels: ignored"),
                )
                .file(&entry.path)
                .line(line)
                .found(excerpt(qid))
                .hint("Check the query id; queries without judgements are not scored.")
                .official("ignored"),
            );
        }
        (None, None) => {}
    }
    r
}

fn judged(ranked: Vec<Option<i64>>, qq: &QrelsQuery, s: &Settings) -> Judged {
    Judged {
        ranked,
        qrels: qq.judged_rels(),
        relevance_level: s.level,
        version: s.version,
    }
}

/// Measures one query; `stand_in` = trec_eval 10.0's `-c` ranking (its num_ret is reset to 0).
fn measure(
    r: &mut QueryResult,
    qq: &QrelsQuery,
    ranked: Vec<Option<i64>>,
    s: &Settings,
    stand_in: bool,
) {
    let j = judged(ranked, qq, s);
    let rr = ResRels::new(&j);
    let level = s.level;
    r.hit_strip = j
        .ranked
        .iter()
        .take(100)
        .map(|x| {
            if x.is_some_and(|v| v >= 0 && v >= level) {
                '1'
            } else {
                '0'
            }
        })
        .collect();
    r.num_rel = Some(rr.num_rel);
    r.num_rel_ret = rr.num_rel_ret;
    r.ap = Some(map(&rr));
    r.iprec = Some(iprec_at_recall(&rr));
    let mut values: Vec<f64> = m::evaluate(&j, &s.measures)
        .into_iter()
        .map(|(_, v)| v)
        .collect();
    if stand_in {
        r.num_ret = 0;
        r.hit_strip.clear();
        for (meas, v) in s
            .measures
            .iter()
            .filter(|x| x.family != Family::Runid)
            .zip(values.iter_mut())
        {
            if meas.family == Family::NumRet {
                *v = 0.0;
            }
        }
    } else {
        r.num_ret = rr.num_ret() as u64;
    }
    r.values = Some(values);
}

/// `form_res_rels.c`: the run's documents sorted (sim descending, ties by docno descending, or file order),
/// duplicates checked, truncated at `depth`. Returns indices into the run query.
fn rank(
    rq: &RunQuery,
    s: &Settings,
    entry: &Entry,
    diags: &mut Diags,
    blocked: &mut bool,
    fails: &mut bool,
) -> Vec<u32> {
    let v9 = s.version == Version::V9;
    let sim = |i: u32| -> f64 {
        let x = rq.sims.get(i as usize).copied().unwrap_or(0.0);
        // trec_eval 9.0.8 stores sim in a C `float`; 10.0 in a `double`.
        if v9 {
            x as f32 as f64
        } else {
            x
        }
    };
    let sims: Vec<f64> = (0..rq.docnos.len() as u32).map(sim).collect();
    let mut order: Vec<u32> = (0..rq.docnos.len() as u32).collect();
    let nan = sims.iter().filter(|x| x.is_nan()).count();
    order.sort_by(|a, b| {
        let (x, y) = (sims[*a as usize], sims[*b as usize]);
        let by_sim = match (x.is_nan(), y.is_nan()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Greater,
            (false, true) => Ordering::Less,
            _ => y.partial_cmp(&x).unwrap_or(Ordering::Equal),
        };
        by_sim.then_with(|| {
            if s.file_order {
                Ordering::Equal
            } else {
                rq.docnos.get(*b as usize).cmp(rq.docnos.get(*a as usize))
            }
        })
    });
    if nan > 0 {
        diags.push(
            Diagnostic::warning(
                "kws.trec.nan_sim",
                format!(
                    "query `{}`: {nan} sim value(s) are NaN: ranked last",
                    rq.qid
                ),
            )
            .file(&entry.path)
            .line(rq.lines.first().copied().unwrap_or(0))
            .hint("Write numeric scores.")
            .official("trec_eval's order is undefined (qsort with NaN)"),
        );
    }
    // Duplicates: positions (in sorted order) of repeated docnos, with the position of the first copy.
    // One pass in rank order: (position, position of the first copy), increasing positions.
    let docno_at = |p: u32| {
        rq.docnos
            .get(order.get(p as usize).copied().unwrap_or(0) as usize)
    };
    let mut first_at: std::collections::HashMap<&[u8], u32, crate::formats::fxhash::FxBuild> =
        std::collections::HashMap::with_capacity_and_hasher(order.len(), Default::default());
    let mut dups: Vec<(u32, u32)> = Vec::new();
    for p in 0..order.len() as u32 {
        match first_at.entry(docno_at(p)) {
            std::collections::hash_map::Entry::Occupied(e) => dups.push((p, *e.get())),
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(p);
            }
        }
    }
    let depth = s.depth.unwrap_or(usize::MAX);
    if !dups.is_empty() {
        dups.sort();
        let official = s.mode == Mode::Official;
        let within = dups.iter().filter(|(p, _)| (*p as usize) < depth).count();
        let (p, f) = dups[0];
        let line_of = |pos: u32| {
            let i = order.get(pos as usize).copied().unwrap_or(0) as usize;
            rq.lines.get(i).copied().unwrap_or(0)
        };
        let docno = String::from_utf8_lossy(docno_at(p)).into_owned();
        let error = official && within > 0;
        if within > 0 {
            *fails = true;
        }
        if error {
            *blocked = true;
        }
        let what = format!(
            "query `{}` lists `{docno}` twice (lines {} and {}){}",
            rq.qid,
            line_of(f),
            line_of(p),
            if dups.len() > 1 {
                format!("; {} repeated docnos in this query", dups.len())
            } else {
                String::new()
            }
        );
        let (sev, msg, official_text) = if error {
            (
                Severity::Error,
                what,
                "trec_eval stops: \"duplicate docs\" (exit status 4)".to_string(),
            )
        } else if official {
            (
                Severity::Warning,
                what,
                "not checked by trec_eval beyond the depth cut".to_string(),
            )
        } else {
            (
                Severity::Warning,
                format!("{what}: the first (highest ranked) copy is kept"),
                if within > 0 {
                    "trec_eval stops: \"duplicate docs\" (exit status 4)".to_string()
                } else {
                    "not checked by trec_eval beyond the depth cut".to_string()
                },
            )
        };
        diags.push(
            Diagnostic::new(sev, "kws.trec.duplicate_doc", msg)
                .file(&entry.path)
                .line(line_of(p))
                .found(excerpt(&docno))
                .hint(if official {
                    "List each document once per query, or use corrected mode (first copy kept)."
                } else {
                    "List each document once per query."
                })
                .official(official_text),
        );
        if !official {
            let mut drop: Vec<u32> = dups.iter().map(|(p, _)| *p).collect();
            drop.sort_unstable();
            order = order
                .iter()
                .enumerate()
                .filter(|(p, _)| drop.binary_search(&(*p as u32)).is_err())
                .map(|(_, i)| *i)
                .collect();
        }
    }
    order.truncate(depth);
    order
}

/// The `all` values of one run, in measure order (runid excluded).
fn headline(s: &Settings, results: &[QueryResult], divisor: usize, blocked: bool) -> Scores {
    let mut scores = Scores::new();
    let measures: Vec<&Measure> = s
        .measures
        .iter()
        .filter(|m| m.family != Family::Runid)
        .collect();
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

fn items(s: &Settings, f: &RunResult) -> Vec<Item> {
    let measures: Vec<&Measure> = s
        .measures
        .iter()
        .filter(|m| m.family != Family::Runid)
        .collect();
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

fn plots(s: &Settings, f: &RunResult, qrels: &[QrelsQuery]) -> Vec<Plot> {
    let aps: Vec<(&str, f64)> = f
        .queries
        .iter()
        .filter(|q| q.evaluated && q.in_results)
        .filter_map(|q| q.ap.map(|v| (q.qid.as_str(), v)))
        .collect();
    let mut plots = vec![super::plots::ap_sorted(aps)];
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
        plots.push(super::plots::pr11_mean(y));
    }
    let rs: Vec<u64> = f
        .queries
        .iter()
        .filter(|q| q.in_gt)
        .filter_map(|q| q.num_rel)
        .collect();
    plots.extend(super::plots::r_histogram(
        &rs,
        "Relevant documents per query (num_rel)",
        "num_rel",
    ));
    plots
}

/// Per-query AP of a further run minus that of the first run, on the queries both evaluate.
fn paired_plot(first: &RunResult, other: &RunResult, path: &str) -> Plot {
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

fn display(s: &Settings, runid: &str) -> Display {
    let measures: Vec<&Measure> = s
        .measures
        .iter()
        .filter(|m| m.family != Family::Runid)
        .collect();
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

/// trec_eval `-q` output: per-query lines (queries in ascending byte order, measures in trec_eval order),
/// then the `all` lines, each `%-22s\t%s\t%6.4f` (counts `%ld`, runid `%s`), as `meas_print_single.c` and
/// `meas_print_final.c` print them. Nothing when the report's scores are blocked by an error (trec_eval
/// prints nothing on stdout then).
pub fn render_text(report: &Report) -> String {
    if report.scores.iter().all(|(_, v)| v.is_none()) && report.has_errors() {
        return String::new();
    }
    let is_count = |k: &str| matches!(k, "num_q" | "num_ret" | "num_rel" | "num_rel_ret");
    let line = |out: &mut String, name: &str, qid: &str, v: Option<f64>| {
        let val = match v {
            Some(x) if is_count(name) => format!("{}", x as i64),
            Some(x) => format!("{x:6.4}"),
            None => "  -nan".to_string(),
        };
        out.push_str(&format!("{name:<22}\t{qid}\t{val}\n"));
    };
    let mut out = String::new();
    let mut printed: Vec<&Item> = report
        .items
        .iter()
        .filter(|i| i.detail.get("evaluated") == Some(&Value::Bool(true)))
        .collect();
    printed.sort_by(|a, b| a.id.as_bytes().cmp(b.id.as_bytes()));
    for it in printed {
        for (k, v) in it.scores.iter() {
            line(&mut out, k, &it.id, v);
        }
    }
    if let Some(Value::String(runid)) = report.options.get("runid") {
        let has_runid = report
            .options
            .get("measures")
            .and_then(|v| v.as_str())
            .and_then(|l| parse_measures(&l.split(',').collect::<Vec<_>>()).ok())
            .is_none_or(|ms| ms.iter().any(|x| x.family == Family::Runid));
        if has_runid {
            out.push_str(&format!("{:<22}\tall\t{runid}\n", "runid"));
        }
    }
    for (k, v) in report.scores.iter() {
        line(&mut out, k, "all", v);
    }
    out
}
