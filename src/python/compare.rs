//! `compare` of the binding: `dropscore compare PROTOCOL --gt … --pred A… --vs B… --format json`
//! (docs/specs/statistics.md section 3), the same steps as the command line's (src/cli/compare.rs, both on src/protocols/compare_run.rs): both
//! submissions scored on one ground truth with the options given, then B = 1000 replicates unless `bootstrap` is
//! set, the headline metric (every metric with `compare_all=true`) compared, and A's report with `compare` (and
//! `compare_all`) appended as its last keys.

use super::{inputs, request, usage, PyInput};
use crate::diag::Diagnostic;
use crate::input::{FileSet, Input, Limits};
use crate::protocols::compare_run::{json_text, own_options, run};
use crate::protocols::{self, Quiet};
use crate::report::{Mode, Report};
use pyo3::prelude::*;

/// One submission (`pred`, read) scored against the ground truth (`gt`, read once for both): the report, or the
/// usage error.
fn score_one(
    protocol: &str,
    gt: &(Vec<Input>, Vec<Diagnostic>),
    pred: (Vec<Input>, Vec<Diagnostic>),
    set: &[(String, String)],
    mode: Mode,
) -> PyResult<Report> {
    let again = |i: &Input| Input {
        path: i.path.clone(),
        role: i.role,
        blob: i.blob.clone(),
    };
    let mut list: Vec<Input> = gt.0.iter().map(again).chain(pred.0).collect();
    protocols::option_files::add(protocol, set, &mut list);
    let mut files = FileSet::build(list, &Limits::from_set(set));
    let walked = gt.1.iter().cloned().chain(pred.1);
    files.diagnostics.splice(0..0, walked);
    let mut req = request(protocol, mode, set.to_vec())?;
    req.keep_units = true;
    protocols::score(protocol, &files, &req, &mut Quiet).map_err(|e| usage(e.0))
}

/// Submission A (`a`) against submission B (`b`) on the ground truth `gt`: the JSON text of
/// `dropscore compare --format json`. A usage error, or a comparison that cannot be made (a submission not
/// scored, a protocol without units), raises ValueError with the command line's message.
#[pyfunction]
#[pyo3(signature = (protocol, gt, a, b, set, mode))]
pub fn compare_json(
    protocol: &str,
    gt: Vec<PyInput>,
    a: Vec<PyInput>,
    b: Vec<PyInput>,
    set: Vec<(String, String)>,
    mode: &str,
) -> PyResult<String> {
    let mode = Mode::parse(mode)
        .ok_or_else(|| usage(format!("mode must be official or corrected, not `{mode}`")))?;
    protocols::require(protocol).map_err(|e| usage(e.0))?;
    let mut set = set;
    let own = own_options(&mut set).map_err(usage)?;
    let gt = inputs::load(gt, false).map_err(usage)?;
    let ra = score_one(
        protocol,
        &gt,
        inputs::load(a, false).map_err(usage)?,
        &set,
        mode,
    )?;
    let rb = score_one(
        protocol,
        &gt,
        inputs::load(b, false).map_err(usage)?,
        &set,
        mode,
    )?;
    let done = run(protocol, mode, &ra, &rb, &set, &own)
        .map_err(usage)?
        .map_err(usage)?;
    Ok(json_text(&ra, &done, own.all))
}
