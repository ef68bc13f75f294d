//! Streaming CSV tables keyed by an id column, shared by the `classification` and `regression` families
//! (specs/families.md section 0): RFC 4180 records read with the `csv` crate from any `Read`, a UTF-8 BOM
//! dropped, every field located by line and column (the column counts Unicode scalar values, fields separated
//! by one delimiter; quotes are not counted). Ids are stored once, in one arena ([`IdIndex`], in `id_index`).

pub use super::id_index::{tag, IdIndex, Matcher, Tag};
use crate::diag::{excerpt, Diagnostic, Diags};
use std::io::Read;

/// One record: its 1-based line and its fields (UTF-8, not trimmed). A field's 1-based column (Unicode scalar
/// values, fields separated by one delimiter) is computed when a diagnostic asks for it.
pub struct Row<'a> {
    pub line: u64,
    pub fields: Vec<&'a str>,
}

impl Row<'_> {
    /// Field `i` trimmed of ASCII spaces (ids, labels and numbers all compare trimmed).
    #[inline]
    pub fn get(&self, i: usize) -> &str {
        self.fields.get(i).map_or("", |s| trim(s))
    }
    pub fn column(&self, i: usize) -> u64 {
        if i >= self.fields.len() {
            return 1;
        }
        1 + self.fields[..i]
            .iter()
            .map(|f| f.chars().count() as u64 + 1)
            .sum::<u64>()
    }
}

/// An empty vector that keeps `v`'s allocation, for borrows of another lifetime (an in-place `collect` of
/// nothing: same layout, so the buffer is reused); one field list serves every record.
fn recycle<'b>(mut v: Vec<&str>) -> Vec<&'b str> {
    v.clear();
    v.into_iter().map(|_| "").collect()
}

/// Trims ASCII spaces and tabs (byte by byte: both are ASCII, so the cut is a character boundary).
#[inline]
pub fn trim(s: &str) -> &str {
    let b = s.as_bytes();
    let blank = |c: &u8| *c == b' ' || *c == b'\t';
    if !b.first().is_some_and(blank) && !b.last().is_some_and(blank) {
        return s;
    }
    let start = b.iter().position(|c| !blank(c)).unwrap_or(b.len());
    let end = b.iter().rposition(|c| !blank(c)).map_or(start, |e| e + 1);
    s.get(start..end).unwrap_or("")
}

/// What [`read`] hands its callback: the header once (trimmed, BOM dropped), then each record.
pub enum Event<'a, 'b> {
    Header(&'a [String]),
    Row(&'a Row<'b>),
}

/// What [`read_batched`] hands its callback: the header once (trimmed, BOM dropped), then runs of consecutive
/// records (in file order; a diagnostic of the reader comes after the records before it).
pub enum Batch<'a, 'b> {
    Header(&'a [String]),
    Rows(&'a [Row<'b>]),
}

/// Records [`read_batched`] reads ahead: enough for the lookups of one batch to wait on memory together.
pub const BATCH: usize = 32;

/// Reads a CSV stream: calls `each` with the header, then with every later record that has the header's number
/// of fields, while `each` returns true. Returns the header (`None` with an error diagnostic when the file is
/// empty or unreadable). Records with another number of fields, invalid UTF-8 and CSV syntax errors are located
/// errors (`<family>.csv`, `input.invalid_utf8`).
pub fn read<R: Read>(
    family: &str,
    file: &str,
    reader: R,
    delimiter: u8,
    diags: &mut Diags,
    mut each: impl FnMut(Event, &mut Diags) -> bool,
) -> Option<Vec<String>> {
    read_batched(
        family,
        file,
        reader,
        delimiter,
        1,
        diags,
        |b, diags| match b {
            Batch::Header(h) => each(Event::Header(h), diags),
            Batch::Rows(rows) => rows.iter().all(|r| each(Event::Row(r), diags)),
        },
    )
}

/// Hands `rows` to `each` (if any) and recycles their field lists; false when `each` says stop.
fn flush<'r>(
    rows: &mut Vec<Row<'r>>,
    pool: &mut Vec<Vec<&'static str>>,
    diags: &mut Diags,
    each: &mut impl FnMut(Batch, &mut Diags) -> bool,
) -> bool {
    if rows.is_empty() {
        return true;
    }
    let go = each(Batch::Rows(rows), diags);
    pool.extend(rows.drain(..).map(|r| recycle(r.fields)));
    go
}

/// [`read`], handing `each` up to `batch` records at a time: the same records, diagnostics and order.
pub fn read_batched<R: Read>(
    family: &str,
    file: &str,
    reader: R,
    delimiter: u8,
    batch: usize,
    diags: &mut Diags,
    mut each: impl FnMut(Batch, &mut Diags) -> bool,
) -> Option<Vec<String>> {
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delimiter)
        .from_reader(reader);
    let code = format!("{family}.csv");
    let batch = batch.max(1);
    let mut recs: Vec<csv::ByteRecord> = (0..batch).map(|_| csv::ByteRecord::new()).collect();
    let mut pool: Vec<Vec<&'static str>> = Vec::new();
    let mut header: Option<Vec<String>> = None;
    let mut done = false;
    'outer: while !done {
        let mut filled = 0;
        let mut failure = None;
        while filled < batch {
            match rdr.read_byte_record(&mut recs[filled]) {
                Ok(false) => {
                    done = true;
                    break;
                }
                Ok(true) => filled += 1,
                Err(e) => {
                    failure = Some(e);
                    break;
                }
            }
        }
        let mut rows: Vec<Row> = Vec::with_capacity(filled);
        for rec in &recs[..filled] {
            let line = rec.position().map_or(0, |p| p.line());
            let mut fields = recycle(pool.pop().unwrap_or_default());
            let mut col = 1u64;
            let mut bad = None;
            // An ASCII record (after the header: no BOM to drop) is checked once, its fields cut from it.
            let whole = rec.as_slice();
            let ascii = if header.is_some() && whole.is_ascii() {
                std::str::from_utf8(whole).ok()
            } else {
                None
            };
            if let Some(all) = ascii {
                let mut at = 0;
                for f in rec.iter() {
                    fields.push(all.get(at..at + f.len()).unwrap_or(""));
                    at += f.len();
                }
            }
            for (i, f) in rec.iter().enumerate().filter(|_| ascii.is_none()) {
                let f = if header.is_none() && i == 0 {
                    f.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(f)
                } else {
                    f
                };
                match simdutf8::basic::from_utf8(f) {
                    Ok(s) => {
                        fields.push(s);
                    }
                    Err(_) => {
                        col += fields
                            .iter()
                            .map(|s| s.chars().count() as u64 + 1)
                            .sum::<u64>();
                        let good =
                            std::str::from_utf8(f).map_or_else(|e| e.valid_up_to(), |s| s.len());
                        let before =
                            std::str::from_utf8(&f[..good]).map_or(0, |s| s.chars().count());
                        bad = Some(col + before as u64);
                        break;
                    }
                }
            }
            if let Some(c) = bad {
                if !flush(&mut rows, &mut pool, diags, &mut each) {
                    break 'outer;
                }
                diags.push(
                    Diagnostic::error("input.invalid_utf8", "invalid UTF-8")
                        .file(file)
                        .at(line, c)
                        .hint("Save the file as UTF-8."),
                );
                continue;
            }
            match &header {
                None => {
                    if fields.len() == 1 && trim(fields[0]).is_empty() {
                        continue; // blank lines before the header
                    }
                    let h: Vec<String> = fields.iter().map(|s| trim(s).to_string()).collect();
                    let go = each(Batch::Header(&h), diags);
                    header = Some(h);
                    if !go {
                        break 'outer;
                    }
                }
                Some(h) => {
                    if fields.len() == 1 && fields[0].is_empty() {
                        continue; // a blank line
                    }
                    if fields.len() != h.len() {
                        if !flush(&mut rows, &mut pool, diags, &mut each) {
                            break 'outer;
                        }
                        diags.push(
                            Diagnostic::error(
                                &code,
                                format!("{} fields where the header has {}", fields.len(), h.len()),
                            )
                            .file(file)
                            .at(line, 1)
                            .expected(h.len().to_string())
                            .found(fields.len().to_string())
                            .hint("Give every row one value per header column."),
                        );
                        continue;
                    }
                    rows.push(Row { line, fields });
                }
            }
        }
        if !flush(&mut rows, &mut pool, diags, &mut each) {
            break;
        }
        if let Some(e) = failure {
            let (line, msg) = match e.kind() {
                csv::ErrorKind::Io(io) => {
                    diags.push(Diagnostic::read_error(file, io));
                    break;
                }
                _ => (
                    e.position().map_or(0, |p| p.line()),
                    format!("CSV syntax: {e}"),
                ),
            };
            diags.push(
                Diagnostic::error(&code, msg)
                    .file(file)
                    .line(line.max(1))
                    .hint("Write the file as RFC 4180 CSV (quote fields that contain the delimiter or quotes)."),
            );
        }
    }
    if header.is_none() {
        diags.push(
            Diagnostic::error(
                &format!("{family}.empty_file"),
                "the file has no header row",
            )
            .file(file)
            .hint("Start the file with a header row naming its columns, e.g. `id,label`."),
        );
    }
    header
}

/// The index of the column named `name` (ASCII case-insensitive).
pub fn find_column(header: &[String], name: &str) -> Option<usize> {
    header.iter().position(|h| h.eq_ignore_ascii_case(name))
}

/// The id column: `option` if given (an error when absent), else the first column named `id` (any case), else
/// the first column.
pub fn id_column(
    family: &str,
    file: &str,
    header: &[String],
    option: &str,
    diags: &mut Diags,
) -> Option<usize> {
    if !option.is_empty() {
        let c = header.iter().position(|h| h == option);
        if c.is_none() {
            diags.push(missing_column(family, file, header, option, "id_column"));
        }
        return c;
    }
    Some(find_column(header, "id").unwrap_or(0))
}

/// A located error: the header lacks a named column.
pub fn missing_column(
    family: &str,
    file: &str,
    header: &[String],
    name: &str,
    option: &str,
) -> Diagnostic {
    Diagnostic::error(
        &format!("{family}.missing_column"),
        format!("no column named `{name}` in the header"),
    )
    .file(file)
    .at(1, 1)
    .expected(name.to_string())
    .found(excerpt(&header.join(",")))
    .hint(format!(
        "Name the column `{name}` in the header, or set the option `{option}`."
    ))
}

/// The value column besides `id`: `option` if given, else the only other column, else the first of
/// `defaults` (any case). `None` (with an error) when none fits.
pub fn value_column(
    family: &str,
    file: &str,
    header: &[String],
    id: usize,
    option: &str,
    defaults: &[&str],
    diags: &mut Diags,
) -> Option<usize> {
    if !option.is_empty() {
        if let Some(c) = header.iter().position(|h| h == option) {
            return Some(c);
        }
    }
    let others: Vec<usize> = (0..header.len()).filter(|&i| i != id).collect();
    if others.len() == 1 && option.is_empty() {
        return Some(others[0]);
    }
    for d in defaults {
        if let Some(c) = find_column(header, d).filter(|&c| c != id) {
            return Some(c);
        }
    }
    let name = if option.is_empty() {
        defaults.first().copied().unwrap_or("label")
    } else {
        option
    };
    diags.push(missing_column(family, file, header, name, "label_column"));
    None
}

/// `s.parse::<f64>()` of a plain decimal (`-`, digits, at most one `.`, at most 15 digits in all), else `None`.
/// Clinger's fast path, the first one `parse` takes: the digits as an integer m < 10¹⁵ < 2⁵³ and 10^f (f ≤ 15
/// fraction digits) are exact doubles, so the one rounding of m / 10^f is the correctly rounded value.
fn plain_decimal(s: &[u8]) -> Option<f64> {
    const POW10: [f64; 16] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    ];
    let (negative, digits) = match s.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, s),
    };
    if digits.is_empty() || digits.len() > 16 {
        return None;
    }
    let (mut m, mut count, mut fraction, mut dot) = (0u64, 0usize, 0usize, false);
    for &c in digits {
        match c {
            b'0'..=b'9' => {
                m = m * 10 + (c - b'0') as u64;
                count += 1;
                fraction += dot as usize;
            }
            b'.' if !dot => dot = true,
            _ => return None,
        }
    }
    if count == 0 || count > 15 {
        return None;
    }
    let v = m as f64 / POW10[fraction];
    Some(if negative { -v } else { v })
}

/// A parsed number field: finite f64, or a located error (`<family>.empty_cell`, `.non_numeric`, `.non_finite`).
pub fn number(family: &str, file: &str, row: &Row, col: usize, diags: &mut Diags) -> Option<f64> {
    let s = row.get(col);
    if let Some(v) = plain_decimal(s.as_bytes()) {
        return Some(v);
    }
    if let Ok(v) = s.parse::<f64>() {
        if v.is_finite() {
            return Some(v);
        }
    }
    let err = |code: &str, msg: String, hint: &str| {
        Diagnostic::error(&format!("{family}.{code}"), msg)
            .file(file)
            .at(row.line, row.column(col))
            .expected("a finite decimal number")
            .found(excerpt(s))
            .hint(hint.to_string())
    };
    if s.is_empty() {
        diags.push(err(
            "empty_cell",
            "empty cell".into(),
            "Fill every cell with a number.",
        ));
        return None;
    }
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() => Some(v),
        Ok(_) => {
            diags.push(err(
                "non_finite",
                format!("`{}` is not a finite number", excerpt(s)),
                "Replace NaN and infinities by finite numbers.",
            ));
            None
        }
        Err(_) => {
            diags.push(err(
                "non_numeric",
                format!("`{}` is not a number", excerpt(s)),
                "Write decimal numbers such as 0.25 or 1e-3.",
            ));
            None
        }
    }
}

/// The error of a GT id given twice (`<family>.duplicate_id`), at the repeat; `first_line` is the first one's.
pub fn duplicate_gt_id(
    family: &str,
    file: &str,
    row: &Row,
    col: usize,
    first_line: u64,
) -> Diagnostic {
    let id = row.get(col);
    Diagnostic::error(
        &format!("{family}.duplicate_id"),
        format!(
            "GT id `{}` repeated (first on line {first_line})",
            excerpt(id)
        ),
    )
    .file(file)
    .at(row.line, row.column(col))
    .found(excerpt(id))
    .hint("The ground truth must list each id once.")
}

/// Counts the memory a family holds for GT `rows` (`bytes_of(row)` each) into `held`; when it crosses the
/// budget, pushes the located `input.limit` refusal at that row (`what` says what a row holds) and returns false.
pub fn charge_rows(
    held: &mut u64,
    rows: &[Row],
    bytes_of: impl Fn(&Row) -> u64,
    what: &str,
    budget: crate::budget::Budget,
    file: &str,
    diags: &mut Diags,
) -> bool {
    for row in rows {
        *held += bytes_of(row);
        if *held > budget.max_memory {
            let what = format!("the ground truth's rows up to line {} ({what})", row.line);
            diags.push(crate::budget::refusal(
                file,
                Some(row.line),
                &what,
                *held,
                budget,
            ));
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast path gives `parse`'s value, bit for bit, and declines what it does not cover.
    #[test]
    fn plain_decimal_is_parse() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut texts: Vec<String> = [
            "0",
            "-0",
            "-0.0",
            "1.",
            ".5",
            "-.5",
            "007",
            "0.1",
            "0.3",
            "123456789012345",
            "1234567890123456",
            "0.000000000000001",
            "99999999999999.9",
            "-2.675",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let digits = (x % 16) as usize + 1;
            let m = (x >> 8) % 10u64.pow(digits.min(15) as u32);
            let dot = (x >> 60) as usize % (digits + 1);
            let t = format!("{m:0digits$}");
            let (a, b) = t.split_at(dot.min(t.len()));
            let sign = if x & 1 == 1 { "-" } else { "" };
            texts.push(format!("{sign}{a}.{b}"));
        }
        for t in &texts {
            let want = t.parse::<f64>().ok();
            match plain_decimal(t.as_bytes()) {
                Some(v) => assert_eq!(Some(v.to_bits()), want.map(f64::to_bits), "{t}"),
                None => assert!(
                    want.is_none() || t.bytes().filter(u8::is_ascii_digit).count() > 15,
                    "{t} declined"
                ),
            }
        }
        for t in ["", "-", ".", "1.2.3", "1e5", "+1", "inf", "1_0", " 1"] {
            assert_eq!(plain_decimal(t.as_bytes()), None, "{t}");
        }
    }
}
