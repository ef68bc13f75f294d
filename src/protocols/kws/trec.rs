//! Preset `trec`: TREC qrels + run scored as trec_eval does (specs/kws.md 2.6, 2.7, 3.2, 4 #10, 6, 8).

use crate::input::Entry;
use crate::protocols::{Options, Progress};
use crate::report::{Mode, Report};

/// Scores each run in `runs` against the qrels `gt`. The first run is the report; further runs are readings.
pub fn score(
    gt: &Entry,
    runs: &[&Entry],
    mode: Mode,
    opts: &Options,
    progress: &mut dyn Progress,
) -> Report {
    let _ = (gt, runs, opts, progress);
    Report::new("kws", mode)
}

/// trec_eval `-q` style: `measure<TAB>qid|all<TAB>value`, values `%.4f`, counts as integers.
pub fn render_text(report: &Report) -> String {
    crate::render::generic_text(report)
}
