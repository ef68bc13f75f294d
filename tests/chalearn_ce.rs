//! `chalearn-ce` on the shared fixture (docs/specs/chalearn-ce.md 7, fixtures/chalearn-ce/ap_example/expected.json,
//! every value to 6 decimals) and every edge case and input error of section 6 with its diagnostic code.

mod common;
use common::*;
use dropscore::input::Role;
use dropscore::Mode::{self, Corrected, Official};
use dropscore::{Report, Severity};
use std::io::Write;
use zip::write::SimpleFileOptions;

const EX: &str = "chalearn-ce/ap_example";
const GT: &str = "chalearn-ce/ap_example/input/ref/La_Tomatina_test.txt";
const RES: &str = "chalearn-ce/ap_example/input/res/La_Tomatina.txt";
const NEGFIRST: &str = "chalearn-ce/ap_example/res_negfirst/La_Tomatina.txt";
const MISSING: &str = "chalearn-ce/ap_example/res_missing/La_Tomatina.txt";

fn f6(v: Option<f64>) -> String {
    v.map_or("null".into(), |x| format!("{x:.6}"))
}

fn fixture(pred: &str, mode: Mode, set: &[(&str, &str)]) -> Report {
    let mut set = set.to_vec();
    set.push(("expected_categories", "1"));
    score_inputs(
        "chalearn-ce",
        vec![input(GT, Some(Role::Gt)), input(pred, Some(Role::Pred))],
        mode,
        &set,
    )
}

fn map6(r: &Report) -> String {
    f6(r.scores.get("map"))
}

fn text(gt: &[(&str, &str)], pred: &[(&str, &str)], mode: Mode, set: &[(&str, &str)]) -> Report {
    let mut inputs = Vec::new();
    for (name, body) in gt {
        inputs.push(bytes_input(name, Some(Role::Gt), body.as_bytes().to_vec()));
    }
    for (name, body) in pred {
        inputs.push(bytes_input(
            name,
            Some(Role::Pred),
            body.as_bytes().to_vec(),
        ));
    }
    let count = gt.len().to_string();
    let mut set = set.to_vec();
    if !set.iter().any(|(k, _)| *k == "expected_categories") {
        set.push(("expected_categories", &count));
    }
    score_inputs("chalearn-ce", inputs, mode, &set)
}

fn diag<'a>(r: &'a Report, code: &str) -> &'a dropscore::Diagnostic {
    r.diagnostics
        .iter()
        .find(|d| d.code == code)
        .unwrap_or_else(|| panic!("no {code} in {:?}", codes(r)))
}

fn no_errors(r: &Report) {
    let e: Vec<_> = r.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert!(e.is_empty(), "{e:?}");
}

fn ap(r: &Report, cat: &str) -> Option<f64> {
    r.items
        .iter()
        .find(|i| i.id == cat)
        .unwrap_or_else(|| panic!("no item {cat}"))
        .scores
        .get("ap")
}

fn detail<'a>(r: &'a Report, cat: &str, k: &str) -> &'a serde_json::Value {
    &r.items.iter().find(|i| i.id == cat).unwrap().detail[k]
}

fn reading(r: &Report, k: &str) -> Option<f64> {
    r.readings[0].scores.get(k)
}

const GT8: &str = "img_a.jpg 1\nimg_b.jpg -1\nimg_c.jpg 1\nimg_d.jpg -1\nimg_e.jpg -1\nimg_f.jpg 1\nimg_g.jpg -1\nimg_h.jpg -1\n";
const RES8: &str = "img_a.jpg 0.9\nimg_b.jpg 0.8\nimg_c.jpg 0.6\nimg_d.jpg 0.6\nimg_e.jpg 0.5\nimg_f.jpg 0.4\nimg_g.jpg 0.3\nimg_h.jpg 0.2\n";

// ---------------------------------------------------------------- section 7 and expected.json

#[test]
fn worked_example_official_default() {
    for (pred, want) in [
        (RES, "0.722222"),
        (NEGFIRST, "0.666667"),
        (MISSING, "0.603175"),
    ] {
        let r = fixture(pred, Official, &[]);
        no_errors(&r);
        assert_eq!(map6(&r), want, "{pred}");
        assert_eq!(f6(ap(&r, "La_Tomatina")), want);
        assert!(!r.official_fails);
    }
}

#[test]
fn worked_example_step_sum_and_no_sentinels() {
    for (pred, step, nosent) in [
        (RES, "0.722222", Some("0.388889")),
        (NEGFIRST, "0.666667", Some("0.333333")),
        (MISSING, "0.555556", None),
    ] {
        let r = fixture(pred, Official, &[("integration", "step")]);
        assert_eq!(map6(&r), step, "{pred}");
        assert_eq!(f6(reading(&fixture(pred, Official, &[]), "step")), step);
        assert_eq!(
            detail(&fixture(pred, Official, &[]), "La_Tomatina", "ap_step")
                .as_f64()
                .map(|x| format!("{x:.6}")),
            Some(step.to_string())
        );
        if let Some(ns) = nosent {
            assert_eq!(
                map6(&fixture(pred, Official, &[("sentinels", "false")])),
                ns,
                "{pred}"
            );
        }
    }
}

#[test]
fn worked_example_tie_grouped_and_corrected() {
    for pred in [RES, NEGFIRST] {
        assert_eq!(
            map6(&fixture(pred, Official, &[("tie_order", "grouped")])),
            "0.666667"
        );
        let c = fixture(pred, Corrected, &[]);
        no_errors(&c);
        assert_eq!(map6(&c), "0.666667", "{pred}");
        assert_eq!(
            f6(reading(&fixture(pred, Official, &[]), "tie_grouped")),
            "0.666667"
        );
        // Tie spread: positives first (0.722222) minus negatives first (0.666667).
        let o = fixture(pred, Official, &[]);
        let spread = detail(&o, "La_Tomatina", "tie_spread").as_f64().unwrap();
        assert_eq!(format!("{spread:.6}"), "0.055556");
        assert_eq!(f6(reading(&o, "positives_first")), "0.722222");
        assert_eq!(f6(reading(&o, "negatives_first")), "0.666667");
    }
    // corrected appends the missing positive img_f as a last tie group: recall reaches 1.
    let c = fixture(MISSING, Corrected, &[]);
    assert_eq!(map6(&c), "0.625000");
    assert_eq!(
        diag(&c, "chalearn.res.missing_images").severity,
        Severity::Warning
    );
}

#[test]
fn codalab_layout_roles_from_path_names() {
    let r = score_inputs(
        "chalearn-ce",
        vec![input(GT, None), input(RES, None)],
        Official,
        &[("expected_categories", "1")],
    );
    no_errors(&r);
    assert_eq!(map6(&r), "0.722222");
    let _ = EX;
}

#[test]
fn text_output_and_scores_key() {
    let r = fixture(RES, Official, &[("scores_key", "score")]);
    let t = dropscore::render::text(&r);
    assert_eq!(
        t,
        "category\tnpos\tAP\nLa_Tomatina\t3\t0.722222\nscore: 0.722222\n"
    );
    let csv = dropscore::render::csv(&r);
    assert!(csv.starts_with("id,group,npos,submitted,matched,unknown,missing_positives,ap,ap_step,ap_grouped,tie_spread\n"), "{csv}");
}

#[test]
fn both_modes_explained() {
    let o = fixture(RES, Official, &[]);
    let c = fixture(RES, Corrected, &[]);
    let lines = dropscore::protocols::explain(&o, &c);
    assert_eq!(lines[0], "mAP: official 0.722222 vs corrected 0.666667.");
    assert!(
        lines[1].contains("La_Tomatina 0.722222 → 0.666667 (ties between positives and negatives)"),
        "{lines:?}"
    );
    assert!(o.plots.iter().any(|p| p.id == "ap_official_vs_corrected"));
}

// ---------------------------------------------------------------- section 6

#[test]
fn unknown_ids_are_dropped_with_a_warning() {
    let res = format!("{RES8}zzz.jpg 0.99\nimg_x.jpg 0.1\n");
    let r = text(&[("A_test.txt", GT8)], &[("A.txt", &res)], Official, &[]);
    no_errors(&r);
    assert_eq!(map6(&r), "0.722222");
    let d = diag(&r, "chalearn.res.unknown_id");
    assert_eq!(d.severity, Severity::Warning);
    assert_eq!(d.line, Some(9));
    assert!(
        d.message.contains("2 image id(s)")
            && d.message.contains("zzz.jpg (line 9), img_x.jpg (line 10)"),
        "{}",
        d.message
    );
    assert_eq!(detail(&r, "A", "unknown"), 2);
}

#[test]
fn duplicate_ids_first_kept_or_refused() {
    // img_h (negative) repeated high up: official keeps its first (last-ranked) occurrence.
    let res = format!("{RES8}img_h.jpg 0.95\n");
    let o = text(&[("A_test.txt", GT8)], &[("A.txt", &res)], Official, &[]);
    no_errors(&o);
    assert_eq!(map6(&o), "0.722222");
    assert_eq!(
        diag(&o, "chalearn.res.duplicate_id").severity,
        Severity::Warning
    );
    let c = text(&[("A_test.txt", GT8)], &[("A.txt", &res)], Corrected, &[]);
    let d = diag(&c, "chalearn.res.duplicate_id");
    assert_eq!((d.severity, d.line), (Severity::Error, Some(9)));
    assert_eq!(c.scores.get("map"), None);
    assert_eq!(ap(&c, "A"), None);
}

#[test]
fn missing_category_file_counts_zero() {
    let r = text(
        &[("A_test.txt", GT8), ("B_test.txt", GT8)],
        &[("A.txt", RES8)],
        Official,
        &[],
    );
    no_errors(&r);
    assert_eq!(ap(&r, "B"), Some(0.0));
    assert_eq!(map6(&r), "0.361111");
    assert!(diag(&r, "chalearn.res.missing_category")
        .message
        .contains("`B`"));
    // Corrected mode too (no appending for a missing file).
    let c = text(
        &[("A_test.txt", GT8), ("B_test.txt", GT8)],
        &[("A.txt", RES8)],
        Corrected,
        &[],
    );
    assert_eq!(ap(&c, "B"), Some(0.0));
}

#[test]
fn unknown_category_file_is_ignored_with_the_closest_name() {
    let r = text(
        &[("La_Tomatina_test.txt", GT8)],
        &[("La_Tomatina.txt", RES8), ("La_Tomatino.txt", RES8)],
        Official,
        &[],
    );
    let d = diag(&r, "chalearn.res.unknown_category");
    assert_eq!(d.severity, Severity::Warning);
    assert!(d.hint.as_deref().unwrap().contains("`La_Tomatina.txt`"));
    assert_eq!(map6(&r), "0.722222");
}

#[test]
fn category_without_positives_is_excluded() {
    let neg = "img_a.jpg -1\nimg_b.jpg -1\n";
    let r = text(
        &[("A_test.txt", GT8), ("B_test.txt", neg)],
        &[("A.txt", RES8), ("B.txt", "img_a.jpg 1\n")],
        Official,
        &[],
    );
    no_errors(&r);
    assert_eq!(ap(&r, "B"), None);
    assert_eq!(map6(&r), "0.722222");
    assert_eq!(
        diag(&r, "chalearn.gt.no_positives").severity,
        Severity::Warning
    );
}

#[test]
fn empty_category_file_scores_zero() {
    for mode in [Official, Corrected] {
        let r = text(
            &[("A_test.txt", GT8), ("B_test.txt", GT8)],
            &[("A.txt", RES8), ("B.txt", "")],
            mode,
            &[],
        );
        no_errors(&r);
        assert_eq!(
            ap(&r, "B"),
            if mode == Official {
                Some(0.0)
            } else {
                ap(&r, "B")
            }
        );
    }
    let r = text(
        &[("B_test.txt", GT8)],
        &[("B.txt", "\n  \n")],
        Official,
        &[],
    );
    assert_eq!(r.scores.get("map"), Some(0.0));
}

#[test]
fn bad_lines_are_located() {
    let res = "img_a.jpg 0.9\nimg_b.jpg\nimg_c.jpg,0.6\nimg_d.jpg abc\nimg_e.jpg 0,5\nimg_f.jpg nan\nimg_g.jpg -inf\n";
    let r = text(&[("A_test.txt", GT8)], &[("A.txt", res)], Official, &[]);
    assert!(r.official_fails);
    assert_eq!(r.scores.get("map"), None);
    let located: Vec<_> = r
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| {
            (
                d.code.as_str(),
                d.line.unwrap(),
                d.column.unwrap(),
                d.found.clone().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        located,
        vec![
            ("chalearn.res.bad_line", 2, 10, "img_b.jpg".to_string()),
            ("chalearn.res.bad_line", 3, 14, "img_c.jpg,0.6".to_string()),
            ("chalearn.res.bad_line", 4, 11, "abc".to_string()),
            ("chalearn.res.bad_line", 5, 11, "0,5".to_string()),
            ("chalearn.res.nonfinite", 6, 11, "nan".to_string()),
            ("chalearn.res.nonfinite", 7, 11, "-inf".to_string()),
        ]
    );
    let hint = |line: u64| {
        r.diagnostics
            .iter()
            .find(|d| d.line == Some(line))
            .unwrap()
            .hint
            .clone()
            .unwrap()
    };
    assert!(hint(3).contains("not `,`"), "{}", hint(3));
    assert!(hint(5).contains("decimal point"), "{}", hint(5));
    assert!(r.diagnostics.iter().all(|d| d.file.as_deref() != Some("")));
}

#[test]
fn gt_labels_that_are_not_integers_warn_once() {
    let gt = "img_a.jpg 1\nimg_b.jpg x\nimg_c.jpg 1\nimg_d.jpg 1.0\nimg_e.jpg -1\nimg_f.jpg 1\nimg_g.jpg 0\nimg_h.jpg -1\n";
    let r = text(&[("A_test.txt", gt)], &[("A.txt", RES8)], Official, &[]);
    no_errors(&r);
    let ds: Vec<_> = r
        .diagnostics
        .iter()
        .filter(|d| d.code == "chalearn.gt.label")
        .collect();
    assert_eq!(ds.len(), 1);
    assert_eq!((ds[0].line, ds[0].column), (Some(2), Some(11)));
    assert_eq!(map6(&r), "0.722222");
    // gt_zero = ignore removes img_g (label 0) from the ranking and from npos.
    let r = text(
        &[("A_test.txt", gt)],
        &[("A.txt", RES8)],
        Official,
        &[("gt_zero", "ignore")],
    );
    assert_eq!(detail(&r, "A", "ignored"), 1);
    assert_eq!(map6(&r), "0.722222");
}

#[test]
fn category_count_warning() {
    let r = score_inputs(
        "chalearn-ce",
        vec![input(GT, Some(Role::Gt)), input(RES, Some(Role::Pred))],
        Official,
        &[],
    );
    let d = diag(&r, "chalearn.gt.category_count");
    assert_eq!(
        (d.expected.as_deref(), d.found.as_deref()),
        (Some("100"), Some("1"))
    );
}

fn zip_of(entries: &[(&str, &str)]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, bytes) in entries {
        w.start_file(*name, SimpleFileOptions::default()).unwrap();
        w.write_all(bytes.as_bytes()).unwrap();
    }
    w.finish().unwrap().into_inner()
}

#[test]
fn zips_flat_and_nested() {
    let flat = zip_of(&[("La_Tomatina.txt", RES8)]);
    let nested = zip_of(&[("sub/La_Tomatina.txt", RES8)]);
    for (z, warn) in [(flat, false), (nested, true)] {
        let r = score_inputs(
            "chalearn-ce",
            vec![
                bytes_input(
                    "La_Tomatina_test.txt",
                    Some(Role::Gt),
                    GT8.as_bytes().to_vec(),
                ),
                bytes_input("submission.zip", Some(Role::Pred), z),
            ],
            Official,
            &[("expected_categories", "1")],
        );
        no_errors(&r);
        assert_eq!(map6(&r), "0.722222");
        assert_eq!(has(&r, "chalearn.zip.nested"), warn);
        if warn {
            assert_eq!(
                diag(&r, "chalearn.zip.nested").file.as_deref(),
                Some("submission.zip")
            );
        }
    }
}

#[test]
fn crlf_bom_tabs_and_trailing_spaces_are_accepted() {
    let res = format!(
        "\u{feff}{}",
        RES8.replace('\n', " \t\r\n").replace(' ', "\t")
    );
    let gt = GT8.replace('\n', "\r");
    let r = text(&[("A_test.txt", &gt)], &[("A.txt", &res)], Official, &[]);
    no_errors(&r);
    assert!(r.diagnostics.is_empty(), "{:?}", codes(&r));
    assert_eq!(map6(&r), "0.722222");
}

#[test]
fn case_insensitive_match_and_mixed_sets_and_stems() {
    let r = text(
        &[("La_Tomatina_test.txt", GT8)],
        &[("la_tomatina.txt", RES8)],
        Official,
        &[],
    );
    assert_eq!(
        diag(&r, "chalearn.res.category_case").severity,
        Severity::Warning
    );
    assert_eq!(map6(&r), "0.722222");
    let r = text(
        &[("A_test.txt", GT8), ("B_val.txt", GT8)],
        &[("A.txt", RES8)],
        Official,
        &[],
    );
    assert_eq!(diag(&r, "chalearn.gt.mixed_sets").severity, Severity::Error);
    assert_eq!(r.scores.get("map"), None);
    let stems = RES8.replace(".jpg", ".png");
    let r = text(
        &[("A_test.txt", GT8)],
        &[("A.txt", &stems)],
        Official,
        &[("id_match", "stem")],
    );
    no_errors(&r);
    assert_eq!(map6(&r), "0.722222");
    let r = text(
        &[("A_gt.txt", GT8)],
        &[("A.txt", RES8)],
        Official,
        &[("gt_suffix", "gt")],
    );
    assert_eq!(map6(&r), "0.722222");
}

#[test]
fn map_is_a_left_to_right_mean_in_name_order() {
    let r = text(
        &[
            ("b_test.txt", GT8),
            ("a_test.txt", GT8),
            ("C_test.txt", GT8),
        ],
        &[
            ("a.txt", RES8),
            (
                "b.txt",
                &RES8.replace(
                    "img_c.jpg 0.6\nimg_d.jpg 0.6",
                    "img_d.jpg 0.6\nimg_c.jpg 0.6",
                ),
            ),
            ("C.txt", &RES8.replace("img_f.jpg 0.4\n", "")),
        ],
        Official,
        &[],
    );
    no_errors(&r);
    // Byte order C, a, b: (0.603175 + 0.722222 + 0.666667) / 3, summed left to right.
    let (c, a, b) = (
        ap(&r, "C").unwrap(),
        ap(&r, "a").unwrap(),
        ap(&r, "b").unwrap(),
    );
    assert_eq!(r.scores.get("map"), Some((0.0 + c + a + b) / 3.0));
    assert_eq!(
        r.items.iter().map(|i| i.id.as_str()).collect::<Vec<_>>(),
        vec!["C", "a", "b"]
    );
}

#[test]
fn no_files_of_one_role_is_an_error() {
    let r = text(&[("A_test.txt", GT8)], &[], Official, &[]);
    assert!(has(&r, "chalearn.input.no_submission"));
    assert!(r.official_fails);
    let r = text(&[], &[("A.txt", RES8)], Official, &[]);
    assert!(has(&r, "chalearn.input.no_gt"));
}

#[test]
fn options_are_checked() {
    let files = dropscore::input::FileSet::default();
    let req = dropscore::protocols::Request {
        set: vec![("tie_order".into(), "random".into())],
        ..dropscore::protocols::Request::new(Official)
    };
    let e = dropscore::protocols::score(
        "chalearn-ce",
        &files,
        &req,
        &mut dropscore::protocols::Quiet,
    )
    .unwrap_err();
    assert!(e.0.contains("tie_order"), "{e}");
}

#[test]
fn page_plots_are_present() {
    let r = fixture(RES, Official, &[]);
    let it = &r.items[0];
    let pr = &it.detail["pr_curve"];
    assert_eq!(pr["kind"], "lines");
    let styles: Vec<_> = pr["series"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["style"].as_str().unwrap())
        .collect();
    assert_eq!(styles, vec!["fill", "dashed", "points"]);
    assert!(
        it.detail["confidence_hist"]["series"]
            .as_array()
            .unwrap()
            .len()
            == 2
    );
    assert_eq!(r.plots[0].id, "ap_sorted");
    // The report round-trips through JSON (the page's explain() parses it back).
    let back: Report = serde_json::from_str(&r.to_json()).unwrap();
    assert_eq!(back.to_json(), r.to_json());
}
