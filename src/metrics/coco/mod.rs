//! COCO bounding-box evaluation as pycocotools 2.0.8 computes it (`pycocotools/cocoeval.py`, `COCOeval` with
//! `iouType='bbox'`; IoU from `common/maskApi.c` `bbIou`), reproduced operation for operation in binary64:
//!
//! - `evaluate()`: per image and category, detections sorted by score (stable, as `np.argsort(-s,
//!   kind='mergesort')`) and cut to `maxDets[-1]`; per area range, GT sorted ignore-last (stable); greedy
//!   matching per IoU threshold `min(t, 1 − 1e-10)` where a crowd GT can be matched many times
//!   ([`evaluate_img`]);
//! - `accumulate()`: per category, area range and maxDets, all images' detections merged by score (stable),
//!   `tp`/`fp` cumulative sums, `rc = tp / npig`, `pr = tp / (fp + tp + spacing(1))`, `pr` made monotone from
//!   the right, then read at the 101 recall thresholds with `np.searchsorted(rc, recThrs, 'left')`
//!   ([`accumulate`]);
//! - `summarize()`: the 12 `stats` as `np.mean` of the entries > −1 (−1 when none), and its printed lines
//!   ([`summarize`]).
//!
//! The input is already indexed the way `COCO.loadRes` and `COCOeval._prepare` see it (sorted unique image
//! and category ids, GT in `getAnnIds`/`loadAnns` order); the COCO JSON reader of the formats layer, a layer
//! above this one, builds it.

pub mod accumulate;
pub mod cost;
pub mod evaluate_img;
pub mod summarize;
pub mod voc;
pub mod weighted;
mod weighted_sweep;

pub use summarize::{stats, summary_text, STAT_IDS};

/// One GT annotation: `image` and `category` are indices into the sorted unique id lists.
#[derive(Clone, Debug, PartialEq)]
pub struct Gt {
    /// The annotation id (`dtMatches` stores it: a match to id 0 counts as no match, as in pycocotools).
    pub id: i64,
    pub image: usize,
    pub category: usize,
    /// `[x, y, w, h]`.
    pub bbox: [f64; 4],
    /// The `area` field of the file (not w·h).
    pub area: f64,
    pub crowd: bool,
}

/// One detection (`loadRes`): its area is `w·h`.
#[derive(Clone, Debug, PartialEq)]
pub struct Det {
    pub image: usize,
    pub category: usize,
    pub bbox: [f64; 4],
    pub score: f64,
}

/// The evaluation's input: GT in `_gts` order (grouping is stable, so each image × category keeps it),
/// detections in results-file order.
#[derive(Clone, Debug, Default)]
pub struct Input {
    pub n_images: usize,
    pub n_categories: usize,
    pub gts: Vec<Gt>,
    pub dets: Vec<Det>,
}

/// `Params.setDetParams()`, with `maxDets` sorted as `evaluate()` sorts it.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    pub iou_thrs: Vec<f64>,
    pub rec_thrs: Vec<f64>,
    pub max_dets: Vec<usize>,
    pub area_rng: Vec<[f64; 2]>,
    pub area_lbl: Vec<String>,
    pub use_cats: bool,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            iou_thrs: linspace(0.5, 0.95, 10),
            rec_thrs: linspace(0.0, 1.0, 101),
            max_dets: vec![1, 10, 100],
            area_rng: vec![[0.0, 1e10], [0.0, 1024.0], [1024.0, 9216.0], [9216.0, 1e10]],
            area_lbl: ["all", "small", "medium", "large"]
                .map(String::from)
                .to_vec(),
            use_cats: true,
        }
    }
}

/// `np.linspace(start, stop, num, endpoint=True)` in float64: `i · ((stop − start) / (num − 1)) + start`, the
/// last value set to `stop` (NumPy 2 `_core/function_base.py`).
pub fn linspace(start: f64, stop: f64, num: usize) -> Vec<f64> {
    if num == 0 {
        return Vec::new();
    }
    if num == 1 {
        return vec![start];
    }
    let div = (num - 1) as f64;
    let delta = stop - start;
    let step = delta / div;
    let mut v: Vec<f64> = (0..num)
        .map(|i| {
            if step == 0.0 {
                i as f64 / div * delta + start
            } else {
                i as f64 * step + start
            }
        })
        .collect();
    v[num - 1] = stop;
    v
}

/// `self.eval` of `accumulate()`: `precision` is `[T, R, K, A, M]` and `recall` `[T, K, A, M]`, row-major,
/// −1 where a category has no non-ignored GT.
#[derive(Clone, Debug, PartialEq)]
pub struct Eval {
    pub params: Params,
    /// K: the number of categories evaluated (1 when `use_cats` is false).
    pub k: usize,
    pub precision: Vec<f64>,
    pub recall: Vec<f64>,
    /// Per image, at the IoU threshold 0.5 (when the thresholds include it), the first area range and the
    /// largest maxDets, summed over categories: `[tp, fp, fn]` (ignored detections and GT not counted).
    pub per_image: Vec<[u64; 3]>,
}

impl Eval {
    pub fn dims(&self) -> [usize; 5] {
        let p = &self.params;
        [
            p.iou_thrs.len(),
            p.rec_thrs.len(),
            self.k,
            p.area_rng.len(),
            p.max_dets.len(),
        ]
    }
    pub fn precision_at(&self, t: usize, r: usize, k: usize, a: usize, m: usize) -> f64 {
        let [_, rr, kk, aa, mm] = self.dims();
        self.precision[(((t * rr + r) * kk + k) * aa + a) * mm + m]
    }
    pub fn recall_at(&self, t: usize, k: usize, a: usize, m: usize) -> f64 {
        let [_, _, kk, aa, mm] = self.dims();
        self.recall[((t * kk + k) * aa + a) * mm + m]
    }
}

/// `COCOeval.evaluate()` then `accumulate()`, category by category (categories are independent; natively
/// they run on all cores, the result being the same).
pub fn evaluate(input: &Input, params: &Params) -> Eval {
    let mut params = params.clone();
    params.max_dets.sort_unstable();
    let k = if params.use_cats {
        input.n_categories
    } else {
        1
    };
    let groups = evaluate_img::group(input, params.use_cats, k);
    let [t, r, a, m] = [
        params.iou_thrs.len(),
        params.rec_thrs.len(),
        params.area_rng.len(),
        params.max_dets.len(),
    ];
    let mut precision = vec![-1.0; t * r * k * a * m];
    let mut recall = vec![-1.0; t * k * a * m];
    let mut per_image = vec![[0u64; 3]; input.n_images];
    // A batch of categories at a time, each result copied in place then dropped: the peak is the two arrays
    // plus one batch (cost::BATCH), not twice the arrays.
    for first in (0..groups.len()).step_by(cost::BATCH) {
        let last = (first + cost::BATCH).min(groups.len());
        let results = run_categories(input, &params, &groups[first..last]);
        for (kk, res) in (first..last).zip(results) {
            for ti in 0..t {
                for ai in 0..a {
                    for mi in 0..m {
                        let local = (ti * a + ai) * m + mi;
                        recall[((ti * k + kk) * a + ai) * m + mi] = res.recall[local];
                        for ri in 0..r {
                            precision[(((ti * r + ri) * k + kk) * a + ai) * m + mi] =
                                res.precision[local * r + ri];
                        }
                    }
                }
            }
            for (img, c) in res.per_image {
                for j in 0..3 {
                    per_image[img][j] += c[j];
                }
            }
        }
    }
    Eval {
        params,
        k,
        precision,
        recall,
        per_image,
    }
}

/// The evaluation and accumulation of the categories `groups`, shared among the cores ([`crate::par::map`]).
fn run_categories(
    input: &Input,
    params: &Params,
    groups: &[evaluate_img::Category],
) -> Vec<accumulate::CategoryResult> {
    crate::par::map(
        groups.len(),
        || (),
        |_, i| accumulate::category(input, params, &groups[i]),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linspace_matches_numpy() {
        // np.linspace(.5, .95, 10): 0.8999999999999999 at index 8, exactly .75 at index 5.
        let t = linspace(0.5, 0.95, 10);
        assert_eq!(t[8], 0.8999999999999999);
        assert_eq!(t[5], 0.75);
        assert_eq!(t[9], 0.95);
        let r = linspace(0.0, 1.0, 101);
        assert_eq!(r[99], f64::from_bits(0x3fefae147ae147ae));
        assert_eq!(r[7], 0.07);
    }
}
