//! Text matrices (D1, D2, D3): records streamed through the `csv` crate or split on whitespace runs into
//! one accumulator, then the layout decided, D1 rows aligned to the column order, and every problem located.

use super::{parse_number, Matrix, MAX_N};
use crate::diag::{excerpt, Diagnostic, Diags};
use crate::formats::lines::LineCount;
use std::io::BufRead;

/// 1-based column of field `k` when fields are `lens` bytes long, one delimiter apart (exact for ASCII,
/// unquoted rows).
fn column_of(lens: &[usize], k: usize) -> u64 {
    1 + lens.iter().take(k).map(|l| *l as u64 + 1).sum::<u64>()
}

struct Acc {
    path: String,
    /// Size of the file in bytes: bounds what is reserved before the values are read.
    size_hint: u64,
    nf: usize,
    row0: Vec<String>,
    row0_line: u64,
    ids: Vec<String>,
    lines: Vec<u64>,
    data: Vec<f64>,
    too_large: bool,
    /// A ragged row was reported (and left out): the shape is not judged again.
    ragged: bool,
}

impl Acc {
    /// One record; `fields` are the raw cells.
    fn record(&mut self, line: u64, fields: &[&[u8]], diags: &mut Diags) {
        if fields.iter().all(|f| f.trim_ascii().is_empty()) {
            return;
        }
        if self.nf == 0 {
            self.nf = fields.len();
            self.row0 = fields
                .iter()
                .map(|f| String::from_utf8_lossy(f).trim().to_string())
                .collect();
            self.row0_line = line;
            if self.nf > MAX_N + 2 {
                self.too_large = true;
                diags.push(
                    Diagnostic::error("falsid.matrix.too_large", format!("{} columns: more than the {MAX_N} items dropscore holds in memory", self.nf))
                        .file(&self.path)
                        .line(line)
                        .hint("Split the subset, or score it with the command line on a machine with more memory."),
                );
            } else {
                // N² values take at least 2 bytes each (digit and delimiter).
                let cap = self.nf.saturating_sub(1).saturating_mul(self.nf);
                self.data.reserve(cap.min((self.size_hint / 2) as usize));
            }
            return;
        }
        if self.too_large {
            return;
        }
        if fields.len() != self.nf {
            diags.push(
                Diagnostic::error(
                    "falsid.matrix.shape",
                    format!(
                        "ragged row: {} fields where the first row has {}",
                        fields.len(),
                        self.nf
                    ),
                )
                .file(&self.path)
                .at(line, 1)
                .expected(format!("{} fields", self.nf))
                .found(format!("{} fields", fields.len()))
                .hint("Every row of a distance matrix needs the same number of values."),
            );
            self.ragged = true;
            return;
        }
        if self.ids.len() > MAX_N + 2 {
            if !self.too_large {
                self.too_large = true;
                diags.push(
                    Diagnostic::error("falsid.matrix.too_large", format!("more than {MAX_N} rows"))
                        .file(&self.path)
                        .line(line),
                );
            }
            return;
        }
        self.ids
            .push(String::from_utf8_lossy(fields[0]).trim().to_string());
        self.lines.push(line);
        for (k, f) in fields.iter().enumerate().skip(1) {
            match parse_number(f) {
                Some(v) => self.data.push(v),
                None => {
                    let lens: Vec<usize> = fields.iter().map(|f| f.len()).collect();
                    diags.push(number_error(&self.path, line, column_of(&lens, k), f));
                    self.data.push(f64::NAN);
                }
            }
        }
    }
}

fn number_error(path: &str, line: u64, col: u64, f: &[u8]) -> Diagnostic {
    Diagnostic::error("falsid.matrix.number", "not a number")
        .file(path)
        .at(line, col)
        .expected("a decimal number (nan and inf allowed)")
        .found(excerpt(&String::from_utf8_lossy(f)))
        .hint("Distances use `.` as the decimal point and no thousands separators.")
}

/// Reads a text matrix (D1, D2, D3) from `reader`; `delim` from [`detect_delimiter`].
pub fn read_text(
    path: &str,
    reader: impl BufRead,
    delim: Option<u8>,
    size_hint: u64,
    diags: &mut Diags,
) -> Option<Matrix> {
    let mut acc = Acc {
        path: path.to_string(),
        size_hint,
        nf: 0,
        row0: Vec::new(),
        row0_line: 0,
        ids: Vec::new(),
        lines: Vec::new(),
        data: Vec::new(),
        too_large: false,
        ragged: false,
    };
    let errors_before = diags.has_errors();
    let bad_before = diags.count("falsid.matrix.number");
    match delim {
        Some(d) => read_delimited(path, reader, d, &mut acc, diags),
        None => {
            if !read_whitespace(path, reader, &mut acc, diags) {
                return None;
            }
        }
    }
    if acc.too_large || (diags.has_errors() && !errors_before && acc.nf == 0) {
        return None;
    }
    let m = assemble(acc, diags)?;
    if diags.count("falsid.matrix.number") > bad_before {
        return None;
    }
    Some(m)
}

/// The records of a file delimited by `d` (the `csv` crate), into `acc`; an unreadable row ends it (reported).
fn read_delimited(path: &str, reader: impl BufRead, d: u8, acc: &mut Acc, diags: &mut Diags) {
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(d)
        .buffer_capacity(1 << 16)
        .from_reader(LineCount::new(reader));
    let mut rec = csv::ByteRecord::new();
    let mut first = true;
    loop {
        match rdr.read_byte_record(&mut rec) {
            Ok(true) => {
                rdr.get_ref().fix(&mut rec);
                let line = rec.position().map_or(0, |p| p.line());
                let mut tmp: Vec<&[u8]> = rec.iter().collect();
                if first {
                    first = false;
                    if let Some(f) = tmp.first_mut() {
                        *f = f.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(f);
                    }
                }
                acc.record(line, &tmp, diags);
            }
            Ok(false) => break,
            Err(e) => {
                let line = e.position().map_or(0, |p| rdr.get_ref().line_at(p.byte()));
                diags.push(
                    Diagnostic::error("falsid.matrix.shape", format!("unreadable row: {e}"))
                        .file(path)
                        .line(line)
                        .hint("Check the file is a plain delimited text matrix."),
                );
                break;
            }
        }
    }
}

/// The lines of a file of whitespace-separated values (CR, LF or CRLF line ends), into `acc`; false when the
/// file cannot be read (reported).
fn read_whitespace(path: &str, mut r: impl BufRead, acc: &mut Acc, diags: &mut Diags) -> bool {
    let mut buf = Vec::new();
    let mut line = 0u64;
    loop {
        buf.clear();
        match r.read_until(b'\n', &mut buf) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e) => {
                diags.push(Diagnostic::read_error(path, e));
                return false;
            }
        }
        for part in buf.split(|b| *b == b'\r' || *b == b'\n') {
            if part.is_empty() && buf.ends_with(b"\n") {
                continue;
            }
            line += 1;
            let part = if line == 1 {
                part.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(part)
            } else {
                part
            };
            let fields: Vec<&[u8]> = part
                .split(|b| b.is_ascii_whitespace())
                .filter(|f| !f.is_empty())
                .collect();
            acc.record(line, &fields, diags);
        }
    }
}

fn is_number(s: &str) -> bool {
    parse_number(s.as_bytes()).is_some()
}

fn assemble(acc: Acc, diags: &mut Diags) -> Option<Matrix> {
    let Acc {
        path,
        nf,
        row0,
        row0_line,
        ids,
        lines,
        mut data,
        ragged,
        ..
    } = acc;
    if nf == 0 {
        diags.push(
            Diagnostic::error("falsid.matrix.shape", "the matrix file is empty")
                .file(&path)
                .hint("Write one row of distances per sample."),
        );
        return None;
    }
    let r = ids.len() + 1;
    let layout = layout_of(&path, &row0, row0_line, r, nf, ragged, diags)?;
    let mut row_lines = Vec::with_capacity(r);
    let (n, out_ids) = match layout {
        "D1" => {
            row_lines = lines;
            (nf - 1, Some((row0[1..].to_vec(), ids)))
        }
        "D2" | "D2i" => {
            let (n, from) = if layout == "D2i" {
                drop_integer_column(&mut data, nf);
                (nf - 2, 2)
            } else {
                (nf - 1, 1)
            };
            let first = row0_values(&path, &row0, row0_line, from, diags);
            data.splice(0..0, first);
            row_lines.push(row0_line);
            row_lines.extend(lines);
            let mut all = vec![row0[0].clone()];
            all.extend(ids);
            (n, Some((all.clone(), all)))
        }
        _ => {
            expand_d3(&path, &mut data, &ids, &lines, nf, diags);
            let first = row0_values(&path, &row0, row0_line, 0, diags);
            data.splice(0..0, first);
            row_lines.push(row0_line);
            row_lines.extend(lines);
            (nf, None)
        }
    };
    if data.len() != n * n {
        return None;
    }
    let mut m = Matrix {
        n,
        ids: None,
        data,
        layout: if layout == "D2i" { "D2" } else { layout },
        row_lines,
        reordered: false,
    };
    if let Some((cols, rows)) = out_ids {
        if !align_rows(&mut m, &cols, &rows, &path, diags) {
            return None;
        }
        m.ids = Some(cols);
    }
    Some(m)
}

/// The layout of `r` rows of `nf` fields whose first row is `row0`: `D1` (a header of ids), `D2` (an id column),
/// `D2i` (an id and an integer column), `D3` (bare values); `None` when the matrix is not square (reported,
/// unless a ragged row was already).
fn layout_of(
    path: &str,
    row0: &[String],
    row0_line: u64,
    r: usize,
    nf: usize,
    ragged: bool,
    diags: &mut Diags,
) -> Option<&'static str> {
    let header_like =
        row0.first().is_none_or(|f| f.is_empty()) || row0.iter().skip(1).any(|f| !is_number(f));
    if r == nf {
        return Some(if header_like { "D1" } else { "D3" });
    }
    if r + 1 == nf && !header_like {
        return Some("D2");
    }
    if r + 2 == nf && !header_like {
        return Some("D2i");
    }
    if ragged {
        return None; // the ragged row is the located cause; "not square" would only follow from it
    }
    diags.push(
        Diagnostic::error(
            "falsid.matrix.shape",
            format!("not square: {r} rows of {nf} fields"),
        )
        .file(path)
        .line(row0_line)
        .expected("N rows of N values (plus an id column, or a header row of ids)")
        .found(format!("{r} rows × {nf} fields"))
        .hint(
            "Write the full N×N matrix of one subset: one row per query item, one value per item.",
        ),
    );
    None
}

/// The values of the first row from field `from` on; a field that is no number is reported and NaN.
fn row0_values(
    path: &str,
    row0: &[String],
    row0_line: u64,
    from: usize,
    diags: &mut Diags,
) -> Vec<f64> {
    let lens: Vec<usize> = row0.iter().map(|f| f.len()).collect();
    row0.iter()
        .enumerate()
        .skip(from)
        .map(|(k, f)| {
            parse_number(f.as_bytes()).unwrap_or_else(|| {
                diags.push(number_error(
                    path,
                    row0_line,
                    column_of(&lens, k),
                    f.as_bytes(),
                ));
                f64::NAN
            })
        })
        .collect()
}

/// D2i: drops the integer column (the first value of each stored row of `nf − 1` values) in place.
fn drop_integer_column(data: &mut Vec<f64>, nf: usize) {
    let n = nf - 2;
    let w = nf - 1;
    let rows = data.len() / w.max(1);
    for i in 0..rows {
        data.copy_within(i * w + 1..(i + 1) * w, i * n);
    }
    data.truncate(rows * n);
}

/// D3: each stored row lacks its first value (kept as the "id", `ids`): parsed and put back, the rows
/// expanded in place from the back.
fn expand_d3(
    path: &str,
    data: &mut Vec<f64>,
    ids: &[String],
    lines: &[u64],
    nf: usize,
    diags: &mut Diags,
) {
    let n = nf;
    let w = nf - 1;
    let rows = ids.len();
    let firsts: Vec<f64> = ids
        .iter()
        .zip(lines)
        .map(|(s, l)| {
            parse_number(s.as_bytes()).unwrap_or_else(|| {
                diags.push(number_error(path, *l, 1, s.as_bytes()));
                f64::NAN
            })
        })
        .collect();
    data.resize(rows * n, 0.0);
    for i in (0..rows).rev() {
        data.copy_within(i * w..(i + 1) * w, i * n + 1);
        data[i * n] = firsts[i];
    }
}

/// D1: rows are aligned to the column order by id. Checks that ids are unique and that rows and columns
/// hold the same ids.
fn align_rows(
    m: &mut Matrix,
    cols: &[String],
    rows: &[String],
    path: &str,
    diags: &mut Diags,
) -> bool {
    use std::collections::HashMap;
    let mut pos: HashMap<&str, usize> = HashMap::with_capacity(cols.len());
    let mut ok = true;
    for (j, c) in cols.iter().enumerate() {
        if pos.insert(c.as_str(), j).is_some() {
            ok = false;
            diags.push(
                Diagnostic::error(
                    "falsid.matrix.ids",
                    format!("id `{}` appears twice among the matrix ids", excerpt(c)),
                )
                .file(path)
                .line(
                    m.row_lines
                        .first()
                        .copied()
                        .unwrap_or(1)
                        .saturating_sub(u64::from(m.layout == "D1")),
                )
                .found(excerpt(c))
                .hint("Each sample appears once as a row and once as a column."),
            );
        }
    }
    if !ok || rows == cols {
        return ok;
    }
    let mut perm = Vec::with_capacity(rows.len());
    let mut missing = Vec::new();
    let mut seen = vec![false; cols.len()];
    for (i, r) in rows.iter().enumerate() {
        match pos.get(r.as_str()) {
            Some(&j) if !seen[j] => {
                seen[j] = true;
                perm.push(j);
            }
            _ => {
                missing.push(r.clone());
                diags.push(
                    Diagnostic::error(
                        "falsid.matrix.ids",
                        format!(
                            "row id `{}` is not a column id (or repeats one)",
                            excerpt(r)
                        ),
                    )
                    .file(path)
                    .at(m.row_lines.get(i).copied().unwrap_or(0), 1)
                    .found(excerpt(r))
                    .hint("The first column must list the same ids as the header row."),
                );
            }
        }
    }
    if !missing.is_empty() {
        return false;
    }
    let n = m.n;
    // Simple and exact: build the permuted matrix row by row into a fresh buffer in place of the old one.
    let mut out = vec![0.0f64; n * n];
    let mut lines = vec![0u64; n];
    for (i, &j) in perm.iter().enumerate() {
        out[j * n..(j + 1) * n].copy_from_slice(&m.data[i * n..(i + 1) * n]);
        lines[j] = m.row_lines.get(i).copied().unwrap_or(0);
    }
    m.data = out;
    m.row_lines = lines;
    m.reordered = true;
    true
}
