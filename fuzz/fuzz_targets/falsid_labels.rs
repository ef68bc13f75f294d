//! falsid label reader: arbitrary bytes as a GT label file (with fixed predictions) and as a predicted label
//! file under several names (merged, per subset), with option sets chosen by length. Asserts only that nothing
//! panics.
#![no_main]
mod common;
use dropscore::input::Role;
use dropscore::protocols::{self, Quiet, Request};
use dropscore::{render, Mode};
use libfuzzer_sys::fuzz_target;

const GT: &[u8] = include_bytes!("../../tests/data/falsid/worked/gt_merged.csv");
const PRED: &[u8] = include_bytes!("../../tests/data/falsid/worked/pred_merged.csv");
const SETS: &[&[(&str, &str)]] = &[
    &[],
    &[("label_case_insensitive", "true"), ("id_match", "stem")],
    &[
        ("duplicate_ids", "last_wins"),
        ("missing_prediction", "exclude"),
    ],
    &[("topk_class", "writer"), ("confusion_convention", "page")],
];

fn run(files: &dropscore::input::FileSet, salt: usize) {
    for mode in [Mode::Official, Mode::Corrected] {
        let mut req = Request::new(mode);
        for (k, v) in SETS[salt % SETS.len()] {
            req.set.push((k.to_string(), v.to_string()));
        }
        if let Ok(r) = protocols::score("falsid", files, &req, &mut Quiet) {
            let _ = r.to_json();
            let _ = render::text(&r);
            let _ = render::csv(&r);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    run(
        &common::pair("gt.csv", Role::Gt, data, "pred.csv", PRED),
        data.len(),
    );
    let name = ["pred.csv", "pizan.csv", "tasso_yaqut.txt"][data.len() % 3];
    run(
        &common::pair(name, Role::Pred, data, "gt.csv", GT),
        data.len() / 3,
    );
});
