//! Protocol `falsid`: ICDAR 2026 FalsID, authentic vs imitation per subset (Pizan, Tasso, Yaqut), with the
//! Top-k retrieval diagnostic from one distance matrix per subset (docs/specs/falsid.md). No official scorer is
//! published: `official` mode is the evaluation page's formula (mean per-subset accuracy), `corrected` makes
//! the mean per-subset balanced accuracy (UAR) the headline.

mod compute;
mod hints;
mod inputs;
mod options;
mod output;
mod preflight;
mod units;

use options::{
    DuplicateIds, IdMatch, MissingPrediction, Nonfinite, TopkClass, TopkNoMatch, TopkTies,
};
pub use options::{FalsidOptions, OPTIONS};
pub use output::{explain, render_text};

use super::options::OptionSet;
use super::{Class, Example, Progress, Protocol, ProtocolInfo, Run, UsageError};
use crate::diag::{Diagnostic, Diags};
use crate::formats::falsid_labels::LabelConfig;
use crate::input::kind::Kind;
use crate::input::Role;
use crate::metrics::falsid::Ties;
use crate::report::Report;
use compute::TopkSettings;

pub const INFO: ProtocolInfo = ProtocolInfo {
    id: "falsid",
    name: "ICDAR 2026 FalsID authenticity",
    built: true,
    summary: "Authentic vs imitation over the Pizan, Tasso and Yaqut subsets: the evaluation page's formula (mean \
              per-subset accuracy), the per-subset balanced accuracy (UAR) it names, pooled readings, confusion \
              counts, and Top-1/3/5 retrieval from one pairwise distance matrix per subset.",
    gt_files: "GT labels: a merged CSV (id,label with Pizan/not-Pizan, Tasso/not-Tasso, Yaqut/not-Yaqut), per-subset \
               files (pizan.csv … with 0/1), or id,subset,label.",
    pred_files: "Predicted labels in the same layouts, and one N×N distance matrix per subset (CSV/TSV/whitespace, with \
                 or without an id column and header, or .npy), its file name naming the subset (dist_pizan.csv …).",
    options: FalsidOptions::SPECS,
    examples: &[
        Example {
            id: "worked",
            label: "Worked example (merged CSV, 3 subsets)",
            gt: &["examples/falsid/gt_merged.csv"],
            pred: &["examples/falsid/pred_merged.csv"],
            set: &[],
        },
        Example {
            id: "per-subset",
            label: "Per-subset label files",
            gt: &["examples/falsid/gt_merged.csv"],
            pred: &["examples/falsid/pizan.csv", "examples/falsid/tasso.csv", "examples/falsid/yaqut.csv"],
            set: &[],
        },
        Example {
            id: "topk",
            label: "Top-k worked example (Tasso, 4×4 matrix)",
            gt: &["examples/falsid/gt_tasso.csv"],
            pred: &["examples/falsid/pred_tasso.csv", "examples/falsid/dist_tasso.csv"],
            set: &[],
        },
    ],
    official_noun: "official scorer",
    head_len: 512,
};

/// The `falsid` protocol.
pub struct Falsid;

impl Protocol for Falsid {
    const INFO: &'static ProtocolInfo = &INFO;
    type Options = FalsidOptions;

    /// The class scores and one top-k accuracy per cut-off of option `topk` (not declared when it is invalid).
    fn score_ids(&self, opts: &FalsidOptions) -> Option<Vec<String>> {
        let ks = topk_cutoffs(opts).ok()?;
        let class = output::CLASS_IDS.iter().map(|s| s.to_string());
        Some(class.chain(ks.into_iter().map(output::top_id)).collect())
    }

    fn extras(&self) -> &'static crate::protocols::views::Extras {
        &crate::protocols::views::Extras::PAGE_VIEW
    }
    fn accepts(&self, kind: Kind, _role: Option<Role>) -> bool {
        kind == Kind::Text || kind == Kind::Npy
    }
    /// Distance matrices are predictions; label files look alike on both sides, so their names decide.
    fn classify(&self, path: &str, head: &[u8]) -> Class {
        inputs::classify(path, head).or_name(path)
    }
    fn score(
        &self,
        run: &mut Run,
        opts: &FalsidOptions,
        progress: &mut dyn Progress,
    ) -> Result<Report, UsageError> {
        score(run, opts, progress)
    }
    fn render_text(&self, report: &Report) -> Option<String> {
        Some(render_text(report))
    }
    fn manifest(&self, run: &mut Run, opts: &FalsidOptions) -> serde_json::Value {
        preflight::manifest(run, opts)
    }
    fn check(
        &self,
        run: &mut Run,
        opts: &FalsidOptions,
        expects: &serde_json::Value,
    ) -> super::preflight::Found {
        preflight::check(run, opts, expects)
    }
    fn explain(&self, official: &Report, corrected: &Report) -> Vec<String> {
        explain(official, corrected)
    }
    fn hints(&self, report: &Report) -> crate::report::Hints {
        hints::hints(report)
    }
}

/// How label files are read (scoring and the pre-flight check).
fn label_config<'a>(opts: &FalsidOptions, subsets: &'a [String]) -> LabelConfig<'a> {
    LabelConfig {
        subsets,
        case_insensitive: opts.label_case_insensitive,
        stem: opts.id_match == IdMatch::Stem,
        last_wins: opts.duplicate_ids == DuplicateIds::LastWins,
    }
}

/// Option `topk`: its positive integers, each once, in order; anything else is a usage error.
fn topk_cutoffs(opts: &FalsidOptions) -> Result<Vec<usize>, UsageError> {
    let mut ks = Vec::new();
    for k in opts.topk.items() {
        match k.parse::<usize>() {
            Ok(v) if v >= 1 && !ks.contains(&v) => ks.push(v),
            Ok(v) if v >= 1 => {}
            _ => {
                return Err(UsageError(format!(
                    "option `topk`: expected positive integers, found `{k}`"
                )))
            }
        }
    }
    Ok(ks)
}

/// The errors for an input without GT, without predicted labels, or without the writer column that
/// `topk_class = writer` needs.
fn missing_inputs(g: &inputs::Gathered, by_writer: bool, diags: &mut Diags) {
    if !g.has_gt {
        diags.push(
            Diagnostic::error("falsid.input.no_gt", "no ground-truth label file")
                .hint("Drop the GT labels (id,label) on the ground-truth zone (CLI: --gt)."),
        );
    }
    if !g.has_pred_labels {
        diags.push(
            Diagnostic::error("falsid.input.no_labels", "no predicted label file: accuracy cannot be computed")
                .hint("Drop the merged CSV (or the three per-subset label files) with the predictions; the Top-k diagnostic still runs on the matrices."),
        );
    }
    if by_writer && g.has_gt && !g.gt_has_writer {
        diags.push(
            Diagnostic::error(
                "falsid.labels.no_writer",
                "topk_class = writer, but the GT has no writer column",
            )
            .hint("Add a column named writer to the GT, or set topk_class = label."),
        );
    }
}

fn score(
    run: &mut Run,
    opts: &FalsidOptions,
    progress: &mut dyn Progress,
) -> Result<Report, UsageError> {
    let wants_units = run.wants_units();
    let (files, diags) = (run.files, &mut run.diags);
    let req_mode = run.mode;
    let subsets = opts.subsets.items();
    if subsets.is_empty() {
        return Err(UsageError(
            "option `subsets`: expected at least one subset name".into(),
        ));
    }
    let ks = topk_cutoffs(opts)?;
    let cfg = label_config(opts, &subsets);
    progress.update(0.0, "reading files");
    let mut g = inputs::gather(files, &cfg, diags, progress);
    progress.update(0.6, "scoring");
    let by_writer = opts.topk_class == TopkClass::Writer;
    missing_inputs(&g, by_writer, diags);
    let set = TopkSettings {
        ks: ks.clone(),
        ties: match opts.topk_ties {
            TopkTies::Pessimistic => Ties::Pessimistic,
            TopkTies::Stable => Ties::Stable,
        },
        exclude_no_match: opts.topk_no_match == TopkNoMatch::Exclude,
        by_writer,
        nonfinite_error: opts.nonfinite == Nonfinite::Error,
        stem: cfg.stem,
        exclude_missing: opts.missing_prediction == MissingPrediction::Exclude,
    };
    let mut results = Vec::new();
    for s in g.subsets.iter_mut() {
        if s.gt.is_empty() {
            if g.has_gt {
                diags.push(Diagnostic::warning(
                    "falsid.subset.empty",
                    format!(
                        "no GT items for {}: left out of the means (the page assumes 3 subsets)",
                        s.name
                    ),
                ));
            }
            if let Some((p, _)) = &s.matrix {
                diags.push(
                    Diagnostic::warning(
                        "falsid.subset.empty",
                        format!("a matrix for {} but no GT items: not scored", s.name),
                    )
                    .file(p),
                );
            }
            continue;
        }
        let mut r = if g.has_pred_labels {
            compute::classify(s, set.exclude_missing, diags)
        } else {
            compute::SubsetResult {
                name: s.name.clone(),
                items: s.gt.iter().map(|x| (x.id.clone(), x.label, None)).collect(),
                ..Default::default()
            }
        };
        if !by_writer || g.gt_has_writer {
            compute::topk(s, &mut r, &set, diags);
        } else {
            r.topk = vec![None; ks.len()];
        }
        results.push(r);
    }
    progress.update(0.95, "report");
    let mut report = output::build(req_mode, opts, &ks, &results, g.has_pred_labels);
    if wants_units {
        let setup = units::Setup {
            ks: &ks,
            has_pred: g.has_pred_labels,
            exclude_missing: set.exclude_missing,
            exclude_no_match: set.exclude_no_match,
        };
        report.units = units::slot(&results, &setup);
    }
    Ok(report)
}
