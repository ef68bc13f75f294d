//! Protocol `classification` (docs/specs/families.md sections 0, 1 and 5): a GT `id,label` CSV and a submission of
//! hard labels, per-class scores or one binary score; every scikit-learn metric of the spec's table, exact to
//! scikit-learn 1.9.1. A family has no corrected behaviour: `corrected` gives the same numbers and says so.

mod column_metrics;
pub mod columns;
pub mod compute;
pub mod headline;
pub mod inputs;
pub mod looks;
mod notes;
pub mod preflight;
mod sample;
pub mod table;
pub mod units;
pub mod weighted;

use super::options::{Int, List, OptionSet, OptionSpec};
use super::{Example, Progress, Protocol, ProtocolInfo, Quiet, Run, UsageError};
use crate::budget::Budget;
use crate::diag::Diags;
use crate::formats::classification_csv::{self as csvin, Layout, NONE};
use crate::input::FileSet;
use crate::items::{DetailColumn, DetailValues, ItemTable, ScoreColumn, NULL_CODE};
use crate::report::{Column, Display, Label, Mode, Report};
use compute::{applies, Data, METRICS};
use notes::{not_probabilities, positive_class, submission_notes};
use serde_json::Value;
use std::sync::Arc;

pub const ID: &str = "classification";

crate::choice! {
    /// Option `missing`: a GT id absent from the submission.
    pub enum Missing { Error = "error", Worst = "worst" }
}

crate::options! {
    /// The options of `classification`.
    pub struct ClassificationOptions {
        metric: String = ("accuracy", "accuracy"),
            "the leaderboard metric (a metric id: accuracy, f1_macro, roc_auc, log_loss, …), shown first";
        id_column: String = ("", ""),
            "the id column (default: the first column named id, else the first column)";
        label_column: String = ("", ""),
            "the label column (default: the only other column, else label, target, class or y)";
        positive_label: String = ("", ""),
            "the positive class of f1/precision/recall and of binary score metrics (default 1 for {0, 1} labels)";
        k: Int = ("3", "3"), "k of top_k_accuracy";
        delimiter: String = (",", ","), "the CSV field delimiter (one character, or tab)";
        missing: Missing = ("error", "error"),
            "a GT id absent from the submission: an error that blocks the score, or scored as the worst \
             prediction";
        target_columns: List = ("", ""),
            "multi-label: the GT's binary target columns (e.g. toxic, obscene; `*` for every non-id column), the \
             submission giving a probability column of each; metrics per column (`roc_auc[toxic]`) and their \
             mean (`mean_roc_auc`)";
        skip_target: String = ("", ""),
            "with target_columns: a GT value (e.g. -1) that leaves its row out of that column";
        read_as: columns::ReadAsOption = ("pandas", "pandas"), columns::READ_AS_HELP;
        one_minus: bool = ("false", "false"), headline::ONE_MINUS_HELP;
        round: Int = ("-1", "-1"), headline::ROUND_HELP;
        weight_column: String = ("", ""),
            "a GT column of row weights (finite, ≥ 0): scikit-learn's sample_weight of every metric that takes \
             one (roc_auc_ovo takes none: null)";
    }
}

/// The option table (`dropscore list`, the page, the config validator).
pub static OPTIONS: &[OptionSpec] = ClassificationOptions::SPECS;

pub const INFO: ProtocolInfo = ProtocolInfo {
    id: ID,
    name: "Classification (scikit-learn metrics)",
    built: true,
    summary: "Accuracy, balanced accuracy, F1/precision/recall (binary, macro, micro, weighted), Matthews, Cohen's kappa, \
              ROC AUC (binary, one-vs-rest, one-vs-one), average precision, log loss, Brier score and top-k accuracy, \
              exactly as scikit-learn 1.9.1 computes them, from a GT CSV and a submission CSV.",
    gt_files: "A CSV with a header: an id column and a label column (e.g. `id,label`).",
    pred_files: "A CSV with a header: `id,label` (hard labels), `id,<class 1>,<class 2>,…` (one score column per class, \
                 Kaggle's layout) or `id,score` (the positive class's score, two classes).",
    options: ClassificationOptions::SPECS,
    examples: &[
        Example {
            id: "scores",
            label: "Three classes, probability columns",
            gt: &["examples/classification/gt.csv"],
            pred: &["examples/classification/pred_scores.csv"],
            set: &[],
        },
        Example {
            id: "labels",
            label: "Three classes, hard labels",
            gt: &["examples/classification/gt.csv"],
            pred: &["examples/classification/pred_labels.csv"],
            set: &[],
        },
        Example {
            id: "binary",
            label: "Binary, one score column",
            gt: &["examples/classification/gt_binary.csv"],
            pred: &["examples/classification/pred_binary.csv"],
            set: &[],
        },
    ],
    official_noun: "reference library",
    head_len: 4096,
};

/// The `classification` protocol.
pub struct Classification;

impl Protocol for Classification {
    const INFO: &'static ProtocolInfo = &INFO;
    type Options = ClassificationOptions;

    fn classify(&self, path: &str, head: &[u8]) -> super::shell::Class {
        looks::classify(path, head, true)
    }

    fn score(
        &self,
        run: &mut Run,
        opts: &ClassificationOptions,
        progress: &mut dyn Progress,
    ) -> Result<Report, UsageError> {
        let (budget, mode, units) = (run.opts.budget(), run.mode, run.wants_units());
        table::score(
            run,
            &common(opts),
            progress,
            &mut |files, diags, progress, own| {
                run_on(files, opts, (budget, units && own), mode, diags, progress)
            },
        )
    }
    fn score_ids(&self, opts: &ClassificationOptions) -> Option<Vec<String>> {
        let targets = opts.target_columns.items();
        let h = headline::Headline::of(opts.one_minus, &opts.round).unwrap_or_default();
        if !targets.is_empty() {
            return Some(h.ids(columns::score_ids(&column_metrics::COLUMNS, &targets)));
        }
        Some(h.ids(METRICS.iter().map(|m| m.to_string()).collect()))
    }
    fn manifest(&self, run: &mut Run, opts: &ClassificationOptions) -> Value {
        if let Some(m) = table::manifest(run, &common(opts), |inner| self.manifest(inner, opts)) {
            return m;
        }
        let budget = run.opts.budget();
        let as_gt = |run: &mut Run| {
            preflight::shape(
                run,
                ID,
                (&opts.delimiter, &opts.id_column),
                |e, delim, diags| {
                    inputs::read_entry(e, diags, |r, diags| {
                        csvin::read_gt_as(
                            &e.path,
                            r,
                            e.size,
                            delim,
                            (&opts.id_column, &opts.label_column),
                            opts.read_as.mode(),
                            budget,
                            diags,
                        )
                    })
                },
                |g| {
                    let ids = (0..g.ids.len()).map(|i| g.ids.get(i).to_string()).collect();
                    (ids, g.lines.clone(), Some(g.classes.names.clone()))
                },
            )
        };
        let shape = sample::shape(run, opts, as_gt);
        shape.as_ref().map_or(Value::Null, preflight::expects)
    }
    fn check(
        &self,
        run: &mut Run,
        opts: &ClassificationOptions,
        expects: &Value,
    ) -> super::preflight::Found {
        let budget = run.opts.budget();
        preflight::check(run, expects, ID, &opts.delimiter, &|files, diags| {
            run_on(
                files,
                opts,
                (budget, false),
                Mode::Official,
                diags,
                &mut Quiet,
            )
        })
    }

    /// The reference library's numbers in both modes: the page shows one column.
    fn hints(&self, _report: &Report) -> crate::report::Hints {
        crate::report::Hints {
            one_mode: true,
            ..Default::default()
        }
    }
}

fn display(metric: &str, computed: &[String]) -> Display {
    let mut headline = vec![Label {
        id: metric.into(),
        label: metric.into(),
        decimals: 5,
    }];
    for m in computed.iter().filter(|m| *m != metric) {
        headline.push(Label {
            id: m.clone(),
            label: m.clone(),
            decimals: 5,
        });
    }
    Display {
        title: INFO.name.into(),
        headline,
        item_label: "id".into(),
        columns: vec![
            Column::detail("truth", "truth"),
            Column::detail("predicted", "predicted"),
            Column::score("correct", "correct", 0),
            Column::score("score_of_truth", "score of the truth", 5),
        ],
        footer: String::new(),
    }
}

/// What the options ask for, checked: the leaderboard metric, the delimiter, top-k's k, `missing = worst`.
struct Settings {
    metric: String,
    delim: u8,
    top_k: usize,
    worst: bool,
}

fn settings(opts: &ClassificationOptions) -> Result<Settings, UsageError> {
    let metric = opts.metric.clone();
    if !METRICS.contains(&metric.as_str()) {
        return Err(UsageError(format!(
            "option `metric`: `{metric}` is not a classification metric; known: {}",
            METRICS.join(", ")
        )));
    }
    let delim = inputs::delimiter(&opts.delimiter)?;
    let top_k = match opts.k.value {
        k if k >= 1 => k as usize,
        _ => {
            return Err(UsageError(format!(
                "option `k`: expected an integer ≥ 1, found `{}`",
                opts.k.text
            )))
        }
    };
    Ok(Settings {
        metric,
        delim,
        top_k,
        worst: opts.missing == Missing::Worst,
    })
}

/// The options [`table`] reads.
fn common(opts: &ClassificationOptions) -> table::Common<'_> {
    table::Common {
        delimiter: &opts.delimiter,
        id_column: &opts.id_column,
        one_minus: opts.one_minus,
        round: &opts.round,
        read_as: opts.read_as.mode(),
    }
}

/// Scores one GT and one submission. Diagnostics go to `diags`; the caller sets options and deviations.
/// `units`: the report keeps its bootstrap units ([`Run::wants_units`]; building them sorts the rows).
pub fn run_on(
    files: &FileSet,
    opts: &ClassificationOptions,
    (budget, units): (Budget, bool),
    mode: Mode,
    diags: &mut Diags,
    progress: &mut dyn Progress,
) -> Result<Report, UsageError> {
    if !opts.target_columns.items().is_empty() {
        let s = columns::Settings {
            targets: opts.target_columns.items(),
            skip: columns::skip_value(&opts.skip_target)?,
            metric: &opts.metric,
            id_column: &opts.id_column,
            group_column: "",
            delim: inputs::delimiter(&opts.delimiter)?,
            read_as: opts.read_as.mode(),
        };
        // With a weight column, each column's metrics take it as scikit-learn's `sample_weight`.
        let weights = columns::Weights {
            column: &opts.weight_column,
            score: &column_metrics::weighted_binary_column,
        };
        let scorers = columns::Scorers {
            weights: (!opts.weight_column.is_empty()).then_some(&weights),
            in_place: Some(&column_metrics::binary_in_place),
        };
        return columns::run_weighted(
            &column_metrics::COLUMNS,
            &s,
            &scorers,
            files,
            budget,
            mode,
            diags,
        );
    }
    let Settings {
        metric,
        delim,
        top_k,
        worst,
    } = settings(opts)?;
    let mut report = Report::new(ID, mode);
    if mode == Mode::Corrected {
        diags.push(inputs::corrected_note(ID));
    }
    let blank = |report: &mut Report| {
        report.scores.set(&metric, None);
        report.display = display(&metric, &[]);
    };
    let Some((gt_e, pred_e)) = inputs::pick(ID, files, diags) else {
        blank(&mut report);
        return Ok(report);
    };
    let columns = (opts.id_column.as_str(), opts.label_column.as_str());
    progress.update(0.05, "reading the ground truth");
    let gt = inputs::read_entry(gt_e, diags, |r, diags| {
        let read_as = opts.read_as.mode();
        let cols = (columns.0, columns.1, opts.weight_column.as_str());
        csvin::read_gt_weighted(
            &gt_e.path, r, gt_e.size, delim, cols, read_as, budget, diags,
        )
    });
    let Some(mut gt) = gt else {
        blank(&mut report);
        return Ok(report);
    };
    let positive = positive_class(&opts.positive_label, &gt, &metric, diags)?;
    progress.update(0.3, "reading the submission");
    let sub = inputs::read_entry(pred_e, diags, |r, diags| {
        csvin::read_submission(
            &gt,
            &pred_e.path,
            r,
            delim,
            columns,
            compute::needs_scores(&metric),
            budget,
            diags,
        )
    });
    let Some(mut sub) = sub else {
        blank(&mut report);
        return Ok(report);
    };
    // The ids are matched: the report keeps their names, not the table that found them.
    gt.ids.done_finding();
    let missing = crate::formats::id_index::missing(&sub.seen);
    inputs::missing_ids(ID, &gt.file, &gt.ids, &gt.lines, &missing, worst, diags);
    if worst {
        fill_worst(&gt, &mut sub, &missing);
    }
    // The errors that block the scores come before the leaderboard metric's own: without it the other metrics
    // are still shown (the run fails all the same).
    let blocked = diags.has_errors();
    submission_notes(&sub, &gt.classes, &metric, diags);
    progress.update(0.6, "computing the metrics");
    let data = Data {
        gt: &gt,
        sub: &sub,
        positive,
        top_k,
    };
    let out = fill(&mut report, &data, &metric, blocked);
    let weighted = !data.gt.weights.is_empty();
    if weighted && !blocked {
        weighted::apply(&mut report, &data, &out, &data.gt.weights, diags);
    }
    if !blocked && units {
        report.units = self::units::slot(&data, &out, &report.scores);
    }
    if let Some((row, sum)) = out.not_probabilities.filter(|_| !blocked) {
        diags.push(not_probabilities(&sub, row, sum, &metric));
    }
    progress.update(0.85, "per-item rows");
    report.item_table = Some(Arc::new(items(gt, &sub, &out, blocked)));
    Ok(report)
}

/// Computes the metrics and fills the scores (null when an error blocks them), the display and the plots;
/// returns the outcome.
fn fill(report: &mut Report, data: &Data, metric: &str, blocked: bool) -> compute::Outcome {
    let k = data.gt.classes.metric_k();
    let out = compute::compute(data);
    // Every metric the GT's class count allows, null where the submission's layout cannot give it (so that a
    // leaderboard column always names a score).
    let computed: Vec<String> = METRICS
        .iter()
        .filter(|m| applies(m, k, true) || **m == metric)
        .map(|m| m.to_string())
        .collect();
    for m in &computed {
        report
            .scores
            .set(m, if blocked { None } else { out.scores.get(m) });
    }
    report.display = display(metric, &computed);
    if !blocked {
        report.plots = out.plots.clone();
    }
    out
}

/// `missing = worst`: labels → a label that is never right; scores → 0 for the true class and 1/(k − 1) for
/// every other; binary score → 0 for a positive, 1 for a negative.
fn fill_worst(gt: &csvin::Gt, sub: &mut csvin::Submission, missing: &[usize]) {
    let k = gt.classes.len();
    match sub.layout {
        Layout::Labels => never_right(gt, sub, missing),
        Layout::Scores => {
            for &i in missing {
                let t = gt.labels[i] as usize;
                for c in 0..k {
                    sub.scores[i * k + c] = if c == t { 0.0 } else { 1.0 / (k as f64 - 1.0) };
                }
            }
        }
        Layout::BinaryScore => {
            for &i in missing {
                sub.scores[i] = if positive_row(gt, i) { 0.0 } else { 1.0 };
            }
        }
        Layout::LabelScores => {
            // Two classes: the other class; one class: a label that is never right. And the score that ranks
            // it first.
            if k != 2 {
                never_right(gt, sub, missing);
            }
            for &i in missing {
                if k == 2 {
                    sub.pred[i] = 1 - gt.labels[i];
                }
                sub.scores[i] = if positive_row(gt, i) { 0.0 } else { 1.0 };
            }
        }
    }
}

/// The missing rows' label: one that is never right (an extra label, `i64::MIN` or `(missing)`).
fn never_right(gt: &csvin::Gt, sub: &mut csvin::Submission, missing: &[usize]) {
    let k = gt.classes.len();
    let j = sub.extra.len() as u32;
    if !missing.is_empty() {
        sub.extra.push(if gt.classes.ints.is_some() {
            i64::MIN.to_string()
        } else {
            "(missing)".into()
        });
    }
    for &i in missing {
        sub.pred[i] = k as u32 + j;
    }
}

/// Whether GT row `i` is of the positive class of a one-column score: the second class, or with a single class
/// 0 or 1 whether it is 1.
fn positive_row(gt: &csvin::Gt, i: usize) -> bool {
    if gt.classes.single_binary() {
        gt.classes.ints.as_deref() == Some(&[1])
    } else {
        gt.labels[i] == 1
    }
}

/// The per-item rows: `correct` (1/0, null when not scored), `score_of_truth` (score layouts) and the detail
/// `truth`, `predicted` (null when not given) and `missing` (only on rows the submission did not give).
fn items(
    gt: csvin::Gt,
    sub: &csvin::Submission,
    out: &compute::Outcome,
    blocked: bool,
) -> ItemTable {
    let n = gt.labels.len();
    let order = inputs::natural_order(&gt.ids);
    let pred = |i: usize| out.pred.get(i).copied().unwrap_or(NONE);
    let scored = !blocked && sub.mixed.is_none();
    let correct = (0..n)
        .map(|i| {
            let p = pred(i);
            if p != NONE && scored {
                (p == gt.labels[i]) as u8 as f64
            } else {
                f64::NAN
            }
        })
        .collect();
    let mut scores = vec![ScoreColumn {
        key: "correct".into(),
        values: correct,
    }];
    if let Some(values) = score_of_truth(&gt, sub) {
        scores.push(ScoreColumn {
            key: "score_of_truth".into(),
            values,
        });
    }
    let detail = detail_columns(&gt, sub, &pred);
    ItemTable {
        order: order.into_iter().map(|i| i as u32).collect(),
        scores,
        detail,
        ids: gt.ids.into_ids(),
    }
}

/// The score the submission gave the true class of each id (score layouts; `None` for hard labels).
fn score_of_truth(gt: &csvin::Gt, sub: &csvin::Submission) -> Option<Vec<f64>> {
    let (k, n) = (gt.classes.len(), gt.labels.len());
    match sub.layout {
        Layout::Scores => Some(
            (0..n)
                .map(|i| sub.scores[i * k + gt.labels[i] as usize])
                .collect(),
        ),
        Layout::BinaryScore | Layout::LabelScores => Some(
            (0..n)
                .map(|i| {
                    let s = sub.scores[i];
                    if positive_row(gt, i) {
                        s
                    } else {
                        1.0 - s
                    }
                })
                .collect(),
        ),
        Layout::Labels => None,
    }
}

/// The detail columns `truth`, `predicted` (null when not given) and `missing`.
fn detail_columns(
    gt: &csvin::Gt,
    sub: &csvin::Submission,
    pred: &dyn Fn(usize) -> u32,
) -> Vec<DetailColumn> {
    let n = gt.labels.len();
    let given = |i: usize| sub.seen.get(i).is_some_and(|&l| l > 0);
    // Names: the GT classes, then the submission's other labels (codes k + j).
    let names: Vec<String> = gt.classes.names.iter().chain(&sub.extra).cloned().collect();
    let predicted = (0..n)
        .map(|i| {
            let p = pred(i);
            if given(i) && p != NONE && (p as usize) < names.len() {
                p
            } else {
                NULL_CODE
            }
        })
        .collect();
    vec![
        DetailColumn {
            key: "truth".into(),
            values: DetailValues::Names {
                names: names.clone(),
                codes: gt.labels.clone(),
            },
        },
        DetailColumn {
            key: "predicted".into(),
            values: DetailValues::Names {
                names,
                codes: predicted,
            },
        },
        DetailColumn {
            key: "missing".into(),
            values: DetailValues::TrueOrAbsent((0..n).map(|i| !given(i)).collect()),
        },
    ]
}
