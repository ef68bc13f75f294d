//! The `text` family's readers: a table, a JSON (or JSON Lines) file, a SQuAD dataset and its predictions, and
//! PAGE XML, each fuzzed on both sides against a fixed counterpart from the built-in examples.

use super::{both_modes, pair};
use crate::input::Role;

const DOCVQA_GT: &[u8] = include_bytes!("../../www/examples/text/docvqa/gt.json");
const DOCVQA_PRED: &[u8] = include_bytes!("../../www/examples/text/docvqa/pred.json");
const SQUAD_GT: &[u8] = include_bytes!("../../www/examples/text/squad/gt.json");
const SQUAD_PRED: &[u8] = include_bytes!("../../www/examples/text/squad/pred.json");
const PAGE_GT: &[u8] = include_bytes!("../../www/examples/text/htr/gt/page1.xml");
const PAGE_PRED: &[u8] = include_bytes!("../../www/examples/text/htr/pred/page1.xml");
const TABLE: &[u8] = b"id,text\n1,hello world\n2,\"a, b\"\n3,\n";

/// Both roles of `data` against `other`, under `set`.
fn both_roles(name: &str, data: &[u8], other: &[u8], set: &[(&str, &str)]) {
    both_modes("text", &pair(name, Role::Pred, data, name, other), set);
    both_modes("text", &pair(name, Role::Gt, data, name, other), set);
}

pub fn text_table(data: &[u8]) {
    let set: &[(&str, &str)] = if data.len().is_multiple_of(2) {
        &[]
    } else {
        &[("delimiter", "tab"), ("layout", "table")]
    };
    both_roles("t.csv", data, TABLE, set);
}

pub fn text_json(data: &[u8]) {
    both_roles("t.json", data, DOCVQA_GT, &[("metric", "anls")]);
    both_modes(
        "text",
        &pair("pred.json", Role::Pred, data, "gt.json", DOCVQA_GT),
        &[],
    );
    both_modes(
        "text",
        &pair("gt.json", Role::Gt, data, "pred.json", DOCVQA_PRED),
        &[("normalize", "nfkc")],
    );
}

pub fn text_squad(data: &[u8]) {
    both_modes(
        "text",
        &pair("pred.json", Role::Pred, data, "gt.json", SQUAD_GT),
        &[("metric", "f1")],
    );
    both_modes(
        "text",
        &pair("gt.json", Role::Gt, data, "pred.json", SQUAD_PRED),
        &[("layout", "squad")],
    );
}

pub fn text_page(data: &[u8]) {
    both_modes(
        "text",
        &pair("page1.xml", Role::Pred, data, "page1.xml", PAGE_GT),
        &[],
    );
    both_modes(
        "text",
        &pair("page1.xml", Role::Gt, data, "page1.xml", PAGE_PRED),
        &[("layout", "page")],
    );
}
