//! `compare` of the binding: `dropscore compare PROTOCOL --gt … --pred A… --vs B… --format json`
//! (docs/specs/statistics.md section 3), the same steps as the command line's (src/cli/compare.rs): both
//! submissions scored on one ground truth with the options given, then B = 1000 replicates unless `bootstrap` is
//! set, the headline metric (every metric with `compare_all=true`) compared, and A's report with `compare` (and
//! `compare_all`) appended as its last keys.

use super::{inputs, request, usage, PyInput};
use crate::diag::Diagnostic;
use crate::input::{FileSet, Input, Limits};
use crate::protocols::contract_compare::{compare, CompareSettings, Comparison};
use crate::protocols::{self, Quiet};
use crate::report::{Mode, Report};
use pyo3::prelude::*;

/// The compare command's own options (`permutations`, default 10000; `compare_all`), taken out of the options
/// before the protocol resolves the rest, as the command line takes them.
fn own_options(set: &mut Vec<(String, String)>) -> Result<(usize, bool), String> {
    let (mut permutations, mut all) = (10_000, false);
    let mut err = None;
    set.retain(|(k, v)| match k.as_str() {
        "permutations" => {
            match v.trim().parse::<usize>() {
                Ok(r) if r <= 10_000_000 => permutations = r,
                _ => {
                    err = Some(format!(
                        "option `permutations`: expected an integer from 0 to 10000000, found `{v}`"
                    ))
                }
            }
            false
        }
        "compare_all" => {
            match v.trim() {
                "true" | "1" | "yes" => all = true,
                "false" | "0" | "no" => all = false,
                _ => {
                    err = Some(format!(
                        "option `compare_all`: expected true or false, found `{v}`"
                    ))
                }
            }
            false
        }
        _ => true,
    });
    err.map_or(Ok((permutations, all)), Err)
}

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

/// The leaderboard metric: the report's first headline metric, else its first score.
fn headline_metric(r: &Report) -> String {
    r.display
        .headline
        .first()
        .map(|l| l.id.clone())
        .or_else(|| r.scores.iter().next().map(|(k, _)| k.to_string()))
        .unwrap_or_default()
}

/// A's JSON report with `"compare"` (and `"compare_all"`) appended as its last keys.
fn json_text(a: &Report, done: &[Comparison], all: bool) -> String {
    let mut s = a.to_json();
    // The report's closing brace (its text ends "}\n"), then the new keys.
    s.truncate(s.trim_end().len().saturating_sub(1));
    let first = serde_json::to_string(&done[0]).unwrap_or_default();
    s.push_str(&format!(",\"compare\":{first}"));
    if all {
        let parts: Vec<String> = done
            .iter()
            .map(|c| {
                let key = serde_json::to_string(&c.metric).unwrap_or_default();
                format!("{key}:{}", serde_json::to_string(c).unwrap_or_default())
            })
            .collect();
        s.push_str(&format!(",\"compare_all\":{{{}}}", parts.join(",")));
    }
    s.push_str("}\n");
    s
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
    let p = protocols::require(protocol).map_err(|e| usage(e.0))?;
    let mut set = set;
    let (permutations, all) = own_options(&mut set).map_err(usage)?;
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
    // A comparison needs replicates: B = 1000 unless set (a score's default is 0, statistics off).
    if !set.iter().any(|(k, _)| k == "bootstrap") {
        set.push(("bootstrap".to_string(), "1000".to_string()));
    }
    let bootstrap = protocols::Options::resolve(p.info().options, mode, &set)
        .and_then(|o| o.statistics())
        .map_err(usage)?;
    let settings = CompareSettings {
        bootstrap,
        permutations,
    };
    let headline = headline_metric(&ra);
    let mut metrics = vec![headline.clone()];
    if all {
        metrics.extend(
            ra.scores
                .iter()
                .map(|(k, _)| k.to_string())
                .filter(|k| *k != headline),
        );
    }
    let done = compare(&ra, &rb, &metrics, &settings).map_err(usage)?;
    Ok(json_text(&ra, &done, all))
}
