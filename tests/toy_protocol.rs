//! A protocol is one folder plus one registry line: the test-only `toy` protocol (cargo feature `toy`,
//! src/protocols/toy/) is named nowhere else, yet `dropscore list`, the CLI, the protocol list the page reads
//! (the wasm `protocols()` is `protocols::list()` as JSON) and the config validator all know it.
//! Run with `cargo test --features toy --test toy_protocol` (scripts/test does).
#![cfg(feature = "toy")]

mod common;
use common::data;
use std::process::Command;

fn cli(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_dropscore"))
        .args(args)
        .current_dir(data(""))
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
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
    assert_eq!(toy["examples"][0]["gt"][0], "tests/data/toy/gt.txt");
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
