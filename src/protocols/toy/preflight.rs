//! The toy's pre-flight check: the manifest records how many lines the ground truth has (never the lines
//! themselves); the check scores the submission against a stand-in ground truth of that many placeholder
//! lines, so that it reads the predictions with scoring's own reader and reports the same diagnostics.

use super::{Run, Toy};
use crate::diag::Diagnostic;
use crate::input::{Entry, Role};
use crate::protocols::preflight::{self, Found};
use crate::protocols::AnyProtocol;
use serde_json::{json, Value};

/// `{"lines": N}`: the number of ground-truth lines; a file that is not UTF-8 text is an error.
pub fn manifest(run: &mut Run) -> Value {
    json!({ "lines": super::read_lines(run, Role::Gt, false).len() })
}

/// Scores the submission against `lines` placeholder lines and keeps the diagnostics about the submission.
pub fn check(run: &mut Run, expects: &Value) -> Found {
    let preds = run
        .files
        .entries
        .iter()
        .filter(|e| e.role != Some(Role::Gt))
        .count();
    if expects.is_null() {
        return Found::from(String::new());
    }
    let Some(lines) = expects.get("lines").and_then(Value::as_u64) else {
        run.diags.push(preflight::bad_manifest("no line count"));
        return Found::from(String::new());
    };
    let stand_in = "placeholder\n".repeat(lines.min(1 << 20) as usize);
    let gt = Entry::from_bytes("toy-manifest-gt.txt", Some(Role::Gt), stand_in.into_bytes());
    preflight::score_with_stand_in(run, gt, |run, p| AnyProtocol::score(&Toy, run, p), &[]);
    if preds == 0 {
        run.diags.push(
            Diagnostic::error("toy.pred.missing", "no predictions file")
                .hint("Drop one text file whose name says pred."),
        );
    }
    Found::from(format!(
        "{}, {}",
        preflight::counted(preds as u64, "predictions file", "predictions files"),
        preflight::counted(lines, "ground-truth line", "ground-truth lines")
    ))
}
