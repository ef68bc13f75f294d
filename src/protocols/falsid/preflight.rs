//! The pre-flight check of `falsid` (docs/specs/preflight.md): the manifest holds the subsets, each subset's sample
//! ids in GT order (a distance matrix without an id column follows that order) and whether the GT has a writer
//! column, never a label or a writer. `check` writes a stand-in GT from the manifest (layout L3, every label 0)
//! and runs falsid scoring itself on it with the submission ([`score_with_stand_in`]): the label-file and
//! matrix readers, the id, subset and size checks.

use super::{inputs, label_config, FalsidOptions};
use crate::diag::Diagnostic;
use crate::input::{Entry, FileSet, Role, RoleFrom};
use crate::protocols::preflight::{
    bad_manifest, counted, item, score_with_stand_in, strings, Found,
};
use crate::protocols::{AnyProtocol, Progress, Quiet, Run, UsageError};
use crate::report::Report;
use serde_json::{json, Value};

/// Outcomes that depend on the labels (or writers), which the stand-in does not have.
const LABEL_DEPENDENT: &[&str] = &["falsid.subset.single_class", "falsid.topk.no_match"];

/// `expects`: `{"subsets": [{"name": "Pizan", "ids": […], "matrix": "n×n"}, …], "writer": false}`.
pub fn manifest(run: &mut Run, opts: &FalsidOptions) -> Value {
    let subsets = opts.subsets.items();
    if subsets.is_empty() {
        run.diags.push(Diagnostic::error(
            "falsid.preflight.subsets",
            "option `subsets`: expected at least one subset name",
        ));
        return Value::Null;
    }
    let cfg = label_config(opts, &subsets);
    let gt_only = FileSet::of(run.files.with_role(Role::Gt).cloned().collect(), Vec::new());
    let g = inputs::gather(&gt_only, &cfg, &mut run.diags, &mut Quiet);
    if !g.has_gt {
        run.diags.push(
            Diagnostic::error("falsid.input.no_gt", "no ground-truth label file")
                .hint("Drop the GT labels (id,label)."),
        );
    }
    let subsets: Vec<Value> = g
        .subsets
        .iter()
        .map(|s| {
            let ids: Vec<&str> = s.gt.iter().map(|r| r.id.as_str()).collect();
            json!({ "name": s.name, "ids": ids, "matrix": format!("{0}×{0}", ids.len()) })
        })
        .collect();
    json!({ "subsets": subsets, "writer": g.gt_has_writer })
}

fn csv_field(s: &str) -> String {
    format!("\"{}\"", s.replace('"', "\"\""))
}

/// Scoring, with the typed options read from `run.opts` (the stand-in run's).
fn score(run: &mut Run, progress: &mut dyn Progress) -> Result<Report, UsageError> {
    AnyProtocol::score(&super::Falsid, run, progress)
}

/// Checks the submission in `run.files` against `expects`; returns what was found.
pub fn check(run: &mut Run, opts: &FalsidOptions, expects: &Value) -> Found {
    let names = opts.subsets.items();
    let parsed: Option<Vec<(String, Vec<String>)>> =
        expects.get("subsets").and_then(Value::as_array).map(|a| {
            a.iter()
                .map(|s| {
                    (
                        s.get("name")
                            .and_then(Value::as_str)
                            .unwrap_or("")
                            .to_string(),
                        strings(s.get("ids").unwrap_or(&Value::Null)),
                    )
                })
                .collect()
        });
    let writer = expects.get("writer").and_then(Value::as_bool);
    let (Some(subsets), Some(writer)) = (parsed, writer) else {
        run.diags.push(bad_manifest("expected subsets and writer"));
        return String::from("no usable manifest").into();
    };
    if subsets.iter().map(|s| &s.0).ne(names.iter()) {
        run.diags
            .push(bad_manifest("its subsets differ from its option `subsets`"));
        return String::from("no usable manifest").into();
    }
    let mut text = String::from(if writer {
        "id,subset,label,writer\n"
    } else {
        "id,subset,label\n"
    });
    for (name, ids) in &subsets {
        for id in ids {
            text.push_str(&format!("{},{},0", csv_field(id), csv_field(name)));
            text.push_str(if writer { ",w\n" } else { "\n" });
        }
    }
    let stand_in = Entry::plain(
        "(manifest) ground truth.csv".into(),
        Some(Role::Gt),
        Some(RoleFrom::Explicit),
        text.into_bytes(),
    );
    if score_with_stand_in(run, stand_in, score, LABEL_DEPENDENT).is_none() {
        return String::from("no usable manifest").into();
    }
    let total: u64 = subsets.iter().map(|s| s.1.len() as u64).sum();
    let summary = format!(
        "{}, {}",
        counted(subsets.len() as u64, "subset", "subsets"),
        counted(total, "sample id", "sample ids")
    );
    let items = subsets
        .iter()
        .map(|(name, ids)| item(name, json!({ "expected": ids.len() })))
        .collect();
    Found { summary, items }
}
