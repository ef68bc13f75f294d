//! The metric names a config gives, the `metric` option and each leaderboard column's `metric`, checked
//! against the score ids its protocol declares (`Protocol::score_ids`), each unknown one with a "did you
//! mean". A protocol that declares none is left to the scoring program.

use super::{Column, Config, ConfigError, Pos};
use crate::protocols::{self, Options};
use crate::report::Mode;

/// The score ids `protocol` declares under `options` (`None`: not declared, or the options do not resolve).
fn declared(protocol: &str, mode: Mode, options: &[(String, String)]) -> Option<Vec<String>> {
    let p = protocols::get(protocol)?;
    let opts = Options::resolve(p.info().options, mode, options).ok()?;
    p.score_ids(&opts)
}

/// The closest of `ids` to `word`: one that contains it (the shortest), else the nearest by edit distance
/// when at most a third of the letters differ.
pub fn did_you_mean<'a>(word: &str, ids: &'a [String]) -> Option<&'a str> {
    let lower = word.to_ascii_lowercase();
    if lower.is_empty() {
        return None;
    }
    if let Some(m) = ids
        .iter()
        .filter(|id| id.to_ascii_lowercase().contains(&lower))
        .min_by_key(|id| id.len())
    {
        return Some(m);
    }
    ids.iter()
        .map(|id| {
            (
                crate::metrics::edit::char_distance(&lower, &id.to_ascii_lowercase()),
                id,
            )
        })
        .filter(|(d, id)| *d * 3 <= id.len().max(lower.len()))
        .min_by_key(|(d, _)| *d)
        .map(|(_, id)| id.as_str())
}

fn unknown(what: &str, name: &str, protocol: &str, ids: &[String]) -> String {
    let hint = did_you_mean(name, ids)
        .map(|m| format!("did you mean {m}? "))
        .unwrap_or_default();
    format!(
        "{what} `{name}`: no {protocol} report has this score; {hint}valid: {}",
        ids.join(", ")
    )
}

/// Errors for the `metric` option (at `metric_pos`) and the columns whose metric `protocol` cannot report.
pub(super) fn check(
    protocol: &str,
    mode: Mode,
    options: &[(String, String)],
    metric_pos: Option<Pos>,
    columns: &[Column],
) -> Vec<ConfigError> {
    let Some(ids) = declared(protocol, mode, options) else {
        return Vec::new();
    };
    let known: std::collections::HashSet<&str> = ids.iter().map(String::as_str).collect();
    let mut out = Vec::new();
    if let (Some((_, m)), Some(pos)) = (options.iter().find(|(k, _)| k == "metric"), metric_pos) {
        if !known.contains(m.as_str()) {
            out.push(ConfigError {
                line: pos.line,
                column: pos.column,
                path: "options.metric".into(),
                message: unknown("metric", m, protocol, &ids),
            });
        }
    }
    for (i, c) in columns.iter().enumerate() {
        if !known.contains(c.metric.as_str()) {
            out.push(ConfigError {
                line: c.pos.line,
                column: c.pos.column,
                path: format!("leaderboard.columns[{i}]"),
                message: unknown("metric", &c.metric, protocol, &ids),
            });
        }
    }
    out
}

/// The errors of the columns of `config` (read from a competition.yaml after the config was checked).
pub fn column_errors(config: &Config) -> Vec<ConfigError> {
    check(
        &config.protocol,
        config.mode,
        &config.options,
        None,
        &config.leaderboard.columns,
    )
}
