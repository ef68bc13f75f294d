//! `dropscore score` with a pre-flight manifest (docs/specs/preflight.md): the check runs first on `res/`,
//! a submission that is not ready is not scored and `detailed_results.html` gives the verdict and the located
//! problems, as `dropscore check` does; and `detailed_results.html`'s Content-Security-Policy.

mod common;
use common::cli::run_in;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fresh(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "dropscore-preflight-score-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn copy(from: &Path, to_dir: &Path) {
    std::fs::create_dir_all(to_dir).unwrap();
    std::fs::copy(from, to_dir.join(from.file_name().unwrap())).unwrap();
}

/// The page refers to nothing outside itself (as tests/score_program.rs asserts).
fn assert_self_contained(html: &str) {
    let lower = html.to_ascii_lowercase();
    for attr in [
        "src=", "href=", "url(", "@import", "<script", "<link", "<iframe", "<object", "<embed",
    ] {
        assert!(
            !lower.contains(attr),
            "detailed_results.html contains `{attr}`"
        );
    }
}

/// A Codabench folder for kws's sample: ref/ with the GT, a config naming `manifest.json` (the manifest of that
/// GT, written by `dropscore manifest`), res/ with `pred` under the name `name`. Returns (input, output).
fn kws_with_manifest(tag: &str, pred: &[u8], name: &str) -> (PathBuf, PathBuf) {
    let dir = fresh(tag);
    let input = dir.join("input");
    let gt = root().join("www/examples/kws/GroundTruthRelevanceJudgementsSample.xml");
    copy(&gt, &input.join("ref"));
    let manifest = input.join("ref/manifest.json");
    let (code, _, err) = run_in(
        root(),
        &[
            "manifest",
            "kws",
            "--gt",
            gt.to_str().unwrap(),
            "--out",
            manifest.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{err}");
    std::fs::write(
        input.join("ref/dropscore.toml"),
        "protocol = \"kws\"\nmanifest = \"manifest.json\"\n",
    )
    .unwrap();
    std::fs::create_dir_all(input.join("res")).unwrap();
    std::fs::write(input.join("res").join(name), pred).unwrap();
    (input, dir.join("output"))
}

#[test]
fn score_runs_the_preflight_check_first_when_a_manifest_is_available() {
    let pred =
        std::fs::read(root().join("www/examples/kws/WordSpottingResultsSample.xml")).unwrap();
    // Ready: the check passes (said on stderr), then the submission is scored as without a manifest.
    let (input, out) = kws_with_manifest("manifest-ready", &pred, "Results.xml");
    let (code, _, err) = run_in(
        root(),
        &["score", input.to_str().unwrap(), out.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("pre-flight check: Ready to submit: 2 queries"),
        "{err}"
    );
    let scores: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("scores.json")).unwrap()).unwrap();
    assert_eq!(
        scores["map"].as_f64().map(|m| (m * 1e4).round() / 1e4),
        Some(0.5185)
    );
    assert!(!std::fs::read_to_string(out.join("detailed_results.html"))
        .unwrap()
        .contains("manifest.json"));

    // Not ready: a broken line and a JPEG among the results. Nothing is scored; the verdict and the located
    // problems (causes first) are in detailed_results.html and on stderr, as `dropscore check` gives them.
    let text = String::from_utf8(pred).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let at = lines.iter().position(|l| l.contains("<word")).unwrap();
    lines[at] = lines[at].replacen("\" />", " />", 1);
    let broken = lines.join("\n");
    let (input, out) = kws_with_manifest("manifest-broken", broken.as_bytes(), "Results.xml");
    std::fs::write(
        input.join("res/photo.jpg"),
        b"\xff\xd8\xff\xe0\x00\x10JFIF\x00rest",
    )
    .unwrap();
    let (code, _, err) = run_in(
        root(),
        &["score", input.to_str().unwrap(), out.to_str().unwrap()],
    );
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("pre-flight check: Not ready to submit"),
        "{err}"
    );
    assert!(err.contains("[input.wrong_kind]"), "{err}");
    assert!(err.contains(&format!("Results.xml:{}", at + 1)), "{err}");
    assert!(!out.join("scores.json").exists());
    let html = std::fs::read_to_string(out.join("detailed_results.html")).unwrap();
    assert_self_contained(&html);
    assert!(html.contains("Not ready to submit"), "{html}");
    let first = html.find("input.wrong_kind").expect("the JPEG is named");
    let second = html
        .find(&format!(">{}<", at + 1))
        .or_else(|| html.find("Results.xml"))
        .unwrap();
    assert!(first < second, "the cause first");
    // The same verdict as `dropscore check` on the same files.
    let (code, stdout, _) = run_in(
        input.join("res"),
        &[
            "check",
            "kws",
            "--manifest",
            input.join("ref/manifest.json").to_str().unwrap(),
            "--pred",
            "Results.xml",
            "photo.jpg",
        ],
    );
    assert_eq!(code, 1);
    let verdict = stdout.lines().next().unwrap();
    assert!(err.contains(verdict), "{verdict} in {err}");

    // --manifest on the command line does the same without a config entry.
    std::fs::write(input.join("ref/dropscore.toml"), "protocol = \"kws\"\n").unwrap();
    let m = input.join("ref/manifest.json");
    let out2 = input.parent().unwrap().join("output2");
    let (code, _, err) = run_in(
        root(),
        &[
            "score",
            input.to_str().unwrap(),
            out2.to_str().unwrap(),
            "--manifest",
            m.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("pre-flight check: Not ready to submit"),
        "{err}"
    );
}

#[test]
fn detailed_results_carry_a_content_security_policy() {
    let pred =
        std::fs::read(root().join("www/examples/kws/WordSpottingResultsSample.xml")).unwrap();
    let (input, out) = kws_with_manifest("csp", &pred, "Results.xml");
    let (code, _, err) = run_in(
        root(),
        &["score", input.to_str().unwrap(), out.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{err}");
    let html = std::fs::read_to_string(out.join("detailed_results.html")).unwrap();
    assert!(html.contains(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'\">"
    ));
}
