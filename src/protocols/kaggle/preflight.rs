//! The pre-flight check of `kaggle` (docs/specs/preflight.md). The manifest is made from the solution or from
//! the **sample submission alone**, which is what Kaggle organizers publish: its file name, the id and value
//! columns' names and the distinct ids in order, never a value. The check reads the submission with scoring's
//! reader and cell parser (masks are checked against the image size when the options fix it) and matches its
//! ids with the manifest's, so its diagnostics carry scoring's codes and locations.

use super::inputs::{self, Matched};
use super::{KaggleOptions, Kind};
use crate::diag::{Diagnostic, Diags};
use crate::formats::csv_records::Row;
use crate::formats::kaggle_csv::{cells, rle, At, Columns, Table};
use crate::input::{Entry, Role};
use crate::items::Ids;
use crate::protocols::preflight::{bad_manifest, counted, strings, Found};
use crate::protocols::Run;
use serde_json::{json, Value};

/// `{"file", "id_column", "column", "ids"}` from the one ground-truth entry (a solution or a sample
/// submission).
pub fn manifest(run: &mut Run, opts: &KaggleOptions) -> Value {
    let gts: Vec<&Entry> = run.files.with_role(Role::Gt).collect();
    let [entry] = gts.as_slice() else {
        run.diags.push(
            Diagnostic::error(
                &format!("{}.gt_files", super::ID),
                format!("{} solution files; expected one", gts.len()),
            )
            .hint("Give the solution or the sample submission, one CSV file."),
        );
        return Value::Null;
    };
    let Ok(delim) = inputs::delimiter(&opts.delimiter) else {
        run.diags
            .push(bad_manifest("option `delimiter` is not one character"));
        return Value::Null;
    };
    let columns = Columns {
        id: &opts.id_column,
        value: &opts.column,
        value_option: "column",
        extra: &[],
    };
    let mut unit = |_: &Row, _: &At, _: &mut Diags| Some(());
    let Some(t) = inputs::read(entry, delim, &columns, &mut run.diags, &mut unit) else {
        return Value::Null;
    };
    let id_at = if opts.id_column.is_empty() {
        crate::formats::id_csv::find_column(&t.header, "id").unwrap_or(0)
    } else {
        t.header
            .iter()
            .position(|h| *h == opts.id_column)
            .unwrap_or(0)
    };
    let id_name = t.header[id_at].clone();
    let mut seen = std::collections::HashSet::new();
    let ids: Vec<&str> = (0..t.ids.len())
        .map(|r| t.ids.get(r))
        .filter(|id| seen.insert(*id))
        .collect();
    json!({ "file": entry.path, "id_column": id_name, "column": t.column, "ids": ids })
}

/// Reads the submission against `expects`.
pub fn check(run: &mut Run, opts: &KaggleOptions, expects: &Value) -> Found {
    if expects.is_null() {
        return Found::from(String::new());
    }
    let (Some(id_col), Some(col)) = (
        expects.get("id_column").and_then(Value::as_str),
        expects.get("column").and_then(Value::as_str),
    ) else {
        run.diags.push(bad_manifest("no id column or value column"));
        return Found::from(String::new());
    };
    let ids = strings(expects.get("ids").unwrap_or(&Value::Null));
    let file = expects
        .get("file")
        .and_then(Value::as_str)
        .unwrap_or("solution.csv");
    let Ok(kind) = super::Kind::of(&opts.metric) else {
        run.diags
            .push(bad_manifest("its metric is not a kaggle metric"));
        return Found::from(String::new());
    };
    let preds: Vec<&Entry> = run
        .files
        .entries
        .iter()
        .filter(|e| e.role != Some(Role::Gt))
        .collect();
    let [pred] = preds.as_slice() else {
        run.diags.push(
            Diagnostic::error(
                &format!("{}.pred_files", super::ID),
                format!("{} submission files; expected one", preds.len()),
            )
            .hint("Drop exactly one submission CSV file."),
        );
        return Found::from(String::new());
    };
    let delim = inputs::delimiter(&opts.delimiter).unwrap_or(b',');
    let columns = Columns {
        id: id_col,
        value: col,
        value_option: "column",
        extra: &[],
    };
    let pixels = match (cells::side(&opts.width), cells::side(&opts.height)) {
        (Some(w), Some(h)) => w as u64 * h as u64,
        _ => u64::MAX,
    };
    let path = pred.path.clone();
    let mut parse = |r: &Row, at: &At, d: &mut Diags| {
        if kind != Kind::Masks {
            return Some(());
        }
        match rle::parse(r.get(at.value), pixels) {
            Ok(_) => Some(()),
            Err(e) => {
                d.push(inputs::cell_error(
                    &path, r, at, at.value, e.what, e.message,
                ));
                None
            }
        }
    };
    let Some(sub) = inputs::read(pred, delim, &columns, &mut run.diags, &mut parse) else {
        return Found::from(String::new());
    };
    let mut gt_ids = Ids::default();
    for id in &ids {
        gt_ids.push(id);
    }
    let gt: Table<()> = Table {
        file: file.to_string(),
        header: vec![id_col.to_string(), col.to_string()],
        column: col.to_string(),
        ids: gt_ids,
        lines: (0..ids.len() as u64).map(|i| i + 2).collect(),
        values: vec![Some(()); ids.len()],
    };
    let m: Matched = inputs::matched_as(
        &gt,
        &sub,
        kind == Kind::Masks,
        opts.read_as.mode(),
        &mut run.diags,
    );
    Found::from(format!(
        "{}, {}",
        counted(sub.ids.len() as u64, "submission row", "submission rows"),
        counted(m.len() as u64, "expected id", "expected ids")
    ))
}
