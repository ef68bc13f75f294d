//! Shared by the fuzz targets: feed files through the public library API exactly as the CLI and the wasm
//! binding do (`FileSet` → `protocols::score` → every renderer), asserting only that nothing panics.
#![allow(dead_code)]

use dropscore::input::{Entry, FileSet, Input, Limits, Role};
use dropscore::protocols::{self, Quiet, Request};
use dropscore::{render, Mode};
use std::io::Read;
use std::rc::Rc;

pub const EDGE_GT: &[u8] = include_bytes!("../../../tests/data/kws/edge/gt.xml");
pub const EDGE_RES: &[u8] = include_bytes!("../../../tests/data/kws/edge/res_ok.xml");
pub const QRELS: &[u8] = include_bytes!("../../../tests/data/kws/trec/sample.qrels.graded10");
pub const RUN: &[u8] = include_bytes!("../../../tests/data/kws/trec/sample.run");

/// Option sets, one chosen by the input's length so the corpus exercises all of them.
const XML_SETS: &[&[(&str, &str)]] = &[
    &[],
    &[("dedupe", "true"), ("match_document", "true")],
    &[("empty_gt_query", "zero"), ("k", "1,3,20")],
    &[("complete", "true"), ("relevance_threshold", "0.5")],
];
const TREC_SETS: &[&[(&str, &str)]] = &[
    &[],
    &[(
        "measures",
        "map,P,relative_P,ndcg_cut,success,map_cut,recall,bpref,gm_map,Rprec,recip_rank",
    )],
    &[("trec_version", "10.0"), ("complete", "true")],
    &[
        ("relevance_level", "2"),
        ("depth", "3"),
        ("tie_break", "file_order"),
        ("float_rel", "error"),
    ],
];

pub fn request(mode: Mode, preset: &str, trec: bool, salt: usize) -> Request {
    let sets = if trec { TREC_SETS } else { XML_SETS };
    let mut req = Request::new(mode);
    req.set.push(("preset".into(), preset.into()));
    for (k, v) in sets[salt % sets.len()] {
        req.set.push((k.to_string(), v.to_string()));
    }
    req
}

/// Scores the set and renders the report in every format. Usage errors (`Err`) are fine; panics are not.
pub fn score(files: &FileSet, req: &Request) {
    if let Ok(report) = protocols::score("kws", files, req, &mut Quiet) {
        let _ = report.to_json();
        let _ = render::text(&report);
        let _ = render::tsv(&report);
        let _ = render::csv(&report);
        for d in &report.diagnostics {
            let _ = render::diagnostic(d);
        }
    }
}

pub fn set_of(entries: Vec<Entry>) -> FileSet {
    FileSet::of(entries, Vec::new())
}

/// `data` as the file `name` of role `fuzzed_role`, next to the fixed file `other_name` = `other`.
pub fn pair(name: &str, fuzzed_role: Role, data: &[u8], other_name: &str, other: &[u8]) -> FileSet {
    let other_role = if fuzzed_role == Role::Gt {
        Role::Pred
    } else {
        Role::Gt
    };
    set_of(vec![
        Entry::from_bytes(name, Some(fuzzed_role), data.to_vec()),
        Entry::from_bytes(other_name, Some(other_role), other.to_vec()),
    ])
}

/// Fuzzed bytes as GT (with fixed results) and as results (with a fixed GT), in one mode.
pub fn both_sides(
    data: &[u8],
    mode: Mode,
    preset: &str,
    trec: bool,
    (gt_name, gt_fixed): (&str, &[u8]),
    (pred_name, pred_fixed): (&str, &[u8]),
) {
    let req = request(mode, preset, trec, data.len());
    score(&pair(gt_name, Role::Gt, data, pred_name, pred_fixed), &req);
    score(&pair(pred_name, Role::Pred, data, gt_name, gt_fixed), &req);
}

/// Builds a file set from raw inputs (archives opened by the input layer) and reads every entry (bounded).
pub fn build(inputs: Vec<(&str, Option<Role>, Vec<u8>)>) -> FileSet {
    let inputs = inputs
        .into_iter()
        .map(|(path, role, bytes)| Input {
            path: path.to_string(),
            role,
            blob: Rc::new(bytes),
        })
        .collect();
    let set = FileSet::build(inputs, &Limits::default());
    let mut buf = Vec::new();
    for e in &set.entries {
        let _ = e.name();
        let _ = e.raw_len();
        let _ = e.head(64);
        if let Ok(r) = e.open() {
            buf.clear();
            let _ = r.take(64 << 20).read_to_end(&mut buf);
        }
    }
    set
}
