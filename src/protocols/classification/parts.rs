//! Public and private parts of `classification` (docs/specs/statistics.md section 4): the GT's usage column (Kaggle's
//! `Usage`) or a split file of GT ids; each part is the score of its rows alone
//! ([`crate::protocols::contract_parts_csv`]).

use super::{inputs, run_on, ClassificationOptions};
use crate::protocols::contract_parts_csv::{manifest_without_usage, score_by_part, CsvLayout};
use crate::protocols::{Progress, Run, UsageError};
use crate::report::Report;

/// Scores `run.files` by part when the GT has a usage column or a split file is given; `None` otherwise.
pub fn score(
    run: &mut Run,
    opts: &ClassificationOptions,
    progress: &mut dyn Progress,
) -> Option<Result<Report, UsageError>> {
    let layout = CsvLayout {
        delimiter: inputs::delimiter(&opts.delimiter).ok()?,
        id_column: &opts.id_column,
    };
    let (budget, mode) = (run.opts.budget(), run.mode);
    score_by_part(run, &layout, progress, &mut |files, diags, progress| {
        run_on(files, opts, budget, mode, diags, progress)
    })
}

/// The manifest of a GT with a usage column, which never records a row's part
/// ([`manifest_without_usage`]); `None` without a usage column.
pub fn manifest(
    run: &mut Run,
    opts: &ClassificationOptions,
    manifest: impl FnOnce(&mut Run) -> serde_json::Value,
) -> Option<serde_json::Value> {
    let layout = CsvLayout {
        delimiter: inputs::delimiter(&opts.delimiter).ok()?,
        id_column: &opts.id_column,
    };
    manifest_without_usage(run, &layout, manifest)
}
