//! Preset `icfhr14`: ICFHR'14 XML scored as rusteval v0.5 does (docs/specs/kws.md 3.1, binary32) in `official`
//! mode, and with the fixes of section 4 in `corrected` mode. Results are streamed: each `<Rel>` block is
//! scored when it closes and then dropped, so memory holds one block, not the file.

mod report;
mod score;
mod settings;
mod text;
mod units;

pub use text::render_text;

use super::gtindex::GtIndex;
use crate::diag::{Diagnostic, Diags};
use crate::formats::kws_xml::{self, Block, Kind};
use crate::formats::kws_xml_lines;
use crate::input::Entry;
use crate::protocols::kws::options::KwsOptions;
use crate::protocols::Progress;
use crate::report::{Mode, Reading, Report};
use std::collections::HashMap;

/// How a GT block without words is scored.
#[derive(Clone, Copy, PartialEq)]
enum EmptyGt {
    Nan,
    Exclude,
    Zero,
}

struct Settings {
    mode: Mode,
    ks: Vec<usize>,
    match_document: bool,
    dedupe: bool,
    complete: bool,
    empty: EmptyGt,
    threshold: f64,
}

/// One scored results block.
struct Scored {
    line: u64,
    n: usize,
    r: usize,
    hits: usize,
    /// precAt{k} for each k, then ap. `None` = not computable (rusteval panics, or excluded).
    values: Vec<Option<f64>>,
    /// The binary32 values (official mode), for rusteval's binary32 mean.
    values_f32: Vec<Option<f32>>,
    hit_strip: String,
    pr11: Option<[f64; 11]>,
    known: bool,
    /// The trec_eval-equivalent values of section 3.3 (bin qrels; graded10 for nDCG).
    trec: Vec<(String, f64)>,
}

/// The top-level score ids of a report under `opts`.
pub fn score_ids(opts: &KwsOptions) -> Vec<String> {
    let s = settings::settings(opts, Mode::Official, &mut Diags::new());
    report::score_ids(&s)
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
    let total: u64 = gt.size + runs.iter().map(|r| r.size).sum::<u64>();
    let mut done = 0u64;

    // Ground truth: held whole (it is small); duplicate blocks: last wins (both readers report them).
    let mut gt_blocks: Vec<Block> = Vec::new();
    read(
        gt,
        Kind::Gt,
        mode,
        &mut diags,
        &mut |b| progress.update(b as f64 / total.max(1) as f64, "reading ground truth"),
        &mut |b, _| gt_blocks.push(b),
    );
    done += gt.size;
    let index = GtIndex::build(gt_blocks, &gt.path, mode, s.threshold, &mut diags);

    let mut report = Report::new("kws", mode);
    for (ri, run) in runs.iter().enumerate() {
        let mut scored: HashMap<String, Scored> = HashMap::new();
        let mut first_line: HashMap<String, u64> = HashMap::new();
        let base = done;
        read(
            run,
            Kind::Results,
            mode,
            &mut diags,
            &mut |b| progress.update((base + b) as f64 / total.max(1) as f64, "scoring results"),
            &mut |block, d| {
                if mode == Mode::Official {
                    if let Some(first) = first_line.get(&block.query) {
                        d.push(duplicate_query(&block, *first, &run.path));
                    }
                }
                first_line.entry(block.query.clone()).or_insert(block.line);
                let sc = score::score_block(&block, &index, &s, &run.path, d);
                scored.insert(block.query, sc);
            },
        );
        done += run.size;
        if mode == Mode::Official && scored.is_empty() {
            let d = no_results(run, &diags);
            diags.push(d);
        }
        let (scores, items, plots, trec, slot) =
            report::assemble(&index, &scored, &s, &run.path, &mut diags, ri == 0);
        if ri == 0 {
            report.scores = scores;
            report.items = items;
            report.plots = plots;
            report.units = slot;
            report
                .readings
                .extend(trec.into_iter().filter(|r| !r.scores.is_empty()));
        } else {
            report.readings.push(Reading {
                id: format!("run:{}", run.path),
                label: format!("Run {}", run.path),
                scores,
            });
        }
    }
    report.display = report::display(&s);
    let list = diags.finish();
    if list.iter().any(|d| d.is_error()) {
        // An error blocks the headline (the official scorer prints nothing; corrected input is unusable).
        for (_, v) in report.scores.0.iter_mut() {
            *v = None;
        }
        report.units = Default::default();
    }
    report.diagnostics = list;
    report
}

/// Official mode: a repeated query block, the last of which rusteval keeps.
fn duplicate_query(block: &Block, first: u64, path: &str) -> Diagnostic {
    Diagnostic::warning(
        "kws.xml.duplicate_query",
        format!(
            "query `{}` appears twice (lines {first} and {}): the last block wins",
            block.query, block.line
        ),
    )
    .file(path)
    .line(block.line)
    .hint("Keep one block per query.")
    .official("rusteval keeps the last block")
}

/// Official mode: a results file in which rusteval finds no block (it crashes), with the likely cause as the
/// hint (single quotes, everything on one line, or no block at all).
fn no_results(run: &Entry, diags: &Diags) -> Diagnostic {
    let one_line = diags.count("kws.official.tag_not_recognised") == 0 && run.size > 0;
    Diagnostic::error(
        "kws.official.no_results",
        "rusteval finds no results block in this file",
    )
    .file(&run.path)
    .expected("<Rel queryid=\"…\"> … </Rel> blocks, one element per line")
    .hint(
        if diags.count("kws.official.tag_not_recognised") > 0
            && diags.list.iter().any(|x| {
                x.hint
                    .as_deref()
                    .is_some_and(|h| h.contains("double quotes"))
            })
        {
            "Use double quotes: rusteval only recognises <Rel queryid=\"…\">."
        } else if one_line {
            "Put one element per line: rusteval reads the XML line by line."
        } else {
            "Add <Rel queryid=\"…\"> blocks, or use corrected mode."
        },
    )
    .official("rusteval crashes: it finds no <Rel queryid=\"…\"> block in the results file")
}

fn read(
    entry: &Entry,
    kind: Kind,
    mode: Mode,
    diags: &mut Diags,
    progress: &mut dyn FnMut(u64),
    on_block: &mut kws_xml::OnBlock,
) {
    let input = match entry.buffered() {
        Ok(r) => r,
        Err(e) => {
            diags.push(Diagnostic::read_error(&entry.path, e));
            return;
        }
    };
    match mode {
        Mode::Official => kws_xml_lines::read(input, &entry.path, kind, diags, progress, on_block),
        Mode::Corrected => kws_xml::read(input, &entry.path, kind, diags, progress, on_block),
    }
}
