//! The `classification` family (docs/specs/families.md sections 1 and 5). Expected values were computed once by
//! fam1 with the pinned scikit-learn 1.9.1 (tests/reference/requirements-families.txt) on the same files, e.g.
//! `log_loss(y, S)` and `roc_auc_score(y, S / S.sum(axis=1, keepdims=True), multi_class='ovr')`; they are
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
    near(
        r.scores.get("roc_auc_ovr"),
        0.991756767119086,
        "roc_auc_ovr",
    );
    near(
        r.scores.get("roc_auc_ovo"),
        0.9927849927849928,
        "roc_auc_ovo",
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
    assert!(!r.has_errors());
    assert_eq!(
        r.diagnostics
            .iter()
            .find(|d| d.code == "classification.metric_not_applicable")
            .map(|d| d.severity),
        Some(dropscore::diag::Severity::Warning)
    );
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
