//! Preset `trec`: TREC qrels + run scored as trec_eval does (docs/specs/kws.md 2.6, 2.7, 3.2, 4 #10, 6, 8).
//!
//! Per run: read (streaming), then for each query in trec_eval's order (ascending byte order of qid) sort
//! the documents (`form_res_rels.c`: sim descending, ties by docno descending), truncate at `depth`, look
//! each document up in the qrels and measure ([`crate::metrics::trec`]). The first run (by path) is the
//! report; each further run adds a [`Reading`].

mod report;
mod score;
mod settings;
mod text;
mod units;

pub use text::render_text;

use crate::diag::{excerpt, Diagnostic, Diags, Severity};
use crate::formats::trec::{read_qrels, read_run, Qrels, ReadSettings, Run};
use crate::input::Entry;
use crate::metrics::trec::{Family, Measure, Version};
use crate::protocols::kws::options::{FloatRel, KwsOptions};
use crate::protocols::Progress;
use crate::report::{Mode, Reading, Report, Scores};
use serde_json::json;

struct Settings {
    mode: Mode,
    complete: bool,
    level: i64,
    depth: Option<usize>,
    version: Version,
    file_order: bool,
    measures: Vec<Measure>,
}

impl Settings {
    /// The measures that have values (all but `runid`), in order.
    fn scored_measures(&self) -> Vec<&Measure> {
        self.measures
            .iter()
            .filter(|m| m.family != Family::Runid)
            .collect()
    }
    fn version_name(&self) -> &'static str {
        match self.version {
            Version::V9 => "9.0.8",
            Version::V10 => "10.0",
        }
    }
}

/// One query of one run.
struct QueryResult {
    qid: String,
    in_gt: bool,
    in_results: bool,
    /// trec_eval computes (and with `-q` prints) it.
    evaluated: bool,
    /// Its values enter the `all` sums (evaluated, or v10's `-c` stand-in ranking).
    in_sum: bool,
    /// One value per non-runid measure; `None` = not scored.
    values: Option<Vec<f64>>,
    num_rel: Option<u64>,
    num_ret: u64,
    num_rel_ret: u64,
    /// Positive qrels lines, duplicates included (trec_eval `-c` num_rel).
    positive_lines: u64,
    ap: Option<f64>,
    iprec: Option<[f64; 11]>,
    hit_strip: String,
    line: Option<u64>,
}

/// A run scored.
struct RunResult {
    runid: String,
    queries: Vec<QueryResult>,
    scores: Scores,
    /// The official scorer fails on this run.
    official_fails: bool,
    /// An error blocks the scores.
    blocked: bool,
}

/// Scores each run in `runs` against the qrels `gt`. The first run is the report; further runs are readings.
/// The top-level score ids of a report under `opts`: the measures' names (runid excluded).
pub fn score_ids(opts: &KwsOptions) -> Vec<String> {
    let s = settings::settings(opts, Mode::Official, &mut Diags::new());
    s.scored_measures().iter().map(|m| m.name()).collect()
}

pub fn score(
    gt: &Entry,
    runs: &[&Entry],
    mode: Mode,
    opts: &KwsOptions,
    progress: &mut dyn Progress,
) -> Report {
    let mut diags = Diags::new();
    let s = settings::settings(opts, mode, &mut diags);
    let rs = ReadSettings {
        float_rel_error: opts.float_rel == FloatRel::Error,
        comments: s.version == Version::V10,
        comment_quirks: s.version == Version::V10 && mode == Mode::Official,
        extra_fields_ok: mode == Mode::Official,
    };
    let total = (gt.size + runs.iter().map(|r| r.size).sum::<u64>()).max(1) as f64;
    progress.update(0.0, "reading qrels");
    let qrels = read_qrels(gt.text_file(), &rs, &mut diags);
    let mut qrels_blocked = qrels.bad_lines > 0 || diags.has_errors();
    let mut official_fails = qrels.official_refuses > 0;
    if qrels.queries.is_empty() && qrels.bad_lines == 0 {
        qrels_blocked = true;
        official_fails = true;
        diags.push(empty_file(gt, "qrels", "qid iter docno rel"));
    }
    let mut runs: Vec<&Entry> = runs.to_vec();
    runs.sort_by(|a, b| a.path.cmp(&b.path));

    let mut report = Report::new("kws", mode);
    let mut first: Option<RunResult> = None;
    let mut done = gt.size as f64;
    for (ri, entry) in runs.iter().enumerate() {
        let base = done;
        let run = read_run(entry.text_file(), &rs, &mut diags, &mut |b| {
            progress.update((base + b as f64) / total, "reading run")
        });
        done += entry.size as f64;
        progress.update(done / total, "scoring run");
        let rr = run_result(entry, &run, &qrels, qrels_blocked, &s, gt, &mut diags);
        official_fails |= rr.official_fails;
        if ri == 0 {
            first = Some(rr);
        } else {
            if let Some(f) = &first {
                report.plots.push(report::paired_plot(f, &rr, &entry.path));
            }
            report.readings.push(Reading {
                id: format!("run:{}", entry.path),
                label: format!("Run {} (runid {})", entry.path, rr.runid),
                scores: rr.scores,
            });
        }
    }
    if let Some(f) = first {
        report.options.insert("runid".into(), json!(f.runid));
        report.scores = f.scores.clone();
        let mut plots = report::plots(&s, &f, &qrels.queries);
        plots.append(&mut report.plots);
        report.plots = plots;
        report.items = report::items(&s, &f);
        report.display = report::display(&s, &f.runid);
        if !f.blocked {
            report.units = units::slot(&s, &f.queries);
        }
    } else {
        report.display = report::display(&s, "");
    }
    report.official_fails = official_fails;
    report.diagnostics = diags.finish();
    report
}

/// One run read, scored query by query in trec_eval's order (ascending qid), with its headline.
fn run_result(
    entry: &Entry,
    run: &Run,
    qrels: &Qrels,
    qrels_blocked: bool,
    s: &Settings,
    gt: &Entry,
    diags: &mut Diags,
) -> RunResult {
    let mut blocked = qrels_blocked || run.bad_lines > 0;
    let mut fails = run.official_refuses > 0;
    if run.queries.is_empty() && run.bad_lines == 0 {
        blocked = true;
        fails = true;
        diags.push(empty_file(entry, "run", "qid iter docno rank sim tag"));
    }
    if s.mode == Mode::Official {
        duplicate_judgements(qrels, run, s.complete, gt, diags, &mut blocked, &mut fails);
    }
    let runid = run.tag.clone().unwrap_or_default();
    let mut qids: Vec<&str> = qrels.queries.iter().map(|q| q.qid.as_str()).collect();
    for q in &run.queries {
        if qrels.get(&q.qid).is_none() {
            qids.push(&q.qid);
        }
    }
    qids.sort_unstable();
    let mut results = Vec::with_capacity(qids.len());
    for qid in qids {
        let r = score::score_query(
            qrels.get(qid),
            run.get(qid),
            qid,
            s,
            entry,
            diags,
            &mut blocked,
            &mut fails,
        );
        results.push(r);
    }
    let evaluated = results.iter().filter(|r| r.evaluated).count();
    if evaluated == 0 && !qrels.queries.is_empty() && !run.queries.is_empty() {
        fails = true;
        let official = s.mode == Mode::Official;
        if official {
            blocked = true;
        }
        diags.push(no_common_queries(entry, run, official));
    }
    let divisor = if s.complete {
        qrels.queries.len()
    } else {
        evaluated
    };
    let scores = report::headline(s, &results, divisor, blocked);
    RunResult {
        runid,
        queries: results,
        scores,
        official_fails: fails,
        blocked,
    }
}

/// No query is both in the qrels and in the run: trec_eval stops (an error officially, else a warning).
fn no_common_queries(entry: &Entry, run: &Run, official: bool) -> Diagnostic {
    Diagnostic::new(
        if official {
            Severity::Error
        } else {
            Severity::Warning
        },
        "kws.trec.no_common_queries",
        "no query is both in the qrels and in the run",
    )
    .file(&entry.path)
    .expected("the qrels' query ids")
    .found(excerpt(
        &run.queries
            .iter()
            .take(5)
            .map(|q| q.qid.as_str())
            .collect::<Vec<_>>()
            .join(", "),
    ))
    .hint("Check that the run and the qrels use the same query ids.")
    .official(
        "trec_eval stops: \"No queries with both results and relevance info\" (exit status 7)",
    )
}

fn empty_file(entry: &Entry, what: &str, layout: &str) -> Diagnostic {
    Diagnostic::error(
        "kws.trec.empty_file",
        format!("the {what} file has no data line"),
    )
    .file(&entry.path)
    .expected(format!("lines of `{layout}`"))
    .found("no data line")
    .hint(format!("Drop a non-empty {what} file."))
    .official("trec_eval cannot read the file (exit status 2)")
}

/// Official mode: a query judged twice for one docno stops trec_eval 9.0.8 and 10.0 ("duplicate docs", exit
/// status 4) as soon as the query is evaluated: when the run has it, or with `complete` (`-c`) for every query.
fn duplicate_judgements(
    qrels: &Qrels,
    run: &Run,
    complete: bool,
    gt: &Entry,
    diags: &mut Diags,
    blocked: &mut bool,
    fails: &mut bool,
) {
    for q in &qrels.queries {
        if !complete && run.get(&q.qid).is_none() {
            continue;
        }
        if let Some(d) = duplicate_judgement(q, gt) {
            *blocked = true;
            *fails = true;
            diags.push(d);
        }
    }
}

/// The official error for the first repeated judgement of query `q`, if it has one.
pub(crate) fn duplicate_judgement(
    q: &crate::formats::trec::QrelsQuery,
    gt: &Entry,
) -> Option<Diagnostic> {
    let (prev, line, docno) = q.first_duplicate.as_ref()?;
    Some(
        Diagnostic::error(
            "kws.official.duplicate_judgement",
            format!(
                "query `{}` judges `{docno}` twice (lines {prev} and {line}): trec_eval stops",
                q.qid
            ),
        )
        .file(&gt.path)
        .line(*line)
        .expected("one judgement per (qid, docno)")
        .found(excerpt(docno))
        .hint(
            "Keep one judgement per (qid, docno), or score in corrected mode (the last line wins).",
        )
        .official("trec_eval 9.0.8 and 10.0 stop with \"duplicate docs\" (exit status 4)"),
    )
}
