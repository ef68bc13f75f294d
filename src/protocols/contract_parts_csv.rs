//! Public and private parts of the CSV families (docs/specs/statistics.md section 4): the GT's usage column
//! (Kaggle's `Usage`: Public, Private or Ignored, any case; option `usage_column`) or a split file naming the
//! GT's ids. Each part is scored exactly as the files holding only its rows would be: the protocol scores a
//! ground truth and a submission in which the rows of the other units are blank lines (every remaining line
//! keeps its number, so every diagnostic keeps its location) and the GT's usage column is left out. So the
//! whole, without its Ignored rows, equals the score of the files without them, and each part the score of
//! that part's rows written as separate files.

use super::contract_parts::{read_split, shown, Part};
use super::options::PartChoice;
use super::{Progress, Quiet, Run, UsageError};
use crate::diag::{excerpt, Diagnostic, Diags};
use crate::formats::pandas_cells::ReadAs;
use crate::input::{Entry, FileSet, Role};
use crate::report::{Parts, Report};
use std::collections::HashSet;

/// How the family reads its CSV files: the delimiter, the `id_column` option (empty: the first column
/// named `id`, any case, else the first column, as [`crate::formats::id_csv::id_column`] picks it) and how a
/// submission's id matches a GT id (option `read_as`: with pandas, `12` is the GT's `00012`).
pub struct CsvLayout<'a> {
    pub delimiter: u8,
    pub id_column: &'a str,
    pub read_as: ReadAs,
}

/// One record of a CSV file: where it starts, its fields, and the newlines up to the next record.
struct Record {
    start: usize,
    end: usize,
    fields: csv::ByteRecord,
}

fn records(bytes: &[u8], delimiter: u8) -> Vec<Record> {
    let mut r = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delimiter)
        .from_reader(bytes);
    let mut out: Vec<Record> = Vec::new();
    let mut rec = csv::ByteRecord::new();
    loop {
        let start = r.position().byte() as usize;
        match r.read_byte_record(&mut rec) {
            Ok(true) => {}
            _ => break,
        }
        let start = rec.position().map_or(start, |p| p.byte() as usize);
        if let Some(last) = out.last_mut() {
            last.end = start;
        }
        out.push(Record {
            start,
            end: bytes.len(),
            fields: rec.clone(),
        });
    }
    out
}

/// The first record of a CSV input (its header), read without the rest.
fn first_record(r: impl std::io::Read, delimiter: u8) -> Option<csv::ByteRecord> {
    let mut r = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delimiter)
        .from_reader(r);
    let mut rec = csv::ByteRecord::new();
    r.read_byte_record(&mut rec).ok()?.then_some(rec)
}

fn field(rec: &csv::ByteRecord, i: usize) -> &str {
    let b = rec.get(i).unwrap_or_default();
    std::str::from_utf8(b)
        .unwrap_or_default()
        .trim_matches([' ', '\t'])
}

fn id_at(header: &csv::ByteRecord, option: &str) -> usize {
    let names: Vec<&str> = (0..header.len()).map(|i| field(header, i)).collect();
    if !option.is_empty() {
        return names.iter().position(|h| *h == option).unwrap_or(0);
    }
    names
        .iter()
        .position(|h| h.eq_ignore_ascii_case("id"))
        .unwrap_or(0)
}

/// `bytes` with the records `keep` refuses as blank lines and column `drop` left out of the others (the
/// header is record 0). Records kept whole are copied byte for byte.
fn rewrite(
    bytes: &[u8],
    recs: &[Record],
    delimiter: u8,
    drop: Option<usize>,
    keep: &dyn Fn(usize) -> bool,
) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    out.extend_from_slice(&bytes[..recs.first().map_or(bytes.len(), |r| r.start)]);
    for (k, r) in recs.iter().enumerate() {
        let raw = &bytes[r.start..r.end];
        let lines = raw.iter().filter(|&&b| b == b'\n').count();
        if !keep(k) {
            out.extend(std::iter::repeat_n(b'\n', lines));
            continue;
        }
        let Some(col) = drop else {
            out.extend_from_slice(raw);
            continue;
        };
        let mut line = Vec::with_capacity(raw.len());
        let kept: Vec<&[u8]> = (0..r.fields.len())
            .filter(|&i| i != col)
            .map(|i| &r.fields[i])
            .collect();
        write_record(&mut line, &kept, delimiter);
        let have = line.iter().filter(|&&b| b == b'\n').count();
        line.extend(std::iter::repeat_n(b'\n', lines.saturating_sub(have)));
        out.extend_from_slice(&line);
    }
    out
}

/// One CSV record as the csv crate's writer writes it with `QuoteStyle::Necessary`: a field holding the
/// delimiter, a quote or a line break is quoted (quotes doubled); a record of one empty field is `""`.
fn write_record(out: &mut Vec<u8>, fields: &[&[u8]], delimiter: u8) {
    if let [only] = fields {
        if only.is_empty() {
            out.extend_from_slice(b"\"\"\n");
            return;
        }
    }
    for (i, f) in fields.iter().enumerate() {
        if i > 0 {
            out.push(delimiter);
        }
        if f.iter()
            .any(|&b| b == delimiter || b == b'"' || b == b'\n' || b == b'\r')
        {
            out.push(b'"');
            for &b in *f {
                if b == b'"' {
                    out.push(b'"');
                }
                out.push(b);
            }
            out.push(b'"');
        } else {
            out.extend_from_slice(f);
        }
    }
    out.push(b'\n');
}

/// The GT's rows and what assigns them to parts.
struct Gt {
    entry: usize,
    bytes: Vec<u8>,
    recs: Vec<Record>,
    usage: Option<usize>,
    /// Each data record's part (record k + 1), when the assignment is complete and valid.
    parts: Option<Vec<Part>>,
}

fn read_gt(
    run: &mut Run,
    layout: &CsvLayout,
    at: usize,
    split: Option<&(String, Vec<u8>)>,
) -> Option<Gt> {
    let e = &run.files.entries[at];
    let want = run.opts.parts().usage_column;
    let has_usage = |header: &csv::ByteRecord| {
        (0..header.len())
            .find(|&i| !want.is_empty() && field(header, i).eq_ignore_ascii_case(&want))
    };
    // Without a split file, the header alone says whether there are parts: the rows are read only then.
    if split.is_none() && has_usage(&first_record(e.buffered().ok()?, layout.delimiter)?).is_none()
    {
        return None;
    }
    let bytes = e.read_all().ok()?;
    let recs = records(&bytes, layout.delimiter);
    let header = &recs.first()?.fields;
    let usage = has_usage(header);
    let parts = match split {
        Some((file, text)) => {
            let ic = id_at(header, layout.id_column);
            let ids: Vec<String> = recs[1..]
                .iter()
                .map(|r| field(&r.fields, ic).to_string())
                .collect();
            read_split(file, text, &ids, &mut run.diags)
        }
        None => usage_parts(&e.path, &bytes, &recs, usage?, &mut run.diags),
    };
    Some(Gt {
        entry: at,
        bytes,
        recs,
        usage,
        parts,
    })
}

/// Each row's part from the usage column; `None` with located errors for other values.
fn usage_parts(
    file: &str,
    bytes: &[u8],
    recs: &[Record],
    col: usize,
    diags: &mut Diags,
) -> Option<Vec<Part>> {
    let mut bad = false;
    let mut out = Vec::with_capacity(recs.len());
    for r in &recs[1..] {
        let text = field(&r.fields, col);
        match Part::parse(text) {
            Some(p) => out.push(p),
            None => {
                bad = true;
                let line = 1 + bytes[..r.start].iter().filter(|&&b| b == b'\n').count() as u64;
                diags.push(
                    Diagnostic::error("stats.usage_value", format!("`{}` is not a part", excerpt(text)))
                        .file(file)
                        .at(line, col as u64 + 1)
                        .expected("Public, Private or Ignored")
                        .found(excerpt(text))
                        .hint("Give each row's part in the usage column: Public, Private or Ignored (any case)."),
                );
            }
        }
    }
    (!bad).then_some(out)
}

/// The single entry of `role`.
fn single(files: &FileSet, role: Role) -> Option<usize> {
    let mut it = files
        .entries
        .iter()
        .enumerate()
        .filter(|(_, e)| e.role == Some(role));
    let (i, _) = it.next()?;
    it.next().is_none().then_some(i)
}

/// The files with the GT's rows outside `choice` (and the submission's rows of their ids) blanked, the usage
/// column left out. `parts` `None`: every row kept.
fn files_for(
    files: &FileSet,
    gt: &Gt,
    pred: usize,
    layout: &CsvLayout,
    choice: Option<PartChoice>,
) -> FileSet {
    let parts = gt.parts.as_deref().filter(|_| choice.is_some());
    let keep_gt = |k: usize| {
        k == 0 || parts.is_none_or(|p| shown(p[k - 1], choice.unwrap_or(PartChoice::All)))
    };
    let gt_bytes = rewrite(&gt.bytes, &gt.recs, layout.delimiter, gt.usage, &keep_gt);
    let mut out = files.clone();
    let replace =
        |e: &Entry, bytes: Vec<u8>| Entry::plain(e.path.clone(), e.role, e.role_from, bytes);
    out.entries[gt.entry] = replace(&files.entries[gt.entry], gt_bytes);
    if let (Some(p), Some(choice)) = (parts, choice) {
        let ic = id_at(&gt.recs[0].fields, layout.id_column);
        let dropped: HashSet<std::borrow::Cow<str>> = gt.recs[1..]
            .iter()
            .zip(p)
            .filter(|(_, &part)| !shown(part, choice))
            .map(|(r, _)| layout.read_as.key(field(&r.fields, ic)))
            .collect();
        if !dropped.is_empty() {
            if let Ok(bytes) = files.entries[pred].read_all() {
                let recs = records(&bytes, layout.delimiter);
                if let Some(h) = recs.first() {
                    let sc = id_at(&h.fields, layout.id_column);
                    let keep = |k: usize| {
                        k == 0 || !dropped.contains(&layout.read_as.key(field(&recs[k].fields, sc)))
                    };
                    let sub = rewrite(&bytes, &recs, layout.delimiter, None, &keep);
                    out.entries[pred] = replace(&files.entries[pred], sub);
                }
            }
        }
    }
    out
}

/// Scores one file set (the protocol's own scoring, with a diagnostics sink and a progress sink). The flag says
/// whether the report may carry the bootstrap's units (when the run wants them): false for the parts' extra
/// scores, of which only the values are kept.
pub type ScoreFiles<'a> =
    dyn FnMut(&FileSet, &mut Diags, &mut dyn Progress, bool) -> Result<Report, UsageError> + 'a;

/// Scores `run.files` with `score`: by part when `layout` is given and the GT has a usage column or a split
/// file is given ([`score_by_part`]), else the files as they are.
pub fn score_whole_or_by_part(
    run: &mut Run,
    layout: Option<&CsvLayout>,
    progress: &mut dyn Progress,
    score: &mut ScoreFiles,
) -> Result<Report, UsageError> {
    if let Some(by_part) = layout.and_then(|l| score_by_part(run, l, progress, score)) {
        return by_part;
    }
    score(run.files, &mut run.diags, progress, true)
}

/// Scores `run.files` with `score` by part when the GT has a usage column or a split file is given; `None`
/// otherwise (the caller then scores as usual, and the report stays as it was). With an invalid assignment
/// (located errors), every row is scored and there are no parts.
fn score_by_part(
    run: &mut Run,
    layout: &CsvLayout,
    progress: &mut dyn Progress,
    score: &mut ScoreFiles,
) -> Option<Result<Report, UsageError>> {
    let (gt_at, pred_at) = (single(run.files, Role::Gt)?, single(run.files, Role::Pred)?);
    let split = run.split_file.clone();
    let gt = read_gt(run, layout, gt_at, split.as_ref())?;
    // The split file is this protocol's: the shell does not apply it again.
    run.split_file = None;
    let choice = run.opts.parts().part;
    let Some(_) = gt.parts else {
        let files = files_for(run.files, &gt, pred_at, layout, None);
        return Some(score(&files, &mut run.diags, progress, true));
    };
    let files = files_for(run.files, &gt, pred_at, layout, Some(choice));
    let mut report = match score(&files, &mut run.diags, progress, true) {
        Ok(r) => r,
        Err(e) => return Some(Err(e)),
    };
    let mut part_scores = |c: PartChoice| {
        let files = files_for(run.files, &gt, pred_at, layout, Some(c));
        score(&files, &mut Diags::new(), &mut Quiet, false).map(|r| r.scores)
    };
    let parts = match choice {
        PartChoice::All => {
            let public = match part_scores(PartChoice::Public) {
                Ok(s) => s,
                Err(e) => return Some(Err(e)),
            };
            let private = match part_scores(PartChoice::Private) {
                Ok(s) => s,
                Err(e) => return Some(Err(e)),
            };
            vec![("public".into(), public), ("private".into(), private)]
        }
        PartChoice::Public => vec![("public".into(), report.scores.clone())],
        PartChoice::Private => vec![("private".into(), report.scores.clone())],
    };
    report.parts = Some(Parts(parts));
    Some(Ok(report))
}

/// The files with the GT's usage column left out, every row kept (what a manifest reads: a submission gives
/// every GT row, Ignored ones included, as Kaggle asks, and the manifest never learns a row's part); `None`
/// when the GT has no usage column.
pub fn without_usage(run: &Run, layout: &CsvLayout) -> Option<FileSet> {
    let at = single(run.files, Role::Gt)?;
    let e = &run.files.entries[at];
    let bytes = e.read_all().ok()?;
    let recs = records(&bytes, layout.delimiter);
    let header = &recs.first()?.fields;
    let want = run.opts.parts().usage_column;
    let usage = (0..header.len())
        .find(|&i| !want.is_empty() && field(header, i).eq_ignore_ascii_case(&want))?;
    let gt = rewrite(&bytes, &recs, layout.delimiter, Some(usage), &|_| true);
    let mut out = run.files.clone();
    out.entries[at] = Entry::plain(e.path.clone(), e.role, e.role_from, gt);
    Some(out)
}

/// The manifest of a GT with a usage column: `manifest` run on the GT without it (every row kept), so that it
/// never records a row's part; its diagnostics joined to `run`'s. `None` without a usage column.
pub fn manifest_without_usage(
    run: &mut Run,
    layout: &CsvLayout,
    manifest: impl FnOnce(&mut Run) -> serde_json::Value,
) -> Option<serde_json::Value> {
    let files = without_usage(run, layout)?;
    let mut inner = Run::new(&files, run.mode, run.opts.clone());
    let value = manifest(&mut inner);
    run.diags.extend(inner.diags.finish());
    Some(value)
}
