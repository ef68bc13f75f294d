//! The id checks of a task's GT and prediction documents (docs/specs/aij2022.md 3): the ids each side holds, and
//! a GT given as one bare object.

use super::{Task, TaskResult};
use crate::diag::Diagnostic;
use crate::formats::aij_json::{Doc, Val};
use crate::report::Mode;

/// The evaluate_*.py assertion: GT ids and prediction ids form the same set.
pub(super) fn check_ids(
    task: Task,
    gt: &Doc,
    pred: &Doc,
    mode: Mode,
    out: &mut TaskResult,
) -> bool {
    let missing: Vec<&str> = gt
        .entries
        .iter()
        .enumerate()
        .filter(|(i, (k, _))| pred.get_near(k, *i).is_none())
        .map(|(_, (k, _))| k.as_str())
        .collect();
    let extra: Vec<&str> = pred
        .entries
        .iter()
        .enumerate()
        .filter(|(i, (k, _))| gt.get_near(k, *i).is_none())
        .map(|(_, (k, _))| k.as_str())
        .collect();
    if missing.is_empty() && extra.is_empty() {
        return true;
    }
    let list = |v: &[&str]| {
        let s: Vec<&str> = v.iter().take(20).copied().collect();
        format!("{}{}", s.join(", "), if v.len() > 20 { ", …" } else { "" })
    };
    let msg = format!(
        "{}: the GT and prediction ids differ: {} missing from the predictions [{}], {} extra [{}]",
        task.name(),
        missing.len(),
        list(&missing),
        extra.len(),
        list(&extra)
    );
    let d = match mode {
        Mode::Official => Diagnostic::error("aij.ids.mismatch", msg),
        Mode::Corrected => Diagnostic::warning(
            "aij.ids.mismatch",
            format!("{msg}; missing ids score 0, extra ids are ignored"),
        ),
    };
    out.diags.push(
        d.file(&pred.file)
            .expected(format!("{} ids as in the GT", gt.entries.len()))
            .found(format!("{} ids", pred.entries.len()))
            .hint("Predict every GT id exactly once.")
            .official("crashes (AssertionError: Not all questions have predicted answers!)"),
    );
    if mode == Mode::Official {
        out.official_fails = true;
        return false;
    }
    true
}

/// Wraps bare-object GT entries (README snippet form) into a list, with a warning.
pub(super) fn wrap_bare(doc: &mut Doc, task: Task, diags: &mut Vec<Diagnostic>, fails: &mut bool) {
    let mut n = 0;
    let mut first = None;
    for (k, v) in doc.entries.iter_mut() {
        if v.is_object() {
            *v = Val::List(vec![std::mem::take(v)]);
            n += 1;
            first.get_or_insert(k.clone());
        }
    }
    if let Some(k) = first {
        let official = if matches!(task, Task::TextQa | Task::MathQa) {
            "scores the task 0: it reads gt[id][0], which a bare object does not have, and catches the error"
        } else {
            "crashes: it reads gt[id][0], which a bare object does not have"
        };
        diags.push(doc.at(&k, Diagnostic::warning("aij.gt.bare_object", format!("{n} GT entr(ies) are a bare {{type, content}} object, read as a one-element list"))
            .expected("[{\"type\": \"text\", \"content\": [...]}]")
            .found("{\"type\": …, \"content\": …}")
            .hint("Wrap each GT entry in a list, as the scorer indexes gt[id][0].")
            .official(official)));
        *fails = true;
    }
}
