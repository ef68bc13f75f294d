//! `COCOeval.computeIoU` and `COCOeval.evaluateImg` (pycocotools 2.0.8 `cocoeval.py`) for one image and
//! category, and the grouping of `_prepare` (`_gts[img, cat]`, `_dts[img, cat]`; with `useCats = 0` the
//! lists of every category are concatenated in category order).

use super::{Input, Params};
use std::cmp::Ordering;

/// A detection's outcome at one IoU threshold, as `accumulate()` reads `dtMatches` and `dtIgnore`.
pub const IGNORED: u8 = 0;
/// Matched to a GT whose id is not 0 and not ignored (`dtm != 0 && !dtIg`).
pub const TP: u8 = 1;
/// Not matched (or matched to GT id 0) and not ignored.
pub const FP: u8 = 2;

/// The GT and detections of one image for one category (or for all categories, `useCats = 0`).
#[derive(Clone, Debug, Default)]
pub struct Cell {
    pub image: usize,
    /// Indices into `Input::gts`, in `_gts` order.
    pub gts: Vec<u32>,
    /// Indices into `Input::dets`, in `_dts` order (results-file order).
    pub dets: Vec<u32>,
}

/// One category's cells, in image order (only images with GT or detections: the others are `None` in
/// `evalImgs`).
#[derive(Clone, Debug, Default)]
pub struct Category {
    pub cells: Vec<Cell>,
}

/// Groups GT and detections by category and image (`_prepare`); `k` categories (1 when `use_cats` is false).
pub fn group(input: &Input, use_cats: bool, k: usize) -> Vec<Category> {
    let key = |cat: usize, img: usize| {
        if use_cats {
            (cat, img, 0)
        } else {
            (0, img, cat)
        }
    };
    let mut g: Vec<u32> = (0..input.gts.len() as u32).collect();
    g.sort_by_key(|&i| {
        let x = &input.gts[i as usize];
        key(x.category, x.image)
    });
    let mut d: Vec<u32> = (0..input.dets.len() as u32).collect();
    d.sort_by_key(|&i| {
        let x = &input.dets[i as usize];
        key(x.category, x.image)
    });
    let gkey = |i: u32| {
        let x = &input.gts[i as usize];
        let (c, im, _) = key(x.category, x.image);
        (c, im)
    };
    let dkey = |i: u32| {
        let x = &input.dets[i as usize];
        let (c, im, _) = key(x.category, x.image);
        (c, im)
    };
    let mut cats: Vec<Category> = (0..k).map(|_| Category::default()).collect();
    let (mut gi, mut di) = (0, 0);
    while gi < g.len() || di < d.len() {
        let kg = g.get(gi).map(|&i| gkey(i));
        let kd = d.get(di).map(|&i| dkey(i));
        let cur = match (kg, kd) {
            (Some(a), Some(b)) => a.min(b),
            (Some(a), None) => a,
            (None, Some(b)) => b,
            (None, None) => break,
        };
        let mut cell = Cell {
            image: cur.1,
            ..Cell::default()
        };
        while gi < g.len() && gkey(g[gi]) == cur {
            cell.gts.push(g[gi]);
            gi += 1;
        }
        while di < d.len() && dkey(d[di]) == cur {
            cell.dets.push(d[di]);
            di += 1;
        }
        if let Some(c) = cats.get_mut(cur.0) {
            c.cells.push(cell);
        }
    }
    cats
}

/// `bbIou` of `maskApi.c` for one detection and one GT box (`[x, y, w, h]`), in double as the C code.
pub fn bb_iou(d: &[f64; 4], g: &[f64; 4], crowd: bool) -> f64 {
    let ga = g[2] * g[3];
    let da = d[2] * d[3];
    let w = (d[2] + d[0]).min(g[2] + g[0]) - d[0].max(g[0]);
    if w <= 0.0 {
        return 0.0;
    }
    let h = (d[3] + d[1]).min(g[3] + g[1]) - d[1].max(g[1]);
    if h <= 0.0 {
        return 0.0;
    }
    let i = w * h;
    let u = if crowd { da } else { da + ga - i };
    i / u
}

/// `np.argsort(-scores, kind='mergesort')`: descending, ties in input order (−0 equals +0); a NaN score
/// (Python's json reads the literal `NaN`) sorts after every number, as NumPy sorts NaN last.
pub fn by_score_desc(a: f64, b: f64) -> Ordering {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        (false, false) => b.partial_cmp(&a).unwrap_or(Ordering::Equal),
    }
}

/// The greedy matching of `evaluateImg` at IoU threshold `t` for one area range: detections in score order
/// (`ious[d * ng + g]`, `ng` = `ig.len()`), GT visited in `order` (not ignored first); a crowd GT can be matched
/// many times. Fills `matched` (per GT) and `dt_gt` (the GT each detection matched, or `None`).
pub fn greedy_match(
    ious: &[f64],
    order: &[usize],
    ig: &[bool],
    crowd: &[bool],
    t: f64,
    matched: &mut [bool],
    dt_gt: &mut [Option<usize>],
) {
    let ng = ig.len();
    matched.fill(false);
    dt_gt.fill(None);
    if ng == 0 {
        return;
    }
    for (di, slot) in dt_gt.iter_mut().enumerate() {
        let row = &ious[di * ng..(di + 1) * ng];
        let mut iou = t.min(1.0 - 1e-10);
        let mut m: Option<usize> = None;
        for &g in order {
            if matched[g] && !crowd[g] {
                continue;
            }
            if let Some(mm) = m {
                if !ig[mm] && ig[g] {
                    break;
                }
            }
            if row[g] < iou {
                continue;
            }
            iou = row[g];
            m = Some(g);
        }
        if let Some(mm) = m {
            *slot = Some(mm);
            matched[mm] = true;
        }
    }
}

/// `evaluateImg` for every area range of one cell.
#[derive(Clone, Debug, Default)]
pub struct CellEval {
    pub image: usize,
    /// `dtScores`: the cell's detections sorted by score and cut to `maxDets[-1]`.
    pub scores: Vec<f64>,
    /// Per area range, the number of GT with `gtIgnore == 0`.
    pub npig: Vec<u64>,
    /// `[a][t][d]` flattened: [`TP`], [`FP`] or [`IGNORED`].
    pub state: Vec<u8>,
    /// Per area range and threshold, GT not ignored and left unmatched (for the per-image FN count).
    pub unmatched: Vec<u64>,
}

/// `computeIoU` + `evaluateImg(img, cat, aRng, maxDets[-1])` for every area range.
pub fn evaluate_cell(input: &Input, p: &Params, cell: &Cell) -> CellEval {
    let max_det = p.max_dets.last().copied().unwrap_or(0);
    let mut dets = cell.dets.clone();
    dets.sort_by(|&a, &b| {
        by_score_desc(input.dets[a as usize].score, input.dets[b as usize].score)
    });
    dets.truncate(max_det);
    let gts: Vec<&super::Gt> = cell.gts.iter().map(|&i| &input.gts[i as usize]).collect();
    let (nd, ng) = (dets.len(), gts.len());
    // ious[d * ng + g], GT in cell order.
    let mut ious = vec![0.0f64; nd * ng];
    for (di, &d) in dets.iter().enumerate() {
        let db = &input.dets[d as usize].bbox;
        for (gi, g) in gts.iter().enumerate() {
            ious[di * ng + gi] = bb_iou(db, &g.bbox, g.crowd);
        }
    }
    let det_area: Vec<f64> = dets
        .iter()
        .map(|&d| {
            let b = &input.dets[d as usize].bbox;
            b[2] * b[3]
        })
        .collect();
    let t_n = p.iou_thrs.len();
    let a_n = p.area_rng.len();
    let mut out = CellEval {
        image: cell.image,
        scores: dets.iter().map(|&d| input.dets[d as usize].score).collect(),
        npig: Vec::with_capacity(a_n),
        state: vec![IGNORED; a_n * t_n * nd],
        unmatched: vec![0; a_n * t_n],
    };
    let mut order: Vec<usize> = (0..ng).collect();
    let mut ig = vec![false; ng];
    let mut matched = vec![false; ng];
    let mut dt_gt: Vec<Option<usize>> = vec![None; nd];
    let crowd: Vec<bool> = gts.iter().map(|g| g.crowd).collect();
    for (ai, rng) in p.area_rng.iter().enumerate() {
        for (gi, g) in gts.iter().enumerate() {
            ig[gi] = g.crowd || g.area < rng[0] || g.area > rng[1];
        }
        // np.argsort(_ignore, kind='mergesort'): not ignored first, file order kept.
        order.clear();
        order.extend((0..ng).filter(|&g| !ig[g]));
        order.extend((0..ng).filter(|&g| ig[g]));
        out.npig
            .push(order.iter().filter(|&&g| !ig[g]).count() as u64);
        for (ti, &t) in p.iou_thrs.iter().enumerate() {
            greedy_match(&ious, &order, &ig, &crowd, t, &mut matched, &mut dt_gt);
            let base = (ai * t_n + ti) * nd;
            for di in 0..nd {
                let (dt_ig, nonzero) = match dt_gt[di] {
                    Some(g) => (ig[g], gts[g].id != 0),
                    None => (false, false),
                };
                let outside = det_area[di] < rng[0] || det_area[di] > rng[1];
                out.state[base + di] = if dt_ig || (!nonzero && outside) {
                    IGNORED
                } else if nonzero {
                    TP
                } else {
                    FP
                };
            }
            out.unmatched[ai * t_n + ti] =
                (0..ng).filter(|&g| !ig[g] && !matched[g]).count() as u64;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iou_of_boxes() {
        let a = [0.0, 0.0, 10.0, 10.0];
        let b = [5.0, 0.0, 10.0, 10.0];
        assert_eq!(bb_iou(&a, &b, false), 50.0 / 150.0);
        // Crowd: intersection over the detection's area.
        assert_eq!(bb_iou(&a, &b, true), 0.5);
        assert_eq!(bb_iou(&a, &[10.0, 0.0, 5.0, 5.0], false), 0.0);
    }
}
