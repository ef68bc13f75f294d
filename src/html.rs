//! `detailed_results.html` of the scoring program: one self-contained page (styles and SVG plots inlined, no
//! `src=` or `href=` at all, no script) with the leaderboard preview, headline, options, diagnostics, groups,
//! readings, plots and the per-item table of a [`Report`]. Generic over every protocol.

use crate::config::{Config, Sort};
use crate::render::fmt_opt;
use crate::report::{Plot, Report, Scores};
use serde_json::Value;
use std::fmt::Write;

const MAX_ITEMS: usize = 20_000;
const MAX_DIAGS: usize = 1_000;

pub fn escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}

const STYLE: &str = "body{font:15px/1.5 system-ui,sans-serif;margin:24px auto;max-width:1100px;padding:0 16px;color:#1c2330;background:#fff}\
h1{font-size:1.4em}h2{font-size:1.1em;margin-top:28px;border-bottom:1px solid #d6dbe3}\
table{border-collapse:collapse;margin:8px 0}th,td{border:1px solid #d6dbe3;padding:3px 9px;text-align:left}\
td.n{text-align:right;font-variant-numeric:tabular-nums}th{background:#f2f4f7}\
.err{color:#a61b1b}.warn{color:#8a5a00}.muted{color:#5b6576}.fails{border-left:4px solid #a61b1b;padding:6px 12px;background:#fbeaea}\
figure{margin:12px 0}figcaption{font-weight:600}svg text{font:11px system-ui,sans-serif;fill:#1c2330}code{font-family:ui-monospace,monospace}";

/// The page's Content-Security-Policy (defence in depth: the page has no script and loads nothing; its styles
/// and SVG plots are inline).
const CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

/// The whole page.
pub fn detailed(report: &Report, config: Option<&Config>) -> String {
    let title = config
        .map(|c| c.title.clone())
        .filter(|t| !t.is_empty())
        .unwrap_or_else(|| report.display.title.clone());
    let mut o = String::new();
    let _ = write!(
        o,
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta http-equiv=\"Content-Security-Policy\" content=\"{CSP}\"><title>{} · detailed results</title><style>{STYLE}{}</style></head><body>\n<h1>{}</h1>\n<p class=\"muted\">protocol <code>{}</code>, {} mode · computed by dropscore {}</p>\n",
        escape(&title),
        crate::render::svg::STYLE,
        escape(&title),
        escape(&report.protocol),
        report.mode.as_str(),
        env!("CARGO_PKG_VERSION")
    );
    if report.official_fails {
        o.push_str(
            "<p class=\"fails\"><strong>The official scorer fails on this input.</strong></p>\n",
        );
    }
    if let Some(c) = config.filter(|c| !c.leaderboard.columns.is_empty()) {
        o.push_str("<h2>Leaderboard</h2>\n<table><thead><tr>");
        for col in &c.leaderboard.columns {
            let arrow = if col.sort == Sort::Desc { "↓" } else { "↑" };
            let _ = write!(o, "<th>{} {arrow}</th>", escape(&col.title));
        }
        o.push_str("</tr></thead><tbody><tr>");
        for col in &c.leaderboard.columns {
            let _ = write!(
                o,
                "<td class=\"n\">{}</td>",
                fmt_opt(report.scores.get(&col.metric), col.decimals)
            );
        }
        o.push_str("</tr></tbody></table>\n");
    }
    o.push_str("<h2>Scores</h2>\n<table><tbody>");
    for (id, v) in report.scores.iter() {
        let label = report.display.headline.iter().find(|l| l.id == id);
        let dec = label.map_or(6, |l| l.decimals);
        let name = label.map_or(id, |l| l.label.as_str());
        let _ = write!(
            o,
            "<tr><th>{} <code class=\"muted\">{}</code></th><td class=\"n\">{}</td></tr>",
            escape(name),
            escape(id),
            fmt_opt(v, dec)
        );
    }
    o.push_str("</tbody></table>\n");
    options(&mut o, report);
    diagnostics(&mut o, report);
    if !report.groups.is_empty() {
        o.push_str("<h2>Groups</h2>\n");
        let rows: Vec<(String, &Scores)> = report
            .groups
            .iter()
            .map(|g| (g.id.clone(), &g.scores))
            .collect();
        scores_table(&mut o, "group", &rows);
    }
    for r in &report.readings {
        let _ = writeln!(o, "<h2>{}</h2>", escape(&r.label));
        scores_table(&mut o, "", &[(String::new(), &r.scores)]);
    }
    if !report.plots.is_empty() {
        o.push_str("<h2>Plots</h2>\n");
        for p in &report.plots {
            plot(&mut o, p);
        }
    }
    items(&mut o, report);
    o.push_str("</body></html>\n");
    o
}

fn options(o: &mut String, report: &Report) {
    if report.options.is_empty() {
        return;
    }
    o.push_str("<h2>Options</h2>\n<table><tbody>");
    for (k, v) in &report.options {
        let v = match v {
            Value::String(s) => s.clone(),
            v => v.to_string(),
        };
        let _ = write!(
            o,
            "<tr><th><code>{}</code></th><td>{}</td></tr>",
            escape(k),
            escape(&v)
        );
    }
    o.push_str("</tbody></table>\n");
    for d in &report.deviations {
        let _ = writeln!(o, "<p class=\"warn\">{}</p>", escape(d));
    }
}

fn diagnostics(o: &mut String, report: &Report) {
    if report.diagnostics.is_empty() {
        return;
    }
    let _ = write!(o, "<h2>Diagnostics ({})</h2>\n<table><thead><tr><th>severity</th><th>where</th><th>code</th><th>message</th></tr></thead><tbody>", report.diagnostics.len());
    for d in report.diagnostics.iter().take(MAX_DIAGS) {
        let sev = serde_json::to_value(d.severity)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        let class = match sev.as_str() {
            "error" => "err",
            "warning" => "warn",
            _ => "muted",
        };
        let mut loc = d.file.clone().unwrap_or_default();
        if let Some(l) = d.line {
            let _ = write!(loc, ":{l}");
            if let Some(c) = d.column {
                let _ = write!(loc, ":{c}");
            }
        }
        let mut msg = escape(&d.message);
        for (k, v) in [
            ("expected", &d.expected),
            ("found", &d.found),
            ("hint", &d.hint),
            ("official", &d.official_behaviour),
        ] {
            if let Some(v) = v {
                let _ = write!(msg, "<br><span class=\"muted\">{k}:</span> {}", escape(v));
            }
        }
        let _ = write!(o, "<tr><td class=\"{class}\">{sev}</td><td><code>{}</code></td><td><code>{}</code></td><td>{msg}</td></tr>", escape(&loc), escape(&d.code));
    }
    o.push_str("</tbody></table>\n");
    if report.diagnostics.len() > MAX_DIAGS {
        let _ = writeln!(
            o,
            "<p class=\"muted\">… and {} more.</p>",
            report.diagnostics.len() - MAX_DIAGS
        );
    }
}

/// Rows of (label, scores); columns are the union of score keys in first-seen order.
fn scores_table(o: &mut String, first: &str, rows: &[(String, &Scores)]) {
    let mut keys: Vec<&str> = Vec::new();
    for (_, s) in rows {
        for (k, _) in s.iter() {
            if !keys.contains(&k) {
                keys.push(k);
            }
        }
    }
    o.push_str("<table><thead><tr>");
    if !first.is_empty() {
        let _ = write!(o, "<th>{}</th>", escape(first));
    }
    for k in &keys {
        let _ = write!(o, "<th>{}</th>", escape(k));
    }
    o.push_str("</tr></thead><tbody>");
    for (label, s) in rows {
        o.push_str("<tr>");
        if !first.is_empty() {
            let _ = write!(o, "<td>{}</td>", escape(label));
        }
        for k in &keys {
            let _ = write!(o, "<td class=\"n\">{}</td>", num(s.get(k)));
        }
        o.push_str("</tr>");
    }
    o.push_str("</tbody></table>\n");
}

/// Shortest round-trip form, as in the JSON report.
fn num(v: Option<f64>) -> String {
    v.and_then(serde_json::Number::from_f64)
        .map_or("—".to_string(), |n| n.to_string())
}

fn items(o: &mut String, report: &Report) {
    let count = report.item_count();
    if count == 0 {
        return;
    }
    let label = if report.display.item_label.is_empty() {
        "item"
    } else {
        report.display.item_label.as_str()
    };
    let _ = writeln!(o, "<h2>Per {} ({})</h2>", escape(label), count);
    let cols: Vec<(String, String, String, Option<u32>)> = report
        .item_columns()
        .into_iter()
        .map(|c| (c.id, c.label, c.from, c.decimals))
        .collect();
    let mut has_group = false;
    report.each_item(|i| {
        has_group = i.group.is_some();
        !has_group
    });
    let _ = write!(o, "<table><thead><tr><th>{}</th>", escape(label));
    if has_group {
        o.push_str("<th>group</th>");
    }
    for (_, l, _, _) in &cols {
        let _ = write!(o, "<th>{}</th>", escape(l));
    }
    o.push_str("</tr></thead><tbody>\n");
    for k in 0..count.min(MAX_ITEMS) {
        let it = report.item(k);
        let _ = write!(o, "<tr><td>{}</td>", escape(&it.id));
        if has_group {
            let _ = write!(o, "<td>{}</td>", escape(it.group.as_deref().unwrap_or("")));
        }
        for (id, _, from, dec) in &cols {
            let cell = if from == "detail" {
                match it.detail.get(id) {
                    None | Some(Value::Null) => String::new(),
                    Some(Value::String(s)) => escape(s),
                    Some(v) => escape(&v.to_string()),
                }
            } else {
                match dec {
                    Some(d) => it
                        .scores
                        .get(id)
                        .map_or("—".into(), |x| fmt_opt(Some(x), *d)),
                    None => num(it.scores.get(id)),
                }
            };
            let _ = write!(o, "<td class=\"n\">{cell}</td>");
        }
        o.push_str("</tr>\n");
    }
    o.push_str("</tbody></table>\n");
    if count > MAX_ITEMS {
        let _ = writeln!(
            o,
            "<p class=\"muted\">… and {} more rows (see the JSON report).</p>",
            count - MAX_ITEMS
        );
    }
}

/// One plot: its spec ([`crate::render::plot`]) drawn as the page draws it, at 720×270, with its legend.
fn plot(o: &mut String, p: &Plot) {
    let spec = crate::render::plot::spec(p);
    let title = if spec.title.is_empty() {
        &spec.id
    } else {
        &spec.title
    };
    let _ = write!(
        o,
        "<figure><figcaption>{}</figcaption>{}",
        escape(title),
        crate::render::svg::draw(&spec, 720.0, 270.0)
    );
    if !spec.legend.is_empty() {
        o.push_str("<ul class=\"plot-legend\">");
        for l in &spec.legend {
            let _ = write!(
                o,
                "<li><span class=\"{}\">■</span> {}</li>",
                l.class,
                escape(&l.label)
            );
        }
        o.push_str("</ul>");
    }
    o.push_str("</figure>\n");
}
