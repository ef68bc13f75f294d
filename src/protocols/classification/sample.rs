//! A Kaggle `sample_submission.csv` as the ground truth of `dropscore manifest` (docs/kaggle.md). Kaggle
//! organizers publish one: the solution's ids, the submission's columns and a placeholder value (`0.5`, `0`, or
//! uniform class probabilities). Read as a ground truth it has one class, or no label column at all, so the
//! classes of the manifest come from its shape instead (docs/specs/families.md section 1 for the layouts):
//! - one value column holding one number: a binary score column; the classes are `0` and `1` (or `0` and the
//!   option `positive_label`);
//! - several value columns and no label column: one score column per class, named by the class; the classes are
//!   the columns' names, and the stand-in ground truth of the check is `id,label`.
//!
//! Either way an info diagnostic says how the file was read. With `target_columns` (column-wise metrics) the
//! solution and the sample have the same columns: the manifest records the header and ids of either, and the
//! stand-in takes 0 and 1 in turn in every column. A ground truth with one class of labels that are
//! not numbers (`cat` in every row: a sample submission of hard labels) keeps that class, as before: the check
//! then counts other labels as wrong, with an info, and refuses nothing.

use super::preflight::GtShape;
use super::ClassificationOptions;
use crate::diag::{Diagnostic, Diags};
use crate::formats::id_csv::{self, Event, IdIndex};
use crate::input::Role;
use crate::protocols::Run;

/// How the manifest's GT reads: a ground truth, or one of the two sample-submission shapes.
enum Reading {
    Gt,
    BinaryScore,
    ClassColumns,
}

/// The manifest's shape of the GT of `run`: `as_gt` reads it as a ground truth; when that gives a sample
/// submission's shape (see the module), the classes are taken as the module says.
pub fn shape(
    run: &mut Run,
    opts: &ClassificationOptions,
    as_gt: impl FnOnce(&mut Run) -> Option<GtShape>,
) -> Option<GtShape> {
    if !opts.target_columns.items().is_empty() {
        return target_columns(run, opts);
    }
    let outer = std::mem::take(&mut run.diags);
    let read = as_gt(run);
    let gt_diags = std::mem::replace(&mut run.diags, outer);
    match reading(&read, &gt_diags) {
        Reading::Gt => {
            run.diags.absorb(gt_diags);
            read
        }
        Reading::BinaryScore => {
            run.diags.absorb(gt_diags);
            let mut g = read?;
            let value = g.classes.as_ref().and_then(|c| c.first()).cloned();
            g.classes = Some(binary_classes(&opts.positive_label));
            let what = format!(
                "its one value column holds one number (`{}`)",
                value.unwrap_or_default()
            );
            run.diags.push(note(&g, &what));
            Some(g)
        }
        Reading::ClassColumns => {
            // The file's own errors (CSV syntax, a repeated id, the budget) are reported as they are.
            let read = read_ids(run, opts)?;
            let g = class_columns(read, opts);
            match &g {
                Some(g) => run
                    .diags
                    .push(note(g, "it has no label column and one column per class")),
                None => run.diags.absorb(gt_diags),
            }
            g
        }
    }
}

/// Which reading the GT's outcome calls for: one class that is a number, or no label column in a file whose
/// only errors say so.
fn reading(read: &Option<GtShape>, diags: &Diags) -> Reading {
    if let Some(g) = read {
        let one_number = match g.classes.as_deref() {
            Some([c]) => id_csv::finite(c.trim().as_bytes()).is_some(),
            _ => false,
        };
        if one_number && !diags.has_errors() {
            return Reading::BinaryScore;
        }
        return Reading::Gt;
    }
    let mut errors = diags.list.iter().filter(|d| d.is_error()).peekable();
    let some = errors.peek().is_some();
    if some && errors.all(|d| d.code == "classification.missing_column") {
        Reading::ClassColumns
    } else {
        Reading::Gt
    }
}

/// The classes of a binary score column: `0` and `1`, or `0` and the positive label.
fn binary_classes(positive: &str) -> Vec<String> {
    match positive.trim() {
        "" | "0" | "1" => vec!["0".into(), "1".into()],
        p => vec!["0".into(), p.to_string()],
    }
}

/// The shape of a sample submission with one score column per class: its ids (as written) and lines, the
/// header `id,label` of the stand-in ground truth, the value columns as classes. `None` when it has fewer than
/// two value columns or no id.
fn class_columns(read: Ids, opts: &ClassificationOptions) -> Option<GtShape> {
    let classes: Vec<String> = (read.header.iter().enumerate())
        .filter(|(i, _)| *i != read.id_index)
        .map(|(_, h)| h.clone())
        .collect();
    if classes.len() < 2 || read.ids.is_empty() {
        return None;
    }
    let label = match opts.label_column.trim() {
        "" => "label".to_string(),
        l => l.to_string(),
    };
    Some(GtShape {
        file: read.file,
        header: vec![read.header[read.id_index].clone(), label],
        id_index: 0,
        ids: read.ids,
        lines: read.lines,
        classes: Some(classes),
    })
}

/// The shape of a GT with `target_columns` (the solution or a sample submission: both have the id and the target
/// columns): its header, ids and lines; the stand-in's cells take the classes `0` and `1` in turn, so that every
/// column-wise metric is defined on it. A target column the file lacks is the located error scoring gives.
fn target_columns(run: &mut Run, opts: &ClassificationOptions) -> Option<GtShape> {
    let read = read_ids(run, opts)?;
    let mut ok = true;
    for t in opts.target_columns.items() {
        if id_csv::find_column(&read.header, &t).is_none() {
            let d =
                id_csv::missing_column(super::ID, &read.file, &read.header, &t, "target_columns");
            run.diags.push(d);
            ok = false;
        }
    }
    (ok && !read.ids.is_empty()).then(|| GtShape {
        file: read.file,
        header: read.header,
        id_index: read.id_index,
        ids: read.ids,
        lines: read.lines,
        classes: Some(vec!["0".into(), "1".into()]),
    })
}

/// A GT file read for its header and ids only.
struct Ids {
    file: String,
    header: Vec<String>,
    id_index: usize,
    ids: Vec<String>,
    lines: Vec<u64>,
}

/// The header, the id column and the ids (as written, with their lines) of the GT of `run`; `None` when the file
/// has errors (then in `run.diags`: CSV syntax, a repeated id, the budget).
fn read_ids(run: &mut Run, opts: &ClassificationOptions) -> Option<Ids> {
    let delim = super::inputs::delimiter(&opts.delimiter).ok()?;
    let entry = run.files.with_role(Role::Gt).next()?;
    let path = entry.path.clone();
    let budget = run.opts.budget();
    let mut diags = Diags::new();
    let mut index = IdIndex::default();
    let mut lines: Vec<u64> = Vec::new();
    let (mut id_index, mut held) = (None, 0u64);
    let header = super::inputs::read_entry(entry, &mut diags, |r, diags| {
        id_csv::read(super::ID, &path, r, delim, diags, |ev, diags| match ev {
            Event::Header(h) => {
                id_index = id_csv::id_column(super::ID, &path, h, &opts.id_column, diags);
                id_index.is_some()
            }
            Event::Row(row) => {
                let Some(id) = id_index.and_then(|c| row.fields.get(c)) else {
                    return true;
                };
                // An id's bytes and its line, as the family's GT reader counts a row.
                held += id.len() as u64 + crate::budget::FAMILY_ROW_BYTES;
                if held > budget.max_memory {
                    let what = format!("the ids up to line {}", row.line);
                    diags.push(crate::budget::refusal(
                        &path,
                        Some(row.line),
                        &what,
                        held,
                        budget,
                    ));
                    return false;
                }
                match index.insert(id_csv::trim(id)) {
                    Ok(_) => lines.push(row.line),
                    Err(first) => {
                        let c = id_index.unwrap_or_default();
                        let d = id_csv::duplicate_gt_id(super::ID, &path, row, c, lines[first]);
                        diags.push(d);
                    }
                }
                true
            }
        })
    });
    let ids = (0..index.len()).map(|i| index.get(i).to_string()).collect();
    let failed = diags.has_errors();
    run.diags.absorb(diags);
    match (header, id_index, failed) {
        (Some(header), Some(id_index), false) => Some(Ids {
            file: path,
            header,
            id_index,
            ids,
            lines,
        }),
        _ => None,
    }
}

/// The info that the GT was read as a sample submission, and what the manifest took from it.
fn note(g: &GtShape, what: &str) -> Diagnostic {
    let classes = g.classes.as_deref().unwrap_or_default().join(", ");
    Diagnostic::info(
        "classification.sample_submission",
        format!("read as a sample submission: {what}; the manifest records its ids and the classes {classes}"),
    )
    .file(&g.file)
    .hint("Make the manifest from the solution instead to record its own classes (never a row's label).")
}
