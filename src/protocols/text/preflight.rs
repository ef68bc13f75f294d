//! The pre-flight check (docs/specs/preflight.md): the manifest holds the ground truth's layout and its ids
//! (for `page`, `<page stem>/<line id>`), never a reference text; the check reads the submission with
//! scoring's readers and pairs it with those ids, so its diagnostics (`text.unknown_id`, `text.missing_id`,
//! `text.duplicate_id`, the readers' located errors) are scoring's.

use super::inputs::{self, Side};
use super::{forced_layout, TextOptions};
use crate::formats::text_input::{Layout, Record};
use crate::input::Role;
use crate::protocols::preflight::{self, Found};
use crate::protocols::Run;
use serde_json::{json, Value};

/// `{"layout": …, "ids": [...]}` from the ground truth.
pub fn manifest(run: &mut Run, opts: &TextOptions) -> Value {
    let forced = match forced_layout(opts) {
        Ok(f) => f,
        Err(e) => {
            run.diags.push(preflight::bad_manifest(&e.0));
            return Value::Null;
        }
    };
    match inputs::read_side(run.files, Role::Gt, forced, opts, &mut run.diags) {
        Ok(Some(side)) => json!({
            "layout": side.layout.name(),
            "ids": side.records.iter().map(|(r, _)| r.id.as_str()).collect::<Vec<_>>(),
        }),
        Ok(None) => Value::Null,
        Err(e) => {
            run.diags.push(preflight::bad_manifest(&e.0));
            Value::Null
        }
    }
}

/// Reads the submission and pairs it with the manifest's ids.
pub fn check(run: &mut Run, opts: &TextOptions, expects: &Value) -> Found {
    if expects.is_null() {
        return Found::from(String::new());
    }
    let layout = expects
        .get("layout")
        .and_then(Value::as_str)
        .and_then(Layout::parse)
        .flatten();
    let ids: Option<Vec<&str>> = expects
        .get("ids")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect());
    let (Some(layout), Some(ids)) = (layout, ids) else {
        run.diags
            .push(preflight::bad_manifest("no layout or no id list"));
        return Found::from(String::new());
    };
    let pred_forced = match layout {
        Layout::Squad => Some(Layout::Json),
        Layout::Page => None,
        _ => forced_layout(opts).ok().flatten(),
    };
    let pred = match inputs::read_side(run.files, Role::Pred, pred_forced, opts, &mut run.diags) {
        Ok(p) => p,
        Err(e) => {
            run.diags.push(preflight::bad_manifest(&e.0));
            None
        }
    };
    let n = ids.len() as u64;
    let gt = Side {
        records: ids
            .iter()
            .map(|id| {
                (
                    Record {
                        id: id.to_string(),
                        texts: vec![String::new()],
                        line: 0,
                        column: 0,
                    },
                    String::new(),
                )
            })
            .collect(),
        layout,
        squad: None,
    };
    let found = pred.as_ref().map_or(0, |p| p.records.len() as u64);
    if let Some(pred) = pred {
        inputs::pair(gt, pred, opts, &mut run.diags);
    }
    Found::from(format!(
        "{} in the submission, {}",
        preflight::counted(found, "item", "items"),
        preflight::counted(n, "ground-truth id", "ground-truth ids")
    ))
}
