//! The bodies of the fuzz targets (fuzz/fuzz_targets/*.rs call them, one line each), so that cargo-fuzz
//! and a plain `cargo test` (tests/fuzz_replay.rs replays fuzz/corpus/<target>/ through [`TARGETS`]) run
//! the same code. Each body feeds bytes along the path a user's input takes — the input layer
//! (`FileSet::build`: folders, zips, `.gz`), the protocol's readers, its metrics, then every renderer
//! (JSON, text, TSV, CSV, diagnostics, "why they differ", `detailed_results.html`) — and asserts only that
//! nothing panics, aborts or hangs. Not part of the public API; native only (the folder walker needs a disk).
#![cfg(not(target_arch = "wasm32"))]

mod budget;
mod competitions;
mod families;
mod files;
mod kaggle;
mod kws;
mod pstring;
mod text;

use crate::input::{Entry, FileSet, Input, Limits, Role};
use crate::protocols::{self, Quiet, Request};
use crate::{render, Mode, Report};
use std::io::Read;
use std::rc::Rc;

/// A target's body: the bytes of one input.
pub type Body = fn(&[u8]);

/// Every target: its name (the cargo-fuzz binary and the fuzz/corpus folder) and its body.
pub const TARGETS: &[(&str, Body)] = &[
    ("kws_xml_official", kws::kws_xml_official),
    ("kws_xml", kws::kws_xml),
    ("trec_qrels", kws::trec_qrels),
    ("trec_run", kws::trec_run),
    ("input_zip", kws::input_zip),
    ("falsid_labels", competitions::falsid_labels),
    ("falsid_matrix", competitions::falsid_matrix),
    ("chalearn_ce", competitions::chalearn_ce),
    ("fest_masks", competitions::fest_masks),
    ("config", competitions::config),
    ("lemma_asset", competitions::lemma_asset),
    ("aij2022_json", competitions::aij2022_json),
    ("aij2022_npy", competitions::aij2022_npy),
    ("aij2022_npz", competitions::aij2022_npz),
    ("classification_csv", families::classification_csv),
    ("regression_csv", families::regression_csv),
    ("coco_json", families::coco_json),
    ("label_map", families::label_map),
    ("html", families::html),
    ("zip_built", files::zip_built),
    ("input_gz", files::input_gz),
    ("disk_walk", files::disk_walk),
    ("text_table", text::text_table),
    ("text_json", text::text_json),
    ("text_squad", text::text_squad),
    ("text_page", text::text_page),
    ("manifest", budget::manifest),
    ("png_chunks", budget::png_chunks),
    ("kaggle_csv", kaggle::kaggle_csv),
    ("kaggle_pstring", pstring::kaggle_pstring),
];

/// The body of target `name`.
pub fn target(name: &str) -> Option<Body> {
    TARGETS.iter().find(|t| t.0 == name).map(|t| t.1)
}

/// A small memory budget (the smallest `Budget::new` allows, 16 MiB): its limits (8 MiB per entry, 32 MiB
/// inflated in all, 512 KiB per line or field) are within a fuzzer's reach.
pub const SMALL_BUDGET: &str = "16MiB";

/// Renders a report in every form a user can see it: JSON, text, TSV, CSV, each diagnostic for the
/// terminal, "why they differ" and the scoring program's `detailed_results.html`.
pub fn render_all(report: &Report) {
    let _ = report.to_json();
    let _ = render::text(report);
    let _ = render::tsv(report);
    let _ = render::csv(report);
    for d in &report.diagnostics {
        let _ = render::terminal(&render::diagnostic(d));
    }
    let _ = protocols::render_text(report);
    let _ = protocols::explain(report, report);
    let _ = crate::html::detailed(report, None);
}

/// Scores `files` with protocol `id` under `req` and renders the report; a usage error is fine.
pub fn score(id: &str, files: &FileSet, req: &Request) {
    if let Ok(report) = protocols::score(id, files, req, &mut Quiet) {
        render_all(&report);
    }
}

/// A request in `mode` with the option pairs `set`.
pub fn request(mode: Mode, set: &[(&str, &str)]) -> Request {
    let mut req = Request::new(mode);
    req.set = set
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    req
}

/// Scores `files` in both modes with the option pairs `set`.
pub fn both_modes(id: &str, files: &FileSet, set: &[(&str, &str)]) {
    for mode in [Mode::Official, Mode::Corrected] {
        score(id, files, &request(mode, set));
    }
}

/// A set of in-memory entries.
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

/// Builds a file set from raw inputs as dropped (archives and `.gz` opened by the input layer, under
/// `limits`), and reads every entry once (bounded), as a protocol would.
pub fn build(inputs: Vec<(&str, Option<Role>, Vec<u8>)>, limits: &Limits) -> FileSet {
    let inputs = inputs
        .into_iter()
        .map(|(path, role, bytes)| Input {
            path: path.to_string(),
            role,
            blob: Rc::new(bytes),
        })
        .collect();
    let set = FileSet::build(inputs, limits);
    read_entries(&set);
    set
}

/// Reads every entry of `set` the ways protocols do: name, size, head, a bounded stream, `read_all`.
pub fn read_entries(set: &FileSet) {
    let mut buf = Vec::new();
    for e in &set.entries {
        let _ = e.name();
        let _ = e.raw_len();
        let _ = e.head(64);
        if let Ok(r) = e.open() {
            buf.clear();
            let _ = r.take(64 << 20).read_to_end(&mut buf);
        }
        if e.raw_len() <= 1 << 20 {
            let _ = e.read_all();
        }
    }
}

/// The limits of [`SMALL_BUDGET`].
pub fn small_limits() -> Limits {
    Limits::from_set(&[("max_memory".into(), SMALL_BUDGET.into())])
}

/// A reader of fuzz bytes for structure-aware targets: each call takes the next byte(s), 0 when exhausted.
pub struct Bytes<'a> {
    pub data: &'a [u8],
}

impl<'a> Bytes<'a> {
    pub fn u8(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&b, rest)) => {
                self.data = rest;
                b
            }
            None => 0,
        }
    }
    pub fn u16(&mut self) -> u16 {
        u16::from(self.u8()) | u16::from(self.u8()) << 8
    }
    /// The next `n` bytes (fewer when exhausted).
    pub fn take(&mut self, n: usize) -> &'a [u8] {
        let n = n.min(self.data.len());
        let (a, b) = self.data.split_at(n);
        self.data = b;
        a
    }
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
}

/// Runs target `name` on `data` (the cargo-fuzz binaries call this); an unknown name is a bug in the caller.
pub fn run(name: &str, data: &[u8]) {
    match target(name) {
        Some(f) => f(data),
        None => panic!("no fuzz target `{name}`"),
    }
}
