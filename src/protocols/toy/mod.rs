//! A test-only protocol (cargo feature `toy`): shows that a protocol is one folder plus one line in
//! [`crate::protocols::PROTOCOLS`]. It counts the lines of the ground truth and of the predictions, and
//! scores the fraction of ground-truth lines that the predictions repeat. Nothing outside this folder and that
//! table line names it; `tests/toy_protocol.rs` finds it in `dropscore list`, the wasm protocol list and the
//! config validator, and its pre-flight check ([`preflight`]) in `dropscore manifest` and `dropscore check`.

mod preflight;

use super::{Class, Example, OptionSpec, Progress, Protocol, ProtocolInfo, Run, UsageError};
use crate::diag::Diagnostic;
use crate::input::Role;
use crate::report::{Label, Report};
use std::io::BufRead;

pub const OPTIONS: &[OptionSpec] = &[OptionSpec {
    name: "case_sensitive",
    kind: "bool",
    default_official: "true",
    default_corrected: "false",
    help: "Compare lines with their case (official) or without (corrected).",
}];

pub const INFO: ProtocolInfo = ProtocolInfo {
    id: "toy",
    name: "Toy protocol (tests only)",
    built: true,
    summary: "The fraction of ground-truth lines that the predictions repeat.",
    gt_files: "One text file whose name says gt.",
    pred_files: "One text file whose name says pred.",
    options: OPTIONS,
    examples: &[Example {
        id: "lines",
        label: "Two lines",
        gt: &["examples/toy/gt.txt"],
        pred: &["examples/toy/pred.txt"],
        set: &[],
    }],
};

/// The toy protocol.
pub struct Toy;

impl Protocol for Toy {
    fn info(&self) -> &'static ProtocolInfo {
        &INFO
    }
    fn classify(&self, path: &str, _head: &[u8]) -> Class {
        Class::either().or_name(path)
    }
    fn score(&self, run: &mut Run, _progress: &mut dyn Progress) -> Result<Report, UsageError> {
        let fold = !run.opts.flag("case_sensitive");
        let mut lines = [Vec::new(), Vec::new()];
        for e in &run.files.entries {
            let Some(role) = e.role else { continue };
            let side = usize::from(role == Role::Pred);
            match e.buffered() {
                Ok(r) => {
                    for l in r.lines() {
                        match l {
                            Ok(l) if fold => lines[side].push(l.to_lowercase()),
                            Ok(l) => lines[side].push(l),
                            Err(_) => {
                                run.diags.push(
                                    Diagnostic::error("toy.not_text", "not UTF-8 text")
                                        .file(&e.path),
                                );
                                break;
                            }
                        }
                    }
                }
                Err(err) => run.diags.push(Diagnostic::read_error(&e.path, err)),
            }
        }
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
    fn manifest(&self, run: &mut Run) -> Option<serde_json::Value> {
        preflight::manifest(run)
    }
    fn check(&self, run: &mut Run, expects: &serde_json::Value) -> Option<super::preflight::Found> {
        preflight::check(run, expects)
    }
}
