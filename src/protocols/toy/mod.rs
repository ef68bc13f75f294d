//! A test-only protocol (cargo feature `toy`): shows that a protocol is one folder plus one line in
//! [`crate::protocols::registry::PROTOCOLS`]. It counts the lines of the ground truth and of the predictions, and
//! scores the fraction of ground-truth lines that the predictions repeat. Nothing outside this folder and that
//! table line names it; `tests/toy_protocol.rs` finds it in `dropscore list`, the wasm protocol list and the
//! config validator, and its pre-flight check ([`preflight`]) in `dropscore manifest` and `dropscore check`.

mod preflight;
mod view;

use super::options::OptionSet;
use super::preflight::Found;
use super::{Class, Example, Progress, Protocol, ProtocolInfo, Run, UsageError};
use crate::diag::Diagnostic;
use crate::input::Role;
use crate::report::{Label, Report};
use std::io::BufRead;

crate::options! {
    /// The toy protocol's one option.
    pub struct ToyOptions {
        case_sensitive: bool = ("true", "false"),
            "Compare lines with their case (official) or without (corrected).";
    }
}

pub const INFO: ProtocolInfo = ProtocolInfo {
    id: "toy",
    name: "Toy protocol (tests only)",
    built: true,
    summary: "The fraction of ground-truth lines that the predictions repeat.",
    gt_files: "One text file whose name says gt.",
    pred_files: "One text file whose name says pred.",
    options: ToyOptions::SPECS,
    examples: &[Example {
        id: "lines",
        label: "Two lines",
        gt: &["examples/toy/gt.txt"],
        pred: &["examples/toy/pred.txt"],
        set: &[],
    }],
    ..ProtocolInfo::DEFAULTS
};

/// The toy protocol.
pub struct Toy;

impl Protocol for Toy {
    const INFO: &'static ProtocolInfo = &INFO;
    type Options = ToyOptions;

    fn classify(&self, path: &str, _head: &[u8]) -> Class {
        Class::either().or_name(path)
    }
    fn extras(&self) -> &'static crate::protocols::views::Extras {
        &view::EXTRAS
    }
    fn score(
        &self,
        run: &mut Run,
        opts: &ToyOptions,
        _progress: &mut dyn Progress,
    ) -> Result<Report, UsageError> {
        let fold = !opts.case_sensitive;
        let lines = [
            read_lines(run, Role::Gt, fold),
            read_lines(run, Role::Pred, fold),
        ];
        let mut report = Report::new(INFO.id, run.mode);
        let hit = lines[0].iter().filter(|l| lines[1].contains(l)).count();
        let frac = (!lines[0].is_empty()).then(|| hit as f64 / lines[0].len() as f64);
        report.scores.set("repeated", frac);
        report.display.headline.push(Label {
            id: "repeated".into(),
            label: "repeated".into(),
            decimals: 4,
        });
        Ok(report)
    }
    fn manifest(&self, run: &mut Run, _opts: &ToyOptions) -> serde_json::Value {
        preflight::manifest(run)
    }
    fn check(&self, run: &mut Run, _opts: &ToyOptions, expects: &serde_json::Value) -> Found {
        preflight::check(run, expects)
    }
}

/// The lines of the entries in `role`, lower-cased when `fold`; an entry that is not UTF-8 text is an error.
fn read_lines(run: &mut Run, role: Role, fold: bool) -> Vec<String> {
    let mut lines = Vec::new();
    for e in run.files.entries.iter().filter(|e| e.role == Some(role)) {
        match e.buffered() {
            Ok(r) => {
                for l in r.lines() {
                    match l {
                        Ok(l) if fold => lines.push(l.to_lowercase()),
                        Ok(l) => lines.push(l),
                        Err(_) => {
                            run.diags.push(
                                Diagnostic::error("toy.not_text", "not UTF-8 text").file(&e.path),
                            );
                            break;
                        }
                    }
                }
            }
            Err(err) => run.diags.push(Diagnostic::read_error(&e.path, err)),
        }
    }
    lines
}
