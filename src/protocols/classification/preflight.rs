//! The pre-flight check of the two table families, `classification` and `regression` (docs/specs/preflight.md).
//!
//! The manifest holds the GT file's name, its header, its ids in the GT's order (with their lines when those
//! are not simply 2, 3, …) and, for `classification`, the class labels (the column names a scores submission
//! must use); never which id has which label or target. `check` writes a stand-in ground truth from it (the
//! same name, header and ids; placeholder labels that use every class once at least, or 1) and runs the
//! family's own scoring on it, so every diagnostic about the submission (missing, unknown and duplicate ids,
//! columns, cells, CSV syntax) has the code and location scoring gives it; a missing id is moved to its GT
//! line, where scoring locates it.
//!
//! The ids keep the GT's order so that those locations agree: an organizer whose GT is ordered by label should
//! shuffle its rows before making the manifest.

use crate::diag::Diags;
use crate::input::{Entry, FileSet, Role, RoleFrom};
use crate::protocols::preflight::{bad_manifest, counted, item, strings, thousands, Found};
use crate::protocols::{Run, UsageError};
use crate::report::Report;
use serde_json::{json, Value};
use std::collections::HashMap;

/// The ground truth as read by the family's reader: file name, header, ids with their lines, classes.
pub struct GtShape {
    pub file: String,
    pub header: Vec<String>,
    /// The id column's index in `header`.
    pub id_index: usize,
    pub ids: Vec<String>,
    pub lines: Vec<u64>,
    /// `classification`: the class labels in class order; `regression`: `None`.
    pub classes: Option<Vec<String>>,
}

/// The family's scoring (`classification::run_on`, `regression::run_on` with the run's options), official
/// mode, on a file set.
pub type Scorer<'a> = &'a dyn Fn(&FileSet, &mut Diags) -> Result<Report, UsageError>;

/// The shape of the single GT of `run.files` read by the family's reader (`read`: the GT's ids, their lines and
/// the classes, or `None` with the reader's errors); `None` when it cannot be read. `columns`: the options
/// `delimiter` and `id_column`.
pub fn shape<G>(
    run: &mut Run,
    family: &str,
    columns: (&str, &str),
    read: impl FnOnce(&Entry, u8, &mut Diags) -> Option<G>,
    parts: impl FnOnce(&G) -> (Vec<String>, Vec<u64>, Option<Vec<String>>),
) -> Option<GtShape> {
    let (delimiter, id_column) = columns;
    let delim = match super::inputs::delimiter(delimiter) {
        Ok(d) => d,
        Err(e) => {
            run.diags.push(bad_manifest(&e.0));
            return None;
        }
    };
    let gts: Vec<&Entry> = run.files.with_role(Role::Gt).collect();
    let [entry] = gts.as_slice() else {
        run.diags.push(
            crate::diag::Diagnostic::error(
                &format!("{family}.several_gt"),
                format!("{} ground-truth files; expected one", gts.len()),
            )
            .hint("Give exactly one ground-truth CSV file."),
        );
        return None;
    };
    let g = read(entry, delim, &mut run.diags)?;
    // The header as the reader saw it (trimmed, BOM dropped).
    let header = super::inputs::read_entry(entry, &mut run.diags, |r, diags| {
        crate::formats::id_csv::read(family, &entry.path, r, delim, diags, |_, _| false)
    })?;
    let id_index =
        crate::formats::id_csv::id_column(family, &entry.path, &header, id_column, &mut run.diags)?;
    let (ids, lines, classes) = parts(&g);
    Some(GtShape {
        file: entry.path.clone(),
        header,
        id_index,
        ids,
        lines,
        classes,
    })
}

/// Adds to the header the solution-only columns (`regression`'s `group_column` and `weight_column`) that the GT
/// lacks: a Kaggle sample submission has the id and prediction columns only. The stand-in fills them with 1
/// (one group, unit weights), which is all the check needs.
pub fn add_columns(g: &mut GtShape, names: &[&str]) {
    for name in names.iter().map(|n| n.trim()).filter(|n| !n.is_empty()) {
        if crate::formats::id_csv::find_column(&g.header, name).is_none() {
            g.header.push(name.to_string());
        }
    }
}

/// `expects` from the shape of the GT.
pub fn expects(g: &GtShape) -> Value {
    let mut e =
        json!({ "gt_file": g.file, "header": g.header, "id_index": g.id_index, "ids": g.ids });
    let trivial = g.lines.iter().enumerate().all(|(i, &l)| l == i as u64 + 2);
    if !trivial {
        e["lines"] = json!(g.lines);
    }
    if let Some(c) = &g.classes {
        e["classes"] = json!(c);
    }
    e
}

/// The header (as the GT's), the ids and their lines and the classes of `expects`.
fn parse(expects: &Value, classes: bool) -> Option<GtShape> {
    let file = expects.get("gt_file")?.as_str()?.to_string();
    let header = strings(expects.get("header")?);
    let ids = strings(expects.get("ids")?);
    let lines: Vec<u64> = match expects.get("lines") {
        Some(l) => l
            .as_array()?
            .iter()
            .map(|v| v.as_u64())
            .collect::<Option<_>>()?,
        None => (0..ids.len() as u64).map(|i| i + 2).collect(),
    };
    let classes = if classes {
        let c = strings(expects.get("classes")?);
        if c.is_empty() {
            return None;
        }
        Some(c)
    } else {
        None
    };
    let id_index = usize::try_from(expects.get("id_index")?.as_u64()?).ok()?;
    let ok = header.len() >= 2
        && id_index < header.len()
        && !ids.is_empty()
        && lines.len() == ids.len()
        && lines.windows(2).all(|w| w[0] < w[1])
        && lines[0] >= 2
        && (ids.len() as u64) < 1 << 32;
    ok.then_some(GtShape {
        file,
        header,
        id_index,
        ids,
        lines,
        classes,
    })
}

/// The stand-in GT's bytes: the header, then each id with a placeholder value in every other column (the
/// classes in turn, or `1`: a target, a group and a weight every metric takes).
fn stand_in(g: &GtShape, delimiter: u8) -> Vec<u8> {
    let mut w = csv::WriterBuilder::new()
        .delimiter(delimiter)
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    let _ = w.write_record(&g.header);
    for (i, id) in g.ids.iter().enumerate() {
        let value = g.classes.as_ref().map_or("1", |c| c[i % c.len()].as_str());
        let rec = (0..g.header.len()).map(|c| if c == g.id_index { id.as_str() } else { value });
        let _ = w.write_record(rec);
    }
    let _ = w.flush();
    w.into_inner().unwrap_or_default()
}

/// Each stand-in line (as the reader counts lines) → the GT line of the same id.
fn line_map(g: &GtShape, family: &str, bytes: &[u8], delimiter: u8) -> HashMap<u64, u64> {
    let mut lines = Vec::with_capacity(g.ids.len());
    let mut scratch = Diags::new();
    crate::formats::id_csv::read(family, &g.file, bytes, delimiter, &mut scratch, |ev, _| {
        if let crate::formats::id_csv::Event::Row(r) = ev {
            lines.push(r.line);
        }
        true
    });
    lines.into_iter().zip(g.lines.iter().copied()).collect()
}

/// Checks the submission in `run.files` against `expects` with the family's scoring (`score`; `delimiter`:
/// the option).
pub fn check(
    run: &mut Run,
    expects: &Value,
    family: &str,
    delimiter: &str,
    score: Scorer,
) -> Found {
    let classes = family == "classification";
    let Some(g) = parse(expects, classes) else {
        run.diags.push(bad_manifest(
            "expected gt_file, header (2 columns or more), ids with increasing lines, and the classes",
        ));
        return String::from("no usable manifest").into();
    };
    let delim = match super::inputs::delimiter(delimiter) {
        Ok(d) => d,
        Err(e) => {
            run.diags.push(bad_manifest(&e.0));
            return String::from("no usable manifest").into();
        }
    };
    let bytes = stand_in(&g, delim);
    let map = line_map(&g, family, &bytes, delim);
    let mut set = FileSet::default();
    set.entries.push(Entry::plain(
        g.file.clone(),
        Some(Role::Gt),
        Some(RoleFrom::Explicit),
        bytes,
    ));
    set.entries.extend(run.files.entries.iter().cloned());
    let n = g.ids.len() as u64;
    let mut diags = Diags::new();
    let report = match score(&set, &mut diags) {
        Ok(r) => r,
        Err(e) => {
            run.diags.push(bad_manifest(&e.0));
            return String::from("no usable manifest").into();
        }
    };
    // A diagnostic at a stand-in line (a missing id) is located at that id's GT line, as scoring locates it.
    for d in &mut diags.list {
        if d.file.as_deref() == Some(g.file.as_str()) {
            d.line = d.line.map(|l| map.get(&l).copied().unwrap_or(l));
        }
    }
    let missing = diags.count(&format!("{family}.missing_id")) as u64;
    run.diags.absorb(diags);
    // Ids given: the items of the ids the submission lists (classification marks the others `missing`;
    // regression leaves their prediction null). A report without items (per-group metrics) counts the ids
    // that scoring did not call missing.
    let (mut given, mut items) = (0u64, 0u64);
    report.each_item(|it| {
        items += 1;
        given += u64::from(if classes {
            it.detail.get("missing").is_none()
        } else {
            it.scores.get("prediction").is_some()
        });
        true
    });
    if items == 0 {
        given = n.saturating_sub(missing);
    }
    let mut summary = if given == n {
        counted(n, "id", "ids")
    } else {
        format!("{} of {} ids", thousands(given), thousands(n))
    };
    if let Some(c) = &g.classes {
        summary.push_str(&format!(
            ", {}",
            counted(c.len() as u64, "class", "classes")
        ));
    }
    let mut detail = json!({ "expected": n, "found": given });
    if let Some(c) = &g.classes {
        detail["classes"] = json!(c.len());
    }
    Found {
        summary,
        items: vec![item(&g.file, detail)],
    }
}
