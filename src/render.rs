//! Text, TSV and CSV renderings of a [`Report`] (JSON is [`Report::to_json`]), and the located one-line form
//! of diagnostics the CLI prints.

use crate::diag::{Diagnostic, Severity};
use crate::report::{Item, Report};
use serde_json::Value;

/// The protocol's own text layout.
pub fn text(report: &Report) -> String {
    crate::protocols::render_text(report)
}

/// A plain text layout for protocols without one of their own: headline, then one line per item.
pub fn generic_text(report: &Report) -> String {
    let mut out = String::new();
    for (k, v) in report.scores.iter() {
        out.push_str(&format!("{k}\t{}\n", fmt_opt(v, decimals_of(report, k))));
    }
    out
}

fn decimals_of(report: &Report, id: &str) -> u32 {
    report
        .display
        .headline
        .iter()
        .find(|l| l.id == id)
        .map_or(6, |l| l.decimals)
}

pub fn fmt_opt(v: Option<f64>, decimals: u32) -> String {
    match v {
        Some(x) => format!("{x:.*}", decimals as usize),
        None => "null".to_string(),
    }
}

/// The per-item table: id, group, then the display columns (or every score key when there are none).
fn table(report: &Report) -> (Vec<String>, Vec<Vec<String>>) {
    let mut head = vec!["id".to_string(), "group".to_string()];
    let cols: Vec<(String, String)> = report
        .item_columns()
        .into_iter()
        .map(|c| (c.id, c.from))
        .collect();
    head.extend(cols.iter().map(|c| c.0.clone()));
    let rows = report
        .items
        .iter()
        .map(|it| {
            let mut row = vec![it.id.clone(), it.group.clone().unwrap_or_default()];
            row.extend(cols.iter().map(|(id, from)| cell(it, id, from)));
            row
        })
        .collect();
    (head, rows)
}

fn cell(it: &Item, id: &str, from: &str) -> String {
    if from == "detail" {
        match it.detail.get(id) {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(s)) => s.clone(),
            Some(v) => v.to_string(),
        }
    } else {
        // Shortest round-trip form, as in the JSON report.
        it.scores
            .get(id)
            .map(|x| serde_json::Number::from_f64(x).map_or(String::new(), |n| n.to_string()))
            .unwrap_or_default()
    }
}

pub fn tsv(report: &Report) -> String {
    let (head, rows) = table(report);
    let clean = |s: &str| s.replace(['\t', '\n', '\r'], " ");
    let mut out = head.join("\t");
    out.push('\n');
    for r in rows {
        out.push_str(&r.iter().map(|c| clean(c)).collect::<Vec<_>>().join("\t"));
        out.push('\n');
    }
    out
}

pub fn csv(report: &Report) -> String {
    let (head, rows) = table(report);
    let q = |s: &str| {
        if s.contains([',', '"', '\n', '\r']) {
            format!("\"{}\"", s.replace('"', "\"\""))
        } else {
            s.to_string()
        }
    };
    let mut out = head.iter().map(|c| q(c)).collect::<Vec<_>>().join(",");
    out.push('\n');
    for r in rows {
        out.push_str(&r.iter().map(|c| q(c)).collect::<Vec<_>>().join(","));
        out.push('\n');
    }
    out
}

/// `file:line:column: severity [code] message`, then indented expected/found/hint/official lines.
pub fn diagnostic(d: &Diagnostic) -> String {
    let mut loc = d.file.clone().unwrap_or_else(|| "(input)".to_string());
    if let Some(l) = d.line {
        loc.push_str(&format!(":{l}"));
        if let Some(c) = d.column {
            loc.push_str(&format!(":{c}"));
        }
    }
    if let Some([x, y]) = d.pixel {
        loc.push_str(&format!(" pixel ({x}, {y})"));
    }
    if let Some(o) = d.offset {
        loc.push_str(&format!(" byte {o}"));
    }
    let sev = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "info",
    };
    let mut s = format!("{loc}: {sev} [{}] {}\n", d.code, d.message);
    for (k, v) in [
        ("expected", &d.expected),
        ("found", &d.found),
        ("hint", &d.hint),
        ("official", &d.official_behaviour),
    ] {
        if let Some(v) = v {
            s.push_str(&format!("    {k}: {v}\n"));
        }
    }
    s
}
