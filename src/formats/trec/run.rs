//! The run reader (`qid iter docno rank sim tag`, docs/specs/kws.md 2.7): sim read with `atof`, the run id from the
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
    let mut r = RunReader {
        path,
        s,
        run: Run::default(),
        last: None,
        other_tags: (0, 0, String::new(), 0),
    };
    let bad = each_line(file, diags, progress, &mut |no, text, d| {
        r.line(no, text, d)
    });
    let mut run = r.run;
    run.bad_lines += bad;
    if r.other_tags.0 > 0 {
        diags.push(tag_differs(path, &run, &r.other_tags));
    }
    run
}

/// A run being read.
struct RunReader<'e> {
    path: &'e str,
    s: &'e ReadSettings,
    run: Run,
    /// The index of the last line's query.
    last: Option<usize>,
    /// (lines with another tag, first such line, its tag, its column)
    other_tags: (u64, u64, String, u64),
}

impl RunReader<'_> {
    /// Line `no`: `qid Q0 docno rank sim tag`.
    fn line(&mut self, no: u64, text: &str, d: &mut Diags) {
        let (path, s) = (self.path, self.s);
        let b = text.as_bytes();
        if s.comments && b.first() == Some(&b'#') {
            return;
        }
        let (f, n) = fields::<7>(b);
        if n == 0 {
            self.run.blank_lines += 1;
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
                self.run.bad_lines += 1;
                if n < 6 {
                    self.run.official_refuses += 1;
                }
                d.push(diag);
                return;
            }
        }
        let qid = &text[f[0].0..f[0].1];
        let docno = &b[f[2].0..f[2].1];
        let sim = sim(path, no, text, f[4], d);
        self.tag(no, text, f[5]);
        let idx = self.query(qid);
        let Some(query) = self.run.queries.get_mut(idx) else {
            return;
        };
        if !query.docnos.push(docno) {
            self.run.bad_lines += 1;
            d.push(too_big(path, no));
            return;
        }
        query.sims.push(sim);
        query.lines.push(no);
    }

    /// The tag of line `no` (field `at` of `text`): the first is the run's; others are counted.
    fn tag(&mut self, no: u64, text: &str, at: (usize, usize)) {
        let (b, tag) = (text.as_bytes(), &text[at.0..at.1]);
        let run = &mut self.run;
        match &run.tag {
            None => run.tag = Some(tag.to_string()),
            Some(t) if t != tag => {
                if self.other_tags.0 == 0 {
                    self.other_tags = (0, no, tag.to_string(), column_of(b, at.0));
                }
                self.other_tags.0 += 1;
            }
            _ => {}
        }
        if run.last_tag.as_deref() != Some(tag) {
            run.last_tag = Some(tag.to_string());
        }
    }

    /// The index of query `qid` (added when new; the last line's query is tried first).
    fn query(&mut self, qid: &str) -> usize {
        let run = &mut self.run;
        if let Some(i) = self
            .last
            .filter(|i| run.queries.get(*i).is_some_and(|x| x.qid == qid))
        {
            return i;
        }
        let i = *run.index.entry(qid.to_string()).or_insert_with(|| {
            run.queries.push(RunQuery {
                qid: qid.to_string(),
                ..Default::default()
            });
            run.queries.len() - 1
        });
        self.last = Some(i);
        i
    }
}

/// The sim of line `no` (field `at` of `text`): a decimal number, else what C's `atof` reads (a warning).
fn sim(path: &str, no: u64, text: &str, at: (usize, usize), d: &mut Diags) -> f64 {
    let (b, sim_text) = (text.as_bytes(), &text[at.0..at.1]);
    if let Ok(v) = sim_text.parse::<f64>() {
        return v;
    }
    let v = atof(sim_text.as_bytes());
    d.push(
        Diagnostic::warning(
            "kws.trec.bad_sim",
            format!("sim `{sim_text}` is read as {v} (C atof)"),
        )
        .file(path)
        .at(no, column_of(b, at.0))
        .expected("a decimal number")
        .found(sim_text.to_string())
        .hint("Write the score as a plain decimal number.")
        .official(format!("read as {v} (C atof)")),
    );
    v
}

/// The warning that lines carry another tag than the first (`other_tags`: their count, the first one's line,
/// tag and column).
fn tag_differs(path: &str, run: &Run, other_tags: &(u64, u64, String, u64)) -> Diagnostic {
    let first = run.tag.clone().unwrap_or_default();
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
    ))
}
