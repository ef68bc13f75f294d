//! `dropscore manifest` and `dropscore check` on the command line (docs/specs/preflight.md): exit statuses, the
//! manifest's relative names, the JSON verdict, and a `--set` that contradicts the manifest.

mod common;
use common::cli::run;
use std::path::PathBuf;

fn data(rel: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(rel)
        .to_string_lossy()
        .into_owned()
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dropscore-preflight-cli-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

#[test]
fn manifest_then_check() {
    let c = "chalearn-ce/ap_example";
    let m = tmp("chalearn.json");
    let m = m.to_str().unwrap();
    let (code, _, err) = run(&[
        "manifest",
        "chalearn-ce",
        "--gt",
        &data(&format!("{c}/input/ref")),
        "--out",
        m,
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(m).unwrap();
    assert!(
        !text.contains(env!("CARGO_MANIFEST_DIR")),
        "absolute path in the manifest: {text}"
    );
    assert!(
        !text.contains("La_Tomatina_test"),
        "GT file names are not needed: {text}"
    );

    let (code, out, _) = run(&[
        "check",
        "chalearn-ce",
        "--manifest",
        m,
        "--pred",
        &data(&format!("{c}/input/res")),
    ]);
    assert_eq!(code, 0);
    assert_eq!(
        out.lines().next(),
        Some("Ready to submit: 1 category, 8 ids each, no problems.")
    );

    // A missing image is a warning: still ready, and the summary says so.
    let (code, out, _) = run(&[
        "check",
        "chalearn-ce",
        "--manifest",
        m,
        "--pred",
        &data(&format!("{c}/res_missing")),
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["schema"], 1);
    assert_eq!(v["ready"], true);
    assert_eq!(v["scores"], serde_json::json!({}));
    assert_eq!(
        v["summary"],
        "Ready to submit: 1 category, 7 of 8 ids; 1 warning worth a look."
    );
    assert_eq!(v["diagnostics"][0]["code"], "chalearn.res.missing_images");
    assert_eq!(v["items"][0]["id"], "La_Tomatina");
    assert_eq!(v["items"][0]["detail"]["expected"], 8);
    assert_eq!(v["items"][0]["detail"]["found"], 7);

    // A broken line: not ready, exit 1, located as scoring locates it.
    let bad = tmp("bad");
    std::fs::create_dir_all(&bad).unwrap();
    std::fs::write(bad.join("La_Tomatina.txt"), "img_a.jpg 0.5\nimg_b.jpg\n").unwrap();
    let (code, out, _) = run(&[
        "check",
        "chalearn-ce",
        "--manifest",
        m,
        "--pred",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    assert!(
        out.starts_with("Not ready to submit: 1 problem and 1 warning."),
        "{out}"
    );
    assert!(
        out.contains("La_Tomatina.txt:2:10: error [chalearn.res.bad_line]"),
        "{out}"
    );
    let (code, _, _) = run(&[
        "chalearn-ce",
        "--gt",
        &data(&format!("{c}/input/ref")),
        "--pred",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);

    // Usage errors: a --set that contradicts the manifest, another protocol's check.
    let res = data(&format!("{c}/input/res"));
    let (code, _, err) = run(&[
        "check",
        "chalearn-ce",
        "--manifest",
        m,
        "--pred",
        &res,
        "--set",
        "duplicates=error",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("conflicts with the manifest"), "{err}");
    let (code, _, _) = run(&[
        "check",
        "chalearn-ce",
        "--manifest",
        m,
        "--pred",
        &res,
        "--set",
        "duplicates=first",
    ]);
    assert_eq!(code, 0);
    let (code, _, err) = run(&["check", "kws", "--manifest", m, "--pred", &res]);
    assert_eq!(code, 2);
    assert!(err.contains("for protocol `chalearn-ce`"), "{err}");
}

#[test]
fn kws_manifest_from_a_ground_truth_with_errors_is_refused() {
    let (code, out, err) = run(&["manifest", "kws", "--gt", &data("kws/edge/gt_utf8.xml")]);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(err.contains("kws.official.reader_panic"), "{err}");
}

/// `check --config`: the config's protocol and options, and the manifest it names (relative to the config's
/// folder) when `--manifest` is not given; a protocol that contradicts the config, or no manifest at all, is a
/// usage error.
#[test]
fn check_takes_the_config_and_the_manifest_it_names() {
    let example = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/kaggle/multilabel_auc");
    let dir = tmp("config-check");
    std::fs::create_dir_all(&dir).unwrap();
    let config = std::fs::read_to_string(example.join("dropscore.toml")).unwrap();
    let plain = dir.join("plain.toml");
    std::fs::write(&plain, &config).unwrap();
    let named = dir.join("named.toml");
    std::fs::write(&named, format!("manifest = \"m.json\"\n{config}")).unwrap();
    let (plain, named) = (plain.to_str().unwrap(), named.to_str().unwrap());
    let sample = example.join("sample_submission.csv");
    let m = dir.join("m.json");
    let (code, _, err) = run(&[
        "manifest",
        "--config",
        plain,
        "--gt",
        sample.to_str().unwrap(),
        "--out",
        m.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let submission = example.join("submission.csv");
    let pred = submission.to_str().unwrap();
    let explicit = run(&[
        "check",
        "--config",
        plain,
        "--manifest",
        m.to_str().unwrap(),
        "--pred",
        pred,
    ]);
    assert_eq!(explicit.0, 0, "{explicit:?}");
    assert!(
        explicit.1.starts_with("Ready to submit: 40 ids"),
        "{explicit:?}"
    );
    assert_eq!(run(&["check", "--config", named, "--pred", pred]), explicit);

    let short = dir.join("short.csv");
    let text = std::fs::read_to_string(&submission).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    std::fs::write(&short, format!("{}\n{}\n", lines[0], lines[2..].join("\n"))).unwrap();
    let (code, out, _) = run(&[
        "check",
        "--config",
        named,
        "--pred",
        short.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("[classification.missing_id]"), "{out}");

    let (code, _, err) = run(&["check", "kws", "--config", named, "--pred", pred]);
    assert_eq!(
        (code, err.trim()),
        (
            2,
            format!(
                "dropscore: protocol `kws` differs from the config's `classification` ({named})"
            )
            .as_str()
        )
    );
    let (code, _, err) = run(&["check", "--config", plain, "--pred", pred]);
    assert_eq!(
        (code, err.trim()),
        (
            2,
            format!("dropscore: {plain} names no manifest: give --manifest FILE").as_str()
        )
    );
    let (code, _, err) = run(&["check", "--pred", pred]);
    assert_eq!(code, 2, "{err}");
}
