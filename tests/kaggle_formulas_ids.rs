//! Ids as pandas reads them (option `read_as = pandas`, the default) in the `kaggle` protocol and in the
//! pre-flight check (`dropscore manifest` from a sample submission, `dropscore check`): Kaggle's metrics merge
//! the DataFrames `pandas.read_csv` read, so a submission's `12` is the solution's integer id `00012`
//! (docs/kaggle.md). `read_as = text` compares the ids as written. Command-line tests, as participants run them.

mod common;
use std::path::PathBuf;

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("dropscore-kaggle-ids-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn file(name: &str, text: &str) -> String {
    let p = dir().join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

/// `dropscore ARGS`: exit status, and standard output followed by standard error.
fn run(args: &[&str]) -> (i32, String) {
    let (code, out, err) = common::cli::run(args);
    (code, out + &err)
}

const SOLUTION: &str = "eeg_id,a,b\n00012,0.5,0.5\n13,1,0\n0014,0,1\n";
const SUBMISSION: &str = "eeg_id,a,b\n12,0.5,0.5\n+13,0.9,0.1\n14.0,0.2,0.8\n";

#[test]
fn scoring_matches_ids_as_pandas() {
    let gt = file("solution.csv", SOLUTION);
    let pred = file("submission.csv", SUBMISSION);
    let score = |extra: &[&str]| {
        let mut a = vec!["kaggle", "--gt", &gt, "--pred", &pred, "--format", "json"];
        a.extend(["--set", "metric=kl_divergence"]);
        a.extend(extra);
        let (_, out) = run(&a);
        let v: serde_json::Value = serde_json::from_str(out.lines().next().unwrap_or(""))
            .unwrap_or_else(|e| panic!("{e}: {out}"));
        v
    };
    let r = score(&[]);
    assert!(r["scores"]["kl_divergence"].is_f64(), "{r}");
    let r = score(&["--set", "read_as=text"]);
    assert!(r["scores"]["kl_divergence"].is_null(), "{r}");
    assert!(r.to_string().contains("kaggle.unknown_id"));
    // `12` and `012` in one solution are one integer id: a repeated id.
    let gt2 = file("solution2.csv", "eeg_id,a,b\n12,1,0\n012,0,1\n");
    let (_, out) = run(&[
        "kaggle",
        "--gt",
        &gt2,
        "--pred",
        &pred,
        "--set",
        "metric=kl_divergence",
    ]);
    assert!(out.contains("kaggle.duplicate_id"), "{out}");
}

#[test]
fn preflight_check_matches_ids_as_pandas() {
    let sample = file(
        "sample_submission.csv",
        "eeg_id,a,b\n00012,0.5,0.5\n13,0.5,0.5\n0014,0.5,0.5\n",
    );
    let pred = file("submission.csv", SUBMISSION);
    let manifest = dir().join("manifest.json");
    let manifest = manifest.to_string_lossy().into_owned();
    let check = |read_as: &str| {
        let set = ["--set", "metric=kl_divergence", "--set", read_as];
        let mut a = vec!["manifest", "kaggle", "--gt", &sample, "--out", &manifest];
        a.extend(set);
        let (code, out) = run(&a);
        assert_eq!(code, 0, "{out}");
        let mut a = vec!["check", "kaggle", "--manifest", &manifest, "--pred", &pred];
        a.extend(set);
        run(&a)
    };
    let (code, out) = check("read_as=pandas");
    assert_eq!(code, 0, "{out}");
    // The manifest made with read_as = text: the ids as written.
    let (code, out) = check("read_as=text");
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("kaggle.unknown_id"), "{out}");
}

#[test]
fn classification_preflight_matches_ids_as_pandas() {
    let gt = file("labels.csv", "id,label\n00012,cat\n13,dog\n0014,cat\n");
    let pred = file("labels_pred.csv", "id,label\n12,cat\n13,dog\n14,dog\n");
    let manifest = dir().join("classification_manifest.json");
    let manifest = manifest.to_string_lossy().into_owned();
    let (code, out) = run(&[
        "manifest",
        "classification",
        "--gt",
        &gt,
        "--out",
        &manifest,
    ]);
    assert_eq!(code, 0, "{out}");
    let (code, out) = run(&[
        "check",
        "classification",
        "--manifest",
        &manifest,
        "--pred",
        &pred,
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("3 ids"), "{out}");
}
