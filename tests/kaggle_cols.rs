//! Kaggle's conventions in the `classification` and `regression` families (docs/specs/families.md sections 1 and 2):
//! label metrics over thousands of classes from per-class counts, and the mean of a per-column metric over
//! several target columns. Expected values were computed with the pinned scikit-learn 1.9.1
//! (tests/reference/requirements-kaggle.txt) on the same data; tests/reference/kaggle_cols_diff.py checks 300
//! random cases per convention.

mod common;

use common::{bytes_input, score_inputs};
use dropscore::input::Role;
use dropscore::{Mode, Report};

fn run(family: &str, gt: String, pred: String, set: &[(&str, &str)]) -> Report {
    score_inputs(
        family,
        vec![
            bytes_input("gt.csv", Some(Role::Gt), gt.into_bytes()),
            bytes_input("pred.csv", Some(Role::Pred), pred.into_bytes()),
        ],
        Mode::Official,
        set,
    )
}

fn near(r: &Report, id: &str, want: f64) {
    let g = r
        .scores
        .get(id)
        .unwrap_or_else(|| panic!("{id}: null, want {want}; {:#?}", r.diagnostics));
    assert!(
        g == want || (g - want).abs() <= 1e-12 * want.abs().max(g.abs()),
        "{id}: {g} vs {want}"
    );
}

#[test]
fn three_thousand_classes_from_per_class_counts() {
    // y = c(i mod 3000), ŷ = y every fifth row, else c(7i mod 3000), 9,000 rows: beyond the full matrix's
    // 1,024 labels, so every metric reads per-class counts (the kappas in closed form).
    let k = 3000;
    let row = |i: usize, v: usize| format!("r{i},c{v}\n");
    let gt: String = (0..9000).map(|i| row(i, i % k)).collect();
    let pred: String = (0..9000)
        .map(|i| row(i, if i % 5 == 0 { i % k } else { (i * 7) % k }))
        .collect();
    let r = run(
        "classification",
        format!("id,label\n{gt}"),
        format!("id,label\n{pred}"),
        &[("metric", "f1_macro")],
    );
    near(&r, "f1_macro", 0.2);
    near(&r, "balanced_accuracy", 0.2);
    near(&r, "matthews_corrcoef", 0.19973324441480494);
    near(&r, "cohen_kappa", 0.1997332444148049);
    near(&r, "cohen_kappa_linear", 0.27401658600184287);
    near(&r, "cohen_kappa_quadratic", 0.3302044273560475);
    assert!(
        r.plots.iter().all(|p| p.id != "confusion_matrix"),
        "no 9-million-cell heatmap"
    );
}

const GT: &str =
    "id,toxic,obscene,threat\na,0,1,0\nb,1,1,-1\nc,0,0,1\nd,1,0,0\ne,0,1,1\nf,1,0,-1\n";
const PRED: &str = "id,threat,toxic,obscene\nf,0.5,0.9,0.1\ne,0.6,0.2,0.9\nd,0.1,0.35,0.3\n\
                    c,0.8,0.4,0.2\nb,0.9,0.7,0.6\na,0.3,0.1,0.8\n";

#[test]
fn mean_column_wise_roc_auc_leaves_skipped_rows_out() {
    let r = run(
        "classification",
        GT.into(),
        PRED.into(),
        &[
            ("target_columns", "toxic,obscene,threat"),
            ("skip_target", "-1"),
            ("metric", "mean_roc_auc"),
        ],
    );
    near(&r, "roc_auc[toxic]", 0.888888888888889);
    near(&r, "roc_auc[obscene]", 1.0);
    near(&r, "roc_auc[threat]", 1.0);
    near(&r, "mean_roc_auc", 0.9629629629629629);
    assert_eq!(r.display.headline[0].id, "mean_roc_auc");
    // `*`: every non-id column of the GT, in its order.
    let all = run(
        "classification",
        GT.into(),
        PRED.into(),
        &[("target_columns", "*"), ("skip_target", "-1")],
    );
    near(&all, "mean_roc_auc", 0.9629629629629629);
}

#[test]
fn mcrmse_is_the_mean_of_column_rmses() {
    let r = run(
        "regression",
        GT.into(),
        PRED.into(),
        &[
            ("target_columns", "toxic,obscene,threat"),
            ("skip_target", "-1"),
            ("metric", "mean_root_mean_squared_error"),
        ],
    );
    near(&r, "root_mean_squared_error[toxic]", 0.34940425488727717);
    near(&r, "root_mean_squared_error[obscene]", 0.241522945769824);
    near(&r, "root_mean_squared_error[threat]", 0.2738612787525831);
    near(&r, "mean_root_mean_squared_error", 0.28826282646989476);
}

#[test]
fn a_missing_target_column_or_a_bad_cell_is_located() {
    let pred = PRED.replace("threat,", "danger,");
    let r = run(
        "classification",
        GT.into(),
        pred,
        &[("target_columns", "*"), ("skip_target", "-1")],
    );
    let d = r
        .diagnostics
        .iter()
        .find(|d| d.code == "classification.missing_column")
        .expect("missing column");
    assert!(d.message.contains("`threat`"), "{}", d.message);
    assert_eq!(r.scores.get("mean_roc_auc"), None);
    // Without skip_target, -1 is not a binary label: the error names its column and line.
    let r = run(
        "classification",
        GT.into(),
        PRED.into(),
        &[("target_columns", "*")],
    );
    let d = r
        .diagnostics
        .iter()
        .find(|d| d.code == "classification.not_binary")
        .expect("not binary");
    assert!(d.message.contains("`threat`"), "{}", d.message);
    assert_eq!(d.line, Some(3));
}

const Y: [u8; 10] = [0, 1, 1, 0, 1, 0, 0, 1, 1, 0];

#[test]
fn hard_zero_one_values_to_an_auc_competition_are_scores() {
    // Kaggle's binary shape `id,target`: a participant submits hard 0/1 labels to a ROC AUC / log loss
    // competition; scikit-learn's roc_auc_score and log_loss take them as scores.
    let hard = [0, 1, 0, 0, 1, 1, 0, 1, 1, 0];
    let gt: String = Y
        .iter()
        .enumerate()
        .map(|(i, y)| format!("{i},{y}\n"))
        .collect();
    let sub: String = hard
        .iter()
        .enumerate()
        .map(|(i, y)| format!("{i},{y}\n"))
        .collect();
    for metric in ["roc_auc", "log_loss"] {
        let r = run(
            "classification",
            format!("id,target\n{gt}"),
            format!("id,target\n{sub}"),
            &[("metric", metric)],
        );
        near(&r, "roc_auc", 0.8);
        near(&r, "log_loss", 7.20873067782343);
    }
}

#[test]
fn a_third_submission_column_keeps_the_score_reading() {
    let p = [0.1, 0.8, 0.45, 0.3, 0.9, 0.6, 0.2, 0.7, 0.55, 0.05];
    let gt: String = Y
        .iter()
        .enumerate()
        .map(|(i, y)| format!("{i},{y}\n"))
        .collect();
    let sub: String = p
        .iter()
        .enumerate()
        .map(|(i, v)| format!("{i},{v},note\n"))
        .collect();
    let r = run(
        "classification",
        format!("id,target\n{gt}"),
        format!("id,target,comment\n{sub}"),
        &[("metric", "roc_auc")],
    );
    near(&r, "roc_auc", 0.92);
    near(&r, "log_loss", 0.37342867450566347);
}

#[test]
fn the_multilabel_auc_example_scores_as_the_competition() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/kaggle/multilabel_auc");
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
    let set = [
        (
            "target_columns",
            "toxic,severe_toxic,obscene,threat,insult,identity_hate",
        ),
        ("skip_target", "-1"),
        ("metric", "mean_roc_auc"),
    ];
    let r = run(
        "classification",
        read("solution.csv"),
        read("submission.csv"),
        &set,
    );
    // pandas.read_csv + np.mean([roc_auc_score(g[c][g[c] != -1], p[c][g[c] != -1]) for c in columns]).
    near(&r, "mean_roc_auc", 0.9377191853172245);
    near(&r, "roc_auc[severe_toxic]", 0.8712121212121211);
    // The sample submission (0.5 everywhere) scores 0.5 in every column.
    let r = run(
        "classification",
        read("solution.csv"),
        read("sample_submission.csv"),
        &set,
    );
    near(&r, "mean_roc_auc", 0.5);
}

#[test]
fn the_grouped_log_mae_example_scores_as_the_competition() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/kaggle/grouped_log_mae");
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
    let set = [
        ("group_column", "type"),
        ("metric", "mean_log_mean_absolute_error"),
    ];
    let r = run(
        "regression",
        read("solution.csv"),
        read("submission.csv"),
        &set,
    );
    // CHAMPS' published metric: np.log(maes.map(lambda x: max(x, 1e-9))).mean() over
    // (y_true - y_pred).abs().groupby(types).mean().
    near(&r, "mean_log_mean_absolute_error", -0.7206677325161802);
    assert_eq!(r.display.headline[0].id, "mean_log_mean_absolute_error");
    // A group column the GT lacks is named.
    let r = run(
        "regression",
        read("solution.csv"),
        read("submission.csv"),
        &[("group_column", "molecule")],
    );
    assert!(r
        .diagnostics
        .iter()
        .any(|d| d.code == "regression.missing_column" && d.message.contains("`molecule`")));
}

#[test]
fn a_weight_column_weights_every_target_column() {
    // Each column's roc_auc_score / average_precision_score / log_loss with sample_weight (scikit-learn 1.9.1),
    // the row skipped in `a` leaving its weight out of that column only; `w` is not a target column.
    let y1 = ["1", "0", "1", "0", "0", "1", "0", "-1"];
    let p1 = [0.9, 0.2, 0.6, 0.7, 0.1, 0.4, 0.3, 0.5];
    let y2 = ["0", "0", "1", "1", "0", "0", "1", "0"];
    let p2 = [0.3, 0.1, 0.8, 0.35, 0.5, 0.2, 0.9, 0.6];
    let w = ["1", "2", "0.5", "3", "0", "1.5", "2", "1"];
    let gt: String = (0..8)
        .map(|i| format!("r{i},{},{},{}\n", w[i], y1[i], y2[i]))
        .collect();
    let pred: String = (0..8)
        .map(|i| format!("r{i},{},{}\n", p2[i], p1[i]))
        .collect();
    let r = run(
        "classification",
        format!("id,w,a,b\n{gt}"),
        format!("id,b,a\n{pred}"),
        &[
            ("target_columns", "*"),
            ("skip_target", "-1"),
            ("weight_column", "w"),
            ("metric", "mean_roc_auc"),
        ],
    );
    near(&r, "roc_auc[a]", 0.7142857142857142);
    near(&r, "roc_auc[b]", 0.9008264462809917);
    near(&r, "mean_roc_auc", 0.807556080283353);
    near(&r, "average_precision[b]", 0.916083916083916);
    near(&r, "log_loss[a]", 0.6506764828835746);
    assert!(r.scores.get("roc_auc[w]").is_none());
}
