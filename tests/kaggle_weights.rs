//! A weight column (scikit-learn's `sample_weight`) in the `regression` family, and the leaderboard value as a
//! competition publishes it (`1 − x`, Python's `round`) in both table families (docs/kaggle.md). Expected values
//! computed with the pinned scikit-learn 1.9.1 and CPython 3.11 (tests/reference/requirements-kaggle.txt);
//! tests/reference/kaggle_pandas_diff.py checks random cases.

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

fn near(r: &Report, id: &str, want: f64) {
    let g = (r.scores.get(id)).unwrap_or_else(|| panic!("{id}: null; {:#?}", r.diagnostics));
    assert!(
        (g - want).abs() <= 1e-15 * want.abs().max(1.0),
        "{id}: {g} vs {want}"
    );
}

const GT: &str = "id,target,w\n1,3,1\n2,-0.5,2\n3,2,0.5\n4,7,3\n";
const PRED: &str = "id,target\n1,2.5\n2,0\n3,2\n4,8\n";

#[test]
fn regression_weights_as_sample_weight() {
    let r = run("regression", GT, PRED, &[("weight_column", "w")]);
    near(&r, "mean_absolute_error", 0.6923076923076923);
    near(&r, "r2", 0.9463401210787011);
    near(&r, "explained_variance", 0.9733076499724821);
    near(&r, "root_mean_squared_error", 0.7595545253127499);
    assert_eq!(r.scores.get("spearman"), None);
    assert!(r
        .diagnostics
        .iter()
        .any(|d| d.code == "regression.weighted"));
    let r = run("regression", GT, PRED, &[("weight_column", "weight")]);
    assert!(r
        .diagnostics
        .iter()
        .any(|d| d.code == "regression.missing_column"));
}

#[test]
fn error_rate_rounded_as_python() {
    let gt = "id,label\n1,0\n2,1\n3,1\n4,0\n5,1\n6,1\n7,0\n";
    let pred = "id,label\n1,0\n2,1\n3,0\n4,0\n5,1\n6,1\n7,1\n";
    let r = run(
        "classification",
        gt,
        pred,
        &[("one_minus", "true"), ("round", "4")],
    );
    // round(1 - accuracy_score(...), 4) = 0.2857
    assert_eq!(r.scores.get("leaderboard"), Some(0.2857));
    assert_eq!(r.scores.0[0].0, "leaderboard");
    assert_eq!(r.display.headline[0].id, "leaderboard");
    near(&r, "accuracy", 5.0 / 7.0);
    // round(mean_absolute_error(...), 2) = 0.5
    let r = run(
        "regression",
        GT,
        PRED,
        &[("metric", "mean_absolute_error"), ("round", "2")],
    );
    assert_eq!(r.scores.get("leaderboard"), Some(0.5));
}

/// Bootstrap replicates with a weight column keep each drawn row's weight (scikit-learn's `sample_weight` of
/// the repeated set): equal weights give exactly the unweighted intervals of the weighted metrics, and unequal
/// ones other intervals.
#[test]
fn bootstrap_replicates_keep_the_weights() {
    let (mut gt, mut pred, mut gt1, mut gt3) = (
        String::from("id,target,w\n"),
        String::from("id,target\n"),
        String::from("id,target,w\n"),
        String::from("id,target,w\n"),
    );
    for i in 0..60 {
        let t = (i * 7 % 13) as f64 * 0.5;
        let p = t + ((i * 5 % 11) as f64 - 5.0) * 0.3;
        gt += &format!("{i},{t},{}\n", 1 + i % 4);
        gt1 += &format!("{i},{t},1\n");
        gt3 += &format!("{i},{t},3\n");
        pred += &format!("{i},{p}\n");
    }
    let set = [("bootstrap", "200"), ("seed", "5")];
    let with = |gt: &str, w: bool| {
        let mut s = set.to_vec();
        if w {
            s.push(("weight_column", "w"));
        }
        run("regression", gt, &pred, &s)
    };
    let plain = with(&gt1, false);
    for id in ["mean_absolute_error", "mean_squared_error", "r2"] {
        let p = plain.intervals.get(id).unwrap();
        for g in [&gt1, &gt3] {
            let r = with(g, true);
            let q = r
                .intervals
                .get(id)
                .unwrap_or_else(|| panic!("{id}: {:?}", r.intervals));
            let close = |a: Option<f64>, b: Option<f64>| {
                let (a, b) = (a.unwrap(), b.unwrap());
                (a - b).abs() <= 1e-12 * a.abs().max(1.0)
            };
            assert!(
                close(p.low, q.low) && close(p.high, q.high),
                "{id}: {p:?} vs {q:?}"
            );
        }
        let r = with(&gt, true);
        assert_ne!(
            r.intervals.get(id).unwrap().low,
            p.low,
            "{id}: unequal weights change the interval"
        );
    }
}
