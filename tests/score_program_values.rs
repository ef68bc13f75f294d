//! `dropscore score INPUT_DIR OUTPUT_DIR`: the values scores.json holds. Protocols' worked fixtures (falsid,
//! chalearn-ce, fest from tests/data/<id>/) staged as Codabench folders give their published values, equal to the
//! CLI's JSON report; and a leaderboard value is never null with exit status 0 (a null one fails the run, saying
//! so). Set DROPSCORE_SCORE_BIN to run the same checks with another binary (the static musl build).

mod common;
use common::cli::run_in;
use common::codabench::*;
use common::data;
use dropscore::protocols;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A Codabench folder from a protocol's fixture in tests/data/<id>/: ref/ with the GT (and the example config),
/// res/ with the submission as a participant zips it (here a nested folder). Returns scores.json.
fn fixture_folder(tag: &str, id: &str, gt: &[&str], res: &[(&str, &str)]) -> (i32, Value, String) {
    let base = fresh(&format!("fixture-{tag}"));
    let input = base.join("input");
    for g in gt {
        copy(&data(g), &input.join("ref"));
    }
    for (f, sub) in res {
        copy(&data(f), &input.join("res").join(sub));
    }
    let cfg = root().join("examples").join(id);
    copy(&cfg.join("dropscore.toml"), &input.join("ref"));
    let out = base.join("output");
    let (code, _, err) = run_in(
        root(),
        &["score", input.to_str().unwrap(), out.to_str().unwrap()],
    );
    let scores = std::fs::read_to_string(out.join("scores.json"))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or(Value::Null);
    if code == 0 {
        assert_self_contained(&std::fs::read_to_string(out.join("detailed_results.html")).unwrap());
    }
    (code, scores, err)
}

#[test]
fn falsid_worked_fixture_in_a_codabench_folder() {
    if protocols::info("falsid").is_none_or(|p| !p.built) {
        return;
    }
    // The per-subset layout in a nested res/pred_per_subset/ folder.
    let res = [
        ("falsid/worked/pred_per_subset/pizan.csv", "pred_per_subset"),
        ("falsid/worked/pred_per_subset/tasso.csv", "pred_per_subset"),
        ("falsid/worked/pred_per_subset/yaqut.csv", "pred_per_subset"),
    ];
    let (code, scores, err) =
        fixture_folder("falsid", "falsid", &["falsid/worked/gt_merged.csv"], &res);
    assert_eq!(code, 0, "{err}");
    // docs/specs/falsid.md 7.1 (tests/data/falsid/worked/expected.json): 41/60, 7/12, 14/20.
    let close = |k: &str, want: f64| {
        let v = scores[k].as_f64().unwrap_or(f64::NAN);
        assert!((v - want).abs() < 1e-15, "{k}: {v} vs {want}");
    };
    close("accuracy", 41.0 / 60.0);
    close("uar", 7.0 / 12.0);
    close("pooled_accuracy", 14.0 / 20.0);
    let gt = data("falsid/worked/gt_merged.csv");
    let preds: Vec<PathBuf> = res.iter().map(|(f, _)| data(f)).collect();
    let (_, report) = cli_report("falsid", &[gt], &preds, "official", &[]);
    for k in ["accuracy", "uar", "pooled_accuracy"] {
        assert_eq!(
            scores[k], report["scores"][k],
            "{k}: scores.json = the CLI's JSON report"
        );
    }
}

#[test]
fn chalearn_ce_ap_example_is_a_codabench_folder() {
    if protocols::info("chalearn-ce").is_none_or(|p| !p.built) {
        return;
    }
    // tests/data/chalearn-ce/ap_example is the Codalab layout itself; each variant replaces input/res.
    // Expected (docs/specs/chalearn-ce.md 7, expected.json): 0.722222, 0.666667, 0.603175 to 6 decimals.
    let gt = "chalearn-ce/ap_example/input/ref/La_Tomatina_test.txt";
    for (res, want) in [
        (
            "chalearn-ce/ap_example/input/res/La_Tomatina.txt",
            "0.722222",
        ),
        (
            "chalearn-ce/ap_example/res_negfirst/La_Tomatina.txt",
            "0.666667",
        ),
        (
            "chalearn-ce/ap_example/res_missing/La_Tomatina.txt",
            "0.603175",
        ),
    ] {
        let (code, scores, err) =
            fixture_folder(&format!("ce-{want}"), "chalearn-ce", &[gt], &[(res, "")]);
        assert_eq!(code, 0, "{res}: {err}");
        let v = scores["map"].as_f64().unwrap();
        assert_eq!(format!("{v:.6}"), want, "{res}");
        let (_, report) = cli_report("chalearn-ce", &[data(gt)], &[data(res)], "official", &[]);
        assert_eq!(
            scores["map"], report["scores"]["map"],
            "{res}: scores.json = the CLI's JSON report"
        );
    }
}

#[test]
fn fest_synthetic_fixture_in_a_codabench_folder() {
    if protocols::info("fest").is_none_or(|p| !p.built) {
        return;
    }
    // tests/data/fest/synthetic (docs/specs/fest.md 7.1): Line IU 1/3 for the 8-connected GT, exactly.
    let (code, scores, err) = fixture_folder(
        "fest",
        "fest",
        &["fest/synthetic/gt/001.png"],
        &[("fest/synthetic/pred/001.png", "")],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(scores["line_iu"].as_f64(), Some(0.3333333333333333));
    let (_, report) = cli_report(
        "fest",
        &[data("fest/synthetic/gt/001.png")],
        &[data("fest/synthetic/pred/001.png")],
        "official",
        &[],
    );
    assert_eq!(
        scores["line_iu"], report["scores"]["line_iu"],
        "scores.json = the CLI's JSON report"
    );
}
/// Stages `files` (name, text) of ref/ and res/ under a fresh folder; returns (input, output).
fn stage_texts(tag: &str, refs: &[(&str, &str)], res: &[(&str, &str)]) -> (PathBuf, PathBuf) {
    let base = fresh(tag);
    for (dir, files) in [("ref", refs), ("res", res)] {
        let d = base.join("input").join(dir);
        std::fs::create_dir_all(&d).unwrap();
        for (name, text) in files {
            std::fs::write(d.join(name), text).unwrap();
        }
    }
    (base.join("input"), base.join("output"))
}

/// Never a null leaderboard value with exit status 0: either every value of scores.json is a number (exit 0),
/// or the run fails (exit 1) with one sentence naming `metric` as null, no scores written, and the sentence
/// on the participant's page too. Returns whether it failed.
fn number_or_failure(input: &Path, out: &Path, metric: &str) -> bool {
    let (code, _, err) = run_in(
        root(),
        &["score", input.to_str().unwrap(), out.to_str().unwrap()],
    );
    let scores = out.join("scores.json");
    if code == 0 {
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&scores).unwrap()).unwrap();
        for (k, x) in v.as_object().unwrap() {
            assert!(x.is_number(), "scores.json: {k} = {x} with exit 0");
        }
        let txt = std::fs::read_to_string(out.join("scores.txt")).unwrap();
        assert!(!txt.contains("null"), "{txt}");
        return false;
    }
    assert_eq!(code, 1, "{err}");
    assert!(!scores.exists() && !out.join("scores.txt").exists());
    let line = err
        .lines()
        .find(|l| l.contains(" is null: "))
        .unwrap_or_else(|| panic!("no sentence naming the null metric: {err}"));
    assert!(line.contains(&format!("`{metric}`")), "{line}");
    assert!(line.ends_with("No scores written."), "{line}");
    let html = std::fs::read_to_string(out.join("detailed_results.html")).unwrap();
    assert!(html.contains(" is null: "), "the page says it too");
    true
}

#[test]
fn a_null_leaderboard_metric_is_a_failure() {
    // ROC AUC competition, hard-label submission (the natural `label_column` name on both sides).
    let gt: String = std::iter::once("customer_id,churn\n".to_string())
        .chain((0..20).map(|i| format!("u{i},{}\n", i % 2)))
        .collect();
    let labels: String = std::iter::once("customer_id,churn\n".to_string())
        .chain((0..20).map(|i| format!("u{i},{}\n", (i / 3) % 2)))
        .collect();
    let config = "protocol = \"classification\"\n[options]\nmetric = \"roc_auc\"\nlabel_column = \"churn\"\n";
    let (input, out) = stage_texts(
        "null-auc",
        &[("gt.csv", &gt), ("dropscore.toml", config)],
        &[("pred.csv", &labels)],
    );
    number_or_failure(&input, &out, "roc_auc");
    // A column null while the headline is not: three classes, hard labels, a one-vs-rest AUC column
    // (scikit-learn needs one score column per class for it).
    let gt3: String = std::iter::once("id,label\n".to_string())
        .chain((0..30).map(|i| format!("i{i},{}\n", ["cat", "dog", "fox"][i % 3])))
        .collect();
    let pred3: String = std::iter::once("id,label\n".to_string())
        .chain((0..30).map(|i| format!("i{i},{}\n", ["cat", "dog", "fox"][(i / 2) % 3])))
        .collect();
    let config3 = "protocol = \"classification\"\n\
                   [[leaderboard.columns]]\nkey = \"accuracy\"\n\
                   [[leaderboard.columns]]\nkey = \"auc\"\nmetric = \"roc_auc_ovr\"\n";
    let (input, out) = stage_texts(
        "null-column",
        &[("gt.csv", &gt3), ("dropscore.toml", config3)],
        &[("pred.csv", &pred3)],
    );
    assert!(
        number_or_failure(&input, &out, "auc"),
        "one-vs-rest AUC has no value for hard labels"
    );
    // Regression predictions of 1e308: the squared errors overflow.
    let gt: String = std::iter::once("id,target\n".to_string())
        .chain((0..10).map(|i| format!("r{i},{i}.5\n")))
        .collect();
    let pred: String = std::iter::once("id,prediction\n".to_string())
        .chain((0..10).map(|i| format!("r{i},{}\n", if i % 2 == 0 { "1e308" } else { "-1e308" })))
        .collect();
    let config = "protocol = \"regression\"\n[[leaderboard.columns]]\nkey = \"rmse\"\nmetric = \"root_mean_squared_error\"\nsort = \"asc\"\n";
    let (input, out) = stage_texts(
        "null-rmse",
        &[("gt.csv", &gt), ("dropscore.toml", config)],
        &[("pred.csv", &pred)],
    );
    number_or_failure(&input, &out, "rmse");
    // Without a config: scores.json holds no null either (the headline must have a value; other null scores
    // are left out).
    let (input, out) = stage_texts("null-bare", &[("gt.csv", &gt)], &[("pred.csv", &pred)]);
    let (code, _, err) = run_in(
        root(),
        &[
            "score",
            input.to_str().unwrap(),
            out.to_str().unwrap(),
            "--protocol=regression",
        ],
    );
    if code == 0 {
        let txt = std::fs::read_to_string(out.join("scores.json")).unwrap();
        assert!(!txt.contains("null"), "{txt}");
    } else {
        assert_eq!(code, 1, "{err}");
        assert!(err.contains(" is null: "), "{err}");
    }
}
