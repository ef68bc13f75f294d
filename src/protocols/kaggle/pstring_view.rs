//! The page view of PredictionString boxes (`www/views/kaggle.js`): the images, most errors first, and one
//! image's solution boxes and submission boxes classified TP / FP / FN at IoU 0.5, area "all", maxDets 100, as
//! `COCOeval.evaluateImg` classifies them (`crate::protocols::box_view`, the code of `detection`'s image viewer):
//! the matching behind the report's per-image `tp50`, `fp50` and `fn50`. Detections of a class the solution
//! lacks are not evaluated by COCO; they are listed with the status "class not in the solution".

use super::pstring::{self, Read};
use super::{inputs, KaggleOptions, Kind};
use crate::diag::Diags;
use crate::metrics::coco::evaluate_img::{self, Cell};
use crate::metrics::coco::Params;
use crate::protocols::box_view::{classify, Boxes};
use crate::protocols::options::OptionSet;
use crate::protocols::views::{ViewCall, ViewOut};
use crate::protocols::{Options, Request};
use serde_json::{json, Value};

/// The IoU threshold of the view's TP / FP / FN (the report's `tp50`, `fp50`, `fn50`).
const IOU: f64 = 0.5;
/// The most images listed.
const MAX_LISTED: usize = 500;
/// The status of a detection whose class the solution lacks.
const OTHER_CLASS: &str = "class not in the solution";

/// The boxes of the session's files under the request's options, read once per options, with each image's
/// COCO cells.
struct Prepared {
    read: Read,
    params: Params,
    cells: Vec<Vec<Cell>>,
}

fn options(req: &Request) -> Result<KaggleOptions, String> {
    Ok(KaggleOptions::read(&Options::resolve(
        KaggleOptions::SPECS,
        req.mode,
        &req.set,
    )?))
}

fn prepared<'a>(call: &'a mut ViewCall) -> Result<&'a Prepared, String> {
    let key = call.options_key();
    let (files, req) = (call.files, call.req);
    call.cache.keyed(key, || {
        let opts = options(req)?;
        let delim = inputs::delimiter(&opts.delimiter).map_err(|e| e.0)?;
        let mut diags = Diags::new();
        let (gt, pred) = inputs::pick(files, &mut diags).ok_or("no solution and submission")?;
        let budget = crate::budget::Budget::from_set(&req.set);
        let Some(read) = pstring::read(gt, pred, &opts, delim, budget, &mut diags) else {
            let first = diags.list.iter().find(|d| d.is_error());
            return Err(first.map_or("the boxes could not be read".into(), |d| d.message.clone()));
        };
        let defaults = Params::default();
        let params = Params {
            iou_thrs: vec![IOU],
            area_rng: vec![defaults.area_rng[0]],
            area_lbl: vec![defaults.area_lbl[0].clone()],
            max_dets: vec![defaults.max_dets.iter().copied().max().unwrap_or(100)],
            ..defaults
        };
        let k = read.input.n_categories;
        let mut cells: Vec<Vec<Cell>> = vec![Vec::new(); read.input.n_images];
        for cat in evaluate_img::group(&read.input, params.use_cats, k) {
            for cell in cat.cells {
                if let Some(c) = cells.get_mut(cell.image) {
                    c.push(cell);
                }
            }
        }
        Ok(Prepared {
            read,
            params,
            cells,
        })
    })
}

impl Prepared {
    /// Image `ix`'s boxes, classified; the detections of other classes last.
    fn classified(&self, ix: usize) -> Boxes {
        let mut out = Boxes::default();
        for cell in &self.cells[ix] {
            classify(&self.read.input, &self.params, cell, IOU, &mut out);
        }
        let other = self.read.categories.len();
        for d in self.read.others.iter().filter(|d| d.image == ix) {
            out.dets.push(
                json!({"index": null, "bbox": d.bbox, "category": other, "score": d.score,
                "rank": null, "status": OTHER_CLASS, "gt": null, "iou": null}),
            );
        }
        out
    }
}

/// `{"boxes": true, "images": [[id, gt boxes, detections, tp, fp, fn]…], "of": n}`: at most 500 images, most
/// FP + FN first (the solution's order among equals); `{"boxes": false}` when the metric is not a box metric.
pub(super) fn box_images(call: &mut ViewCall) -> Result<ViewOut, String> {
    if Kind::of(&options(call.req)?.metric).map_err(|e| e.0)? != Kind::Boxes {
        return Ok(json!({ "boxes": false }).into());
    }
    let p = prepared(call)?;
    let mut rows: Vec<(u64, Value)> = (0..p.read.ids.len())
        .map(|ix| {
            let b = p.classified(ix);
            let c = b.counts;
            let row = json!([p.read.ids[ix], b.gt.len(), b.dets.len(), c[0], c[1], c[2]]);
            (c[1] + c[2], row)
        })
        .collect();
    rows.sort_by_key(|r| std::cmp::Reverse(r.0));
    let images: Vec<Value> = rows.into_iter().take(MAX_LISTED).map(|r| r.1).collect();
    Ok(json!({ "boxes": true, "images": images, "of": p.read.ids.len() }).into())
}

/// One image's boxes in the detection viewer's form: `{image_id, name, iou, area, max_dets, categories, gt,
/// dets, counts}` (`crate::protocols::box_view`).
pub(super) fn boxes(call: &mut ViewCall) -> Result<ViewOut, String> {
    let id = call.text("id")?.to_string();
    let p = prepared(call)?;
    let ix = p
        .read
        .ids
        .iter()
        .position(|i| *i == id)
        .ok_or_else(|| format!("no image `{id}` in the solution"))?;
    let b = p.classified(ix);
    let mut categories = p.read.categories.clone();
    categories.push(format!("({OTHER_CLASS})"));
    let c = b.counts;
    Ok(json!({
        "image_id": id, "name": id, "iou": IOU, "area": p.params.area_lbl[0],
        "max_dets": p.params.max_dets[0], "categories": categories,
        "gt": b.gt, "dets": b.dets,
        "counts": {"tp": c[0], "fp": c[1], "fn": c[2], "ignored": c[3]},
    })
    .into())
}
