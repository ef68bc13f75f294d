//! Comparing two submissions on the same ground truth (docs/specs/statistics.md section 3): Δ and its paired
//! bootstrap interval (the same draws for both), the paired bootstrap and approximate-randomization p-values,
//! per-unit wins, ties and losses, and one verdict sentence.

use crate::report::Report;
use crate::stats::interval::{interval, nearly_equal, p_bootstrap, p_randomization};
use crate::stats::resample::Exchanges;
use crate::stats::units::{each_replicate, Settings, Units};
use serde::Serialize;

/// The `compare` object of the JSON report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Comparison {
    pub metric: String,
    pub a: Option<f64>,
    pub b: Option<f64>,
    pub delta: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
    pub p_bootstrap: Option<f64>,
    pub p_randomization: Option<f64>,
    pub wins: Option<u64>,
    pub ties: Option<u64>,
    pub losses: Option<u64>,
    pub verdict: String,
    /// The defined paired replicates' Δ, in replicate order (the page draws their distribution; not in the JSON).
    #[serde(skip)]
    pub replicate_deltas: Vec<f64>,
}

/// What the comparison runs: the bootstrap's settings and the randomization test's rounds (`permutations`).
#[derive(Clone, Copy, Debug)]
pub struct CompareSettings {
    pub bootstrap: Settings,
    pub permutations: usize,
}

/// Both reports' units, checked to be of one protocol on the same units.
fn paired<'a>(a: &'a Report, b: &'a Report) -> Result<(&'a Units, &'a Units), String> {
    let (Some(ua), Some(ub)) = (a.units.0.as_deref(), b.units.0.as_deref()) else {
        return Err("no interval: a submission was not scored (see its diagnostics), or the protocol has no \
                    units"
            .into());
    };
    if ua.sizes != ub.sizes || a.protocol != b.protocol {
        return Err("the two submissions were not scored on the same units".into());
    }
    Ok((ua, ub))
}

/// Compares A and B on each of `metrics` (ids of A's `scores`).
pub fn compare(
    a: &Report,
    b: &Report,
    metrics: &[String],
    s: &CompareSettings,
) -> Result<Vec<Comparison>, String> {
    let (ua, ub) = paired(a, b)?;
    // Each side lists the metrics defined on its own full set: one index per side.
    let (ids_a, ids_b) = (ua.replicate.metrics(), ub.replicate.metrics());
    let index: Vec<(Option<usize>, Option<usize>)> = metrics
        .iter()
        .map(|m| {
            (
                ids_a.iter().position(|x| x == m),
                ids_b.iter().position(|x| x == m),
            )
        })
        .collect();
    // The paired replicates: the same draws for both.
    let pairs = each_replicate(ua, &s.bootstrap, |w| {
        (ua.replicate.values(w), ub.replicate.values(w))
    });
    let rounds = randomization_rounds(ua, ub, s);
    let unit_counts = per_unit(ua, ub);
    Ok(metrics
        .iter()
        .zip(&index)
        .map(|(m, &(ia, ib))| {
            let at = |v: &Vec<Option<f64>>, i: Option<usize>| {
                i.and_then(|i| v.get(i).copied().flatten())
            };
            let replicates: Vec<(Option<f64>, Option<f64>)> =
                pairs.iter().map(|(x, y)| (at(x, ia), at(y, ib))).collect();
            let round_deltas = rounds.as_ref().map(|r| {
                r.iter()
                    .filter_map(|(x, y)| Some(at(x, ia)? - at(y, ib)?))
                    .collect::<Vec<f64>>()
            });
            one_metric(a, b, m, &replicates, round_deltas, unit_counts, s, ua)
        })
        .collect())
}

#[allow(clippy::too_many_arguments)] // the reports, the metric and what was drawn for it
fn one_metric(
    a: &Report,
    b: &Report,
    metric: &str,
    replicates: &[(Option<f64>, Option<f64>)],
    round_deltas: Option<Vec<f64>>,
    unit_counts: Option<(u64, u64, u64)>,
    s: &CompareSettings,
    units: &Units,
) -> Comparison {
    let (va, vb) = (a.scores.get(metric), b.scores.get(metric));
    let delta = va.zip(vb).map(|(x, y)| x - y);
    let deltas: Vec<Option<f64>> = replicates
        .iter()
        .map(|&(x, y)| x.zip(y).map(|(x, y)| x - y))
        .collect();
    let iv = interval(&deltas, s.bootstrap.confidence);
    let defined: Vec<(f64, f64)> = replicates.iter().filter_map(|&(x, y)| x.zip(y)).collect();
    let p_boot = va
        .zip(vb)
        .and_then(|full| p_bootstrap(full, &defined))
        .filter(|_| iv.low.is_some());
    let p_rand = delta
        .zip(round_deltas)
        .filter(|(_, r)| !r.is_empty() && s.permutations > 0)
        .map(|(d, r)| p_randomization(d, &r));
    let mut c = Comparison {
        metric: metric.to_string(),
        a: va,
        b: vb,
        delta,
        low: iv.low,
        high: iv.high,
        p_bootstrap: p_boot,
        p_randomization: p_rand,
        wins: unit_counts.map(|u| u.0),
        ties: unit_counts.map(|u| u.1),
        losses: unit_counts.map(|u| u.2),
        verdict: String::new(),
        replicate_deltas: deltas.iter().flatten().copied().collect(),
    };
    c.verdict = verdict(
        &c,
        units.replicate.lower_is_better(metric),
        s.bootstrap.confidence,
    );
    c
}

/// The approximate randomization test's rounds: round j exchanges unit i's sufficient statistics between A
/// and B where `default_rng(seed + 1).integers(0, 2, size=(R, n))[j, i] == 1`; each round's (A', B') metric
/// values. `None` when the protocol cannot exchange units.
type Round = (Vec<Option<f64>>, Vec<Option<f64>>);

fn randomization_rounds(ua: &Units, ub: &Units, s: &CompareSettings) -> Option<Vec<Round>> {
    let n = ua.count();
    let ones = vec![1u32; n];
    // A protocol that cannot mix says so on a first, empty exchange.
    ua.replicate.mixed(&*ub.replicate, &vec![false; n], &ones)?;
    let mut exchanges = Exchanges::new(s.bootstrap.seed as u128 + 1, s.permutations);
    let per_chunk = ((4 << 20) / n.max(1)).clamp(2, 256);
    let mut out = Vec::with_capacity(s.permutations);
    let mut flips: Vec<Vec<bool>> = Vec::new();
    loop {
        flips.clear();
        let mut f = vec![false; n];
        while flips.len() < per_chunk && exchanges.next_round(&mut f) {
            flips.push(f.clone());
        }
        if flips.is_empty() {
            break;
        }
        let done = crate::par::map(
            flips.len(),
            || (),
            |_, j| {
                let x = ua.replicate.mixed(&*ub.replicate, &flips[j], &ones);
                let y = ub.replicate.mixed(&*ua.replicate, &flips[j], &ones);
                (x.unwrap_or_default(), y.unwrap_or_default())
            },
        );
        out.extend(done);
    }
    Some(out)
}

/// Per unit, A's score against B's (higher is better): wins, ties (within 1e-12 relative), losses.
fn per_unit(ua: &Units, ub: &Units) -> Option<(u64, u64, u64)> {
    let (x, y) = (ua.replicate.unit_scores()?, ub.replicate.unit_scores()?);
    let mut c = (0, 0, 0);
    for (p, q) in x.iter().zip(&y) {
        if nearly_equal(*p, *q) {
            c.1 += 1;
        } else if p > q {
            c.0 += 1;
        } else {
            c.2 += 1;
        }
    }
    Some(c)
}

/// A number in the verdict: four decimals.
fn num(v: f64) -> String {
    format!("{v:.4}").replace('-', "−")
}

/// A p-value: three significant digits at most, never "0".
fn p_text(p: f64) -> String {
    let t = format!("{p:.3}");
    if t == "0.000" {
        format!("{p:.1e}")
    } else {
        t
    }
}

/// The verdict sentence: A (or B) is better when the randomization test (else the paired bootstrap) rejects at
/// 1 − confidence; else "not distinguishable".
pub fn verdict(c: &Comparison, lower_is_better: bool, confidence: f64) -> String {
    let (Some(delta), Some(low), Some(high)) = (c.delta, c.low, c.high) else {
        return format!(
            "A and B cannot be compared on {}: the metric or its interval is undefined",
            c.metric
        );
    };
    let (p, test) = match (c.p_randomization, c.p_bootstrap) {
        (Some(p), _) => (p, "randomization"),
        (None, Some(p)) => (p, "paired bootstrap"),
        (None, None) => (1.0, "paired bootstrap"),
    };
    let percent = format!("{}", (confidence * 100.0 * 1e6).round() / 1e6);
    if p < 1.0 - confidence && delta != 0.0 {
        let a_better = (delta > 0.0) != lower_is_better;
        let (winner, loser) = if a_better { ("A", "B") } else { ("B", "A") };
        format!(
            "{winner} is better than {loser} on {} by {} ({percent} % interval of A − B {} to {}; {test} p = {})",
            c.metric,
            num(delta.abs()),
            num(low),
            num(high),
            p_text(p)
        )
    } else {
        format!(
            "A and B are not distinguishable on {} (Δ {}, interval {} to {}, p = {})",
            c.metric,
            num(delta),
            num(low),
            num(high),
            p_text(p)
        )
    }
}
