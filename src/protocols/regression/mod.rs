//! Protocol `regression` (docs/specs/families.md sections 0, 2 and 5): a GT `id,target` CSV and a submission
//! `id,<prediction>`; every metric of the spec's table, exact to scikit-learn 1.9.1 and SciPy 1.17.1, plus
//! Kaggle's SMAPE. A family has no corrected behaviour: `corrected` gives the same numbers and says so.

use super::classification::columns;
use super::classification::headline;
use super::classification::inputs;
use super::classification::preflight;
use super::classification::table;
use super::options::{Int, List, OptionSet, OptionSpec};
use super::{Example, Progress, Protocol, ProtocolInfo, Quiet, Run, UsageError};
use crate::budget::Budget;
use crate::diag::{Diagnostic, Diags};
use crate::formats::regression_csv as csvin;
use crate::input::FileSet;
use crate::items::{ItemTable, ScoreColumn};
use crate::metrics::regression as m;
use crate::par::Job;
use crate::report::{Column, Display, Label, Mode, Report, Scores};
use std::sync::Arc;

mod plots;
pub mod units;

pub const ID: &str = "regression";

/// Every metric id in the spec's order.
pub const METRICS: &[&str] = &[
    "mean_absolute_error",
    "mean_squared_error",
    "root_mean_squared_error",
    "mean_squared_log_error",
    "root_mean_squared_log_error",
    "mean_absolute_percentage_error",
    "median_absolute_error",
    "max_error",
    "r2",
    "explained_variance",
    "pearson",
    "spearman",
    "smape",
];

crate::choice! {
    /// Option `missing`: a GT id absent from the submission is an error (regression has no worst prediction).
    pub enum Missing { Error = "error" }
}

crate::choice! {
    /// Option `group_aggregate`: how the per-group values are combined.
    pub enum GroupAggregate { Mean = "mean" }
}

crate::options! {
    /// The options of `regression`.
    pub struct RegressionOptions {
        metric: String = ("root_mean_squared_error", "root_mean_squared_error"),
            "the leaderboard metric (a metric id: root_mean_squared_error, mean_absolute_error, r2, …), shown \
             first";
        id_column: String = ("", ""),
            "the id column (default: the first column named id, else the first column)";
        label_column: String = ("", ""),
            "the value column (default: the only other column, else target, prediction, pred, value or y)";
        delimiter: String = (",", ","), "the CSV field delimiter (one character, or tab)";
        missing: Missing = ("error", "error"),
            "a GT id absent from the submission is an error that blocks the score (regression has no worst \
             prediction)";
        target_columns: List = ("", ""),
            "several targets: the GT's target columns (e.g. cohesion, syntax; `*` for every non-id column), the \
             submission giving a column of each; metrics per column (`root_mean_squared_error[cohesion]`) and \
             their mean (`mean_root_mean_squared_error` is MCRMSE)";
        skip_target: String = ("", ""),
            "with target_columns: a GT value (e.g. -1) that leaves its row out of that column";
        group_column: String = ("", ""),
            "a GT column of groups (e.g. type): every metric per group (`mean_absolute_error[1JHC]`), then their \
             mean (`mean_log_mean_absolute_error` is the mean per-group log MAE)";
        group_aggregate: GroupAggregate = ("mean", "mean"),
            "with group_column: how the groups' values are combined into `mean_<metric>`";
        read_as: columns::ReadAsOption = ("pandas", "pandas"), columns::READ_AS_HELP;
        weight_column: String = ("", ""),
            "a GT column of row weights (scikit-learn's sample_weight) for the metrics that take one (MAE, MSE, \
             RMSE, MSLE, RMSLE, MAPE, r2, explained variance); the others are null";
        one_minus: bool = ("false", "false"), headline::ONE_MINUS_HELP;
        round: Int = ("-1", "-1"), headline::ROUND_HELP;
    }
}

/// The option table (`dropscore list`, the page, the config validator).
pub static OPTIONS: &[OptionSpec] = RegressionOptions::SPECS;

pub const INFO: ProtocolInfo = ProtocolInfo {
    id: ID,
    name: "Regression (scikit-learn and SciPy metrics)",
    built: true,
    summary: "MAE, MSE, RMSE, MSLE, RMSLE, MAPE, median absolute error, max error, R², explained variance (scikit-learn \
              1.9.1), Pearson and Spearman correlation (SciPy 1.17.1) and Kaggle's SMAPE, from a GT CSV and a submission CSV.",
    gt_files: "A CSV with a header: an id column and a target column (e.g. `id,target`).",
    pred_files: "A CSV with a header: an id column and a prediction column (e.g. `id,prediction`).",
    options: RegressionOptions::SPECS,
    examples: &[Example {
        id: "houses",
        label: "House prices (20 rows)",
        gt: &["examples/regression/gt.csv"],
        pred: &["examples/regression/pred.csv"],
        set: &[],
    }],
    official_noun: "reference library",
    head_len: 4096,
};

/// The `regression` protocol.
pub struct Regression;

impl Protocol for Regression {
    const INFO: &'static ProtocolInfo = &INFO;
    type Options = RegressionOptions;

    fn classify(&self, path: &str, head: &[u8]) -> super::shell::Class {
        super::classification::looks::classify(path, head, false)
    }

    fn score(
        &self,
        run: &mut Run,
        opts: &RegressionOptions,
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
    fn score_ids(&self, opts: &RegressionOptions) -> Option<Vec<String>> {
        let targets = opts.target_columns.items();
        let h = headline::Headline::of(opts.one_minus, &opts.round).unwrap_or_default();
        if !targets.is_empty() || !opts.group_column.is_empty() {
            return Some(h.ids(columns::score_ids(&COLUMNS, &targets)));
        }
        Some(h.ids(METRICS.iter().map(|m| m.to_string()).collect()))
    }
    fn manifest(&self, run: &mut Run, opts: &RegressionOptions) -> serde_json::Value {
        if let Some(m) = table::manifest(run, &common(opts), |inner| self.manifest(inner, opts)) {
            return m;
        }
        let budget = run.opts.budget();
        let mut shape = preflight::shape(
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
                        (&opts.id_column, &opts.label_column, ""),
                        opts.read_as.mode(),
                        budget,
                        diags,
                    )
                })
            },
            |g| {
                let ids = (0..g.ids.len()).map(|i| g.ids.get(i).to_string()).collect();
                (ids, g.lines.clone(), None)
            },
        );
        if let Some(g) = &mut shape {
            preflight::add_columns(g, &[&opts.group_column, &opts.weight_column]);
        }
        shape
            .as_ref()
            .map_or(serde_json::Value::Null, preflight::expects)
    }
    fn check(
        &self,
        run: &mut Run,
        opts: &RegressionOptions,
        expects: &serde_json::Value,
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

fn display(metric: &str) -> Display {
    let mut headline = vec![Label {
        id: metric.into(),
        label: metric.into(),
        decimals: 5,
    }];
    for x in METRICS.iter().filter(|x| **x != metric) {
        headline.push(Label {
            id: x.to_string(),
            label: x.to_string(),
            decimals: 5,
        });
    }
    Display {
        title: INFO.name.into(),
        headline,
        item_label: "id".into(),
        columns: vec![
            Column::score("target", "target", 5),
            Column::score("prediction", "prediction", 5),
            Column::score("error", "error (prediction − target)", 5),
        ],
        footer: String::new(),
    }
}

/// Every metric of the table (`None` where the library raises or returns NaN; an infinity becomes `None`, see
/// [`metric_values`]), and `other` (the protocol's other work on the same rows) beside them.
pub fn metrics(t: &[f64], p: &[f64], other: Job) -> Scores {
    let mut s = Scores::new();
    for (id, v) in metric_values(t, p, other) {
        s.set(id, v);
    }
    s
}

/// Every metric of the table in its order, as computed: `None` where the library raises or returns NaN,
/// infinities kept (scikit-learn returns `inf` for an overflowing mean, `-inf` for R² then). `other` runs
/// beside them: natively the pieces run on two threads, each taking the next one, longest first (5M rows: the
/// two rankings for Spearman 0.1 s each, MSLE's 10⁷ `log1p` 0.06 s, …).
pub fn metric_values(t: &[f64], p: &[f64], other: Job) -> Vec<(&'static str, Option<f64>)> {
    let (mut rt, mut rp) = (Vec::new(), Vec::new());
    let (mut msle, mut median, mut pearson) = (None, None, None);
    let mut rest: Vec<(&str, Option<f64>)> = Vec::new();
    crate::par::all(&mut [
        &mut || rt = m::doubled_ranks(t),
        &mut || rp = m::doubled_ranks(p),
        &mut || msle = m::mean_squared_log_error(t, p),
        other,
        &mut || pearson = m::pearson(t, p),
        &mut || median = m::median_absolute_error(t, p),
        &mut || {
            rest = vec![
                ("mean_absolute_error", m::mean_absolute_error(t, p)),
                ("mean_squared_error", m::mean_squared_error(t, p)),
                (
                    "mean_absolute_percentage_error",
                    m::mean_absolute_percentage_error(t, p),
                ),
                ("max_error", m::max_error(t, p)),
                ("r2", m::r2(t, p)),
                ("explained_variance", m::explained_variance(t, p)),
                ("smape", m::smape(t, p)),
            ];
        },
    ]);
    let get = |id: &str| rest.iter().find(|(k, _)| *k == id).and_then(|(_, v)| *v);
    let mse = get("mean_squared_error");
    METRICS
        .iter()
        .map(|&id| {
            let v = match id {
                // root_mean_squared_error and root_mean_squared_log_error are √ of the squared ones, computed once.
                "root_mean_squared_error" => mse.map(f64::sqrt),
                "mean_squared_log_error" => msle,
                "root_mean_squared_log_error" => msle.map(f64::sqrt),
                "median_absolute_error" => median,
                "pearson" => pearson,
                "spearman" => m::spearman_of_ranks(t, p, &rt, &rp),
                other => get(other),
            };
            (id, v)
        })
        .collect()
}

/// The metrics the JSON report cannot hold as the library returns them: infinities (an overflowing mean: the
/// report's `null`, never a number) and NaN (`None` here; the log metrics have their own warning). `None` when
/// every value is a number.
fn not_finite(values: &[(&str, Option<f64>)], log_undefined: bool) -> Option<Diagnostic> {
    let mut inf = Vec::new();
    let mut nan = Vec::new();
    for &(id, v) in values {
        match v {
            Some(x) if x.is_infinite() => {
                inf.push(format!("{id} = {}", if x > 0.0 { "inf" } else { "-inf" }))
            }
            Some(x) if x.is_nan() => nan.push(id),
            Some(_) => {}
            None if log_undefined && id.contains("log") => {}
            None => nan.push(id),
        }
    }
    if inf.is_empty() && nan.is_empty() {
        return None;
    }
    let mut parts = Vec::new();
    if !inf.is_empty() {
        parts.push(format!("{} (binary64 overflows)", inf.join(", ")));
    }
    if !nan.is_empty() {
        parts.push(format!(
            "{} = NaN (undefined for these values)",
            nan.join(", ")
        ));
    }
    Some(
        Diagnostic::warning(
            &format!("{ID}.not_finite"),
            format!("not a finite number: {}; the report holds null for each, as JSON has no inf or NaN", parts.join("; ")),
        )
        .official("scikit-learn and SciPy return these infinities and NaNs")
        .hint("Check the predictions for huge or constant values."),
    )
}

/// The column-wise metrics of several targets (`target_columns`): every metric of the table per column
/// (infinities and NaN as null).
const COLUMNS: columns::Family = columns::Family {
    id: ID,
    title: "Regression: the mean of per-column metrics (scikit-learn and SciPy)",
    metrics: COLUMN_METRICS,
    binary: false,
    score: &|t, p| {
        let mut v: Vec<Option<f64>> = (metric_values(t, p, &mut || {}).into_iter())
            .map(|(_, v)| v.filter(|x| x.is_finite()))
            .collect();
        // Kaggle's CHAMPS metric's per-type term: np.log(max(mae, 1e-9)).
        v.push(m::mean_absolute_error(t, p).map(|mae| mae.max(1e-9).ln()));
        v
    },
    default_metric: ("root_mean_squared_error", "mean_root_mean_squared_error"),
};

/// The metrics of a column or a group: the table's, and the log of the MAE floored at 1e-9.
const COLUMN_METRICS: &[&str] = &[
    "mean_absolute_error",
    "mean_squared_error",
    "root_mean_squared_error",
    "mean_squared_log_error",
    "root_mean_squared_log_error",
    "mean_absolute_percentage_error",
    "median_absolute_error",
    "max_error",
    "r2",
    "explained_variance",
    "pearson",
    "spearman",
    "smape",
    "log_mean_absolute_error",
];

/// The options [`table`] reads.
fn common(opts: &RegressionOptions) -> table::Common<'_> {
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
    opts: &RegressionOptions,
    (budget, units): (Budget, bool),
    mode: Mode,
    diags: &mut Diags,
    progress: &mut dyn Progress,
) -> Result<Report, UsageError> {
    if !opts.target_columns.items().is_empty() || !opts.group_column.is_empty() {
        let mut targets = opts.target_columns.items();
        if targets.is_empty() && !opts.label_column.is_empty() {
            targets.push(opts.label_column.clone());
        }
        let s = columns::Settings {
            targets,
            skip: columns::skip_value(&opts.skip_target)?,
            metric: &opts.metric,
            id_column: &opts.id_column,
            group_column: &opts.group_column,
            delim: inputs::delimiter(&opts.delimiter)?,
            read_as: opts.read_as.mode(),
        };
        return columns::run(&COLUMNS, &s, files, budget, mode, diags);
    }
    let metric = opts.metric.clone();
    if !METRICS.contains(&metric.as_str()) {
        return Err(UsageError(format!(
            "option `metric`: `{metric}` is not a regression metric; known: {}",
            METRICS.join(", ")
        )));
    }
    let delim = inputs::delimiter(&opts.delimiter)?;
    let mut report = Report::new(ID, mode);
    report.display = display(&metric);
    if mode == Mode::Corrected {
        diags.push(inputs::corrected_note(ID));
    }
    let Some((gt_e, pred_e)) = inputs::pick(ID, files, diags) else {
        blank(&mut report);
        return Ok(report);
    };
    let columns = (opts.id_column.as_str(), opts.label_column.as_str());
    progress.update(0.05, "reading the ground truth");
    let gt = inputs::read_entry(gt_e, diags, |r, diags| {
        let read_as = opts.read_as.mode();
        let cols = (columns.0, columns.1, opts.weight_column.as_str());
        csvin::read_gt_as(
            &gt_e.path, r, gt_e.size, delim, cols, read_as, budget, diags,
        )
    });
    let Some(mut gt) = gt else {
        blank(&mut report);
        return Ok(report);
    };
    progress.update(0.3, "reading the submission");
    let sub = inputs::read_entry(pred_e, diags, |r, diags| {
        csvin::read_submission(&gt, &pred_e.path, r, delim, columns.0, columns.1, diags)
    });
    let Some(sub) = sub else {
        blank(&mut report);
        return Ok(report);
    };
    // The ids are matched: the report keeps their names, not the table that found them.
    gt.ids.done_finding();
    let missing = crate::formats::id_index::missing(&sub.seen);
    inputs::missing_ids(ID, &gt.file, &gt.ids, &gt.lines, &missing, false, diags);
    progress.update(0.6, "computing the metrics");
    fill(&mut report, gt, sub, units, diags);
    progress.update(0.85, "per-item rows");
    Ok(report)
}

/// The metrics with the GT's weights (`weight_column`) as scikit-learn's `sample_weight`: the metrics that take
/// none null, said once.
fn weighted(
    values: Vec<(&'static str, Option<f64>)>,
    t: &[f64],
    p: &[f64],
    w: &[f64],
    diags: &mut Diags,
) -> Vec<(&'static str, Option<f64>)> {
    use crate::metrics::regression_weighted as mw;
    diags.push(
        Diagnostic::info(
            &format!("{ID}.weighted"),
            format!(
                "weighted by the GT's weight column; {} take no sample_weight in scikit-learn or SciPy: null",
                METRICS.iter().filter(|m| !mw::WEIGHTED.contains(m)).copied().collect::<Vec<_>>().join(", ")
            ),
        ),
    );
    (values.into_iter())
        .map(|(id, _)| (id, mw::by_id(id, t, p, w)))
        .collect()
}

/// Every metric null.
fn blank(report: &mut Report) {
    for x in METRICS {
        report.scores.set(x, None);
    }
}

/// The scores (null when an error blocks them), the plots and the per-item rows of a read GT and submission.
fn fill(
    report: &mut Report,
    gt: csvin::Gt,
    sub: csvin::Submission,
    units: bool,
    diags: &mut Diags,
) {
    let blocked = diags.has_errors();
    let (t, p) = (&gt.targets, &sub.preds);
    // The metrics, and beside them (natively) the plots and the per-item rows' order and errors.
    let (mut plots, mut order, mut error) = (None, Vec::new(), Vec::new());
    let mut other = || {
        error = t.iter().zip(p).map(|(t, p)| p - t).collect();
        plots = (!blocked).then(|| self::plots::plots(t, p, &error));
        order = inputs::natural_order(&gt.ids);
    };
    let scores = if blocked {
        other();
        None
    } else {
        Some(metric_values(t, p, &mut other))
    };
    match scores {
        None => blank(report),
        Some(values) => {
            let values = match gt.weights.is_empty() {
                true => values,
                false => weighted(values, t, p, &gt.weights, diags),
            };
            for &(id, v) in &values {
                report.scores.set(id, v);
            }
            let log_undefined = t.iter().chain(p).any(|&v| v <= -1.0);
            if log_undefined {
                diags.push(
                    Diagnostic::warning(&format!("{ID}.log_undefined"), "a target or prediction is ≤ −1: mean_squared_log_error and root_mean_squared_log_error are null")
                        .official("scikit-learn raises (values less than or equal to -1)"),
                );
            }
            if let Some(d) = not_finite(&values, log_undefined) {
                diags.push(d);
            }
            report.plots = plots.unwrap_or_default();
            if units {
                report.units = self::units::slot(t, p, &gt.weights, &report.scores);
            }
        }
    }
    let column = |key: &str, values| ScoreColumn {
        key: key.into(),
        values,
    };
    report.item_table = Some(Arc::new(ItemTable {
        order: order.into_iter().map(|i| i as u32).collect(),
        scores: vec![
            column("prediction", sub.preds),
            column("target", gt.targets),
            column("error", error),
        ],
        detail: Vec::new(),
        ids: gt.ids.into_ids(),
    }));
}
