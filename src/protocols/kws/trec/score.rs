//! One query of one run, as trec_eval scores it: the run's ranking (`form_res_rels.c`: sort, duplicate check,
//! depth cut), the qrels lookup and the measures, with the diagnostics of missing, unknown and repeated entries.

use super::{QueryResult, Settings};
use crate::diag::{excerpt, Diagnostic, Diags, Severity};
use crate::formats::trec::{QrelsQuery, RunQuery};
use crate::input::Entry;
use crate::metrics::trec::{self as m, iprec_at_recall, map, Family, Judged, ResRels, Version};
use crate::report::Mode;
use std::cmp::Ordering;

/// The docno trec_eval 10.0 ranks alone for a qrels query missing from the run under `-c`.
const BOGUS_DOCNO: &[u8] = b"ceci_nest_pas_un_docno";

#[allow(clippy::too_many_arguments)]
pub(super) fn score_query(
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
        (Some(qq), None) => missing_from_run(&mut r, qq, s, entry, diags, blocked, fails),
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

/// A qrels query the run does not have: trec_eval 10.0 stops without `-c` (an error officially), else it
/// counts 0 (`-c`; 10.0 ranks a stand-in document) or is left out of the averages.
fn missing_from_run(
    r: &mut QueryResult,
    qq: &QrelsQuery,
    s: &Settings,
    entry: &Entry,
    diags: &mut Diags,
    blocked: &mut bool,
    fails: &mut bool,
) {
    let qid = &r.qid;
    let v10_stop = s.version == Version::V10 && !s.complete;
    if v10_stop {
        *fails = true;
    }
    let error = v10_stop && s.mode == Mode::Official;
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
        measure(r, qq, ranked, s, true);
    }
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
        for (meas, v) in s.scored_measures().into_iter().zip(values.iter_mut()) {
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
    let mut order = sorted(rq, s, entry, diags);
    let dups = repeats(rq, &order);
    let depth = s.depth.unwrap_or(usize::MAX);
    if !dups.is_empty() {
        duplicate_docs(rq, &order, &dups, s, entry, diags, blocked, fails);
        if s.mode != Mode::Official {
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

/// The run query's documents in trec_eval's order: sim descending (binary32 in 9.0.8, binary64 in 10.0; NaN
/// last, with a warning), ties by docno descending or in file order.
fn sorted(rq: &RunQuery, s: &Settings, entry: &Entry, diags: &mut Diags) -> Vec<u32> {
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
    order
}

/// The docno at rank position `p` of `order`.
fn docno_at<'a>(rq: &'a RunQuery, order: &[u32], p: u32) -> &'a [u8] {
    rq.docnos
        .get(order.get(p as usize).copied().unwrap_or(0) as usize)
}

/// Repeated docnos: (rank position, rank position of the first copy), sorted; one pass in rank order.
fn repeats(rq: &RunQuery, order: &[u32]) -> Vec<(u32, u32)> {
    let mut first_at: std::collections::HashMap<&[u8], u32, rustc_hash::FxBuildHasher> =
        std::collections::HashMap::with_capacity_and_hasher(order.len(), Default::default());
    let mut dups: Vec<(u32, u32)> = Vec::new();
    for p in 0..order.len() as u32 {
        match first_at.entry(docno_at(rq, order, p)) {
            std::collections::hash_map::Entry::Occupied(e) => dups.push((p, *e.get())),
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(p);
            }
        }
    }
    dups.sort();
    dups
}

/// The note on repeated docnos: trec_eval stops on one within the depth cut (an error officially); corrected
/// mode keeps the first copy.
#[allow(clippy::too_many_arguments)]
fn duplicate_docs(
    rq: &RunQuery,
    order: &[u32],
    dups: &[(u32, u32)],
    s: &Settings,
    entry: &Entry,
    diags: &mut Diags,
    blocked: &mut bool,
    fails: &mut bool,
) {
    let depth = s.depth.unwrap_or(usize::MAX);
    let official = s.mode == Mode::Official;
    let within = dups.iter().filter(|(p, _)| (*p as usize) < depth).count();
    let (p, f) = dups[0];
    let line_of = |pos: u32| {
        let i = order.get(pos as usize).copied().unwrap_or(0) as usize;
        rq.lines.get(i).copied().unwrap_or(0)
    };
    let docno = String::from_utf8_lossy(docno_at(rq, order, p)).into_owned();
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
    let stops = "trec_eval stops: \"duplicate docs\" (exit status 4)".to_string();
    let unchecked = "not checked by trec_eval beyond the depth cut".to_string();
    let (sev, msg, official_text) = if error {
        (Severity::Error, what, stops)
    } else if official {
        (Severity::Warning, what, unchecked)
    } else {
        (
            Severity::Warning,
            format!("{what}: the first (highest ranked) copy is kept"),
            if within > 0 { stops } else { unchecked },
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
}
