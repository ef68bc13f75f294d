//! The mean of a per-column metric over several target columns (docs/specs/families.md sections 1 and 2), Kaggle's
//! multi-target convention, in both table families: option `target_columns` names the GT's target columns (`*`:
//! every non-id column), the submission gives the same columns; each column is scored alone, rows whose GT
//! value is `skip_target` (e.g. `-1`) left out of that column, and `mean_<metric>` is `np.mean` of the
//! columns' values (null when a column's value is), as the competitions' published metrics take it, e.g.
//! Jigsaw's toxic-comment `np.mean([roc_auc_score(y[:, j], p[:, j]) for j in range(6)])` and MCRMSE
//! (`np.mean(np.sqrt(np.mean((y - p) ** 2, axis=0)))`). Each column's value is in the report as
//! `<metric>[<column>]`.

use super::inputs;
use crate::budget::Budget;
use crate::diag::Diags;
use crate::formats::classification_csv::columns::{self as cols, ColumnsGt, ColumnsSubmission};
use crate::input::FileSet;
use crate::metrics::mean::numpy_mean;
use crate::protocols::UsageError;
use crate::report::{Display, Label, Mode, Report};

crate::choice! {
    /// Option `read_as` of both table families: cells as `pandas.read_csv` reads them (Kaggle's metrics read
    /// both files with it), or as their text.
    pub enum ReadAsOption { Pandas = "pandas", Text = "text" }
}

impl ReadAsOption {
    /// The readers' mode.
    pub fn mode(self) -> crate::formats::pandas_cells::ReadAs {
        match self {
            ReadAsOption::Pandas => crate::formats::pandas_cells::ReadAs::Pandas,
            ReadAsOption::Text => crate::formats::pandas_cells::ReadAs::Text,
        }
    }
}

/// The help text of option `read_as`.
pub const READ_AS_HELP: &str = "how cells are read: pandas (as pandas.read_csv reads them, as Kaggle's metrics do: \
    `00012` and `12` are one integer id, `3.0` is class 3, true/false are booleans, NA/NaN/null/None/empty are \
    missing values) or text (as written)";

/// Scores one column: `(truth, submitted)` → one value per metric.
pub type ColumnScore = dyn Fn(&[f64], &[f64]) -> Vec<Option<f64>> + Sync;

/// Scores one column with sample weights: `(truth, submitted, weights)` → one value per metric.
pub type WeightedScore = dyn Fn(&[f64], &[f64], &[f64]) -> Vec<Option<f64>> + Sync;

/// Scores one column read in place ([`Column`]) → one value per metric, those `Family::score` gives for its
/// values.
pub type InPlaceScore = dyn Fn(&Column) -> Vec<Option<f64>> + Sync;

/// Option `weight_column` of a family whose column metrics take sample weights: the GT's weight column (not a
/// target column) and how a column is scored with it.
pub struct Weights<'a> {
    pub column: &'a str,
    pub score: &'a WeightedScore,
}

/// How a family's columns are scored besides `Family::score` of copies of them: with the GT's weights (when
/// `weights` names a column), or, unweighted, read in place (`in_place`: no copies).
#[derive(Default)]
pub struct Scorers<'a> {
    pub weights: Option<&'a Weights<'a>>,
    pub in_place: Option<&'a InPlaceScore>,
}

/// Column `j` of a GT's and a submission's row-major tables (`width` values a row), the rows whose GT value is
/// not the skipped value (`rows` of them), read in place.
pub struct Column<'a> {
    truth: &'a cols::Cells,
    submitted: &'a [f64],
    width: usize,
    j: usize,
    skip: Option<f64>,
    pub rows: usize,
}

impl<'a> Column<'a> {
    fn new(gt: &'a ColumnsGt, sub: &'a ColumnsSubmission, j: usize, skip: Option<f64>) -> Self {
        let (truth, width) = (&gt.values, gt.names.len());
        let submitted = &sub.values[..];
        let mut c = Column {
            truth,
            submitted,
            width,
            j,
            skip: None,
            rows: 0,
        };
        c.rows = match skip {
            None => c.pairs().count(),
            Some(s) => c.pairs().filter(|&(t, _)| t != s).count(),
        };
        c.skip = skip;
        c
    }

    /// The column's (truth, submitted) pairs, in row order.
    pub fn pairs(&self) -> impl Iterator<Item = (f64, f64)> + Clone + 'a {
        let (t, p, m, j, skip) = (self.truth, self.submitted, self.width, self.j, self.skip);
        let rows = p.len().min(t.len()).checked_div(m).unwrap_or(0);
        let at = move |i: usize| {
            (
                t.get(i * m + j),
                p.get(i * m + j).copied().unwrap_or(f64::NAN),
            )
        };
        (0..rows).map(at).filter(move |&(t, _)| skip != Some(t))
    }
}

/// The per-column metrics of a family and how one column is scored: `(truth, submitted)` → one value per
/// metric id, in the order of `metrics`.
pub struct Family<'a> {
    pub id: &'a str,
    pub title: &'a str,
    pub metrics: &'a [&'a str],
    /// Binary targets (classification): GT values other than 0, 1 and `skip_target` are refused.
    pub binary: bool,
    pub score: &'a ColumnScore,
    /// The family's default leaderboard metric, and what it means here (`mean_roc_auc`, MCRMSE).
    pub default_metric: (&'a str, &'a str),
}

/// The column-wise options, as read by both families.
pub struct Settings<'a> {
    pub targets: Vec<String>,
    pub skip: Option<f64>,
    pub metric: &'a str,
    pub id_column: &'a str,
    /// With a group column: the metrics per group of rows, then their mean (`group_aggregate = mean`).
    pub group_column: &'a str,
    pub delim: u8,
    pub read_as: crate::formats::pandas_cells::ReadAs,
}

/// The score ids of a column-wise run: `mean_<m>` for every metric, and with named target columns,
/// `<m>[<column>]`.
pub fn score_ids(f: &Family, targets: &[String]) -> Vec<String> {
    let mut ids: Vec<String> = f.metrics.iter().map(|m| format!("mean_{m}")).collect();
    for t in targets.iter().filter(|t| *t != "*") {
        ids.extend(f.metrics.iter().map(|m| format!("{m}[{t}]")));
    }
    ids
}

/// The `skip_target` option: empty (no value skipped) or a number.
pub fn skip_value(text: &str) -> Result<Option<f64>, UsageError> {
    match text.trim() {
        "" => Ok(None),
        t => t.parse::<f64>().map(Some).map_err(|_| {
            UsageError(format!(
                "option `skip_target`: expected a number (e.g. -1), found `{t}`"
            ))
        }),
    }
}

/// The leaderboard metric of a column-wise run: a `mean_<m>` or `<m>[<column>]` id; a plain metric id `m` of
/// the family is its mean, `mean_<m>`, and the family's default metric is the column-wise default.
pub fn leaderboard_metric(f: &Family, s: &Settings) -> Result<String, UsageError> {
    if s.metric == f.default_metric.0 {
        return Ok(f.default_metric.1.to_string());
    }
    if f.metrics.contains(&s.metric) {
        return Ok(format!("mean_{}", s.metric));
    }
    check_metric(f, s).map(|_| s.metric.to_string())
}

/// Checks the leaderboard metric of a column-wise run: a `mean_<m>` or `<m>[<column>]` id.
fn check_metric(f: &Family, s: &Settings) -> Result<(), UsageError> {
    let ids = score_ids(f, &s.targets);
    let open = s.targets == ["*"] || !s.group_column.is_empty();
    let per_column = f
        .metrics
        .iter()
        .any(|m| s.metric.starts_with(&format!("{m}[")) && s.metric.ends_with(']') && open);
    if ids.iter().any(|i| i == s.metric) || per_column {
        return Ok(());
    }
    Err(UsageError(format!(
        "option `metric`: `{}` is not a column-wise {} metric; known: {}",
        s.metric,
        f.id,
        ids.join(", ")
    )))
}

/// Scores a GT and a submission of target columns.
pub fn run(
    f: &Family,
    s: &Settings,
    files: &FileSet,
    budget: Budget,
    mode: Mode,
    diags: &mut Diags,
) -> Result<Report, UsageError> {
    run_weighted(f, s, &Scorers::default(), files, budget, mode, diags)
}

/// [`run`], each row weighted by the GT's weight column when `scorers.weights` names one, columns read in
/// place when `scorers.in_place` can score them.
pub fn run_weighted(
    f: &Family,
    s: &Settings,
    scorers: &Scorers,
    files: &FileSet,
    budget: Budget,
    mode: Mode,
    diags: &mut Diags,
) -> Result<Report, UsageError> {
    let weights = scorers.weights;
    let metric = leaderboard_metric(f, s)?;
    let metric = metric.as_str();
    let mut report = Report::new(f.id, mode);
    if mode == Mode::Corrected {
        diags.push(inputs::corrected_note(f.id));
    }
    report.scores.set(metric, None);
    report.display = display(f, metric, &[]);
    let Some((gt_e, pred_e)) = inputs::pick(f.id, files, diags) else {
        return Ok(report);
    };
    let wanted: Vec<String> = s.targets.iter().filter(|t| *t != "*").cloned().collect();
    let gt = inputs::read_entry(gt_e, diags, |r, diags| {
        let opts = cols::GtColumns {
            id: s.id_column,
            targets: wanted.as_slice(),
            group: s.group_column,
            weight: weights.map_or("", |w| w.column),
            read_as: s.read_as,
        };
        cols::read_gt(f.id, &gt_e.path, r, gt_e.size, s.delim, opts, budget, diags)
    });
    let Some(mut gt) = gt else { return Ok(report) };
    let sub = inputs::read_entry(pred_e, diags, |r, diags| {
        cols::read_submission(f.id, &gt, &pred_e.path, r, s.delim, s.id_column, diags)
    });
    let Some(sub) = sub else { return Ok(report) };
    gt.ids.done_finding();
    let missing = crate::formats::id_index::missing(&sub.seen);
    inputs::missing_ids(f.id, &gt.file, &gt.ids, &gt.lines, &missing, false, diags);
    if f.binary {
        check_binary(f, &gt, s.skip, diags);
    }
    if !gt.group_names.is_empty() && gt.names.len() != 1 {
        return Err(UsageError(format!(
            "option `group_column`: the metrics per group read one target column; the GT has {} ({}): name \
             one with `label_column` or `target_columns`",
            gt.names.len(),
            gt.names.join(", ")
        )));
    }
    let blocked = diags.has_errors();
    let scores = if gt.group_names.is_empty() {
        let in_place = scorers.in_place.filter(|_| gt.weights.is_empty());
        let weighted = weights.map(|w| w.score);
        score_columns(f, (&gt, &sub), s.skip, (weighted, in_place))
    } else {
        score_groups(f, &gt, &sub, s.skip)
    };
    let names: Vec<String> = scores.iter().map(|(k, _)| k.clone()).collect();
    for (k, v) in scores {
        report.scores.set(&k, v.filter(|_| !blocked));
    }
    report.display = display(f, metric, &names);
    Ok(report)
}

/// A located error for the first GT cell of each target column that is not 0, 1 or the skipped value (the
/// table read once, row after row).
fn check_binary(f: &Family, gt: &ColumnsGt, skip: Option<f64>, diags: &mut Diags) {
    let m = gt.names.len();
    let ok = |v: f64| v == 0.0 || v == 1.0 || v.is_nan() || Some(v) == skip;
    let mut first: Vec<Option<usize>> = vec![None; m];
    for i in 0..gt.values.len() / m.max(1) {
        if (0..m).all(|j| ok(gt.values.get(i * m + j))) {
            continue;
        }
        for (j, f) in first.iter_mut().enumerate() {
            if !ok(gt.values.get(i * m + j)) && f.is_none() {
                *f = Some(i);
            }
        }
        if first.iter().all(Option::is_some) {
            break;
        }
    }
    for (j, i) in first.into_iter().enumerate() {
        if let Some(i) = i {
            diags.push(cols::not_binary(f.id, gt, i, j, gt.values.get(i * m + j)));
        }
    }
}

/// Every column's metrics (`<m>[<column>]`) and their means (`mean_<m>`), means first.
fn score_columns(
    f: &Family,
    (gt, sub): (&ColumnsGt, &ColumnsSubmission),
    skip: Option<f64>,
    (weighted, in_place): (Option<&WeightedScore>, Option<&InPlaceScore>),
) -> Vec<(String, Option<f64>)> {
    let m = gt.names.len();
    // Each worker's column buffers are kept from column to column (fresh pages cost more than the copy).
    let per: Vec<Vec<Option<f64>>> = crate::par::map(
        m,
        <(Vec<f64>, Vec<f64>, Vec<f64>)>::default,
        |(t, p, w), j| {
            if let Some(score) = in_place {
                return score(&Column::new(gt, sub, j, skip));
            }
            t.clear();
            p.clear();
            w.clear();
            let kept = |i: &usize| skip.is_none_or(|v| gt.values.get(i * m + j) != v);
            for i in (0..gt.lines.len()).filter(kept) {
                t.push(gt.values.get(i * m + j));
                p.push(sub.values[i * m + j]);
                if let Some(&wi) = gt.weights.get(i) {
                    w.push(wi);
                }
            }
            match weighted {
                Some(score) if w.len() == t.len() => score(t, p, w),
                _ => (f.score)(t, p),
            }
        },
    );
    let mut out = Vec::new();
    for (k, id) in f.metrics.iter().enumerate() {
        let values: Option<Vec<f64>> = per.iter().map(|v| v[k]).collect();
        out.push((format!("mean_{id}"), values.and_then(|v| numpy_mean(&v))));
    }
    for (j, name) in gt.names.iter().enumerate() {
        for (k, id) in f.metrics.iter().enumerate() {
            out.push((format!("{id}[{name}]"), per[j][k]));
        }
    }
    out
}

/// Every group's metrics (`<m>[<group>]`, groups in code-point order, as pandas' `groupby` sorts them) and
/// their means (`mean_<m>`), means first: Kaggle's grouped metrics, e.g. the CHAMPS molecular-properties
/// metric `np.log(maes.map(lambda x: max(x, 1e-9))).mean()` over `(y_true - y_pred).abs().groupby(types).mean()`
/// is `mean_log_mean_absolute_error`.
fn score_groups(
    f: &Family,
    gt: &ColumnsGt,
    sub: &ColumnsSubmission,
    skip: Option<f64>,
) -> Vec<(String, Option<f64>)> {
    let (t, p) = (gt.column(0), sub.column(0, 1));
    let mut order: Vec<usize> = (0..gt.group_names.len()).collect();
    order.sort_by(|&a, &b| gt.group_names[a].cmp(&gt.group_names[b]));
    let mut rows: Vec<Vec<usize>> = vec![Vec::new(); gt.group_names.len()];
    for (i, &g) in gt.groups.iter().enumerate() {
        if Some(t[i]) != skip {
            rows[g as usize].push(i);
        }
    }
    let per: Vec<Vec<Option<f64>>> = crate::par::map(
        order.len(),
        || (),
        |_, k| {
            let r = &rows[order[k]];
            let tg: Vec<f64> = r.iter().map(|&i| t[i]).collect();
            let pg: Vec<f64> = r.iter().map(|&i| p[i]).collect();
            (f.score)(&tg, &pg)
        },
    );
    let names: Vec<&String> = order.iter().map(|&g| &gt.group_names[g]).collect();
    means_then_parts(f, &per, &names)
}

/// `mean_<m>` (`np.mean` of the parts' values, null when one is) for every metric, then `<m>[<part>]`.
fn means_then_parts(
    f: &Family,
    per: &[Vec<Option<f64>>],
    names: &[&String],
) -> Vec<(String, Option<f64>)> {
    let mut out = Vec::new();
    for (k, id) in f.metrics.iter().enumerate() {
        let values: Option<Vec<f64>> = per.iter().map(|v| v[k]).collect();
        out.push((format!("mean_{id}"), values.and_then(|v| numpy_mean(&v))));
    }
    for (j, name) in names.iter().enumerate() {
        for (k, id) in f.metrics.iter().enumerate() {
            out.push((format!("{id}[{name}]"), per[j][k]));
        }
    }
    out
}

fn display(f: &Family, metric: &str, computed: &[String]) -> Display {
    let label = |id: &str| Label {
        id: id.into(),
        label: id.into(),
        decimals: 5,
    };
    let mut headline = vec![label(metric)];
    headline.extend(computed.iter().filter(|m| *m != metric).map(|m| label(m)));
    Display {
        title: f.title.into(),
        headline,
        item_label: "id".into(),
        columns: Vec::new(),
        footer: String::new(),
    }
}
