//! The text layer of label files: UTF-8 decoding, the delimiter (`,` `;` TAB or whitespace runs), field
//! columns for locating values, and records read with the `csv` crate.

use crate::diag::{Diagnostic, Diags};
use crate::formats::lines::LineCount;

/// 1-based columns (in chars) where each field of `line` starts, splitting on `delim` outside double quotes.
pub(super) fn field_columns(line: &str, delim: Option<u8>) -> Vec<u64> {
    let mut cols = Vec::new();
    match delim {
        Some(d) => {
            let d = d as char;
            cols.push(1);
            let mut quoted = false;
            for (i, c) in line.chars().enumerate() {
                if c == '"' {
                    quoted = !quoted;
                } else if c == d && !quoted {
                    cols.push(i as u64 + 2);
                }
            }
        }
        None => {
            let mut prev_ws = true;
            for (i, c) in line.chars().enumerate() {
                let ws = c.is_whitespace();
                if !ws && prev_ws {
                    cols.push(i as u64 + 1);
                }
                prev_ws = ws;
            }
        }
    }
    cols
}

fn count_fields(line: &str, delim: Option<u8>) -> usize {
    match delim {
        Some(_) => field_columns(line, delim).len(),
        None => line.split_whitespace().count(),
    }
}

/// Decodes UTF-8 (BOM stripped) and normalises line ends to `\n`; invalid UTF-8 is located.
pub fn decode_text(path: &str, bytes: &[u8], diags: &mut Diags, code: &str) -> Option<String> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(s) => Some(if s.contains('\r') {
            s.replace("\r\n", "\n").replace('\r', "\n")
        } else {
            s.to_string()
        }),
        Err(e) => {
            let good = &bytes[..e.valid_up_to()];
            let line = good.iter().filter(|b| **b == b'\n').count() as u64 + 1;
            let start = good.iter().rposition(|b| *b == b'\n').map_or(0, |p| p + 1);
            let col = String::from_utf8_lossy(&good[start..]).chars().count() as u64 + 1;
            diags.push(
                Diagnostic::error(code, "the file is not valid UTF-8")
                    .file(path)
                    .at(line, col)
                    .expected("UTF-8 text")
                    .found(format!(
                        "byte 0x{:02X}",
                        bytes.get(e.valid_up_to()).copied().unwrap_or(0)
                    ))
                    .hint("Save the file as UTF-8 (CSV UTF-8 in spreadsheet programs)."),
            );
            None
        }
    }
}

/// The delimiter of a label file (2.1): `,` `;` TAB giving the same field count, 2 to 4, on the first 20
/// non-blank lines; else runs of whitespace (`None`); else the one most of those lines agree with the first on.
/// `Err` when nothing fits.
pub(super) fn detect_delimiter(text: &str) -> Result<Option<u8>, ()> {
    let head: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(20)
        .collect();
    if head.is_empty() {
        return Ok(Some(b','));
    }
    let fits = |d: Option<u8>| {
        let n = count_fields(head[0], d);
        (2..=4).contains(&n) && head.iter().all(|l| count_fields(l, d) == n)
    };
    for d in [b',', b';', b'\t'] {
        if fits(Some(d)) {
            return Ok(Some(d));
        }
    }
    if fits(None) {
        return Ok(None);
    }
    // One damaged line (e.g. `p07;Pizan` in a comma file) must not hide the delimiter: take the one that the
    // first line and most of the others agree on, so the reader locates the lines that differ.
    let agreeing = |d: Option<u8>| {
        let n = count_fields(head[0], d);
        let k = head.iter().filter(|l| count_fields(l, d) == n).count();
        ((2..=4).contains(&n) && 2 * k > head.len()).then_some(k)
    };
    [Some(b','), Some(b';'), Some(b'\t'), None]
        .into_iter()
        .rev() // max_by_key keeps the last of equal counts: the first in preference order
        .filter_map(|d| agreeing(d).map(|k| (k, d)))
        .max_by_key(|(k, _)| *k)
        .map(|(_, d)| d)
        .ok_or(())
}

pub(super) struct Record {
    pub line: u64,
    pub fields: Vec<String>,
}

pub(super) fn records(text: &str, delim: Option<u8>, path: &str, diags: &mut Diags) -> Vec<Record> {
    let mut out = Vec::new();
    match delim {
        Some(d) => {
            let mut rdr = csv::ReaderBuilder::new()
                .has_headers(false)
                .flexible(true)
                .delimiter(d)
                .from_reader(LineCount::new(text.as_bytes()));
            let mut rec = csv::StringRecord::new();
            loop {
                match rdr.read_record(&mut rec) {
                    Ok(true) => out.push(Record {
                        line: rec
                            .position()
                            .map_or(0, |p| rdr.get_ref().line_at(p.byte())),
                        fields: rec.iter().map(str::to_string).collect(),
                    }),
                    Ok(false) => break,
                    Err(e) => {
                        let line = e.position().map_or(0, |p| rdr.get_ref().line_at(p.byte()));
                        diags.push(
                            Diagnostic::error("falsid.labels.malformed", format!("unreadable record: {e}"))
                                .file(path)
                                .line(line)
                                .hint("Check the quotes on this line (RFC 4180: a quote inside a quoted field is written \"\")."),
                        );
                        break;
                    }
                }
            }
        }
        None => {
            for (i, l) in text.lines().enumerate() {
                out.push(Record {
                    line: i as u64 + 1,
                    fields: l.split_whitespace().map(str::to_string).collect(),
                });
            }
        }
    }
    out.retain(|r| !r.fields.iter().all(|f| f.trim().is_empty()));
    out
}
