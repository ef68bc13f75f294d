//! The `classification` and `regression` families read cells as `pandas.read_csv` does by default (`read_as =
//! pandas`, docs/kaggle.md): integer ids by value, integral float labels as integer classes, booleans, pandas'
//! missing-value strings. Expected values computed with the pinned pandas 3.1.1 and scikit-learn 1.9.1
//! (tests/reference/requirements-kaggle.txt); tests/reference/kaggle_pandas_diff.py checks random cases.

mod common;

use common::{bytes_input, score_inputs};
use dropscore::input::Role;
use dropscore::{Mode, Report};

fn run(family: &str, gt: &str, pred: &str, set: &[(&str, &str)]) -> Report {
    score_inputs(
        family,
        vec![
            bytes_input("gt.csv", Some(Role::Gt), gt.as_bytes().to_vec()),
            bytes_input("pred.csv", Some(Role::Pred), pred.as_bytes().to_vec()),
        ],
        Mode::Official,
        set,
    )
}

fn codes(r: &Report) -> Vec<String> {
    r.diagnostics.iter().map(|d| d.code.clone()).collect()
}

#[test]
fn integer_ids_match_by_value() {
    // pandas reads 00012, +13 and 14.0 as the integers 12, 13, 14: the same ids as 12, 13, 14.
    let gt = "id,target\n00012,1.5\n+13,2\n14.0,4\n";
    let pred = "id,target\n14,3\n12,1.5\n13,2.5\n";
    let r = run("regression", gt, pred, &[]);
    assert_eq!(
        r.scores.get("mean_absolute_error"),
        Some(0.5),
        "{:?}",
        codes(&r)
    );
    // As text they are other ids.
    let r = run("regression", gt, pred, &[("read_as", "text")]);
    assert_eq!(r.scores.get("mean_absolute_error"), None);
    assert!(codes(&r).contains(&"regression.unknown_id".to_string()));
}

#[test]
fn ids_repeated_under_another_spelling() {
    let r = run(
        "regression",
        "id,target\n1,1\n2,2\n",
        "id,target\n1,1\n2,2\n002,2\n",
        &[],
    );
    assert!(codes(&r).contains(&"regression.duplicate_id".to_string()));
    let r = run(
        "regression",
        "id,target\n1,1\n01,2\n",
        "id,target\n1,1\n",
        &[],
    );
    assert!(codes(&r).contains(&"regression.duplicate_id".to_string()));
}

#[test]
fn float_labels_are_integer_classes() {
    // The solution's labels 0.0/1.0/2.0 (a float64 column) and the submission's 0/1/2 are the same classes:
    // accuracy_score = 3/4.
    let gt = "id,label\n1,0.0\n2,1.0\n3,2.0\n4,1.0\n";
    let pred = "id,label\n1,0\n2,1\n3,2\n4,2.0\n";
    let r = run("classification", gt, pred, &[]);
    assert_eq!(r.scores.get("accuracy"), Some(0.75), "{:?}", codes(&r));
    let r = run("classification", gt, pred, &[("read_as", "text")]);
    assert_eq!(r.scores.get("accuracy"), Some(0.0));
}

#[test]
fn booleans() {
    // A bool solution column against 0/1 and true/FALSE predictions: accuracy_score = 2/3 either way.
    let gt = "id,label\n1,True\n2,False\n3,True\n";
    for pred in [
        "id,label\n1,1\n2,0\n3,0\n",
        "id,label\n1,true\n2,FALSE\n3,false\n",
    ] {
        let r = run("classification", gt, pred, &[]);
        let got = r.scores.get("accuracy").unwrap();
        assert!((got - 2.0 / 3.0).abs() < 1e-15, "{got} {:?}", codes(&r));
    }
    // Booleans in a number column are 1 and 0: mean_absolute_error([1, 0], [1, 0]) = 0.
    let r = run(
        "regression",
        "id,y\n1,1\n2,0\n",
        "id,y\n1,True\n2,false\n",
        &[],
    );
    assert_eq!(r.scores.get("mean_absolute_error"), Some(0.0));
}

#[test]
fn missing_values_are_refused_as_nan() {
    for na in ["NA", "null", "None", "#N/A", "<NA>"] {
        let pred = format!("id,y\n1,1\n2,{na}\n");
        let r = run("regression", "id,y\n1,1\n2,0\n", &pred, &[]);
        assert_eq!(r.scores.get("mean_absolute_error"), None);
        let d = (r.diagnostics.iter())
            .find(|d| d.code == "regression.non_finite")
            .unwrap_or_else(|| panic!("{na}: {:?}", codes(&r)));
        assert!(
            d.message.contains("pandas reads it as NaN"),
            "{}",
            d.message
        );
    }
}

#[test]
fn multi_target_columns_read_as_pandas() {
    // Mean column-wise RMSE with ids 001/002 against 1/2.
    let gt = "id,a,b\n001,1,2\n002,3,4\n";
    let pred = "id,a,b\n1,1,2\n2,3,4\n";
    let r = run("regression", gt, pred, &[("target_columns", "a,b")]);
    assert_eq!(
        r.scores.get("mean_root_mean_squared_error"),
        Some(0.0),
        "{:?}",
        codes(&r)
    );
}
