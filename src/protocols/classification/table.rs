//! What the two table families (`classification`, `regression`) do around their own scoring: the public and
//! private parts (docs/specs/statistics.md section 4: the GT's usage column, Kaggle's `Usage`, or a split file of
//! GT ids; each part is the score of its rows alone, [`crate::protocols::contract_parts_csv`]) and the
//! leaderboard value of options `one_minus` and `round` ([`super::headline`]), added to the whole and to each
//! part, as a competition's metric code returns it whichever rows it is given.

use super::headline::Headline;
use super::inputs;
use crate::diag::Diags;
use crate::formats::pandas_cells::ReadAs;
use crate::input::FileSet;
use crate::protocols::contract_parts_csv::{
    manifest_without_usage, score_whole_or_by_part, CsvLayout, ScoreFiles,
};
use crate::protocols::options::Int;
use crate::protocols::{Progress, Run, UsageError};
use crate::report::Report;

/// The options of a table family that this module reads.
pub struct Common<'a> {
    pub delimiter: &'a str,
    pub id_column: &'a str,
    pub one_minus: bool,
    pub round: &'a Int,
    pub read_as: ReadAs,
}

impl Common<'_> {
    /// How the family reads its CSV files; `None` for an invalid delimiter (the family's own reading says so).
    fn layout(&self) -> Option<CsvLayout<'_>> {
        let delimiter = inputs::delimiter(self.delimiter).ok()?;
        Some(CsvLayout {
            delimiter,
            id_column: self.id_column,
            read_as: self.read_as,
        })
    }
}

/// Scores `run.files` with the family's `run_on`, by part when the GT has a usage column or a split file is
/// given, with the leaderboard value added to every report scored.
pub fn score(
    run: &mut Run,
    common: &Common,
    progress: &mut dyn Progress,
    run_on: &mut ScoreFiles,
) -> Result<Report, UsageError> {
    let headline = Headline::of(common.one_minus, common.round)?;
    let mut scored = |files: &FileSet, diags: &mut Diags, progress: &mut dyn Progress, units| {
        let mut report = run_on(files, diags, progress, units)?;
        headline.apply(&mut report);
        Ok(report)
    };
    score_whole_or_by_part(run, common.layout().as_ref(), progress, &mut scored)
}

/// The manifest of a GT with a usage column, which never records a row's part ([`manifest_without_usage`]);
/// `None` without a usage column.
pub fn manifest(
    run: &mut Run,
    common: &Common,
    manifest: impl FnOnce(&mut Run) -> serde_json::Value,
) -> Option<serde_json::Value> {
    manifest_without_usage(run, &common.layout()?, manifest)
}
