//! The page's image viewer for `detection`: per image, the GT boxes and the detections classified
//! as `COCOeval.evaluateImg` classifies them at IoU threshold 0.5, area range "all" and the largest maxDets
//! (100 by default), by the evaluation's own code (`metrics::coco::evaluate_img`):
//!
//! - a detection is **TP** when it matched a GT box that is not ignored, **FP** when it matched none, and
//!   **ignored** when it matched an ignored GT box (a crowd box); detections ranked beyond maxDets in their
//!   image and category are not evaluated;
//! - a GT box that is not ignored and was not matched is **FN**; a crowd box is **ignored**.
//!
//! The boxes are classified by [`crate::protocols::box_view::classify`]. The files are read and indexed once
//! ([`Prepared`]); each image is then classified on request.

use super::inputs::{self, Loaded};
use super::params;
use crate::diag::{Diagnostic, Diags};
use crate::formats::coco_json::ImageId;
use crate::input::kind::sniff;
use crate::input::{Entry, FileSet};
use crate::metrics::coco::evaluate_img::{self, Cell};
use crate::metrics::coco::Params;
use crate::protocols::box_view::{classify, Boxes};
use crate::protocols::options::OptionSet;
use crate::protocols::views::{Extras, View, ViewCall};
use crate::protocols::Request;
use serde_json::{json, Value};

/// The IoU threshold of the viewer's TP/FP/FN.
pub const IOU: f64 = 0.5;

/// The detection view (`www/views/detection.js`) and its requests: `images` (no argument) the GT's images,
/// `image` (`{"image_id": 42}`) one image's boxes, classified. The files are read and indexed once per session
/// and options ([`Prepared`], kept in the session's cache).
pub static EXTRAS: Extras = Extras {
    page_view: true,
    views: &[
        View {
            name: "images",
            run: |call| Ok(prepared(call)?.images().into()),
        },
        View {
            name: "image",
            run: |call| {
                let id = image_id_arg(call.args)?;
                Ok(prepared(call)?.image(id)?.into())
            },
        },
    ],
    ..Extras::NONE
};

/// The view's argument `image_id`: an image id as the GT writes it, an integer or a string.
fn image_id_arg(args: &Value) -> Result<ImageId, String> {
    match args.get("image_id") {
        Some(Value::String(s)) => Ok(ImageId::Str(s.clone())),
        Some(v) => match (v.as_i64(), v.as_f64()) {
            (Some(i), _) => Ok(ImageId::Int(i)),
            (None, Some(f)) if f.fract() == 0.0 && f.abs() < 9e15 => Ok(ImageId::Int(f as i64)),
            _ => Err("image_id must be an integer or a string".into()),
        },
        None => Err("the view needs an argument `image_id`".into()),
    }
}

/// The session's files indexed for the call's options, once.
fn prepared<'a>(call: &'a mut ViewCall) -> Result<&'a Prepared, String> {
    let key = call.options_key();
    let (files, req) = (call.files, call.req);
    call.cache.keyed(key, || prepare(files, req))
}

/// The dropped files, read and indexed as the evaluation indexes them, with the cells of each image.
pub struct Prepared {
    loaded: Loaded,
    /// The evaluation's parameters cut to IoU 0.5, area "all" and the largest maxDets.
    params: Params,
    /// Per image index: its cells (one per category with GT or detections; one in all with `use_cats` off).
    cells: Vec<Vec<Cell>>,
}

/// Whether an entry is an image, from its first bytes: images dropped with the JSON files are accepted on either
/// side and never scored (the page's viewer draws the boxes on them).
pub fn is_image(e: &Entry) -> bool {
    e.head(16)
        .map(|h| sniff(e.name(), &h, e.size).is_image())
        .unwrap_or(false)
}

/// One info for the dropped images: they are not scored.
pub fn note_images(files: &FileSet, diags: &mut Diags) {
    let images: Vec<&Entry> = files.entries.iter().filter(|e| is_image(e)).collect();
    if let Some(first) = images.first() {
        diags.push(
            Diagnostic::info(
                "detection.images",
                format!(
                    "{} image(s) dropped: not scored; the page draws the GT boxes and the detections on them",
                    images.len()
                ),
            )
            .file(&first.path)
            .hint("Images are matched to the annotation file's `file_name` by their file name."),
        );
    }
}

/// Reads the session's files with `req`'s options (`Err`: the first error that blocks the evaluation).
pub fn prepare(files: &FileSet, req: &Request) -> Result<Prepared, String> {
    let opts = super::DetectionOptions::resolve(req.mode, &req.set)?;
    let (p, _) = params::params(&opts).map_err(|e| e.0)?;
    let settled = crate::protocols::roles::settle(&super::Detection, files);
    let files = settled.files.as_ref().unwrap_or(files);
    let mut diags = Diags::new();
    let budget = crate::budget::Budget::from_set(&req.set);
    let Some(loaded) = inputs::load(files, budget, &mut diags) else {
        return Err(diags.list.iter().find(|d| d.is_error()).map_or_else(
            || "the detections cannot be evaluated".to_string(),
            |d| d.message.clone(),
        ));
    };
    let area = p.area_lbl.iter().position(|l| l == "all").unwrap_or(0);
    let params = Params {
        iou_thrs: vec![IOU],
        area_rng: p.area_rng.get(area).map(|a| vec![*a]).unwrap_or_default(),
        area_lbl: p
            .area_lbl
            .get(area)
            .map(|a| vec![a.clone()])
            .unwrap_or_default(),
        max_dets: vec![p.max_dets.iter().copied().max().unwrap_or(100)],
        ..p
    };
    if params.area_rng.is_empty() {
        return Err("no area range is set".into());
    }
    let (gt, res) = (&loaded.gt_path, &loaded.res_path);
    if !super::budget::evaluation_fits(&loaded.input, &params, gt, res, budget, &mut diags)
        .map_err(|e| e.0)?
    {
        return Err(diags.list.iter().find(|d| d.is_error()).map_or_else(
            || "the detections cannot be evaluated".to_string(),
            |d| d.message.clone(),
        ));
    }
    let k = if params.use_cats {
        loaded.input.n_categories
    } else {
        1
    };
    let mut cells: Vec<Vec<Cell>> = vec![Vec::new(); loaded.input.n_images];
    for cat in evaluate_img::group(&loaded.input, params.use_cats, k) {
        for cell in cat.cells {
            if let Some(c) = cells.get_mut(cell.image) {
                c.push(cell);
            }
        }
    }
    Ok(Prepared {
        loaded,
        params,
        cells,
    })
}

impl Prepared {
    /// The images in the GT's id order: `[{image_id, name}]` (`name` is `file_name`, or null).
    pub fn images(&self) -> Value {
        let l = &self.loaded;
        Value::Array(
            l.image_ids
                .iter()
                .zip(&l.image_names)
                .map(|(id, name)| json!({"image_id": id, "name": name}))
                .collect(),
        )
    }

    /// One image's boxes, classified (module doc), as
    /// `{image_id, name, iou, area, max_dets, categories, gt: [...], dets: [...], counts}`.
    pub fn image(&self, image_id: impl Into<ImageId>) -> Result<Value, String> {
        let l = &self.loaded;
        let image_id: ImageId = image_id.into();
        let Ok(ix) = l.image_ids.binary_search(&image_id) else {
            return Err(format!(
                "no image with id {} in the ground truth",
                image_id.json_text()
            ));
        };
        let mut boxes = Boxes::default();
        for cell in &self.cells[ix] {
            classify(&self.loaded.input, &self.params, cell, IOU, &mut boxes);
        }
        let categories: Vec<String> = (0..l.category_ids.len())
            .map(|k| {
                l.category_names[k]
                    .clone()
                    .unwrap_or_else(|| l.category_ids[k].to_string())
            })
            .collect();
        let p = &self.params;
        let c = &boxes.counts;
        Ok(json!({
            "image_id": image_id, "name": l.image_names[ix], "iou": IOU, "area": p.area_lbl[0],
            "max_dets": p.max_dets[0], "categories": categories, "category_ids": l.category_ids,
            "gt": boxes.gt, "dets": boxes.dets,
            "counts": {"tp": c[0], "fp": c[1], "fn": c[2], "ignored": c[3]},
        }))
    }
}
