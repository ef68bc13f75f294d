//! The pre-flight check of `aij2022` (docs/specs/preflight.md): the manifest holds, per text task (TextQA, MathQA,
//! VisualQA, ImageCaptioning, TRitW), the ids in GT key order and each id's answer kind (`choice`, `number`,
//! `text`), never an answer. `check` writes a stand-in `<task>_gt.json` per task from the manifest (one
//! placeholder option of the id's kind) and runs aij2022 scoring itself on them with the submission: the JSON
//! reader (its located syntax, duplicate-key and Python-extension diagnostics), the id checks and the official
//! loops' exceptions on the predictions. ImageGeneration (FID features, images) has no pre-flight check.

use super::{detect, AijOptions, Task};
use crate::diag::Diagnostic;
use crate::formats::aij_json::Val;
use crate::input::{Entry, FileSet, Role, RoleFrom};
use crate::protocols::preflight::{bad_manifest, counted, item, Found};
use crate::protocols::{AnyProtocol, Quiet, Run};
use serde_json::{json, Value};

/// Outcomes that depend on the answers (or on a table the stand-in does not have), which the stand-in does not
/// hold: left out of a check.
const LABEL_DEPENDENT: &[&str] = &[
    "aij.vqa.numeric_approx",
    "aij.lemma.unknown",
    "aij.meteor.no_synonyms",
    "aij.pred.carry_over",
];

/// The folder the stand-in files are placed in (its diagnostics are left out).
const STAND_IN: &str = "(manifest)";

/// The text tasks, in the order the manifest lists them.
const TASKS: [Task; 5] = [
    Task::TextQa,
    Task::MathQa,
    Task::Vqa,
    Task::Captioning,
    Task::Titw,
];

/// `choice` when every option, lower-cased and stripped of ASCII punctuation and spaces, is one letter a–e;
/// `number` when every option is a signed decimal (`.` or `,`); else `text` (docs/specs/preflight.md).
fn kind(v: &Val) -> &'static str {
    let opts: Vec<&str> = match v
        .as_array()
        .and_then(|l| l.first())
        .and_then(|e| e.get("content"))
    {
        Some(Val::List(o)) => o.iter().filter_map(Val::as_str).collect(),
        _ => return "text",
    };
    let n = v
        .as_array()
        .and_then(|l| l.first())
        .and_then(|e| e.get("content"))
        .and_then(Val::as_array)
        .map_or(0, Vec::len);
    if opts.is_empty() || opts.len() != n {
        return "text";
    }
    let letter = |o: &&str| {
        let k: String = o
            .chars()
            .filter(|c| !c.is_ascii_punctuation() && !c.is_whitespace())
            .flat_map(char::to_lowercase)
            .collect();
        matches!(k.as_str(), "a" | "b" | "c" | "d" | "e")
    };
    let number = |o: &&str| {
        let d = o.strip_prefix(['-', '+']).unwrap_or(o);
        let (a, b) = d.split_once(['.', ',']).unwrap_or((d, "0"));
        !a.is_empty() && !b.is_empty() && (a.bytes().chain(b.bytes())).all(|c| c.is_ascii_digit())
    };
    if opts.iter().all(letter) {
        "choice"
    } else if opts.iter().all(number) {
        "number"
    } else {
        "text"
    }
}

/// `expects`: `{"tasks": [{"task": "textqa", "ids": […], "kinds": […]}, …]}`.
pub fn manifest(run: &mut Run, opts: &AijOptions) -> Value {
    let gt_only = FileSet::of(run.files.with_role(Role::Gt).cloned().collect(), Vec::new());
    let mut diags = Vec::new();
    let mut found = detect::find(&gt_only, opts, run.opts.budget(), run.mode, &mut diags);
    detect::split_combined(&mut found, &mut diags);
    run.diags.extend(diags);
    let mut tasks = Vec::new();
    for task in TASKS {
        let Some(doc) = found.gt.get(&task) else {
            continue;
        };
        let ids: Vec<&str> = doc.entries.iter().map(|(k, _)| k.as_str()).collect();
        let kinds: Vec<&str> = doc.entries.iter().map(|(_, v)| kind(v)).collect();
        tasks.push(json!({ "task": task.id(), "ids": ids, "kinds": kinds }));
    }
    if tasks.is_empty() {
        run.diags.push(
            Diagnostic::error("aij.preflight.no_gt", "no text-task ground truth (<task>_gt.json) found")
                .hint("Drop the GT JSON of TextQA, MathQA, VisualQA, captioning or TRitW; ImageGeneration has no pre-flight check."),
        );
    }
    json!({ "tasks": tasks })
}

/// A placeholder option of `kind`.
fn placeholder(kind: &str) -> &'static str {
    match kind {
        "choice" => "a",
        "number" => "0",
        _ => "x",
    }
}

/// One task of `expects`: the task, its ids and their kinds.
type Expected = (Task, Vec<String>, Vec<String>);

/// Checks the submission in `run.files` against `expects`; returns what was found.
pub fn check(run: &mut Run, expects: &Value) -> Found {
    let Some(tasks) = parse(expects).filter(|t| !t.is_empty()) else {
        run.diags
            .push(bad_manifest("expected tasks with ids and kinds"));
        return String::from("no usable manifest").into();
    };
    let mut set = stand_in(&tasks);
    set.entries.extend(run.files.entries.iter().cloned());
    let mut inner = Run::new(&set, run.mode, run.opts.clone());
    // Only the manifest's tasks: a prediction file of another task is no concern of this check.
    if let Err(e) = AnyProtocol::score(&super::Aij2022, &mut inner, &mut Quiet) {
        run.diags.push(bad_manifest(&e.0));
        return String::from("no usable manifest").into();
    }
    let keep = |d: &Diagnostic| {
        !d.file.as_deref().is_some_and(|f| f.starts_with(STAND_IN))
            && !LABEL_DEPENDENT.contains(&d.code.as_str())
    };
    for d in std::mem::take(&mut inner.diags).finish() {
        if keep(&d) {
            run.diags.push(d);
        }
    }
    let total: u64 = tasks.iter().map(|t| t.1.len() as u64).sum();
    let summary = format!(
        "{}, {}",
        counted(tasks.len() as u64, "task", "tasks"),
        counted(total, "id", "ids")
    );
    let items = tasks
        .iter()
        .map(|(task, ids, _)| item(task.id(), json!({ "expected": ids.len() })))
        .collect();
    Found { summary, items }
}

/// The manifest's tasks, each with its ids and their answer kinds; `None` when `expects` is not usable.
fn parse(expects: &Value) -> Option<Vec<Expected>> {
    expects
        .get("tasks")?
        .as_array()?
        .iter()
        .map(|t| {
            let task = TASKS
                .into_iter()
                .find(|x| Some(x.id()) == t.get("task").and_then(Value::as_str))?;
            let strs = |k: &str| -> Option<Vec<String>> {
                t.get(k)?
                    .as_array()?
                    .iter()
                    .map(|x| x.as_str().map(String::from))
                    .collect()
            };
            let (ids, kinds) = (strs("ids")?, strs("kinds")?);
            (ids.len() == kinds.len()).then_some((task, ids, kinds))
        })
        .collect()
}

/// The stand-in GT files: per task, every id with one placeholder option of its kind.
fn stand_in(tasks: &[Expected]) -> FileSet {
    let mut set = FileSet::of(Vec::new(), Vec::new());
    for (task, ids, kinds) in tasks {
        let mut doc = serde_json::Map::new();
        for (id, k) in ids.iter().zip(kinds) {
            doc.insert(
                id.clone(),
                json!([{ "type": "text", "content": [placeholder(k)] }]),
            );
        }
        let name = format!("{STAND_IN}/{}_gt.json", task.id());
        let bytes = serde_json::to_vec(&doc).unwrap_or_default();
        set.entries.push(Entry::plain(
            name,
            Some(Role::Gt),
            Some(RoleFrom::Explicit),
            bytes,
        ));
    }
    set
}
