//! Hostile inputs of the `text` family: items whose metric tables would outgrow the memory budget are
//! refused before the tables are allocated (input.limit naming the item and the submission's file), under
//! the peak bound of tests/hostile.rs, and inputs that fit (a million references for one item) are scored
//! within the budget. Run with `cargo test --release --test suite text_hostile::`.

mod common;
mod hostile_common;
use hostile_common::{refused, run, write};

/// A 50 MB single line against a 50 MB reference (10 million words each): TER's edit-distance table alone
/// would be 5 × 10⁷ × 10⁷ bytes. Refused before any metric runs, naming the item.
#[test]
fn fifty_megabyte_line_against_a_fifty_megabyte_reference_is_refused() {
    let line = |w: &str| w.repeat(10_000_000);
    let g = write("long_gt.txt", line("word ").as_bytes());
    let p = write("long_pred.txt", line("wurd ").as_bytes());
    let o = run(&["text", "--gt", &g, "--pred", &p, "--format", "json"]);
    refused(&o, "input.limit", "long_pred.txt");
    let report: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    let d = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "input.limit")
        .unwrap();
    let m = d["message"].as_str().unwrap();
    assert!(m.contains("TER's edit-distance table of item"), "{m}");
    assert!(report["scores"]["cer"].is_null(), "{report}");
}

/// rougeLsum's LCS table of one 200,000-word sentence pair (160 GB) under the default budget, with TER out
/// of the way (the lines have no spaces to split on for TER but `-` separated tokens for ROUGE).
#[test]
fn rouge_lsum_table_of_one_long_sentence_is_refused() {
    let g = write("lsum_gt.txt", "a-b-".repeat(100_000).as_bytes());
    let p = write("lsum_pred.txt", "b-a-".repeat(100_000).as_bytes());
    let o = run(&["text", "--gt", &g, "--pred", &p, "--format", "json"]);
    refused(&o, "input.limit", "lsum_pred.txt");
    assert!(o.stdout.contains("rougeLsum's LCS table"), "{}", o.stdout);
}

/// A million references for one item (the JSON layout's list, 13 MB): scored, exit 0, within half the
/// default budget of 2 GiB (measured: 438 MiB, the references held as strings, per metric, and in the report's
/// reference cell).
#[test]
fn a_million_references_for_one_item_are_scored() {
    let refs = (0..1_000_000)
        .map(|i| format!("\"ref {i}\""))
        .collect::<Vec<_>>()
        .join(",");
    let g = write("many_gt.json", format!("{{\"q\": [{refs}]}}").as_bytes());
    let p = write("many_pred.json", b"{\"q\": \"ref 7\"}");
    let o = run(&[
        "text",
        "--gt",
        &g,
        "--pred",
        &p,
        "--format",
        "json",
        "--set",
        "metric=anls",
    ]);
    assert_eq!(o.code, 0, "{}\n{}", o.stdout, o.stderr);
    let report: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(report["scores"]["anls"], 1.0, "{}", report["scores"]);
    if let Some(kb) = o.peak_kb {
        assert!(kb < 1024 * 1024, "peak {kb} KiB over half the budget");
        eprintln!("peak resident memory: {} MiB", kb / 1024);
    }
}
