//! The `text` family's readers (docs/specs/text.md section 1): bytes in, records out (an id and its texts,
//! located), with located diagnostics. One module per layout; [`detect`] tells the layout from content.

pub mod json;
pub mod page;
pub mod squad;
pub mod table;

use crate::diag::{Diagnostic, Diags};

/// One item as a file gives it: its id, its text(s) (several references where the layout has them), and where.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub id: String,
    pub texts: Vec<String>,
    /// 1-based line and column of the record (0: the file as a whole).
    pub line: u64,
    pub column: u64,
}

/// The input layouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    Table,
    Json,
    Squad,
    Files,
    Page,
}

impl Layout {
    pub fn parse(s: &str) -> Option<Option<Layout>> {
        Some(match s {
            "auto" | "" => None,
            "table" => Some(Layout::Table),
            "json" => Some(Layout::Json),
            "squad" => Some(Layout::Squad),
            "files" => Some(Layout::Files),
            "page" => Some(Layout::Page),
            _ => return None,
        })
    }
    pub fn name(self) -> &'static str {
        match self {
            Layout::Table => "table",
            Layout::Json => "json",
            Layout::Squad => "squad",
            Layout::Files => "files",
            Layout::Page => "page",
        }
    }
}

/// The layout of one file from its name and first bytes: PAGE XML (`<PcGts`), a SQuAD dataset (`"data"` and
/// `"paragraphs"`), JSON or JSON Lines (`{` / `[`), a `.txt` file (one item), else a CSV/TSV table.
pub fn detect(name: &str, head: &[u8]) -> Layout {
    let head = crate::formats::lines::strip_bom(head);
    let start = head
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(head.len());
    let body = &head[start..];
    let has = |s: &[u8]| memchr::memmem::find(head, s).is_some();
    let lower = name.to_ascii_lowercase();
    if body.starts_with(b"<") && (has(b"PcGts") || lower.ends_with(".xml")) {
        Layout::Page
    } else if body.starts_with(b"{") && has(b"\"paragraphs\"") && has(b"\"data\"") {
        Layout::Squad
    } else if body.starts_with(b"{") || body.starts_with(b"[") {
        Layout::Json
    } else if lower.ends_with(".txt") {
        Layout::Files
    } else {
        Layout::Table
    }
}

/// The 1-based line and column (code points) of byte `at` of `body`.
pub fn line_col(body: &[u8], at: usize) -> (u64, u64) {
    let at = at.min(body.len());
    let before = &body[..at];
    let line = 1 + memchr::memchr_iter(b'\n', before).count() as u64;
    let start = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
    let col = 1 + String::from_utf8_lossy(&before[start..]).chars().count() as u64;
    (line, col)
}

/// `body` as UTF-8 (a BOM dropped), or the located `input.invalid_utf8` error.
pub fn utf8<'a>(file: &str, body: &'a [u8], diags: &mut Diags) -> Option<&'a str> {
    let body = crate::formats::lines::strip_bom(body);
    match std::str::from_utf8(body) {
        Ok(s) => Some(s),
        Err(e) => {
            let (line, col) = line_col(body, e.valid_up_to());
            diags.push(
                Diagnostic::error("input.invalid_utf8", "the file is not UTF-8 text")
                    .file(file)
                    .at(line, col)
                    .hint("Save the file as UTF-8."),
            );
            None
        }
    }
}

/// A located error of the family (`text.<what>`).
pub fn error(code: &str, file: &str, line: u64, column: u64, message: String) -> Diagnostic {
    let d = Diagnostic::error(code, message).file(file);
    match (line, column) {
        (0, _) => d,
        (l, 0) => d.line(l),
        (l, c) => d.at(l, c),
    }
}
