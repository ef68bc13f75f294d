//! `kws`'s bootstrap replicates (docs/specs/statistics.md section 1): replicate r equals, to 1e-12 relative,
//! the protocol's own scores on the files in which every GT query appears as many times as drawn (query ids
//! made unique, `q{rank}_{copy}` with `rank` the query's place in byte order of id, so the copies stay adjacent
//! in the order of the sums), written out and scored from scratch. Both presets (ICFHR'14 XML in both modes,
//! rusteval's binary32 mean officially; TREC with trec_eval's measures, `-c` and 10.0), random queries with
//! ids whose natural and byte orders differ, queries missing from the results, results-only queries.

mod common;
use common::resample::{draw_weights, replicate_column, xorshift as rng};
use common::*;
use dropscore::input::{Input, Role};
use dropscore::stats::interval;
use dropscore::{Mode, Report};

/// A cell of the page grid: (document, column, row).
type Cell = (u8, u32, u32);

/// One query: its GT cells with relevance, and its ranked results (none: no results block).
#[derive(Clone)]
struct Query {
    id: String,
    gt: Vec<(Cell, u8)>,
    res: Option<Vec<(Cell, u32)>>,
}

struct Case {
    queries: Vec<Query>,
    /// Results-only queries (no GT): never units.
    extra: Vec<Query>,
    trec: bool,
    mode: Mode,
    set: Vec<(&'static str, &'static str)>,
}

fn random_case(seed: u64, trec: bool) -> Case {
    let mut next = rng(seed);
    let n = 3 + next(10) as usize;
    let names = ["q", "Q", "q1", "a", "b10", "b9", "x"];
    let mut queries: Vec<Query> = Vec::new();
    let make = |next: &mut dyn FnMut(u64) -> u64, id: String, with_gt: bool| {
        let cells: Vec<Cell> = (0..12)
            .map(|_| (next(2) as u8, next(6) as u32, next(6) as u32))
            .collect();
        let mut gt: Vec<(Cell, u8)> = Vec::new();
        if with_gt {
            for &c in cells.iter().take(1 + next(5) as usize) {
                if !gt.iter().any(|(g, _)| *g == c) {
                    gt.push((c, if trec { next(3) as u8 } else { 1 }));
                }
            }
            if trec && !gt.iter().any(|(_, r)| *r > 0) {
                gt[0].1 = 1;
            }
        }
        let res = (next(6) != 0 || !with_gt).then(|| {
            (0..1 + next(12))
                .map(|_| (cells[next(12) as usize], next(5) as u32))
                .collect()
        });
        Query { id, gt, res }
    };
    while queries.len() < n {
        let id = format!("{}{}", names[next(7) as usize], next(30));
        if queries.iter().any(|q| q.id == id) {
            continue;
        }
        queries.push(make(&mut next, id, true));
    }
    let mode = if next(2) == 0 {
        Mode::Official
    } else {
        Mode::Corrected
    };
    let mut extra = Vec::new();
    if (mode == Mode::Corrected || trec) && next(2) == 0 {
        extra.push(make(&mut next, "zz_only_results".into(), false));
    }
    let mut set = Vec::new();
    if next(3) == 0 {
        set.push(("complete", "true"));
    }
    if trec && next(3) == 0 {
        set.push(("trec_version", "10.0"));
        set.push(("complete", "true"));
    }
    if trec && next(2) == 0 {
        set.push(("measures", "official,ndcg,P_5,recip_rank,map_cut_10,bpref"));
    }
    Case {
        queries,
        extra,
        trec,
        mode,
        set,
    }
}

fn docname(c: Cell) -> String {
    format!("doc{}_{}_{}_50_50", c.0, c.1 * 100, c.2 * 100)
}

fn xml(gt: bool, queries: &[&Query]) -> String {
    let (root, block) = if gt {
        ("GroundTruthRelevanceJudgements", "GTRel")
    } else {
        ("RelevanceListings", "Rel")
    };
    let mut s = format!("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<{root}>\n");
    for q in queries {
        let words: Vec<String> = if gt {
            q.gt.iter()
                .map(|((d, x, y), _)| {
                    format!(
                        "    <word document=\"doc{d}\" x=\"{}\" y=\"{}\" width=\"50\" height=\"50\" Relevance=\"1\" />",
                        x * 100,
                        y * 100
                    )
                })
                .collect()
        } else {
            let Some(res) = &q.res else { continue };
            res.iter()
                .map(|((d, x, y), _)| {
                    format!(
                        "    <word document=\"doc{d}\" x=\"{}\" y=\"{}\" width=\"50\" height=\"50\" />",
                        x * 100,
                        y * 100
                    )
                })
                .collect()
        };
        if gt && words.is_empty() {
            continue;
        }
        s += &format!(
            "  <{block} queryid=\"{}\">\n{}\n  </{block}>\n",
            q.id,
            words.join("\n")
        );
    }
    s + &format!("</{root}>\n")
}

fn trec_files(queries: &[&Query]) -> (String, String) {
    let (mut qrels, mut run) = (String::new(), String::new());
    for q in queries {
        for (c, rel) in &q.gt {
            qrels += &format!("{} 0 {} {rel}\n", q.id, docname(*c));
        }
        for (rank, (c, sim)) in q.res.iter().flatten().enumerate() {
            run += &format!("{} Q0 {} {} {sim} tag\n", q.id, docname(*c), rank + 1);
        }
    }
    (qrels, run)
}

/// The case's files with unit u (in the order of `ids`, the report's) repeated `w[u]` times, renamed
/// `q{byte rank}_{copy}`; results-only queries once, as they are.
fn inputs(case: &Case, ids: &[String], w: &[u32]) -> Vec<Input> {
    let (gt, pred) = files(case, ids, w);
    vec![
        bytes_input(gt.0, Some(Role::Gt), gt.1.into_bytes()),
        bytes_input(pred.0, Some(Role::Pred), pred.1.into_bytes()),
    ]
}

/// [`inputs`]' two files: (name, text) of the GT and of the results.
fn files(
    case: &Case,
    ids: &[String],
    w: &[u32],
) -> ((&'static str, String), (&'static str, String)) {
    let mut by_bytes: Vec<&str> = ids.iter().map(String::as_str).collect();
    by_bytes.sort_unstable();
    let mut all: Vec<Query> = Vec::new();
    for (id, &k) in ids.iter().zip(w) {
        let q = case.queries.iter().find(|q| &q.id == id).unwrap();
        let rank = by_bytes.iter().position(|b| b == id).unwrap();
        for c in 0..k {
            all.push(Query {
                id: format!("q{rank:04}_{c:03}"),
                ..q.clone()
            });
        }
    }
    all.extend(case.extra.iter().cloned());
    let refs: Vec<&Query> = all.iter().collect();
    let (gt, pred) = if case.trec {
        let (q, r) = trec_files(&refs);
        (("gt.qrels", q), ("run.txt", r))
    } else {
        (("gt.xml", xml(true, &refs)), ("res.xml", xml(false, &refs)))
    };
    (gt, pred)
}

fn score(case: &Case, ids: &[String], w: &[u32], extra: &[(&str, &str)]) -> Report {
    let mut set = case.set.clone();
    set.extend_from_slice(extra);
    score_inputs("kws", inputs(case, ids, w), case.mode, &set)
}

/// The case's report with its units (`bootstrap=1`), the units' ids in report order.
fn units_of(case: &Case) -> (Report, Vec<String>) {
    // Scored once as given (names as they are), to read the units' order.
    let mut set = case.set.clone();
    set.push(("bootstrap", "1"));
    let all: Vec<&Query> = case.queries.iter().chain(&case.extra).collect();
    let files = if case.trec {
        let (q, r) = trec_files(&all);
        vec![
            bytes_input("gt.qrels", Some(Role::Gt), q.into_bytes()),
            bytes_input("run.txt", Some(Role::Pred), r.into_bytes()),
        ]
    } else {
        vec![
            bytes_input("gt.xml", Some(Role::Gt), xml(true, &all).into_bytes()),
            bytes_input("res.xml", Some(Role::Pred), xml(false, &all).into_bytes()),
        ]
    };
    let r = score_inputs("kws", files, case.mode, &set);
    let units = r.units.0.as_deref();
    let ids = units.map(|u| u.ids.clone()).unwrap_or_default();
    (r, ids)
}

/// Replicates of `seeds` (and hand-made weights) against the repeated sets; false when the case has no units
/// (an error blocks its scores).
fn check(case: &Case, seeds: &[u128]) -> bool {
    let (r, ids) = units_of(case);
    let Some(units) = r.units.0.as_deref() else {
        assert!(
            r.scores.iter().all(|(_, v)| v.is_none()) || r.has_errors(),
            "{:#?}",
            r.diagnostics
        );
        return false;
    };
    let n = case.queries.len();
    assert_eq!((units.unit, units.count()), ("query", n));
    let metrics = units.replicate.metrics();
    let ones = vec![1; n];
    for (m, v) in metrics.iter().zip(units.replicate.values(&ones)) {
        assert!(
            close(v, r.scores.get(m)),
            "{m} on the full set: {v:?} vs {:?}",
            r.scores.get(m)
        );
    }
    let mut all = draw_weights(seeds, &[n]);
    all.push((0..n as u32).map(|u| u % 3).collect());
    all.push((0..n).map(|u| u32::from(u == n - 1) * 3).collect());
    for w in &all {
        let values = units.replicate.values(w);
        let full = score(case, &ids, w, &[]);
        if full.has_errors() && !r.has_errors() {
            // No drawn query has results: the repeated run file is empty, an input error, not a data set.
            let drawn = case
                .queries
                .iter()
                .filter(|q| w[ids.iter().position(|i| *i == q.id).unwrap()] > 0);
            assert!(
                drawn.clone().all(|q| q.res.is_none()) && case.extra.is_empty(),
                "{:#?}",
                full.diagnostics
            );
            continue;
        }
        for (m, v) in metrics.iter().zip(&values) {
            assert!(
                close(*v, full.scores.get(m)),
                "{m}: replicate {v:?}, repeated set {:?} (weights {w:?}, ids {ids:?}, set {:?}, {:?})",
                full.scores.get(m),
                case.set,
                case.mode
            );
        }
    }
    true
}

#[test]
fn replicates_equal_repeated_random_xml_sets() {
    let mut checked = 0;
    for case in 1..=40u64 {
        checked += check(
            &random_case(case, false),
            &[case as u128, 500 + case as u128],
        ) as u32;
    }
    assert!(checked >= 15, "{checked}");
}

#[test]
fn replicates_equal_repeated_random_trec_sets() {
    let mut checked = 0;
    for case in 1..=40u64 {
        checked += check(
            &random_case(case, true),
            &[case as u128, 500 + case as u128],
        ) as u32;
    }
    assert!(checked >= 20, "{checked}");
}

/// The ICFHR'14 example and the TREC example through the CLI, B = 50, seed 3, confidence 0.9: every interval is
/// the percentile interval of the scores of the 50 repeated sets; a second run is byte-identical.
#[test]
fn intervals_in_the_report_equal_those_of_the_repeated_sets() {
    for trec in [false, true] {
        let case = (7..)
            .map(|seed| random_case(seed, trec))
            // Every query answered: no draw leaves an empty run file (an input error, not a data set).
            .find(|c| c.queries.iter().all(|q| q.res.is_some()) && units_of(c).0.units.0.is_some())
            .unwrap();
        let (_, ids) = units_of(&case);
        let n = ids.len();
        let dir =
            std::env::temp_dir().join(format!("dropscore-kws-stats-{}-{trec}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // Written renamed: the repeated sets below rename the same way, so the report's units are these.
        let (gt, pred) = files(&case, &ids, &vec![1; n]);
        std::fs::write(dir.join(gt.0), gt.1).unwrap();
        std::fs::write(dir.join(pred.0), pred.1).unwrap();
        let mut args = vec![
            "kws",
            "--gt",
            gt.0,
            "--pred",
            pred.0,
            "--set",
            "bootstrap=50",
            "--set",
            "seed=3",
        ];
        args.extend(["--set", "confidence=0.9"]);
        if case.mode == Mode::Corrected {
            args.extend(["--mode", "corrected"]);
        }
        let set: Vec<String> = case.set.iter().map(|(k, v)| format!("{k}={v}")).collect();
        for s in &set {
            args.extend(["--set", s]);
        }
        let (r, bytes) = cli_json(&dir, &args);
        assert_eq!(r["statistics"]["unit"], "query");
        // The renamed set's units: the same queries, ids q{rank}_000 (byte and natural orders agree there).
        let renamed_case = Case {
            queries: (0..n)
                .map(|u| {
                    let q = case.queries.iter().find(|q| q.id == ids[u]).unwrap();
                    let mut by_bytes = ids.clone();
                    by_bytes.sort();
                    let rank = by_bytes.iter().position(|b| *b == ids[u]).unwrap();
                    Query {
                        id: format!("q{rank:04}_000"),
                        ..q.clone()
                    }
                })
                .collect(),
            extra: case.extra.clone(),
            trec,
            mode: case.mode,
            set: case.set.clone(),
        };
        let mut rids: Vec<String> = renamed_case.queries.iter().map(|q| q.id.clone()).collect();
        rids.sort();
        let reps = replicate_column(3, &[n], 50, |w| score(&renamed_case, &rids, w, &[]));
        let intervals = r["intervals"].as_object().unwrap();
        assert!(intervals.contains_key("map"), "{intervals:?}");
        for (id, got) in intervals {
            let column: Vec<Option<f64>> = reps.iter().map(|v| v.scores.get(id)).collect();
            let want = interval(&column, 0.9);
            assert!(
                close(got["low"].as_f64(), want.low),
                "{id} low {got} {want:?}"
            );
            assert!(
                close(got["high"].as_f64(), want.high),
                "{id} high {got} {want:?}"
            );
            assert!(close(got["se"].as_f64(), want.se), "{id} se {got} {want:?}");
            assert_eq!(got["left_out"], want.left_out as u64, "{id}");
        }
        assert_eq!(cli_json(&dir, &args).1, bytes, "deterministic");
        std::fs::remove_dir_all(&dir).ok();
    }
}

/// `dropscore compare kws` of the examples against themselves: Δ 0 with a zero-width interval, every query a
/// tie; and the paired mixture of two runs equals the run that mixes their result blocks.
#[test]
fn compare_and_mixture() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("www/examples/kws");
    for (gt, pred) in [
        (
            "GroundTruthRelevanceJudgementsSample.xml",
            "WordSpottingResultsSample.xml",
        ),
        ("sample.qrels.bin", "sample.run"),
    ] {
        let (r, _) = cli_json(
            &dir,
            &[
                "compare",
                "kws",
                "--gt",
                gt,
                "--pred",
                pred,
                "--vs",
                pred,
                "--set",
                "bootstrap=30",
            ],
        );
        let c = &r["compare"];
        assert_eq!(c["delta"], 0.0, "{c}");
        assert_eq!(
            (c["low"].as_f64(), c["high"].as_f64()),
            (Some(0.0), Some(0.0)),
            "{c}"
        );
        assert_eq!(c["wins"], 0, "{c}");
    }
    for trec in [false, true] {
        let a = random_case(11, trec);
        let mut b = Case {
            queries: a.queries.clone(),
            extra: a.extra.clone(),
            trec,
            mode: a.mode,
            set: a.set.clone(),
        };
        for q in b.queries.iter_mut() {
            if let Some(res) = q.res.as_mut() {
                res.reverse();
            }
        }
        let ((ra, ids), (rb, _)) = (units_of(&a), units_of(&b));
        let (ua, ub) = (
            ra.units.0.as_deref().unwrap(),
            rb.units.0.as_deref().unwrap(),
        );
        let n = ids.len();
        let take: Vec<bool> = (0..n).map(|u| u % 2 == 0).collect();
        let w = draw_weights(&[5], &[n]).remove(0);
        let mixed = ua.replicate.mixed(&*ub.replicate, &take, &w).unwrap();
        let m = Case {
            queries: a
                .queries
                .iter()
                .map(|q| {
                    let u = ids.iter().position(|i| *i == q.id).unwrap();
                    if take[u] {
                        b.queries.iter().find(|x| x.id == q.id).unwrap().clone()
                    } else {
                        q.clone()
                    }
                })
                .collect(),
            extra: a.extra.clone(),
            trec,
            mode: a.mode,
            set: a.set.clone(),
        };
        let full = score(&m, &ids, &w, &[]);
        for (id, v) in ua.replicate.metrics().iter().zip(&mixed) {
            assert!(
                close(*v, full.scores.get(id)),
                "{id}: {v:?} vs {:?}",
                full.scores.get(id)
            );
        }
    }
}
