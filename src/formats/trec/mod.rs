//! TREC qrels and run readers (docs/specs/kws.md 2.6, 2.7), streaming over a [`TextFile`] line by line.
//!
//! - qrels: `qid iter docno rel`, 4 fields; rel read with C `atol`;
//! - run: `qid iter docno rank sim tag`, 6 fields; rank ignored; sim read with C `atof`.
//!
//! Fields are separated by C `isspace` characters, as trec_eval splits them (`get_qrels.c`,
//! `get_trec_results.c`). Every problem is a located diagnostic; reading never stops at the first one.
//! Docnos are kept compactly: one byte arena per query, no per-line allocation.

mod c_text;
mod qrels;
mod run;
#[cfg(test)]
mod tests;

pub use c_text::{atof, atol};
pub use qrels::read_qrels;
pub use run::read_run;

use crate::diag::{excerpt, Diagnostic, Diags};
use crate::formats::lines::{column_of, strip_bom, utf8, Lines};
use crate::formats::text_file::TextFile;
use std::collections::HashMap;

/// How the readers treat what trec_eval versions and dropscore modes disagree on.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReadSettings {
    /// A non-integer rel is an error (`float_rel = error`) instead of being truncated with a warning.
    pub float_rel_error: bool,
    /// trec_eval 10.0 skips lines starting with `#` (comments); 9.0.8 reads them as data.
    pub comments: bool,
    /// trec_eval 10.0's qrels reader exactly (official mode): it skips one comment line before each line it
    /// parses, so a comment right after a skipped comment is read as data, and a comment on the last line
    /// makes it read past the end of its buffer.
    pub comment_quirks: bool,
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
    /// The first repeated judgement: (line judged first, line judged again, docno).
    pub first_duplicate: Option<(u64, u64, String)>,
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

/// Reads `file` line by line: BOM, UTF-8 and I/O problems are diagnosed here; each valid line goes to
/// `on_line(line_no, text, diags)`. `progress(bytes consumed)` is called every few thousand lines.
fn each_line(
    file: TextFile<'_>,
    diags: &mut Diags,
    progress: &mut dyn FnMut(u64),
    on_line: &mut dyn FnMut(u64, &str, &mut Diags),
) -> u64 {
    let (path, max_line) = (file.path, file.max_line);
    let input = match file.into_reader() {
        Ok(r) => r,
        Err(e) => {
            diags.push(Diagnostic::read_error(path, e));
            return 1;
        }
    };
    let mut lines = Lines::new(input).max_line(max_line);
    let mut bad = 0u64;
    let mut no = 0u64;
    loop {
        let line = match lines.next_line() {
            Ok(Some(l)) => l,
            Ok(None) => break,
            Err(e) => {
                diags.push(Diagnostic::read_error(path, e).line(no + 1));
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
                        .file(path)
                        .at(no, col)
                        .expected("UTF-8 text")
                        .found(excerpt(&String::from_utf8_lossy(line)))
                        .hint("Save the file as UTF-8.")
                        .official("trec_eval reads bytes and does not check the encoding"),
                );
            }
        }
        if no.is_multiple_of(4096) {
            progress(lines.consumed());
        }
    }
    progress(lines.consumed());
    bad
}

fn blank_diag(path: &str, no: u64, qrels: bool) -> Diagnostic {
    if qrels {
        Diagnostic::warning("kws.trec.blank_line", "blank line in the qrels: skipped")
            .file(path)
            .at(no, 1)
            .expected("qid iter docno rel")
            .found("an empty line")
            .hint("Remove blank lines: trec_eval refuses a qrels file that has one.")
            .official("trec_eval stops: \"get_qrels: Malformed line\" (exit status 2)")
    } else {
        Diagnostic::info("kws.trec.blank_line", "blank line in the run: skipped")
            .file(path)
            .at(no, 1)
            .hint("Nothing to do; trec_eval skips blank lines in runs too.")
            .official("skipped")
    }
}

fn malformed(
    path: &str,
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
    .file(path)
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

fn too_big(path: &str, no: u64) -> Diagnostic {
    Diagnostic::error(
        "kws.trec.too_large",
        "one query holds more than 4 GiB of docnos",
    )
    .file(path)
    .line(no)
    .hint("Split the file; no retrieval run needs this many documents per query.")
}
