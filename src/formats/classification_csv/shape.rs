//! What a table file of the families (`classification`, `regression`) is when its header cannot be its header:
//! a JSON file (a COCO file dropped on the wrong protocol), a file with another delimiter, a file without a
//! header. Each gets one message naming the real problem, instead of "no column named `label`".

use crate::diag::{excerpt, Diagnostic};

/// For a submission, whether a cell is an id of the GT; `None` for a GT.
pub type IsGtId<'a> = Option<&'a dyn Fn(&str) -> bool>;

/// The problem with `header` (the first line's cells, split at `delimiter`), if it names one. `is_gt_id`: for
/// a submission, whether a cell is an id of the GT (a first line that starts with one is a data row).
pub fn header_problem(
    family: &str,
    file: &str,
    header: &[String],
    delimiter: u8,
    is_gt_id: IsGtId,
) -> Option<Diagnostic> {
    let line = header.join(&(delimiter as char).to_string());
    let at = |d: Diagnostic| d.file(file).at(1, 1).found(excerpt(&line));
    let first = header.first().map_or("", |c| c.trim_start());
    if first.starts_with('{') || first.starts_with('[') {
        return Some(at(Diagnostic::error(
            &format!("{family}.not_csv"),
            format!("this is a JSON file, not a CSV table; the {family} protocol reads CSV"),
        )
        .hint("Drop the CSV file the competition asks for (a COCO JSON file belongs to the detection protocol).")));
    }
    if header.len() == 1 {
        let cell = first;
        let other = [b',', b';', b'\t', b'|']
            .into_iter()
            .filter(|&d| d != delimiter)
            .max_by_key(|&d| cell.bytes().filter(|&b| b == d).count())
            .filter(|&d| cell.as_bytes().contains(&d))?;
        let name = |d: u8| {
            if d == b'\t' {
                "tab".to_string()
            } else {
                format!("`{}`", d as char)
            }
        };
        return Some(at(Diagnostic::error(
            &format!("{family}.delimiter"),
            format!(
                "the header is one column: the file is {}-delimited, the competition's delimiter is {}",
                name(other),
                name(delimiter)
            ),
        )
        .expected(format!("fields separated by {}", name(delimiter)))
        .hint(format!(
            "Save the file with {} between fields (or ask the organizer to set the option delimiter).",
            name(delimiter)
        ))));
    }
    let numbers = header.iter().all(|c| c.trim().parse::<f64>().is_ok());
    let starts_with_id = is_gt_id.is_some_and(|f| f(first.trim_end()));
    if numbers || starts_with_id {
        return Some(at(Diagnostic::error(
            &format!("{family}.no_header"),
            "the first line is a data row: the file has no header line",
        )
        .hint(
            "Add a header line naming the columns (e.g. `id,label`) as the first line.",
        )));
    }
    None
}
