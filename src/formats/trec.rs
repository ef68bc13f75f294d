//! TREC qrels and run readers (specs/kws.md 2.6, 2.7), streaming over [`Entry::open`] line by line.
//!
//! - qrels: `qid iter docno rel`, 4 fields; rel read with C `atol`;
//! - run: `qid iter docno rank sim tag`, 6 fields; rank ignored; sim read with C `atof`.
//!
//! Fields are separated by C `isspace` characters, as trec_eval splits them (`get_qrels.c`,
//! `get_trec_results.c`). Every problem is a located diagnostic; reading never stops at the first one.
//! Docnos are kept compactly: one byte arena per query, no per-line allocation.

use crate::diag::{excerpt, Diagnostic, Diags};
use crate::formats::lines::{column_of, strip_bom, utf8, Lines};
use crate::input::Entry;
use std::collections::HashMap;

/// How the readers treat what trec_eval versions and dropscore modes disagree on.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReadSettings {
    /// A non-integer rel is an error (`float_rel = error`) instead of being truncated with a warning.
    pub float_rel_error: bool,
    /// trec_eval 10.0 skips lines starting with `#` (comments); 9.0.8 reads them as data.
    pub comments: bool,
    /// Run lines with more than 6 fields are read as trec_eval reads them (the first 6, with a warning)
    /// instead of being refused (official mode: trec_eval 9.0.8 and 10.0 both accept them).
    pub extra_fields_ok: bool,
}

/// The docnos of one query in one byte arena.
#[derive(Clone, Debug, Default)]
pub struct Docnos {
    bytes: Vec<u8>,
    ends: Vec<u32>,
}

impl Docnos {
    fn push(&mut self, d: &[u8]) -> bool {
        let end = self.bytes.len() + d.len();
        match u32::try_from(end) {
            Ok(e) => {
                self.bytes.extend_from_slice(d);
                self.ends.push(e);
                true
            }
            Err(_) => false,
        }
    }
    pub fn get(&self, i: usize) -> &[u8] {
        let start = match i {
            0 => 0,
            _ => self.ends.get(i - 1).map_or(0, |e| *e as usize),
        };
        let end = self.ends.get(i).map_or(start, |e| *e as usize);
        self.bytes.get(start..end).unwrap_or(&[])
    }
    pub fn len(&self) -> usize {
        self.ends.len()
    }
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }
}

/// The judgements of one query.
#[derive(Clone, Debug, Default)]
pub struct QrelsQuery {
    pub qid: String,
    pub docnos: Docnos,
    /// `atol(rel)` per line, in file order.
    pub rels: Vec<i64>,
    /// 1-based line of each judgement.
    pub lines: Vec<u64>,
    /// Line indices kept after duplicates (last line wins), sorted by docno bytes.
    sorted: Vec<u32>,
    /// Lines with rel > 0, duplicates included (trec_eval `-c` sums these for `num_rel`).
    pub positive_lines: u64,
    /// Number of (qid, docno) pairs judged more than once.
    pub duplicates: usize,
}

impl QrelsQuery {
    /// The rel of `docno` (the last line's, if judged twice), `None` if not judged.
    pub fn rel_of(&self, docno: &[u8]) -> Option<i64> {
        let i = self
            .sorted
            .binary_search_by(|j| self.docnos.get(*j as usize).cmp(docno))
            .ok()?;
        let j = *self.sorted.get(i)? as usize;
        self.rels.get(j).copied()
    }
    /// One rel per judged document (duplicates resolved).
    pub fn judged_rels(&self) -> Vec<i64> {
        self.sorted
            .iter()
            .filter_map(|j| self.rels.get(*j as usize).copied())
            .collect()
    }
    /// Number of judged documents (duplicates resolved).
    pub fn len(&self) -> usize {
        self.sorted.len()
    }
    pub fn is_empty(&self) -> bool {
        self.sorted.is_empty()
    }
}

#[derive(Clone, Debug, Default)]
pub struct Qrels {
    /// In order of first appearance.
    pub queries: Vec<QrelsQuery>,
    index: HashMap<String, usize>,
    /// Blank (or whitespace-only) lines skipped; trec_eval refuses them in qrels.
    pub blank_lines: u64,
    /// Lines refused (malformed, invalid UTF-8, non-integer rel with `float_rel = error`).
    pub bad_lines: u64,
    /// Lines trec_eval itself refuses (wrong field count, blank lines): it then stops with exit status 2.
    pub official_refuses: u64,
}

impl Qrels {
    pub fn get(&self, qid: &str) -> Option<&QrelsQuery> {
        self.index.get(qid).and_then(|i| self.queries.get(*i))
    }
}

/// The retrieved documents of one query, in file order.
#[derive(Clone, Debug, Default)]
pub struct RunQuery {
    pub qid: String,
    pub docnos: Docnos,
    /// `atof(sim)` per line.
    pub sims: Vec<f64>,
    /// 1-based line of each document.
    pub lines: Vec<u64>,
}

#[derive(Clone, Debug, Default)]
pub struct Run {
    /// In order of first appearance.
    pub queries: Vec<RunQuery>,
    index: HashMap<String, usize>,
    /// The tag of the first data line (the run id).
    pub tag: Option<String>,
    /// The tag of the last data line (what trec_eval prints as `runid`).
    pub last_tag: Option<String>,
    pub blank_lines: u64,
    pub bad_lines: u64,
    /// Lines trec_eval itself refuses (fewer than 6 fields): it then stops with exit status 2.
    pub official_refuses: u64,
}

impl Run {
    pub fn get(&self, qid: &str) -> Option<&RunQuery> {
        self.index.get(qid).and_then(|i| self.queries.get(*i))
    }
}

/// C `isspace` in the C locale: space, \t, \n, \v, \f, \r.
fn is_c_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// Up to `N` whitespace-separated fields as byte ranges, and the total number of fields.
fn fields<const N: usize>(line: &[u8]) -> ([(usize, usize); N], usize) {
    let mut out = [(0usize, 0usize); N];
    let mut n = 0;
    let mut i = 0;
    while i < line.len() {
        while i < line.len() && is_c_space(line[i]) {
            i += 1;
        }
        if i >= line.len() {
            break;
        }
        let start = i;
        while i < line.len() && !is_c_space(line[i]) {
            i += 1;
        }
        if let Some(slot) = out.get_mut(n) {
            *slot = (start, i);
        }
        n += 1;
    }
    (out, n)
}

/// C `atol` (glibc `strtol(s, NULL, 10)`): leading whitespace, an optional sign, then decimal digits up to
/// the first non-digit; no digits gives 0; out-of-range values saturate to the `long` limits.
pub fn atol(s: &[u8]) -> i64 {
    let mut i = 0;
    while i < s.len() && is_c_space(s[i]) {
        i += 1;
    }
    let neg = match s.get(i) {
        Some(b'-') => {
            i += 1;
            true
        }
        Some(b'+') => {
            i += 1;
            false
        }
        _ => false,
    };
    let mut v: i64 = 0;
    while let Some(d) = s.get(i).filter(|c| c.is_ascii_digit()) {
        let d = (d - b'0') as i64;
        v = if neg {
            v.saturating_mul(10).saturating_sub(d)
        } else {
            v.saturating_mul(10).saturating_add(d)
        };
        i += 1;
    }
    v
}

/// C `atof` (glibc `strtod(s, NULL)`, C locale): the longest prefix that is a decimal float
/// (`[+-]digits[.digits][e[+-]digits]`), `inf`/`infinity`/`nan[(…)]` (any case) or a hexadecimal float
/// (`0x…[p…]`); 0 if there is none. Decimal values are correctly rounded, as glibc's are.
pub fn atof(s: &[u8]) -> f64 {
    let mut i = 0;
    while i < s.len() && is_c_space(s[i]) {
        i += 1;
    }
    let start = i;
    let neg = matches!(s.get(i), Some(b'-'));
    if matches!(s.get(i), Some(b'-' | b'+')) {
        i += 1;
    }
    let sign = if neg { -1.0 } else { 1.0 };
    let rest = s.get(i..).unwrap_or(&[]);
    let lower: Vec<u8> = rest
        .iter()
        .take(8)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    if lower.starts_with(b"inf") {
        return sign * f64::INFINITY;
    }
    if lower.starts_with(b"nan") {
        return f64::NAN;
    }
    if lower.starts_with(b"0x")
        && rest
            .get(2)
            .is_some_and(|c| c.is_ascii_hexdigit() || *c == b'.')
    {
        if let Some(v) = hex_float(&rest[2..]) {
            return sign * v;
        }
    }
    // Decimal: digits, optional fraction, optional exponent.
    let mut j = i;
    let mut digits = 0;
    while s.get(j).is_some_and(|c| c.is_ascii_digit()) {
        j += 1;
        digits += 1;
    }
    if s.get(j) == Some(&b'.') {
        j += 1;
        while s.get(j).is_some_and(|c| c.is_ascii_digit()) {
            j += 1;
            digits += 1;
        }
    }
    if digits == 0 {
        return 0.0;
    }
    if matches!(s.get(j), Some(b'e' | b'E')) {
        let mut k = j + 1;
        if matches!(s.get(k), Some(b'+' | b'-')) {
            k += 1;
        }
        if s.get(k).is_some_and(|c| c.is_ascii_digit()) {
            while s.get(k).is_some_and(|c| c.is_ascii_digit()) {
                k += 1;
            }
            j = k;
        }
    }
    let text = String::from_utf8_lossy(s.get(start..j).unwrap_or(&[])).into_owned();
    let text = text
        .strip_suffix('.')
        .unwrap_or(&text)
        .replace(".e", "e")
        .replace(".E", "E");
    text.parse::<f64>().unwrap_or(0.0)
}

/// The value of hexadecimal float digits after `0x` (`h.hhhp±d`), or `None` if there is no digit.
fn hex_float(s: &[u8]) -> Option<f64> {
    let mut mant: u64 = 0;
    let mut exp: i64 = 0;
    let mut any = false;
    let mut sticky = false;
    let mut i = 0;
    let mut frac = false;
    while let Some(c) = s.get(i) {
        if *c == b'.' && !frac {
            frac = true;
            i += 1;
            continue;
        }
        let Some(d) = (*c as char).to_digit(16) else {
            break;
        };
        any = true;
        if mant >> 59 == 0 {
            mant = mant * 16 + d as u64;
            if frac {
                exp -= 4;
            }
        } else {
            sticky |= d != 0;
            if !frac {
                exp += 4;
            }
        }
        i += 1;
    }
    if !any {
        return None;
    }
    if matches!(s.get(i), Some(b'p' | b'P')) {
        let mut k = i + 1;
        let neg = matches!(s.get(k), Some(b'-'));
        if matches!(s.get(k), Some(b'+' | b'-')) {
            k += 1;
        }
        if s.get(k).is_some_and(|c| c.is_ascii_digit()) {
            let mut e: i64 = 0;
            while let Some(c) = s.get(k).filter(|c| c.is_ascii_digit()) {
                e = (e * 10 + (c - b'0') as i64).min(100_000);
                k += 1;
            }
            exp += if neg { -e } else { e };
        }
    }
    let m = (mant | sticky as u64) as f64;
    Some(m * 2f64.powi(exp.clamp(-2000, 2000) as i32))
}

/// Reads `entry` line by line: BOM, UTF-8 and I/O problems are diagnosed here; each valid line goes to
/// `on_line(line_no, text, diags)`. `progress(bytes consumed)` is called every few thousand lines.
fn each_line(
    entry: &Entry,
    diags: &mut Diags,
    progress: &mut dyn FnMut(u64),
    on_line: &mut dyn FnMut(u64, &str, &mut Diags),
) -> u64 {
    let input = match entry.buffered() {
        Ok(r) => r,
        Err(e) => {
            diags.push(Diagnostic::read_error(&entry.path, e));
            return 1;
        }
    };
    let mut lines = Lines::new(input).max_line(entry.field_limit());
    let mut bad = 0u64;
    let mut no = 0u64;
    loop {
        let line = match lines.next_line() {
            Ok(Some(l)) => l,
            Ok(None) => break,
            Err(e) => {
                diags.push(Diagnostic::read_error(&entry.path, e).line(no + 1));
                bad += 1;
                break;
            }
        };
        no += 1;
        let line = if no == 1 { strip_bom(line) } else { line };
        match utf8(line) {
            Ok(text) => on_line(no, text, diags),
            Err(col) => {
                bad += 1;
                diags.push(
                    Diagnostic::error("kws.trec.invalid_utf8", "the line is not valid UTF-8")
                        .file(&entry.path)
                        .at(no, col)
                        .expected("UTF-8 text")
                        .found(excerpt(&String::from_utf8_lossy(line)))
                        .hint("Save the file as UTF-8.")
                        .official("trec_eval reads bytes and does not check the encoding"),
                );
            }
        }
        if no % 4096 == 0 {
            progress(lines.consumed());
        }
    }
    progress(lines.consumed());
    bad
}

fn blank_diag(entry: &Entry, no: u64, qrels: bool) -> Diagnostic {
    if qrels {
        Diagnostic::warning("kws.trec.blank_line", "blank line in the qrels: skipped")
            .file(&entry.path)
            .at(no, 1)
            .expected("qid iter docno rel")
            .found("an empty line")
            .hint("Remove blank lines: trec_eval refuses a qrels file that has one.")
            .official("trec_eval stops: \"get_qrels: Malformed line\" (exit status 2)")
    } else {
        Diagnostic::info("kws.trec.blank_line", "blank line in the run: skipped")
            .file(&entry.path)
            .at(no, 1)
            .hint("Nothing to do; trec_eval skips blank lines in runs too.")
            .official("skipped")
    }
}

fn malformed(
    entry: &Entry,
    no: u64,
    text: &str,
    n: usize,
    want: usize,
    span: (usize, usize),
) -> Diagnostic {
    let what = if want == 4 {
        "qid iter docno rel"
    } else {
        "qid iter docno rank sim tag"
    };
    let col = if n > want {
        column_of(text.as_bytes(), span.0)
    } else {
        text.chars().count() as u64 + 1
    };
    let mut d = Diagnostic::error(
        "kws.trec.malformed_line",
        format!(
            "{n} field{} where {want} are expected",
            if n == 1 { "" } else { "s" }
        ),
    )
    .file(&entry.path)
    .at(no, col)
    .expected(format!("{want} fields: {what}"))
    .found(format!("{n}: {}", excerpt(text)));
    d = if text.starts_with('#') {
        d.hint("Remove comment lines (trec_eval 9.0.8 reads them as data; set trec_version=10.0 to skip them).")
    } else {
        d.hint(format!(
            "Write {want} whitespace-separated fields on every line: {what}."
        ))
    };
    if want == 6 && n > 6 {
        d.official("trec_eval ignores the fields after the 6th")
    } else {
        d.official(format!(
            "trec_eval refuses the file: \"{}: Malformed line\" (exit status 2)",
            if want == 4 {
                "get_qrels"
            } else {
                "get_results"
            }
        ))
    }
}

/// Reads a qrels file. Duplicate (qid, docno) pairs keep the last line, with a warning.
pub fn read_qrels(entry: &Entry, s: &ReadSettings, diags: &mut Diags) -> Qrels {
    let mut q = Qrels::default();
    let mut last: Option<usize> = None;
    let mut on_line = |no: u64, text: &str, d: &mut Diags| {
        let b = text.as_bytes();
        if s.comments && b.first() == Some(&b'#') {
            return;
        }
        let (f, n) = fields::<5>(b);
        if n == 0 {
            q.blank_lines += 1;
            q.official_refuses += 1;
            d.push(blank_diag(entry, no, true));
            return;
        }
        if n != 4 {
            q.bad_lines += 1;
            q.official_refuses += 1;
            d.push(malformed(
                entry,
                no,
                text,
                n,
                4,
                f[4.min(n.saturating_sub(1))],
            ));
            return;
        }
        let qid = &text[f[0].0..f[0].1];
        let docno = &b[f[2].0..f[2].1];
        let rel_text = &text[f[3].0..f[3].1];
        let rel = read_rel(entry, no, text, rel_text, f[3].0, s, d);
        let Some(rel) = rel else {
            q.bad_lines += 1;
            return;
        };
        let idx = match last.filter(|i| q.queries.get(*i).is_some_and(|x| x.qid == qid)) {
            Some(i) => i,
            None => {
                let i = *q.index.entry(qid.to_string()).or_insert_with(|| {
                    q.queries.push(QrelsQuery {
                        qid: qid.to_string(),
                        ..Default::default()
                    });
                    q.queries.len() - 1
                });
                last = Some(i);
                i
            }
        };
        let Some(query) = q.queries.get_mut(idx) else {
            return;
        };
        if !query.docnos.push(docno) {
            q.bad_lines += 1;
            d.push(too_big(entry, no));
            return;
        }
        query.rels.push(rel);
        query.lines.push(no);
        if rel > 0 {
            query.positive_lines += 1;
        }
    };
    let bad = each_line(entry, diags, &mut |_| {}, &mut on_line);
    q.bad_lines += bad;
    for query in &mut q.queries {
        resolve_duplicates(query, entry, diags);
    }
    q
}

fn too_big(entry: &Entry, no: u64) -> Diagnostic {
    Diagnostic::error(
        "kws.trec.too_large",
        "one query holds more than 4 GiB of docnos",
    )
    .file(&entry.path)
    .line(no)
    .hint("Split the file; no retrieval run needs this many documents per query.")
}

/// Reads a rel field: `atol`, with a warning (or an error, `float_rel = error`) when the text is not an
/// integer. `None` = refused.
fn read_rel(
    entry: &Entry,
    no: u64,
    line: &str,
    rel: &str,
    at: usize,
    s: &ReadSettings,
    d: &mut Diags,
) -> Option<i64> {
    let v = atol(rel.as_bytes());
    let digits = rel.strip_prefix(['+', '-']).unwrap_or(rel);
    if !digits.is_empty() && digits.bytes().all(|c| c.is_ascii_digit()) {
        return Some(v);
    }
    // Integral values written another way ("1.0") read the same with atol: no diagnostic.
    if rel.parse::<f64>().is_ok_and(|x| x == v as f64) {
        return Some(v);
    }
    let col = column_of(line.as_bytes(), at);
    if s.float_rel_error {
        d.push(
            Diagnostic::error("kws.trec.non_integer_rel", format!("rel `{rel}` is not an integer"))
                .file(&entry.path)
                .at(no, col)
                .expected("an integer relevance level (e.g. 0, 1, 2)")
                .found(rel.to_string())
                .hint("Write integer levels (e.g. round(Relevance × 10)), or set float_rel=truncate to read it as trec_eval does.")
                .official(format!("read as {v} by C atol (silently truncated)")),
        );
        None
    } else {
        d.push(
            Diagnostic::warning("kws.trec.rel_truncated", format!("rel `{rel}` is read as {v} (C atol)"))
                .file(&entry.path)
                .at(no, col)
                .expected("an integer relevance level")
                .found(rel.to_string())
                .hint(if v <= 0 {
                    "This judgement counts as not relevant; write integer levels (e.g. 1) if it is relevant."
                } else {
                    "Write integer levels; the fraction is ignored."
                })
                .official(format!("read as {v} (silently truncated)")),
        );
        Some(v)
    }
}

/// Sorts a query's judgements by docno and keeps the last line of each duplicated docno, with a warning.
fn resolve_duplicates(query: &mut QrelsQuery, entry: &Entry, diags: &mut Diags) {
    let mut idx: Vec<u32> = (0..query.docnos.len() as u32).collect();
    // Stable: equal docnos stay in file order, so the last of a run of equals is the last line.
    idx.sort_by(|a, b| {
        query
            .docnos
            .get(*a as usize)
            .cmp(query.docnos.get(*b as usize))
    });
    let mut kept: Vec<u32> = Vec::with_capacity(idx.len());
    for j in idx {
        let same = kept
            .last()
            .is_some_and(|k| query.docnos.get(*k as usize) == query.docnos.get(j as usize));
        if same {
            let first = kept.last().copied().unwrap_or(j) as usize;
            query.duplicates += 1;
            let line = query.lines.get(j as usize).copied().unwrap_or(0);
            let prev = query.lines.get(first).copied().unwrap_or(0);
            let docno = String::from_utf8_lossy(query.docnos.get(j as usize)).into_owned();
            diags.push(
                Diagnostic::warning(
                    "kws.trec.duplicate_judgement",
                    format!(
                        "query `{}` judges `{docno}` again (lines {prev} and {line}): the last line wins",
                        query.qid
                    ),
                )
                .file(&entry.path)
                .line(line)
                .found(excerpt(&docno))
                .hint("Keep one judgement per (qid, docno).")
                .official("trec_eval stops with \"duplicate docs\" (exit status 4) if this query is evaluated"),
            );
            if let Some(k) = kept.last_mut() {
                *k = j;
            }
        } else {
            kept.push(j);
        }
    }
    query.sorted = kept;
}

/// Reads a run. `progress(bytes consumed)` is called while reading.
pub fn read_run(
    entry: &Entry,
    s: &ReadSettings,
    diags: &mut Diags,
    progress: &mut dyn FnMut(u64),
) -> Run {
    let mut run = Run::default();
    let mut last: Option<usize> = None;
    // (lines with another tag, first such line, its tag, its column)
    let mut other_tags: (u64, u64, String, u64) = (0, 0, String::new(), 0);
    let mut on_line = |no: u64, text: &str, d: &mut Diags| {
        let b = text.as_bytes();
        if s.comments && b.first() == Some(&b'#') {
            return;
        }
        let (f, n) = fields::<7>(b);
        if n == 0 {
            run.blank_lines += 1;
            d.push(blank_diag(entry, no, false));
            return;
        }
        if n != 6 {
            let mut diag = malformed(entry, no, text, n, 6, f[6.min(n.saturating_sub(1))]);
            if n > 6 && s.extra_fields_ok {
                diag.severity = crate::diag::Severity::Warning;
                diag.message = format!("{n} fields where 6 are expected: the fields after the 6th are ignored, as trec_eval does");
                d.push(diag);
            } else {
                run.bad_lines += 1;
                if n < 6 {
                    run.official_refuses += 1;
                }
                d.push(diag);
                return;
            }
        }
        let qid = &text[f[0].0..f[0].1];
        let docno = &b[f[2].0..f[2].1];
        let sim_text = &text[f[4].0..f[4].1];
        let tag = &text[f[5].0..f[5].1];
        let sim = match sim_text.parse::<f64>() {
            Ok(v) => v,
            Err(_) => {
                let v = atof(sim_text.as_bytes());
                d.push(
                    Diagnostic::warning(
                        "kws.trec.bad_sim",
                        format!("sim `{sim_text}` is read as {v} (C atof)"),
                    )
                    .file(&entry.path)
                    .at(no, column_of(b, f[4].0))
                    .expected("a decimal number")
                    .found(sim_text.to_string())
                    .hint("Write the score as a plain decimal number.")
                    .official(format!("read as {v} (C atof)")),
                );
                v
            }
        };
        match &run.tag {
            None => run.tag = Some(tag.to_string()),
            Some(t) if t != tag => {
                if other_tags.0 == 0 {
                    other_tags = (0, no, tag.to_string(), column_of(b, f[5].0));
                }
                other_tags.0 += 1;
            }
            _ => {}
        }
        if run.last_tag.as_deref() != Some(tag) {
            run.last_tag = Some(tag.to_string());
        }
        let idx = match last.filter(|i| run.queries.get(*i).is_some_and(|x| x.qid == qid)) {
            Some(i) => i,
            None => {
                let i = *run.index.entry(qid.to_string()).or_insert_with(|| {
                    run.queries.push(RunQuery {
                        qid: qid.to_string(),
                        ..Default::default()
                    });
                    run.queries.len() - 1
                });
                last = Some(i);
                i
            }
        };
        let Some(query) = run.queries.get_mut(idx) else {
            return;
        };
        if !query.docnos.push(docno) {
            run.bad_lines += 1;
            d.push(too_big(entry, no));
            return;
        }
        query.sims.push(sim);
        query.lines.push(no);
    };
    let bad = each_line(entry, diags, progress, &mut on_line);
    run.bad_lines += bad;
    if other_tags.0 > 0 {
        let first = run.tag.clone().unwrap_or_default();
        diags.push(
            Diagnostic::warning(
                "kws.trec.tag_differs",
                format!(
                    "{} line{} carry a tag other than `{first}`: the first tag is the run id",
                    other_tags.0,
                    if other_tags.0 == 1 { "" } else { "s" }
                ),
            )
            .file(&entry.path)
            .at(other_tags.1, other_tags.3)
            .expected(first)
            .found(other_tags.2.clone())
            .hint("Use one tag (the run id) on every line, or split the file into one run per tag.")
            .official(format!(
                "trec_eval scores every line as one run and prints the last line's tag (`{}`) as runid",
                run.last_tag.as_deref().unwrap_or("")
            )),
        );
    }
    run
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(text: &str) -> Entry {
        Entry::from_bytes("t.txt", None, text.as_bytes().to_vec())
    }

    #[test]
    fn c_atol() {
        assert_eq!(atol(b"0.7"), 0);
        assert_eq!(atol(b"1.0"), 1);
        assert_eq!(atol(b"-1"), -1);
        assert_eq!(atol(b"+12x"), 12);
        assert_eq!(atol(b"x"), 0);
        assert_eq!(atol(b"99999999999999999999"), i64::MAX);
        assert_eq!(atol(b"-99999999999999999999"), i64::MIN);
    }

    #[test]
    fn c_atof() {
        assert_eq!(atof(b"2.5"), 2.5);
        assert_eq!(atof(b"1e"), 1.0);
        assert_eq!(atof(b"1e+"), 1.0);
        assert_eq!(atof(b"-.5x"), -0.5);
        assert_eq!(atof(b"5."), 5.0);
        assert_eq!(atof(b"abc"), 0.0);
        assert_eq!(atof(b"-"), 0.0);
        assert_eq!(atof(b"INF"), f64::INFINITY);
        assert_eq!(atof(b"-Infinity"), f64::NEG_INFINITY);
        assert!(atof(b"nan(1)").is_nan());
        assert_eq!(atof(b"0x1p3"), 8.0);
        assert_eq!(atof(b"0x.8"), 0.5);
        assert_eq!(atof(b"0x"), 0.0);
        assert_eq!(atof(b"0.1"), 0.1);
        assert_eq!(atof(b"1e400"), f64::INFINITY);
    }

    #[test]
    fn qrels_reading() {
        let e = entry("q1 0 d1 1\nq1 0 d2 0.7\n\nq2\t0  d3 2\r\nq1 0 d1 0\nq1 0 d4\n");
        let mut d = Diags::new();
        let q = read_qrels(&e, &ReadSettings::default(), &mut d);
        let codes: Vec<&str> = d.list.iter().map(|x| x.code.as_str()).collect();
        assert_eq!(
            codes,
            [
                "kws.trec.rel_truncated",
                "kws.trec.blank_line",
                "kws.trec.malformed_line",
                "kws.trec.duplicate_judgement"
            ]
        );
        assert_eq!(d.list[0].line, Some(2));
        assert_eq!(d.list[0].column, Some(9));
        assert_eq!(d.list[2].line, Some(6));
        assert_eq!(d.list[2].column, Some(8));
        let q1 = q.get("q1").unwrap();
        assert_eq!(q1.rel_of(b"d1"), Some(0), "last line wins");
        assert_eq!(q1.rel_of(b"d2"), Some(0));
        assert_eq!(q1.rel_of(b"d9"), None);
        assert_eq!(q1.len(), 2);
        assert_eq!(q1.positive_lines, 1);
        assert_eq!(q.get("q2").unwrap().judged_rels(), vec![2]);
        assert_eq!((q.blank_lines, q.bad_lines), (1, 1));
    }

    #[test]
    fn float_rel_error() {
        let e = entry("q1 0 d1 0.5\n");
        let mut d = Diags::new();
        let s = ReadSettings {
            float_rel_error: true,
            ..Default::default()
        };
        let q = read_qrels(&e, &s, &mut d);
        assert_eq!(d.list[0].code, "kws.trec.non_integer_rel");
        assert!(q.get("q1").is_none());
    }

    #[test]
    fn run_reading() {
        let e =
            entry("q1 Q0 d1 1 2.5 a\nq1 Q0 d2 2 x a\nq2 Q0 d3 1 1 b\nq1 Q0 d4 3 1 a extra\n# c\n");
        let mut d = Diags::new();
        let r = read_run(&e, &ReadSettings::default(), &mut d, &mut |_| {});
        let codes: Vec<&str> = d.list.iter().map(|x| x.code.as_str()).collect();
        assert_eq!(
            codes,
            [
                "kws.trec.bad_sim",
                "kws.trec.malformed_line",
                "kws.trec.malformed_line",
                "kws.trec.tag_differs"
            ]
        );
        assert_eq!(d.list[1].column, Some(16));
        assert_eq!(r.tag.as_deref(), Some("a"));
        let q1 = r.get("q1").unwrap();
        assert_eq!(q1.sims, vec![2.5, 0.0]);
        assert_eq!(q1.docnos.get(1), b"d2");
        assert_eq!(r.queries.len(), 2);
        // trec_eval 10.0 skips comment lines.
        let mut d = Diags::new();
        let s = ReadSettings {
            comments: true,
            ..Default::default()
        };
        read_run(&entry("# c\nq1 Q0 d1 1 1 a\n"), &s, &mut d, &mut |_| {});
        assert!(d.list.is_empty());
    }

    #[test]
    fn bom_and_utf8() {
        let mut bytes = b"\xEF\xBB\xBFq1 0 d1 1\nq1 0 d\xFF 1\n".to_vec();
        bytes.extend_from_slice("q1 0 é 1\n".as_bytes());
        let e = Entry::from_bytes("t", None, bytes);
        let mut d = Diags::new();
        let q = read_qrels(&e, &ReadSettings::default(), &mut d);
        assert_eq!(d.list.len(), 1);
        assert_eq!(d.list[0].code, "kws.trec.invalid_utf8");
        assert_eq!((d.list[0].line, d.list[0].column), (Some(2), Some(7)));
        assert_eq!(q.get("q1").unwrap().len(), 2);
    }
}
