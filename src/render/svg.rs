//! A plot spec ([`super::plot`]) drawn as one inline SVG at a fixed size, for `detailed_results.html`: the same
//! layout, classes and texts as the page's drawer (`www/plots.js`), which draws the spec at its container's
//! width. [`STYLE`] colours the classes as the page's light theme does.

use super::plot::{Axis, Spec, Tick};
use crate::html::escape;
use std::fmt::Write;

/// The plot classes' colours (www/style.css, light theme).
pub const STYLE: &str = ".plot-svg{display:block;max-width:100%;height:auto}.plot-gridline{stroke:#e6e9ee}.plot-zero,.plot-axis{stroke:#b9c0ca}\
.plot-tick{fill:#5a6371}.plot-label{fill:#1a1e24;font-weight:600}.plot-null{fill:#5a6371}.plot-bar{fill:#3f78d1}\
.plot-hist .plot-bar{fill:#2e8b57}.plot-path{stroke-width:2.25;stroke-linejoin:round;stroke-linecap:round}\
.plot-point{stroke:#fff;stroke-width:1.5}.plot-fill{stroke:none;opacity:.18}.plot-dashed{stroke-dasharray:5 4}\
.series-0{fill:#1d5fc4;stroke:#1d5fc4;color:#1d5fc4}.series-1{fill:#d9730d;stroke:#d9730d;color:#d9730d}.series-2{fill:#2e8b57;stroke:#2e8b57;color:#2e8b57}\
.series-3{fill:#b03a8c;stroke:#b03a8c;color:#b03a8c}.series-4{fill:#6b5bd2;stroke:#6b5bd2;color:#6b5bd2}.series-5{fill:#a0522d;stroke:#a0522d;color:#a0522d}\
.series-6{fill:#008b8b;stroke:#008b8b;color:#008b8b}.series-7,.series-faint{fill:#6b7280;stroke:#6b7280;color:#6b7280}\
.series-faint .plot-path{stroke-width:1;opacity:.35}.plot-legend{list-style:none;padding:0;margin:4px 0;display:flex;flex-wrap:wrap;gap:4px 14px;font-size:.85em}";

/// The margins around the plotting area: left, right, top, bottom.
struct Margins {
    l: f64,
    r: f64,
    t: f64,
    b: f64,
}

/// `spec` as an `<svg>` of `w`×`h` pixels.
pub fn draw(spec: &Spec, w: f64, h: f64) -> String {
    let mut o = String::new();
    let title = escape(if spec.title.is_empty() {
        "Plot"
    } else {
        &spec.title
    });
    let _ = write!(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot-svg\" role=\"img\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" aria-label=\"{}\"><title>{title}</title><desc>{}</desc>", escape(&spec.summary), escape(&spec.summary));
    match spec.kind.as_str() {
        "bars" | "histogram" => bars(&mut o, spec, w, h),
        "lines" => lines(&mut o, spec, w, h),
        "heatmap" => heatmap(&mut o, spec, w, h),
        k => {
            let _ = write!(
                o,
                "<text x=\"16\" y=\"24\" class=\"plot-tick\">(unknown plot kind “{}”)</text>",
                escape(k)
            );
        }
    }
    o.push_str("</svg>");
    o
}

/// The y grid, both axes and the axis titles; returns the plotting area's width and height.
fn frame(o: &mut String, y: &Axis, x_label: &str, m: &Margins, w: f64, h: f64) -> (f64, f64) {
    let (pw, ph) = (w - m.l - m.r, h - m.t - m.b);
    o.push_str("<g class=\"plot-grid\" aria-hidden=\"true\">");
    for t in &y.ticks {
        let yy = y_px(y, t.at, m, ph);
        let class = if t.at == 0.0 {
            "plot-zero"
        } else {
            "plot-gridline"
        };
        let _ = write!(o, "<line x1=\"{}\" x2=\"{}\" y1=\"{yy:.2}\" y2=\"{yy:.2}\" class=\"{class}\"/><text x=\"{}\" y=\"{yy:.2}\" class=\"plot-tick\" text-anchor=\"end\" dominant-baseline=\"middle\">{}</text>", m.l, m.l + pw, m.l - 8.0, escape(&t.text));
    }
    let _ = write!(o, "</g><line x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" y2=\"{2}\" class=\"plot-axis\"/><line x1=\"{0}\" x2=\"{3}\" y1=\"{2}\" y2=\"{2}\" class=\"plot-axis\"/>", m.l, m.t, m.t + ph, m.l + pw);
    if !x_label.is_empty() {
        let _ = write!(
            o,
            "<text x=\"{}\" y=\"{}\" class=\"plot-label\" text-anchor=\"middle\">{}</text>",
            m.l + pw / 2.0,
            h - 8.0,
            escape(x_label)
        );
    }
    if !y.label.is_empty() {
        let _ = write!(o, "<text x=\"0\" y=\"0\" class=\"plot-label\" text-anchor=\"middle\" transform=\"translate(14 {}) rotate(-90)\">{}</text>", m.t + ph / 2.0, escape(&y.label));
    }
    (pw, ph)
}

fn y_px(y: &Axis, v: f64, m: &Margins, ph: f64) -> f64 {
    m.t + ph - (v - y.lo) / (y.hi - y.lo) * ph
}

/// Bars: every label under its bar when they fit (without their common prefix), else the spec's ticks.
fn bars(o: &mut String, s: &Spec, w: f64, h: f64) {
    let n = s.bars.len();
    let hist = s.kind == "histogram";
    let all = n <= ((w - 80.0) / 44.0).floor() as usize;
    let m = Margins {
        l: 56.0,
        r: 16.0,
        t: 14.0,
        b: if all { 52.0 } else { 46.0 },
    };
    let (pw, ph) = frame(o, &s.y, &s.x.label, &m, w, h);
    let band = (pw / n.max(1) as f64).min(if hist { 120.0 } else { 72.0 });
    let x0 = m.l + (pw - band * n as f64) / 2.0;
    let gap = if hist {
        (band * 0.1).min(1.0)
    } else if band > 6.0 {
        band * 0.22
    } else if band > 2.0 {
        1.0
    } else {
        0.0
    };
    let base = y_px(&s.y, 0f64.min(s.y.hi).max(s.y.lo), &m, ph);
    let _ = write!(
        o,
        "<g class=\"{}\">",
        if hist { "plot-hist" } else { "plot-bars" }
    );
    for (i, b) in s.bars.iter().enumerate() {
        let x = x0 + i as f64 * band + gap / 2.0;
        let Some(v) = b.value else {
            let dash = if band > 10.0 { "—" } else { "" };
            let _ = write!(o, "<text x=\"{:.2}\" y=\"{:.2}\" class=\"plot-null\" text-anchor=\"middle\">{dash}<title>{}</title></text>", x + (band - gap) / 2.0, base - 4.0, escape(&b.text));
            continue;
        };
        let yy = y_px(&s.y, v, &m, ph);
        let height = (base - yy).abs().max(if v == 0.0 { 0.0 } else { 0.75 });
        let _ = write!(o, "<rect x=\"{x:.2}\" y=\"{:.2}\" width=\"{:.2}\" height=\"{height:.2}\" class=\"plot-bar\"><title>{}</title></rect>", yy.min(base), (band - gap).max(0.5), escape(&b.text));
    }
    o.push_str("</g><g class=\"plot-xticks\" aria-hidden=\"true\">");
    let ty = m.t + ph + 16.0;
    if all {
        let fit = ((band / 7.0).floor() as usize).max(4);
        for (i, b) in s.bars.iter().enumerate() {
            let _ = write!(o, "<text x=\"{:.2}\" y=\"{ty}\" class=\"plot-tick\" text-anchor=\"middle\">{}<title>{}</title></text>", x0 + (i as f64 + 0.5) * band, escape(&middle(&b.short, fit)), escape(&b.label));
        }
    } else {
        for t in fitting(&s.x.ticks, |at| x0 + (at - 0.5) * band) {
            let xx = x0 + (t.at - 0.5) * band;
            let _ = write!(o, "<line x1=\"{xx:.2}\" x2=\"{xx:.2}\" y1=\"{}\" y2=\"{}\" class=\"plot-axis\"/><text x=\"{xx:.2}\" y=\"{ty}\" class=\"plot-tick\" text-anchor=\"middle\">{}</text>", m.t + ph, m.t + ph + 4.0, escape(&t.text));
        }
    }
    o.push_str("</g>");
}

/// The ticks whose texts (11 px, about 6.5 px a character) do not overlap at `x(at)`, from the left; the last tick
/// is kept in place of the one before it when they would.
pub fn fitting(ticks: &[Tick], x: impl Fn(f64) -> f64) -> Vec<&Tick> {
    let half = |t: &Tick| t.text.chars().count() as f64 * 3.25 + 3.0;
    let mut out: Vec<&Tick> = Vec::new();
    for (i, t) in ticks.iter().enumerate() {
        match out.last() {
            Some(p) if x(t.at) - x(p.at) < half(p) + half(t) => {
                if i + 1 == ticks.len() && out.len() > 1 {
                    out.pop();
                    out.push(t);
                }
            }
            _ => out.push(t),
        }
    }
    out
}

/// `text` cut to `max` characters, keeping its start and its end around a `…`.
pub fn middle(text: &str, max: usize) -> String {
    let c: Vec<char> = text.chars().collect();
    if c.len() <= max {
        return text.to_string();
    }
    let head = max / 2; // ceil((max - 1) / 2)
    let tail = max - 1 - head;
    c[..head]
        .iter()
        .chain(['…'].iter())
        .chain(&c[c.len() - tail..])
        .collect()
}

fn lines(o: &mut String, s: &Spec, w: f64, h: f64) {
    let m = Margins {
        l: 56.0,
        r: 16.0,
        t: 14.0,
        b: 46.0,
    };
    let (pw, ph) = frame(o, &s.y, &s.x.label, &m, w, h);
    let x = |v: f64| m.l + (v - s.x.lo) / (s.x.hi - s.x.lo) * pw;
    let y = |v: f64| y_px(&s.y, v, &m, ph);
    o.push_str("<g class=\"plot-xticks\" aria-hidden=\"true\">");
    for t in &s.x.ticks {
        let xx = x(t.at);
        let _ = write!(o, "<line x1=\"{xx:.2}\" x2=\"{xx:.2}\" y1=\"{}\" y2=\"{}\" class=\"plot-axis\"/><text x=\"{xx:.2}\" y=\"{}\" class=\"plot-tick\" text-anchor=\"middle\">{}</text>", m.t + ph, m.t + ph + 4.0, m.t + ph + 16.0, escape(&t.text));
    }
    o.push_str("</g>");
    let base = y(0f64.min(s.y.hi).max(s.y.lo));
    for se in &s.series {
        let _ = write!(
            o,
            "<g class=\"plot-line {}\"><title>{}</title>",
            se.class,
            escape(&se.label)
        );
        let pts: Vec<[f64; 2]> = se.points.iter().flatten().copied().collect();
        let mut d = String::new();
        let mut pen = false;
        for p in &se.points {
            match p {
                Some([a, b]) => {
                    let _ = write!(
                        d,
                        "{}{:.2} {:.2}",
                        if pen { 'L' } else { 'M' },
                        x(*a),
                        y(*b)
                    );
                    pen = true;
                }
                None => pen = false,
            }
        }
        if se.style == "fill" && pts.len() > 1 {
            let mut area = format!("M{:.2} {base:.2}", x(pts[0][0]));
            for [a, b] in &pts {
                let _ = write!(area, "L{:.2} {:.2}", x(*a), y(*b));
            }
            let _ = write!(area, "L{:.2} {base:.2}Z", x(pts[pts.len() - 1][0]));
            let _ = write!(o, "<path d=\"{area}\" class=\"plot-fill\"/>");
        }
        if se.style != "points" {
            let dashed = if se.style == "dashed" {
                " plot-dashed"
            } else {
                ""
            };
            let _ = write!(
                o,
                "<path d=\"{d}\" class=\"plot-path{dashed}\" fill=\"none\"/>"
            );
        }
        let r = if se.style == "points" { 2.5 } else { 3.5 };
        for ([a, b], t) in pts.iter().zip(&se.markers) {
            let _ = write!(o, "<circle cx=\"{:.2}\" cy=\"{:.2}\" r=\"{r}\" class=\"plot-point\"><title>{}</title></circle>", x(*a), y(*b), escape(t));
        }
        o.push_str("</g>");
    }
}

fn heatmap(o: &mut String, s: &Spec, w: f64, h: f64) {
    let Some(heat) = &s.heat else { return };
    let n = heat.n;
    let small = heat.values_shown;
    let m = if small {
        Margins {
            l: 92.0,
            r: 16.0,
            t: 10.0,
            b: 40.0,
        }
    } else {
        Margins {
            l: 40.0,
            r: 16.0,
            t: 10.0,
            b: 30.0,
        }
    };
    let size = (w - m.l - m.r).min(h - m.t - m.b).max(40.0);
    let cell = size / n.max(1) as f64;
    let (x0, y0) = (m.l + (w - m.l - m.r - size) / 2.0, m.t);
    o.push_str("<g class=\"plot-heat\">");
    for (k, c) in heat.cells.iter().enumerate() {
        let (i, j) = ((k / n) as f64, (k % n) as f64);
        let (fill, class) = match &c.fill {
            Some(f) => (f.as_str(), "heat-cell"),
            None => ("transparent", "heat-cell heat-null"),
        };
        let _ = write!(o, "<rect x=\"{:.2}\" y=\"{:.2}\" width=\"{:.2}\" height=\"{:.2}\" fill=\"{fill}\" class=\"{class}\"><title>{}</title></rect>", x0 + j * cell, y0 + i * cell, cell + 0.3, cell + 0.3, escape(&c.title));
        if small && c.fill.is_some() {
            let fill = if c.light { "#fff" } else { "#111" };
            let _ = write!(o, "<text x=\"{:.2}\" y=\"{:.2}\" text-anchor=\"middle\" dominant-baseline=\"middle\" class=\"heat-value\" style=\"fill:{fill}\">{}</text>", x0 + (j + 0.5) * cell, y0 + (i + 0.5) * cell, escape(&c.text));
        }
    }
    o.push_str("</g><g class=\"plot-xticks\" aria-hidden=\"true\">");
    for b in &heat.blocks {
        let mid = (b.start + b.end) as f64 / 2.0;
        let t = escape(&b.text);
        let _ = write!(
            o,
            "<text x=\"{:.2}\" y=\"{:.2}\" class=\"plot-tick\" text-anchor=\"middle\">{t}</text>",
            x0 + mid * cell,
            y0 + size + 14.0
        );
        if small {
            let _ = write!(o, "<text x=\"{:.2}\" y=\"{:.2}\" class=\"plot-tick\" text-anchor=\"end\" dominant-baseline=\"middle\">{t}</text>", x0 - 6.0, y0 + mid * cell);
        } else {
            let _ = write!(o, "<text x=\"0\" y=\"0\" class=\"plot-tick\" text-anchor=\"middle\" transform=\"translate({:.2} {:.2}) rotate(-90)\">{t}</text>", x0 - 8.0, y0 + mid * cell);
            if b.end < n {
                let e = b.end as f64 * cell;
                let _ = write!(o, "<line x1=\"{0:.2}\" x2=\"{0:.2}\" y1=\"{y0}\" y2=\"{1:.2}\" class=\"plot-axis\"/><line x1=\"{x0:.2}\" x2=\"{2:.2}\" y1=\"{3:.2}\" y2=\"{3:.2}\" class=\"plot-axis\"/>", x0 + e, y0 + size, x0 + size, y0 + e);
            }
        }
    }
    o.push_str("</g>");
    if !s.x.label.is_empty() {
        let _ = write!(
            o,
            "<text x=\"{:.2}\" y=\"{}\" class=\"plot-label\" text-anchor=\"middle\">{}</text>",
            x0 + size / 2.0,
            h - 6.0,
            escape(&s.x.label)
        );
    }
    if !s.y.label.is_empty() {
        let _ = write!(o, "<text x=\"0\" y=\"0\" class=\"plot-label\" text-anchor=\"middle\" transform=\"translate(12 {:.2}) rotate(-90)\">{}</text>", y0 + size / 2.0, escape(&s.y.label));
    }
}
