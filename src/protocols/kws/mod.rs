//! Protocol `kws`: keyword spotting and ranked retrieval (specs/kws.md). Two families: ICFHR'14 XML, scored
//! as rusteval v0.5 does (preset `icfhr14`), and TREC qrels + run, scored as trec_eval does (preset `trec`).

pub mod convert;
mod detect;
mod gtindex;
mod icfhr14;
mod options;
mod plots;
mod preflight;
pub mod trec;

pub use detect::Family;
pub use options::OPTIONS;

use super::{Class, Example, Progress, Protocol, ProtocolInfo, Run, UsageError};
use crate::diag::Diagnostic;
use crate::input::kind::Kind;
use crate::input::Role;
use crate::report::Report;

pub const INFO: ProtocolInfo = ProtocolInfo {
    id: "kws",
    name: "Keyword spotting (ICFHR'14 XML / trec_eval)",
    built: true,
    summary: "Ranked retrieval lists scored against relevance judgements: ICFHR 2014 H-KWS XML files as rusteval v0.5 \
              scores them (P@5, P@10 capped at R, MAP), or TREC qrels + run files as trec_eval scores them.",
    gt_files: "One ground-truth file: an ICFHR'14 GroundTruthRelevanceJudgements XML (<GTRel> blocks) or TREC qrels \
               (qid iter docno rel). May be .gz or inside a zip.",
    pred_files: "One or more result files of the same family: an ICFHR'14 RelevanceListings XML (<Rel> blocks, file \
                 order = ranking) or a TREC run (qid iter docno rank sim tag).",
    options: OPTIONS,
    examples: &[
        Example {
            id: "sample",
            label: "ICFHR'14 sample (2 queries)",
            gt: &["examples/kws/GroundTruthRelevanceJudgementsSample.xml"],
            pred: &["examples/kws/WordSpottingResultsSample.xml"],
            set: &[],
        },
        Example {
            id: "trec-sample",
            label: "trec_eval sample (qrels + run)",
            gt: &["examples/kws/sample.qrels.bin"],
            pred: &["examples/kws/sample.run"],
            set: &[],
        },
        Example {
            id: "edge-blank",
            label: "A broken file (blank line inside a block)",
            gt: &["examples/kws/edge_gt.xml"],
            pred: &["examples/kws/edge_res_blank.xml"],
            set: &[],
        },
    ],
};

/// The `kws` protocol.
pub struct Kws;

impl Protocol for Kws {
    fn info(&self) -> &'static ProtocolInfo {
        &INFO
    }
    fn head_len(&self) -> usize {
        64 << 10
    }
    fn classify(&self, _path: &str, head: &[u8]) -> Class {
        detect::classify(head)
    }
    fn accepts(&self, kind: Kind, _role: Option<Role>) -> bool {
        matches!(kind, Kind::Text | Kind::Xml)
    }
    fn score(&self, run: &mut Run, progress: &mut dyn Progress) -> Result<Report, UsageError> {
        score(run, progress)
    }
    fn render_text(&self, report: &Report) -> String {
        render_text(report)
    }
    fn explain(&self, official: &Report, corrected: &Report) -> Vec<String> {
        explain(official, corrected)
    }
    fn manifest(&self, run: &mut Run) -> Option<serde_json::Value> {
        Some(preflight::manifest(run))
    }
    fn check(&self, run: &mut Run, expects: &serde_json::Value) -> Option<super::preflight::Found> {
        Some(preflight::check(run, expects))
    }
}

fn score(run: &mut Run, progress: &mut dyn Progress) -> Result<Report, UsageError> {
    progress.update(0.0, "reading files");
    let mut diags: Vec<Diagnostic> = Vec::new();
    let picked = detect::pick(run.files, &mut diags);
    run.diags.extend(diags);
    let preset = run.opts.get("preset").to_string();
    let Some(p) = picked else {
        let mut r = Report::new("kws", run.mode);
        r.official_fails = true;
        return Ok(r);
    };
    let family = match (preset.as_str(), p.family) {
        ("icfhr14", Family::Trec) | ("trec", Family::Xml) => {
            return Err(UsageError(format!(
                "preset `{preset}` does not fit the dropped files ({}); use preset=auto",
                p.family.describe()
            )))
        }
        _ => p.family,
    };
    run.deviations_among(family.option_names());
    run.opts.set("preset", family.preset());
    let runs: Vec<_> = p.runs.iter().collect();
    Ok(match family {
        Family::Xml => icfhr14::score(&p.gt, &runs, run.mode, &run.opts, progress),
        Family::Trec => trec::score(&p.gt, &runs, run.mode, &run.opts, progress),
    })
}

/// One line per difference between the official and the corrected report of the same input.
fn explain(official: &Report, corrected: &Report) -> Vec<String> {
    let mut lines = Vec::new();
    let count = |r: &Report, code: &str| r.diagnostics.iter().filter(|d| d.code == code).count();
    // GT queries with (or without) results in the official report.
    let gt_queries = |in_results: bool| {
        let is = |i: &crate::report::Item, key: &str, v: bool| {
            i.detail.get(key) == Some(&serde_json::Value::Bool(v))
        };
        official
            .items
            .iter()
            .filter(|i| is(i, "in_results", in_results) && is(i, "in_gt", true))
            .count()
    };
    let (missing, scored) = (gt_queries(false), gt_queries(true));
    if missing > 0 {
        lines.push(format!(
            "{missing} GT {} missing from the results: official mean over {scored}, corrected over {} (missing = 0).",
            if missing == 1 { "query" } else { "queries" },
            scored + missing
        ));
    }
    for (code, text) in [
        ("kws.results.duplicate_item", "repeated relevant items: official counts every repeat as a hit (values can exceed 1), corrected counts each item once"),
        ("kws.results.cross_document_hit", "boxes matched on another page: official counts them as hits, corrected requires the same document"),
        ("kws.gt.empty_query", "empty GT queries: official gives NaN (and a NaN mean), corrected leaves them out"),
        ("kws.official.attribute_order", "attributes in another order: official reads them by position, corrected by name"),
        ("kws.official.shifted_value", "non-ASCII text: official reads shifted values, corrected the real ones"),
        ("kws.official.tag_not_recognised", "opening tags not written literally: official ignores their blocks, corrected reads them"),
    ] {
        let n = count(official, code);
        if n > 0 {
            lines.push(format!("{n}× {code}: {text}."));
        }
    }
    if lines.is_empty() && !official.official_fails {
        let same =
            official
                .scores
                .iter()
                .zip(corrected.scores.iter())
                .all(|((_, a), (_, b))| match (a, b) {
                    (Some(a), Some(b)) => (a - b).abs() < 5e-6,
                    (None, None) => true,
                    _ => false,
                });
        if same {
            lines.push("Both modes agree on this input (to the printed decimals).".to_string());
        } else {
            lines.push(
                "Official arithmetic is binary32 (rusteval); corrected is binary64.".to_string(),
            );
        }
    }
    lines
}

/// rusteval's layout (icfhr14) or trec_eval's `-q` lines (trec).
/// Nothing when no family was recognised (the diagnostics say why): an empty ICFHR'14 table would suggest the
/// files were read as XML.
fn render_text(report: &Report) -> String {
    match report.options.get("preset").and_then(|v| v.as_str()) {
        Some("trec") => trec::render_text(report),
        Some("icfhr14") => icfhr14::render_text(report),
        _ if report.items.is_empty() && report.scores.is_empty() => String::new(),
        _ => icfhr14::render_text(report),
    }
}
