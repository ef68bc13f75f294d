//! kws targets: ICFHR'14 XML in both readers, TREC qrels and runs, and zips dropped whole.

use super::{build, pair, score, Limits};
use crate::input::Role;
use crate::protocols::Request;
use crate::Mode;

pub const EDGE_GT: &[u8] = include_bytes!("../../tests/data/kws/edge/gt.xml");
pub const EDGE_RES: &[u8] = include_bytes!("../../tests/data/kws/edge/res_ok.xml");
pub const QRELS: &[u8] = include_bytes!("../../tests/data/kws/trec/sample.qrels.graded10");
pub const RUN: &[u8] = include_bytes!("../../tests/data/kws/trec/sample.run");

/// Option sets, one chosen by the input's length so the corpus exercises all of them.
const XML_SETS: &[&[(&str, &str)]] = &[
    &[],
    &[("dedupe", "true"), ("match_document", "true")],
    &[("empty_gt_query", "zero"), ("k", "1,3,20")],
    &[("complete", "true"), ("relevance_threshold", "0.5")],
    &[("max_memory", super::SMALL_BUDGET)],
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
    &[("max_memory", super::SMALL_BUDGET)],
];

fn request(mode: Mode, preset: &str, trec: bool, salt: usize) -> Request {
    let sets = if trec { TREC_SETS } else { XML_SETS };
    let mut req = Request::new(mode);
    req.set.push(("preset".into(), preset.into()));
    for (k, v) in sets[salt % sets.len()] {
        req.set.push((k.to_string(), v.to_string()));
    }
    req
}

/// Fuzzed bytes as the ICFHR'14 GT (with fixed results) and as the results (with a fixed GT), in one mode.
fn both_sides(data: &[u8], mode: Mode) {
    let req = request(mode, "icfhr14", false, data.len());
    score(
        "kws",
        &pair("gt.xml", Role::Gt, data, "res.xml", EDGE_RES),
        &req,
    );
    score(
        "kws",
        &pair("res.xml", Role::Pred, data, "gt.xml", EDGE_GT),
        &req,
    );
}

/// Official mode (rusteval v0.5 line reader): the bytes as GT, then as results.
pub fn kws_xml_official(data: &[u8]) {
    both_sides(data, Mode::Official);
}

/// Corrected mode (the XML reader): the bytes as GT, then as results.
pub fn kws_xml(data: &[u8]) {
    both_sides(data, Mode::Corrected);
}

/// TREC qrels reader and trec_eval measures: the bytes as qrels with a fixed run, both modes.
pub fn trec_qrels(data: &[u8]) {
    for mode in [Mode::Official, Mode::Corrected] {
        let req = request(mode, "trec", true, data.len());
        score("kws", &pair("x.qrels", Role::Gt, data, "x.run", RUN), &req);
    }
}

/// TREC run reader and trec_eval measures: the bytes as a run with fixed qrels, both modes.
pub fn trec_run(data: &[u8]) {
    for mode in [Mode::Official, Mode::Corrected] {
        let req = request(mode, "trec", true, data.len());
        score(
            "kws",
            &pair("x.run", Role::Pred, data, "x.qrels", QRELS),
            &req,
        );
    }
}

/// Input layer: the bytes dropped as `x.zip` (predictions) next to a fixed GT, every entry read, scored
/// with auto detection in both modes; then with no role (roles from paths and content); then under the
/// small budget.
pub fn input_zip(data: &[u8]) {
    let files = build(
        vec![
            ("x.zip", Some(Role::Pred), data.to_vec()),
            ("gt.xml", Some(Role::Gt), EDGE_GT.to_vec()),
        ],
        &Limits::default(),
    );
    for mode in [Mode::Official, Mode::Corrected] {
        score("kws", &files, &Request::new(mode));
    }
    let files = build(vec![("x.zip", None, data.to_vec())], &Limits::default());
    score("kws", &files, &Request::new(Mode::Official));
    let files = build(vec![("x.zip", None, data.to_vec())], &super::small_limits());
    score(
        "kws",
        &files,
        &super::request(Mode::Corrected, &[("max_memory", super::SMALL_BUDGET)]),
    );
}
