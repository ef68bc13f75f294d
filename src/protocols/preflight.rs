//! The pre-flight check (docs/specs/preflight.md): is a submission ready, without the ground truth?
//!
//! The organizer derives a **manifest** from the ground truth once ([`manifest`]): the protocol, every option,
//! and `expects`, what a submission must contain (ids, categories, image names and sizes…), never a label. A
//! participant checks a submission against it ([`check`]): the protocol reads the submission with the readers
//! and completeness checks scoring uses ([`super::Protocol::check`]), so the diagnostics carry the same codes and
//! locations, and the verdict is one sentence with counts.

use super::{shell, AnyProtocol, Options, Run, UsageError};
use crate::diag::{Diagnostic, Severity};
use crate::input::FileSet;
use crate::report::{Item, Mode, Report};
use serde_json::{json, Map, Value};

/// The manifest's `kind`.
pub const KIND: &str = "dropscore-manifest";

/// What [`manifest`] made: the manifest's JSON text (`None` when the ground truth has errors) and the
/// ground truth's diagnostics.
pub struct Made {
    pub manifest: Option<String>,
    pub diagnostics: Vec<Diagnostic>,
}

/// What a protocol's check found: a phrase for the verdict ("100 categories, 30,000 ids each") and one item
/// per category, query or subset with its counts (the report's `items`).
pub struct Found {
    pub summary: String,
    pub items: Vec<Item>,
}

impl From<String> for Found {
    fn from(summary: String) -> Found {
        Found {
            summary,
            items: Vec::new(),
        }
    }
}

/// An item of a check report: `id` and its counts (`detail`).
pub fn item(id: &str, detail: Value) -> Item {
    Item {
        id: id.to_string(),
        group: None,
        scores: crate::report::Scores::new(),
        detail: match detail {
            Value::Object(m) => m,
            _ => Map::new(),
        },
    }
}

/// A checked submission: the report (schema 1, no scores), the verdict and its sentence.
pub struct Checked {
    pub report: Report,
    pub ready: bool,
    pub summary: String,
}

impl Checked {
    /// The report's JSON with the two extra top-level keys `ready` and `summary`, one line.
    pub fn to_json(&self) -> String {
        let mut v = serde_json::to_value(&self.report).unwrap_or(Value::Null);
        if let Value::Object(m) = &mut v {
            m.insert("ready".into(), Value::Bool(self.ready));
            m.insert("summary".into(), Value::String(self.summary.clone()));
        }
        format!("{v}\n")
    }
}

fn protocol(id: &str) -> Result<&'static dyn AnyProtocol, UsageError> {
    super::require(id)
}

/// Whether a usage error of [`manifest`] or [`check`] says only that the protocol has no pre-flight check yet
/// (the scoring program then scores without it). Pre-flight is part of the [`super::Protocol`] contract, so
/// no protocol lacks it any more; kept for the callers that ask.
pub fn is_no_check(e: &UsageError) -> bool {
    e.0.ends_with("has no pre-flight check yet")
}

/// The manifest of the ground truth in `files` (every entry is ground truth; paths relative to the dropped
/// roots) under the options `set` (official defaults otherwise).
pub fn manifest(id: &str, files: &FileSet, set: &[(String, String)]) -> Result<Made, UsageError> {
    let p = protocol(id)?;
    let opts = Options::resolve(p.info().options, Mode::Official, set).map_err(UsageError)?;
    let options = opts.to_json();
    // The shell's file-kind check, as scoring runs it.
    let settled = super::roles::settle(p, files);
    let files = settled.files.as_ref().unwrap_or(files);
    let mut run = Run::new(files, Mode::Official, opts);
    run.diags.extend(settled.diagnostics);
    run.diags.extend(files.diagnostics.iter().cloned());
    let expects = p.manifest(&mut run);
    let unknown: Vec<Diagnostic> = shell::unknown_options(&run.opts).collect();
    run.diags.extend(unknown);
    // The report's sort: errors first, and among them the causes (a wrong kind of file, an empty file) first.
    let mut sorted = Report::new(id, Mode::Official);
    sorted.diagnostics = run.diags.finish();
    sorted.sort_diagnostics();
    let diagnostics = sorted.diagnostics;
    let failed = diagnostics.iter().any(|d| d.severity == Severity::Error);
    let doc = json!({
        "schema": 1,
        "kind": KIND,
        "protocol": id,
        "options": options,
        "expects": expects,
    });
    Ok(Made {
        manifest: (!failed).then(|| format!("{doc}\n")),
        diagnostics,
    })
}

/// An option value of a manifest as `--set` would give it.
fn option_text(v: &Value) -> String {
    match v {
        Value::Null => "none".into(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The manifest's options, resolved; a `set` that changes one of them is a usage error.
fn options_of(
    p: &dyn AnyProtocol,
    given: &Map<String, Value>,
    set: &[(String, String)],
) -> Result<Options, UsageError> {
    let specs = p.info().options;
    let mut pairs = Vec::new();
    for (k, v) in given {
        let Some(spec) = specs.iter().find(|s| s.name == k) else {
            return Err(UsageError(format!(
                "the manifest sets option `{k}`, which protocol `{}` does not have (a manifest of another version?)",
                p.info().id
            )));
        };
        // A null that is not `none` is a default that has no typed value (e.g. `n/a`): left to the default.
        if !v.is_null() || spec.kind == "int?" {
            pairs.push((k.clone(), option_text(v)));
        }
    }
    let base = Options::resolve(specs, Mode::Official, &pairs)
        .map_err(|e| UsageError(format!("the manifest's options: {e}")))?;
    let base_json = base.to_json();
    for s in specs {
        if given.get(s.name) != base_json.get(s.name) {
            return Err(UsageError(format!(
                "the manifest does not record option `{}` (every option must be recorded)",
                s.name
            )));
        }
    }
    for (k, v) in set {
        let mut with = pairs.clone();
        with.push((k.clone(), v.clone()));
        let one = Options::resolve(specs, Mode::Official, &with).map_err(UsageError)?;
        if one.to_json() != base_json {
            return Err(UsageError(format!(
                "--set {k}={v} conflicts with the manifest, which was made with {k} = {}",
                base_json.get(k).map_or("?".into(), Value::to_string)
            )));
        }
    }
    Ok(base)
}

/// Checks the submission in `files` (every entry is a prediction) against `manifest_text` for protocol `id`.
/// A manifest that does not parse, names another protocol, or conflicts with `set` is a usage error.
pub fn check(
    id: &str,
    manifest_text: &str,
    files: &FileSet,
    set: &[(String, String)],
) -> Result<Checked, UsageError> {
    let p = protocol(id)?;
    fits(manifest_text, crate::budget::Budget::from_set(set))?;
    let doc: Value = serde_json::from_str(manifest_text)
        .map_err(|e| UsageError(format!("the manifest is not JSON: {e}")))?;
    if doc.get("kind").and_then(Value::as_str) != Some(KIND) || doc.get("schema") != Some(&json!(1))
    {
        return Err(UsageError(format!(
            "not a dropscore manifest (expected \"schema\": 1 and \"kind\": \"{KIND}\")"
        )));
    }
    let of = doc.get("protocol").and_then(Value::as_str).unwrap_or("");
    if of != id {
        return Err(UsageError(format!(
            "the manifest is for protocol `{of}`, not `{id}`"
        )));
    }
    let given = doc
        .get("options")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let opts = options_of(p, &given, set)?;
    let expects = doc.get("expects").cloned().unwrap_or(Value::Null);
    // The shell's file-kind check, as scoring runs it (same codes: input.empty, input.wrong_kind).
    let settled = super::roles::settle(p, files);
    let files = settled.files.as_ref().unwrap_or(files);
    let mut run = Run::new(files, Mode::Official, opts);
    run.diags.extend(settled.diagnostics);
    run.diags.extend(files.diagnostics.iter().cloned());
    let Found {
        summary: found,
        items,
    } = p.check(&mut run, &expects);
    let mut report = Report::new(id, Mode::Official);
    report.items = items;
    shell::finish(&mut report, run);
    let count = |s: Severity| {
        report
            .diagnostics
            .iter()
            .filter(|d| d.severity == s)
            .count()
    };
    let (errors, warnings) = (count(Severity::Error), count(Severity::Warning));
    let ready = errors == 0;
    let summary = if !ready {
        format!(
            "Not ready to submit: {}{}. Found {found}.",
            plural(errors, "problem"),
            if warnings > 0 {
                format!(" and {}", plural(warnings, "warning"))
            } else {
                String::new()
            }
        )
    } else if warnings > 0 {
        format!(
            "Ready to submit: {found}; {} worth a look.",
            plural(warnings, "warning")
        )
    } else {
        format!("Ready to submit: {found}, no problems.")
    };
    Ok(Checked {
        report,
        ready,
        summary,
    })
}

/// Bytes a manifest's parsed form and what is built from it hold per byte of its text, at most: a JSON
/// value per id or number (32 bytes, and a string's own 24 and its heap for a short id) and the stand-in's
/// text and entries rebuilt from them.
pub const MANIFEST_EXPANSION: u64 = 12;

/// Refuses, before parsing, a manifest whose parsed form and stand-ins would outgrow the budget.
fn fits(text: &str, b: crate::budget::Budget) -> Result<(), UsageError> {
    let need = (text.len() as u64).saturating_mul(MANIFEST_EXPANSION);
    b.check(
        &format!(
            "the manifest ({}, parsed and built into its stand-in ground truth)",
            crate::budget::human(text.len() as u64)
        ),
        need,
    )
    .map_err(UsageError)
}

/// The stand-ins' budget for pixels: what one stand-in image and the prediction scored with it may hold,
/// `bytes_per_pixel` each, in `budget`; a manifest declaring a larger image is refused naming the image.
pub fn stand_in_fits(
    path: &str,
    w: u32,
    h: u32,
    bytes_per_pixel: u64,
    budget: crate::budget::Budget,
) -> Result<(), Box<Diagnostic>> {
    // PNG's largest dimension (PNG specification §11.2.2: 2³¹ − 1).
    const MAX_SIDE: u32 = i32::MAX as u32;
    let pixels = w as u64 * h as u64;
    if w == 0 || h == 0 || w > MAX_SIDE || h > MAX_SIDE {
        return Err(Box::new(bad_manifest(&format!(
            "the size of `{path}` ({w}×{h}) is not a PNG size"
        ))));
    }
    budget
        .check(
            &format!("the manifest's `{path}` ({w}×{h} = {pixels} pixels)"),
            pixels.saturating_mul(bytes_per_pixel),
        )
        .map_err(|e| Box::new(bad_manifest(&e)))
}

fn plural(n: usize, word: &str) -> String {
    counted(n as u64, word, &format!("{word}s"))
}

/// `1 category`, `30,000 categories`.
pub fn counted(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}

/// `30000` → `30,000`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The strings of a JSON array (missing or ill-typed values are skipped by the caller's check).
pub fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// An error for a manifest whose `expects` cannot be read (edited by hand, or of another version).
pub fn bad_manifest(what: &str) -> Diagnostic {
    Diagnostic::error(
        "preflight.manifest",
        format!("the manifest's `expects` is not usable: {what}"),
    )
    .hint("Use the manifest published with the competition, unchanged.")
}

/// Scoring itself, run on a stand-in ground truth (`stand_in`, written from the manifest with placeholder
/// labels) next to the submission in `run.files`: every reader and completeness check of scoring runs as
/// it does against the real ground truth. Its diagnostics go to `run.diags`, in the order the shell merges
/// them when scoring, except those about the stand-in itself and the `label_dependent` codes (their outcome
/// depends on the labels, which the stand-in does not have). Returns the stand-in report (its scores mean
/// nothing), or `None` after a usage error (pushed as a `preflight.manifest` error).
pub fn score_with_stand_in(
    run: &mut Run,
    stand_in: crate::input::Entry,
    score: fn(&mut Run, &mut dyn super::Progress) -> Result<Report, UsageError>,
    label_dependent: &[&str],
) -> Option<Report> {
    let path = stand_in.path.clone();
    let keep = |d: &Diagnostic| {
        d.file.as_deref() != Some(path.as_str()) && !label_dependent.contains(&d.code.as_str())
    };
    score_with_stand_ins(run, vec![stand_in], score, &keep)
}

/// [`score_with_stand_in`] with several stand-in entries (one per GT image, say), keeping the diagnostics
/// `keep` accepts. A protocol whose stand-in paths are the real GT's relative paths (so that a diagnostic
/// located at a GT file names the same file as scoring) filters by code rather than by path.
pub fn score_with_stand_ins(
    run: &mut Run,
    stand_ins: Vec<crate::input::Entry>,
    score: fn(&mut Run, &mut dyn super::Progress) -> Result<Report, UsageError>,
    keep: &dyn Fn(&Diagnostic) -> bool,
) -> Option<Report> {
    let paths: Vec<String> = stand_ins.iter().map(|e| e.path.clone()).collect();
    let mut set = FileSet::of(stand_ins, Vec::new());
    set.entries.extend(run.files.entries.iter().cloned());
    let mut inner = Run::new(&set, run.mode, run.opts.clone());
    let report = match score(&mut inner, &mut super::Quiet) {
        Ok(r) => r,
        Err(e) => {
            run.diags.push(bad_manifest(&e.0));
            return None;
        }
    };
    for d in std::mem::take(&mut inner.diags).finish() {
        if about_stand_in(&d, &paths) {
            run.diags.push(bad_manifest(&format!(
                "the ground truth it describes cannot be built: `{}`: {}",
                d.file.as_deref().unwrap_or(""),
                d.message
            )));
        } else if keep(&d) {
            run.diags.push(d);
        }
    }
    Some(report)
}

/// Whether `d` is an error about a stand-in's own content (not a valid PNG, too large, over the budget):
/// the manifest's fault, never the submission's, whose participant does not have the file.
fn about_stand_in(d: &Diagnostic, stand_ins: &[String]) -> bool {
    let code = d.code.as_str();
    d.severity == Severity::Error
        && d.file.as_ref().is_some_and(|f| stand_ins.contains(f))
        && (code == "input.limit" || code.ends_with(".bad_png") || code.ends_with(".too_large"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(30000), "30,000");
        assert_eq!(thousands(1234567), "1,234,567");
    }
}
