//! The run reader (`qid iter docno rank sim tag`, specs/kws.md 2.7): sim read with `atof`, the run id from the
//! tag, extra fields read or refused by mode.

use super::c_text::{atof, fields};
use super::{blank_diag, each_line, malformed, too_big, ReadSettings, Run, RunQuery};
use crate::diag::{Diagnostic, Diags};
use crate::formats::lines::column_of;
use crate::formats::text_file::TextFile;

/// Reads a run. `progress(bytes consumed)` is called while reading.
pub fn read_run(
    file: TextFile<'_>,
    s: &ReadSettings,
    diags: &mut Diags,
    progress: &mut dyn FnMut(u64),
) -> Run {
    let path = file.path;
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
            d.push(blank_diag(path, no, false));
            return;
        }
        if n != 6 {
            let mut diag = malformed(path, no, text, n, 6, f[6.min(n.saturating_sub(1))]);
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
                    .file(path)
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
            d.push(too_big(path, no));
            return;
        }
        query.sims.push(sim);
        query.lines.push(no);
    };
    let bad = each_line(file, diags, progress, &mut on_line);
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
            .file(path)
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
