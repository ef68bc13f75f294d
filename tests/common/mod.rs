//! Helpers shared by the integration tests: load fixture files from tests/data and score them.
#![allow(dead_code)]

use dropscore::input::{DiskFile, FileSet, Input, Limits, Role};
use dropscore::protocols::{self, Quiet, Request};
use dropscore::{Mode, Report};
use std::path::PathBuf;
use std::rc::Rc;

pub mod cli;
pub mod codabench;
pub mod fest;
pub mod kws_trec;
pub mod resample;

#[allow(unused_imports)] // not every test file uses it
pub use cli::cli_json;

pub fn data(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(rel)
}

pub fn input(rel: &str, role: Option<Role>) -> Input {
    let p = data(rel);
    Input {
        path: rel.to_string(),
        role,
        blob: Rc::new(DiskFile::open(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))),
    }
}

pub fn bytes_input(path: &str, role: Option<Role>, bytes: Vec<u8>) -> Input {
    Input {
        path: path.to_string(),
        role,
        blob: Rc::new(bytes),
    }
}

pub fn score_inputs(
    protocol: &str,
    inputs: Vec<Input>,
    mode: Mode,
    set: &[(&str, &str)],
) -> Report {
    let files = FileSet::build(inputs, &Limits::default());
    let req = Request {
        set: set
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        ..Request::new(mode)
    };
    protocols::score(protocol, &files, &req, &mut Quiet).expect("usage error")
}

pub fn kws(gt: &str, pred: &str, mode: Mode, set: &[(&str, &str)]) -> Report {
    score_inputs(
        "kws",
        vec![input(gt, Some(Role::Gt)), input(pred, Some(Role::Pred))],
        mode,
        set,
    )
}

/// `{:.5}` of the value (binary32 values print as rusteval prints them).
pub fn f5(v: Option<f64>) -> String {
    v.map_or("NaN".into(), |x| format!("{:.5}", x as f32))
}

pub fn headline5(r: &Report) -> Vec<String> {
    r.scores.iter().map(|(_, v)| f5(v)).collect()
}

pub fn codes(r: &Report) -> Vec<String> {
    r.diagnostics.iter().map(|d| d.code.clone()).collect()
}

pub fn has(r: &Report, code: &str) -> bool {
    r.diagnostics.iter().any(|d| d.code == code)
}

pub fn gunzip(rel: &str) -> Vec<u8> {
    use std::io::Read;
    let f = std::fs::File::open(data(rel)).unwrap();
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(f)
        .read_to_end(&mut out)
        .unwrap();
    out
}

/// Equal to 1e-12 relative (or both absent): how a replicate's value is compared with the metric recomputed on
/// the repeated set (docs/specs/statistics.md).
pub fn close(a: Option<f64>, b: Option<f64>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(x), Some(y)) => x == y || (x - y).abs() <= 1e-12 * x.abs().max(y.abs()),
        _ => false,
    }
}
