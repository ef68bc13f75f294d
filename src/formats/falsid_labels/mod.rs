//! FalsID label files (docs/specs/falsid.md 2.1): layouts L1 (`id,label` with `<Subset>`/`not-<Subset>` words),
//! L2 (`id,label` with 0/1 or words, subset from the file name) and L3 (`id,subset,label`), with an optional
//! header and an optional `writer` column (named in the header). Records are read with the `csv` crate;
//! every problem is a located diagnostic.

mod records;

pub use records::decode_text;

use crate::diag::{excerpt, Diagnostic, Diags};
use records::{detect_delimiter, field_columns, records, Record};
use std::collections::HashMap;

/// What the reader needs to know about the run.
pub struct LabelConfig<'a> {
    /// Subset names in option order (`Pizan`, `Tasso`, `Yaqut`).
    pub subsets: &'a [String],
    pub case_insensitive: bool,
    /// `id_match = stem`: ids compare without a final extension.
    pub stem: bool,
    /// `duplicate_ids = last_wins`.
    pub last_wins: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LabelRow {
    /// The id as written (trimmed).
    pub id: String,
    /// The id used for matching (the stem with `id_match = stem`).
    pub key: String,
    pub subset: usize,
    /// 0 = authentic, 1 = imitation.
    pub label: u8,
    pub writer: Option<String>,
    pub line: u64,
}

#[derive(Clone, Debug, Default)]
pub struct LabelFile {
    pub rows: Vec<LabelRow>,
    /// `L1`, `L2`, `L3` (or a mix, e.g. `L1/L2` when words and digits are mixed).
    pub layout: String,
    pub has_writer: bool,
}

/// The matching key of an id.
pub fn id_key(id: &str, stem: bool) -> String {
    if stem {
        if let Some((a, b)) = id.rsplit_once('.') {
            if !a.is_empty() && !b.is_empty() && !b.contains(['/', '\\']) {
                return a.to_string();
            }
        }
    }
    id.to_string()
}

/// Which subset a file name names: `Ok(Some(i))` one, `Ok(None)` none, `Err(names)` several.
pub fn subset_from_name(name: &str, subsets: &[String]) -> Result<Option<usize>, Vec<String>> {
    let lower = name.to_lowercase();
    let hits: Vec<usize> = subsets
        .iter()
        .enumerate()
        .filter(|(_, s)| !s.is_empty() && lower.contains(&s.to_lowercase()))
        .map(|(i, _)| i)
        .collect();
    match hits.len() {
        0 => Ok(None),
        1 => Ok(Some(hits[0])),
        _ => Err(hits.iter().map(|i| subsets[*i].clone()).collect()),
    }
}

/// A label value: `Some((subset word or None for 0/1, value))`.
fn parse_label(s: &str, cfg: &LabelConfig) -> Option<(Option<usize>, u8)> {
    match s {
        "0" => return Some((None, 0)),
        "1" => return Some((None, 1)),
        _ => {}
    }
    let eq = |a: &str, b: &str| {
        if cfg.case_insensitive {
            a.eq_ignore_ascii_case(b) || a.to_lowercase() == b.to_lowercase()
        } else {
            a == b
        }
    };
    for (i, name) in cfg.subsets.iter().enumerate() {
        if eq(s, name) {
            return Some((Some(i), 0));
        }
        if let (Some(p), Some(rest)) = (s.get(..4), s.get(4..)) {
            if eq(p, "not-") && eq(rest, name) {
                return Some((Some(i), 1));
            }
        }
    }
    None
}

fn valid_labels(cfg: &LabelConfig) -> Vec<String> {
    let mut v = vec!["0".to_string(), "1".to_string()];
    for s in cfg.subsets {
        v.push(s.clone());
        v.push(format!("not-{s}"));
    }
    v
}

/// Levenshtein distance (small strings only).
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

pub fn closest<'a>(s: &str, candidates: &'a [String]) -> Option<&'a String> {
    let t: String = s.chars().take(64).collect();
    candidates.iter().min_by_key(|c| edit_distance(&t, c))
}

const ID_NAMES: &[&str] = &["id", "image", "filename", "file", "name", "sample"];
const LABEL_NAMES: &[&str] = &["label", "class", "prediction", "pred", "y"];
const SUBSET_NAMES: &[&str] = &["subset", "dataset", "collection"];
const WRITER_NAMES: &[&str] = &["writer", "scribe", "hand"];

/// Reads one label file. `name` is the file name (for the subset of layout L2).
pub fn read(
    path: &str,
    name: &str,
    bytes: &[u8],
    cfg: &LabelConfig,
    diags: &mut Diags,
) -> Option<LabelFile> {
    let text = decode_text(path, bytes, diags, "falsid.labels.encoding")?;
    let delim = delimiter(path, &text, diags)?;
    let lines = Lines {
        lines: text.split('\n').collect(),
        delim,
    };
    let recs = records(&text, delim, path, diags);
    let Some(first) = recs.first() else {
        diags.push(
            Diagnostic::warning("falsid.labels.empty", "the label file has no rows")
                .file(path)
                .hint("Each line holds one sample: id and label."),
        );
        return Some(LabelFile::default());
    };
    let nf = first.fields.len();
    if !(2..=4).contains(&nf) {
        diags.push(
            Diagnostic::error(
                "falsid.labels.malformed",
                format!("{nf} fields on the first line"),
            )
            .file(path)
            .at(first.line, 1)
            .expected("id,label or id,subset,label")
            .found(excerpt(lines.text(first.line)))
            .hint("Write one `id,label` pair per line, with the same separator on every line."),
        );
        return None;
    }
    // Header: none of its fields is a valid label value.
    let is_header = !first
        .fields
        .iter()
        .any(|f| parse_label(f.trim(), cfg).is_some());
    let cols = if is_header {
        header_columns(path, first, diags)
    } else {
        Cols::default_of(nf)
    };
    let mut rows = Rows {
        path,
        name,
        cfg,
        lines,
        cols,
        nf,
        from_name: subset_from_name(name, cfg.subsets),
        valid: valid_labels(cfg),
        out: LabelFile {
            has_writer: cols.writer.is_some(),
            ..Default::default()
        },
        words: false,
        digits: false,
        seen: HashMap::new(),
        name_reported: false,
    };
    for rec in recs.iter().skip(usize::from(is_header)) {
        rows.row(rec, diags);
    }
    Some(rows.finish())
}

/// The file's delimiter (`None`: whitespace runs), or the error that none fits.
fn delimiter(path: &str, text: &str, diags: &mut Diags) -> Option<Option<u8>> {
    match detect_delimiter(text) {
        Ok(d) => Some(d),
        Err(()) => {
            diags.push(
                Diagnostic::error(
                    "falsid.labels.malformed",
                    "cannot find a delimiter giving 2 or 3 fields on every line",
                )
                .file(path)
                .line(1)
                .expected("id,label or id,subset,label (separated by , ; TAB or spaces)")
                .found(excerpt(text.lines().next().unwrap_or("")))
                .hint("Write one `id,label` pair per line, with the same separator on every line."),
            );
            None
        }
    }
}

/// The lines of the file, for the text and the field columns a diagnostic shows.
struct Lines<'a> {
    lines: Vec<&'a str>,
    delim: Option<u8>,
}

impl Lines<'_> {
    /// The text of 1-based line `l`.
    fn text(&self, l: u64) -> &str {
        self.lines
            .get((l as usize).wrapping_sub(1))
            .copied()
            .unwrap_or("")
    }
    /// The 1-based column of field `k` on line `l`.
    fn col(&self, l: u64, k: usize) -> u64 {
        field_columns(self.text(l), self.delim)
            .get(k)
            .copied()
            .unwrap_or(1)
    }
}

/// Which field holds what.
#[derive(Clone, Copy)]
struct Cols {
    id: usize,
    subset: Option<usize>,
    label: usize,
    writer: Option<usize>,
}

impl Cols {
    /// The default order of `nf` fields: id, label; id, subset, label; id, subset, label, writer.
    fn default_of(nf: usize) -> Cols {
        Cols {
            id: 0,
            subset: (nf >= 3).then_some(1),
            label: if nf >= 3 { 2 } else { 1 },
            writer: (nf == 4).then_some(3),
        }
    }
}

/// The columns a header names; when its names are not all known, the default order (a warning), except that
/// three fields with a writer and no subset column are id, label, writer.
fn header_columns(path: &str, first: &Record, diags: &mut Diags) -> Cols {
    let nf = first.fields.len();
    let names: Vec<String> = first
        .fields
        .iter()
        .map(|f| f.trim().to_lowercase())
        .collect();
    let find = |set: &[&str]| names.iter().position(|n| set.contains(&n.as_str()));
    let (i, l, s, w) = (
        find(ID_NAMES),
        find(LABEL_NAMES),
        find(SUBSET_NAMES),
        find(WRITER_NAMES),
    );
    let known = names
        .iter()
        .filter(|n| {
            [ID_NAMES, LABEL_NAMES, SUBSET_NAMES, WRITER_NAMES]
                .iter()
                .any(|set| set.contains(&n.as_str()))
        })
        .count();
    if let (Some(i), Some(l), true) = (i, l, known == nf) {
        return Cols {
            id: i,
            subset: s,
            label: l,
            writer: w,
        };
    }
    let mut cols = Cols::default_of(nf);
    if nf == 3 && w.is_some() && s.is_none() {
        cols.subset = None;
        cols.label = 1;
        cols.writer = Some(2);
    }
    diags.push(
        Diagnostic::warning(
            "falsid.csv.unknown_header",
            "header names not recognised; the default column order is assumed",
        )
        .file(path)
        .at(first.line, 1)
        .expected(if nf >= 3 {
            "id, subset, label"
        } else {
            "id, label"
        })
        .found(excerpt(&first.fields.join(",")))
        .hint("Name the columns id and label (and subset), or leave the header out."),
    );
    cols
}

/// The rows read so far, and what the reader has seen.
struct Rows<'a> {
    path: &'a str,
    name: &'a str,
    cfg: &'a LabelConfig<'a>,
    lines: Lines<'a>,
    cols: Cols,
    nf: usize,
    /// The subset the file name names.
    from_name: Result<Option<usize>, Vec<String>>,
    valid: Vec<String>,
    out: LabelFile,
    /// Labels given as words (`Pizan`, `not-Pizan`) and as digits (0/1).
    words: bool,
    digits: bool,
    /// (subset, key) → (row index, line) of the rows kept.
    seen: HashMap<(usize, String), (usize, u64)>,
    /// The file name's problem was reported (once).
    name_reported: bool,
}

impl Rows<'_> {
    /// Reads one record; a bad one is reported and skipped.
    fn row(&mut self, rec: &Record, diags: &mut Diags) {
        let (path, cols, nf) = (self.path, self.cols, self.nf);
        if rec.fields.len() != nf {
            diags.push(
                Diagnostic::error(
                    "falsid.labels.malformed",
                    format!("{} fields where the file has {nf}", rec.fields.len()),
                )
                .file(path)
                .at(rec.line, 1)
                .expected(format!("{nf} fields"))
                .found(excerpt(self.lines.text(rec.line)))
                .hint("Every line needs the same columns as the first one."),
            );
            return;
        }
        let id = rec.fields[cols.id].trim().to_string();
        if id.is_empty() {
            diags.push(
                Diagnostic::error("falsid.labels.malformed", "empty id")
                    .file(path)
                    .at(rec.line, self.lines.col(rec.line, cols.id))
                    .expected("a sample id")
                    .found("")
                    .hint("Give every line the id of its image or patch."),
            );
            return;
        }
        // Subset of the row: the column, else the label word, else the file name.
        let Some(subset) = self.subset_column(rec, diags) else {
            return;
        };
        let Some((subset, label)) = self.label(rec, subset, diags) else {
            return;
        };
        let writer = cols.writer.map(|c| rec.fields[c].trim().to_string());
        let key = id_key(&id, self.cfg.stem);
        let row = LabelRow {
            id,
            key,
            subset,
            label,
            writer,
            line: rec.line,
        };
        self.keep(row, diags);
    }

    /// The subset the subset column names: `Some(None)` without the column, `None` (reported) when unknown.
    fn subset_column(&self, rec: &Record, diags: &mut Diags) -> Option<Option<usize>> {
        let Some(cs) = self.cols.subset else {
            return Some(None);
        };
        let s = rec.fields[cs].trim();
        let subsets = self.cfg.subsets;
        if let Some(i) = subsets.iter().position(|n| n.eq_ignore_ascii_case(s)) {
            return Some(Some(i));
        }
        diags.push(
            Diagnostic::error(
                "falsid.input.subset_unknown",
                format!("unknown subset `{}`", excerpt(s)),
            )
            .file(self.path)
            .at(rec.line, self.lines.col(rec.line, cs))
            .expected(subsets.join(", "))
            .found(excerpt(s))
            .hint("Write one of the subset names in the subset column."),
        );
        None
    }

    /// The row's subset and label (0 or 1), from the label and `subset` (the subset column's); `None` when the
    /// label is not one, or names no subset or another one than the column or file name (reported).
    fn label(
        &mut self,
        rec: &Record,
        subset: Option<usize>,
        diags: &mut Diags,
    ) -> Option<(usize, u8)> {
        let (path, cfg, c_label) = (self.path, self.cfg, self.cols.label);
        let raw = rec.fields[c_label].trim();
        let at = self.lines.col(rec.line, c_label);
        let Some((word_subset, label)) = parse_label(raw, cfg) else {
            let close = closest(raw, &self.valid).cloned().unwrap_or_default();
            diags.push(
                Diagnostic::error("falsid.labels.bad_label", format!("label `{}` not recognised", excerpt(raw)))
                    .file(path)
                    .at(rec.line, at)
                    .expected(self.valid.join(", "))
                    .found(excerpt(raw))
                    .hint(format!("Did you mean `{close}`? Labels are 0/1 or <Subset>/not-<Subset>, case-sensitive unless label_case_insensitive = true.")),
            );
            return None;
        };
        let Some(ws) = word_subset else {
            self.digits = true;
            return Some((
                subset.or_else(|| self.subset_from_name(rec, at, diags))?,
                label,
            ));
        };
        self.words = true;
        let other = subset.or(match &self.from_name {
            Ok(s) if self.cols.subset.is_none() => *s,
            _ => None,
        });
        if let Some(o) = other.filter(|&o| o != ws) {
            diags.push(
                Diagnostic::error("falsid.labels.subset_conflict", format!("label `{raw}` names another subset than {}", cfg.subsets[o]))
                    .file(path)
                    .at(rec.line, at)
                    .expected(format!("{0} or not-{0}", cfg.subsets[o]))
                    .found(raw)
                    .hint("Put each subset's labels in its own file, or use the merged layout with a neutral file name."),
            );
            return None;
        }
        Some((ws, label))
    }

    /// The subset of a 0/1 label without a subset column: the file name's, or `None` (reported once, at the
    /// label of the first such row, column `at`).
    fn subset_from_name(&mut self, rec: &Record, at: u64, diags: &mut Diags) -> Option<usize> {
        let other = match &self.from_name {
            Ok(Some(s)) => return Some(*s),
            other => other,
        };
        if self.name_reported {
            return None;
        }
        self.name_reported = true;
        let (name, subsets) = (self.name, self.cfg.subsets);
        let found = match other {
            Err(names) => format!("{name} (names {})", names.join(" and ")),
            _ => name.to_string(),
        };
        diags.push(
            Diagnostic::error("falsid.input.subset_unknown", "0/1 labels, but the file name names no single subset")
                .file(self.path)
                .at(rec.line, at)
                .expected(format!("a file name containing exactly one of {}", subsets.join(", ")))
                .found(found)
                .hint("Rename the file (e.g. pizan.csv), use the words Pizan/not-Pizan, or add a subset column (layout L3)."),
        );
        None
    }

    /// Adds `row`, or (a repeated id in its subset) replaces the first with `duplicate_ids = last_wins`, else
    /// reports it.
    fn keep(&mut self, row: LabelRow, diags: &mut Diags) {
        let (subset, line) = (row.subset, row.line);
        match self.seen.get(&(subset, row.key.clone())) {
            Some(&(idx, first_line)) => {
                if self.cfg.last_wins {
                    self.out.rows[idx] = row;
                    return;
                }
                diags.push(
                    Diagnostic::error(
                        "falsid.labels.duplicate_id",
                        format!(
                            "id `{}` appears twice in {} (lines {first_line} and {line})",
                            excerpt(&row.id),
                            self.cfg.subsets[subset],
                        ),
                    )
                    .file(self.path)
                    .at(line, self.lines.col(line, self.cols.id))
                    .expected("each id once per subset")
                    .found(excerpt(&row.id))
                    .hint("Remove the repeated line, or set duplicate_ids = last_wins."),
                );
            }
            None => {
                self.seen
                    .insert((subset, row.key.clone()), (self.out.rows.len(), line));
                self.out.rows.push(row);
            }
        }
    }

    /// The file, with its layout.
    fn finish(mut self) -> LabelFile {
        self.out.layout = match (self.cols.subset.is_some(), self.words, self.digits) {
            (true, _, _) => "L3",
            (false, true, false) => "L1",
            (false, false, _) => "L2",
            (false, true, true) => "L1/L2",
        }
        .to_string();
        self.out
    }
}

/// True if the text looks like a label file: 2–4 fields per line, and a valid label (or a header naming a
/// label column) among its first records. Used to tell label files from small distance matrices.
pub fn looks_like_labels(head: &[u8], cfg: &LabelConfig) -> bool {
    let mut d = Diags::new();
    let Some(text) = decode_text("", head, &mut d, "x") else {
        return false;
    };
    // Drop a possibly cut last line.
    let text = match text.rfind('\n') {
        Some(p) if head.len() >= 4096 => &text[..p],
        _ => &text[..],
    };
    let Ok(delim) = detect_delimiter(text) else {
        return false;
    };
    let recs = records(text, delim, "", &mut d);
    let Some(first) = recs.first() else {
        return false;
    };
    let nf = first.fields.len();
    if !(2..=4).contains(&nf) {
        return false;
    }
    let names: Vec<String> = first
        .fields
        .iter()
        .map(|f| f.trim().to_lowercase())
        .collect();
    if names.iter().any(|n| LABEL_NAMES.contains(&n.as_str())) {
        return true;
    }
    let c_label = if nf >= 3 { 2 } else { 1 };
    recs.iter()
        .take(20)
        .filter(|r| r.fields.len() == nf)
        .any(|r| parse_label(r.fields[c_label].trim(), cfg).is_some())
}
