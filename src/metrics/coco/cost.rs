//! What an evaluation holds at its peak, in bytes, counted before anything is allocated, so that a run can
//! refuse an input or an option that would take it past the memory budget (README, "Limits and the memory
//! budget"). The terms follow [`super::evaluate`]: `precision` (`T×R×K×A×M` binary64) and `recall`
//! (`T×K×A×M`) as pycocotools' `accumulate()` allocates them; per category its report row and PR curves;
//! per GT box and detection what is held for it (the box, its grouping index, `evaluateImg`'s per-threshold
//! state, the score order, the cumulative counts); the largest IoU matrix of one image and category
//! (`computeIoU`: detections cut to `maxDets[-1]` × GT, binary64), once per core.

use super::{Input, Params};
use rustc_hash::FxHashMap;

/// Bytes a category costs besides its `precision` and `recall` slices: its grouping, its name and id, its
/// report row (three scores, two counts, a detail) and its two PR curves of 101 points (x and y).
pub const PER_CATEGORY: u64 = 4096;
/// Bytes an image costs: its id, name, counts and report row.
pub const PER_IMAGE: u64 = 512;
/// Bytes a GT box costs besides its per-threshold state: the box (72), its grouping index, ignore flags.
pub const PER_GT: u64 = 96;
/// Bytes a detection costs besides its per-threshold state: the box (56), its grouping index, its score
/// in the cell and in the category's order (24), the cumulative `rc`/`pr` (16).
pub const PER_DET: u64 = 112;
/// Categories evaluated at once before their results are copied into `precision` and `recall`.
pub const BATCH: usize = 64;
/// Cores that may each hold an IoU matrix.
const CORES: u64 = 2;

/// The cost of an evaluation, by what drives it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cost {
    /// `precision`, `recall` and the per-category and per-image rows: categories × images × the options.
    pub arrays: u64,
    /// The GT boxes' share.
    pub gts: u64,
    /// The detections' share.
    pub dets: u64,
    /// The largest IoU matrix (per core).
    pub iou: u64,
}

impl Cost {
    pub fn total(&self) -> u64 {
        self.arrays
            .saturating_add(self.gts)
            .saturating_add(self.dets)
            .saturating_add(self.iou)
    }
}

/// The cost of evaluating `input` under `p`.
pub fn cost(input: &Input, p: &Params) -> Cost {
    let [t, r, a, m] = [
        p.iou_thrs.len(),
        p.rec_thrs.len(),
        p.area_rng.len(),
        p.max_dets.len(),
    ]
    .map(|x| x as u64);
    let k = if p.use_cats {
        input.n_categories as u64
    } else {
        1
    };
    let per_category = t
        .saturating_mul(a)
        .saturating_mul(m)
        .saturating_mul(r + 1)
        .saturating_mul(8);
    let batch = k.min(BATCH as u64);
    let arrays = per_category
        .saturating_mul(k.saturating_add(batch))
        .saturating_add(k.saturating_mul(PER_CATEGORY))
        .saturating_add((input.n_images as u64).saturating_mul(PER_IMAGE));
    let state = a.saturating_mul(t);
    let gts = (input.gts.len() as u64).saturating_mul(PER_GT + state);
    let dets = (input.dets.len() as u64).saturating_mul(PER_DET + state);
    Cost {
        arrays,
        gts,
        dets,
        iou: largest_iou(input, p).saturating_mul(CORES),
    }
}

/// Bytes of the largest `computeIoU` matrix: over the images and categories (all categories of an image when
/// `use_cats` is false), min(detections, `maxDets[-1]`) × GT × 8.
fn largest_iou(input: &Input, p: &Params) -> u64 {
    let max_det = p.max_dets.iter().copied().max().unwrap_or(0) as u64;
    let key = |cat: usize, img: usize| (if p.use_cats { cat } else { 0 }, img);
    let mut cells: FxHashMap<(usize, usize), (u64, u64)> = FxHashMap::default();
    for g in &input.gts {
        cells.entry(key(g.category, g.image)).or_default().0 += 1;
    }
    for d in &input.dets {
        if let Some(c) = cells.get_mut(&key(d.category, d.image)) {
            c.1 += 1;
        }
    }
    cells
        .values()
        .map(|&(ng, nd)| nd.min(max_det).saturating_mul(ng).saturating_mul(8))
        .max()
        .unwrap_or(0)
}

/// What a refusal names: the option `max_dets` when the defaults (1, 10, 100) would fit; otherwise the
/// ground truth (categories, images, its boxes) or the results (their detections), whichever costs more.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blame {
    MaxDets,
    GroundTruth,
    Results,
}

/// `None` when `input` under `p` fits in `budget` bytes; otherwise what to blame and the cost.
pub fn over(input: &Input, p: &Params, budget: u64) -> Option<(Blame, u64)> {
    let c = cost(input, p);
    let need = c.total();
    if need <= budget {
        return None;
    }
    let defaults = Params {
        max_dets: vec![1, 10, 100],
        ..p.clone()
    };
    if p.max_dets != defaults.max_dets && cost(input, &defaults).total() <= budget {
        return Some((Blame::MaxDets, need));
    }
    let results = c.dets.saturating_add(c.iou / 2);
    let blame = if results > c.arrays.saturating_add(c.gts) {
        Blame::Results
    } else {
        Blame::GroundTruth
    };
    Some((blame, need))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::coco::{Det, Gt};

    fn input(k: usize, images: usize, dets: usize) -> Input {
        Input {
            n_images: images,
            n_categories: k,
            gts: vec![
                Gt {
                    id: 1,
                    image: 0,
                    category: 0,
                    bbox: [0.0, 0.0, 1.0, 1.0],
                    area: 1.0,
                    crowd: false,
                };
                10
            ],
            dets: vec![
                Det {
                    image: 0,
                    category: 0,
                    bbox: [0.0, 0.0, 1.0, 1.0],
                    score: 1.0,
                };
                dets
            ],
        }
    }

    #[test]
    fn categories_options_and_boxes_are_blamed() {
        let p = Params::default();
        // 80 categories and 5,000 images: about 17 MB of arrays and rows.
        let c = cost(&input(80, 5000, 1000), &p);
        assert!(c.arrays < 32 << 20 && c.arrays > 7 << 20, "{c:?}");
        assert_eq!(over(&input(80, 5000, 1000), &p, 2 << 30), None);
        // 200,000 categories: 19 GB of precision.
        let (b, need) = over(&input(200_000, 10, 10), &p, 2 << 30).unwrap();
        assert_eq!(b, Blame::GroundTruth);
        assert!(need > 19_000_000_000, "{need}");
        // 20,000 maxDets values on 4 categories: the option.
        let many = Params {
            max_dets: (1..=20_000).collect(),
            ..p.clone()
        };
        assert_eq!(
            over(&input(4, 10, 10), &many, 2 << 30).map(|x| x.0),
            Some(Blame::MaxDets)
        );
        // 2 million detections under 256 MiB (16 million under 2 GiB alike).
        assert_eq!(
            over(&input(4, 10, 2_000_000), &p, 256 << 20).map(|x| x.0),
            Some(Blame::Results)
        );
    }
}
