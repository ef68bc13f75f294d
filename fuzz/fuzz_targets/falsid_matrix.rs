//! falsid distance-matrix reader: arbitrary bytes as a matrix (text layouts D1–D3, and `.npy`) next to a fixed
//! GT and predictions, with option sets chosen by length. Asserts only that nothing panics.
#![no_main]
mod common;
use dropscore::input::{Entry, Role};
use dropscore::protocols::{self, Quiet, Request};
use dropscore::{render, Mode};
use libfuzzer_sys::fuzz_target;

const GT: &[u8] = include_bytes!("../../tests/data/falsid/topk/gt_tasso.csv");
const SETS: &[&[(&str, &str)]] = &[
    &[],
    &[("topk_ties", "pessimistic"), ("topk", "1,2,9")],
    &[("nonfinite", "error"), ("topk_no_match", "exclude")],
    &[("id_match", "stem")],
];

fuzz_target!(|data: &[u8]| {
    let name = [
        "dist_tasso.csv",
        "dist_tasso.npy",
        "tasso.txt",
        "tasso_matrix.tsv",
    ][data.len() % 4];
    let files = common::set_of(vec![
        Entry::from_bytes("gt_tasso.csv", Some(Role::Gt), GT.to_vec()),
        Entry::from_bytes(
            "pred_tasso.csv",
            Some(Role::Pred),
            b"q0,0\nq1,1\nq2,1\nq3,0\n".to_vec(),
        ),
        Entry::from_bytes(name, Some(Role::Pred), data.to_vec()),
    ]);
    let mut req = Request::new(if data.len() % 2 == 0 {
        Mode::Official
    } else {
        Mode::Corrected
    });
    for (k, v) in SETS[(data.len() / 4) % SETS.len()] {
        req.set.push((k.to_string(), v.to_string()));
    }
    if let Ok(r) = protocols::score("falsid", &files, &req, &mut Quiet) {
        let _ = r.to_json();
        let _ = render::text(&r);
    }
});
