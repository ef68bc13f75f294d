//! Leaderboards with uncertainty (docs/specs/statistics.md section 5): N submissions on one ground truth, the
//! same bootstrap draws for all; each submission's metric and percentile interval, its rank interval (the
//! percentiles of its rank over the replicates) and groups that the paired randomization test does not
//! separate (Holm-corrected p-values against the group's best).
//!
//! Ranks: a replicate ranks a submission 1 + the number of submissions strictly better on it (ties, within
//! 1e-12 relative, share the better rank); an undefined value ranks last. Groups, in leaderboard order: the best
//! submission not yet grouped leads a group; every other ungrouped submission whose Holm-adjusted p-value against
//! it (over the ungrouped ones) is at least 1 − confidence joins it; repeat until every submission is grouped.

use super::contract_compare::{compare, CompareSettings};
use crate::report::Report;
use crate::stats::interval::{holm, interval, nearly_equal};
use crate::stats::summary::percentile;
use crate::stats::units::each_replicate;
use serde::Serialize;

/// One row of the leaderboard.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ranked {
    /// The submission's name as given.
    pub submission: String,
    pub value: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
    pub se: Option<f64>,
    /// 1-based rank on the full set (ties share the better rank).
    pub rank: u64,
    pub rank_low: Option<f64>,
    pub rank_high: Option<f64>,
    /// 1-based group; the first holds the best submission.
    pub group: u64,
    /// Randomization p-value against the leader of its group (`None` for a leader), raw and Holm-adjusted.
    pub p_value: Option<f64>,
    pub p_holm: Option<f64>,
}

/// The leaderboard: the metric, its direction and the rows in leaderboard order.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Leaderboard {
    pub metric: String,
    pub lower_is_better: bool,
    pub rows: Vec<Ranked>,
}

/// Whether `a` is strictly better than `b` (undefined is worst).
fn better(a: Option<f64>, b: Option<f64>, lower: bool) -> bool {
    match (a, b) {
        (Some(x), Some(y)) => !nearly_equal(x, y) && ((x < y) == lower),
        (Some(_), None) => true,
        _ => false,
    }
}

fn ranks(values: &[Option<f64>], lower: bool) -> Vec<u64> {
    values
        .iter()
        .map(|&v| 1 + values.iter().filter(|&&o| better(o, v, lower)).count() as u64)
        .collect()
}

/// Ranks `reports` (one per submission, `names` in the same order) on `metric`.
pub fn rank(
    reports: &[Report],
    names: &[String],
    metric: &str,
    s: &CompareSettings,
) -> Result<Leaderboard, String> {
    let units: Vec<_> = reports
        .iter()
        .map(|r| r.units.0.clone())
        .collect::<Option<Vec<_>>>()
        .ok_or("no interval: a submission was not scored (see its diagnostics), or the protocol has no units")?;
    let first = units.first().ok_or("no submission")?;
    if units.iter().any(|u| u.sizes != first.sizes) {
        return Err("the submissions were not scored on the same units".into());
    }
    let lower = first.replicate.lower_is_better(metric);
    let index: Vec<Option<usize>> = units
        .iter()
        .map(|u| u.replicate.metrics().iter().position(|m| m == metric))
        .collect();
    // The same draws for every submission: replicate r's value of each.
    let per_replicate: Vec<Vec<Option<f64>>> = each_replicate(first, &s.bootstrap, |w| {
        units
            .iter()
            .zip(&index)
            .map(|(u, i)| i.and_then(|i| u.replicate.values(w).get(i).copied().flatten()))
            .collect()
    });
    let full: Vec<Option<f64>> = reports.iter().map(|r| r.scores.get(metric)).collect();
    let full_rank = ranks(&full, lower);
    let n = reports.len();
    let mut replicate_ranks: Vec<Vec<f64>> = vec![Vec::with_capacity(per_replicate.len()); n];
    for v in &per_replicate {
        for (k, r) in ranks(v, lower).into_iter().enumerate() {
            replicate_ranks[k].push(r as f64);
        }
    }
    let c = s.bootstrap.confidence;
    let mut rows: Vec<Ranked> = (0..n)
        .map(|k| {
            let column: Vec<Option<f64>> = per_replicate
                .iter()
                .map(|v| v[k].filter(|x| x.is_finite()))
                .collect();
            let iv = interval(&column, c);
            let mut sorted = std::mem::take(&mut replicate_ranks[k]);
            sorted.sort_by(f64::total_cmp);
            Ranked {
                submission: names.get(k).cloned().unwrap_or_default(),
                value: full[k],
                low: iv.low,
                high: iv.high,
                se: iv.se,
                rank: full_rank[k],
                rank_low: percentile(&sorted, 100.0 * (1.0 - c) / 2.0),
                rank_high: percentile(&sorted, 100.0 * (1.0 + c) / 2.0),
                group: 0,
                p_value: None,
                p_holm: None,
            }
        })
        .collect();
    groups(reports, &mut rows, metric, s)?;
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&k| (rows[k].rank, k));
    let rows = order.into_iter().map(|k| rows[k].clone()).collect();
    Ok(Leaderboard {
        metric: metric.to_string(),
        lower_is_better: lower,
        rows,
    })
}

/// Assigns groups (see the module documentation).
fn groups(
    reports: &[Report],
    rows: &mut [Ranked],
    metric: &str,
    s: &CompareSettings,
) -> Result<(), String> {
    let mut left: Vec<usize> = (0..rows.len()).collect();
    left.sort_by_key(|&k| (rows[k].rank, k));
    let mut group = 0;
    let alpha = 1.0 - s.bootstrap.confidence;
    while let Some((&leader, rest)) = left.split_first() {
        group += 1;
        rows[leader].group = group;
        let mut p = Vec::with_capacity(rest.len());
        for &k in rest {
            let c = compare(&reports[leader], &reports[k], &[metric.to_string()], s)?;
            let c = c.first();
            p.push(
                c.and_then(|c| c.p_randomization.or(c.p_bootstrap))
                    .unwrap_or(0.0),
            );
        }
        let adjusted = holm(&p);
        let mut next = Vec::new();
        for (j, &k) in rest.iter().enumerate() {
            if adjusted[j] >= alpha {
                rows[k].group = group;
                rows[k].p_value = Some(p[j]);
                rows[k].p_holm = Some(adjusted[j]);
            } else {
                next.push(k);
            }
        }
        left = next;
    }
    Ok(())
}
