//! An image's boxes classified as `COCOeval.evaluateImg` classifies them at one IoU threshold, one area range and
//! one maxDets, by the evaluation's own code (`metrics::coco::evaluate_img`), for the page's box views
//! (`detection`'s image viewer, `kaggle`'s PredictionString boxes):
//!
//! - a detection is **TP** when it matched a GT box that is not ignored, **FP** when it matched none, and
//!   **ignored** when it matched an ignored GT box (a crowd box, or one outside the area range); detections
//!   ranked beyond maxDets in their image and category are not evaluated;
//! - a GT box that is not ignored and was not matched is **FN**; an ignored one is **ignored**.
//!
//! The detections' states are `evaluate_cell`'s own (the ones `accumulate()` counts); which GT box each one
//! matched comes from the same [`greedy_match`] that `evaluate_cell` runs.

use crate::metrics::coco::evaluate_img::{
    self, bb_iou, by_score_desc, greedy_match, Cell, FP, IGNORED, TP,
};
use crate::metrics::coco::{Gt, Input, Params};
use serde_json::{json, Value};

/// One cell's GT boxes and detections, classified at the IoU threshold `iou` (`p`'s only threshold), appended
/// to `out`: the detections in `evaluate_cell`'s order (score, descending), those beyond maxDets last.
pub fn classify(input: &Input, p: &Params, cell: &Cell, iou: f64, out: &mut Boxes) {
    let rng = p.area_rng[0];
    let max_det = p.max_dets[0];
    // evaluate_cell's own states (what accumulate() counts), for detections in its order.
    let eval = evaluate_img::evaluate_cell(input, p, cell);
    let mut dets = cell.dets.clone();
    dets.sort_by(|&a, &b| {
        by_score_desc(input.dets[a as usize].score, input.dets[b as usize].score)
    });
    let beyond = dets.split_off(dets.len().min(max_det));
    let gts: Vec<&Gt> = cell.gts.iter().map(|&i| &input.gts[i as usize]).collect();
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
    greedy_match(&ious, &order, &ig, &crowd, iou, &mut matched, &mut dt_gt);
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

/// An image's boxes as the viewer lists them, and the counts of TP, FP, FN and ignored boxes.
#[derive(Default)]
pub struct Boxes {
    pub gt: Vec<Value>,
    pub dets: Vec<Value>,
    /// TP, FP, FN, ignored.
    pub counts: [u64; 4],
}

impl Boxes {
    /// Counts one box in `counts[at]` and returns its status.
    fn count(&mut self, at: usize, status: &'static str) -> &'static str {
        self.counts[at] += 1;
        status
    }
}
