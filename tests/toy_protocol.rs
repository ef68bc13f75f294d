//! A protocol is one folder plus one registry line: the test-only `toy` protocol (cargo feature `toy`,
//! src/protocols/toy/, its example in www/examples/toy/) is named nowhere else, yet `dropscore list` (text and
//! JSON), the CLI, the protocol list the page reads (the wasm `protocols()` is `protocols::list()` as JSON),
//! the scoring program, the config validator, the pre-flight check (`manifest`, `check`) and the fuzz bodies
//! that pick a protocol from the registry all know it. Run with `cargo test --features toy --test
//! toy_protocol`; scripts/test-toy (run by scripts/test) also puts a toy build under the registry-driven
//! parity and browser tests.
#![cfg(feature = "toy")]

mod common;
use common::cli::run_in as cli_in;
use common::data;

/// `dropscore ARGS` in tests/data: exit status and standard output.
fn cli(args: &[&str]) -> (i32, String) {
    let (code, out, _) = cli_in(data(""), args);
    (code, out)
}

#[test]
fn listed_by_the_cli() {
    let (code, out) = cli(&["list"]);
    assert_eq!(code, 0);
    assert!(out.contains("toy"), "{out}");
    assert!(
        out.contains("case_sensitive"),
        "its option is listed: {out}"
    );
}

#[test]
fn scored_by_the_cli_in_both_modes() {
    let (code, out) = cli(&[
        "toy",
        "--gt",
        "toy/gt.txt",
        "--pred",
        "toy/pred.txt",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{out}");
    let r: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(r["scores"]["repeated"], 0.5, "`Alpha` ≠ `alpha` officially");
    let (_, out) = cli(&[
        "toy",
        "--gt",
        "toy/gt.txt",
        "--pred",
        "toy/pred.txt",
        "--format",
        "json",
        "--mode",
        "corrected",
    ]);
    let r: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(r["scores"]["repeated"], 1.0, "case folded when corrected");
    assert_eq!(
        r["deviations"][0], "case_sensitive = false deviates from official (true)",
        "the shell lists deviations"
    );
}

#[test]
fn swapped_inputs_are_caught_by_the_shell() {
    let (code, out) = cli(&[
        "toy",
        "--gt",
        "toy/pred.txt",
        "--pred",
        "toy/gt.txt",
        "--format",
        "json",
    ]);
    assert_eq!(code, 1);
    let r: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(r["diagnostics"][0]["code"], "input.swapped");
    assert_eq!(r["official_fails"], true, "the one official_fails rule");
}

#[test]
fn in_the_page_protocol_list() {
    let json = serde_json::to_string(&dropscore::protocols::list()).unwrap();
    let all: serde_json::Value = serde_json::from_str(&json).unwrap();
    let toy = all
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == "toy")
        .expect("toy in the list");
    assert_eq!(toy["examples"][0]["gt"][0], "examples/toy/gt.txt");
}

#[test]
fn accepted_by_the_config_validator() {
    let c = dropscore::config::from_toml(
        "title = \"Toy\"\nprotocol = \"toy\"\n[options]\ncase_sensitive = \"false\"\n",
    );
    assert!(c.is_ok(), "{:?}", c.err());
    let e = dropscore::config::from_toml(
        "title = \"Toy\"\nprotocol = \"toy\"\n[options]\ncase = \"false\"\n",
    )
    .expect_err("an unknown option of the toy protocol");
    assert!(format!("{e:?}").contains("case_sensitive"), "{e:?}");
}

fn fresh(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("dropscore-toy-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn listed_as_json_with_its_example() {
    let (code, out) = cli(&["list", "--format", "json"]);
    assert_eq!(code, 0);
    let all: serde_json::Value = serde_json::from_str(&out).unwrap();
    let toy = all
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == "toy")
        .expect("toy in `dropscore list --format json`");
    assert_eq!(toy["options"][0]["name"], "case_sensitive");
    // The example's files, relative to the page (www/), exist.
    let www = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("www");
    for f in ["gt", "pred"] {
        let p = toy["examples"][0][f][0].as_str().unwrap();
        assert!(www.join(p).is_file(), "{p}");
    }
}

#[test]
fn manifest_and_check() {
    let dir = fresh("preflight");
    std::fs::copy(data("toy/gt.txt"), dir.join("gt.txt")).unwrap();
    std::fs::copy(data("toy/pred.txt"), dir.join("pred.txt")).unwrap();
    let (code, _, err) = cli_in(
        &dir,
        &[
            "manifest",
            "toy",
            "--gt",
            "gt.txt",
            "--out",
            "manifest.json",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let manifest = std::fs::read_to_string(dir.join("manifest.json")).unwrap();
    assert!(manifest.contains("\"lines\""), "{manifest}");
    assert!(
        !manifest.contains("Alpha"),
        "no GT line in the manifest: {manifest}"
    );
    let (code, out, err) = cli_in(
        &dir,
        &[
            "check",
            "toy",
            "--manifest",
            "manifest.json",
            "--pred",
            "pred.txt",
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        out.lines().next().unwrap(),
        "Ready to submit: 1 predictions file, 2 ground-truth lines, no problems."
    );
    // Not UTF-8 (Latin-1 text): the error scoring gives, located at the same file.
    std::fs::write(dir.join("bad_pred.txt"), b"caf\xe9\n").unwrap();
    let (code, out, _) = cli_in(
        &dir,
        &[
            "check",
            "toy",
            "--manifest",
            "manifest.json",
            "--pred",
            "bad_pred.txt",
            "--format",
            "json",
        ],
    );
    assert_eq!(code, 1, "{out}");
    let r: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(r["ready"], false);
    assert_eq!(r["diagnostics"][0]["code"], "toy.not_text", "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn scored_by_the_scoring_program_as_by_the_cli() {
    let dir = fresh("program");
    for (sub, f) in [("ref", "gt.txt"), ("res", "pred.txt")] {
        std::fs::create_dir_all(dir.join("input").join(sub)).unwrap();
        std::fs::copy(
            data(&format!("toy/{f}")),
            dir.join("input").join(sub).join(f),
        )
        .unwrap();
    }
    let (code, _, err) = cli_in(&dir, &["score", "input", "output", "--protocol", "toy"]);
    assert_eq!(code, 0, "{err}");
    let scores: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("output/scores.json")).unwrap())
            .unwrap();
    assert_eq!(scores["repeated"], 0.5, "{scores}");
    let html = std::fs::read_to_string(dir.join("output/detailed_results.html")).unwrap();
    assert!(
        html.contains("repeated"),
        "the detailed results show the score"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn picked_by_the_fuzz_bodies_that_iterate_the_registry() {
    let all = dropscore::protocols::PROTOCOLS;
    let at = all.iter().position(|p| p.info().id == "toy").unwrap() as u8;
    // zip_built: the first byte picks the protocol; the rest is the recipe of a small zip.
    dropscore::fuzzing::run("zip_built", &[at, 1, 0, 3, b'a', b'b', b'c']);
    dropscore::fuzzing::run("disk_walk", &[at, 1, 2, 3, 4, 5]);
}
