//! What the page receives beside a report (never inside its JSON, which stays the CLI's bytes): the display
//! hints its protocol declares (`Protocol::hints`: the headline, what stands beside it, binary32 scores), the
//! per-item table's columns, and every plot as a spec ([`super::plot`]). The page draws these and decides
//! nothing.

use super::plot::{self, Spec};
use crate::diag::{Diagnostic, Severity};
use crate::items_query::{self, Col};
use crate::report::{Hints, Report};
use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct PageView {
    pub headline: Headline,
    pub binary32: bool,
    /// Official and corrected are the same by definition ([`Hints::one_mode`]): one column, no comparison.
    pub one_mode: bool,
    /// The diagnostic the page shows first, above the scores, when the input has errors: the root cause
    /// ([`cause`]).
    pub cause: Option<Diagnostic>,
    /// The report's deviations from the official setup that are really a different way of scoring
    /// ([`deviations`]).
    pub deviations: Vec<String>,
    pub columns: Vec<Col>,
    /// The cells of the table's first page (the first [`FIRST_PAGE`] rows, in report order), so the page shows
    /// them without asking.
    pub first_cells: Vec<Vec<String>>,
    pub plots: Vec<Spec>,
    /// With public and private parts, each part's headline metric as the text output gives it
    /// ([`super::parts_lines`]): `public part: map 0.51850`.
    pub parts: Vec<String>,
}

/// The rows of the table's first page (www/items-table.js asks for pages of this many).
pub const FIRST_PAGE: usize = 1000;

/// The headline metric (an id of `display.headline`, or of `scores` when the protocol labels none; `None`
/// when the report has no score), the metrics shown beside it, and every other metric in the order the page
/// lists them (those computed first).
#[derive(Debug, PartialEq, Serialize)]
pub struct Headline {
    pub primary: Option<String>,
    pub beside: Vec<String>,
    pub rest: Vec<String>,
}

/// The display hints `report`'s protocol declares (the default ones for an unknown protocol).
pub fn hints(report: &Report) -> Hints {
    crate::protocols::get(&report.protocol)
        .map(|p| p.hints(report))
        .unwrap_or_default()
}

/// The headline of `report`: the protocol's, else the first labelled metric, else the first score. When the
/// protocol names none and the first was not computed (null) but another labelled one was, without an error (a score submission
/// on a label metric: `accuracy` null, `roc_auc` computed), the first computed one of the protocol's
/// `beside`, else of `display.headline`, takes its place, so the big number is a number; the metrics that were
/// computed are listed before those that were not.
pub fn headline(report: &Report) -> Headline {
    let h = hints(report);
    let mut ids: Vec<String> = report
        .display
        .headline
        .iter()
        .map(|l| l.id.clone())
        .collect();
    if ids.is_empty() {
        ids = report.scores.iter().map(|(k, _)| k.to_string()).collect();
    }
    let computed = |id: &str| report.scores.get(id).is_some_and(f64::is_finite);
    let mut primary = h.primary.clone().or_else(|| ids.first().cloned());
    if h.primary.is_none()
        && primary.as_deref().is_some_and(|p| !computed(p))
        && !report.has_errors()
    {
        let better = h.beside.iter().chain(&ids).find(|id| computed(id));
        if let Some(b) = better {
            primary = Some(b.clone());
        }
    }
    let beside: Vec<String> = h
        .beside
        .into_iter()
        .filter(|b| Some(b) != primary.as_ref())
        .collect();
    let shown = |id: &String| Some(id) == primary.as_ref() || beside.contains(id);
    let (mut rest, later): (Vec<String>, Vec<String>) = ids
        .into_iter()
        .filter(|id| !shown(id))
        .partition(|id| computed(id));
    rest.extend(later);
    Headline {
        primary,
        beside,
        rest,
    }
}

/// The diagnostic that explains a report's errors: the first error in the report's order, which puts the
/// input's kind and roles first, then damage where it is (a malformed line of the submission) before what
/// follows from it elsewhere (an id missing at the ground truth's line); `Report::sort_diagnostics`.
pub fn cause(report: &Report) -> Option<Diagnostic> {
    let mut errors: Vec<&Diagnostic> = report
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    // The report is sorted already; sorting a copy keeps this true for a report read from elsewhere.
    let mut sorted = Report::new(&report.protocol, report.mode);
    sorted.diagnostics = errors.drain(..).cloned().collect();
    sorted.sort_diagnostics();
    sorted.diagnostics.into_iter().next()
}

/// The option lines of `report.deviations` (`name = value deviates from official (default)`) that change how
/// the input is scored, and every other line. Not shown: an option without an official value (default `none`
/// or empty: a required one such as a class count, or one describing the input such as a column name), the
/// leaderboard `metric` (it chooses what stands first, not how anything is computed), and a value equal to
/// the default as a number (`0.750` for `0.75`).
pub fn deviations(report: &Report) -> Vec<String> {
    let specs = crate::protocols::get(&report.protocol).map(|p| p.option_table());
    report
        .deviations
        .iter()
        .filter(|line| {
            let Some((name, rest)) = line.split_once(" = ") else {
                return true;
            };
            let Some((value, default)) = rest
                .strip_suffix(')')
                .and_then(|r| r.rsplit_once(" deviates from official ("))
            else {
                return true;
            };
            let no_official = specs
                .and_then(|t| t.iter().find(|s| s.name == name))
                .is_some_and(|s| matches!(s.default_official, "" | "none"));
            let same_number = matches!((value.trim().parse::<f64>(), default.trim().parse::<f64>()), (Ok(a), Ok(b)) if a == b);
            !(no_official || name == "metric" || value == default || same_number)
        })
        .cloned()
        .collect()
}

pub fn view(report: &Report) -> PageView {
    PageView {
        headline: headline(report),
        binary32: hints(report).binary32,
        one_mode: hints(report).one_mode,
        cause: cause(report),
        deviations: deviations(report),
        columns: items_query::columns(report),
        first_cells: items_query::first_cells(report, FIRST_PAGE),
        plots: report.plots.iter().map(plot::spec).collect(),
        parts: super::parts_lines(report),
    }
}

/// [`view`] as JSON text.
pub fn view_json(report: &Report) -> String {
    serde_json::to_string(&view(report)).unwrap_or_else(|_| "{}".into())
}

/// The plots of the row `id`'s detail values ([`plot::detail_spec`]), by key, as JSON text: `[[key, spec], …]`;
/// empty when no row has that id.
pub fn item_plots_json(report: &Report, id: &str) -> String {
    let mut out: Vec<(String, Spec)> = Vec::new();
    report.each_item(|it| {
        if it.id != id {
            return true;
        }
        for (k, v) in &it.detail {
            if let Some(s) = plot::detail_spec(&it.id, k, v) {
                out.push((k.clone(), s));
            }
        }
        false
    });
    serde_json::to_string(&out).unwrap_or_else(|_| "[]".into())
}

#[cfg(test)]
#[path = "page_tests.rs"]
mod tests;
