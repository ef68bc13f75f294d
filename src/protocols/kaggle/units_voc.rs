//! `voc_ap` of PredictionString boxes with image weights: PASCAL VOC's all-point AP at one IoU (`voc_eval.py`
//! of the VOC devkit as py-faster-rcnn publishes it, `use_07_metric=False`, as [`crate::metrics::coco::voc`]
//! computes it), on the repeated files in which image i's rows appear `w[i]` times, the copies adjacent at the
//! row's place in both files, without building them.
//!
//! On the repeated files a detection's match is its original's: it is matched against the GT of its own image
//! copy only, and the detections of one copy come in the same order as the original's (confidence descending,
//! ties in submission order), so each detection is a true positive in every copy or in none. The ranking of a
//! category is the original's, each run of equal confidences expanded: within the run the original's
//! detections of one image are adjacent (one submission row per image), and on the repeated files that block
//! comes once per copy, the copies in a row. A replicate expands the hits so and computes the area with
//! `voc::all_point_ap` itself: bit-identical to scoring the repeated files.

use crate::metrics::coco::evaluate_img::{bb_iou, by_score_desc};
use crate::metrics::coco::voc::all_point_ap;
use crate::metrics::coco::Input;
use crate::metrics::mean::numpy_mean;
use std::cmp::Ordering;

/// One run of equal confidences of a category's ranking: blocks of (image, hits of its detections in order).
type Run = Vec<(usize, Vec<bool>)>;

/// Each category's ranking as runs, and its GT count per image (empty: no GT).
pub struct VocRanking {
    categories: Vec<(Vec<Run>, Vec<u32>)>,
}

impl VocRanking {
    /// The matches of `input` at IoU `iou` (a match must exceed it), as `voc::voc_ap` makes them.
    pub fn new(input: &Input, iou: f64) -> VocRanking {
        let k = input.n_categories;
        // GT per (category, image), in file order; a category without GT keeps empty lists.
        let mut gts: Vec<Vec<Vec<usize>>> = vec![Vec::new(); k];
        for (i, g) in input.gts.iter().enumerate() {
            let per = &mut gts[g.category];
            if per.is_empty() {
                per.resize(input.n_images, Vec::new());
            }
            per[g.image].push(i);
        }
        let mut dets: Vec<Vec<usize>> = vec![Vec::new(); k];
        for (i, d) in input.dets.iter().enumerate() {
            dets[d.category].push(i);
        }
        let categories = (0..k)
            .map(|c| {
                let mut order = std::mem::take(&mut dets[c]);
                order.sort_by(|&a, &b| by_score_desc(input.dets[a].score, input.dets[b].score));
                let mut taken = vec![false; input.gts.len()];
                let mut runs: Vec<Run> = Vec::new();
                let mut last: Option<f64> = None;
                for &di in &order {
                    let d = &input.dets[di];
                    let mut best: Option<(f64, usize)> = None;
                    for &gi in gts[c].get(d.image).into_iter().flatten() {
                        let o = bb_iou(&d.bbox, &input.gts[gi].bbox, false);
                        if best.is_none_or(|(b, _)| o > b) {
                            best = Some((o, gi));
                        }
                    }
                    let hit = match best {
                        Some((o, gi)) if o > iou && !taken[gi] => {
                            taken[gi] = true;
                            true
                        }
                        _ => false,
                    };
                    let tied = last.is_some_and(|s| by_score_desc(s, d.score) == Ordering::Equal);
                    if !tied {
                        runs.push(Vec::new());
                    }
                    last = Some(d.score);
                    let run = runs.last_mut().expect("a run");
                    match run.last_mut() {
                        Some((image, hits)) if *image == d.image => hits.push(hit),
                        _ => run.push((d.image, vec![hit])),
                    }
                }
                let n_gt = gts[c].iter().map(|g| g.len() as u32).collect();
                (runs, n_gt)
            })
            .collect();
        VocRanking { categories }
    }

    /// The mean over the categories with a GT box in the drawn images (NumPy's `np.mean`) of each one's AP,
    /// image i counted `w[i]` times.
    pub fn map(&self, w: &[u32]) -> Option<f64> {
        let mut aps = Vec::with_capacity(self.categories.len());
        let mut hits = Vec::new();
        for (runs, n_gt) in &self.categories {
            let npos: u64 = n_gt.iter().zip(w).map(|(&g, &k)| g as u64 * k as u64).sum();
            if npos == 0 {
                continue;
            }
            hits.clear();
            for run in runs {
                for (image, block) in run {
                    for _ in 0..w[*image] {
                        hits.extend_from_slice(block);
                    }
                }
            }
            aps.push(all_point_ap(&hits, npos as usize));
        }
        numpy_mean(&aps)
    }
}
