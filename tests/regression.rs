//! The `regression` family (docs/specs/families.md sections 2 and 5). Expected values were computed once by fam1
//! with the pinned scikit-learn 1.9.1 and SciPy 1.17.1 (tests/reference/requirements-families.txt) on the same
//! files and compared to 1e-12 relative. tests/reference/regression_diff.py checks 1,000 random cases.

mod common;

use common::{bytes_input, score_inputs};
use dropscore::input::Role;
use dropscore::{Mode, Report};

fn run(gt: &[u8], pred: &[u8], set: &[(&str, &str)]) -> Report {
    score_inputs(
        "regression",
        vec![
            bytes_input("gt.csv", Some(Role::Gt), gt.to_vec()),
            bytes_input("pred.csv", Some(Role::Pred), pred.to_vec()),
        ],
        Mode::Official,
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

fn example(rel: &str) -> Vec<u8> {
    std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("www/examples/regression")
            .join(rel),
    )
    .unwrap()
}

#[test]
fn house_prices_example() {
    let r = run(&example("gt.csv"), &example("pred.csv"), &[]);
    assert!(!r.has_errors(), "{:#?}", r.diagnostics);
    near(
        r.scores.get("root_mean_squared_error"),
        18.436770324544373,
        "rmse",
    );
    near(
        r.scores.get("mean_absolute_error"),
        14.965000000000007,
        "mae",
    );
    near(r.scores.get("r2"), 0.9396683748065242, "r2");
    near(
        r.scores.get("mean_squared_log_error"),
        0.00591782654015992,
        "msle",
    );
    near(
        r.scores.get("mean_absolute_percentage_error"),
        0.06795109284189352,
        "mape",
    );
    near(r.scores.get("spearman"), 0.9609022556390976, "spearman");
    near(r.scores.get("pearson"), 0.9758786575723214, "pearson");
    near(
        r.scores.get("explained_variance"),
        0.9403124925953145,
        "explained variance",
    );
    near(r.scores.get("median_absolute_error"), 11.25, "median ae");
    assert_eq!(r.display.headline[0].id, "root_mean_squared_error");
    assert_eq!(r.item_count(), 20);
    assert_eq!(r.plots.len(), 2);
}

#[test]
fn degenerate_cases_follow_the_libraries() {
    // Constant target, imperfect prediction: r2_score = 0.0, explained_variance_score = 0.0 (force_finite);
    // pearsonr and spearmanr: NaN (constant input) → null; a value ≤ −1: mean_squared_log_error raises → null.
    let r = run(
        b"id,target\na,2\nb,2\nc,2\n",
        b"id,prediction\na,1\nb,2\nc,-1.5\n",
        &[],
    );
    assert_eq!(r.scores.get("r2"), Some(0.0));
    assert_eq!(r.scores.get("explained_variance"), Some(0.0));
    assert_eq!(r.scores.get("pearson"), None);
    assert_eq!(r.scores.get("spearman"), None);
    assert_eq!(r.scores.get("mean_squared_log_error"), None);
    diag(&r, "regression.log_undefined");
    // One sample: r2_score is NaN (fewer than two samples) → null.
    let r = run(b"id,target\na,2\n", b"id,prediction\na,1\n", &[]);
    assert_eq!(r.scores.get("r2"), None);
    near(r.scores.get("mean_absolute_error"), 1.0, "mae");
}

#[test]
fn located_value_and_id_errors() {
    let gt = b"id,target\na,1\nb,2\nc,3\nd,4\ne,5\n";
    let pred = b"id,prediction\na,nan\nb,\nc,inf\nd,x1\nzz,1\nd,4\n";
    let r = run(gt, pred, &[]);
    assert_eq!(r.scores.get("root_mean_squared_error"), None);
    assert!(r.official_fails);
    let at = |code: &str| {
        let d = diag(&r, code);
        (d.file.clone().unwrap_or_default(), d.line, d.column)
    };
    assert_eq!(
        at("regression.non_finite"),
        ("pred.csv".into(), Some(2), Some(3))
    );
    assert_eq!(
        at("regression.empty_cell"),
        ("pred.csv".into(), Some(3), Some(3))
    );
    assert_eq!(
        at("regression.non_numeric"),
        ("pred.csv".into(), Some(5), Some(3))
    );
    assert_eq!(
        at("regression.unknown_id"),
        ("pred.csv".into(), Some(6), Some(1))
    );
    assert_eq!(
        at("regression.duplicate_id"),
        ("pred.csv".into(), Some(7), Some(1))
    );
    assert_eq!(
        at("regression.missing_id"),
        ("gt.csv".into(), Some(6), None)
    );
    let r = run(b"id,a,b\nx,1,2\n", b"id,prediction\nx,1\n", &[]);
    assert_eq!(diag(&r, "regression.missing_column").line, Some(1));
}

/// Predictions of ±1e308: scikit-learn 1.9.1 returns inf for MAE, MSE, RMSE and -inf for R² and explained
/// variance; the JSON report holds null for each, and a warning names them (never a silent null).
#[test]
fn overflow_is_named_never_a_silent_null() {
    let r = run(
        b"id,target\na,1\nb,2\nc,3\n",
        b"id,prediction\na,1e308\nb,-1e308\nc,3\n",
        &[],
    );
    for m in [
        "mean_absolute_error",
        "mean_squared_error",
        "root_mean_squared_error",
        "r2",
    ] {
        assert_eq!(r.scores.get(m), None, "{m}");
    }
    // max_error and median_absolute_error are finite: 1e308.
    near(r.scores.get("max_error"), 1e308, "max_error");
    let d = diag(&r, "regression.not_finite");
    assert_eq!(d.severity, dropscore::diag::Severity::Warning);
    for part in [
        "mean_absolute_error = inf",
        "mean_squared_error = inf",
        "r2 = -inf",
        "explained_variance = -inf",
    ] {
        assert!(d.message.contains(part), "{part}: {}", d.message);
    }
    // A constant prediction: SciPy's pearsonr and spearmanr return NaN.
    let r = run(
        b"id,target\na,1\nb,2\nc,3\n",
        b"id,prediction\na,1\nb,1\nc,1\n",
        &[],
    );
    assert_eq!(r.scores.get("pearson"), None);
    assert!(diag(&r, "regression.not_finite")
        .message
        .contains("pearson"));
}

#[test]
fn file_shape_hints_name_the_real_problem() {
    let gt = b"id,target\na,1\nb,2\n";
    let first_error = |pred: &[u8]| -> String {
        let r = run(gt, pred, &[]);
        r.diagnostics
            .iter()
            .find(|d| d.severity == dropscore::diag::Severity::Error)
            .map(|d| d.code.clone())
            .unwrap_or_default()
    };
    assert_eq!(first_error(b"a,1.5\nb,2\n"), "regression.no_header");
    assert_eq!(
        first_error(b"id;prediction\na;1\nb;2\n"),
        "regression.delimiter"
    );
}
