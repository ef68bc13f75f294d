//! Protocol `kaggle` from the command line: the examples' numbers (checked against the published metric code
//! by tests/reference/kaggle_diff.py), located refusals of malformed run-length encodings and of unknown,
//! missing and repeated ids, and the manifest made from a sample submission alone.

mod common;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `dropscore ARGS` in examples/kaggle: exit status and standard output.
fn run(args: &[&str]) -> (i32, String) {
    let (code, out, _) = common::cli::run_in(root().join("examples/kaggle"), args);
    (code, out)
}

fn json(args: &[&str]) -> serde_json::Value {
    let mut a = args.to_vec();
    a.extend(["--format", "json"]);
    let (_, out) = run(&a);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

fn temp(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("dropscore-kaggle-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

fn codes(r: &serde_json::Value) -> Vec<(String, Option<u64>, Option<u64>)> {
    r["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["line"].as_u64(),
                d["column"].as_u64(),
            )
        })
        .collect()
}

#[test]
fn rle_example_scores_every_mask_metric() {
    let r = json(&[
        "kaggle",
        "--gt",
        "rle_dice/solution.csv",
        "--pred",
        "rle_dice/submission.csv",
        "--set",
        "metric=mean_dice",
        "--set",
        "width=32",
        "--set",
        "height=24",
    ]);
    let s = &r["scores"];
    for k in ["dice", "mean_dice", "iou_precision", "fbeta"] {
        assert!(
            s[k].as_f64().is_some_and(|v| (0.0..=1.0).contains(&v)),
            "{k}: {r}"
        );
    }
    assert_eq!(s["dice"], s["fbeta"], "F1 over pixels is the set's Dice");
    assert_eq!(
        r["items"].as_array().unwrap().len(),
        12,
        "one row per image"
    );
}

#[test]
fn other_examples_score() {
    let r = json(&[
        "kaggle",
        "--gt",
        "map5/solution.csv",
        "--pred",
        "map5/submission.csv",
        "--set",
        "metric=map",
        "--set",
        "k=5",
    ]);
    assert!(r["scores"]["map"].as_f64().is_some(), "{r}");
    let r = json(&[
        "kaggle",
        "--gt",
        "tags_f1/solution.csv",
        "--pred",
        "tags_f1/submission.csv",
        "--set",
        "metric=f1_samples",
    ]);
    assert!(r["scores"]["f1_macro"].as_f64().is_some(), "{r}");
    let r = json(&[
        "kaggle",
        "--gt",
        "levenshtein/solution.csv",
        "--pred",
        "levenshtein/submission.csv",
        "--set",
        "metric=levenshtein",
    ]);
    assert!(r["scores"]["word_jaccard"].as_f64().is_some(), "{r}");
}

#[test]
fn malformed_rle_cells_are_located() {
    let gt = temp(
        "solution.csv",
        "ImageId,EncodedPixels\na,1 2\nb,\nc,3 1\nd,\n",
    );
    let pred = temp(
        "submission.csv",
        "ImageId,EncodedPixels\na,1 2 3\nb,5 3 1 2\nc,19 3\nd,0 1\n",
    );
    let r = json(&[
        "kaggle", "--gt", &gt, "--pred", &pred, "--set", "width=4", "--set", "height=5",
    ]);
    let c = codes(&r);
    for (code, line) in [
        ("kaggle.rle_odd", 2),
        ("kaggle.rle_unsorted", 3),
        ("kaggle.rle_past_end", 4),
        ("kaggle.rle_zero", 5),
    ] {
        assert!(
            c.contains(&(code.to_string(), Some(line), Some(3))),
            "{code} at {line}:3 in {c:?}"
        );
    }
    assert!(r["scores"]["dice"].is_null());
}

#[test]
fn ids_are_matched_with_located_errors() {
    let gt = temp("sol_ids.csv", "id,tags\n1,a b\n2,c\n3,a\n");
    let pred = temp("sub_ids.csv", "id,tags\n1,a\n1,b\n9,c\n");
    let r = json(&[
        "kaggle",
        "--gt",
        &gt,
        "--pred",
        &pred,
        "--set",
        "metric=f1_micro",
    ]);
    let c = codes(&r);
    assert!(
        c.contains(&("kaggle.duplicate_id".into(), Some(3), None)),
        "{c:?}"
    );
    assert!(
        c.contains(&("kaggle.unknown_id".into(), Some(4), None)),
        "{c:?}"
    );
    assert!(
        c.contains(&("kaggle.missing_id".into(), Some(3), None)),
        "{c:?}"
    );
    assert!(
        c.contains(&("kaggle.missing_id".into(), Some(4), None)),
        "{c:?}"
    );
}

#[test]
fn rows_of_one_image_are_its_objects() {
    // Two objects on each side, the second one predicted exactly, the first one not at all.
    let gt = temp("sol_obj.csv", "ImageId,EncodedPixels\nx,1 4\nx,11 4\n");
    let pred = temp("sub_obj.csv", "ImageId,EncodedPixels\nx,11 4\nx,\n");
    let r = json(&[
        "kaggle",
        "--gt",
        &gt,
        "--pred",
        &pred,
        "--set",
        "metric=iou_precision",
        "--set",
        "width=4",
        "--set",
        "height=4",
    ]);
    assert_eq!(
        r["scores"]["iou_precision"], 0.5,
        "1 TP, 1 FN at every threshold: {r}"
    );
    assert_eq!(r["scores"]["dice"], 2.0 * 4.0 / 12.0);
}

#[test]
fn manifest_from_the_sample_submission_alone() {
    let out = std::env::temp_dir().join(format!("kaggle-manifest-{}.json", std::process::id()));
    let out = out.to_string_lossy().into_owned();
    let (code, _) = run(&[
        "manifest",
        "--config",
        "map5/dropscore.toml",
        "--gt",
        "map5/sample_submission.csv",
        "--out",
        &out,
    ]);
    assert_eq!(code, 0);
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(m["expects"]["column"], "prediction");
    assert_eq!(m["expects"]["ids"].as_array().unwrap().len(), 20);
    let (code, text) = run(&[
        "check",
        "kaggle",
        "--manifest",
        &out,
        "--pred",
        "map5/submission.csv",
        "--set",
        "metric=map",
        "--set",
        "k=5",
    ]);
    assert_eq!(code, 0, "{text}");
    let bad = temp("submission.csv", "customer_id,prediction\nc000,a\n");
    let (code, text) = run(&[
        "check",
        "kaggle",
        "--manifest",
        &out,
        "--pred",
        &bad,
        "--set",
        "metric=map",
        "--set",
        "k=5",
    ]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("kaggle.missing_id"), "{text}");
    assert!(Path::new(&out).exists());
}
