//! Pairing of GT and predicted label maps by file stem (docs/specs/families.md sections 0 and 4): a single PNG in
//! each role pairs whatever the names (info `segmentation.single_pair`); otherwise a GT stem without a
//! prediction is `segmentation.missing_id`, a prediction stem without GT `segmentation.unknown_id`, a stem
//! twice in one role `segmentation.duplicate_id` (errors; `missing = worst` scores a missing prediction as
//! all wrong instead).

use crate::diag::{Diagnostic, Diags};
use crate::input::{Entry, FileSet, Role};
use crate::report::natural_cmp;
use std::collections::HashMap;

/// One image to score: its id (the GT stem), the GT and, when given, the prediction.
pub struct Pair<'a> {
    pub id: String,
    pub gt: &'a Entry,
    pub pred: Option<&'a Entry>,
}

/// File name without its last extension.
pub fn stem(name: &str) -> &str {
    match name.rfind('.') {
        Some(i) if i > 0 => &name[..i],
        _ => name,
    }
}

pub fn is_png(e: &Entry) -> bool {
    e.name().to_ascii_lowercase().ends_with(".png")
}

fn is_config(e: &Entry) -> bool {
    matches!(
        e.name(),
        "dropscore.toml" | "dropscore.json" | "competition.yaml"
    )
}

/// The PNGs of one role by stem, in natural order; other files get an info and are skipped.
pub(super) fn collect<'a>(
    files: &'a FileSet,
    role: Role,
    diags: &mut Diags,
) -> Vec<(&'a str, &'a Entry)> {
    let mut out: Vec<(&str, &Entry)> = Vec::new();
    let mut seen: HashMap<&str, &Entry> = HashMap::new();
    for e in files.with_role(role) {
        if !is_png(e) {
            if !is_config(e) {
                diags.push(
                    Diagnostic::info("segmentation.not_png", "not a PNG label map; skipped")
                        .file(&e.path)
                        .expected("a .png file"),
                );
            }
            continue;
        }
        let s = stem(e.name());
        if let Some(first) = seen.get(s) {
            diags.push(
                Diagnostic::error(
                    "segmentation.duplicate_id",
                    format!("image `{s}` is given twice (also as {})", first.path),
                )
                .file(&e.path)
                .expected("one label map per image stem")
                .hint("Remove the repeated file, or put each data set in its own folder.")
                .official("duplicate sample names: one of them overwrites the other"),
            );
            continue;
        }
        seen.insert(s, e);
        out.push((s, e));
    }
    out.sort_by(|a, b| natural_cmp(a.0, b.0));
    out
}

/// Pairs the GT and prediction label maps.
pub fn pair<'a>(files: &'a FileSet, missing_worst: bool, diags: &mut Diags) -> Vec<Pair<'a>> {
    let gts = collect(files, Role::Gt, diags);
    let preds = collect(files, Role::Pred, diags);
    if gts.is_empty() {
        diags.push(
            Diagnostic::error("segmentation.no_gt", "no GT label map (PNG) was given")
                .expected("GT PNG label maps")
                .hint("Give the GT label maps (a folder, a zip or PNG files) as ground truth."),
        );
        return Vec::new();
    }
    if gts.len() == 1 && preds.len() == 1 {
        let (gs, g) = gts[0];
        let (ps, p) = preds[0];
        if gs != ps {
            diags.push(
                Diagnostic::info(
                    "segmentation.single_pair",
                    format!(
                        "one label map in each role: `{}` is scored against `{}`",
                        p.name(),
                        g.name()
                    ),
                )
                .file(&p.path),
            );
        }
        return vec![Pair {
            id: gs.to_string(),
            gt: g,
            pred: Some(p),
        }];
    }
    let by_stem: HashMap<&str, &Entry> = preds.iter().copied().collect();
    let mut out = Vec::with_capacity(gts.len());
    let mut missing = 0usize;
    for &(s, g) in &gts {
        let pred = by_stem.get(s).copied();
        if pred.is_none() {
            missing += 1;
            diags.push(missing_prediction(s, g, missing_worst));
        }
        out.push(Pair {
            id: s.to_string(),
            gt: g,
            pred,
        });
    }
    let gt_stems: HashMap<&str, ()> = gts.iter().map(|(s, _)| (*s, ())).collect();
    for &(s, p) in &preds {
        if !gt_stems.contains_key(s) {
            diags.push(
                Diagnostic::error(
                    "segmentation.unknown_id",
                    format!("prediction `{s}` has no GT label map"),
                )
                .file(&p.path)
                .expected("a stem of the GT label maps")
                .hint("Name each prediction like its GT image, or remove predictions of other images."),
            );
        }
    }
    if missing > 1 {
        diags.push(Diagnostic::info(
            "segmentation.missing_count",
            format!("{missing} of {} GT images have no prediction", gts.len()),
        ));
    }
    out
}

/// No prediction for GT image `s`: an error, or a warning with `missing = worst` (scored as all wrong).
fn missing_prediction(s: &str, g: &Entry, missing_worst: bool) -> Diagnostic {
    let mut d = Diagnostic::error(
        "segmentation.missing_id",
        format!("no prediction for image `{s}`"),
    )
    .file(&g.path)
    .expected(format!("a predicted label map named {s}.png"))
    .hint("Predict every image of the ground truth (or set missing = worst to score it as all wrong).")
    .official("fails (the evaluation expects one prediction per image)");
    if missing_worst {
        d.severity = crate::diag::Severity::Warning;
        d.message = format!("no prediction for image `{s}`: scored as all wrong (missing = worst)");
    }
    d
}
