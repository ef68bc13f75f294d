//! The statistics part of the protocol contract (docs/specs/statistics.md): after a protocol has scored, the
//! units it left in its report ([`crate::stats::units::Units`]) are resampled and every metric of `scores` that
//! has a replicate gets its percentile interval.

use crate::diag::{Diagnostic, Diags};
use crate::report::{IntervalValues, Intervals, Report, Statistics};
use crate::stats::interval::Interval;
use crate::stats::interval::MAX_LEFT_OUT;
use crate::stats::units::{bootstrap, Settings, Units};

/// Fills `statistics` and `intervals` of `report` when its protocol gave units and `settings` asks for
/// replicates; a metric whose interval is null because too many replicates are undefined gets a diagnostic.
/// Inside [`deferring`], only `statistics` is filled: the page draws the replicates afterwards, in steps it
/// can cancel (src/wasm/stats.rs), and fills the intervals with [`fill`].
pub fn intervals(report: &mut Report, settings: &Settings, diags: &mut Diags) {
    let Some(units) = report.units.0.clone() else {
        return;
    };
    if settings.replicates == 0 || units.count() == 0 {
        return;
    }
    report.statistics = Some(Statistics {
        unit: units.unit.to_string(),
        strata: units.strata.map(str::to_string),
        bootstrap: settings.replicates as u64,
        seed: settings.seed,
        confidence: settings.confidence,
    });
    if DEFER.with(|d| d.get()) {
        return;
    }
    let computed = bootstrap(&units, settings);
    fill(report, &units, settings, &computed, diags);
}

thread_local! {
    static DEFER: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` (a score) with the bootstrap left for later when `defer` is true (see [`intervals`]).
pub fn deferring<R>(defer: bool, f: impl FnOnce() -> R) -> R {
    let before = DEFER.with(|d| d.replace(defer));
    let out = f();
    DEFER.with(|d| d.set(before));
    out
}

/// `intervals` of `report` from the replicates' intervals `computed` (as [`bootstrap`] gives them).
pub fn fill(
    report: &mut Report,
    units: &Units,
    settings: &Settings,
    computed: &[(String, Interval)],
    diags: &mut Diags,
) {
    let mut out = Intervals::default();
    for (id, value) in report.scores.iter() {
        if value.is_none() {
            continue;
        }
        if let Some((_, reason)) = units.no_interval.iter().find(|(m, _)| m == id) {
            out.0.push((
                id.to_string(),
                IntervalValues {
                    low: None,
                    high: None,
                    se: None,
                    left_out: 0,
                    reason: Some(reason.clone()),
                },
            ));
            continue;
        }
        let Some((_, iv)) = computed.iter().find(|(m, _)| m == id) else {
            continue;
        };
        if iv.low.is_none() && iv.left_out > 0 {
            diags.push(Diagnostic::info(
                "stats.interval_null",
                format!(
                    "{id}: no interval: the metric is undefined on {} of the {} bootstrap replicates (more than \
                     {} % of them)",
                    iv.left_out,
                    settings.replicates,
                    MAX_LEFT_OUT * 100.0
                ),
            ));
        }
        out.0.push((id.to_string(), IntervalValues::from(iv)));
    }
    report.intervals = out;
}
