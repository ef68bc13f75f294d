//! `dropscore score INPUT_DIR OUTPUT_DIR` on Codabench-shaped folders, for every built protocol: each of its
//! page examples (www/examples/<id>/, declared in ProtocolInfo.examples) staged as `input/ref` + `input/res`
//! with examples/<id>/dropscore.toml (+ competition.yaml) in ref/. `scores.json` must equal the CLI's JSON
//! report; `detailed_results.html` must reference no other file or host; `metadata` is never written.
//! Set DROPSCORE_SCORE_BIN to run the same checks with another binary (the static musl build).
//! The worked fixtures' values in such folders and null leaderboard values are in tests/score_program_values.rs.

mod common;
use common::cli::run_in;
use common::codabench::*;
use common::data;
use dropscore::protocols;
use serde_json::Value;
use std::path::PathBuf;

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
