//! `scores.json` of the scoring program: the leaderboard's values of a report. A leaderboard value is a
//! number or a failure: the headline metric and every configured column must have a value, and when one is
//! null the run fails with one sentence that names it and gives the report's own reason.

use super::Config;
use crate::diag::Severity;
use crate::protocols;
use crate::report::Report;
use serde_json::{Map, Value};

impl Config {
    /// `scores.json` of the scoring program: column key → the report's score. Without configured columns,
    /// every score of the report that has a value (null ones are left out: they are no leaderboard's), the
    /// headline under the protocol's `scores_key` when it has one. A column whose metric the report lacks is
    /// an error naming its position.
    pub fn leaderboard_scores(&self, report: &Report) -> Result<Map<String, Value>, Vec<String>> {
        let mut out = Map::new();
        let num = |v: Option<f64>| {
            v.and_then(serde_json::Number::from_f64)
                .map_or(Value::Null, Value::Number)
        };
        if self.leaderboard.columns.is_empty() {
            // A protocol with a `scores_key` option (chalearn-ce: `mAP`, docs/specs/chalearn-ce.md 2.3) names its
            // headline score so in scores.txt / scores.json; the other scores keep their ids.
            let renamed = report
                .options
                .get("scores_key")
                .and_then(Value::as_str)
                .filter(|k| !k.is_empty())
                .zip(report.display.headline.first().map(|l| l.id.as_str()));
            for (k, v) in report.scores.iter().filter(|(_, v)| v.is_some()) {
                let key = match renamed {
                    Some((to, headline)) if headline == k => to,
                    _ => k,
                };
                out.insert(key.to_string(), num(v));
            }
            return Ok(out);
        }
        let mut errors = Vec::new();
        for c in &self.leaderboard.columns {
            if report.scores.contains(&c.metric) {
                out.insert(c.key.clone(), num(report.scores.get(&c.metric)));
            } else {
                errors.push(format!(
                    "{}:{}: leaderboard column `{}`: the {} report has no score `{}`; it has: {}",
                    c.pos.line,
                    c.pos.column,
                    c.key,
                    report.protocol,
                    c.metric,
                    report
                        .scores
                        .iter()
                        .map(|(k, _)| k)
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
        }
        if errors.is_empty() {
            Ok(out)
        } else {
            Err(errors)
        }
    }

    /// The first leaderboard value of `report` that is null, as one sentence saying which and why: the
    /// configured columns first, then the headline metric when it is on the leaderboard (no columns are
    /// configured, or an option of the report names it: a family's `metric`). `None` when every one has a value.
    pub fn null_leaderboard(&self, report: &Report) -> Option<String> {
        let on_board = |id: &str| {
            self.leaderboard.columns.is_empty()
                || report.options.values().any(|v| v.as_str() == Some(id))
        };
        let null = |id: &str| report.scores.contains(id) && report.scores.get(id).is_none();
        if let Some(c) = self.leaderboard.columns.iter().find(|c| null(&c.metric)) {
            let what = if c.key == c.metric {
                format!("the leaderboard column `{}`", c.key)
            } else {
                format!("the leaderboard column `{}` (score `{}`)", c.key, c.metric)
            };
            return Some(format!(
                "{what} is null: {}",
                null_reason(report, &c.metric)
            ));
        }
        if let Some(id) = headline_id(report).filter(|id| on_board(id)) {
            if null(&id) {
                return Some(format!(
                    "the leaderboard metric `{id}` is null: {}",
                    null_reason(report, &id)
                ));
            }
        }
        None
    }
}

/// The report's headline metric: the one its protocol shows first and large (the configured `metric` of a
/// family), else the first of `display.headline`.
pub fn headline_id(report: &Report) -> Option<String> {
    protocols::get(&report.protocol)
        .and_then(|p| p.hints(report).primary)
        .or_else(|| report.display.headline.first().map(|l| l.id.clone()))
}

/// Why score `id` of `report` is null, in the report's own words when one of its warnings or errors is about
/// that metric (its message names it in backquotes, or its code has it as a part), with the diagnostic's
/// location and hint; else what a null means.
pub fn null_reason(report: &Report, id: &str) -> String {
    let quoted = format!("`{id}`");
    let own = report.diagnostics.iter().find(|d| {
        d.severity != Severity::Info
            && (d.message.contains(&quoted) || d.code.split('.').any(|part| part == id))
    });
    let Some(d) = own else {
        return format!(
            "`{id}` is not computable on this input (a division by zero, nothing to average, or a result \
             that is not a finite number)."
        );
    };
    let mut s = d.message.trim_end_matches('.').to_string();
    match (&d.file, d.line) {
        (Some(f), Some(l)) => s.push_str(&format!(" ({f}:{l})")),
        (Some(f), None) => s.push_str(&format!(" ({f})")),
        _ => {}
    }
    s.push('.');
    if let Some(h) = &d.hint {
        s.push(' ');
        s.push_str(h.trim());
    }
    s
}
