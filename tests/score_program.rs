//! `dropscore score INPUT_DIR OUTPUT_DIR` on Codabench-shaped folders, for every built protocol: each of its
//! page examples (www/examples/<id>/, declared in ProtocolInfo.examples) staged as `input/ref` + `input/res`
//! with examples/<id>/dropscore.toml (+ competition.yaml) in ref/. `scores.json` must equal the CLI's JSON
//! report; `detailed_results.html` must reference no other file or host; `metadata` is never written.
//! Set DROPSCORE_SCORE_BIN to run the same checks with another binary (the static musl build).

mod common;
use common::cli::run_in;
use common::data;
use dropscore::protocols;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fresh(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dropscore-score-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn copy(from: &Path, to_dir: &Path) {
    std::fs::create_dir_all(to_dir).unwrap();
    std::fs::copy(from, to_dir.join(from.file_name().unwrap()))
        .unwrap_or_else(|e| panic!("{}: {e}", from.display()));
}

/// Asserts that the page refers to nothing outside itself.
pub fn assert_self_contained(html: &str) {
    let lower = html.to_ascii_lowercase();
    for attr in [
        "src=", "href=", "xlink:", "url(", "@import", "<script", "<link", "<iframe", "<object",
        "<embed",
    ] {
        assert!(
            !lower.contains(attr),
            "detailed_results.html contains `{attr}`"
        );
    }
    assert!(lower.starts_with("<!doctype html>") && lower.trim_end().ends_with("</html>"));
}

/// Stages one example as a Codabench input folder; returns (input dir, gt paths, pred paths).
fn stage(
    tag: &str,
    id: &str,
    ex: &protocols::Example,
    with_config: bool,
) -> (PathBuf, Vec<PathBuf>, Vec<PathBuf>) {
    let base = fresh(&format!("{tag}-{id}-{}-{with_config}", ex.id));
    let input = base.join("input");
    let www = root().join("www");
    let gts: Vec<PathBuf> = ex.gt.iter().map(|p| www.join(p)).collect();
    let preds: Vec<PathBuf> = ex.pred.iter().map(|p| www.join(p)).collect();
    for g in &gts {
        copy(g, &input.join("ref"));
    }
    for p in &preds {
        copy(p, &input.join("res"));
    }
    std::fs::create_dir_all(input.join("res")).unwrap();
    if with_config {
        let cfg_dir = root().join("examples").join(id);
        copy(&cfg_dir.join("dropscore.toml"), &input.join("ref"));
        if cfg_dir.join("competition.yaml").is_file() {
            copy(&cfg_dir.join("competition.yaml"), &input.join("ref"));
        }
    }
    (input, gts, preds)
}

fn cli_report(
    id: &str,
    gts: &[PathBuf],
    preds: &[PathBuf],
    mode: &str,
    set: &[(String, String)],
) -> (i32, Value) {
    let mut args: Vec<String> = vec![id.into()];
    for g in gts {
        args.push("--gt".into());
        args.push(g.display().to_string());
    }
    for p in preds {
        args.push("--pred".into());
        args.push(p.display().to_string());
    }
    args.extend([
        "--mode".into(),
        mode.into(),
        "--format".into(),
        "json".into(),
    ]);
    for (k, v) in set {
        args.push("--set".into());
        args.push(format!("{k}={v}"));
    }
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out, err) = run_in(root(), &refs);
    assert!(code <= 2, "{id}: CLI exit {code}: {err}");
    (code, serde_json::from_str(&out).unwrap_or(Value::Null))
}

#[test]
fn codabench_folder_per_protocol_equals_the_cli() {
    let mut checked = 0;
    for p in protocols::list().into_iter().filter(|p| p.built) {
        let cfg_path = root().join("examples").join(p.id).join("dropscore.toml");
        if !cfg_path.is_file() {
            eprintln!(
                "note: {} has no example config yet; no Codabench-folder test",
                p.id
            );
            continue;
        }
        let cfg = {
            let c =
                dropscore::config::from_toml(&std::fs::read_to_string(&cfg_path).unwrap()).unwrap();
            match c.leaderboard.competition_yaml.clone() {
                Some(y) => {
                    let t = std::fs::read_to_string(cfg_path.parent().unwrap().join(y)).unwrap();
                    dropscore::config::with_columns(
                        c,
                        dropscore::config::leaderboard_from_yaml(&t).unwrap(),
                    )
                }
                None => c,
            }
        };
        for ex in p.examples {
            let (input, gts, preds) = stage("cb", p.id, ex, true);
            let (cli_code, report) =
                cli_report(p.id, &gts, &preds, cfg.mode.as_str(), &cfg.options);
            let out = input.parent().unwrap().join("output");
            let (code, _, err) = run_in(
                root(),
                &["score", input.to_str().unwrap(), out.to_str().unwrap()],
            );
            assert!(
                !out.join("metadata").exists(),
                "never writes OUTPUT_DIR/metadata"
            );
            if cli_code == 2 {
                // The config's options do not fit this example (e.g. an ICFHR'14 preset on TREC files).
                assert_eq!(
                    code, 2,
                    "{}/{}: usage errors give exit 2: {err}",
                    p.id, ex.id
                );
                continue;
            }
            let html = std::fs::read_to_string(out.join("detailed_results.html")).unwrap();
            assert_self_contained(&html);
            if cli_code == 1 {
                assert_eq!(
                    code, 1,
                    "{}/{}: input errors give exit 1: {err}",
                    p.id, ex.id
                );
                assert!(err.contains("error"), "{err}");
                assert!(!out.join("scores.json").exists());
                continue;
            }
            if let Some(c) = cfg
                .leaderboard
                .columns
                .iter()
                .find(|c| report["scores"].get(&c.metric).is_none())
            {
                assert_eq!(
                    code, 2,
                    "{}/{}: column {} names no score of this report",
                    p.id, ex.id, c.key
                );
                assert!(
                    err.contains(&format!("leaderboard column `{}`", c.key)),
                    "{err}"
                );
                continue;
            }
            // The headline is a leaderboard value when an option names it (a family's `metric`).
            let headline = report["display"]["headline"][0]["id"]
                .as_str()
                .unwrap_or("");
            let on_board = report["options"]
                .as_object()
                .is_some_and(|o| o.values().any(|v| v.as_str() == Some(headline)));
            let headline = if on_board { headline } else { "" };
            let null = cfg
                .leaderboard
                .columns
                .iter()
                .map(|c| c.metric.as_str())
                .chain([headline])
                .find(|m| report["scores"].get(m).is_some_and(Value::is_null));
            if let Some(m) = null {
                // A leaderboard value is a number or a failure.
                assert_eq!(code, 1, "{}/{}: `{m}` is null: {err}", p.id, ex.id);
                assert!(err.contains("is null"), "{err}");
                assert!(!out.join("scores.json").exists());
                continue;
            }
            assert_eq!(code, 0, "{}/{}: {err}", p.id, ex.id);
            let scores: Value =
                serde_json::from_str(&std::fs::read_to_string(out.join("scores.json")).unwrap())
                    .unwrap();
            let keys: Vec<&str> = scores
                .as_object()
                .unwrap()
                .keys()
                .map(String::as_str)
                .collect();
            let want: Vec<&str> = cfg
                .leaderboard
                .columns
                .iter()
                .map(|c| c.key.as_str())
                .collect();
            assert_eq!(
                keys, want,
                "{}/{}: scores.json has the leaderboard keys in order",
                p.id, ex.id
            );
            let txt = std::fs::read_to_string(out.join("scores.txt")).unwrap();
            for c in &cfg.leaderboard.columns {
                let v = &report["scores"][&c.metric];
                assert_eq!(
                    &scores[&c.key], v,
                    "{}/{}: {} = the CLI report's {}",
                    p.id, ex.id, c.key, c.metric
                );
                // Compared as parsed values: serde_json (without float_roundtrip) may read the report's shortest
                // round-trip text one ulp off (0.9333333333333333 → 0.9333333333333332), the same way on both sides.
                let line = txt
                    .lines()
                    .find(|l| l.starts_with(&format!("{}: ", c.key)))
                    .unwrap_or_else(|| panic!("no {} line in {txt}", c.key));
                let got: Value =
                    serde_json::from_str(&line[c.key.len() + 2..]).unwrap_or(Value::Null);
                assert_eq!(&got, v, "{txt}");
            }
            checked += 1;
        }
    }
    assert!(checked >= 1, "at least one example scored");
}

#[test]
fn flags_without_a_config_and_their_overrides() {
    let info = protocols::info("kws").unwrap();
    let ex = info.examples.iter().find(|e| e.id == "sample").unwrap();
    let (input, gts, preds) = stage("flags", "kws", ex, false);
    let out = input.parent().unwrap().join("output");
    let (code, _, err) = run_in(
        root(),
        &["score", input.to_str().unwrap(), out.to_str().unwrap()],
    );
    assert_eq!(code, 2, "no protocol: usage error");
    assert!(err.contains("--protocol"), "{err}");
    let (code, _, err) = run_in(
        root(),
        &[
            "score",
            input.to_str().unwrap(),
            out.to_str().unwrap(),
            "--protocol",
            "kws",
            "--mode",
            "corrected",
            "--set",
            "k=5,10",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let scores: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("scores.json")).unwrap()).unwrap();
    let (_, report) = cli_report(
        "kws",
        &gts,
        &preds,
        "corrected",
        &[("k".into(), "5,10".into())],
    );
    assert_eq!(
        scores, report["scores"],
        "without leaderboard columns: every headline score"
    );
    // A bad config is a located usage error; the scoring program writes nothing.
    std::fs::write(
        input.join("ref/dropscore.toml"),
        "protocol = \"kws\"\nmode = \"both\"\n",
    )
    .unwrap();
    let out2 = input.parent().unwrap().join("output2");
    let (code, _, err) = run_in(
        root(),
        &["score", input.to_str().unwrap(), out2.to_str().unwrap()],
    );
    assert_eq!(code, 2);
    assert!(err.contains("dropscore.toml:2:8: mode:"), "{err}");
    // The outputs are still written: detailed_results.html names the problem; no scores.
    let html = std::fs::read_to_string(out2.join("detailed_results.html")).unwrap();
    assert_self_contained(&html);
    assert!(html.contains("dropscore.toml:2:8: mode:"), "{html}");
    assert!(!out2.join("scores.json").exists());
    // A leaderboard column naming a score the report lacks.
    std::fs::write(
        input.join("ref/dropscore.toml"),
        "protocol = \"kws\"\n[[leaderboard.columns]]\nkey = \"nope\"\n",
    )
    .unwrap();
    let (code, _, err) = run_in(
        root(),
        &["score", input.to_str().unwrap(), out2.to_str().unwrap()],
    );
    // The config check knows kws's score ids (Protocol::score_ids), so it is refused before any scoring.
    assert_eq!(code, 2);
    assert!(
        err.contains(
            "dropscore.toml:2:1: leaderboard.columns[0]: metric `nope`: no kws report has this score"
        ),
        "{err}"
    );
    // Missing res/ (with no config, so that the config's own error does not come first)
    std::fs::remove_file(input.join("ref/dropscore.toml")).unwrap();
    std::fs::remove_dir_all(input.join("res")).unwrap();
    let (code, _, err) = run_in(
        root(),
        &[
            "score",
            input.to_str().unwrap(),
            out2.to_str().unwrap(),
            "--protocol",
            "kws",
        ],
    );
    assert_eq!(code, 2);
    assert!(err.contains("res"), "{err}");
}

#[test]
fn codalab_metadata_in_res_is_ignored() {
    let info = protocols::info("kws").unwrap();
    let ex = info.examples.iter().find(|e| e.id == "sample").unwrap();
    let (input, _, _) = stage("meta", "kws", ex, true);
    std::fs::write(input.join("res/metadata"), "description: my run\n").unwrap();
    let out = input.parent().unwrap().join("output");
    let (code, _, err) = run_in(
        root(),
        &["score", input.to_str().unwrap(), out.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{err}");
    assert!(!out.join("metadata").exists());
    let _ = data("");
}

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

#[test]
fn chalearn_ce_without_a_config_writes_the_scores_key() {
    if protocols::info("chalearn-ce").is_none_or(|p| !p.built) {
        return;
    }
    // docs/specs/chalearn-ce.md 2.3: with no leaderboard configured, scores.txt says `mAP: <value>` (option
    // `scores_key`); `--set scores_key=…` renames it. 0.7222222222222223 is the worked example's AP (0.722222 in the
    // spec) as NumPy's trapezoid gives it, bit for bit (tests/reference/chalearn_ce_diff.py).
    let base = fresh("ce-scores-key");
    let input = base.join("input");
    copy(
        &data("chalearn-ce/ap_example/input/ref/La_Tomatina_test.txt"),
        &input.join("ref"),
    );
    copy(
        &data("chalearn-ce/ap_example/input/res/La_Tomatina.txt"),
        &input.join("res"),
    );
    for (set, key) in [(None, "mAP"), (Some("scores_key=set1_score"), "set1_score")] {
        let out = base.join(format!("output-{key}"));
        let mut args = vec![
            "score",
            input.to_str().unwrap(),
            out.to_str().unwrap(),
            "--protocol",
            "chalearn-ce",
        ];
        if let Some(s) = set {
            args.extend(["--set", s]);
        }
        let (code, _, err) = run_in(root(), &args);
        assert_eq!(code, 0, "{err}");
        let txt = std::fs::read_to_string(out.join("scores.txt")).unwrap();
        assert_eq!(txt, format!("{key}: 0.7222222222222223\n"));
        let json: Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("scores.json")).unwrap())
                .unwrap();
        assert_eq!(json[key].as_f64(), Some(0.7222222222222223));
    }
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
