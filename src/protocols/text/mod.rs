//! Protocol `text` (docs/specs/text.md): strings scored against strings, configured by options alone. The
//! inputs are read in one of five layouts ([`crate::formats::text_input`]) and paired by id ([`inputs`]);
//! every metric of [`metrics::METRICS`] that applies is in `scores`, the `metric` option's first. A family has
//! no corrected behaviour: `corrected` gives the same numbers and says so.

mod budget;
pub mod inputs;
pub mod metrics;
mod page_view;
mod preflight;
mod rows;
pub mod units;
mod view;
mod warnings;
mod work;

use super::contract_parts_csv::{score_whole_or_by_part, CsvLayout};
use super::options::{List, OptionSet};
use super::{Example, Progress, Protocol, ProtocolInfo, Run, UsageError};
use crate::budget::Budget;
use crate::diag::{Diagnostic, Diags};
use crate::formats::pandas_cells::ReadAs;
use crate::formats::text_input::Layout;
use crate::input::{FileSet, Role};
use crate::report::{Mode, Report};

pub const ID: &str = "text";

crate::choice! {
    /// Option `missing`.
    pub enum Missing { Error = "error", Worst = "worst" }
}

crate::choice! {
    /// Option `normalize`: Unicode normalisation of both sides before any metric.
    pub enum Normalize { None = "none", Nfc = "nfc", Nfkc = "nfkc" }
}

crate::options! {
    /// The options of `text`.
    pub struct TextOptions {
        metric: String = ("cer", "cer"),
            "the leaderboard metric (cer, wer, mer, wil, wip, cer_mean, wer_mean, ned, anls, exact_match, f1, \
             HasAns_exact, HasAns_f1, NoAns_exact, NoAns_f1, jaccard), shown first";
        metrics: List = ("all", "all"),
            "the metrics the report holds, comma-separated ids (e.g. cer,wer), the leaderboard `metric` always \
             among them; all = every metric that applies to the input. Only these are computed";
        layout: String = ("auto", "auto"),
            "the input layout: auto (detected from content), table, json, squad, files or page";
        id_column: String = ("id", "id"), "the id column of the table layout";
        text_column: String = ("text", "text"), "the text column of the table layout";
        delimiter: String = (",", ","), "the table layout's field delimiter (one character, or tab)";
        normalize: Normalize = ("none", "none"),
            "Unicode normalisation of both sides before any metric: none, nfc or nfkc";
        anls_threshold: Option<f64> = ("0.5", "0.5"), "ANLS's threshold τ: a normalized distance of τ or more scores 0";
        missing: Missing = ("error", "error"),
            "a GT id absent from the submission is an error that blocks the score (error), or scored as an \
             empty text (worst)";
    }
}

pub const INFO: ProtocolInfo = ProtocolInfo {
    id: ID,
    name: "Text (CER/WER, NED, ANLS, SQuAD, Jaccard)",
    built: true,
    summary: "Strings against strings: jiwer 4.0's CER, WER, MER, WIL and WIP (corpus-level) and their per-line \
              means, 1 − NED, ANLS (DocVQA), SQuAD v1.1/v2.0 exact match and F1, Kaggle's word Jaccard; from \
              CSV/TSV tables, JSON or JSON Lines, SQuAD files, one text file per item or PAGE XML.",
    gt_files: "A CSV/TSV (id,text), a JSON object {\"id\": \"text\" or [refs]}, JSON Lines, a SQuAD dataset, \
               one .txt per item, or PAGE XML pages.",
    pred_files: "The same layout (for SQuAD: {\"qid\": \"answer\"}; for PAGE XML: PAGE XML, or a table or JSON \
                 keyed <page stem>/<line id>).",
    options: TextOptions::SPECS,
    examples: &[
        Example {
            id: "htr_page",
            label: "Handwritten lines (PAGE XML, 2 pages)",
            gt: &["examples/text/htr/gt/page1.xml", "examples/text/htr/gt/page2.xml"],
            pred: &["examples/text/htr/pred/page1.xml", "examples/text/htr/pred/page2.xml"],
            set: &[],
        },
        Example {
            id: "docvqa_anls",
            label: "Document VQA answers (ANLS, 12 questions)",
            gt: &["examples/text/docvqa/gt.json"],
            pred: &["examples/text/docvqa/pred.json"],
            set: &[("metric", "anls")],
        },
        Example {
            id: "squad",
            label: "Extractive QA (SQuAD v2.0, 10 questions)",
            gt: &["examples/text/squad/gt.json"],
            pred: &["examples/text/squad/pred.json"],
            set: &[("metric", "f1")],
        },
        Example {
            id: "translation",
            label: "Translation (sacreBLEU, 8 segments, several references)",
            gt: &["examples/text/translation/refs.json"],
            pred: &["examples/text/translation/hyps.json"],
            set: &[("metric", "bleu")],
        },
    ],
    official_noun: "reference library",
    head_len: 4096,
};

/// The `text` protocol.
pub struct Text;

impl Protocol for Text {
    const INFO: &'static ProtocolInfo = &INFO;
    type Options = TextOptions;

    /// Every entry of the metric table, or those option `metrics` lists.
    fn score_ids(&self, opts: &TextOptions) -> Option<Vec<String>> {
        let wanted = metrics::requested(&opts.metrics, &opts.metric)
            .ok()
            .flatten();
        Some(
            metrics::ids()
                .into_iter()
                .filter(|id| wanted.as_ref().is_none_or(|w| w.iter().any(|m| m == id)))
                .map(String::from)
                .collect(),
        )
    }

    fn score(
        &self,
        run: &mut Run,
        opts: &TextOptions,
        progress: &mut dyn Progress,
    ) -> Result<Report, UsageError> {
        let budget = run.opts.budget();
        let units = run.wants_units();
        // Which metrics the report holds changes none of their values: not a deviation.
        let others: Vec<&str> = TextOptions::SPECS
            .iter()
            .map(|s| s.name)
            .filter(|n| *n != TextOptions::metrics)
            .collect();
        run.deviations_among(&others);
        let mode = run.mode;
        let mut scored = |files: &FileSet, diags: &mut Diags, progress: &mut dyn Progress, own| {
            run_on(files, opts, budget, mode, diags, progress, units && own)
        };
        // Public and private parts from a table GT's `Usage` column, each the score of its rows alone
        // (docs/specs/statistics.md section 4); a split file is applied to the units by the shell, whatever
        // the layout.
        let layout = (inputs::delimiter(&opts.delimiter).ok())
            .filter(|_| run.split_file.is_none())
            .map(|delimiter| CsvLayout {
                delimiter,
                id_column: &opts.id_column,
                read_as: ReadAs::Text,
            });
        score_whole_or_by_part(run, layout.as_ref(), progress, &mut scored)
    }
    fn manifest(&self, run: &mut Run, opts: &TextOptions) -> serde_json::Value {
        preflight::manifest(run, opts)
    }
    fn check(
        &self,
        run: &mut Run,
        opts: &TextOptions,
        expects: &serde_json::Value,
    ) -> super::preflight::Found {
        preflight::check(run, opts, expects)
    }
    fn extras(&self) -> &'static super::views::Extras {
        &view::EXTRAS
    }
}

/// The forced layout of option `layout`, or the usage error.
pub fn forced_layout(opts: &TextOptions) -> Result<Option<Layout>, UsageError> {
    Layout::parse(&opts.layout).ok_or_else(|| {
        UsageError(format!(
            "option `layout`: expected auto, table, json, squad, files or page, found `{}`",
            opts.layout
        ))
    })
}

/// Reads and pairs both sides; `None` when a side could not be read.
pub fn read_pairs(
    files: &FileSet,
    opts: &TextOptions,
    diags: &mut Diags,
) -> Result<Option<inputs::Pairs>, UsageError> {
    let forced = forced_layout(opts)?;
    let gt = inputs::read_side(files, Role::Gt, forced, opts, diags)?;
    let pred_forced = match gt.as_ref().map(|g| g.layout) {
        Some(Layout::Squad) => Some(Layout::Json),
        Some(Layout::Page) | None => None,
        Some(_) => forced,
    };
    let pred = inputs::read_side(files, Role::Pred, pred_forced, opts, diags)?;
    Ok(match (gt, pred) {
        (Some(g), Some(p)) => Some(inputs::pair(g, p, opts, diags)),
        _ => None,
    })
}

/// Scores one set of files. Diagnostics go to `diags`; the caller sets options and deviations. With
/// `want_units`, the report keeps its bootstrap units ([`units`]).
pub fn run_on(
    files: &FileSet,
    opts: &TextOptions,
    budget: Budget,
    mode: Mode,
    diags: &mut Diags,
    progress: &mut dyn Progress,
    want_units: bool,
) -> Result<Report, UsageError> {
    let known = metrics::ids();
    if !known.contains(&opts.metric.as_str()) {
        return Err(UsageError(format!(
            "option `metric`: `{}` is not a text metric; known: {}",
            opts.metric,
            known.join(", ")
        )));
    }
    metrics::requested(&opts.metrics, &opts.metric).map_err(UsageError)?;
    if !opts
        .anls_threshold
        .is_some_and(|t| (0.0..=1.0).contains(&t))
    {
        return Err(UsageError(
            "option `anls_threshold`: expected a number from 0 to 1".into(),
        ));
    }
    let mut report = Report::new(ID, mode);
    if mode == Mode::Corrected {
        diags.push(crate::protocols::classification::inputs::corrected_note(ID));
    }
    progress.update(0.05, "reading the inputs");
    let pairs = read_pairs(files, opts, diags)?;
    progress.update(0.4, "computing the metrics");
    match &pairs {
        Some(p) => rows::fill(&mut report, p, opts, budget, diags),
        None => rows::blank(&mut report, &opts.metric),
    }
    if diags.has_errors() {
        rows::null_scores(&mut report);
    } else if let (true, Some(p)) = (want_units, &pairs) {
        report.units = units::slot(p, &report);
    }
    Ok(report)
}

/// An error naming a metric that does not apply to the input.
fn not_applicable(metric: &str, why: &str) -> Diagnostic {
    Diagnostic::error(
        &format!("{ID}.metric_not_applicable"),
        format!("metric `{metric}` does not apply: {why}"),
    )
    .hint("Choose a metric that applies (anls, exact_match and f1 take several references).")
}
