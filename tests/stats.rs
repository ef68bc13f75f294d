//! Bootstrap intervals and `dropscore compare` on the command line (docs/specs/statistics.md).

mod common;
use common::cli;
use serde_json::Value;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `dropscore ARGS` in the crate's folder, as [`cli::run_in`].
fn run(args: &[&str]) -> (i32, String, String) {
    cli::run_in(root(), args)
}

const GT: &str = "www/examples/classification/gt.csv";
const SCORES: &str = "www/examples/classification/pred_scores.csv";
const LABELS: &str = "www/examples/classification/pred_labels.csv";
const REG_GT: &str = "www/examples/regression/gt.csv";
const REG_PRED: &str = "www/examples/regression/pred.csv";

/// The JSON report of `dropscore ARGS` in the crate's folder, as [`cli::cli_json`].
fn json(args: &[&str]) -> Value {
    cli::cli_json(&root(), args).0
}

#[test]
fn intervals_in_the_report() {
    let r = json(&[
        "classification",
        "--gt",
        GT,
        "--pred",
        SCORES,
        "--set",
        "bootstrap=1000",
    ]);
    assert_eq!(
        r["statistics"],
        serde_json::json!({"unit": "row", "strata": null, "bootstrap": 1000, "seed": 0, "confidence": 0.95})
    );
    let acc = &r["intervals"]["accuracy"];
    let v = r["scores"]["accuracy"].as_f64().unwrap();
    assert!(acc["low"].as_f64().unwrap() <= v && v <= acc["high"].as_f64().unwrap());
    assert_eq!(acc["left_out"], 0);
    // Null scores have no interval; the options are not report options.
    assert!(r["intervals"].get("roc_auc_ovr").is_none());
    assert!(r["options"].get("bootstrap").is_none());
    // Accuracy is a mean of 0/1 over 30 rows: every bound is a multiple of 1/30 or between two of them.
    let r2 = json(&[
        "classification",
        "--gt",
        GT,
        "--pred",
        SCORES,
        "--set",
        "seed=7",
        "--set",
        "bootstrap=1000",
    ]);
    assert_eq!(r2["statistics"]["seed"], 7);
    assert_eq!(r["scores"], r2["scores"]);
}

#[test]
fn bootstrap_zero_is_off_and_bad_values_are_usage_errors() {
    // Off by default for a score, and with B = 0.
    for set in ["bootstrap=0", "seed=0"] {
        let r = json(&[
            "regression",
            "--gt",
            REG_GT,
            "--pred",
            REG_PRED,
            "--set",
            set,
        ]);
        assert!(r.get("statistics").is_none() && r.get("intervals").is_none());
    }
    for bad in ["confidence=1.5", "bootstrap=-1", "seed=-3", "confidence=x"] {
        let (code, _, err) = run(&[
            "regression",
            "--gt",
            REG_GT,
            "--pred",
            REG_PRED,
            "--set",
            bad,
        ]);
        assert_eq!(code, 2, "{bad}: {err}");
    }
}

#[test]
fn text_output_has_the_interval_after_the_value() {
    let (code, out, _) = run(&[
        "regression",
        "--gt",
        REG_GT,
        "--pred",
        REG_PRED,
        "--set",
        "bootstrap=1000",
        "-q",
    ]);
    assert_eq!(code, 0);
    let line = out
        .lines()
        .find(|l| l.starts_with("root_mean_squared_error\t"))
        .unwrap();
    assert!(line.contains(" ["), "{line}");
    assert!(out.contains("95 % bootstrap intervals (1000 replicates of the rows, seed 0)"));
}

#[test]
fn compare_two_submissions() {
    let r = json(&[
        "compare",
        "classification",
        "--gt",
        GT,
        "--pred",
        SCORES,
        "--vs",
        LABELS,
        "--set",
        "permutations=500",
    ]);
    let c = &r["compare"];
    assert_eq!(c["metric"], "accuracy");
    let (a, b) = (c["a"].as_f64().unwrap(), c["b"].as_f64().unwrap());
    assert_eq!(c["delta"].as_f64().unwrap(), a - b);
    // Hard labels against scores: no exchange of units (other layouts), the paired bootstrap still.
    assert!(c["p_randomization"].is_null());
    let p = c["p_bootstrap"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&p));
    let n =
        c["wins"].as_u64().unwrap() + c["ties"].as_u64().unwrap() + c["losses"].as_u64().unwrap();
    assert_eq!(n, 30);
    assert!(c["verdict"].as_str().unwrap().contains("on accuracy"));
    // A submission against itself: Δ 0, p = 1, not distinguishable.
    let same = json(&[
        "compare",
        "regression",
        "--gt",
        REG_GT,
        "--pred",
        REG_PRED,
        "--vs",
        REG_PRED,
        "--set",
        "permutations=200",
        "--set",
        "compare_all=true",
    ]);
    let c = &same["compare"];
    assert_eq!(c["delta"].as_f64(), Some(0.0));
    assert_eq!(c["p_randomization"].as_f64(), Some(1.0));
    assert_eq!(c["ties"].as_u64(), Some(20));
    assert!(c["verdict"]
        .as_str()
        .unwrap()
        .contains("not distinguishable"));
    assert_eq!(same["compare_all"].as_object().unwrap().len(), 13);
    let (code, _, _) = run(&[
        "compare",
        "regression",
        "--gt",
        REG_GT,
        "--pred",
        REG_PRED,
        "--vs",
        REG_PRED,
        "--set",
        "permutations=many",
    ]);
    assert_eq!(code, 2);
}

#[test]
fn scoring_program_writes_interval_keys_when_asked() {
    let dir = std::env::temp_dir().join(format!("dropscore-stats-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (sub, from, to) in [("ref", REG_GT, "gt.csv"), ("res", REG_PRED, "pred.csv")] {
        std::fs::create_dir_all(dir.join("in").join(sub)).unwrap();
        std::fs::copy(root().join(from), dir.join("in").join(sub).join(to)).unwrap();
    }
    let (i, o) = (dir.join("in"), dir.join("out"));
    let (i, o) = (i.to_str().unwrap(), o.to_str().unwrap());
    let base = ["score", i, o, "--protocol", "regression"];
    let (code, _, err) = run(&base);
    assert_eq!(code, 0, "{err}");
    let plain: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("out/scores.json")).unwrap())
            .unwrap();
    assert!(plain.get("r2_ci_low").is_none());
    let mut asked = base.to_vec();
    asked.extend(["--set", "intervals_in_scores=true"]);
    let (code, _, err) = run(&asked);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(dir.join("out/scores.json")).unwrap();
    let s: Value = serde_json::from_str(&text).unwrap();
    let keys: Vec<&String> = s.as_object().unwrap().keys().collect();
    assert_eq!(keys[0], "mean_absolute_error");
    assert_eq!(keys[1], "mean_absolute_error_ci_low");
    assert_eq!(keys[2], "mean_absolute_error_ci_high");
    assert!(s["r2_ci_low"].as_f64().unwrap() <= s["r2"].as_f64().unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}
