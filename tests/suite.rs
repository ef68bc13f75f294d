//! Every integration test of the crate, in one test binary: one crate to compile and link against the library
//! instead of one per file (more than half of `cargo test --release`'s build time went to 66 such binaries). Each
//! `tests/<name>.rs` is a module here, loaded with `#[path]` so that its own `mod common;` still finds
//! `tests/common/`; run one file's tests with `cargo test --release --test suite <name>::`. The toy protocol's
//! tests (`tests/toy_protocol.rs`, feature `toy`) stay a binary of their own, for `scripts/test-toy`.

// Each file keeps its own `mod common;` (as when it was a binary of its own), so the small shared helpers
// (tests/common, hostile_common, preflight_common: under 400 lines) are compiled once per file that uses them.
#![allow(clippy::duplicate_mod)]

#[path = "aij2022.rs"]
mod aij2022;
#[path = "aij2022_clip.rs"]
mod aij2022_clip;
#[path = "aij2022_details.rs"]
mod aij2022_details;
#[path = "aij2022_explain.rs"]
mod aij2022_explain;
#[path = "aij2022_json.rs"]
mod aij2022_json;
#[path = "aij2022_long_answers.rs"]
mod aij2022_long_answers;
#[path = "aij2022_tokenize.rs"]
mod aij2022_tokenize;
#[path = "chalearn_ce.rs"]
mod chalearn_ce;
#[path = "classification.rs"]
mod classification;
#[path = "classification_weights.rs"]
mod classification_weights;
#[path = "cli.rs"]
mod cli;
#[path = "closed_pipe.rs"]
mod closed_pipe;
#[path = "config.rs"]
mod config;
#[path = "corrupt_line.rs"]
mod corrupt_line;
#[path = "csv_binary32.rs"]
mod csv_binary32;
#[path = "detection.rs"]
mod detection;
#[path = "early_work.rs"]
mod early_work;
#[path = "exports.rs"]
mod exports;
#[path = "falsid.rs"]
mod falsid;
#[path = "fest.rs"]
mod fest;
#[path = "fest_cases.rs"]
mod fest_cases;
#[path = "fest_edge.rs"]
mod fest_edge;
#[path = "fest_spec.rs"]
mod fest_spec;
#[path = "fest_two_files.rs"]
mod fest_two_files;
#[path = "fuzz_replay.rs"]
mod fuzz_replay;
#[path = "hostile.rs"]
mod hostile;
#[path = "hostile_detection.rs"]
mod hostile_detection;
#[path = "hostile_families.rs"]
mod hostile_families;
#[path = "hostile_manifest.rs"]
mod hostile_manifest;
#[path = "hostile_paths.rs"]
mod hostile_paths;
#[path = "hostile_png.rs"]
mod hostile_png;
#[path = "input.rs"]
mod input;
#[path = "kaggle.rs"]
mod kaggle;
#[path = "kaggle_cols.rs"]
mod kaggle_cols;
#[path = "kaggle_formulas.rs"]
mod kaggle_formulas;
#[path = "kaggle_formulas_ids.rs"]
mod kaggle_formulas_ids;
#[path = "kaggle_pandas.rs"]
mod kaggle_pandas;
#[path = "kaggle_pstring.rs"]
mod kaggle_pstring;
#[path = "kaggle_pstring_view.rs"]
mod kaggle_pstring_view;
#[path = "kaggle_weights.rs"]
mod kaggle_weights;
#[path = "kaggle_wording.rs"]
mod kaggle_wording;
#[path = "kws_trec.rs"]
mod kws_trec;
#[path = "kws_trec_edge.rs"]
mod kws_trec_edge;
#[path = "kws_trec_versions.rs"]
mod kws_trec_versions;
#[path = "kws_xml.rs"]
mod kws_xml;
#[path = "layers.rs"]
mod layers;
#[path = "lemma.rs"]
mod lemma;
#[path = "preflight_aij2022.rs"]
mod preflight_aij2022;
#[path = "preflight_chalearn_ce.rs"]
mod preflight_chalearn_ce;
#[path = "preflight_classification.rs"]
mod preflight_classification;
#[path = "preflight_cli.rs"]
mod preflight_cli;
#[path = "preflight_detection.rs"]
mod preflight_detection;
#[path = "preflight_falsid.rs"]
mod preflight_falsid;
#[path = "preflight_fest.rs"]
mod preflight_fest;
#[path = "preflight_kws.rs"]
mod preflight_kws;
#[path = "preflight_regression.rs"]
mod preflight_regression;
#[path = "preflight_sample.rs"]
mod preflight_sample;
#[path = "preflight_segmentation.rs"]
mod preflight_segmentation;
#[path = "rank.rs"]
mod rank;
#[path = "read_ahead.rs"]
mod read_ahead;
#[path = "regression.rs"]
mod regression;
#[path = "score_preflight.rs"]
mod score_preflight;
#[path = "score_program.rs"]
mod score_program;
#[path = "score_program_values.rs"]
mod score_program_values;
#[path = "segmentation.rs"]
mod segmentation;
#[path = "stats.rs"]
mod stats;
#[path = "stats_aij2022.rs"]
mod stats_aij2022;
#[path = "stats_chalearn_ce.rs"]
mod stats_chalearn_ce;
#[path = "stats_classification_weighted.rs"]
mod stats_classification_weighted;
#[path = "stats_detection.rs"]
mod stats_detection;
#[path = "stats_falsid.rs"]
mod stats_falsid;
#[path = "stats_fest.rs"]
mod stats_fest;
#[path = "stats_kaggle.rs"]
mod stats_kaggle;
#[path = "stats_kaggle_formulas.rs"]
mod stats_kaggle_formulas;
#[path = "stats_kws.rs"]
mod stats_kws;
#[path = "stats_parts.rs"]
mod stats_parts;
#[path = "stats_parts_csv.rs"]
mod stats_parts_csv;
#[path = "stats_segmentation.rs"]
mod stats_segmentation;
#[path = "stats_text.rs"]
mod stats_text;
#[path = "swapped.rs"]
mod swapped;
#[path = "text.rs"]
mod text;
#[path = "text_hostile.rs"]
mod text_hostile;
#[path = "textgen.rs"]
mod textgen;
#[path = "viewer.rs"]
mod viewer;
#[path = "wrong_kind.rs"]
mod wrong_kind;

/// A test file left out of this list would never run: every `tests/*.rs` is either a module above or a test
/// target of its own in Cargo.toml.
#[test]
fn every_test_file_is_in_the_suite() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let suite = std::fs::read_to_string(dir.join("suite.rs")).unwrap();
    let manifest = std::fs::read_to_string(dir.join("../Cargo.toml")).unwrap();
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if !name.ends_with(".rs") || name == "suite.rs" {
            continue;
        }
        let listed = suite.contains(&format!("#[path = \"{name}\"]"))
            || manifest.contains(&format!("path = \"tests/{name}\""));
        if !listed {
            missing.push(name);
        }
    }
    assert!(
        missing.is_empty(),
        "test files not in tests/suite.rs: {missing:?}"
    );
}
