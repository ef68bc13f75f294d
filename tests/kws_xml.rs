//! The `icfhr14` preset of `kws` on the shared fixtures: every worked example and edge case of
//! docs/specs/kws.md sections 6 and 7 (XML rows), in both modes.

mod common;
use common::*;
use dropscore::Mode::{Corrected, Official};

const SAMPLE_GT: &str = "kws/rusteval/GroundTruthRelevanceJudgementsSample.xml";
const SAMPLE_RES: &str = "kws/rusteval/WordSpottingResultsSample.xml";
const BENTHAM_GT: &str = "kws/rusteval/TRACK_I_Bentham_ICFHR2014.RelevanceJudgements.xml";
const SYNTH: &str = "kws/synthetic/SYNTH_TRACK_I_Bentham.xml.gz";
const EDGE_GT: &str = "kws/edge/gt.xml";

#[test]
fn sample_official_matches_rusteval() {
    let r = kws(SAMPLE_GT, SAMPLE_RES, Official, &[]);
    assert_eq!(headline5(&r), ["0.90000", "0.50000", "0.51852"]);
    // The JSON carries the binary32 values widened exactly (docs/specs/kws.md 9).
    assert_eq!(r.scores.get("precAt5"), Some(0.9f32 as f64));
    // rusteval's f32 arithmetic, (ap(sb0000) + ap(sb0001)) / 2 in binary32, lands one ulp above f32(14/27)
    // (0.5185185074806213, the "e.g." of kws.md 9): the report carries what the arithmetic produced.
    let ap: Vec<f32> = r
        .items
        .iter()
        .map(|i| i.scores.get("ap").unwrap() as f32)
        .collect();
    assert_eq!(r.scores.get("map"), Some(((ap[0] + ap[1]) / 2.0) as f64));
    assert_eq!(r.scores.get("map"), Some(0.5185185670852661));
    let keys: Vec<&str> = r.scores.iter().map(|(k, _)| k).collect();
    assert_eq!(keys, ["precAt5", "precAt10", "map"]);
    // Per query: fixtures/kws/expected/expected_sample_perquery.tsv.
    let tsv = std::fs::read_to_string(data("kws/expected/expected_sample_perquery.tsv")).unwrap();
    check_per_query(&r, &tsv, 2);
    assert!(!r.official_fails);
    assert_eq!(
        r.options.get("preset").and_then(|v| v.as_str()),
        Some("icfhr14")
    );
}

#[test]
fn sample_corrected_equals_official_to_5_decimals() {
    let r = kws(SAMPLE_GT, SAMPLE_RES, Corrected, &[]);
    assert_eq!(headline5(&r), ["0.90000", "0.50000", "0.51852"]);
    // Binary64 in corrected mode: 14/27 exactly as a double.
    assert_eq!(r.scores.get("map"), Some((5.0 / 9.0 + 13.0 / 27.0) / 2.0));
    assert!(
        has(&r, "kws.xml.unknown_attribute"),
        "the sample GT's `elevance` typo is reported"
    );
}

fn check_per_query(r: &dropscore::Report, tsv: &str, expect_rows: usize) {
    let mut n = 0;
    for line in tsv.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        if f[0] == "MEAN" {
            assert_eq!(headline5(r), [f[2], f[3], f[4]]);
            continue;
        }
        let it = r
            .items
            .iter()
            .find(|i| i.id == f[0])
            .unwrap_or_else(|| panic!("query {} missing", f[0]));
        assert_eq!(
            it.detail["R"].as_u64().unwrap().to_string(),
            f[1],
            "R of {}",
            f[0]
        );
        assert_eq!(f5(it.scores.get("precAt5")), f[2], "precAt5 of {}", f[0]);
        assert_eq!(f5(it.scores.get("precAt10")), f[3], "precAt10 of {}", f[0]);
        assert_eq!(f5(it.scores.get("ap")), f[4], "ap of {}", f[0]);
        n += 1;
    }
    assert_eq!(n, expect_rows);
}

#[test]
fn synthetic_bentham_every_query_both_modes() {
    let tsv = std::fs::read_to_string(data("kws/expected/expected_synth_perquery.tsv")).unwrap();
    for mode in [Official, Corrected] {
        let r = kws(BENTHAM_GT, SYNTH, mode, &[]);
        assert_eq!(headline5(&r), ["0.74313", "0.62857", "0.55674"], "{mode:?}");
        check_per_query(&r, &tsv, 320);
        assert!(
            r.diagnostics.iter().all(|d| !d.is_error()),
            "{:?}",
            codes(&r)
        );
    }
}

#[test]
fn synthetic_raw_output_matches_rusteval_rows() {
    // Every per-query line of rusteval's raw output (random row and column order) is reproduced.
    let raw = std::fs::read_to_string(data("kws/expected/rusteval_synth.out")).unwrap();
    let mut lines = raw.lines();
    let cols: Vec<&str> = lines.next().unwrap().split_whitespace().collect();
    let r = kws(BENTHAM_GT, SYNTH, Official, &[]);
    let mut seen = 0;
    for l in lines {
        let f: Vec<&str> = l.split('\t').filter(|s| !s.is_empty()).collect();
        if f.len() != 4 || l.starts_with("MEAN") {
            continue;
        }
        let it = r.items.iter().find(|i| i.id == f[0]).unwrap();
        for (c, v) in cols.iter().zip(&f[1..]) {
            assert_eq!(&f5(it.scores.get(c)), v, "{} {c}", f[0]);
        }
        seen += 1;
    }
    assert_eq!(seen, 320);
}

/// docs/specs/kws.md 7.4: (results, official MEAN or None for an error, corrected MEAN).
#[test]
fn edge_cases_7_4() {
    let ok = ["0.33333", "0.50000", "0.34921"];
    type Mean<'a> = [&'a str; 3];
    let cases: &[(&str, &str, Option<Mean>, Mean)] = &[
        (EDGE_GT, "kws/edge/res_ok.xml", Some(ok), ok),
        (
            EDGE_GT,
            "kws/edge/res_missingq2.xml",
            Some(["0.66667", "1.00000", "0.69841"]),
            ok,
        ),
        (EDGE_GT, "kws/edge/res_extra.xml", None, ok),
        (
            EDGE_GT,
            "kws/edge/res_dup.xml",
            Some(["0.83333", "0.83333", "0.83333"]),
            ["0.16667", "0.16667", "0.16667"],
        ),
        (
            EDGE_GT,
            "kws/edge/res_wrongdoc.xml",
            Some(ok),
            ["0.16667", "0.33333", "0.10317"],
        ),
        (EDGE_GT, "kws/edge/res_oneline.xml", None, ok),
        (EDGE_GT, "kws/edge/res_blank.xml", None, ok),
        ("kws/edge/gt_utf8.xml", "kws/edge/res_ok.xml", None, ok),
        (
            "kws/edge/gt_empty.xml",
            "kws/edge/res_ok.xml",
            Some(["NaN", "NaN", "NaN"]),
            ["0.00000", "0.00000", "0.00000"],
        ),
        (
            SAMPLE_GT,
            "kws/edge/sample_swapped.xml",
            Some(["0.00000", "0.00000", "0.00000"]),
            ["0.90000", "0.50000", "0.51852"],
        ),
        (
            SAMPLE_GT,
            "kws/edge/sample_squote.xml",
            None,
            ["0.90000", "0.50000", "0.51852"],
        ),
    ];
    for (gt, res, official, corrected) in cases {
        let o = kws(gt, res, Official, &[]);
        match official {
            Some(v) => {
                assert_eq!(headline5(&o), v, "official {res}");
                assert!(!o.official_fails, "{res}");
            }
            None => {
                assert!(
                    o.has_errors() && o.official_fails,
                    "official {res} must fail: {:?}",
                    codes(&o)
                );
                assert!(o.scores.iter().all(|(_, v)| v.is_none()));
            }
        }
        let c = kws(gt, res, Corrected, &[]);
        assert_eq!(headline5(&c), corrected, "corrected {res} {:?}", codes(&c));
        assert!(!c.has_errors(), "corrected {res}: {:?}", codes(&c));
    }
}

#[test]
fn edge_res_ok_per_query() {
    let r = kws(EDGE_GT, "kws/edge/res_ok.xml", Official, &[]);
    let q1 = &r.items[0];
    assert_eq!(
        (
            f5(q1.scores.get("precAt5")),
            f5(q1.scores.get("precAt10")),
            f5(q1.scores.get("ap"))
        ),
        ("0.66667".into(), "1.00000".into(), "0.69841".into())
    );
    let dup = kws(EDGE_GT, "kws/edge/res_dup.xml", Official, &[]);
    assert_eq!(f5(dup.items[0].scores.get("ap")), "1.66667");
}

/// docs/specs/kws.md section 6: each situation's diagnostic code, in each mode.
#[test]
fn edge_case_codes_section_6() {
    let o = |gt: &str, res: &str| kws(gt, res, Official, &[]);
    let c = |gt: &str, res: &str| kws(gt, res, Corrected, &[]);
    assert!(has(
        &o(EDGE_GT, "kws/edge/res_short.xml"),
        "kws.official.short_list"
    ));
    let short = c(EDGE_GT, "kws/edge/res_short.xml");
    assert!(!short.has_errors() && short.scores.get("precAt5").is_some());
    assert!(has(
        &o(EDGE_GT, "kws/edge/res_missingq2.xml"),
        "kws.results.missing_query"
    ));
    assert!(has(
        &o(EDGE_GT, "kws/edge/res_extra.xml"),
        "kws.official.unknown_query"
    ));
    assert!(has(
        &c(EDGE_GT, "kws/edge/res_extra.xml"),
        "kws.results.unknown_query"
    ));
    assert!(has(
        &o(EDGE_GT, "kws/edge/res_dup.xml"),
        "kws.results.duplicate_item"
    ));
    assert!(has(
        &o(EDGE_GT, "kws/edge/res_wrongdoc.xml"),
        "kws.results.cross_document_hit"
    ));
    let rel0 = o("kws/edge/gt_rel0.xml", "kws/edge/res_ok.xml");
    assert!(has(&rel0, "kws.official.reader_panic") && rel0.official_fails);
    let rel0c = c("kws/edge/gt_rel0.xml", "kws/edge/res_ok.xml");
    assert!(!rel0c.has_errors() && has(&rel0c, "kws.gt.non_relevant"));
    assert!(has(
        &o("kws/edge/gt_empty.xml", "kws/edge/res_ok.xml"),
        "kws.gt.empty_query"
    ));
    // Non-ASCII text before Relevance: the error points at the ’ (column of the character).
    let utf = o("kws/edge/gt_utf8.xml", "kws/edge/res_ok.xml");
    let d = utf
        .diagnostics
        .iter()
        .find(|d| d.code == "kws.official.reader_panic")
        .unwrap();
    let line = std::fs::read_to_string(data("kws/edge/gt_utf8.xml"))
        .unwrap()
        .lines()
        .nth(d.line.unwrap() as usize - 1)
        .unwrap()
        .to_string();
    assert_eq!(
        line.chars().nth(d.column.unwrap() as usize - 1),
        Some('\u{2019}'),
        "{d:?}"
    );
    let one = o(EDGE_GT, "kws/edge/res_oneline.xml");
    let d = one
        .diagnostics
        .iter()
        .find(|d| d.code == "kws.official.no_results")
        .unwrap();
    assert!(d.hint.as_deref().unwrap().contains("one element per line"));
    let blank = o(EDGE_GT, "kws/edge/res_blank.xml");
    let d = blank
        .diagnostics
        .iter()
        .find(|d| d.code == "kws.official.reader_panic")
        .unwrap();
    assert_eq!(
        (d.file.as_deref(), d.line),
        (Some("kws/edge/res_blank.xml"), Some(4))
    );
    assert!(has(
        &o(SAMPLE_GT, "kws/edge/sample_swapped.xml"),
        "kws.official.attribute_order"
    ));
    let sq = o(SAMPLE_GT, "kws/edge/sample_squote.xml");
    let d = sq
        .diagnostics
        .iter()
        .find(|d| d.code == "kws.official.no_results")
        .unwrap();
    assert!(
        d.hint.as_deref().unwrap().contains("double quotes"),
        "{d:?}"
    );
    assert!(has(&sq, "kws.official.tag_not_recognised"));
}

fn inline(gt: &str, res: &str, mode: dropscore::Mode) -> dropscore::Report {
    use dropscore::input::Role;
    score_inputs(
        "kws",
        vec![
            bytes_input("gt.xml", Some(Role::Gt), gt.into()),
            bytes_input("res.xml", Some(Role::Pred), res.into()),
        ],
        mode,
        &[],
    )
}

const GT2: &str = "<GTRel queryid=\"q\">\n<word document=\"d\" x=\"1\" y=\"1\" width=\"5\" height=\"5\" />\n</GTRel>\n";

fn res_lines(open: &str, close: bool) -> String {
    let mut s = format!("{open}\n");
    for i in 0..10 {
        s.push_str(&format!(
            "<word document=\"d\" x=\"{}\" y=\"1\" width=\"5\" height=\"5\" />\n",
            i + 1
        ));
    }
    if close {
        s.push_str("</Rel>\n");
    }
    s
}

#[test]
fn unclosed_tag_not_literal_and_duplicate_blocks() {
    // Block not closed at EOF: official drops it with a warning; corrected refuses.
    let res = res_lines("<Rel queryid=\"q\">", true) + &res_lines("<Rel queryid=\"q\">", false);
    let o = inline(GT2, &res, Official);
    assert!(has(&o, "kws.xml.unclosed_block") && !o.has_errors());
    let c = inline(GT2, &res, Corrected);
    assert!(c
        .diagnostics
        .iter()
        .any(|d| d.code == "kws.xml.unclosed_block" && d.is_error()));
    // Opening tag not literal: ignored with a warning in official; parsed in corrected.
    let res = res_lines("<Rel queryid=\"q\" >", true);
    let o = inline(GT2, &res, Official);
    assert!(has(&o, "kws.official.tag_not_recognised"));
    let c = inline(GT2, &res, Corrected);
    assert_eq!(headline5(&c), ["1.00000", "1.00000", "1.00000"]);
    // Duplicate query block: last wins + warning in official; error in corrected.
    let res = res_lines("<Rel queryid=\"q\">", true).replace("x=\"1\"", "x=\"9\"")
        + &res_lines("<Rel queryid=\"q\">", true);
    let o = inline(GT2, &res, Official);
    assert_eq!(headline5(&o), ["1.00000", "1.00000", "1.00000"]);
    assert!(o
        .diagnostics
        .iter()
        .any(|d| d.code == "kws.xml.duplicate_query" && !d.is_error()));
    let c = inline(GT2, &res, Corrected);
    assert!(c
        .diagnostics
        .iter()
        .any(|d| d.code == "kws.xml.duplicate_query" && d.is_error()));
}

#[test]
fn options_change_what_they_say() {
    // complete=true in official mode: q2 counts 0 (binary32 arithmetic) and the deviation is listed.
    let r = kws(
        EDGE_GT,
        "kws/edge/res_missingq2.xml",
        Official,
        &[("complete", "true")],
    );
    assert_eq!(headline5(&r), ["0.33333", "0.50000", "0.34921"]);
    assert!(r
        .deviations
        .iter()
        .any(|d| d.starts_with("complete = true")));
    // match_document in official mode: the wrong-page hit no longer counts.
    let r = kws(
        EDGE_GT,
        "kws/edge/res_wrongdoc.xml",
        Official,
        &[("match_document", "true")],
    );
    assert_eq!(headline5(&r), ["0.16667", "0.33333", "0.10317"]);
    // Extra k adds a column; empty_gt_query=zero.
    let r = kws(SAMPLE_GT, SAMPLE_RES, Corrected, &[("k", "5,10,20")]);
    assert!(r.scores.contains("precAt20") && r.items[0].scores.contains("precAt20"));
    let r = kws(
        "kws/edge/gt_empty.xml",
        "kws/edge/res_ok.xml",
        Official,
        &[("empty_gt_query", "zero")],
    );
    assert_eq!(headline5(&r), ["0.00000", "0.00000", "0.00000"]);
}

#[test]
fn bad_values_in_corrected_mode_are_located() {
    let gt = "<GTRel queryid=\"q\">\n<word document=\"d\" x=\"-1\" y=\"1\" width=\"5\" height=\"5\" Relevance=\"2\"/>\n<word x=\"1\" y=\"1\" width=\"5\" height=\"5\"/>\n</GTRel>\n";
    let c = inline(gt, &res_lines("<Rel queryid=\"q\">", true), Corrected);
    for (code, line) in [
        ("kws.xml.bad_coordinate", 2),
        ("kws.xml.bad_relevance", 2),
        ("kws.xml.missing_attribute", 3),
    ] {
        let d = c
            .diagnostics
            .iter()
            .find(|d| d.code == code)
            .unwrap_or_else(|| panic!("{code}: {:?}", codes(&c)));
        assert_eq!(d.line, Some(line), "{code}");
        assert!(d.is_error());
    }
    assert!(c.scores.iter().all(|(_, v)| v.is_none()));
    let c = inline(
        "<GTRel queryid=\"q\">\n<word document=\"d\" x=\"1\"",
        "<Rel queryid=\"q\"></Rel>",
        Corrected,
    );
    assert!(
        has(&c, "kws.xml.syntax") || has(&c, "kws.xml.unclosed_block"),
        "{:?}",
        codes(&c)
    );
}

#[test]
fn plots_and_display_for_the_page() {
    let r = kws(SAMPLE_GT, SAMPLE_RES, Official, &[]);
    let ids: Vec<&str> = r.plots.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["ap_sorted", "pr11", "r_hist"]);
    assert_eq!(r.plots[0].labels, ["sb0000", "sb0001"]);
    assert_eq!(r.display.headline[0].label, "P@5 (capped)");
    let strip = r.items[0].detail["hit_strip"].as_str().unwrap();
    assert_eq!(strip.len(), 48);
    assert_eq!(strip.matches('1').count(), 5);
}

#[test]
fn text_output_is_rusteval_layout() {
    let r = kws(SAMPLE_GT, SAMPLE_RES, Official, &[]);
    let t = dropscore::render::text(&r);
    let expected = "\t\tprecAt5         precAt10        ap              \n=======================================================================\nsb0000\t\t1.00000\t\t0.55556\t\t0.55556\nsb0001\t\t0.80000\t\t0.44444\t\t0.48148\n------------------------------------------------------------------------\nMEAN:\t\tprecAt5         precAt10        ap              \n=======================================================================\n\t\t0.90000\t\t0.50000\t\t0.51852\t\t\n";
    assert!(t.starts_with(expected), "{t}");
}

/// docs/specs/kws.md 3.3 and 7.1/7.2: the trec_eval-equivalent reading of XML input (6 dp from the spec).
#[test]
fn trec_equivalent_reading() {
    let cases = [
        (
            SAMPLE_GT,
            SAMPLE_RES,
            [
                ("P_5", "0.900000"),
                ("P_10", "0.450000"),
                ("relative_P_10", "0.500000"),
                ("map", "0.518519"),
                ("recip_rank", "1.000000"),
                ("Rprec", "0.500000"),
                ("ndcg", "0.731501"),
                ("ndcg_cut_10", "0.699752"),
            ],
        ),
        (
            BENTHAM_GT,
            SYNTH,
            [
                ("P_5", "0.743125"),
                ("P_10", "0.573125"),
                ("relative_P_10", "0.628574"),
                ("map", "0.556738"),
                ("recip_rank", "0.951414"),
                ("Rprec", "0.520296"),
                ("ndcg", "0.812932"),
                ("ndcg_cut_10", "0.688090"),
            ],
        ),
    ];
    for (gt, res, expected) in cases {
        for mode in [Official, Corrected] {
            let r = kws(gt, res, mode, &[]);
            let t = r
                .readings
                .iter()
                .find(|x| x.id == "trec_equivalent")
                .expect("reading");
            assert!(t.label.contains("not official"));
            for (k, v) in expected {
                assert_eq!(format!("{:.6}", t.scores.get(k).unwrap()), v, "{res} {k}");
            }
        }
    }
}

/// docs/specs/kws.md 4 #5: with complete averaging the rusteval-style mean over results queries is shown too.
#[test]
fn results_queries_only_reading() {
    let c = kws(EDGE_GT, "kws/edge/res_missingq2.xml", Corrected, &[]);
    assert_eq!(headline5(&c), ["0.33333", "0.50000", "0.34921"]);
    let r = c
        .readings
        .iter()
        .find(|r| r.id == "results_queries_only")
        .expect("reading");
    let v: Vec<String> = r.scores.iter().map(|(_, v)| f5(v)).collect();
    assert_eq!(v, ["0.66667", "1.00000", "0.69841"]);
    let o = kws(EDGE_GT, "kws/edge/res_missingq2.xml", Official, &[]);
    assert!(
        o.readings.iter().all(|r| r.id != "results_queries_only"),
        "no complete averaging, no second mean"
    );
}

/// Where rusteval crashes, the report says so in plain words and names what in the input causes it, never
/// by quoting Rust's panic text (`Option::unwrap()`, "range end index … out of range").
#[test]
fn official_crashes_in_plain_words() {
    let sample = "kws/rusteval/GroundTruthRelevanceJudgementsSample.xml";
    let cases = [
        (
            "kws/edge/gt.xml",
            "kws/edge/res_short.xml",
            "fewer than the 5 it reads",
        ),
        (
            "kws/edge/gt.xml",
            "kws/edge/res_extra.xml",
            "no ground-truth block",
        ),
        (
            "kws/edge/gt.xml",
            "kws/edge/res_oneline.xml",
            "no <Rel queryid=",
        ),
        (
            "kws/edge/gt.xml",
            "kws/edge/res_blank.xml",
            "(the line is blank)",
        ),
        ("kws/edge/gt_rel0.xml", "kws/edge/res_ok.xml", "Relevance"),
        (sample, "kws/edge/sample_squote.xml", "no <Rel queryid="),
    ];
    for (gt, pred, words) in cases {
        for mode in [Official, Corrected] {
            let r = kws(gt, pred, mode, &[]);
            let texts: Vec<&str> = r
                .diagnostics
                .iter()
                .filter_map(|d| d.official_behaviour.as_deref())
                .collect();
            for t in &texts {
                for raw in ["panic", "unwrap", "out of range", "Error"] {
                    assert!(!t.contains(raw), "{pred}: `{raw}` in {t:?}");
                }
            }
            if mode == Official {
                assert!(
                    texts
                        .iter()
                        .any(|t| t.contains("crashes") && t.contains(words)),
                    "{pred}: {texts:?}"
                );
            }
        }
    }
}
