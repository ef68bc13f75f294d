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
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta http-equiv=\"Content-Security-Policy\" content=\"{CSP}\"><title>{} · detailed results</title><style>{STYLE}</style></head><body>\n<h1>{}</h1>\n<p class=\"muted\">protocol <code>{}</code>, {} mode · computed by dropscore {}</p>\n",
        escape(&title),
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

/// A heat map: `labels` name the n rows and columns, `values` the n×n cells row-major (null = empty).
fn heatmap(o: &mut String, p: &Plot) {
    let n = p.labels.len();
    if n == 0 || p.values.len() != n * n {
        return;
    }
    let cell = (480.0 / n as f64).clamp(2.0, 60.0);
    let (l, t) = (90.0, 10.0);
    let side = cell * n as f64;
    let finite = p.values.iter().flatten().copied().filter(|v| v.is_finite());
    let (lo, hi) = finite.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
        (a.min(v), b.max(v))
    });
    let span = if hi > lo { hi - lo } else { 1.0 };
    let (w, h) = (l + side + 10.0, t + side + 30.0);
    let _ = write!(o, "<figure><figcaption>{}</figcaption><svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" role=\"img\"><title>{}</title>", escape(&p.title), escape(&p.title));
    for (i, v) in p.values.iter().enumerate() {
        let (r, c) = (i / n, i % n);
        let (x, y) = (l + c as f64 * cell, t + r as f64 * cell);
        let Some(v) = v.filter(|v| v.is_finite()) else {
            continue;
        };
        let k = (v - lo) / span;
        let _ = write!(o, "<rect x=\"{x:.2}\" y=\"{y:.2}\" width=\"{cell:.2}\" height=\"{cell:.2}\" fill=\"hsl(214 70% {:.1}%)\"><title>{} / {}: {}</title></rect>", 94.0 - 62.0 * k, escape(&p.labels[r]), escape(&p.labels[c]), num(Some(v)));
        if n <= 12 {
            let _ = write!(
                o,
                "<text x=\"{:.2}\" y=\"{:.2}\" text-anchor=\"middle\" style=\"fill:{}\">{}</text>",
                x + cell / 2.0,
                y + cell / 2.0 + 4.0,
                if k > 0.55 { "#fff" } else { "#111" },
                num(Some(v))
            );
        }
    }
    if n <= 30 {
        for (i, lab) in p.labels.iter().enumerate() {
            let y = t + i as f64 * cell + cell / 2.0 + 4.0;
            let _ = write!(
                o,
                "<text x=\"{:.2}\" y=\"{y:.2}\" text-anchor=\"end\">{}</text>",
                l - 4.0,
                escape(lab)
            );
        }
    }
    let _ = writeln!(
        o,
        "<text x=\"{:.2}\" y=\"{:.2}\" text-anchor=\"middle\">{} (rows: {})</text></svg></figure>",
        l + side / 2.0,
        h - 6.0,
        escape(&p.x_label),
        escape(&p.y_label)
    );
}

/// One inline SVG: bars/histogram from labels + values, lines from series, heat maps.
fn plot(o: &mut String, p: &Plot) {
    if p.kind == "heatmap" {
        heatmap(o, p);
        return;
    }
    const W: f64 = 720.0;
    const H: f64 = 260.0;
    const L: f64 = 48.0;
    const B: f64 = 36.0;
    const T: f64 = 10.0;
    let (pw, ph) = (W - L - 10.0, H - B - T);
    let mut ys: Vec<f64> = p.values.iter().flatten().copied().collect();
    let mut xs: Vec<f64> = Vec::new();
    for s in &p.series {
        ys.extend(s.y.iter().flatten());
        xs.extend(s.x.iter().copied().filter(|x| x.is_finite()));
    }
    let ymax = ys
        .iter()
        .copied()
        .filter(|y| y.is_finite())
        .fold(0.0f64, f64::max);
    let ymin = ys
        .iter()
        .copied()
        .filter(|y| y.is_finite())
        .fold(0.0f64, f64::min);
    let span = if ymax > ymin { ymax - ymin } else { 1.0 };
    let yp = |y: f64| T + ph - (y - ymin) / span * ph;
    let _ = write!(o, "<figure><figcaption>{}</figcaption><svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {W} {H}\" width=\"{W}\" height=\"{H}\" role=\"img\"><title>{}</title>", escape(&p.title), escape(&p.title));
    let _ = write!(
        o,
        "<line x1=\"{L}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#888\"/>",
        T + ph,
        L + pw,
        T + ph
    );
    let _ = write!(
        o,
        "<line x1=\"{L}\" y1=\"{T}\" x2=\"{L}\" y2=\"{}\" stroke=\"#888\"/>",
        T + ph
    );
    for (v, y) in [(ymax, yp(ymax)), (ymin, yp(ymin))] {
        let _ = write!(
            o,
            "<text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            L - 4.0,
            y + 4.0,
            crate::render::fmt_opt(Some(v), 3)
        );
    }
    let _ = write!(
        o,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
        L + pw / 2.0,
        H - 4.0,
        escape(&p.x_label)
    );
    let _ = write!(
        o,
        "<text x=\"12\" y=\"{}\" transform=\"rotate(-90 12 {})\" text-anchor=\"middle\">{}</text>",
        T + ph / 2.0,
        T + ph / 2.0,
        escape(&p.y_label)
    );
    if !p.values.is_empty() {
        let n = p.values.len() as f64;
        let bw = pw / n;
        for (i, v) in p.values.iter().enumerate() {
            let Some(v) = v.filter(|v| v.is_finite()) else {
                continue;
            };
            let x = L + i as f64 * bw;
            let (y0, y1) = (yp(v.max(0.0)), yp(v.min(0.0)));
            let label = p.labels.get(i).map_or(String::new(), |l| escape(l));
            let _ = write!(o, "<rect x=\"{:.2}\" y=\"{:.2}\" width=\"{:.2}\" height=\"{:.2}\" fill=\"#3a6fd8\"><title>{label}: {}</title></rect>", x + bw * 0.1, y0, (bw * 0.8).max(0.5), (y1 - y0).max(0.5), num(Some(v)));
            if p.values.len() <= 40 {
                let _ = write!(
                    o,
                    "<text x=\"{:.2}\" y=\"{:.2}\" text-anchor=\"middle\">{label}</text>",
                    x + bw / 2.0,
                    T + ph + 13.0
                );
            }
        }
    }
    let colors = ["#3a6fd8", "#d8743a", "#2f9e5b", "#9b3ad8", "#c23a5a"];
    let (xmin, xmax) = (
        xs.iter().copied().fold(f64::INFINITY, f64::min),
        xs.iter().copied().fold(f64::NEG_INFINITY, f64::max),
    );
    let xspan = if xmax > xmin { xmax - xmin } else { 1.0 };
    for (si, s) in p.series.iter().enumerate() {
        let pts: Vec<String> =
            s.x.iter()
                .zip(&s.y)
                .filter_map(|(x, y)| {
                    y.filter(|y| y.is_finite() && x.is_finite())
                        .map(|y| format!("{:.2},{:.2}", L + (x - xmin) / xspan * pw, yp(y)))
                })
                .collect();
        let _ = write!(o, "<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\" points=\"{}\"><title>{}</title></polyline>", colors[si % colors.len()], pts.join(" "), escape(&s.label));
    }
    o.push_str("</svg></figure>\n");
}
