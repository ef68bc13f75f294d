//! Protocol `kaggle` on PredictionString detection from the command line: the example's numbers (checked against
//! pycocotools, VOC's voc_eval and Global Wheat's notebook by tests/reference/kaggle_pstring_diff.py), the
//! layouts (`classes`, `box_format`), the config file, and malformed cells refused with their row, column and
//! token.

mod common;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `dropscore ARGS` in examples/kaggle/prediction-string: exit status and standard output.
fn run(args: &[&str]) -> (i32, String) {
    let (code, out, _) =
        common::cli::run_in(root().join("examples/kaggle/prediction-string"), args);
    (code, out)
}

fn json(args: &[&str]) -> serde_json::Value {
    let mut a = args.to_vec();
    a.extend(["--format", "json"]);
    let (_, out) = run(&a);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

fn temp(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("dropscore-pstring-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

fn score(r: &serde_json::Value, id: &str) -> f64 {
    r["scores"][id]
        .as_f64()
        .unwrap_or_else(|| panic!("{id}: {r}"))
}

#[test]
fn example_scores_as_pycocotools() {
    let r = json(&[
        "kaggle",
        "--gt",
        "solution.csv",
        "--pred",
        "submission.csv",
        "--set",
        "metric=box_ap",
    ]);
    // pycocotools 2.0.8 on the same boxes (tests/reference/kaggle_pstring_diff.py's conversion).
    let want = [
        ("box_ap", 0.42005081460526994),
        ("box_ap50", 0.7957567185289957),
        ("box_ap75", 0.39933993399339934),
        ("box_ar100", 0.4665800865800866),
        ("voc_ap", 0.7980828695114409),
        ("wheat_precision", 0.450082671957672),
    ];
    for (id, v) in want {
        assert!((score(&r, id) - v).abs() < 1e-12, "{id}: {r}");
    }
    assert_eq!(r["diagnostics"].as_array().unwrap().len(), 0, "{r}");
    let (code, text) = run(&[
        "kaggle",
        "--config",
        "dropscore.toml",
        "--gt",
        "solution.csv",
        "--pred",
        "submission.csv",
    ]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("0.42005"), "{text}");
}

#[test]
fn global_wheat_and_xyxy_layouts() {
    // Global Wheat: `conf x y w h`, no class. One image: a perfect box and a spurious one, one missed GT.
    let gt = temp(
        "wheat_gt.csv",
        "image_id,PredictionString\na,0 0 10 10 50 50 10 10\nb,\n",
    );
    let sub = temp(
        "wheat_sub.csv",
        "image_id,PredictionString\na,0.9 0 0 10 10 0.8 20 20 5 5\nb,\n",
    );
    let r = json(&[
        "kaggle",
        "--gt",
        &gt,
        "--pred",
        &sub,
        "--set",
        "metric=wheat_precision",
        "--set",
        "classes=false",
    ]);
    // Image a: 1 / (1 + 1 + 1) at every threshold; image b (empty on both sides) scores 1 (empty = one).
    assert!(
        (score(&r, "wheat_precision") - (1.0 / 3.0 + 1.0) / 2.0).abs() < 1e-15,
        "{r}"
    );
    // The same boxes as `class conf xmin ymin xmax ymax`.
    let gt = temp(
        "xyxy_gt.csv",
        "image_id,PredictionString\na,w 0 0 10 10 w 50 50 60 60\n",
    );
    let sub = temp(
        "xyxy_sub.csv",
        "image_id,PredictionString\na,w 0.9 0 0 10 10 w 0.8 20 20 25 25\n",
    );
    let r = json(&[
        "kaggle",
        "--gt",
        &gt,
        "--pred",
        &sub,
        "--set",
        "metric=voc_ap",
        "--set",
        "box_format=xyxy",
    ]);
    assert_eq!(score(&r, "voc_ap"), 0.5, "{r}");
}

#[test]
fn malformed_cells_are_located() {
    let gt = temp(
        "gt.csv",
        "image_id,PredictionString\na,0 1 2 3 4\nb,1 1 2 3 4\n",
    );
    let cases = [
        (
            "a,0 0.9 1 2 3 4 1\nb,\n",
            "kaggle.pstring_count",
            2,
            "7 tokens",
        ),
        (
            "a,0 0.9 1 2 3 4\nb,1 0.5 1 x 3 4\n",
            "kaggle.pstring_number",
            3,
            "token 4 `x`",
        ),
        (
            "a,0 0.9 1 2 -3 4\nb,\n",
            "kaggle.pstring_negative",
            2,
            "negative width",
        ),
    ];
    for (rows, code, line, words) in cases {
        let sub = temp("sub.csv", &format!("image_id,PredictionString\n{rows}"));
        let r = json(&[
            "kaggle",
            "--gt",
            &gt,
            "--pred",
            &sub,
            "--set",
            "metric=box_ap",
        ]);
        let d = &r["diagnostics"][0];
        assert_eq!(d["code"], code, "{r}");
        assert_eq!(d["line"], line, "{r}");
        assert_eq!(d["column"], 3, "{r}");
        let message = d["message"].as_str().unwrap();
        assert!(message.contains(words), "{message}");
        assert!(message.contains("column `PredictionString`"), "{message}");
        assert!(r["scores"]["box_ap"].is_null(), "{r}");
    }
    let (code, _) = run(&[
        "kaggle",
        "--gt",
        &gt,
        "--pred",
        &gt,
        "--set",
        "metric=voc_ap",
        "--set",
        "iou=1.5",
    ]);
    assert_eq!(code, 2);
}
