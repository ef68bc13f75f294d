//! Text, TSV and CSV renderings of a [`Report`] (JSON is [`Report::to_json`]), and the located one-line form
//! of diagnostics the CLI prints.
//!
//! Text meant for a terminal carries file names, ids and excerpts from the input, so it is escaped
//! ([`terminal`]): control characters (C0, DEL, C1) and the bidi controls that reorder what a terminal shows
//! (U+061C, U+200E/F, U+202A–202E, U+2066–2069) become visible `\x1b` / `\u{202e}` escapes. TSV and CSV cells
//! are escaped the same way and a cell a spreadsheet would run as a formula is neutralised ([`export_cell`]);
//! JSON is data and stays as it is.

pub mod axis;
pub mod compare_plot;
pub mod page;
pub mod plot;
pub mod svg;

use crate::diag::{Diagnostic, Severity};
use crate::report::{Item, Report};
use serde_json::Value;

/// The protocol's own text layout, safe for a terminal: the ids, groups, options and details it prints are
/// escaped first (newlines and tabs in them too), then any control left in the layout's own text except its
/// newlines and tabs. Text without such characters comes out unchanged.
pub fn text(report: &Report) -> String {
    let out = match terminal_safe_report(report) {
        Some(clean) => own_or_generic_text(&clean),
        None => own_or_generic_text(report),
    };
    match terminal_lines(&out) {
        std::borrow::Cow::Borrowed(_) => out,
        std::borrow::Cow::Owned(o) => o,
    }
}

/// Whether `c` is escaped for a terminal: C0 controls, DEL, C1 controls and the bidi formatting characters.
pub fn is_terminal_control(c: char) -> bool {
    matches!(c,
        '\0'..='\u{1f}' | '\u{7f}'..='\u{9f}' | '\u{61c}' | '\u{200e}' | '\u{200f}'
        | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `s` with every [`is_terminal_control`] character for which `escape` holds written as a visible escape:
/// `\x1b` below U+0080, `\u{85}` / `\u{202e}` above. Borrowed when there is nothing to escape.
fn escape_where(s: &str, escape: impl Fn(char) -> bool) -> std::borrow::Cow<'_, str> {
    // Only ASCII controls and the lead bytes C2 (C1), D8 (U+061C) and E2 (U+200E..U+2069) can start one.
    // 64 bytes at a time, without a branch per byte (50 MB of ids in a few ms).
    let may = |b: u8| (b < 0x20) | (b == 0x7f) | (b == 0xc2) | (b == 0xd8) | (b == 0xe2);
    if !s
        .as_bytes()
        .chunks(64)
        .any(|c| c.iter().fold(false, |a, &b| a | may(b)))
    {
        return std::borrow::Cow::Borrowed(s);
    }
    if !s.chars().any(|c| is_terminal_control(c) && escape(c)) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        if is_terminal_control(c) && escape(c) {
            if (c as u32) < 0x80 {
                out.push_str(&format!("\\x{:02x}", c as u32));
            } else {
                out.push_str(&format!("\\u{{{:x}}}", c as u32));
            }
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Untrusted text (a file name, an id, an excerpt) for one line of a terminal: every control escaped,
/// newlines and tabs included.
pub fn terminal(s: &str) -> std::borrow::Cow<'_, str> {
    escape_where(s, |_| true)
}

/// Text of several lines for a terminal: every control escaped except newlines and tabs.
pub fn terminal_lines(s: &str) -> std::borrow::Cow<'_, str> {
    escape_where(s, |c| c != '\n' && c != '\t')
}

/// A copy of `report` whose ids, groups, options and detail strings are escaped with [`terminal`], or `None`
/// when none needs it (the common case: no copy).
fn terminal_safe_report(report: &Report) -> Option<Report> {
    fn value_needs(v: &Value) -> bool {
        match v {
            Value::String(s) => needs(s),
            Value::Array(a) => a.iter().any(value_needs),
            Value::Object(m) => m.iter().any(|(k, v)| needs(k) || value_needs(v)),
            _ => false,
        }
    }
    fn needs(s: &str) -> bool {
        matches!(terminal(s), std::borrow::Cow::Owned(_))
    }
    fn clean_value(v: &mut Value) {
        match v {
            Value::String(s) => clean(s),
            Value::Array(a) => a.iter_mut().for_each(clean_value),
            Value::Object(m) => {
                let old = std::mem::take(m);
                for (k, mut v) in old {
                    clean_value(&mut v);
                    m.insert(terminal(&k).into_owned(), v);
                }
            }
            _ => {}
        }
    }
    fn clean(s: &mut String) {
        if let std::borrow::Cow::Owned(o) = terminal(s) {
            *s = o;
        }
    }
    let table_dirty = report
        .item_table
        .as_ref()
        .is_some_and(|t| t.any_text(needs));
    let dirty = table_dirty
        || report.items.iter().any(|it| {
            needs(&it.id)
                || it.group.as_deref().is_some_and(needs)
                || it.detail.iter().any(|(k, v)| needs(k) || value_needs(v))
        })
        || report.groups.iter().any(|g| needs(&g.id))
        || report.options.values().any(value_needs);
    if !dirty {
        return None;
    }
    let mut r = report.with_rows();
    for it in &mut r.items {
        clean(&mut it.id);
        if let Some(g) = &mut it.group {
            clean(g);
        }
        for v in it.detail.values_mut() {
            clean_value(v);
        }
    }
    for g in &mut r.groups {
        clean(&mut g.id);
    }
    for v in r.options.values_mut() {
        clean_value(v);
    }
    Some(r)
}

/// The protocol's own text layout ([`crate::protocols::render_text`]), or [`generic_text`] when it has none.
/// With intervals (docs/specs/statistics.md section 2), a protocol's own layout is followed by one line per
/// metric with its interval, `map 0.5185 [0.4821, 0.5537]`; the generic layout has them after each value.
pub fn own_or_generic_text(report: &Report) -> String {
    let mut text = own_or_generic(report);
    text.push_str(&parts_text(report));
    text
}

/// With public/private parts (docs/specs/statistics.md section 4), one line per part: its headline metric.
fn parts_text(report: &Report) -> String {
    parts_lines(report)
        .iter()
        .map(|l| format!("{l}\n"))
        .collect()
}

/// The lines of [`parts_text`] (the page shows them under its headline): `public part: map 0.51850`.
pub fn parts_lines(report: &Report) -> Vec<String> {
    let Some(parts) = &report.parts else {
        return Vec::new();
    };
    let Some(id) = report
        .display
        .headline
        .first()
        .map(|l| l.id.as_str())
        .or_else(|| report.scores.iter().next().map(|(k, _)| k))
    else {
        return Vec::new();
    };
    let d = decimals_of(report, id);
    (parts.0.iter())
        .map(|(name, scores)| format!("{name} part: {id} {}", fmt_opt(scores.get(id), d)))
        .collect()
}

fn own_or_generic(report: &Report) -> String {
    match crate::protocols::render_text(report) {
        Some(mut own) => {
            if report.statistics.is_some() && !report.intervals.is_empty() {
                if !own.is_empty() && !own.ends_with('\n') {
                    own.push('\n');
                }
                own.push_str(&intervals_heading(report));
                for (k, v) in report.scores.iter() {
                    if report.intervals.get(k).is_some() {
                        let d = decimals_of(report, k);
                        own.push_str(&format!(
                            "{k} {}{}\n",
                            fmt_opt(v, d),
                            interval_text(report, k)
                        ));
                    }
                }
            }
            own
        }
        None => generic_text(report),
    }
}

/// The line that names the intervals: confidence, B, unit.
pub fn intervals_heading(report: &Report) -> String {
    match &report.statistics {
        Some(s) => format!(
            "{} % bootstrap intervals ({} replicates of the {}s, seed {}):\n",
            fmt_percent(s.confidence),
            s.bootstrap,
            s.unit,
            s.seed
        ),
        None => String::new(),
    }
}

/// 95 for 0.95, 99.9 for 0.999: the shortest text of 100·c.
fn fmt_percent(c: f64) -> String {
    let p = (c * 100.0 * 1e6).round() / 1e6;
    format!("{p}")
}

/// ` [low, high]` of metric `id` (` [null]` for a null interval), or nothing when it has none.
pub fn interval_text(report: &Report, id: &str) -> String {
    let Some(iv) = report.intervals.get(id) else {
        return String::new();
    };
    let d = decimals_of(report, id);
    match (iv.low, iv.high) {
        (Some(l), Some(h)) => format!(" [{}, {}]", fmt_opt(Some(l), d), fmt_opt(Some(h), d)),
        _ => " [no interval]".to_string(),
    }
}

/// `0.5185 [0.4821, 0.5537]`: metric `id`'s value and interval as the text output writes them (the page's
/// headline interval).
pub fn value_with_interval(report: &Report, id: &str) -> String {
    format!(
        "{}{}",
        fmt_opt(report.scores.get(id), decimals_of(report, id)),
        interval_text(report, id)
    )
}

/// A plain text layout for protocols without one of their own: headline, then one line per item.
pub fn generic_text(report: &Report) -> String {
    let mut out = String::new();
    for (k, v) in report.scores.iter() {
        out.push_str(&format!(
            "{k}\t{}{}\n",
            fmt_opt(v, decimals_of(report, k)),
            interval_text(report, k)
        ));
    }
    if report.statistics.is_some() && !report.intervals.is_empty() {
        out.push_str(&intervals_heading(report));
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
    let mut rows = Vec::with_capacity(report.item_count());
    let head = table_rows(report, |row| {
        rows.push(row);
        true
    });
    (head, rows)
}

/// [`table`]'s header, after handing each row to `row` (until it returns false).
fn table_rows(report: &Report, mut row: impl FnMut(Vec<String>) -> bool) -> Vec<String> {
    let mut head = vec!["id".to_string(), "group".to_string()];
    let cols: Vec<(String, String)> = report
        .item_columns()
        .into_iter()
        .map(|c| (c.id, c.from))
        .collect();
    head.extend(cols.iter().map(|c| c.0.clone()));
    let f32 = scores_are_binary32(report);
    report.each_item(|it| {
        let mut r = vec![it.id.clone(), it.group.clone().unwrap_or_default()];
        r.extend(cols.iter().map(|(id, from)| cell(it, id, from, f32)));
        row(r)
    });
    head
}

/// Whether the report's scores are binary32 values widened to binary64, as its protocol declares
/// (`Protocol::hints`; the JSON keeps the widened value, e.g. 0.6000000238418579).
pub fn scores_are_binary32(report: &Report) -> bool {
    page::hints(report).binary32
}

/// The shortest decimal that reads back as the same binary32 (0.6 for 0.6000000238418579); `None` when `x` is
/// not a binary32 value.
pub fn shortest_binary32(x: f64) -> Option<String> {
    let f = x as f32;
    (x.is_finite() && f64::from(f) == x).then(|| {
        // Rust's `Display` of an f32 is its shortest round-trip digits; JSON style for the exponent cases.
        let plain = f.to_string();
        match plain.parse::<f64>() {
            Ok(d) if (d != 0.0 && !(1e-6..1e21).contains(&d.abs())) => {
                serde_json::Number::from_f64(d).map_or(plain, |n| n.to_string())
            }
            _ => plain,
        }
    })
}

fn cell(it: &Item, id: &str, from: &str, f32: bool) -> String {
    if from == "detail" {
        match it.detail.get(id) {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(s)) => s.clone(),
            Some(v) => v.to_string(),
        }
    } else {
        // Shortest round-trip form, as in the JSON report; binary32 scores in their shortest binary32 form.
        it.scores
            .get(id)
            .map(|x| match f32.then(|| shortest_binary32(x)).flatten() {
                Some(s) => s,
                None => serde_json::Number::from_f64(x).map_or(String::new(), |n| n.to_string()),
            })
            .unwrap_or_default()
    }
}

/// A TSV or CSV cell safe to open: its controls escaped as [`terminal`] does (tabs, newlines and ESC included,
/// so a cell stays one field of one line and no escape reaches a terminal), then, following OWASP's CSV-injection
/// guidance (owasp.org/www-community/attacks/CSV_Injection), a cell a spreadsheet would read as a formula (one
/// starting with `=`, `+`, `-` or `@`; a leading tab or CR is already escaped) prefixed with `'`. Exception: a
/// plain decimal number (`-0.5`, `-3`, `1e-05`, `-1.5E+3`: an optional `-`, digits with an optional fraction,
/// an optional exponent) stays a number, since a spreadsheet reads it as a value, never as a formula.
pub fn export_cell(s: &str) -> std::borrow::Cow<'_, str> {
    let escaped = terminal(s);
    let formula =
        escaped.starts_with(['=', '+', '-', '@', '\t', '\r']) && !is_plain_number(&escaped);
    match (formula, escaped) {
        (false, e) => e,
        (true, e) => std::borrow::Cow::Owned(format!("'{e}")),
    }
}

/// `-?digits[.digits][e[+-]digits]` (or `-?.digits…`): what the report's numbers look like in a table.
fn is_plain_number(s: &str) -> bool {
    let b = s.strip_prefix('-').unwrap_or(s).as_bytes();
    let digits = |b: &[u8]| b.iter().take_while(|c| c.is_ascii_digit()).count();
    let int = digits(b);
    let mut i = int;
    let mut frac = 0;
    if b.get(i) == Some(&b'.') {
        frac = digits(&b[i + 1..]);
        i += 1 + frac;
    }
    if int + frac == 0 {
        return false;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let e = digits(&b[i..]);
        if e == 0 {
            return false;
        }
        i += e;
    }
    i == b.len()
}

pub fn tsv(report: &Report) -> String {
    let (head, rows) = table(report);
    let mut out = head
        .iter()
        .map(|c| export_cell(c))
        .collect::<Vec<_>>()
        .join("\t");
    out.push('\n');
    for r in rows {
        out.push_str(
            &r.iter()
                .map(|c| export_cell(c))
                .collect::<Vec<_>>()
                .join("\t"),
        );
        out.push('\n');
    }
    out
}

pub fn csv(report: &Report) -> String {
    let mut out = Vec::new();
    let _ = write_csv(report, &mut out); // writing into a Vec cannot fail
    String::from_utf8(out).unwrap_or_default()
}

/// [`csv`]'s text written to `w` row by row, without holding it whole (the page's download of millions of rows).
pub fn write_csv(report: &Report, w: impl std::io::Write) -> std::io::Result<()> {
    use std::io::Write;
    fn line(w: &mut impl Write, cells: &[String]) -> std::io::Result<()> {
        for (i, s) in cells.iter().enumerate() {
            if i > 0 {
                w.write_all(b",")?;
            }
            let s = export_cell(s);
            if s.contains([',', '"']) {
                write!(w, "\"{}\"", s.replace('"', "\"\""))?;
            } else {
                w.write_all(s.as_bytes())?;
            }
        }
        w.write_all(b"\n")
    }
    let mut w = std::io::BufWriter::with_capacity(1 << 16, w);
    let mut head = vec!["id".to_string(), "group".to_string()];
    head.extend(report.item_columns().into_iter().map(|c| c.id));
    line(&mut w, &head)?;
    let mut res = Ok(());
    table_rows(report, |row| {
        res = line(&mut w, &row);
        res.is_ok()
    });
    res?;
    w.flush()
}

impl crate::protocols::preflight::Checked {
    /// The verdict, then one block per diagnostic (errors first), as [`diagnostic`] writes them.
    pub fn to_text(&self) -> String {
        let mut s = format!("{}\n", self.summary);
        for d in &self.report.diagnostics {
            s.push_str(&diagnostic(d));
        }
        s
    }
}

/// `file:line:column: severity [code] message`, then indented expected/found/hint/official lines; the file
/// name and the texts escaped for a terminal ([`terminal`]), so each stays on its line.
pub fn diagnostic(d: &Diagnostic) -> String {
    let mut loc = d
        .file
        .as_deref()
        .map_or_else(|| "(input)".to_string(), |f| terminal(f).into_owned());
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
    let mut s = format!(
        "{loc}: {sev} [{}] {}\n",
        terminal(&d.code),
        terminal(&d.message)
    );
    for (k, v) in [
        ("expected", &d.expected),
        ("found", &d.found),
        ("hint", &d.hint),
        ("official", &d.official_behaviour),
    ] {
        if let Some(v) = v {
            s.push_str(&format!("    {k}: {}\n", terminal(v)));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::shortest_binary32;

    /// want = str(numpy.float32(v)) (numpy 2.4.6, Dragon4 shortest round-trip).
    #[test]
    fn shortest_binary32_is_numpys_float32_text() {
        let cases = [
            (0.6000000238418579, "0.6"),
            (0.8999999761581421, "0.9"),
            (0.5185185670852661, "0.51851857"),
            (0.5555555820465088, "0.5555556"),
            (0.4444444477558136, "0.44444445"),
            (0.48148149251937866, "0.4814815"),
            (0.800000011920929, "0.8"),
            (1.0, "1"),
            (0.0, "0"),
            (1.401298464324817e-45, "1e-45"),
            (3.4028234663852886e38, "3.4028235e+38"),
        ];
        for (v, want) in cases {
            assert_eq!(shortest_binary32(v).as_deref(), Some(want), "{v}");
        }
        assert_eq!(shortest_binary32(0.1), None, "not a binary32 value");
    }
}
