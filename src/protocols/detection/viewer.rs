//! The page's image viewer for `detection`: per image, the GT boxes and the detections classified
//! as `COCOeval.evaluateImg` classifies them at IoU threshold 0.5, area range "all" and the largest maxDets
//! (100 by default), by the evaluation's own code (`metrics::coco::evaluate_img`):
//!
//! - a detection is **TP** when it matched a GT box that is not ignored, **FP** when it matched none, and
//!   **ignored** when it matched an ignored GT box (a crowd box); detections ranked beyond maxDets in their
//!   image and category are not evaluated;
//! - a GT box that is not ignored and was not matched is **FN**; a crowd box is **ignored**.
//!
//! The detections' states are `evaluate_cell`'s own (the ones `accumulate()` counts); which GT box each one
//! matched comes from the same [`greedy_match`] that `evaluate_cell` runs. The files are read and indexed once
//! ([`Prepared`]); each image is then classified on request.

use super::inputs::{self, Loaded};
use super::params;
use crate::diag::{Diagnostic, Diags};
use crate::formats::coco_json::ImageId;
use crate::input::kind::sniff;
use crate::input::{Entry, FileSet};
use crate::metrics::coco::evaluate_img::{
    self, bb_iou, by_score_desc, greedy_match, Cell, FP, IGNORED, TP,
};
use crate::metrics::coco::Params;
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
            self.classify(cell, &mut boxes);
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

    /// One cell's GT boxes and detections, classified, appended to `out`: the detections in `evaluate_cell`'s
    /// order (score, descending), those beyond maxDets last.
    fn classify(&self, cell: &Cell, out: &mut Boxes) {
        let input = &self.loaded.input;
        let p = &self.params;
        let rng = p.area_rng[0];
        let max_det = p.max_dets[0];
        // evaluate_cell's own states (what accumulate() counts), for detections in its order.
        let eval = evaluate_img::evaluate_cell(input, p, cell);
        let mut dets = cell.dets.clone();
        dets.sort_by(|&a, &b| {
            by_score_desc(input.dets[a as usize].score, input.dets[b as usize].score)
        });
        let beyond = dets.split_off(dets.len().min(max_det));
        let gts: Vec<&crate::metrics::coco::Gt> =
            cell.gts.iter().map(|&i| &input.gts[i as usize]).collect();
        let ng = gts.len();
        let mut ious = vec![0.0f64; dets.len() * ng];
        for (di, &d) in dets.iter().enumerate() {
            for (gi, g) in gts.iter().enumerate() {
                ious[di * ng + gi] = bb_iou(&input.dets[d as usize].bbox, &g.bbox, g.crowd);
            }
        }
        let ig: Vec<bool> = gts
            .iter()
            .map(|g| g.crowd || g.area < rng[0] || g.area > rng[1])
            .collect();
        let crowd: Vec<bool> = gts.iter().map(|g| g.crowd).collect();
        let mut order: Vec<usize> = (0..ng).filter(|&g| !ig[g]).collect();
        order.extend((0..ng).filter(|&g| ig[g]));
        let mut matched = vec![false; ng];
        let mut dt_gt = vec![None; dets.len()];
        greedy_match(&ious, &order, &ig, &crowd, IOU, &mut matched, &mut dt_gt);
        let gt_base = out.gt.len();
        let det_base = out.dets.len();
        let mut gt_det: Vec<Option<usize>> = vec![None; ng];
        for (di, m) in dt_gt.iter().enumerate() {
            if let Some(g) = *m {
                gt_det[g].get_or_insert(det_base + di);
            }
        }
        for (gi, g) in gts.iter().enumerate() {
            let status = if ig[gi] {
                out.count(3, "ignored")
            } else if matched[gi] {
                "TP"
            } else {
                out.count(2, "FN")
            };
            out.gt.push(
                json!({"id": g.id, "bbox": g.bbox, "category": g.category, "crowd": g.crowd,
                "area": g.area, "status": status, "det": gt_det[gi]}),
            );
        }
        for (di, &d) in dets.iter().enumerate() {
            let det = &input.dets[d as usize];
            let status = match eval.state.get(di).copied().unwrap_or(IGNORED) {
                TP => out.count(0, "TP"),
                FP => out.count(1, "FP"),
                _ => out.count(3, "ignored"),
            };
            let m = dt_gt[di];
            out.dets.push(
                json!({"index": d, "bbox": det.bbox, "category": det.category, "score": det.score,
                "rank": di + 1, "status": status, "gt": m.map(|g| gt_base + g),
                "iou": m.map(|g| ious[di * ng + g])}),
            );
        }
        for (di, &d) in beyond.iter().enumerate() {
            let det = &input.dets[d as usize];
            out.dets.push(
                json!({"index": d, "bbox": det.bbox, "category": det.category, "score": det.score,
                "rank": max_det + di + 1, "status": "beyond maxDets", "gt": null, "iou": null}),
            );
        }
    }
}

/// An image's boxes as the viewer lists them, and the counts of TP, FP, FN and ignored boxes.
#[derive(Default)]
struct Boxes {
    gt: Vec<Value>,
    dets: Vec<Value>,
    counts: [u64; 4],
}

impl Boxes {
    /// Counts one box in `counts[at]` and returns its status.
    fn count(&mut self, at: usize, status: &'static str) -> &'static str {
        self.counts[at] += 1;
        status
    }
}
