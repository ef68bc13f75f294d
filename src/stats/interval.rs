//! Summaries of replicate values (docs/specs/statistics.md sections 2 and 3): the percentile interval with its
//! standard error and the count of undefined replicates, and the paired comparison's p-values.

use super::summary::{percentile_interval, std_ddof1};

/// More than this fraction of undefined replicates makes an interval null.
pub const MAX_LEFT_OUT: f64 = 0.05;

/// An interval over B replicates; `low`, `high` and `se` are None when it is null.
#[derive(Clone, Debug, PartialEq)]
pub struct Interval {
    pub low: Option<f64>,
    pub high: Option<f64>,
    pub se: Option<f64>,
    /// Replicates where the metric was undefined, left out.
    pub left_out: usize,
}

/// The interval of `values` (one per replicate, None where the metric is undefined) at `confidence`:
/// `numpy.percentile(defined, [100·(1−c)/2, 100·(1+c)/2])` and `numpy.std(defined, ddof=1)`; null when more
/// than 5 % of the replicates are left out.
pub fn interval(values: &[Option<f64>], confidence: f64) -> Interval {
    let defined: Vec<f64> = values.iter().flatten().copied().collect();
    let left_out = values.len() - defined.len();
    let null = Interval {
        low: None,
        high: None,
        se: None,
        left_out,
    };
    if defined.is_empty() || left_out as f64 > MAX_LEFT_OUT * values.len() as f64 {
        return null;
    }
    match percentile_interval(&defined, confidence) {
        Some((low, high)) => Interval {
            low: Some(low),
            high: Some(high),
            se: std_ddof1(&defined),
            left_out,
        },
        None => null,
    }
}

/// Two metric values within 1e-12 relative of each other count as equal (so a summation order cannot change a
/// p-value).
pub fn nearly_equal(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= 1e-12 * a.abs().max(b.abs())
}

/// The paired bootstrap p-value: the fraction of replicates (a_r, b_r) in which A − B has the other sign than
/// on the full set, a tie counting one half. 1 when the full set itself is a tie.
pub fn p_bootstrap(full: (f64, f64), replicates: &[(f64, f64)]) -> Option<f64> {
    if replicates.is_empty() {
        return None;
    }
    if nearly_equal(full.0, full.1) {
        return Some(1.0);
    }
    let positive = full.0 > full.1;
    let against: f64 = replicates
        .iter()
        .map(|&(a, b)| match () {
            _ if nearly_equal(a, b) => 0.5,
            _ if (a > b) != positive => 1.0,
            _ => 0.0,
        })
        .sum();
    Some(against / replicates.len() as f64)
}

/// The approximate randomization p-value: (1 + #{rounds with |Δ_j| ≥ |Δ|}) / (1 + R), "≥" within 1e-12
/// relative.
pub fn p_randomization(delta: f64, round_deltas: &[f64]) -> f64 {
    let d = delta.abs();
    let at_least = round_deltas
        .iter()
        .filter(|r| r.abs() >= d || nearly_equal(r.abs(), d))
        .count();
    (1 + at_least) as f64 / (1 + round_deltas.len()) as f64
}

/// Holm's step-down adjustment of p-values (Holm 1979): sorted ascending, the i-th (from 0) of m is multiplied
/// by m − i, made monotone, capped at 1; returned in the input's order.
pub fn holm(p_values: &[f64]) -> Vec<f64> {
    let m = p_values.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&i, &j| p_values[i].total_cmp(&p_values[j]));
    let mut adjusted = vec![0.0; m];
    let mut running = 0.0f64;
    for (rank, &i) in order.iter().enumerate() {
        running = running.max(((m - rank) as f64 * p_values[i]).min(1.0));
        adjusted[i] = running;
    }
    adjusted
}

#[cfg(test)]
#[path = "interval_tests.rs"]
mod tests;
