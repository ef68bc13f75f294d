//! The steps of a comparison that the command line (`dropscore compare`) and the page share
//! (docs/specs/statistics.md section 3): the compare-only options, the bootstrap's settings, the metric
//! compared, the run itself and the JSON text (A's report with a `compare` object).

use super::contract_compare::{compare, CompareSettings, Comparison};
use crate::report::{Mode, Report};

/// The compare command's own options, taken out of `--set` before the protocol resolves the rest.
pub struct Own {
    pub permutations: usize,
    pub all: bool,
}

pub fn own_options(set: &mut Vec<(String, String)>) -> Result<Own, String> {
    let mut own = Own {
        permutations: 10_000,
        all: false,
    };
    let mut err = None;
    set.retain(|(k, v)| match k.as_str() {
        "permutations" => {
            match v.trim().parse::<usize>() {
                Ok(r) if r <= 10_000_000 => own.permutations = r,
                _ => {
                    err = Some(format!(
                        "option `permutations`: expected an integer from 0 to 10000000, found `{v}`"
                    ))
                }
            }
            false
        }
        "compare_all" => {
            match v.trim() {
                "true" | "1" | "yes" => own.all = true,
                "false" | "0" | "no" => own.all = false,
                _ => {
                    err = Some(format!(
                        "option `compare_all`: expected true or false, found `{v}`"
                    ))
                }
            }
            false
        }
        _ => true,
    });
    err.map_or(Ok(own), Err)
}

/// The bootstrap's settings as the shell read them.
pub fn options_of(
    protocol: &str,
    mode: Mode,
    set: &[(String, String)],
) -> Result<crate::stats::units::Settings, String> {
    let p = super::require(protocol).map_err(|e| e.0)?;
    super::Options::resolve(p.info().options, mode, set)?.statistics()
}

/// The leaderboard metric: the report's first headline metric, else its first score.
pub fn headline_metric(r: &Report) -> String {
    r.display
        .headline
        .first()
        .map(|l| l.id.clone())
        .or_else(|| r.scores.iter().next().map(|(k, _)| k.to_string()))
        .unwrap_or_default()
}

/// A's JSON report with `"compare"` (and `"compare_all"`) appended as its last keys.
pub fn json_text(a: &Report, done: &[Comparison], all: bool) -> String {
    let mut s = a.to_json();
    // The report's closing brace (its text ends "}\n"), then the new keys.
    s.truncate(s.trim_end().len().saturating_sub(1));
    let first = serde_json::to_string(&done[0]).unwrap_or_default();
    s.push_str(&format!(",\"compare\":{first}"));
    if all {
        let mut m = String::from("{");
        for (i, c) in done.iter().enumerate() {
            if i > 0 {
                m.push(',');
            }
            let key = serde_json::to_string(&c.metric).unwrap_or_default();
            m.push_str(&format!(
                "{key}:{}",
                serde_json::to_string(c).unwrap_or_default()
            ));
        }
        m.push('}');
        s.push_str(&format!(",\"compare_all\":{m}"));
    }
    s.push_str("}\n");
    s
}

/// Compares two reports scored on one ground truth with `set` (the compare-only options already taken out by
/// [`own_options`]): B = 1000 unless `bootstrap` is set (a score's default is 0, statistics off). `Err` for an
/// option error (`Ok(Err)` when the comparison itself refuses: a protocol without units, other units).
pub fn run(
    protocol: &str,
    mode: Mode,
    a: &Report,
    b: &Report,
    set: &[(String, String)],
    own: &Own,
) -> Result<Result<Vec<Comparison>, String>, String> {
    let mut set = set.to_vec();
    if !set.iter().any(|(k, _)| k == "bootstrap") {
        set.push(("bootstrap".to_string(), "1000".to_string()));
    }
    let settings = CompareSettings {
        bootstrap: options_of(protocol, mode, &set)?,
        permutations: own.permutations,
    };
    let headline = headline_metric(a);
    let mut metrics = vec![headline.clone()];
    if own.all {
        metrics.extend(
            a.scores
                .iter()
                .map(|(k, _)| k.to_string())
                .filter(|k| *k != headline),
        );
    }
    Ok(compare(a, b, &metrics, &settings))
}
