//! Protocol `kws`: keyword spotting and ranked retrieval (docs/specs/kws.md). Two families: ICFHR'14 XML, scored
//! as rusteval v0.5 does (preset `icfhr14`), and TREC qrels + run, scored as trec_eval does (preset `trec`).

#[cfg(not(target_arch = "wasm32"))]
mod command;
pub mod convert;
mod detect;
mod gtindex;
mod hints;
mod icfhr14;
mod options;
mod plots;
mod preflight;
pub mod trec;
mod units;

pub use detect::Family;
use options::Preset;
pub use options::{KwsOptions, OPTIONS};

use super::options::OptionSet;
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
    options: KwsOptions::SPECS,
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
    official_noun: "official scorer",
    head_len: 64 << 10,
};

/// The `kws` protocol.
pub struct Kws;

/// kws's own command line command, `dropscore kws convert` (native only).
static EXTRAS: crate::protocols::views::Extras = crate::protocols::views::Extras {
    #[cfg(not(target_arch = "wasm32"))]
    commands: &[command::CONVERT],
    ..crate::protocols::views::Extras::NONE
};

impl Protocol for Kws {
    const INFO: &'static ProtocolInfo = &INFO;
    type Options = KwsOptions;

    /// The ids of the preset's report: rusteval's P@k and map, trec_eval's measures, both under `auto`.
    fn score_ids(&self, opts: &KwsOptions) -> Option<Vec<String>> {
        let mut ids = Vec::new();
        if opts.preset != Preset::Trec {
            ids.extend(icfhr14::score_ids(opts));
        }
        if opts.preset != Preset::Icfhr14 {
            for t in trec::score_ids(opts) {
                if !ids.contains(&t) {
                    ids.push(t);
                }
            }
        }
        Some(ids)
    }

    fn extras(&self) -> &'static crate::protocols::views::Extras {
        &EXTRAS
    }

    fn classify(&self, _path: &str, head: &[u8]) -> Class {
        detect::classify(head)
    }
    fn accepts(&self, kind: Kind, _role: Option<Role>) -> bool {
        matches!(kind, Kind::Text | Kind::Xml)
    }
    fn score(
        &self,
        run: &mut Run,
        opts: &KwsOptions,
        progress: &mut dyn Progress,
    ) -> Result<Report, UsageError> {
        score(run, opts, progress)
    }
    fn render_text(&self, report: &Report) -> Option<String> {
        Some(render_text(report))
    }
    fn explain(&self, official: &Report, corrected: &Report) -> Vec<String> {
        explain(official, corrected)
    }
    fn manifest(&self, run: &mut Run, opts: &KwsOptions) -> serde_json::Value {
        preflight::manifest(run, opts)
    }
    fn check(
        &self,
        run: &mut Run,
        _opts: &KwsOptions,
        expects: &serde_json::Value,
    ) -> super::preflight::Found {
        preflight::check(run, expects)
    }
    fn hints(&self, report: &Report) -> crate::report::Hints {
        hints::hints(report)
    }
}

fn score(
    run: &mut Run,
    opts: &KwsOptions,
    progress: &mut dyn Progress,
) -> Result<Report, UsageError> {
    progress.update(0.0, "reading files");
    let mut diags: Vec<Diagnostic> = Vec::new();
    let picked = detect::pick(run.files, &mut diags);
    run.diags.extend(diags);
    let Some(p) = picked else {
        let mut r = Report::new("kws", run.mode);
        r.official_fails = true;
        return Ok(r);
    };
    let family = match (opts.preset, p.family) {
        (Preset::Icfhr14, Family::Trec) | (Preset::Trec, Family::Xml) => {
            return Err(UsageError(format!(
                "preset `{}` does not fit the dropped files ({}); use preset=auto",
                opts.preset.as_str(),
                p.family.describe()
            )))
        }
        _ => p.family,
    };
    run.deviations_among(family.option_names());
    // The report lists the preset the files picked.
    run.opts.set(KwsOptions::preset, family.preset().as_str());
    let opts = KwsOptions {
        preset: family.preset(),
        ..opts.clone()
    };
    let runs: Vec<_> = p.runs.iter().collect();
    let mut report = match family {
        Family::Xml => icfhr14::score(&p.gt, &runs, run.mode, &opts, progress),
        Family::Trec => trec::score(&p.gt, &runs, run.mode, &opts, progress),
    };
    // The presets return their diagnostics with the report (their own tests read them there); the run's one
    // sink takes them over, in the order the shell merged them before.
    run.diags.extend(std::mem::take(&mut report.diagnostics));
    if !run.wants_units() {
        report.units = Default::default();
    }
    Ok(report)
}

/// One plain line per step where the official and the corrected report of the same input differ, each with one
/// example (a query, or the file and line of the first diagnostic of that kind).
fn explain(official: &Report, corrected: &Report) -> Vec<String> {
    let mut lines = Vec::new();
    lines.extend(missing_queries(official));
    lines.extend(steps(official));
    if lines.is_empty() && !official.official_fails {
        lines.push(arithmetic(official, corrected));
    }
    lines
}

/// The averaging step: GT queries the results do not answer (left out officially, 0 when corrected).
fn missing_queries(official: &Report) -> Option<String> {
    // GT queries with (or without) results in the official report.
    let gt_queries = |in_results: bool| -> Vec<&str> {
        let is = |i: &crate::report::Item, key: &str, v: bool| {
            i.detail.get(key) == Some(&serde_json::Value::Bool(v))
        };
        official
            .items
            .iter()
            .filter(|i| is(i, "in_results", in_results) && is(i, "in_gt", true))
            .map(|i| i.id.as_str())
            .collect()
    };
    let (missing, scored) = (gt_queries(false), gt_queries(true).len());
    let first = missing.first()?;
    let n = missing.len();
    Some(format!(
        "{n} GT {} missing from the results: official mean over {scored}, corrected over {} (missing = 0). \
         Averaging step: the official scorer leaves out a query your results do not answer; corrected mode \
         counts it as 0. Example: query `{first}`.",
        if n == 1 { "query" } else { "queries" },
        scored + n
    ))
}

/// One line per official quirk the official report's diagnostics show, with its count and first place.
fn steps(official: &Report) -> Vec<String> {
    let mut lines = Vec::new();
    for (code, step) in [
        ("kws.results.duplicate_item", "Counting hits: the official scorer counts every repeat of a result as another hit (so P@k can exceed 1); corrected mode counts an item once"),
        ("kws.results.cross_document_hit", "Matching boxes: the official scorer counts a box that overlaps a GT box on another page as a hit; corrected mode requires the same document"),
        ("kws.gt.empty_query", "Scoring empty GT queries: the official scorer gives them NaN (and so a NaN mean); corrected mode leaves them out"),
        ("kws.official.attribute_order", "Reading a <word> line: the official scorer takes values by their position on the line; corrected mode by attribute name"),
        ("kws.official.shifted_value", "Reading a <word> line: non-ASCII text shifts the positions the official scorer reads values at; corrected mode reads the real values"),
        ("kws.official.tag_not_recognised", "Finding query blocks: the official scorer ignores a block whose opening tag is not written literally; corrected mode reads it"),
    ] {
        let hits: Vec<_> = official.diagnostics.iter().filter(|d| d.code == code).collect();
        if let Some(d) = hits.first() {
            let at = match (&d.file, d.line) {
                (Some(f), Some(l)) => format!("{f}:{l}"),
                (Some(f), None) => f.clone(),
                _ => "the input".to_string(),
            };
            let found = d.found.as_deref().map_or(String::new(), |f| format!(" ({f})"));
            lines.push(format!("{step}. {} such place(s); example: {at}{found}.", hits.len()));
        }
    }
    lines
}

/// When no step differs: the modes agree, or only the arithmetic (binary32 vs binary64) does, with the first
/// query whose AP differs as the example.
fn arithmetic(official: &Report, corrected: &Report) -> String {
    let same = official
        .scores
        .iter()
        .zip(corrected.scores.iter())
        .all(|((_, a), (_, b))| match (a, b) {
            (Some(a), Some(b)) => (a - b).abs() < 5e-6,
            (None, None) => true,
            _ => false,
        });
    if same {
        return "Both modes agree on this input (to the printed decimals).".to_string();
    }
    let example = official.items.iter().find_map(|o| {
        let (x, y) = (
            o.scores.get("ap")?,
            corrected
                .items
                .iter()
                .find(|c| c.id == o.id)?
                .scores
                .get("ap")?,
        );
        (x != y).then(|| {
            format!(
                " Example: query `{}`, AP {x} (official) vs {y} (corrected).",
                o.id
            )
        })
    });
    format!(
        "Arithmetic: the official scorer (rusteval) computes in 32-bit floats (binary32), corrected mode in \
         64-bit (binary64), so the last digits differ.{}",
        example.unwrap_or_default()
    )
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
