//! Protocol `kaggle`: every refusal names the row and the column in its message, as Kaggle's
//! `ParticipantVisibleError` messages do (docs/kaggle.md), and Kendall's τ over orderings as AI4Code's published
//! metric computes it (tests/reference/kaggle_formulas_diff.py checks random cases).

mod common;

fn temp(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("dropscore-kaggle-w-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

/// The JSON report of `dropscore ARGS --format json`.
fn json(args: &[&str]) -> serde_json::Value {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    common::cli::run_json(&all).1
}

fn messages(r: &serde_json::Value) -> Vec<String> {
    (r["diagnostics"].as_array().unwrap().iter())
        .map(|d| d["message"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn refusals_name_row_and_column() {
    let gt = temp("solution.csv", "ImageId,EncodedPixels\na,1 2\nb,\n");
    let pred = temp(
        "submission.csv",
        "ImageId,EncodedPixels\nb,\na,1 2 3\nz,\nb,\n",
    );
    let r = json(&[
        "kaggle", "--gt", &gt, "--pred", &pred, "--set", "width=4", "--set", "height=5",
    ]);
    let m = messages(&r);
    let has = |start: &str| m.iter().any(|x| x.starts_with(start));
    assert!(
        has("row 2 (id `a`), column `EncodedPixels`: an odd number of values"),
        "{m:?}"
    );
    assert!(has("row 3: id `z` is not in the solution"), "{m:?}");
    // Label sets have one row per id: a second one is refused.
    let gt = temp("sol_tags.csv", "id,tags\n1,a\n2,b\n");
    let pred = temp("sub_tags.csv", "id,tags\n1,a\n2,b\n1,a\n");
    let r = json(&[
        "kaggle",
        "--gt",
        &gt,
        "--pred",
        &pred,
        "--set",
        "metric=f1_micro",
    ]);
    let m = messages(&r);
    assert!(
        m.iter()
            .any(|x| x == "row 3: id `1` is repeated (first in row 1)"),
        "{m:?}"
    );
}

#[test]
fn kendall_tau_over_orderings() {
    // kendall_tau([["a","b","c"], ["x","y"]], [["c","a","b"], ["x","y"]]) = 1 - 4 * 2 / 8
    let gt = temp("orders.csv", "id,cell_order\nnb1,a b c\nnb2,x y\n");
    let pred = temp("orders_sub.csv", "id,cell_order\nnb2,x y\nnb1,c a b\n");
    let r = json(&[
        "kaggle",
        "--gt",
        &gt,
        "--pred",
        &pred,
        "--set",
        "metric=kendall_tau",
    ]);
    assert_eq!(r["scores"]["kendall_tau"].as_f64(), Some(0.0), "{r}");
    let bad = temp("orders_bad.csv", "id,cell_order\nnb2,x y\nnb1,c a q\n");
    let r = json(&[
        "kaggle",
        "--gt",
        &gt,
        "--pred",
        &bad,
        "--set",
        "metric=kendall_tau",
    ]);
    assert!(r["scores"]["kendall_tau"].is_null());
    assert!(messages(&r)
        .iter()
        .any(|x| x == "row 2 (id `nb1`), column `cell_order`: `q` is not in the solution's order"));
}
