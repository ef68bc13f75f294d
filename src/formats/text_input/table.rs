//! The `table` layout: a CSV or TSV with a header, an id column and a text column (Kaggle's quoting, RFC 4180),
//! read with the families' CSV reader ([`crate::formats::csv_records`]). Ids are trimmed of ASCII spaces; the
//! text is kept exactly as given. A row with another number of fields than the header (a missing text cell) is
//! the reader's located `text.csv` error.

use super::Record;
use crate::diag::{excerpt, Diagnostic, Diags};
use crate::formats::csv_records::{self, Event};

/// The records of a table; `None` when the header lacks a column (error `text.no_column`).
pub fn read(
    file: &str,
    body: &[u8],
    delimiter: u8,
    id_column: &str,
    text_column: &str,
    diags: &mut Diags,
) -> Option<Vec<Record>> {
    let mut cols: Option<(usize, usize)> = None;
    let mut failed = false;
    let mut out = Vec::new();
    csv_records::read("text", file, body, delimiter, diags, |ev, diags| match ev {
        Event::Header(h) => {
            let find = |name: &str| h.iter().position(|c| c == name);
            match (find(id_column), find(text_column)) {
                (Some(i), Some(t)) => {
                    cols = Some((i, t));
                    true
                }
                (i, _) => {
                    let missing = if i.is_none() { id_column } else { text_column };
                    diags.push(
                        Diagnostic::error("text.no_column", format!("the header has no column `{missing}`"))
                            .file(file)
                            .line(1)
                            .found(excerpt(&h.join(",")))
                            .hint("Name the columns with the options `id_column` and `text_column` (defaults `id`, `text`)."),
                    );
                    failed = true;
                    false
                }
            }
        }
        Event::Row(r) => {
            let Some((i, t)) = cols else { return false };
            out.push(Record {
                id: r.get(i).to_string(),
                texts: vec![r.fields.get(t).copied().unwrap_or("").to_string()],
                line: r.line,
                column: r.column(t),
            });
            true
        }
    });
    (!failed && cols.is_some()).then_some(out)
}
