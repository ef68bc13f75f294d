//! FalsID distance matrices (specs/falsid.md 2.2): D1 labelled square (header of ids, rows `id, d…`), D2
//! sample-name rows (`name, [integer], d…`, no header), D3 bare N×N numbers, D4 `.npy` (float32/float64, any
//! endianness, C or Fortran order). Text is streamed through the `csv` crate (or split on whitespace runs)
//! straight into one `Vec<f64>`: memory is N² floats, never the text. Every problem is located.

use crate::diag::{excerpt, Diagnostic, Diags};
use std::io::{BufRead, Read};

/// Largest accepted N (N² binary64 values must fit a browser tab: 12000² × 8 B = 1.15 GB).
pub const MAX_N: usize = 12_000;

#[derive(Clone, Debug, Default)]
pub struct Matrix {
    pub n: usize,
    /// Ids of rows and columns (D1, D2); `None` for D3 and D4 (GT order).
    pub ids: Option<Vec<String>>,
    /// Row-major N×N; rows are queries. Non-finite values are kept as read (see [`Matrix::stats`]).
    pub data: Vec<f64>,
    /// `D1`, `D2`, `D3` or `D4`.
    pub layout: &'static str,
    /// File line of each row (text layouts), for locating values.
    pub row_lines: Vec<u64>,
    /// D1 rows were given in another order than the columns (and were aligned).
    pub reordered: bool,
}

/// Counts and first positions (0-based row, column) of non-finite and negative values, and symmetry facts.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    pub nonfinite: usize,
    pub first_nonfinite: Option<(usize, usize)>,
    pub negative: usize,
    pub first_negative: Option<(usize, usize)>,
    pub nonzero_diagonal: usize,
    pub asymmetric_pairs: usize,
    pub first_asymmetric: Option<(usize, usize)>,
}

impl Matrix {
    pub fn row(&self, i: usize) -> &[f64] {
        &self.data[i * self.n..(i + 1) * self.n]
    }
    pub fn stats(&self) -> Stats {
        let n = self.n;
        let mut s = Stats::default();
        for i in 0..n {
            let row = self.row(i);
            for (j, &v) in row.iter().enumerate() {
                if !v.is_finite() {
                    s.nonfinite += 1;
                    s.first_nonfinite.get_or_insert((i, j));
                } else if v < 0.0 {
                    s.negative += 1;
                    s.first_negative.get_or_insert((i, j));
                }
                if j > i {
                    let w = self.data[j * n + i];
                    let same = v == w || (v.is_nan() && w.is_nan());
                    if !same {
                        s.asymmetric_pairs += 1;
                        s.first_asymmetric.get_or_insert((i, j));
                    }
                }
            }
            if row[i] != 0.0 {
                s.nonzero_diagonal += 1;
            }
        }
        s
    }
    /// NaN, +inf and −inf become +inf (`nonfinite = as_inf`).
    pub fn nonfinite_as_inf(&mut self) {
        for v in &mut self.data {
            if !v.is_finite() {
                *v = f64::INFINITY;
            }
        }
    }
}

/// A number as Python's `float()` reads it (correctly rounded; `nan`, `inf`, `-inf` in any case).
pub fn parse_number(b: &[u8]) -> Option<f64> {
    let b = b.trim_ascii();
    if let Some(v) = fast_decimal(b) {
        return Some(v);
    }
    if b.is_empty() || b.len() > 400 {
        return None;
    }
    let s = std::str::from_utf8(b).ok()?;
    s.parse::<f64>().ok()
}

const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// Clinger's fast path for the common `[-]digits[.digits]` form: with the digits as an integer m ≤ 2⁵³ and
/// at most 22 fraction digits, m and 10ᵏ are exact binary64 values and one division rounds correctly, so the
/// result is the correctly rounded value (what `str::parse` and Python's `float()` give). `None` otherwise.
fn fast_decimal(b: &[u8]) -> Option<f64> {
    let (neg, d) = match b.first()? {
        b'-' => (true, &b[1..]),
        b'+' => (false, &b[1..]),
        _ => (false, b),
    };
    if d.is_empty() || d.len() > 20 {
        return None;
    }
    let mut m: u64 = 0;
    let mut i = 0;
    while i < d.len() && d[i].is_ascii_digit() {
        m = m.wrapping_mul(10).wrapping_add(u64::from(d[i] - b'0'));
        i += 1;
    }
    let int_digits = i;
    let mut nfrac = 0;
    if i < d.len() {
        if d[i] != b'.' {
            return None;
        }
        i += 1;
        while i < d.len() && d[i].is_ascii_digit() {
            m = m.wrapping_mul(10).wrapping_add(u64::from(d[i] - b'0'));
            i += 1;
            nfrac += 1;
        }
        if i < d.len() || int_digits + nfrac == 0 {
            return None;
        }
    }
    // More than 19 digits may have wrapped: those take the slow path.
    if int_digits + nfrac > 19 || m > 1 << 53 || nfrac > 22 {
        return None;
    }
    let v = m as f64 / POW10[nfrac];
    Some(if neg { -v } else { v })
}

/// The delimiter of a matrix (2.2): TAB, else `,`, else `;` if the first non-blank line has one, else
/// whitespace runs (`None`).
pub fn detect_delimiter(head: &[u8]) -> Option<u8> {
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let line = head
        .split(|b| *b == b'\n' || *b == b'\r')
        .find(|l| !l.trim_ascii().is_empty())
        .unwrap_or(b"");
    [b'\t', b',', b';'].into_iter().find(|d| line.contains(d))
}

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
    };
    let errors_before = diags.has_errors();
    let bad_before = diags.count("falsid.matrix.number");
    match delim {
        Some(d) => {
            let mut rdr = csv::ReaderBuilder::new()
                .has_headers(false)
                .flexible(true)
                .delimiter(d)
                .buffer_capacity(1 << 16)
                .from_reader(reader);
            let mut rec = csv::ByteRecord::new();
            let mut first = true;
            loop {
                match rdr.read_byte_record(&mut rec) {
                    Ok(true) => {
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
                        let line = e.position().map_or(0, |p| p.line());
                        diags.push(
                            Diagnostic::error(
                                "falsid.matrix.shape",
                                format!("unreadable row: {e}"),
                            )
                            .file(path)
                            .line(line)
                            .hint("Check the file is a plain delimited text matrix."),
                        );
                        break;
                    }
                }
            }
        }
        None => {
            let mut r = reader;
            let mut buf = Vec::new();
            let mut line = 0u64;
            loop {
                buf.clear();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) => break,
                    Ok(_) => {}
                    Err(e) => {
                        diags.push(Diagnostic::read_error(path, e));
                        return None;
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
    let header_like =
        row0.first().is_none_or(|f| f.is_empty()) || row0.iter().skip(1).any(|f| !is_number(f));
    let layout = if r == nf {
        if header_like {
            "D1"
        } else {
            "D3"
        }
    } else if r + 1 == nf && !header_like {
        "D2"
    } else if r + 2 == nf && !header_like {
        "D2i"
    } else {
        diags.push(
            Diagnostic::error("falsid.matrix.shape", format!("not square: {r} rows of {nf} fields"))
                .file(&path)
                .line(row0_line)
                .expected("N rows of N values (plus an id column, or a header row of ids)")
                .found(format!("{r} rows × {nf} fields"))
                .hint("Write the full N×N matrix of one subset: one row per query item, one value per item."),
        );
        return None;
    };
    let mut row_lines = Vec::with_capacity(r);
    let parse_row0 = |from: usize, diags: &mut Diags| -> Vec<f64> {
        let lens: Vec<usize> = row0.iter().map(|f| f.len()).collect();
        row0.iter()
            .enumerate()
            .skip(from)
            .map(|(k, f)| {
                parse_number(f.as_bytes()).unwrap_or_else(|| {
                    diags.push(number_error(
                        &path,
                        row0_line,
                        column_of(&lens, k),
                        f.as_bytes(),
                    ));
                    f64::NAN
                })
            })
            .collect()
    };
    let (n, out_ids) = match layout {
        "D1" => {
            row_lines = lines;
            (nf - 1, Some((row0[1..].to_vec(), ids)))
        }
        "D2" => {
            let first = parse_row0(1, diags);
            data.splice(0..0, first);
            row_lines.push(row0_line);
            row_lines.extend(lines);
            let mut all = vec![row0[0].clone()];
            all.extend(ids);
            (nf - 1, Some((all.clone(), all)))
        }
        "D2i" => {
            // Drop the integer column (first value of each stored row), then prepend row 0.
            let n = nf - 2;
            let w = nf - 1;
            let rows = data.len() / w.max(1);
            for i in 0..rows {
                data.copy_within(i * w + 1..(i + 1) * w, i * n);
            }
            data.truncate(rows * n);
            let first = parse_row0(2, diags);
            data.splice(0..0, first);
            row_lines.push(row0_line);
            row_lines.extend(lines);
            let mut all = vec![row0[0].clone()];
            all.extend(ids);
            (n, Some((all.clone(), all)))
        }
        _ => {
            // D3: each stored row lacks its first value (kept as the "id"): expand in place from the back.
            let n = nf;
            let w = nf - 1;
            let rows = ids.len();
            let firsts: Vec<f64> = ids
                .iter()
                .zip(&lines)
                .map(|(s, l)| {
                    parse_number(s.as_bytes()).unwrap_or_else(|| {
                        diags.push(number_error(&path, *l, 1, s.as_bytes()));
                        f64::NAN
                    })
                })
                .collect();
            data.resize(rows * n, 0.0);
            for i in (0..rows).rev() {
                data.copy_within(i * w..(i + 1) * w, i * n + 1);
                data[i * n] = firsts[i];
            }
            let first = parse_row0(0, diags);
            data.splice(0..0, first);
            row_lines.push(row0_line);
            row_lines.extend(lines);
            (n, None)
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

/// Reads a `.npy` array (D4): a small header parse (format 1.0–3.0), 2-D `<f8`/`>f8`/`<f4`/`>f4`, C or
/// Fortran order. Problems are located by byte offset.
pub fn read_npy(
    path: &str,
    mut reader: impl Read,
    size_hint: u64,
    diags: &mut Diags,
) -> Option<Matrix> {
    let err = |off: u64, msg: &str, found: String| {
        Diagnostic::error("falsid.matrix.npy", msg.to_string())
            .file(path)
            .found(found)
            .hint("Save the matrix with numpy.save(path, matrix.astype('float64')).")
            .with_offset(off)
    };
    let mut pre = [0u8; 10];
    if reader.read_exact(&mut pre).is_err() || &pre[..6] != b"\x93NUMPY" {
        diags.push(err(
            0,
            "not a .npy file (magic \\x93NUMPY missing)",
            excerpt(&String::from_utf8_lossy(&pre)),
        ));
        return None;
    }
    let (hlen, start) = match pre[6] {
        1 => (u16::from_le_bytes([pre[8], pre[9]]) as usize, 10u64),
        2 | 3 => {
            let mut more = [0u8; 2];
            if reader.read_exact(&mut more).is_err() {
                diags.push(err(10, "truncated .npy header", String::new()));
                return None;
            }
            (
                u32::from_le_bytes([pre[8], pre[9], more[0], more[1]]) as usize,
                12u64,
            )
        }
        v => {
            diags.push(err(6, "unsupported .npy format version", format!("{v}")));
            return None;
        }
    };
    if hlen > 1 << 20 {
        diags.push(err(8, "implausible .npy header length", format!("{hlen}")));
        return None;
    }
    let mut header = vec![0u8; hlen];
    if reader.read_exact(&mut header).is_err() {
        diags.push(err(start, "truncated .npy header", String::new()));
        return None;
    }
    let h = String::from_utf8_lossy(&header).to_string();
    let value_of = |key: &str| -> Option<String> {
        let k = h.find(&format!("'{key}'"))?;
        let rest = &h[k + key.len() + 2..];
        let rest = rest.trim_start().strip_prefix(':')?.trim_start();
        if let Some(r) = rest.strip_prefix('\'') {
            return Some(r[..r.find('\'')?].to_string());
        }
        if let Some(r) = rest.strip_prefix('(') {
            return Some(r[..r.find(')')?].to_string());
        }
        let end = rest.find([',', '}']).unwrap_or(rest.len());
        Some(rest[..end].trim().to_string())
    };
    let descr = value_of("descr").unwrap_or_default();
    let fortran = value_of("fortran_order").unwrap_or_default() == "True";
    let shape: Vec<Option<usize>> = value_of("shape")
        .unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.trim_end_matches('L').parse().ok())
        .collect();
    let (size, big) = match descr.as_str() {
        "<f8" | "=f8" => (8, false),
        ">f8" => (8, true),
        "<f4" | "=f4" => (4, false),
        ">f4" => (4, true),
        _ => {
            diags.push(err(start, "dtype must be float32 or float64", descr));
            return None;
        }
    };
    let n = match shape.as_slice() {
        [Some(a), Some(b)] if a == b => *a,
        _ => {
            diags.push(
                Diagnostic::error("falsid.matrix.shape", "the array must be 2-D and square")
                    .file(path)
                    .found(format!("shape ({})", value_of("shape").unwrap_or_default()))
                    .hint("Save one N×N matrix per subset.")
                    .with_offset(start),
            );
            return None;
        }
    };
    if n > MAX_N {
        diags.push(
            Diagnostic::error(
                "falsid.matrix.too_large",
                format!("{n}×{n}: more than the {MAX_N} items dropscore holds in memory"),
            )
            .file(path),
        );
        return None;
    }
    let data_start = start + hlen as u64;
    let mut data = Vec::with_capacity((n * n).min((size_hint / size as u64) as usize));
    let mut buf = vec![0u8; 1 << 16];
    let total = n * n * size;
    let mut read = 0usize;
    while read < total {
        let want = (total - read).min(buf.len());
        if let Err(e) = reader.read_exact(&mut buf[..want]) {
            diags.push(err(
                data_start + read as u64,
                "the data ends early",
                format!("{e}"),
            ));
            return None;
        }
        for c in buf[..want].chunks_exact(size) {
            let v = match (size, big) {
                (8, false) => f64::from_le_bytes(c.try_into().unwrap_or([0; 8])),
                (8, true) => f64::from_be_bytes(c.try_into().unwrap_or([0; 8])),
                (_, false) => f32::from_le_bytes(c.try_into().unwrap_or([0; 4])) as f64,
                (_, true) => f32::from_be_bytes(c.try_into().unwrap_or([0; 4])) as f64,
            };
            data.push(v);
        }
        read += want;
    }
    if fortran {
        for i in 0..n {
            for j in i + 1..n {
                data.swap(i * n + j, j * n + i);
            }
        }
    }
    Some(Matrix {
        n,
        ids: None,
        data,
        layout: "D4",
        row_lines: Vec::new(),
        reordered: false,
    })
}

trait WithOffset {
    fn with_offset(self, off: u64) -> Self;
}
impl WithOffset for Diagnostic {
    fn with_offset(mut self, off: u64) -> Self {
        self.offset = Some(off);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_path_equals_correct_rounding() {
        let mut x: u64 = 88172645463325252;
        let mut next = || crate::xorshift64(&mut x);
        for _ in 0..200_000 {
            let int = next() % 10u64.pow((next() % 12) as u32 + 1);
            let frac_digits = (next() % 20) as usize;
            let frac: String = (0..frac_digits)
                .map(|_| char::from(b'0' + (next() % 10) as u8))
                .collect();
            let sign = ["", "-", "+"][(next() % 3) as usize];
            let s = if frac_digits == 0 {
                format!("{sign}{int}")
            } else {
                format!("{sign}{int}.{frac}")
            };
            let want: f64 = s.parse().unwrap();
            let got = parse_number(s.as_bytes()).unwrap();
            assert_eq!(got.to_bits(), want.to_bits(), "{s}");
        }
        for s in [
            "", "-", ".", "+.", "1e5", "nan", "-INF", "1.5e-3", " 2.5 ", "0.1", "-0", "1.", ".5",
        ] {
            assert_eq!(
                parse_number(s.as_bytes()).map(f64::to_bits),
                s.trim().parse::<f64>().ok().map(f64::to_bits),
                "{s:?}"
            );
        }
    }
}
