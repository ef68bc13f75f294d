//! Single competitions' formulas of the `kaggle` protocol (docs/kaggle.md): KL divergence (HMS), weighted
//! multi-label log loss (RSNA 2019), lwlrap (Freesound 2019), probabilistic F-beta (RSNA 2023), weighted ROC
//! AUC (ALASKA2), haversine with per-phone percentiles (Google Smartphone Decimeter 2021), angular error
//! (IceCube), Laplace log likelihood (OSIC). Expected values from the published metric code copied in
//! tests/reference/kaggle_formulas_diff.py (NumPy 2.4.6, scikit-learn 1.9.1, pandas 3.1.1), which also checks
//! 300 random cases per metric.

mod common;

use common::{bytes_input, has, score_inputs};
use dropscore::input::Role;
use dropscore::{Mode, Report};

fn run(gt: &str, pred: &str, set: &[(&str, &str)]) -> Report {
    score_inputs(
        "kaggle",
        vec![
            bytes_input("solution.csv", Some(Role::Gt), gt.as_bytes().to_vec()),
            bytes_input("submission.csv", Some(Role::Pred), pred.as_bytes().to_vec()),
        ],
        Mode::Official,
        set,
    )
}

fn near(r: &Report, id: &str, want: f64) {
    let g = (r.scores.get(id)).unwrap_or_else(|| panic!("{id}: null; {:#?}", r.diagnostics));
    assert!(
        (g - want).abs() <= 1e-12 * want.abs().max(1.0),
        "{id}: {g} vs {want}"
    );
}

fn error_message(r: &Report, code: &str) -> String {
    let d = r.diagnostics.iter().find(|d| d.code == code);
    let d = d.unwrap_or_else(|| panic!("no {code}: {:#?}", r.diagnostics));
    d.message.clone()
}

#[test]
fn probability_columns() {
    let gt = "id,a,b,c\n1,0.5,0.5,0\n2,0,0.25,0.75\n3,1,0,0\n";
    let sub = "id,a,b,c\n1,0.4,0.4,0.2\n2,0.1,0.3,0.6\n3,0.7,0.2,0.1\n";
    near(
        &run(gt, sub, &[("metric", "kl_divergence")]),
        "kl_divergence",
        0.2338652565133703,
    );
    let gt = "ID,any,x,y\n1,1,0,1\n2,0,0,1\n3,1,1,0\n";
    let sub = "ID,any,x,y\n1,0.9,0.2,0.6\n2,0.1,0.3,0.8\n3,0.5,0.7,0.05\n";
    let set = [("metric", "weighted_log_loss"), ("weights", "2,1,1")];
    near(&run(gt, sub, &set), "weighted_log_loss", 0.2941243610342184);
    let gt = "fname,l0,l1,l2,l3\na,1,0,0,1\nb,0,1,0,0\nc,0,0,1,1\n";
    let sub = "fname,l0,l1,l2,l3\na,0.9,0.5,0.2,0.1\nb,0.3,0.3,0.8,0.1\nc,0.6,0.4,0.7,0.2\n";
    near(
        &run(gt, sub, &[("metric", "lwlrap")]),
        "lwlrap",
        0.6666666666666666,
    );
}

#[test]
fn single_column_formulas() {
    let gt = "prediction_id,cancer\n1,1\n2,0\n3,1\n4,0\n5,0\n";
    let sub = "prediction_id,cancer\n1,0.8\n2,0.3\n3,1.2\n4,-0.1\n5,0.5\n";
    near(
        &run(gt, sub, &[("metric", "pfbeta")]),
        "pfbeta",
        0.7826086956521738,
    );
    let gt = "Id,Label\n1,0\n2,1\n3,1\n4,0\n5,1\n6,0\n7,0\n8,1\n";
    let sub = "Id,Label\n1,0.1\n2,0.9\n3,0.35\n4,0.4\n5,0.8\n6,0.2\n7,0.75\n8,0.6\n";
    near(
        &run(gt, sub, &[("metric", "weighted_auc")]),
        "weighted_auc",
        0.8660714285714287,
    );
}

#[test]
fn positions_and_measurements() {
    let gt = "id,phone,latDeg,lngDeg\n1,A,37.4,-122.1\n2,A,37.41,-122.1\n3,A,37.42,-122.1\n4,B,37.5,-122.0\n";
    let sub =
        "id,latDeg,lngDeg\n1,37.4001,-122.1\n2,37.41,-122.1002\n3,37.42,-122.1\n4,37.5,-122.0003\n";
    near(
        &run(gt, sub, &[("metric", "haversine")]),
        "haversine",
        20.252206122262336,
    );
    let gt = "event_id,azimuth,zenith\n1,0.5,1.2\n2,1.0,2.0\n";
    let sub = "event_id,azimuth,zenith\n1,0.6,1.0\n2,1.0,2.5\n";
    near(
        &run(gt, sub, &[("metric", "angular_error")]),
        "angular_error",
        0.3594234861429165,
    );
    let gt = "Patient_Week,FVC\nP1_5,2000\nP1_6,3000\nP2_1,1500\n";
    let sub = "Patient_Week,FVC,Confidence\nP1_5,2100,50\nP1_6,1500,200\nP2_1,1500,100\n";
    let r = run(gt, sub, &[("metric", "laplace_log_likelihood")]);
    near(&r, "laplace_log_likelihood", -8.094358822131769);
}

#[test]
fn refusals_name_the_row_and_column() {
    let gt = "id,a,b\n1,0.5,0.5\n2,1,0\n";
    let r = run(
        gt,
        "id,a,b\n1,0.5,0.6\n2,1,0\n",
        &[("metric", "kl_divergence")],
    );
    assert_eq!(r.scores.get("kl_divergence"), None);
    let m = error_message(&r, "kaggle.row_sum");
    assert!(m.starts_with("row 1 (id `1`), columns `a`, `b`"), "{m}");
    let r = run(
        gt,
        "id,a,b\n1,0.5,0.5\n2,1.5,-0.5\n",
        &[("metric", "kl_divergence")],
    );
    let m = error_message(&r, "kaggle.out_of_range");
    assert!(m.starts_with("row 2 (id `2`), column `a`"), "{m}");
    let r = run(
        gt,
        "id,a,b\n1,0.5,NA\n2,1,0\n",
        &[("metric", "kl_divergence")],
    );
    let m = error_message(&r, "kaggle.not_a_number");
    assert!(
        m.starts_with("row 1 (id `1`), column `b`: `NA` is a missing value"),
        "{m}"
    );
    let r = run(gt, "id,a\n1,0.5\n2,1\n", &[("metric", "kl_divergence")]);
    assert!(has(&r, "kaggle.missing_column"));
    let r = run(
        "Id,Label\n1,2\n2,0\n",
        "Id,Label\n1,0.5\n2,0.1\n",
        &[("metric", "weighted_auc")],
    );
    let m = error_message(&r, "kaggle.not_binary");
    assert!(m.starts_with("row 1 (id `1`), column `Label`"), "{m}");
    // Python raises (no negative): null, and no error of the participant's.
    let r = run(
        "Id,Label\n1,1\n2,1\n",
        "Id,Label\n1,0.5\n2,0.1\n",
        &[("metric", "weighted_auc")],
    );
    assert_eq!(r.scores.get("weighted_auc"), None);
    let r = run(
        "id,phone,latDeg,lngDeg\n1,A,1,2\n",
        "id,latDeg,lngDeg\n1,1,2\n",
        &[("metric", "haversine"), ("group_column", "trace")],
    );
    assert!(has(&r, "kaggle.missing_column"));
}
