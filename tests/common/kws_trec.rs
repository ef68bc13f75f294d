//! Helpers of the kws `trec` tests (tests/kws_trec.rs, kws_trec_edge.rs, kws_trec_versions.rs): the sample TREC
//! fixtures, a TREC pair given as text, and how a report's values and diagnostics are read.

use super::{bytes_input, codes, score_inputs};
use dropscore::input::Role;
use dropscore::{Mode, Report};

pub const QBIN: &str = "kws/trec/sample.qrels.bin";
pub const RUN: &str = "kws/trec/sample.run";
pub const RUN_MISSING: &str = "kws/trec/sample_missing.run";

/// TREC pair given as text, through the whole pipeline (detection, options, merge).
pub fn text_pair(qrels: &str, run: &str, mode: Mode, set: &[(&str, &str)]) -> Report {
    score_inputs(
        "kws",
        vec![
            bytes_input("q.qrels", Some(Role::Gt), qrels.as_bytes().to_vec()),
            bytes_input("r.run", Some(Role::Pred), run.as_bytes().to_vec()),
        ],
        mode,
        set,
    )
}

pub fn val(r: &Report, k: &str) -> f64 {
    r.scores
        .get(k)
        .unwrap_or_else(|| panic!("{k} missing or null in {:?}", r.scores))
}

pub fn f4(r: &Report, k: &str) -> String {
    format!("{:.4}", val(r, k))
}

pub fn diag<'a>(r: &'a Report, code: &str) -> &'a dropscore::Diagnostic {
    r.diagnostics
        .iter()
        .find(|d| d.code == code)
        .unwrap_or_else(|| panic!("no {code} in {:?}", codes(r)))
}

pub fn no_errors(r: &Report) {
    let e: Vec<_> = r.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert!(e.is_empty(), "{e:?}");
}
