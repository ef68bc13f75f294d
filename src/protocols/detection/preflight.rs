//! The pre-flight check of `detection` (docs/specs/preflight.md): the manifest holds the GT's images (id, file
//! name, width, height) and categories (id, name), as `COCO()` indexes them (a repeated id keeps its last
//! entry), never an annotation. `check` writes a stand-in annotation file from it (the same images and
//! categories, no annotation) and runs detection scoring itself on it with the submission
//! ([`score_with_stand_in`]): the results reader (syntax, fields, box sizes, all located), `loadRes`'s image-id
//! rule (`detection.unknown_image`) and the empty-results rule, with the same codes and locations.
//!
//! Only the ground truth can reveal: nothing that blocks scoring; the scores themselves.

use super::inputs;
use crate::formats::coco_json::{self, ImageId};
use crate::input::{Entry, FileSet, Role, RoleFrom};
use crate::protocols::preflight::{
    bad_manifest, counted, item, score_with_stand_in, thousands, Found,
};
use crate::protocols::{AnyProtocol, Progress, Run, UsageError};
use crate::report::Report;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// The stand-in's path (no submission file is named so).
const STAND_IN: &str = "(manifest) annotations.json";

/// `expects`: `{"images": [{"id": 1, "file_name": "a.jpg", "width": 640, "height": 480}, …], "categories":
/// [{"id": 1, "name": "cat"}, …]}`, both sorted by id.
pub fn manifest(run: &mut Run) -> Value {
    let gt_only = FileSet::of(run.files.with_role(Role::Gt).cloned().collect(), Vec::new());
    let Some(g) = inputs::one(&gt_only, Role::Gt, &mut run.diags) else {
        return Value::Null;
    };
    let Some(bytes) = inputs::read(g, &mut run.diags) else {
        return Value::Null;
    };
    let mut found = Vec::new();
    let gt = coco_json::read_gt(&g.path, &bytes, &mut found);
    run.diags.extend(found);
    let Some(gt) = gt else {
        return Value::Null;
    };
    let mut images: BTreeMap<ImageId, Value> = BTreeMap::new();
    for im in &gt.images {
        let mut o = Map::new();
        o.insert("id".into(), json!(im.id));
        if let Some(f) = &im.file_name {
            o.insert("file_name".into(), json!(f));
        }
        for (k, v) in [("width", im.width), ("height", im.height)] {
            if let Some(v) = v {
                o.insert(k.into(), json!(v));
            }
        }
        images.insert(im.id.clone(), Value::Object(o));
    }
    let mut categories: BTreeMap<i64, Value> = BTreeMap::new();
    for c in &gt.categories {
        categories.insert(c.id, json!({"id": c.id, "name": c.name}));
    }
    json!({
        "images": images.into_values().collect::<Vec<_>>(),
        "categories": categories.into_values().collect::<Vec<_>>(),
    })
}

fn score(run: &mut Run, progress: &mut dyn Progress) -> Result<Report, UsageError> {
    AnyProtocol::score(&super::Detection, run, progress)
}

/// Checks the submission in `run.files` against `expects`; returns what was found.
pub fn check(run: &mut Run, expects: &Value) -> Found {
    let (Some(images), Some(categories)) = (
        expects.get("images").and_then(Value::as_array),
        expects.get("categories").and_then(Value::as_array),
    ) else {
        run.diags
            .push(bad_manifest("expected images and categories"));
        return String::from("no usable manifest").into();
    };
    let text = json!({"images": images, "annotations": [], "categories": categories}).to_string();
    let stand_in = Entry::plain(
        STAND_IN.into(),
        Some(Role::Gt),
        Some(RoleFrom::Explicit),
        text.into_bytes(),
    );
    let Some(report) = score_with_stand_in(run, stand_in, score, &[]) else {
        return String::from("no usable manifest").into();
    };
    let (n_img, n_cat) = (images.len() as u64, categories.len() as u64);
    let of_images: Vec<_> = report
        .items
        .iter()
        .filter(|i| i.group.as_deref() == Some("image"))
        .collect();
    let dets: u64 = of_images
        .iter()
        .filter_map(|i| i.detail.get("detections").and_then(Value::as_u64))
        .sum();
    let with = of_images
        .iter()
        .filter(|i| {
            i.detail
                .get("detections")
                .and_then(Value::as_u64)
                .unwrap_or(0)
                > 0
        })
        .count() as u64;
    let summary = if of_images.is_empty() {
        format!(
            "{}, {} in the ground truth",
            counted(n_img, "image", "images"),
            counted(n_cat, "category", "categories")
        )
    } else {
        format!(
            "{} on {} of {}, {}",
            counted(dets, "detection", "detections"),
            thousands(with),
            counted(n_img, "image", "images"),
            counted(n_cat, "category", "categories")
        )
    };
    let items = report
        .items
        .iter()
        .filter(|i| i.group.is_none())
        .map(|i| {
            item(
                &i.id,
                json!({"detections": i.scores.get("detections"), "category_id": i.detail.get("category_id")}),
            )
        })
        .collect();
    Found { summary, items }
}
