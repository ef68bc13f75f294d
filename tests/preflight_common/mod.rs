//! Helpers of the pre-flight tests (tests/preflight_*.rs): a small seeded generator, and the agreement
//! between `check` (against the manifest) and official scoring (against the real ground truth).
#![allow(dead_code)]

use dropscore::input::{FileSet, Input, Limits, Role};
use dropscore::protocols::{self, preflight, Quiet, Request};
use dropscore::{Mode, Report};
use std::rc::Rc;

/// One file: its path and bytes.
pub type File = (String, Vec<u8>);

/// xorshift64*: reproducible cases without a dependency.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

pub fn file_set(files: &[File], role: Role) -> FileSet {
    let inputs = files
        .iter()
        .map(|(p, b)| Input {
            path: p.clone(),
            role: Some(role),
            blob: Rc::new(b.clone()),
        })
        .collect();
    FileSet::build(inputs, &Limits::default())
}

fn owned(set: &[(&str, &str)]) -> Vec<(String, String)> {
    set.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// The manifest's JSON text; panics when the ground truth has errors.
pub fn manifest(protocol: &str, gt: &[File], set: &[(&str, &str)]) -> String {
    let made = preflight::manifest(protocol, &file_set(gt, Role::Gt), &owned(set)).expect("usage");
    made.manifest
        .unwrap_or_else(|| panic!("no manifest: {:#?}", made.diagnostics))
}

/// Official scoring of `gt` + `pred` under `set`.
pub fn score(protocol: &str, gt: &[File], pred: &[File], set: &[(&str, &str)]) -> Report {
    let mut inputs: Vec<File> = gt.to_vec();
    let n = inputs.len();
    inputs.extend(pred.iter().cloned());
    let inputs = inputs
        .into_iter()
        .enumerate()
        .map(|(i, (p, b))| Input {
            path: p,
            role: Some(if i < n { Role::Gt } else { Role::Pred }),
            blob: Rc::new(b),
        })
        .collect();
    let files = FileSet::build(inputs, &Limits::default());
    let req = Request {
        set: owned(set),
        ..Request::new(Mode::Official)
    };
    protocols::score(protocol, &files, &req, &mut Quiet).expect("usage error")
}

/// A located error: `(code, file, line, column)`.
pub type Located = (String, Option<String>, Option<u64>, Option<u64>);

/// Located errors, sorted.
pub fn errors(diags: &[dropscore::diag::Diagnostic]) -> Vec<Located> {
    let mut v: Vec<_> = diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| (d.code.clone(), d.file.clone(), d.line, d.column))
        .collect();
    v.sort();
    v
}

/// Checks `pred` against the manifest of `gt` and scores it against `gt` officially: `check` is ready exactly
/// when scoring has no error (the CLI's exit 0), and both list the same located errors. Returns the verdict.
pub fn agree(protocol: &str, gt: &[File], pred: &[File], set: &[(&str, &str)], case: &str) -> bool {
    let text = manifest(protocol, gt, set);
    let checked =
        preflight::check(protocol, &text, &file_set(pred, Role::Pred), &[]).expect("usage");
    let report = score(protocol, gt, pred, set);
    let scored = !report.has_errors();
    assert_eq!(
        checked.ready,
        scored,
        "{case}: check ready = {}, scoring exits {}\ncheck: {}\nscoring: {:#?}",
        checked.ready,
        if scored { 0 } else { 1 },
        checked.to_text(),
        report.diagnostics
    );
    assert_eq!(
        errors(&checked.report.diagnostics),
        errors(&report.diagnostics),
        "{case}: the located errors differ\ncheck: {}",
        checked.to_text()
    );
    checked.ready
}

/// One generated case of an agreement test: the ground truth, the submission, the settings and what was done
/// to the submission (for the failure message).
pub struct Case {
    pub gt: Vec<File>,
    pub pred: Vec<File>,
    pub set: Vec<(String, String)>,
    pub what: String,
}

impl Case {
    pub fn new(
        gt: Vec<File>,
        pred: Vec<File>,
        set: &[(&str, &str)],
        what: impl Into<String>,
    ) -> Case {
        Case {
            gt,
            pred,
            set: owned(set),
            what: what.into(),
        }
    }
}

/// `cases` cases made by `case_of` (from one seeded generator) through `agree`; prints how many were ready and
/// asserts that each verdict occurred at least `min.0` (ready) and `min.1` (not ready) times, so that the
/// agreement means something.
pub fn agreement(
    protocol: &str,
    seed: u64,
    cases: usize,
    min: (usize, usize),
    mut case_of: impl FnMut(usize, &mut Rng) -> Case,
) {
    let mut rng = Rng::new(seed);
    let (mut ready, mut not_ready) = (0, 0);
    for i in 0..cases {
        let c = case_of(i, &mut rng);
        let set: Vec<(&str, &str)> = c
            .set
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        if agree(
            protocol,
            &c.gt,
            &c.pred,
            &set,
            &format!("case {i} ({}, {set:?})", c.what),
        ) {
            ready += 1;
        } else {
            not_ready += 1;
        }
    }
    eprintln!("{protocol} agreement: {ready} ready, {not_ready} not ready, {cases} cases");
    assert!(
        ready >= min.0 && not_ready >= min.1,
        "ready {ready}, not ready {not_ready}"
    );
}

/// The manifest reveals no label: 50 pairs of ground truths that differ only in what a participant must not
/// see (`pair` makes them from one seeded generator) have the same manifest under every setting.
pub fn manifest_hides_labels(
    protocol: &str,
    seed: u64,
    settings: &[&[(&str, &str)]],
    mut pair: impl FnMut(&mut Rng) -> (Vec<File>, Vec<File>),
) {
    let mut rng = Rng::new(seed);
    for _ in 0..50 {
        let (a, b) = pair(&mut rng);
        for set in settings {
            assert_eq!(manifest(protocol, &a, set), manifest(protocol, &b, set));
        }
    }
}
