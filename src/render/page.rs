//! What the page receives beside a report (never inside its JSON, which stays the CLI's bytes): the display
//! hints its protocol declares (`Protocol::hints`: the headline, what stands beside it, binary32 scores), the
//! per-item table's columns, and every plot as a spec ([`super::plot`]). The page draws these and decides
//! nothing.

use super::plot::{self, Spec};
use crate::items_query::{self, Col};
use crate::report::{Hints, Report};
use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct PageView {
    pub headline: Headline,
    pub binary32: bool,
    pub columns: Vec<Col>,
    /// The cells of the table's first page (the first [`FIRST_PAGE`] rows, in report order), so the page shows
    /// them without asking.
    pub first_cells: Vec<Vec<String>>,
    pub plots: Vec<Spec>,
}

/// The rows of the table's first page (www/items-table.js asks for pages of this many).
pub const FIRST_PAGE: usize = 1000;

/// The headline metric (an id of `display.headline`, or of `scores` when the protocol labels none; `None`
/// when the report has no score) and the metrics shown beside it.
#[derive(Debug, PartialEq, Serialize)]
pub struct Headline {
    pub primary: Option<String>,
    pub beside: Vec<String>,
}

/// The display hints `report`'s protocol declares (the default ones for an unknown protocol).
pub fn hints(report: &Report) -> Hints {
    crate::protocols::get(&report.protocol)
        .map(|p| p.hints(report))
        .unwrap_or_default()
}

/// The headline of `report`: the protocol's, else the first labelled metric, else the first score.
pub fn headline(report: &Report) -> Headline {
    let h = hints(report);
    let first = report
        .display
        .headline
        .first()
        .map(|l| l.id.clone())
        .or_else(|| report.scores.iter().next().map(|(k, _)| k.to_string()));
    Headline {
        primary: h.primary.or(first),
        beside: h.beside,
    }
}

pub fn view(report: &Report) -> PageView {
    PageView {
        headline: headline(report),
        binary32: hints(report).binary32,
        columns: items_query::columns(report),
        first_cells: items_query::first_cells(report, FIRST_PAGE),
        plots: report.plots.iter().map(plot::spec).collect(),
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
