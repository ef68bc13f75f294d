//! Single competitions' formulas over number columns, one row per id on each side: KL divergence over
//! probability columns (HMS), weighted multi-label log loss (RSNA Intracranial Hemorrhage), lwlrap (Freesound
//! Audio Tagging 2019), probabilistic F-beta (RSNA Breast Cancer), weighted ROC AUC (ALASKA2), haversine
//! distance with per-phone percentiles (Google Smartphone Decimeter), angular error (IceCube), Laplace log
//! likelihood (OSIC). The formulas are in `metrics::kaggle::{probability, curves, geometry}`; this file reads
//! the columns (numbers as `pandas.read_csv` reads them), refuses what the published code refuses, with the row
//! and the column, and sums as the published code sums.

use super::inputs;
use super::lists::Scored;
use super::KaggleOptions;
use crate::diag::{excerpt, Diagnostic, Diags};
use crate::formats::csv_records::Row;
use crate::formats::kaggle_csv::{At, Columns, Table, FAMILY};
use crate::formats::pandas_cells;
use crate::input::Entry;
use crate::metrics::kaggle::{curves, geometry, probability};
use crate::metrics::mean::numpy_mean;
use crate::protocols::UsageError;

/// The bootstrap's units of these metrics (a child module: it reads the files again as [`score`] does).
#[path = "units_formulas.rs"]
pub mod units;

/// The metrics of this file.
pub const FORMULAS: &[&str] = &[
    "kl_divergence",
    "weighted_log_loss",
    "lwlrap",
    "pfbeta",
    "weighted_auc",
    "haversine",
    "angular_error",
    "laplace_log_likelihood",
];

/// The per-id column of each metric in the report's rows (key, label).
pub fn row_column(metric: &str) -> Option<(&'static str, &'static str)> {
    Some(match metric {
        "kl_divergence" => ("kl_divergence", "KL divergence"),
        "weighted_log_loss" => ("log_loss", "weighted log loss"),
        "lwlrap" => ("lrap", "LRAP"),
        "haversine" => ("distance_m", "distance (m)"),
        "angular_error" => ("angular_error", "angular error (rad)"),
        "laplace_log_likelihood" => ("laplace", "Laplace log likelihood"),
        _ => return None,
    })
}

/// Which solution columns a metric reads.
#[derive(Clone, Debug)]
enum Want {
    /// Every column besides the id, `Usage` and the group column.
    All,
    /// The first column besides the id and `Usage`.
    First,
    Named(Vec<String>),
}

/// What the cells of a side must be (as the published code or the library it calls refuses otherwise).
#[derive(Clone, Copy, PartialEq)]
enum Check {
    Finite,
    /// 0 ≤ x ≤ 1, and each row sums to 1 (Kaggle's `verify_valid_probabilities`).
    Probabilities,
    /// 0 or 1 (scikit-learn's binary and multilabel-indicator targets).
    Binary,
}

/// What a metric reads: the solution's columns, the submission's extra columns (after the solution's),
/// the group column (solution), and the checks of both sides.
struct Plan {
    want: Want,
    /// The submission's columns beyond the solution's (OSIC's `Confidence`).
    sub_extra: Vec<String>,
    group: Option<String>,
    gt: Check,
    sub: Check,
}

fn named(opts: &KaggleOptions, default: &[&str]) -> Want {
    let items = opts.columns.items();
    Want::Named(if items.is_empty() {
        default.iter().map(|s| s.to_string()).collect()
    } else {
        items
    })
}

fn plan(opts: &KaggleOptions) -> Result<Plan, UsageError> {
    let many = || match opts.columns.items() {
        v if v.is_empty() => Want::All,
        v => Want::Named(v),
    };
    let one = || match opts.column.as_str() {
        "" => Want::First,
        c => Want::Named(vec![c.to_string()]),
    };
    let p = |want, gt, sub| Plan {
        want,
        sub_extra: Vec::new(),
        group: None,
        gt,
        sub,
    };
    use Check::*;
    Ok(match opts.metric.as_str() {
        "kl_divergence" => p(many(), Probabilities, Probabilities),
        "weighted_log_loss" => p(many(), Binary, Finite),
        "lwlrap" => p(many(), Binary, Finite),
        "pfbeta" => p(one(), Finite, Finite),
        "weighted_auc" => p(one(), Binary, Finite),
        "angular_error" => p(named(opts, &["azimuth", "zenith"]), Finite, Finite),
        "haversine" => {
            let mut plan = p(named(opts, &["latDeg", "lngDeg"]), Finite, Finite);
            plan.group = Some(match opts.group_column.as_str() {
                "" => "phone".to_string(),
                g => g.to_string(),
            });
            plan
        }
        "laplace_log_likelihood" => {
            let cols = match named(opts, &["FVC", "Confidence"]) {
                Want::Named(cols) => cols,
                _ => Vec::new(),
            };
            let [value, confidence] = cols.as_slice() else {
                return Err(UsageError(
                    "option `columns`: laplace_log_likelihood reads two columns, the value and the \
                     confidence (e.g. `FVC,Confidence`)"
                        .into(),
                ));
            };
            let mut plan = p(Want::Named(vec![value.clone()]), Finite, Finite);
            plan.sub_extra = vec![confidence.clone()];
            plan
        }
        other => return Err(UsageError(format!("`{other}` is not a formula metric"))),
    })
}

/// A number option list (`weights`, `tpr_thresholds`), or `default` when empty.
fn numbers(text: &str, name: &str, default: &[f64]) -> Result<Vec<f64>, UsageError> {
    if text.trim().is_empty() {
        return Ok(default.to_vec());
    }
    text.split(',')
        .map(|s| s.trim().parse::<f64>().ok().filter(|v| v.is_finite()))
        .collect::<Option<Vec<f64>>>()
        .ok_or_else(|| {
            UsageError(format!(
                "option `{name}`: expected comma-separated numbers, found `{text}`"
            ))
        })
}

/// One row's numbers (in the plan's column order) and its group.
pub struct Cells {
    v: Vec<f64>,
    group: String,
}

/// The columns of a side, resolved against its header: the indices (numbers, then the group), or the first
/// name the header lacks.
fn resolve(
    header: &[String],
    id: usize,
    want: &Want,
    group: Option<&str>,
) -> Result<(Vec<usize>, Option<usize>), String> {
    let find = |name: &str| {
        header
            .iter()
            .position(|h| h == name)
            .ok_or(name.to_string())
    };
    let group_at = group.map(find).transpose()?;
    let other =
        |i: &usize| *i != id && !header[*i].eq_ignore_ascii_case("usage") && Some(*i) != group_at;
    let cols = match want {
        Want::All => (0..header.len()).filter(other).collect(),
        Want::First => (0..header.len()).filter(other).take(1).collect(),
        Want::Named(names) => names.iter().map(|n| find(n)).collect::<Result<_, _>>()?,
    };
    Ok((cols, group_at))
}

/// A number cell as pandas reads it (`True`/`False` are 1 and 0; NaN strings and text are refused, located).
fn number(file: &str, row: &Row, at: &At, col: usize, diags: &mut Diags) -> Option<f64> {
    let s = row.get(col).trim_matches(' ');
    if let Some(b) = pandas_cells::boolean(s) {
        return Some(if b { 1.0 } else { 0.0 });
    }
    if let Some(v) = s.parse::<f64>().ok().filter(|v| v.is_finite()) {
        return Some(v);
    }
    let message = if pandas_cells::is_na(s) || s.eq_ignore_ascii_case("nan") {
        format!(
            "`{}` is a missing value: pandas reads it as NaN",
            excerpt(s)
        )
    } else {
        format!("`{}` is not a finite number", excerpt(s))
    };
    diags.push(
        inputs::cell_error(file, row, at, col, "not_a_number", message)
            .expected("a finite decimal number")
            .hint("Write a finite number in every value cell."),
    );
    None
}

/// What one side's read takes: the columns, the extra ones after them, the group column, the check.
struct Side<'a> {
    want: &'a Want,
    extra: &'a [String],
    group: Option<&'a str>,
    check: Check,
}

/// The resolved columns (numbers, then the group), or `Err` once the missing one was reported.
type Resolved = Result<(Vec<usize>, Option<usize>), ()>;

/// The solution's ids in order, each with its solution and submission cells.
type Rows = (Vec<String>, Vec<(Cells, Cells)>);

/// Reads one side: the row's numbers of `want`'s columns then `extra`, checked as `check` says.
fn read_side(
    entry: &Entry,
    delim: u8,
    opts: &KaggleOptions,
    side: Side,
    diags: &mut Diags,
) -> Option<(Table<Cells>, Vec<String>)> {
    let Side {
        want,
        extra,
        group,
        check,
    } = side;
    let first = match want {
        Want::Named(n) => n[0].as_str(),
        _ => opts.column.as_str(),
    };
    let columns = Columns {
        id: &opts.id_column,
        value: first,
        value_option: if matches!(want, Want::Named(_)) && opts.column.is_empty() {
            "columns"
        } else {
            "column"
        },
        extra: &[],
    };
    let file = entry.path.clone();
    let mut at_cols: Option<Resolved> = None;
    let mut names = Vec::new();
    let mut parse = |r: &Row, at: &At, diags: &mut Diags| -> Option<Cells> {
        let resolved = at_cols.get_or_insert_with(|| {
            let mut w = want.clone();
            if let Want::Named(n) = &mut w {
                n.extend(extra.iter().cloned());
            }
            match resolve(at.header, at.id, &w, group) {
                Ok(c) => {
                    names = c.0.iter().map(|&i| at.header[i].clone()).collect();
                    Ok(c)
                }
                Err(missing) => {
                    let option = if Some(missing.as_str()) == group {
                        "group_column"
                    } else {
                        "columns"
                    };
                    diags.push(crate::formats::id_csv::missing_column(
                        FAMILY, &file, at.header, &missing, option,
                    ));
                    Err(())
                }
            }
        });
        let (cols, group_at) = resolved.as_ref().ok()?;
        let mut v = Vec::with_capacity(cols.len());
        let mut ok = true;
        for &c in cols {
            match number(&file, r, at, c, diags) {
                Some(x) => {
                    ok &= in_range(&file, r, at, c, x, check, diags);
                    v.push(x);
                }
                None => ok = false,
            }
        }
        if ok && check == Check::Probabilities {
            ok = sums_to_one(&file, r, at, cols, &v, diags);
        }
        let group = group_at.map_or(String::new(), |g| r.get(g).to_string());
        ok.then_some(Cells { v, group })
    };
    let table = inputs::read(entry, delim, &columns, diags, &mut parse)?;
    Some((table, names))
}

/// Refuses a cell outside what `check` allows, with its row and column.
fn in_range(
    file: &str,
    r: &Row,
    at: &At,
    col: usize,
    x: f64,
    check: Check,
    diags: &mut Diags,
) -> bool {
    let (ok, what, message) = match check {
        Check::Finite => return true,
        Check::Probabilities if x < 0.0 => {
            (false, "out_of_range", "a probability is at least zero")
        }
        Check::Probabilities if x > 1.0 => (
            false,
            "out_of_range",
            "a probability is no greater than one",
        ),
        Check::Binary if x != 0.0 && x != 1.0 => (false, "not_binary", "a label is 0 or 1"),
        _ => (true, "", ""),
    };
    if !ok {
        diags.push(
            inputs::cell_error(
                file,
                r,
                at,
                col,
                what,
                format!("`{}` is out of range: {message}", excerpt(r.get(col))),
            )
            .hint("Correct the value (the competition's metric refuses it)."),
        );
    }
    ok
}

/// Kaggle's `np.allclose(df.sum(axis=1), 1)`: the row's sum (left to right) within 1e-8 + 1e-5 of 1.
fn sums_to_one(file: &str, r: &Row, at: &At, cols: &[usize], v: &[f64], diags: &mut Diags) -> bool {
    let sum = v.iter().fold(0.0, |a, b| a + b);
    if (sum - 1.0).abs() <= 1e-8 + 1e-5 {
        return true;
    }
    let names: Vec<String> = cols
        .iter()
        .map(|&c| format!("`{}`", excerpt(&at.header[c])))
        .collect();
    diags.push(
        Diagnostic::error(
            &format!("{FAMILY}.row_sum"),
            format!(
                "row {} (id `{}`), columns {}: the probabilities add to {sum}, not to one",
                r.line.saturating_sub(1),
                excerpt(r.get(at.id)),
                names.join(", ")
            ),
        )
        .file(file)
        .line(r.line)
        .expected("a row of probabilities that add to one (within 1e-5)")
        .hint("Normalize each row's probabilities so that they add to one."),
    );
    false
}

/// The solution's ids in order and each id's solution and submission cells, or `None` (errors pushed).
fn read_both(
    gt_e: &Entry,
    pred_e: &Entry,
    opts: &KaggleOptions,
    delim: u8,
    plan: &Plan,
    diags: &mut Diags,
) -> Option<Rows> {
    let gt_side = Side {
        want: &plan.want,
        extra: &[],
        group: plan.group.as_deref(),
        check: plan.gt,
    };
    let (mut gt, names) = read_side(gt_e, delim, opts, gt_side, diags)?;
    // The submission has the solution's columns (the ones read, by name), then the extra ones.
    let want = if names.is_empty() {
        plan.want.clone()
    } else {
        Want::Named(names)
    };
    let sub_side = Side {
        want: &want,
        extra: &plan.sub_extra,
        group: None,
        check: plan.sub,
    };
    let (mut sub, _) = read_side(pred_e, delim, opts, sub_side, diags)?;
    let m = inputs::matched_as(&gt, &sub, false, opts.read_as.mode(), diags);
    Some(inputs::one_each(&mut gt, &mut sub, &m))
}

/// The metric's options, checked before the files are read.
pub struct Settings {
    plan: Plan,
    epsilon: f64,
    beta: f64,
    weights: Vec<f64>,
    thresholds: Vec<f64>,
}

/// Checks the options of a formula metric.
pub fn settings(opts: &KaggleOptions, beta: f64) -> Result<Settings, UsageError> {
    let plan = plan(opts)?;
    let epsilon = opts
        .epsilon
        .filter(|e| (0.0..0.5).contains(e))
        .ok_or_else(|| UsageError("option `epsilon`: expected a number from 0 to 0.5".into()))?;
    let auc = opts.metric == "weighted_auc";
    let weights = numbers(
        &opts.weights.0,
        "weights",
        if auc { &[2.0, 1.0] } else { &[] },
    )?;
    let thresholds = numbers(&opts.tpr_thresholds.0, "tpr_thresholds", &[0.0, 0.4, 1.0])?;
    if auc {
        let increasing = thresholds.windows(2).all(|w| w[0] < w[1]);
        if thresholds.len() != weights.len() + 1 || !increasing || weights.is_empty() {
            return Err(UsageError(
                "options `tpr_thresholds`, `weights`: weighted_auc takes n + 1 increasing true-positive rates \
                 and n weights (ALASKA2's `0,0.4,1` and `2,1`)"
                    .into(),
            ));
        }
    }
    if weights.iter().any(|w| *w < 0.0)
        || (!weights.is_empty() && weights.iter().sum::<f64>() <= 0.0)
    {
        return Err(UsageError(
            "option `weights`: expected weights of at least 0, not all 0".into(),
        ));
    }
    Ok(Settings {
        plan,
        epsilon,
        beta,
        weights,
        thresholds,
    })
}

/// Scores one solution and one submission with the formula metric `opts.metric`.
pub fn score(
    gt: &Entry,
    pred: &Entry,
    opts: &KaggleOptions,
    delim: u8,
    s: &Settings,
    diags: &mut Diags,
) -> Option<Scored> {
    let (ids, pairs) = read_both(gt, pred, opts, delim, &s.plan, diags)?;
    let metric = opts.metric.as_str();
    let width = pairs.first().map_or(0, |(t, _)| t.v.len());
    if metric == "weighted_log_loss" && !s.weights.is_empty() && s.weights.len() != width {
        diags.push(
            Diagnostic::error(
                &format!("{FAMILY}.weights"),
                format!(
                    "option `weights` gives {} weights for {width} columns",
                    s.weights.len()
                ),
            )
            .file(&gt.path)
            .hint("Give one weight per target column, in the solution's column order."),
        );
        return None;
    }
    let (row, score) = compute(metric, &pairs, s);
    let mut columns = Vec::new();
    if let (Some((key, _)), Some(row)) = (row_column(metric), row) {
        columns.push((key, row));
    }
    let id = FORMULAS
        .iter()
        .copied()
        .find(|m| *m == metric)
        .unwrap_or("kl_divergence");
    Some(Scored {
        ids: super::lists::id_table(&ids),
        columns,
        scores: vec![(id, score)],
    })
}

/// The per-row values (where the metric has them) and the score.
fn compute(
    metric: &str,
    pairs: &[(Cells, Cells)],
    s: &Settings,
) -> (Option<Vec<f64>>, Option<f64>) {
    let rows = |f: &dyn Fn(&Cells, &Cells) -> f64| -> Vec<f64> {
        pairs.iter().map(|(t, p)| f(t, p)).collect()
    };
    match metric {
        "kl_divergence" => {
            let r = rows(&|t, p| probability::kl_row(&t.v, &p.v, s.epsilon));
            let m = numpy_mean(&r);
            (Some(r), m)
        }
        "weighted_log_loss" => {
            let ones;
            let w = if s.weights.is_empty() {
                ones = vec![1.0; pairs.first().map_or(0, |(t, _)| t.v.len())];
                &ones
            } else {
                &s.weights
            };
            let r = rows(&|t, p| probability::log_loss_row(&t.v, &p.v, w, s.epsilon));
            let m = numpy_mean(&r);
            (Some(r), m)
        }
        "lwlrap" => {
            let both: Vec<(f64, f64)> = pairs
                .iter()
                .map(|(t, p)| probability::lrap_row(&t.v, &p.v))
                .collect();
            (
                Some(both.iter().map(|b| b.0).collect()),
                probability::lwlrap(&both),
            )
        }
        "pfbeta" => {
            let (l, p): (Vec<f64>, Vec<f64>) = pairs.iter().map(|(t, p)| (t.v[0], p.v[0])).unzip();
            (None, probability::pfbeta(&l, &p, s.beta))
        }
        "weighted_auc" => {
            let (l, p): (Vec<bool>, Vec<f64>) =
                pairs.iter().map(|(t, p)| (t.v[0] == 1.0, p.v[0])).unzip();
            (
                None,
                curves::weighted_auc(&l, &p, &s.thresholds, &s.weights),
            )
        }
        "haversine" => haversine(pairs),
        "angular_error" => {
            let r = rows(&|t, p| geometry::angular_error(t.v[0], t.v[1], p.v[0], p.v[1]));
            let m = numpy_mean(&r);
            (Some(r), m)
        }
        _ => {
            let r = rows(&|t, p| geometry::laplace_row(t.v[0], p.v[0], p.v[1], 70.0, 1000.0));
            let m = numpy_mean(&r);
            (Some(r), m)
        }
    }
}

/// The Google Smartphone Decimeter Challenge's score: each fix's haversine error, per phone (groups in
/// sorted order, as pandas' `groupby`) the mean of its 50th and 95th percentile errors, the phones' mean.
fn haversine(pairs: &[(Cells, Cells)]) -> (Option<Vec<f64>>, Option<f64>) {
    const RADIUS: f64 = 6_367_000.0;
    let r: Vec<f64> = pairs
        .iter()
        .map(|(t, p)| geometry::haversine(t.v[0], t.v[1], p.v[0], p.v[1], RADIUS))
        .collect();
    let mut phones: std::collections::BTreeMap<&str, Vec<f64>> = Default::default();
    for ((t, _), d) in pairs.iter().zip(&r) {
        phones.entry(t.group.as_str()).or_default().push(*d);
    }
    let scores: Vec<f64> = phones
        .values_mut()
        .map(|errors| geometry::phone_score(errors, &[50.0, 95.0]))
        .collect();
    let m = numpy_mean(&scores);
    (Some(r), m)
}
