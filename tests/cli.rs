//! The command line: formats, exit codes 0/1/2, `list`, `convert`.

mod common;
use common::{cli, data};

/// `dropscore ARGS` in tests/data, as [`cli::run_in`].
fn run(args: &[&str]) -> (i32, String, String) {
    cli::run_in(data(""), args)
}

const GT: &str = "kws/rusteval/GroundTruthRelevanceJudgementsSample.xml";
const RES: &str = "kws/rusteval/WordSpottingResultsSample.xml";

#[test]
fn exit_codes() {
    let (code, out, _) = run(&["kws", "--gt", GT, "--pred", RES]);
    assert_eq!(code, 0);
    assert!(out.contains("\t\t0.90000\t\t0.50000\t\t0.51852"));
    let (code, _, err) = run(&[
        "kws",
        "--gt",
        "kws/edge/gt.xml",
        "--pred",
        "kws/edge/res_blank.xml",
    ]);
    assert_eq!(code, 1);
    assert!(
        err.contains("kws/edge/res_blank.xml:4:1: error [kws.official.reader_panic]"),
        "{err}"
    );
    assert_eq!(
        run(&["kws", "--gt", GT, "--pred", RES, "--set", "bogus=1"]).0,
        2
    );
    assert_eq!(
        run(&["kws", "--gt", GT, "--pred", RES, "--mode", "strict"]).0,
        2
    );
    assert_eq!(run(&["nosuch", "--gt", GT, "--pred", RES]).0, 2);
    assert_eq!(run(&["kws", "--gt", GT]).0, 2);
    assert_eq!(run(&["kws", "--gt", "missing.xml", "--pred", RES]).0, 2);
}

#[test]
fn formats_and_out_file() {
    let (code, json, _) = run(&["kws", "--gt", GT, "--pred", RES, "--format", "json"]);
    assert_eq!(code, 0);
    assert!(json.starts_with("{\"schema\":1,\"protocol\":\"kws\",\"mode\":\"official\",\"options\":{\"preset\":\"icfhr14\""), "{json}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["scores"]["precAt5"], 0.8999999761581421);
    let (_, tsv, _) = run(&["kws", "--gt", GT, "--pred", RES, "--format", "tsv"]);
    assert_eq!(
        tsv.lines().next().unwrap(),
        "id\tgroup\tR\tn\thits\tprecAt5\tprecAt10\tap"
    );
    assert!(tsv
        .lines()
        .nth(1)
        .unwrap()
        .starts_with("sb0000\t\t9\t48\t5\t1\t0.5555556\t0.5555556"));
    let (_, csv, _) = run(&["kws", "--gt", GT, "--pred", RES, "--format", "csv"]);
    assert_eq!(csv.lines().count(), 3);
    let out = std::env::temp_dir().join(format!("dropscore-cli-{}.json", std::process::id()));
    let (code, stdout, _) = run(&[
        "kws",
        "--gt",
        GT,
        "--pred",
        RES,
        "--format",
        "json",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!((code, stdout.as_str()), (0, ""));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), json);
    let _ = std::fs::remove_file(out);
    let (code, both, _) = run(&[
        "kws",
        "--gt",
        "kws/edge/gt.xml",
        "--pred",
        "kws/edge/res_missingq2.xml",
        "--mode",
        "both",
    ]);
    assert_eq!(code, 0);
    assert!(
        both.contains(
            "1 GT query missing from the results: official mean over 1, corrected over 2"
        ),
        "{both}"
    );
}

#[test]
fn list_names_every_protocol() {
    let (code, out, _) = run(&["list"]);
    assert_eq!(code, 0);
    assert!(out
        .lines()
        .any(|l| l.starts_with("fest\t") && !l.ends_with("(not built yet)")));
    for p in ["kws\t", "falsid\t", "chalearn-ce\t", "aij2022\t"] {
        assert!(out.contains(p), "{p}");
    }
    assert!(
        out.contains("--set match_document=<bool>  default false (official) / true (corrected)")
    );
}

#[test]
fn convert_reproduces_the_fixture_conversions() {
    for flavour in ["bin", "graded10", "float"] {
        let (code, out, err) = run(&["kws", "convert", "--gt", GT, "--flavour", flavour]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(
            out,
            std::fs::read_to_string(data(&format!("kws/trec/sample.qrels.{flavour}"))).unwrap(),
            "{flavour}"
        );
    }
    let (code, out, _) = run(&["kws", "convert", "--pred", RES]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        std::fs::read_to_string(data("kws/trec/sample.run")).unwrap()
    );
}

#[test]
fn manifest_takes_the_configs_options_and_config_checks_the_manifest() {
    let d = std::env::temp_dir().join(format!("dropscore-cli-manifest-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    let gt: String = std::iter::once("id,churn\n".to_string())
        .chain((0..10).map(|i| format!("u{i},{}\n", i % 2)))
        .collect();
    std::fs::write(d.join("gt.csv"), gt).unwrap();
    std::fs::write(
        d.join("dropscore.toml"),
        "protocol = \"classification\"\nmanifest = \"manifest.json\"\n[options]\nmetric = \"roc_auc\"\n",
    )
    .unwrap();
    let p = |n: &str| d.join(n).to_str().unwrap().to_string();
    // A manifest made without the config's options: `dropscore config` says so, at config time.
    let (code, _, err) = run(&[
        "manifest",
        "classification",
        "--gt",
        &p("gt.csv"),
        "--out",
        &p("manifest.json"),
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = run(&["config", &p("dropscore.toml")]);
    assert_eq!(code, 1, "{err}");
    assert!(out.is_empty());
    assert!(
        err.contains("the config's metric=roc_auc conflicts with the manifest")
            && err.contains("dropscore manifest --config"),
        "{err}"
    );
    // Made with --config: the two agree.
    let (code, _, err) = run(&[
        "manifest",
        "--config",
        &p("dropscore.toml"),
        "--gt",
        &p("gt.csv"),
        "--out",
        &p("manifest.json"),
    ]);
    assert_eq!(code, 0, "{err}");
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(m["options"]["metric"], "roc_auc");
    let (code, _, err) = run(&["config", &p("dropscore.toml")]);
    assert_eq!(code, 0, "{err}");
    // A named manifest with --manifest; another protocol than the config's is a usage error.
    let (code, _, err) = run(&[
        "config",
        &p("dropscore.toml"),
        "--manifest",
        &p("none.json"),
    ]);
    assert_eq!(code, 1, "{err}");
    let (code, _, err) = run(&[
        "manifest",
        "regression",
        "--config",
        &p("dropscore.toml"),
        "--gt",
        &p("gt.csv"),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("differs from the config's `classification`"),
        "{err}"
    );
}
