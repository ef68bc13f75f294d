//! The `classification` family (docs/specs/families.md sections 1 and 5). Expected values were computed once by
//! fam1 with the pinned scikit-learn 1.9.1 (tests/reference/requirements-families.txt) on the same files, e.g.
//! `log_loss(y, S)` and `roc_auc_score(y, S, multi_class='ovr')` (which raises unless the rows sum to 1); they are
//! compared to 1e-12 relative. tests/reference/classification_diff.py checks 2,000 random cases.

mod common;

use common::{bytes_input, score_inputs};
use dropscore::input::Role;
use dropscore::{Mode, Report};

fn example(rel: &str) -> Vec<u8> {
    std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("www/examples/classification")
            .join(rel),
    )
    .unwrap()
}

fn run(gt: &[u8], pred: &[u8], set: &[(&str, &str)]) -> Report {
    run_mode(gt, pred, set, Mode::Official)
}

fn run_mode(gt: &[u8], pred: &[u8], set: &[(&str, &str)], mode: Mode) -> Report {
    score_inputs(
        "classification",
        vec![
            bytes_input("gt.csv", Some(Role::Gt), gt.to_vec()),
            bytes_input("pred.csv", Some(Role::Pred), pred.to_vec()),
        ],
        mode,
        set,
    )
}

fn near(got: Option<f64>, want: f64, what: &str) {
    let g = got.unwrap_or_else(|| panic!("{what}: null, want {want}"));
    assert!(
        g == want || (g - want).abs() <= 1e-12 * want.abs().max(g.abs()),
        "{what}: {g} vs {want}"
    );
}

fn diag<'a>(r: &'a Report, code: &str) -> &'a dropscore::Diagnostic {
    r.diagnostics
        .iter()
        .find(|d| d.code == code)
        .unwrap_or_else(|| panic!("no {code} in {:#?}", r.diagnostics))
}

#[test]
fn three_class_scores_example() {
    let r = run(
        &example("gt.csv"),
        &example("pred_scores.csv"),
        &[("k", "2")],
    );
    assert!(!r.has_errors(), "{:#?}", r.diagnostics);
    near(r.scores.get("accuracy"), 0.9333333333333333, "accuracy");
    near(r.scores.get("f1_macro"), 0.9329819938515591, "f1_macro");
    near(
        r.scores.get("cohen_kappa_quadratic"),
        0.8623853211009175,
        "kappa quadratic",
    );
    near(r.scores.get("matthews_corrcoef"), 0.9032375226498642, "mcc");
    near(r.scores.get("log_loss"), 0.5696134114910609, "log_loss");
    // The example's rows sum to 0.999–1.001: scikit-learn 1.9's multi-class roc_auc_score raises (np.allclose
    // fails), so the three ROC AUCs are null with a warning; the rows are never renormalised.
    for m in ["roc_auc_ovr", "roc_auc_ovr_weighted", "roc_auc_ovo"] {
        assert_eq!(r.scores.get(m), None, "{m}");
    }
    let d = diag(&r, "classification.not_probabilities");
    assert_eq!(d.severity, dropscore::diag::Severity::Warning);
    assert!(d
        .official_behaviour
        .as_deref()
        .unwrap()
        .contains("sum up to 1.0"));
    // brier_score_loss(y, S) with three classes: not halved, rows as given.
    near(
        r.scores.get("brier_score"),
        0.3112719666666666,
        "brier_score",
    );
    near(
        r.scores.get("average_precision"),
        0.9852392977392977,
        "average_precision",
    );
    near(r.scores.get("top_k_accuracy"), 1.0, "top_k_accuracy");
    assert!(
        !r.scores.contains("roc_auc") && !r.scores.contains("f1"),
        "binary metrics only for two classes"
    );
    assert_eq!(r.item_count(), 30);
    assert_eq!(r.item(0).id, "img001");
    assert_eq!(r.display.headline[0].id, "accuracy");
    let kinds: Vec<&str> = r.plots.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(kinds, ["confusion_matrix", "roc", "pr"]);
    assert_eq!(r.plots[1].series.len(), 3);
}

#[test]
fn binary_score_example_and_corrected_mode() {
    let gt = example("gt_binary.csv");
    let pred = example("pred_binary.csv");
    let r = run(&gt, &pred, &[("metric", "roc_auc")]);
    near(r.scores.get("roc_auc"), 0.8645833333333334, "roc_auc");
    near(
        r.scores.get("average_precision"),
        0.8126867239120529,
        "average_precision",
    );
    near(r.scores.get("brier_score"), 0.163242175, "brier_score");
    near(r.scores.get("log_loss"), 0.48979531454316694, "log_loss");
    assert_eq!(r.scores.get("accuracy"), None);
    assert!(
        r.scores.contains("accuracy"),
        "hard-label metrics are null, not absent"
    );
    diag(&r, "classification.binary_score");
    assert_eq!(r.display.headline[0].id, "roc_auc");
    let c = run_mode(&gt, &pred, &[("metric", "roc_auc")], Mode::Corrected);
    assert_eq!(c.scores, r.scores);
    diag(&c, "classification.corrected_same");
}

#[test]
fn labels_submission_keeps_score_metrics_as_null() {
    let r = run(
        &example("gt.csv"),
        &example("pred_labels.csv"),
        &[("metric", "log_loss")],
    );
    near(r.scores.get("accuracy"), 0.9333333333333333, "accuracy");
    assert!(r.scores.contains("log_loss") && r.scores.contains("roc_auc_ovr"));
    assert_eq!(r.scores.get("log_loss"), None);
    // A leaderboard metric the submission cannot give is an error saying what the submission must contain;
    // the other metrics are still shown.
    let d = diag(&r, "classification.metric_not_applicable");
    assert_eq!(d.severity, dropscore::diag::Severity::Error);
    assert!(
        d.message.contains("one score column per class") && d.message.contains("cat, dog, fox"),
        "{}",
        d.message
    );
}

/// A GT and a submission of the AUC competition: `label_column = "churn"`, metric roc_auc.
fn churn(values: &[&str]) -> (Vec<u8>, Vec<u8>) {
    let truth = ["0", "1", "1", "0", "1", "0"];
    let mut gt = String::from("customer_id,churn\n");
    let mut pred = String::from("customer_id,churn\n");
    for (i, (t, v)) in truth.iter().zip(values).enumerate() {
        gt.push_str(&format!("c{i},{t}\n"));
        pred.push_str(&format!("c{i},{v}\n"));
    }
    (gt.into_bytes(), pred.into_bytes())
}

const AUC: &[(&str, &str)] = &[("label_column", "churn"), ("metric", "roc_auc")];

#[test]
fn probabilities_in_the_gt_label_column_name_are_scores() {
    let (gt, pred) = churn(&["0.1", "0.8", "0.4", "0.35", "0.9", "0.5"]);
    let r = run(&gt, &pred, AUC);
    // roc_auc_score([0,1,1,0,1,0], [0.1,0.8,0.4,0.35,0.9,0.5]) = 0.888888888888889
    near(r.scores.get("roc_auc"), 0.888888888888889, "roc_auc");
    assert!(!r.has_errors(), "{:#?}", r.diagnostics);
    // A third column does not switch the reading off.
    let pred3 =
        "customer_id,churn,note\nc0,0.1,x\nc1,0.8,x\nc2,0.4,x\nc3,0.35,x\nc4,0.9,x\nc5,0.5,x\n";
    let r = run(&gt, pred3.as_bytes(), AUC);
    near(
        r.scores.get("roc_auc"),
        0.888888888888889,
        "roc_auc, third column",
    );
}

#[test]
fn hard_labels_to_an_auc_competition_are_read_as_scores_with_an_info() {
    let (gt, pred) = churn(&["0", "1", "0", "0", "1", "1"]);
    let r = run(&gt, &pred, AUC);
    // roc_auc_score([0,1,1,0,1,0], [0,1,0,0,1,1]) = 0.6666666666666667; accuracy 4/6.
    near(r.scores.get("roc_auc"), 0.6666666666666667, "roc_auc");
    near(r.scores.get("accuracy"), 4.0 / 6.0, "accuracy");
    assert_eq!(
        diag(&r, "classification.labels_as_scores").severity,
        dropscore::diag::Severity::Info
    );
    // Without a score metric, the same file is hard labels only.
    let r = run(&gt, &pred, &[("label_column", "churn")]);
    assert_eq!(r.scores.get("roc_auc"), None);
    assert!(r
        .diagnostics
        .iter()
        .all(|d| d.code != "classification.labels_as_scores"));
}

#[test]
fn multiclass_rows_are_scored_raw_when_they_sum_to_one() {
    let gt = b"id,label\ni0,a\ni1,b\ni2,c\ni3,a\n";
    let pred = b"id,a,b,c\ni0,0.4,0.3,0.300001\ni1,0.3999998,0.4,0.2000002\ni2,0.2,0.2,0.6\ni3,0.5,0.25,0.25\n";
    let r = run(gt, pred, &[]);
    // scikit-learn 1.9.1: 1.0 / 1.0 / 1.0 (renormalised rows gave 0.9167 / 0.875 / 0.9167).
    for m in ["roc_auc_ovr", "roc_auc_ovr_weighted", "roc_auc_ovo"] {
        near(r.scores.get(m), 1.0, m);
    }
    near(
        r.scores.get("brier_score"),
        0.42875013000026996,
        "brier_score",
    );
    // A leaderboard ROC AUC on rows that do not sum to 1: an error, as scikit-learn raises.
    let off = b"id,a,b,c\ni0,0.4,0.3,0.3\ni1,0.3,0.4,0.3\ni2,0.2,0.2,0.599\ni3,0.5,0.25,0.25\n";
    let r = run(gt, off, &[("metric", "roc_auc_ovr")]);
    assert_eq!(r.scores.get("roc_auc_ovr"), None);
    let d = diag(&r, "classification.not_probabilities");
    assert_eq!(d.severity, dropscore::diag::Severity::Error);
    assert_eq!(d.line, Some(4));
}

#[test]
fn file_shape_hints_name_the_real_problem() {
    let gt = b"id,label\na,1\nb,0\n";
    let code = |pred: &[u8], set: &[(&str, &str)]| -> String {
        let r = run(gt, pred, set);
        r.diagnostics
            .iter()
            .find(|d| d.severity == dropscore::diag::Severity::Error)
            .map(|d| d.code.clone())
            .unwrap_or_default()
    };
    assert_eq!(code(b"a,1\nb,0\n", &[]), "classification.no_header");
    assert_eq!(
        code(b"id;label\na;1\nb;0\n", &[]),
        "classification.delimiter"
    );
    assert_eq!(
        code(b"{\"images\": [], \"annotations\": []}\n", &[]),
        "classification.not_csv"
    );
    let r = run(b"1,0\n2,1\n", b"id,label\n1,0\n", &[]);
    assert!(r
        .diagnostics
        .iter()
        .any(|d| d.code == "classification.no_header"));
}

#[test]
fn labels_with_a_label_outside_the_gt() {
    // y_true = [a, b, c, a, b, c, a], y_pred = [a, c, c, a, zz, b, a]: f1_score(average='macro', zero_division=0)
    // = 0.375 (zz is a label of its own), cohen_kappa_score(weights='linear') = 0.4814814814814814,
    // balanced_accuracy_score = 0.5, matthews_corrcoef = 0.3941203906840411.
    let gt = b"id,label\n1,a\n2,b\n3,c\n4,a\n5,b\n6,c\n7,a\n";
    let pred = b"id,label\n7,a\n6,b\n5,zz\n4,a\n3,c\n2,c\n1,a\n";
    let r = run(gt, pred, &[]);
    near(r.scores.get("f1_macro"), 0.375, "f1_macro");
    near(
        r.scores.get("cohen_kappa_linear"),
        0.4814814814814814,
        "kappa linear",
    );
    near(r.scores.get("balanced_accuracy"), 0.5, "balanced accuracy");
    near(r.scores.get("matthews_corrcoef"), 0.3941203906840411, "mcc");
    let d = diag(&r, "classification.unknown_label");
    assert_eq!((d.line, d.column), (Some(4), Some(3)));
    assert_eq!(r.plots[0].labels, ["a", "b", "c", "zz"]);
}

#[test]
fn located_id_errors_block_the_score() {
    let gt = b"id,label\nx1,0\nx2,1\nx3,0\n";
    let pred = b"id,label\nx1,1\nx1,0\nx9,1\n";
    let r = run(gt, pred, &[]);
    assert_eq!(r.scores.get("accuracy"), None);
    assert!(r.official_fails);
    let d = diag(&r, "classification.duplicate_id");
    assert_eq!(
        (d.file.as_deref(), d.line, d.column),
        (Some("pred.csv"), Some(3), Some(1))
    );
    let d = diag(&r, "classification.unknown_id");
    assert_eq!((d.line, d.column), (Some(4), Some(1)));
    let missing: Vec<Option<u64>> = r
        .diagnostics
        .iter()
        .filter(|d| d.code == "classification.missing_id")
        .map(|d| d.line)
        .collect();
    assert_eq!(missing, [Some(3), Some(4)], "x2 and x3, at their GT lines");
    assert_eq!(
        diag(&r, "classification.missing_id").file.as_deref(),
        Some("gt.csv")
    );
}

#[test]
fn missing_worst_scores_the_rest() {
    let gt = b"id,label\nx1,0\nx2,1\nx3,0\nx4,1\n";
    let pred = b"id,label\nx1,0\nx2,1\nx3,0\n";
    let r = run(gt, pred, &[("missing", "worst")]);
    assert!(!r.has_errors());
    near(r.scores.get("accuracy"), 0.75, "accuracy with x4 wrong");
    assert_eq!(
        diag(&r, "classification.missing_id").severity,
        dropscore::diag::Severity::Warning
    );
}

#[test]
fn score_cell_problems_are_located() {
    let gt = b"id,label\na,x\nb,y\nc,z\nd,x\n";
    let pred = "id,x,y,z\na,0.2,0.3,0.5\nb,NaN,0.1,0.2\nc,0.1,,0.3\nd,0.1,high,inf\n".as_bytes();
    let r = run(gt, pred, &[]);
    assert_eq!(r.scores.get("accuracy"), None);
    let d = diag(&r, "classification.non_finite");
    assert_eq!((d.line, d.column), (Some(3), Some(3)));
    let d = diag(&r, "classification.empty_cell");
    assert_eq!((d.line, d.column), (Some(4), Some(7)));
    let d = diag(&r, "classification.non_numeric");
    assert_eq!(
        (d.line, d.column, d.found.as_deref()),
        (Some(5), Some(7), Some("high"))
    );
    assert_eq!(
        r.diagnostics
            .iter()
            .filter(|d| d.code == "classification.non_finite")
            .count(),
        2
    );
}

/// A binary score column with NaN or an infinity is still a score column (docs/specs/families.md: `nan`, `inf` are
/// errors located by line and column), not a column of labels that are "not integers".
#[test]
fn binary_score_nan_is_a_located_error() {
    let gt = b"id,target\nu1,1\nu2,0\nu3,1\n";
    let pred = b"id,score\nu1,nan\nu2,0.25\nu3,-inf\n";
    let r = run(gt, pred, &[]);
    assert!(r
        .diagnostics
        .iter()
        .all(|d| d.code != "classification.mixed_label_types"));
    let bad: Vec<_> = r
        .diagnostics
        .iter()
        .filter(|d| d.code == "classification.non_finite")
        .map(|d| (d.line, d.column))
        .collect();
    assert_eq!(bad, [(Some(2), Some(4)), (Some(4), Some(4))]);
    assert_eq!(r.scores.get("roc_auc"), None);
    // Labels stay labels: a column of 0/1 with a word in it is a labels column.
    let r = run(gt, b"id,label\nu1,1\nu2,zero\nu3,1\n", &[]);
    assert!(r
        .diagnostics
        .iter()
        .any(|d| d.code == "classification.mixed_label_types"));
}

#[test]
fn missing_class_column_and_field_count() {
    let gt = b"id,label\na,x\nb,y\nc,z\n";
    let r = run(gt, b"id,x,y\na,0.5,0.5\n", &[]);
    let d = diag(&r, "classification.missing_class_column");
    assert_eq!((d.line, d.column), (Some(1), Some(1)));
    assert!(d.message.contains('z'));
    let r = run(gt, b"id,label\na,x\nb\nc,z\n", &[]);
    assert_eq!(diag(&r, "classification.csv").line, Some(3));
}

#[test]
fn positive_label_rules() {
    let gt = b"id,label\n1,no\n2,yes\n3,no\n4,yes\n";
    let pred = b"id,label\n1,no\n2,yes\n3,yes\n4,yes\n";
    let r = run(gt, pred, &[]);
    assert_eq!(r.scores.get("f1"), None);
    diag(&r, "classification.no_positive_label");
    // f1_score(y, p, pos_label='yes') = 0.8, precision 2/3, recall 1.
    let r = run(gt, pred, &[("positive_label", "yes")]);
    near(r.scores.get("f1"), 0.8, "f1");
    near(r.scores.get("precision"), 0.6666666666666666, "precision");
    near(r.scores.get("recall"), 1.0, "recall");
    let files = dropscore::input::FileSet::build(
        vec![
            bytes_input("gt.csv", Some(Role::Gt), gt.to_vec()),
            bytes_input("pred.csv", Some(Role::Pred), pred.to_vec()),
        ],
        &dropscore::input::Limits::default(),
    );
    let req = dropscore::protocols::Request {
        set: vec![("metric".into(), "f1".into())],
        ..dropscore::protocols::Request::new(Mode::Official)
    };
    assert!(
        dropscore::protocols::score(
            "classification",
            &files,
            &req,
            &mut dropscore::protocols::Quiet
        )
        .is_err(),
        "metric = f1 without positive_label is a usage error"
    );
}

#[test]
fn quirks_bom_crlf_quotes_semicolon() {
    let gt = "\u{feff}id;label\r\n\"a\";\"1\"\r\n b ;0\r\n".as_bytes();
    let pred = b"id;0;1\r\nb;0.9;0.1\r\n\"a\";0.4;0.6\r\n";
    let r = run(gt, pred, &[("delimiter", ";")]);
    assert!(!r.has_errors(), "{:#?}", r.diagnostics);
    near(r.scores.get("accuracy"), 1.0, "accuracy");
    near(r.scores.get("roc_auc"), 1.0, "roc_auc");
}

/// Pre-flight: a submission that cannot give the leaderboard metric (hard labels of three classes to a ROC AUC
/// competition) is not ready, with one sentence saying what the submission must contain.
#[test]
fn check_says_not_ready_when_the_leaderboard_metric_cannot_be_computed() {
    let dir = std::env::temp_dir().join(format!("dropscore-cls-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ex = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("www/examples/classification");
    let manifest = dir.join("manifest.json");
    let (gt, pred) = (ex.join("gt.csv"), ex.join("pred_labels.csv"));
    let path = |p: &std::path::Path| p.display().to_string();
    let (gt, pred, manifest) = (path(&gt), path(&pred), path(&manifest));
    let (code, _, err) = common::cli::run(&[
        "manifest",
        "classification",
        "--set",
        "metric=roc_auc_ovr",
        "--gt",
        &gt,
        "--out",
        &manifest,
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, v) = common::cli::run_json(&[
        "check",
        "classification",
        "--manifest",
        &manifest,
        "--pred",
        &pred,
        "--format",
        "json",
    ]);
    assert_eq!(code, 1);
    assert_eq!(v["ready"], false, "{v}");
    let d = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "classification.metric_not_applicable")
        .unwrap_or_else(|| panic!("{v}"));
    assert!(d["message"]
        .as_str()
        .unwrap()
        .contains("one score column per class"));
    std::fs::remove_dir_all(&dir).ok();
}

/// A ground truth of one class (a test subset may be): scikit-learn still scores the binary problem.
#[test]
fn single_class_ground_truth_is_still_binary() {
    let gt = b"id,label\na,0\nb,0\nc,0\nd,0\n";
    // f1_score([0]*4, [0,1,0,0]) = 0.0 (zero_division), accuracy 0.75.
    let r = run(gt, b"id,label\na,0\nb,1\nc,0\nd,0\n", &[]);
    for m in ["f1", "precision", "recall"] {
        assert_eq!(r.scores.get(m), Some(0.0), "{m}");
    }
    near(r.scores.get("accuracy"), 0.75, "accuracy");
    // A score column stays one: average_precision 0.0 (no positive), brier_score_loss 0.175, roc_auc NaN.
    let r = run(gt, b"id,score\na,0.2\nb,0.7\nc,0.4\nd,0.1\n", &[]);
    assert_eq!(r.scores.get("average_precision"), Some(0.0));
    near(r.scores.get("brier_score"), 0.175, "brier_score");
    assert!(r.scores.contains("roc_auc") && r.scores.get("roc_auc").is_none());
}

/// One column of probabilities for a multi-class AUC (string or integer classes): the error says the
/// submission is one column of numbers and what the metric needs; no unknown-label or mixed-type note repeats
/// it; the label metrics are null for integer classes, where scikit-learn raises (Mix of label input types).
#[test]
fn one_probability_column_for_a_multiclass_auc() {
    let pred = b"id,cat\na,0.7\nb,0.2\nc,0.4\n";
    for (gt, labels) in [
        (&b"id,label\na,cat\nb,dog\nc,fox\n"[..], "(cat, dog, fox)"),
        (&b"id,label\na,0\nb,1\nc,2\n"[..], "(0, 1, 2)"),
    ] {
        let r = run(gt, pred, &[("metric", "roc_auc_ovr")]);
        let d = diag(&r, "classification.metric_not_applicable");
        assert_eq!(d.severity, dropscore::Severity::Error);
        assert!(
            d.message.contains("one column of numbers (first: `0.7`)")
                && d.message.contains(labels),
            "{}",
            d.message
        );
        for noise in [
            "classification.unknown_label",
            "classification.mixed_label_types",
        ] {
            assert!(
                !r.diagnostics.iter().any(|d| d.code == noise),
                "{noise}: {:#?}",
                r.diagnostics
            );
        }
    }
    let r = run(
        b"id,label\na,0\nb,1\nc,2\n",
        pred,
        &[("metric", "roc_auc_ovr")],
    );
    assert_eq!(r.scores.get("accuracy"), None, "{:?}", r.scores);
}
