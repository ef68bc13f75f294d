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

/// Calls `each(k, start, end, fields)` for every record of `bytes` in order: its number (the header is 0), where
/// it starts, where the next one starts (so the line breaks between them are its own) and its fields. Two
/// records are held at a time, whatever the file's length. Returns the number of records.
fn each_record(
    bytes: &[u8],
    delimiter: u8,
    each: &mut dyn FnMut(usize, usize, usize, &csv::ByteRecord),
) -> usize {
    let mut r = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delimiter)
        .from_reader(bytes);
    let (mut held, mut next) = (csv::ByteRecord::new(), csv::ByteRecord::new());
    let mut held_start = None;
    let mut k = 0;
    loop {
        let before = r.position().byte() as usize;
        match r.read_byte_record(&mut next) {
            Ok(true) => {}
            _ => break,
        }
        let start = next.position().map_or(before, |p| p.byte() as usize);
        if let Some(s) = held_start {
            each(k, s, start, &held);
            k += 1;
        }
        std::mem::swap(&mut held, &mut next);
        held_start = Some(start);
    }
    if let Some(s) = held_start {
        each(k, s, bytes.len(), &held);
        k += 1;
    }
    k
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
    delimiter: u8,
    drop: Option<usize>,
    keep: &mut dyn FnMut(usize, &csv::ByteRecord) -> bool,
) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let records = each_record(bytes, delimiter, &mut |k, start, end, fields| {
        if k == 0 {
            out.extend_from_slice(&bytes[..start]);
        }
        let raw = &bytes[start..end];
        let lines = raw.iter().filter(|&&b| b == b'\n').count();
        if !keep(k, fields) {
            out.extend(std::iter::repeat_n(b'\n', lines));
            return;
        }
        let Some(col) = drop else {
            out.extend_from_slice(raw);
            return;
        };
        let from = out.len();
        write_record(&mut out, fields, col, delimiter);
        let have = out[from..].iter().filter(|&&b| b == b'\n').count();
        out.extend(std::iter::repeat_n(b'\n', lines.saturating_sub(have)));
    });
    if records == 0 {
        out.extend_from_slice(bytes);
    }
    out
}

/// One CSV record without its field `skip`, as the csv crate's writer writes it with `QuoteStyle::Necessary`: a
/// field holding the delimiter, a quote or a line break is quoted (quotes doubled); a record of one empty field
/// is `""`.
fn write_record(out: &mut Vec<u8>, record: &csv::ByteRecord, skip: usize, delimiter: u8) {
    let mut fields = (0..record.len()).filter(|&i| i != skip).map(|i| &record[i]);
    if record.len() - usize::from(skip < record.len()) == 1 && fields.clone().all(<[u8]>::is_empty)
    {
        out.extend_from_slice(b"\"\"\n");
        return;
    }
    for (i, f) in fields.by_ref().enumerate() {
        if i > 0 {
            out.push(delimiter);
        }
        if f.iter()
            .any(|&b| b == delimiter || b == b'"' || b == b'\n' || b == b'\r')
        {
            out.push(b'"');
            for &b in f {
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
    header: csv::ByteRecord,
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
    let header = first_record(&bytes[..], layout.delimiter)?;
    let usage = has_usage(&header);
    let parts = match split {
        Some((file, text)) => {
            let ic = id_at(&header, layout.id_column);
            let mut ids: Vec<String> = Vec::new();
            each_record(&bytes, layout.delimiter, &mut |k, _, _, r| {
                if k > 0 {
                    ids.push(field(r, ic).to_string());
                }
            });
            read_split(file, text, &ids, &mut run.diags)
        }
        None => usage_parts(&e.path, &bytes, layout.delimiter, usage?, &mut run.diags),
    };
    Some(Gt {
        entry: at,
        bytes,
        header,
        usage,
        parts,
    })
}

/// Each row's part from the usage column; `None` with located errors for other values.
fn usage_parts(
    file: &str,
    bytes: &[u8],
    delimiter: u8,
    col: usize,
    diags: &mut Diags,
) -> Option<Vec<Part>> {
    let mut bad = false;
    let mut out = Vec::new();
    // The line of the record being read: 1 + the line breaks before it, counted as the records go.
    let (mut line, mut counted) = (1u64, 0usize);
    each_record(bytes, delimiter, &mut |k, start, _, r| {
        if k == 0 {
            return;
        }
        let text = field(r, col);
        match Part::parse(text) {
            Some(p) => out.push(p),
            None => {
                bad = true;
                line += bytes[counted..start]
                    .iter()
                    .filter(|&&b| b == b'\n')
                    .count() as u64;
                counted = start;
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
    });
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
    let shown_row =
        |k: usize| parts.is_none_or(|p| shown(p[k - 1], choice.unwrap_or(PartChoice::All)));
    let ic = id_at(&gt.header, layout.id_column);
    // The ids of the GT rows left out, as the submission's ids are matched to them.
    let mut dropped: HashSet<String> = HashSet::new();
    let mut keep_gt = |k: usize, r: &csv::ByteRecord| {
        let keep = k == 0 || shown_row(k);
        if !keep && parts.is_some() {
            dropped.insert(layout.read_as.key(field(r, ic)).into_owned());
        }
        keep
    };
    let gt_bytes = rewrite(&gt.bytes, layout.delimiter, gt.usage, &mut keep_gt);
    let mut out = files.clone();
    let replace =
        |e: &Entry, bytes: Vec<u8>| Entry::plain(e.path.clone(), e.role, e.role_from, bytes);
    out.entries[gt.entry] = replace(&files.entries[gt.entry], gt_bytes);
    if dropped.is_empty() {
        return out;
    }
    if let Ok(bytes) = files.entries[pred].read_all() {
        if let Some(h) = first_record(&bytes[..], layout.delimiter) {
            let sc = id_at(&h, layout.id_column);
            let mut keep = |k: usize, r: &csv::ByteRecord| {
                k == 0 || !dropped.contains(layout.read_as.key(field(r, sc)).as_ref())
            };
            let sub = rewrite(&bytes, layout.delimiter, None, &mut keep);
            out.entries[pred] = replace(&files.entries[pred], sub);
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
    let header = first_record(&bytes[..], layout.delimiter)?;
    let want = run.opts.parts().usage_column;
    let usage = (0..header.len())
        .find(|&i| !want.is_empty() && field(&header, i).eq_ignore_ascii_case(&want))?;
    let gt = rewrite(&bytes, layout.delimiter, Some(usage), &mut |_, _| true);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Kept rows are copied byte for byte, or rewritten without the dropped column (quoting what needs it);
    /// refused rows become as many blank lines as they spanned, so every later line keeps its number.
    #[test]
    fn rewrite_blanks_refused_rows_and_keeps_line_numbers() {
        let gt = b"id,Usage,text\na,Public,\"x,y\"\nb,Private,\"two\nlines\"\nc,Public,\"say \"\"hi\"\"\"\n";
        let mut keep = |k: usize, r: &csv::ByteRecord| k == 0 || &r[1] == b"Public";
        let out = rewrite(gt, b',', Some(1), &mut keep);
        let want = "id,text\na,\"x,y\"\n\n\nc,\"say \"\"hi\"\"\"\n";
        assert_eq!(String::from_utf8(out).unwrap(), want);
        // With CRLF line ends and blank lines, the line breaks are kept in number.
        let crlf = b"\r\nid,Usage\r\na,Public\r\n\r\nb,Private\r\n";
        let out = rewrite(crlf, b',', Some(1), &mut keep);
        let breaks = |b: &[u8]| b.iter().filter(|&&c| c == b'\n').count();
        assert_eq!(breaks(&out), breaks(crlf));
        let whole = rewrite(gt, b',', None, &mut |_, _| true);
        assert_eq!(whole, gt);
        assert_eq!(rewrite(b"", b',', Some(0), &mut |_, _| true), b"");
        // A record left with one empty field is written `""`, as the csv crate writes it.
        assert_eq!(
            rewrite(b"a,b\n,x\n", b',', Some(1), &mut |_, _| true),
            b"a\n\"\"\n"
        );
    }

    #[test]
    fn each_record_gives_spans_that_cover_the_file() {
        // A record starts where the previous one ended: blank lines before it are its own.
        let bytes = b"h1,h2\n1,2\n\n3,\"4\n5\"\n";
        let mut spans = Vec::new();
        let n = each_record(bytes, b',', &mut |k, s, e, r| {
            spans.push((k, s, e, r.len()))
        });
        assert_eq!(n, 3);
        assert_eq!(spans, vec![(0, 0, 6, 2), (1, 6, 10, 2), (2, 10, 19, 2)]);
    }
}
