//! Kaggle's `solution.csv` and `submission.csv`: an id column and one value column (a run-length-encoded mask,
//! a space-separated list, a string), read with [`super::csv_records`] so that every refusal names its file,
//! line and column, as Kaggle's `ParticipantVisibleError` messages name the row. The cell parsers are in
//! [`rle`] and [`cells`].

pub mod cells;
pub mod pstring;
pub mod rle;

use super::csv_records::{self, Batch, CsvIn, Row};
use crate::diag::{excerpt, Diagnostic, Diags};
use crate::items::Ids;

/// The family name of the diagnostics' codes (`kaggle.csv`, `kaggle.missing_column`, …).
pub const FAMILY: &str = "kaggle";

/// One file's rows: the id, the line and the parsed value of each row, in file order.
pub struct Table<T> {
    pub file: String,
    pub header: Vec<String>,
    /// The value column's name (as the header has it).
    pub column: String,
    pub ids: Ids,
    pub lines: Vec<u64>,
    /// `None` where the cell could not be parsed (an error was pushed).
    pub values: Vec<Option<T>>,
}

/// Which columns a read takes: the id column and the value column by name (`""`: the id column is the first
/// named `id`, else the first; the value column the first other one not named `Usage`), and extra columns a
/// parser needs (an image's `width` and `height`), each an error when absent.
pub struct Columns<'a> {
    pub id: &'a str,
    pub value: &'a str,
    /// The option that names the value column (for the hint).
    pub value_option: &'a str,
    pub extra: &'a [&'a str],
}

/// Where a row's cells are: the id column's index, the value column's, the extra columns'.
pub struct At<'a> {
    pub id: usize,
    pub value: usize,
    pub extra: &'a [usize],
    /// The header, for the column names of the refusals.
    pub header: &'a [String],
}

/// The cell parser: the row and where its cells are; `None` with an error pushed.
pub type Parse<'p, T> = dyn FnMut(&Row, &At, &mut Diags) -> Option<T> + 'p;

/// The batch parser: up to [`csv_records::BATCH`] consecutive rows and where their cells are; one value per row
/// pushed to the vector (`None` with an error pushed). Lets the lookups of a batch wait on memory together.
pub type ParseBatch<'p, T> = dyn FnMut(&[Row], &At, &mut Diags, &mut Vec<Option<T>>) + 'p;

/// Reads one file; `None` when its header is unusable (the errors pushed).
pub fn read<T>(
    file: &str,
    input: CsvIn,
    delimiter: u8,
    columns: &Columns,
    diags: &mut Diags,
    parse: &mut Parse<T>,
) -> Option<Table<T>> {
    let mut each = |rows: &[Row], at: &At, diags: &mut Diags, out: &mut Vec<Option<T>>| {
        out.extend(rows.iter().map(|r| parse(r, at, diags)));
    };
    read_batches(file, input, delimiter, columns, diags, &mut each)
}

/// [`read`], the rows parsed a batch at a time: the same table and diagnostics.
pub fn read_batches<T>(
    file: &str,
    input: CsvIn,
    delimiter: u8,
    columns: &Columns,
    diags: &mut Diags,
    parse: &mut ParseBatch<T>,
) -> Option<Table<T>> {
    let mut table: Option<Table<T>> = None;
    let mut cols: Option<(usize, usize, Vec<usize>)> = None;
    let mut broken = false;
    csv_records::read_batched(
        FAMILY,
        file,
        input,
        delimiter,
        csv_records::BATCH,
        diags,
        |ev, diags| match ev {
            Batch::Header(h) => {
                cols = resolve(file, h, columns, diags);
                broken = cols.is_none();
                if let Some((_, v, _)) = &cols {
                    table = Some(Table {
                        file: file.to_string(),
                        header: h.to_vec(),
                        column: h[*v].clone(),
                        ids: Ids::default(),
                        lines: Vec::new(),
                        values: Vec::new(),
                    });
                }
                !broken
            }
            Batch::Rows(rows) => {
                let (Some(t), Some((id, v, extra))) = (table.as_mut(), cols.as_ref()) else {
                    return false;
                };
                for r in rows {
                    t.ids.push(r.get(*id));
                    t.lines.push(r.line);
                }
                let at = At {
                    id: *id,
                    value: *v,
                    extra,
                    header: &t.header,
                };
                parse(rows, &at, diags, &mut t.values);
                true
            }
        },
    );
    table
}

/// The id, value and extra columns' indices in `header`.
fn resolve(
    file: &str,
    header: &[String],
    columns: &Columns,
    diags: &mut Diags,
) -> Option<(usize, usize, Vec<usize>)> {
    let id = super::id_csv::id_column(FAMILY, file, header, columns.id, diags)?;
    let value = if columns.value.is_empty() {
        let v = (0..header.len()).find(|&i| i != id && !header[i].eq_ignore_ascii_case("usage"));
        if v.is_none() {
            diags.push(
                Diagnostic::error(
                    &format!("{FAMILY}.missing_column"),
                    "the header has no column besides the id column",
                )
                .file(file)
                .at(1, 1)
                .found(excerpt(&header.join(",")))
                .hint(
                    "Give the file an id column and a value column, e.g. `ImageId,EncodedPixels`.",
                ),
            );
        }
        v?
    } else {
        let v = header.iter().position(|h| h == columns.value);
        if v.is_none() {
            diags.push(super::id_csv::missing_column(
                FAMILY,
                file,
                header,
                columns.value,
                columns.value_option,
            ));
        }
        v?
    };
    let mut extra = Vec::new();
    for name in columns.extra {
        match header.iter().position(|h| h == name) {
            Some(i) => extra.push(i),
            None => {
                diags.push(super::id_csv::missing_column(
                    FAMILY, file, header, name, "width",
                ));
                return None;
            }
        }
    }
    Some((id, value, extra))
}

/// A located error about one cell: `kaggle.<what>` at the cell's line and column, its message naming the row
/// (the data row: the line under a one-line header), the row's id and the column, as Kaggle's
/// `ParticipantVisibleError` messages do.
pub fn cell_error(
    file: &str,
    row: &Row,
    at: &At,
    col: usize,
    what: &str,
    message: String,
) -> Diagnostic {
    let name = at.header.get(col).map_or("", String::as_str);
    let message = format!(
        "row {} (id `{}`), column `{}`: {message}",
        row.line.saturating_sub(1),
        excerpt(row.get(at.id)),
        excerpt(name)
    );
    Diagnostic::error(&format!("{FAMILY}.{what}"), message)
        .file(file)
        .at(row.line, row.column(col))
        .found(excerpt(row.get(col)))
}
