//! The `trec` preset of `kws` on the edge cases of docs/specs/kws.md section 6, each with its diagnostic code:
//! duplicate and malformed lines, blank lines, BOM and CRLF, run tags, ties and float sims, relevance levels,
//! the `measures` option, several runs, trec_eval's text output, empty files, 10.0's comments and NaN sims,
//! junk input, progress, extra run fields. Inputs are small TREC texts written here or the sample fixtures.

mod common;
use common::kws_trec::*;
use common::*;
use dropscore::input::{Entry, Role};
use dropscore::protocols::kws::{trec, KwsOptions};
use dropscore::protocols::options::OptionSet;
use dropscore::protocols::{Progress, Quiet};
use dropscore::Mode::{self, Corrected, Official};
use dropscore::Report;

/// The trec scorer called directly on raw bytes (no detection): for inputs detection would refuse.
fn direct(qrels: &[u8], runs: &[&[u8]], mode: Mode, set: &[(&str, &str)]) -> Report {
    let set: Vec<(String, String)> = set
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    let opts = KwsOptions::resolve(mode, &set).unwrap();
    let gt = Entry::from_bytes("q.qrels", Some(Role::Gt), qrels.to_vec());
    let rs: Vec<Entry> = runs
        .iter()
        .enumerate()
        .map(|(i, b)| Entry::from_bytes(&format!("r{i}.run"), Some(Role::Pred), b.to_vec()))
        .collect();
    let refs: Vec<&Entry> = rs.iter().collect();
    trec::score(&gt, &refs, mode, &opts, &mut Quiet)
}

const Q2: &str = "q1 0 d1 1\nq1 0 d2 1\nq1 0 d3 0\n";

#[test]
fn duplicate_docno_official_error_corrected_first_kept() {
    let run = "q1 Q0 d1 1 3 r\nq1 Q0 d2 2 2 r\nq1 Q0 d1 3 1 r\n";
    let r = text_pair(Q2, run, Official, &[]);
    let d = diag(&r, "kws.trec.duplicate_doc");
    assert!(d.is_error());
    assert_eq!(d.line, Some(3));
    assert!(d.message.contains("lines 1 and 3"), "{}", d.message);
    assert!(d
        .official_behaviour
        .as_deref()
        .unwrap()
        .contains("duplicate docs"));
    assert!(r.official_fails);
    assert!(r.scores.iter().all(|(_, v)| v.is_none()));
    let c = text_pair(Q2, run, Corrected, &[]);
    let d = diag(&c, "kws.trec.duplicate_doc");
    assert_eq!(d.severity, dropscore::Severity::Warning);
    assert!(c.official_fails, "trec_eval itself would stop");
    assert_eq!(val(&c, "num_ret"), 2.0);
    assert_eq!(val(&c, "map"), 1.0);
    // Beyond the depth cut trec_eval does not look: a warning, and the run is scored.
    let r = text_pair(Q2, run, Official, &[("depth", "2")]);
    assert_eq!(
        diag(&r, "kws.trec.duplicate_doc").severity,
        dropscore::Severity::Warning
    );
    assert!(!r.official_fails);
    assert_eq!(val(&r, "num_ret"), 2.0);
    assert_eq!(val(&r, "P_5"), 0.4);
}

#[test]
fn malformed_lines_are_located() {
    let r = text_pair(
        "q1 0 d1 1\nq1 0 d2\nq1 0 d3 1 x\n",
        "q1 Q0 d1 1 1 r\n",
        Official,
        &[],
    );
    let m: Vec<_> = r
        .diagnostics
        .iter()
        .filter(|d| d.code == "kws.trec.malformed_line")
        .collect();
    assert_eq!(m.len(), 2);
    assert_eq!((m[0].line, m[0].column), (Some(2), Some(8)));
    assert_eq!(m[0].found.as_deref(), Some("3: q1 0 d2"));
    assert_eq!((m[1].line, m[1].column), (Some(3), Some(11)));
    assert!(m[0].is_error() && m[0].hint.is_some() && m[0].official_behaviour.is_some());
    assert!(r.official_fails);
    assert!(r.scores.iter().all(|(_, v)| v.is_none()));
    // Run: 5 fields (trec_eval refuses) and 7 fields (trec_eval ignores the 7th; the spec refuses it).
    let r = text_pair(
        Q2,
        "q1 Q0 d1 1 1 r\nq1 Q0 d2 2 1\nq1 Q0 d3 3 1 r x\n",
        Official,
        &[],
    );
    let m: Vec<_> = r
        .diagnostics
        .iter()
        .filter(|d| d.code == "kws.trec.malformed_line")
        .collect();
    assert_eq!((m[0].line, m[0].column), (Some(2), Some(13)));
    assert_eq!((m[1].line, m[1].column), (Some(3), Some(16)));
    assert!(m[1]
        .official_behaviour
        .as_deref()
        .unwrap()
        .contains("ignores"));
    assert!(r.official_fails);
}

#[test]
fn qrels_quirks_blank_duplicate_bom_crlf() {
    // A blank qrels line: skipped with a warning (trec_eval refuses the file); CRLF and a BOM are fine.
    let r = text_pair(
        "\u{feff}q1 0 d1 1\r\n\r\nq1 0 d2 0\r\nq1 0 d2 1\r\n",
        "q1 Q0 d2 1 2 r\nq1 Q0 d1 2 1 r\n",
        Official,
        &[],
    );
    let d = diag(&r, "kws.trec.blank_line");
    assert_eq!(d.severity, dropscore::Severity::Warning);
    assert_eq!(d.line, Some(2));
    assert!(r.official_fails);
    // A repeated judgement stops trec_eval ("duplicate docs"): official has an error and no headline
    // (tests/kws_trec_versions.rs); corrected keeps the last line, with a warning.
    assert!(r.has_errors() && r.scores.get("map").is_none());
    let r = text_pair(
        "\u{feff}q1 0 d1 1\r\n\r\nq1 0 d2 0\r\nq1 0 d2 1\r\n",
        "q1 Q0 d2 1 2 r\nq1 Q0 d1 2 1 r\n",
        Corrected,
        &[],
    );
    let d = diag(&r, "kws.trec.duplicate_judgement");
    assert_eq!(d.line, Some(4));
    // The last line wins: d2 is relevant.
    assert_eq!(val(&r, "num_rel"), 2.0);
    assert_eq!(val(&r, "map"), 1.0);
    assert_eq!(r.items[0].id, "q1");
    // In the run a blank line is only an info (trec_eval skips it).
    let r = text_pair(Q2, "q1 Q0 d1 1 1 r\n\n  \nq1 Q0 d2 1 0 r\n", Official, &[]);
    assert_eq!(
        diag(&r, "kws.trec.blank_line").severity,
        dropscore::Severity::Info
    );
    assert!(!r.official_fails);
    assert_eq!(val(&r, "map"), 1.0);
}

#[test]
fn run_tags_ties_and_float_sims() {
    // Tags differ: warning, the first tag is the run id.
    let r = text_pair(Q2, "q1 Q0 d1 1 1 a\nq1 Q0 d2 2 0 b\n", Official, &[]);
    assert_eq!(r.options["runid"], "a");
    let d = diag(&r, "kws.trec.tag_differs");
    assert_eq!((d.line, d.column), (Some(2), Some(14)));
    // Equal sims: docno descending (strcmp), so d2 comes before d1.
    let tie = "q1 Q0 d1 1 1 r\nq1 Q0 d4 2 1 r\n";
    let q = "q1 0 d1 1\n";
    assert_eq!(val(&text_pair(q, tie, Official, &[]), "recip_rank"), 0.5);
    assert_eq!(
        val(
            &text_pair(q, tie, Official, &[("tie_break", "file_order")]),
            "recip_rank"
        ),
        1.0
    );
    // 9.0.8 keeps sim in a C float: 1.0000000001 and 1.0 tie and docno decides; 10.0 keeps the double.
    let close = "q1 Q0 a 1 1.0000000001 r\nq1 Q0 b 2 1.0 r\n";
    let qa = "q1 0 a 1\n";
    assert_eq!(val(&text_pair(qa, close, Official, &[]), "recip_rank"), 0.5);
    assert_eq!(
        val(
            &text_pair(qa, close, Official, &[("trec_version", "10.0")]),
            "recip_rank"
        ),
        1.0
    );
    // rank is ignored; sim decides.
    let r = text_pair(q, "q1 Q0 d9 1 0.5 r\nq1 Q0 d1 2 0.7 r\n", Official, &[]);
    assert_eq!(val(&r, "recip_rank"), 1.0);
    // A non-numeric sim is read with atof, with a warning.
    let r = text_pair(q, "q1 Q0 d9 1 2 r\nq1 Q0 d1 2 3abc r\n", Official, &[]);
    assert_eq!(diag(&r, "kws.trec.bad_sim").column, Some(12));
    assert_eq!(val(&r, "recip_rank"), 1.0);
}

#[test]
fn relevance_level_negative_rel_and_bpref() {
    // Levels 2 and 1; -l 2 keeps only the level-2 document relevant.
    let q = "q1 0 a 2\nq1 0 b 1\nq1 0 c 0\nq1 0 d -1\n";
    let run = "q1 Q0 b 1 4 r\nq1 Q0 d 2 3 r\nq1 Q0 c 3 2 r\nq1 Q0 a 4 1 r\n";
    let r = text_pair(q, run, Official, &[("relevance_level", "2")]);
    assert_eq!(val(&r, "num_rel"), 1.0);
    assert_eq!(val(&r, "map"), 0.25);
    // bpref: judged non-relevant (b, c) above a: N = 2, R = 1: 1 - min(2, 1) / min(2, 1) = 0.
    assert_eq!(val(&r, "bpref"), 0.0);
    let r = text_pair(q, run, Official, &[]);
    assert_eq!(val(&r, "num_rel"), 2.0);
    // d (rel -1) is unjudged: not relevant, skipped by bpref. c is judged non-relevant above a.
    assert_eq!(val(&r, "bpref"), (1.0 + 0.0) / 2.0);
    assert_eq!(val(&r, "map"), (1.0 + 2.0 / 4.0) / 2.0);
}

#[test]
fn measures_option() {
    let r = kws(QBIN, RUN, Official, &[("measures", "map,P_7,ndcg_cut")]);
    let keys: Vec<&str> = r.scores.iter().map(|(k, _)| k).collect();
    assert_eq!(
        keys,
        [
            "map",
            "P_7",
            "ndcg_cut_5",
            "ndcg_cut_10",
            "ndcg_cut_15",
            "ndcg_cut_20",
            "ndcg_cut_30",
            "ndcg_cut_100",
            "ndcg_cut_200",
            "ndcg_cut_500",
            "ndcg_cut_1000"
        ]
    );
    // k adds cutoffs to every selected cutoff family.
    let r = kws(
        QBIN,
        RUN,
        Official,
        &[("measures", "map,P_7,success_1"), ("k", "3,10")],
    );
    let keys: Vec<&str> = r.scores.iter().map(|(k, _)| k).collect();
    assert_eq!(
        keys,
        [
            "map",
            "P_3",
            "P_7",
            "P_10",
            "success_1",
            "success_3",
            "success_10"
        ]
    );
    assert_eq!(val(&r, "P_3"), 1.0);
    let r = kws(QBIN, RUN, Official, &[("measures", "map,ndgc")]);
    let d = diag(&r, "kws.option.bad_measures");
    assert!(
        d.message.contains("`ndgc`") && d.message.contains("ndcg_cut"),
        "{}",
        d.message
    );
}

#[test]
fn several_runs_make_readings() {
    let r = score_inputs(
        "kws",
        vec![
            input(QBIN, Some(Role::Gt)),
            input(RUN_MISSING, Some(Role::Pred)),
            input(RUN, Some(Role::Pred)),
        ],
        Official,
        &[],
    );
    // sample.run sorts first by path and is the report.
    assert_eq!(f4(&r, "map"), "0.5185");
    assert_eq!(r.readings.len(), 1);
    assert_eq!(r.readings[0].id, format!("run:{RUN_MISSING}"));
    assert_eq!(
        format!("{:.4}", r.readings[0].scores.get("map").unwrap()),
        "0.5556"
    );
    assert!(r.plots.iter().any(|p| p.id.starts_with("paired_diff")));
}

#[test]
fn text_output_is_trec_eval_q() {
    let r = kws(
        QBIN,
        RUN,
        Official,
        &[("measures", "map,num_ret,gm_map,P_5,runid")],
    );
    let t = trec::render_text(&r);
    let expect_head = "num_ret               \tsb0000\t48\nmap                   \tsb0000\t0.5556\nP_5                   \tsb0000\t1.0000\n";
    assert!(t.starts_with(expect_head), "{t}");
    assert!(t.contains("P_5                   \tsb0001\t0.8000\nrunid                 \tall\trun\nnum_ret               \tall\t127\nmap                   \tall\t0.5185\ngm_map                \tall\t0.5172\nP_5                   \tall\t0.9000\n"), "{t}");
    assert_eq!(t.lines().count(), 3 * 2 + 5);
    assert_eq!(dropscore::protocols::render_text(&r), Some(t));
    // No runid line unless asked for; per-query lines in byte order ("B" < "a").
    let r = text_pair(
        "a 0 d 1\nB 0 d 1\n",
        "a Q0 d 1 1 r\nB Q0 d 1 1 r\n",
        Official,
        &[("measures", "P_5")],
    );
    assert_eq!(trec::render_text(&r), "P_5                   \tB\t0.2000\nP_5                   \ta\t0.2000\nP_5                   \tall\t0.2000\n");
}

#[test]
fn no_common_queries_and_empty_files() {
    let r = text_pair("q1 0 d 1\n", "q2 Q0 d 1 1 r\n", Official, &[]);
    assert!(diag(&r, "kws.trec.no_common_queries").is_error());
    assert!(r.official_fails);
    let c = text_pair("q1 0 d 1\n", "q2 Q0 d 1 1 r\n", Corrected, &[]);
    assert_eq!(
        diag(&c, "kws.trec.no_common_queries").severity,
        dropscore::Severity::Warning
    );
    assert_eq!(val(&c, "map"), 0.0, "complete: the qrels query counts 0");
    let r = direct(b"q1 0 d 1\n", &[b""], Official, &[]);
    assert!(diag(&r, "kws.trec.empty_file").is_error());
    let r = direct(b"", &[b"q1 Q0 d 1 1 r\n"], Official, &[]);
    assert!(diag(&r, "kws.trec.empty_file").is_error());
}

#[test]
fn version_10_comments_and_nan_sims() {
    let q = "# judgements\nq1 0 d1 1\n";
    let run = "# a comment\nq1 Q0 d1 1 1 r\nq1 Q0 d2 2 nan r\n";
    let r = direct(
        q.as_bytes(),
        &[run.as_bytes()],
        Official,
        &[("trec_version", "10.0")],
    );
    no_errors(&r);
    assert_eq!(r.scores.get("map"), Some(1.0));
    assert!(has(&r, "kws.trec.nan_sim"));
    // 9.0.8 reads `#` lines as data.
    let r = direct(q.as_bytes(), &[run.as_bytes()], Official, &[]);
    assert!(diag(&r, "kws.trec.malformed_line")
        .hint
        .as_deref()
        .unwrap()
        .contains("10.0"));
}

#[test]
fn junk_never_panics() {
    let inputs: Vec<Vec<u8>> = vec![
        vec![],
        b"\n\n\n".to_vec(),
        b"\xff\xfe\x00garbage\x00\r\r".to_vec(),
        b"q1 0 d1 99999999999999999999999\nq1 0 d2 -99999999999999999999\n".to_vec(),
        b"q1 Q0 d1 1 1e999999 r\nq1 Q0 d2 2 -inf r\nq1 Q0 d3 3 0x1p-2000 r\n".to_vec(),
        "q1 0 é 1\nq1\t0\té\t1\n".as_bytes().to_vec(),
        b"a b c d e f g h i j k\n".to_vec(),
        b"q Q0 d 1 nan(xyz) t\nq Q0 d 1 nan t\n".to_vec(),
    ];
    for q in &inputs {
        for run in &inputs {
            for mode in [Official, Corrected] {
                for set in [
                    &[][..],
                    &[
                        ("depth", "0"),
                        ("trec_version", "10.0"),
                        ("complete", "true"),
                    ][..],
                ] {
                    let r = direct(q, &[run, q], mode, set);
                    let _ = trec::render_text(&r);
                    let _ = r.to_json();
                }
            }
        }
    }
}

struct Recorder(Vec<(f64, String)>);
impl Progress for Recorder {
    fn update(&mut self, fraction: f64, phase: &str) {
        self.0.push((fraction, phase.to_string()));
    }
}

#[test]
fn progress_reports_reading_the_run() {
    let mut big = String::new();
    for i in 0..20000 {
        big.push_str(&format!("q1 Q0 d{i} {i} {} r\n", 20000 - i));
    }
    let opts = KwsOptions::resolve(Official, &[]).unwrap();
    let gt = Entry::from_bytes("q", None, Q2.as_bytes().to_vec());
    let run = Entry::from_bytes("r", None, big.into_bytes());
    let mut p = Recorder(Vec::new());
    let r = trec::score(&gt, &[&run], Official, &opts, &mut p);
    assert_eq!(r.scores.get("num_ret"), Some(20000.0));
    let reading: Vec<f64> =
        p.0.iter()
            .filter(|x| x.1 == "reading run")
            .map(|x| x.0)
            .collect();
    assert!(reading.len() >= 4);
    assert!(reading.windows(2).all(|w| w[0] <= w[1]));
    assert!(reading.iter().all(|f| (0.0..=1.0).contains(f)));
}

/// trec_eval (9.0.8 and 10.0, checked on their binaries) reads run lines with more than 6 fields and ignores
/// the extras, so official mode scores them with a warning; corrected mode keeps the spec's error.
#[test]
fn run_lines_with_extra_fields() {
    use dropscore::input::{FileSet, Input, Limits, Role};
    use dropscore::protocols::{score, Quiet, Request};
    let qrels = b"q1 0 d1 1\nq1 0 d2 0\n".to_vec();
    let run = b"q1 Q0 d1 1 2.0 r extra\nq1 Q0 d2 2 1.0 r\n".to_vec();
    for (mode, fails) in [
        (dropscore::Mode::Official, false),
        (dropscore::Mode::Corrected, true),
    ] {
        let files = FileSet::build(
            vec![
                Input {
                    path: "q.txt".into(),
                    role: Some(Role::Gt),
                    blob: std::rc::Rc::new(qrels.clone()),
                },
                Input {
                    path: "r.txt".into(),
                    role: Some(Role::Pred),
                    blob: std::rc::Rc::new(run.clone()),
                },
            ],
            &Limits::default(),
        );
        let r = score("kws", &files, &Request::new(mode), &mut Quiet).unwrap();
        let d = r
            .diagnostics
            .iter()
            .find(|d| d.code == "kws.trec.malformed_line")
            .expect("diagnostic");
        assert_eq!(d.is_error(), fails, "{mode:?}");
        assert_eq!((d.line, d.column), (Some(1), Some(18)));
        if !fails {
            assert_eq!(r.scores.get("map"), Some(1.0));
            assert!(!r.official_fails);
        }
    }
}
