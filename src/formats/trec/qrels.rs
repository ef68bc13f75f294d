//! The qrels reader (`qid iter docno rel`, docs/specs/kws.md 2.6): rel read with `atol` (float rels truncated or
//! refused), duplicate (qid, docno) judgements resolved to the last line.

use super::c_text::{atol, fields};
use super::{blank_diag, each_line, malformed, too_big, Qrels, QrelsQuery, ReadSettings};
use crate::diag::{excerpt, Diagnostic, Diags};
use crate::formats::lines::column_of;
use crate::formats::text_file::TextFile;

/// Reads a qrels file. Duplicate (qid, docno) pairs keep the last line, with a warning.
pub fn read_qrels(file: TextFile<'_>, s: &ReadSettings, diags: &mut Diags) -> Qrels {
    let path = file.path;
    let mut q = Qrels::default();
    let mut last: Option<usize> = None;
    // Line of the comment skipped just before (trec_eval 10.0 skips one comment before each parsed line).
    let mut skipped_comment: Option<u64> = None;
    let mut on_line = |no: u64, text: &str, d: &mut Diags| {
        let b = text.as_bytes();
        if s.comments
            && b.first() == Some(&b'#')
            && (!s.comment_quirks || skipped_comment.is_none())
        {
            skipped_comment = Some(no);
            return;
        }
        skipped_comment = None;
        let (f, n) = fields::<5>(b);
        if n == 0 {
            q.blank_lines += 1;
            q.official_refuses += 1;
            d.push(blank_diag(path, no, true));
            return;
        }
        if n != 4 {
            q.bad_lines += 1;
            q.official_refuses += 1;
            d.push(malformed(
                path,
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
        let rel = read_rel(path, no, text, rel_text, f[3].0, s, d);
        let Some(rel) = rel else {
            q.bad_lines += 1;
            return;
        };
        let idx = query_index(&mut q, &mut last, qid);
        let Some(query) = q.queries.get_mut(idx) else {
            return;
        };
        if !query.docnos.push(docno) {
            q.bad_lines += 1;
            d.push(too_big(path, no));
            return;
        }
        query.rels.push(rel);
        query.lines.push(no);
        if rel > 0 {
            query.positive_lines += 1;
        }
    };
    let bad = each_line(file, diags, &mut |_| {}, &mut on_line);
    q.bad_lines += bad;
    if let Some(no) = skipped_comment.filter(|_| s.comment_quirks) {
        q.official_refuses += 1;
        diags.push(final_comment(path, no));
    }
    for query in &mut q.queries {
        resolve_duplicates(query, path, diags);
    }
    q
}

/// The index of query `qid` in `q` (added when new; `last`, the last line's query, is tried first).
fn query_index(q: &mut Qrels, last: &mut Option<usize>, qid: &str) -> usize {
    if let Some(i) = last.filter(|i| q.queries.get(*i).is_some_and(|x| x.qid == qid)) {
        return i;
    }
    let i = *q.index.entry(qid.to_string()).or_insert_with(|| {
        q.queries.push(QrelsQuery {
            qid: qid.to_string(),
            ..Default::default()
        });
        q.queries.len() - 1
    });
    *last = Some(i);
    i
}

/// The error of a comment on the qrels' last line (line `no`), with trec_eval 10.0's comment handling.
fn final_comment(path: &str, no: u64) -> Diagnostic {
    Diagnostic::error(
        "kws.official.final_comment",
        "a comment on the last line: trec_eval 10.0 then reads past the end of the qrels",
    )
    .file(path)
    .line(no)
    .hint("Remove the comment on the last line (or end the file with a judgement).")
    .official("get_qrels skips the comment and parses the end of its buffer (undefined behaviour)")
}

/// Reads a rel field: `atol`, with a warning (or an error, `float_rel = error`) when the text is not an
/// integer. `None` = refused.
fn read_rel(
    path: &str,
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
                .file(path)
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
                .file(path)
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
fn resolve_duplicates(query: &mut QrelsQuery, path: &str, diags: &mut Diags) {
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
            if query.first_duplicate.is_none() {
                query.first_duplicate = Some((prev, line, docno.clone()));
            }
            diags.push(
                Diagnostic::warning(
                    "kws.trec.duplicate_judgement",
                    format!(
                        "query `{}` judges `{docno}` again (lines {prev} and {line}): the last line wins",
                        query.qid
                    ),
                )
                .file(path)
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
