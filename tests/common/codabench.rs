//! Helpers of the scoring-program tests (tests/score_program.rs, tests/score_program_values.rs): fresh
//! Codabench folders under the temporary directory, the page check, and the CLI's JSON report to compare with.

use super::cli::run_in;
use serde_json::Value;
use std::path::{Path, PathBuf};

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn fresh(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dropscore-score-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

pub fn copy(from: &Path, to_dir: &Path) {
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

pub fn cli_report(
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
