//! Two other scores of the same boxes ([`Input`]), with the IoU of [`bb_iou`] (continuous coordinates, as
//! pycocotools' `bbIou`):
//!
//! - [`voc_ap`]: PASCAL VOC's all-point average precision at one IoU threshold (`voc_eval.py` of the VOC
//!   devkit as py-faster-rcnn publishes it, `use_07_metric=False`): per category, the detections of every image
//!   by confidence (stable), each matched to the GT of highest IoU in its image (the first on ties); a match
//!   above the threshold to a GT not yet taken is a true positive, anything else a false positive; AP is the
//!   area under the precision envelope; the score is NumPy's mean over the categories with GT.
//! - [`wheat`]: Global Wheat Detection's metric (the competition's evaluation page; the public notebook
//!   "Competition metric details + script" transcribes it): per image and IoU threshold 0.5, 0.55, …, 0.75, the
//!   detections by confidence (stable), each taking the unmatched GT of highest IoU at or above the threshold;
//!   TP / (TP + FP + FN); the image's score the sum of those over the thresholds each divided by 6, the score
//!   the mean over images.

use super::evaluate_img::{bb_iou, by_score_desc};
use super::{Det, Input};

/// Per category (index), its AP at `iou` (`None`: no GT); the categories' mean (NumPy's `np.mean`). The
/// detections are taken in `input`'s order (the submission's), ties in confidence kept in it.
pub fn voc_ap(input: &Input, iou: f64) -> (Vec<Option<f64>>, Option<f64>) {
    let k = input.n_categories;
    // GT per (image, category), in file order.
    let mut gts: Vec<Vec<Vec<usize>>> = vec![Vec::new(); k];
    let mut npos = vec![0usize; k];
    for (i, g) in input.gts.iter().enumerate() {
        let per = &mut gts[g.category];
        if per.is_empty() {
            per.resize(input.n_images, Vec::new());
        }
        per[g.image].push(i);
        npos[g.category] += 1;
    }
    let mut dets: Vec<Vec<usize>> = vec![Vec::new(); k];
    for (i, d) in input.dets.iter().enumerate() {
        dets[d.category].push(i);
    }
    let per: Vec<Option<f64>> = (0..k)
        .map(|c| {
            if npos[c] == 0 {
                return None;
            }
            let mut order = dets[c].clone();
            order.sort_by(|&a, &b| by_score_desc(input.dets[a].score, input.dets[b].score));
            let mut taken = vec![false; input.gts.len()];
            let hits: Vec<bool> = order
                .iter()
                .map(|&di| {
                    let d = &input.dets[di];
                    let mut best: Option<(f64, usize)> = None;
                    for &gi in &gts[c][d.image] {
                        let o = bb_iou(&d.bbox, &input.gts[gi].bbox, false);
                        if best.is_none_or(|(b, _)| o > b) {
                            best = Some((o, gi));
                        }
                    }
                    match best {
                        Some((o, gi)) if o > iou && !taken[gi] => {
                            taken[gi] = true;
                            true
                        }
                        _ => false,
                    }
                })
                .collect();
            Some(all_point_ap(&hits, npos[c]))
        })
        .collect();
    let present: Vec<f64> = per.iter().flatten().copied().collect();
    (per, crate::metrics::mean::numpy_mean(&present))
}

/// `voc_ap(rec, prec)` of the detections' hits in confidence order: [`crate::metrics::voc_ap`]'s all-point
/// area (recall `tp / npos`, precision `tp / max(tp + fp, eps)`, which is `tp / (tp + fp)` after a detection,
/// the envelope from the right with the sentinels, Σ (r[i+1] − r[i]) · p[i+1] where the recall changes).
pub fn all_point_ap(hits: &[bool], npos: usize) -> f64 {
    use crate::metrics::voc_ap::{area, pr_points, Integration, Step};
    let mut points = Vec::with_capacity(hits.len());
    let steps = hits.iter().map(|&h| Step { tp: h as u32, n: 1 });
    pr_points(steps, npos as u64, &mut points);
    area(&points, Integration::Step, true)
}

/// Global Wheat Detection's IoU thresholds.
pub const WHEAT_THRESHOLDS: [f64; 6] = [0.5, 0.55, 0.6, 0.65, 0.7, 0.75];

/// Per image, its score (`None` when it has neither GT nor detections: `empty` decides, `None` leaves it out).
/// Categories are not looked at: the detections are `input`'s and `others` (those of no GT category).
pub fn wheat(input: &Input, others: &[Det], empty: Option<f64>) -> Vec<Option<f64>> {
    let all: Vec<&Det> = input.dets.iter().chain(others).collect();
    let mut gts: Vec<Vec<usize>> = vec![Vec::new(); input.n_images];
    let mut dets: Vec<Vec<usize>> = vec![Vec::new(); input.n_images];
    for (i, g) in input.gts.iter().enumerate() {
        gts[g.image].push(i);
    }
    for (i, d) in all.iter().enumerate() {
        dets[d.image].push(i);
    }
    (0..input.n_images)
        .map(|img| {
            let (g, d) = (&gts[img], &mut dets[img]);
            if g.is_empty() && d.is_empty() {
                return empty;
            }
            d.sort_by(|&a, &b| by_score_desc(all[a].score, all[b].score));
            let ious: Vec<Vec<f64>> = d
                .iter()
                .map(|&di| {
                    g.iter()
                        .map(|&gi| bb_iou(&all[di].bbox, &input.gts[gi].bbox, false))
                        .collect()
                })
                .collect();
            let n = WHEAT_THRESHOLDS.len() as f64;
            let mut score = 0.0;
            for t in WHEAT_THRESHOLDS {
                score += precision_at(&ious, g.len(), t) / n;
            }
            Some(score)
        })
        .collect()
}

/// TP / (TP + FP + FN) at `t`: each detection (rows of `ious`, by confidence) takes the unmatched GT of highest
/// IoU ≥ `t` (the first on ties).
fn precision_at(ious: &[Vec<f64>], n_gt: usize, t: f64) -> f64 {
    let mut taken = vec![false; n_gt];
    let mut tp = 0usize;
    for row in ious {
        let mut best: Option<(f64, usize)> = None;
        for (gi, &o) in row.iter().enumerate() {
            if taken[gi] || o < t {
                continue;
            }
            if best.is_none_or(|(b, _)| o > b) {
                best = Some((o, gi));
            }
        }
        if let Some((_, gi)) = best {
            taken[gi] = true;
            tp += 1;
        }
    }
    let fp = ious.len() - tp;
    let fn_ = n_gt - tp;
    tp as f64 / (tp + fp + fn_) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::coco::Gt;

    fn gt(image: usize, bbox: [f64; 4]) -> Gt {
        Gt {
            id: 1,
            image,
            category: 0,
            bbox,
            area: bbox[2] * bbox[3],
            crowd: false,
        }
    }

    #[test]
    fn voc_and_wheat_on_one_image() {
        let input = Input {
            n_images: 1,
            n_categories: 1,
            gts: vec![
                gt(0, [0.0, 0.0, 10.0, 10.0]),
                gt(0, [20.0, 20.0, 10.0, 10.0]),
            ],
            dets: vec![
                Det {
                    image: 0,
                    category: 0,
                    bbox: [0.0, 0.0, 10.0, 10.0],
                    score: 0.9,
                },
                Det {
                    image: 0,
                    category: 0,
                    bbox: [50.0, 50.0, 10.0, 10.0],
                    score: 0.8,
                },
            ],
        };
        // One TP then one FP, 2 GT: recall 0.5 at precision 1.
        assert_eq!(voc_ap(&input, 0.5).1, Some(0.5));
        // 1 / (1 + 1 + 1) at every threshold.
        let w = wheat(&input, &[], Some(1.0))[0].unwrap();
        assert!((w - 1.0 / 3.0).abs() < 1e-15);
    }
}
