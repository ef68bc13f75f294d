//! `COCOeval.accumulate()` (pycocotools 2.0.8 `cocoeval.py`) for one category: every image's
//! `evaluateImg` result, merged by score, turned into the precision at the recall thresholds and the final
//! recall, per IoU threshold, area range and maxDets.
//!
//! For each (area range `a`, maxDets `m`): the first `m` detections of each image, concatenated in image
//! order and sorted by score with a stable sort; `npig` = the number of GT not ignored (none: precision and
//! recall stay −1). Per IoU threshold: `tp`, `fp` = cumulative counts (ignored detections add to neither but
//! keep their place), `rc = tp / npig`, `pr = tp / (fp + tp + 2^-52)`, `recall = rc[-1]` (0 without
//! detections); `pr[i-1] = max(pr[i-1], pr[i])` from the right; `q[r] = pr[searchsorted_left(rc, recThrs[r])]`,
//! 0 from the first threshold beyond the last detection on.

use super::evaluate_img::{self, by_score_desc, Category, CellEval, FP, TP};
use super::{Input, Params};

/// `np.spacing(1)`.
pub const SPACING_1: f64 = f64::EPSILON;

/// One category's slice of `precision` (`[t][a][m][r]`) and `recall` (`[t][a][m]`), and per image
/// `[tp, fp, fn]` at IoU 0.5, first area range, largest maxDets.
#[derive(Clone, Debug, Default)]
pub struct CategoryResult {
    pub precision: Vec<f64>,
    pub recall: Vec<f64>,
    pub per_image: Vec<(usize, [u64; 3])>,
}

/// Evaluates and accumulates one category.
pub fn category(input: &Input, p: &Params, cat: &Category) -> CategoryResult {
    let evals: Vec<CellEval> = cat
        .cells
        .iter()
        .map(|c| evaluate_img::evaluate_cell(input, p, c))
        .collect();
    accumulate(p, &evals)
}

/// The accumulation proper, from the cells' `evaluateImg` results (in image order).
pub fn accumulate(p: &Params, evals: &[CellEval]) -> CategoryResult {
    let (t_n, r_n, a_n, m_n) = (
        p.iou_thrs.len(),
        p.rec_thrs.len(),
        p.area_rng.len(),
        p.max_dets.len(),
    );
    let mut res = CategoryResult {
        precision: vec![-1.0; t_n * a_n * m_n * r_n],
        recall: vec![-1.0; t_n * a_n * m_n],
        per_image: Vec::new(),
    };
    let order = score_order(evals);
    let mut rc: Vec<f64> = Vec::with_capacity(order.len());
    let mut pr: Vec<f64> = Vec::with_capacity(order.len());
    for ai in 0..a_n {
        let npig: u64 = evals.iter().map(|e| e.npig[ai]).sum();
        if npig == 0 {
            continue;
        }
        for (mi, &max_det) in p.max_dets.iter().enumerate() {
            for ti in 0..t_n {
                rc.clear();
                pr.clear();
                let (mut tp, mut fp) = (0u64, 0u64);
                for &(_, c, d) in &order {
                    if d as usize >= max_det {
                        continue;
                    }
                    let e = &evals[c as usize];
                    let nd = e.scores.len();
                    match e.state[(ai * t_n + ti) * nd + d as usize] {
                        TP => tp += 1,
                        FP => fp += 1,
                        _ => {}
                    }
                    let (tpf, fpf) = (tp as f64, fp as f64);
                    rc.push(tpf / npig as f64);
                    pr.push(tpf / (fpf + tpf + SPACING_1));
                }
                let slot = (ti * a_n + ai) * m_n + mi;
                res.recall[slot] = rc.last().copied().unwrap_or(0.0);
                for i in (1..pr.len()).rev() {
                    if pr[i] > pr[i - 1] {
                        pr[i - 1] = pr[i];
                    }
                }
                let q = &mut res.precision[slot * r_n..(slot + 1) * r_n];
                for (ri, &thr) in p.rec_thrs.iter().enumerate() {
                    let pi = rc.partition_point(|&x| x < thr);
                    match pr.get(pi) {
                        Some(v) => q[ri] = *v,
                        None => {
                            q[ri..].fill(0.0);
                            break;
                        }
                    }
                }
            }
        }
    }
    res.per_image = per_image(p, evals);
    res
}

/// Per image counts (TP, FP, unmatched GT) at IoU .5 (if it is a threshold), first area range, all detections
/// kept; empty without an IoU of .5.
/// A category's detections as (score, cell, position in the cell): concatenation order, then a stable sort by
/// score, descending. Equal to the mergesort of `np.concatenate(dtScores)` for every maxDets (a subsequence of a
/// stable sort is the stable sort of the subsequence).
pub(super) fn score_order(evals: &[CellEval]) -> Vec<(f64, u32, u32)> {
    let mut order: Vec<(f64, u32, u32)> = evals
        .iter()
        .enumerate()
        .flat_map(|(c, e)| {
            e.scores
                .iter()
                .enumerate()
                .map(move |(d, s)| (*s, c as u32, d as u32))
        })
        .collect();
    order.sort_by(|x, y| by_score_desc(x.0, y.0));
    order
}

fn per_image(p: &Params, evals: &[CellEval]) -> Vec<(usize, [u64; 3])> {
    let mut out = Vec::new();
    if let Some(t50) = p.iou_thrs.iter().position(|&t| t == 0.5) {
        if !p.area_rng.is_empty() {
            for e in evals {
                let nd = e.scores.len();
                let row = &e.state[t50 * nd..(t50 + 1) * nd];
                let tp = row.iter().filter(|&&s| s == TP).count() as u64;
                let fp = row.iter().filter(|&&s| s == FP).count() as u64;
                out.push((e.image, [tp, fp, e.unmatched[t50]]));
            }
        }
    }
    out
}
