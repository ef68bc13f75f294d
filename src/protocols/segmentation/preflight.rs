//! The pre-flight check of `segmentation` (docs/specs/preflight.md): the manifest holds each GT label map's stem,
//! path (relative to the dropped roots) and width × height, and the class settings (num_classes, class names,
//! ignore_index), never a pixel. `check` writes a stand-in GT from it, every label map one valid class at its
//! size under its own path, and runs segmentation scoring itself on it with the submission
//! ([`score_with_stand_ins`]): the same pairing by stem, PNG reader, size check and class-value check of the
//! predictions, with the same codes and locations.
//!
//! Only the ground truth can reveal: nothing that blocks scoring (every error is about the submission's files,
//! names, sizes or values); the scores themselves, of course.

use super::{image, pairing, settings_in, SegmentationOptions};
use crate::diag::Diagnostic;
use crate::formats::png_mask::blank_gray;
use crate::input::{Entry, FileSet, Role, RoleFrom};
use crate::metrics::segmentation::reduce_zero_label;
use crate::protocols::preflight::{
    bad_manifest, counted, item, score_with_stand_ins, stand_in_fits, thousands, Found,
};
use crate::protocols::{AnyProtocol, Progress, Run, UsageError};
use crate::report::Report;
use serde_json::{json, Value};
use std::collections::HashSet;

/// `expects`: `{"images": [{"stem": "scene_1", "path": "gt/scene_1.png", "width": 64, "height": 48}, …],
/// "num_classes": 4, "class_names": […], "ignore_index": 255}`.
pub fn manifest(run: &mut Run, opts: &SegmentationOptions) -> Value {
    let st = match settings_in(opts, run.opts.budget()) {
        Ok(st) => st,
        Err(UsageError(e)) => {
            run.diags
                .push(Diagnostic::error("segmentation.preflight.options", e));
            return Value::Null;
        }
    };
    let gt_only = FileSet::of(run.files.with_role(Role::Gt).cloned().collect(), Vec::new());
    let gts = pairing::collect(&gt_only, Role::Gt, &mut run.diags);
    if gts.is_empty() {
        run.diags.push(
            Diagnostic::error("segmentation.no_gt", "no GT label map (PNG) was given")
                .expected("GT PNG label maps")
                .hint("Give the GT label maps (a folder, a zip or PNG files) as ground truth."),
        );
        return Value::Null;
    }
    let mut images = Vec::new();
    for (stem, e) in gts {
        let Some(mut m) = image::decode(e, &st, &mut run.diags) else {
            continue;
        };
        if st.reduce {
            for v in &mut m.values {
                *v = reduce_zero_label(*v);
            }
        }
        // A GT value out of range fails scoring whatever the submission: the manifest is refused.
        image::check_values(&m, &st, &e.path, true, &mut run.diags);
        images.push(json!({"stem": stem, "path": e.path, "width": m.width, "height": m.height}));
    }
    json!({
        "images": images,
        "num_classes": st.classes,
        "class_names": opts.class_names.items(),
        "ignore_index": st.ignore,
    })
}

/// Bytes a pixel of a stand-in costs while it is scored: its PNG row and class values (3), the prediction's
/// decoded samples (up to 8, RGBA 16-bit) and class values (2), and the pair's counting (3).
const STAND_IN_BYTES_PER_PIXEL: u64 = 16;

fn parse(expects: &Value) -> Option<Vec<(String, String, u32, u32)>> {
    let mut out = Vec::new();
    for i in expects.get("images")?.as_array()? {
        let dim = |k: &str| i.get(k)?.as_u64().and_then(|v| u32::try_from(v).ok());
        out.push((
            i.get("stem")?.as_str()?.to_string(),
            i.get("path")?.as_str()?.to_string(),
            dim("width")?,
            dim("height")?,
        ));
    }
    Some(out)
}

fn score(run: &mut Run, progress: &mut dyn Progress) -> Result<Report, UsageError> {
    AnyProtocol::score(&super::Segmentation, run, progress)
}

/// Checks the submission in `run.files` against `expects`; returns what was found.
pub fn check(run: &mut Run, opts: &SegmentationOptions, expects: &Value) -> Found {
    let Some(images) = parse(expects) else {
        run.diags.push(bad_manifest(
            "expected images with stem, path, width and height",
        ));
        return String::from("no usable manifest").into();
    };
    let Ok(st) = settings_in(opts, run.opts.budget()) else {
        run.diags.push(bad_manifest("its options do not resolve"));
        return String::from("no usable manifest").into();
    };
    // One valid GT class everywhere: 0, or 1 when reduce_zero_label maps v to v − 1.
    let value = u8::from(st.reduce);
    let files = run.files;
    let pngs: Vec<&Entry> = files
        .with_role(Role::Pred)
        .filter(|e| pairing::is_png(e))
        .collect();
    let predicted: HashSet<&str> = pngs.iter().map(|e| pairing::stem(e.name())).collect();
    let single = images.len() == 1 && pngs.len() == 1;
    let mut stand_ins = Vec::new();
    for (stem, path, w, h) in &images {
        if let Err(d) = stand_in_fits(path, *w, *h, STAND_IN_BYTES_PER_PIXEL, run.opts.budget()) {
            run.diags.push(*d);
            return String::from("no usable manifest").into();
        }
        if *w as u64 * *h as u64 > st.max_pixels {
            run.diags.push(bad_manifest(&format!(
                "the size of `{path}` is out of range"
            )));
            return String::from("no usable manifest").into();
        }
        // Only an image with a prediction is built at its size: without one, scoring reports the missing
        // prediction from the names and never compares sizes, so a 1×1 stand-in gives the same diagnostics
        // at no cost (a manifest of 300 images of 64 MP is not 300 encodes and decodes).
        let (sw, sh) = if single || predicted.contains(stem.as_str()) {
            (*w, *h)
        } else {
            (1, 1)
        };
        stand_ins.push(Entry::plain(
            path.clone(),
            Some(Role::Gt),
            Some(RoleFrom::Explicit),
            blank_gray(sw, sh, value),
        ));
    }
    if score_with_stand_ins(run, stand_ins, score, &|_| true).is_none() {
        return String::from("no usable manifest").into();
    }
    let stems: HashSet<&str> = images.iter().map(|i| i.0.as_str()).collect();
    let n = images.len() as u64;
    let found = if n == 1 && pngs.len() == 1 {
        1
    } else {
        pngs.iter()
            .filter(|e| stems.contains(pairing::stem(e.name())))
            .count() as u64
    };
    let summary = if found == n {
        format!(
            "{}, {}",
            counted(n, "label map", "label maps"),
            counted(st.classes as u64, "class", "classes")
        )
    } else {
        format!(
            "label maps for {} of {} images, {}",
            thousands(found),
            thousands(n),
            counted(st.classes as u64, "class", "classes")
        )
    };
    Found {
        summary,
        items: vec![item("images", json!({ "expected": n, "found": found }))],
    }
}
