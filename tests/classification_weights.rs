//! Option `weight_column` of `classification`: each GT row's weight is scikit-learn's `sample_weight`
//! (docs/kaggle.md). Expected values computed with the pinned scikit-learn 1.9.1
//! (tests/reference/requirements-families.txt); tests/reference/classification_weights_diff.py checks random cases.

mod common;

use common::{bytes_input, score_inputs};
use dropscore::input::Role;
use dropscore::{Mode, Report};

fn run(gt: &str, pred: &str, set: &[(&str, &str)]) -> Report {
    score_inputs(
        "classification",
        vec![
            bytes_input("gt.csv", Some(Role::Gt), gt.as_bytes().to_vec()),
            bytes_input("pred.csv", Some(Role::Pred), pred.as_bytes().to_vec()),
        ],
        Mode::Official,
        set,
    )
}

fn near(r: &Report, id: &str, want: f64) {
    let g = (r.scores.get(id)).unwrap_or_else(|| panic!("{id}: null; {:#?}", r.diagnostics));
    assert!(
        (g - want).abs() <= 1e-12 * want.abs().max(1e-3),
        "{id}: {g} vs {want}"
    );
}

fn has(r: &Report, code: &str) -> bool {
    r.diagnostics.iter().any(|d| d.code == code)
}

const GT: &str = "id,label,w\n1,a,1\n2,b,2.5\n3,c,0\n4,a,0.5\n5,b,3\n6,c,1\n7,a,2\n";
const LABELS: &str = "id,label\n1,a\n2,b\n3,b\n4,a\n5,c\n6,c\n7,b\n";
const SCORES: &str = "id,a,b,c\n1,.6,.3,.1\n2,.2,.5,.3\n3,.1,.6,.3\n4,.5,.25,.25\n5,.3,.3,.4\n6,.2,.2,.6\n7,.4,.45,.15\n";

#[test]
fn labels_weighted_as_sample_weight() {
    let r = run(GT, LABELS, &[("weight_column", "w")]);
    near(&r, "accuracy", 0.5);
    near(&r, "f1_macro", 0.5);
    near(&r, "cohen_kappa_quadratic", 0.5555555555555556);
    near(&r, "matthews_corrcoef", 0.2714302213502297);
    near(&r, "balanced_accuracy", 0.6277056277056277);
    assert!(has(&r, "classification.weighted"));
    // Without the option the same files give the unweighted numbers (accuracy 4/7).
    near(&run(GT, LABELS, &[]), "accuracy", 4.0 / 7.0);
}

#[test]
fn scores_weighted_and_ovo_null() {
    let set = [("weight_column", "w"), ("k", "2")];
    let r = run(GT, SCORES, &set);
    near(&r, "roc_auc_ovr_weighted", 0.8333333333333334);
    near(&r, "log_loss", 0.8545592665937936);
    near(&r, "top_k_accuracy", 1.0);
    // scikit-learn raises for one-vs-one with sample_weight.
    assert_eq!(r.scores.get("roc_auc_ovo"), None);
    assert!(r.scores.contains("roc_auc_ovo"));
}

#[test]
fn every_weight_zero_scores_null() {
    let gt = "id,label,w\n1,0,0\n2,1,0\n3,1,0\n";
    let r = run(gt, "id,label\n1,0\n2,1\n3,0\n", &[("weight_column", "w")]);
    assert!(r.scores.iter().all(|(_, v)| v.is_none()), "{:?}", r.scores);
}

#[test]
fn bad_weights_are_located_errors() {
    let gt = "id,label,w\n1,0,1\n2,1,-2\n3,1,x\n";
    let r = run(gt, "id,label\n1,0\n2,1\n3,0\n", &[("weight_column", "w")]);
    let neg = (r.diagnostics.iter())
        .find(|d| d.code == "classification.negative_weight")
        .expect("negative weight refused");
    // Line 3, the cell's first character.
    assert_eq!((neg.line, neg.column), (Some(3), Some(5)));
    let bad_number = (r.diagnostics.iter()).any(|d| d.line == Some(4) && d.column == Some(5));
    assert!(bad_number, "{:#?}", r.diagnostics);
    assert_eq!(r.scores.get("accuracy"), None);
    let r = run(
        gt,
        "id,label\n1,0\n2,1\n3,0\n",
        &[("weight_column", "weight")],
    );
    assert!(has(&r, "classification.missing_column"));
}
