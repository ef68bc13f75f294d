//! COCO's 12 `stats` on a multiset of images: image i counted `w[i]` times, exactly as pycocotools 2.0.8
//! (`COCOeval.evaluate()`, `accumulate()`, `summarize()`) computes them on a set in which image i appears
//! `w[i]` times (ids made unique, the copies of an image adjacent in sorted image order), without
//! evaluating any image twice.
//!
//! `evaluateImg` is per image and category, so a copy's matches are its original's: every cell is
//! evaluated once ([`WeightedEval::new`]). `accumulate()` concatenates the cells' detections in image order and
//! sorts them by score with a stable mergesort: with copies, a run of equal scores within one cell is
//! repeated as a block (copy 1's detections of that score, then copy 2's…), never detection by detection.
//! The runs are found once; a replicate sweeps them with weights.
//!
//! A replicate needs only the precision at the true-positive points: `pr` made monotone from the right and
//! read at the first point whose recall reaches a threshold is the maximum of `pr` over the points from there
//! on; that point is a true positive (recall only grows there), and a false positive or an ignored detection
//! never has a higher `pr` than the true positive before it (same `tp`, as many or more `fp`). So the
//! sweep keeps `pr` at the true positives (in the same binary64 expression as `accumulate()`; every IoU
//! threshold of a pair in one pass, [`super::weighted_sweep`]), and recall is the weighted true-positive
//! count over the weighted `npig`.

use super::evaluate_img::{self, by_score_desc, CellEval, IGNORED, TP};
use super::summarize::{queries, selection, Query};
use super::weighted_sweep::{first_points, stream, Stream, Sweep, LANES};
use super::{Input, Params};
use crate::metrics::mean::numpy_sum;
use std::cmp::Ordering;

/// The (area range, maxDets) index pairs whose precision, and those whose recall, the 12 stats read.
#[derive(Clone, Debug, Default)]
struct Needs {
    precision: Vec<(usize, usize)>,
    recall: Vec<(usize, usize)>,
}

impl Needs {
    fn of(p: &Params) -> Needs {
        let mut n = Needs::default();
        for q in queries(&p.max_dets) {
            let list = if q.ap {
                &mut n.precision
            } else {
                &mut n.recall
            };
            for pair in selection(p, &q).1 {
                if !list.contains(&pair) {
                    list.push(pair);
                }
            }
        }
        n
    }
}

/// One category's evaluated cells, reduced to what a replicate reads.
#[derive(Clone, Debug, Default)]
struct Category {
    /// Each cell's image index.
    images: Vec<u32>,
    /// Per area range: (cell, GT not ignored) for the cells that have some.
    npig: Vec<Vec<(u32, u32)>>,
    /// Per recall pair: the cells with a true positive at some IoU threshold, and their counts of true
    /// positives, T per cell.
    tp: Vec<(Vec<u32>, Vec<u32>)>,
    /// Per precision pair and group of [`LANES`] IoU thresholds (`pair * groups + g`): the detections in
    /// `accumulate()`'s order ([`stream`]).
    streams: Vec<Stream>,
}

/// `accumulate()`'s order of a category's detections (cell, rank in the cell), and where each run of equal
/// scores within one cell starts.
fn merged_order(evals: &[CellEval]) -> (Vec<(u32, u32)>, Vec<bool>) {
    let order = super::accumulate::score_order(evals);
    let start = (0..order.len())
        .map(|i| {
            i == 0
                || order[i - 1].1 != order[i].1
                || by_score_desc(order[i - 1].0, order[i].0) != Ordering::Equal
        })
        .collect();
    (order.iter().map(|x| (x.1, x.2)).collect(), start)
}

impl Category {
    fn new(p: &Params, needs: &Needs, evals: &[CellEval]) -> Category {
        let t_n = p.iou_thrs.len();
        let (order, start) = merged_order(evals);
        let state = |e: &CellEval, a: usize, t: usize, d: usize| {
            e.state[(a * t_n + t) * e.scores.len() + d]
        };
        let mut tp = Vec::with_capacity(needs.recall.len());
        for &(a, m) in &needs.recall {
            let max_det = p.max_dets[m];
            let (mut cells, mut counts) = (Vec::new(), Vec::new());
            for (c, e) in evals.iter().enumerate() {
                let per_t = (0..t_n).map(|t| {
                    (0..e.scores.len().min(max_det))
                        .filter(|&d| state(e, a, t, d) == TP)
                        .count() as u32
                });
                let at = counts.len();
                counts.extend(per_t);
                if counts[at..].iter().all(|&n| n == 0) {
                    counts.truncate(at);
                } else {
                    cells.push(c as u32);
                }
            }
            tp.push((cells, counts));
        }
        let mut streams = Vec::with_capacity(needs.precision.len() * t_n.div_ceil(LANES));
        for &(a, m) in &needs.precision {
            let max_det = p.max_dets[m] as u32;
            for g in (0..t_n).step_by(LANES) {
                let lanes = g..t_n.min(g + LANES);
                streams.push(stream(&order, &start, lanes, |c, d, t| {
                    if d < max_det {
                        state(&evals[c as usize], a, t, d as usize)
                    } else {
                        IGNORED
                    }
                }));
            }
        }
        Category {
            images: evals.iter().map(|e| e.image as u32).collect(),
            npig: (0..p.area_rng.len())
                .map(|a| {
                    evals
                        .iter()
                        .enumerate()
                        .filter(|(_, e)| e.npig[a] > 0)
                        .map(|(c, e)| (c as u32, e.npig[a] as u32))
                        .collect()
                })
                .collect(),
            tp,
            streams,
        }
    }
}

/// A replicate's precision and recall lists (pycocotools' `precision` and `recall` arrays, for the pairs
/// read), and per pair whether some category is −1 there.
struct Lists<'a> {
    precision: &'a [f64],
    recall: &'a [f64],
    missing_precision: &'a [bool],
    missing_recall: &'a [bool],
}

/// Per-cell evaluation of every category, kept for weighted replicates of the 12 stats.
#[derive(Clone, Debug)]
pub struct WeightedEval {
    params: Params,
    needs: Needs,
    n_images: usize,
    categories: Vec<Category>,
}

impl WeightedEval {
    /// Evaluates every image and category once (`evaluateImg`), as [`super::evaluate`] does.
    pub fn new(input: &Input, params: &Params) -> WeightedEval {
        let mut params = params.clone();
        params.max_dets.sort_unstable();
        let k = if params.use_cats {
            input.n_categories
        } else {
            1
        };
        let needs = Needs::of(&params);
        let groups = evaluate_img::group(input, params.use_cats, k);
        let categories = crate::par::map(
            groups.len(),
            || (),
            |_, i| {
                let evals: Vec<CellEval> = groups[i]
                    .cells
                    .iter()
                    .map(|c| evaluate_img::evaluate_cell(input, &params, c))
                    .collect();
                Category::new(&params, &needs, &evals)
            },
        );
        WeightedEval {
            params,
            needs,
            n_images: input.n_images,
            categories,
        }
    }

    /// The number of images (the length of the weights).
    pub fn images(&self) -> usize {
        self.n_images
    }

    /// `stats` (`None` for −1) with image i counted `w[i]` times (`w` indexed as `Input`'s images).
    pub fn stats(&self, w: &[u32]) -> Vec<Option<f64>> {
        let p = &self.params;
        let (t_n, r_n, k_n) = (p.iou_thrs.len(), p.rec_thrs.len(), self.categories.len());
        let np = self.needs.precision.len();
        let nr = self.needs.recall.len();
        let mut precision = vec![-1.0; np * t_n * k_n * r_n];
        let mut recall = vec![-1.0; nr * t_n * k_n];
        let groups = t_n.div_ceil(LANES);
        let mut bucket = vec![0.0; LANES * (r_n + 1)];
        let mut ks = Vec::with_capacity(r_n);
        let mut wc = Vec::new();
        let mut tps = Vec::with_capacity(t_n);
        let mut missing_precision = vec![false; np];
        let mut missing_recall = vec![false; nr];
        for (k, cat) in self.categories.iter().enumerate() {
            wc.clear();
            wc.extend(
                cat.images
                    .iter()
                    .map(|&i| w.get(i as usize).copied().unwrap_or(0)),
            );
            let npig = |a: usize| -> u64 {
                cat.npig[a]
                    .iter()
                    .map(|&(c, n)| wc[c as usize] as u64 * n as u64)
                    .sum()
            };
            for (pi, &(a, _)) in self.needs.precision.iter().enumerate() {
                let n = npig(a);
                if n == 0 {
                    missing_precision[pi] = true;
                    continue;
                }
                first_points(n, &p.rec_thrs, &mut ks);
                for (g, t0) in (0..t_n).step_by(LANES).enumerate() {
                    let lanes = t_n.min(t0 + LANES) - t0;
                    let mut sweep = Sweep::new(&ks, &mut bucket, lanes);
                    sweep.run(&cat.streams[pi * groups + g], &wc);
                    for t in t0..t0 + lanes {
                        let at = (pi * t_n + t) * r_n * k_n + k;
                        sweep.read(t - t0, &mut precision[at..], k_n);
                    }
                }
            }
            for (ri, &(a, _)) in self.needs.recall.iter().enumerate() {
                let n = npig(a);
                if n == 0 {
                    missing_recall[ri] = true;
                    continue;
                }
                let (cells, counts) = &cat.tp[ri];
                tps.clear();
                tps.resize(t_n, 0);
                for (&c, row) in cells.iter().zip(counts.chunks_exact(t_n)) {
                    let w = u64::from(wc[c as usize]);
                    for (acc, &x) in tps.iter_mut().zip(row) {
                        *acc += w * u64::from(x);
                    }
                }
                for (t, &tp) in tps.iter().enumerate() {
                    recall[(ri * t_n + t) * k_n + k] = tp as f64 / n as f64;
                }
            }
        }
        let lists = Lists {
            precision: &precision,
            recall: &recall,
            missing_precision: &missing_precision,
            missing_recall: &missing_recall,
        };
        queries(&p.max_dets)
            .iter()
            .map(|q| self.query(q, &lists))
            .collect()
    }

    /// One stat from the precision and recall lists, as `summarize()` averages its selection: the values other
    /// than −1, in the order of pycocotools' array (threshold, recall threshold, category, area, maxDets).
    fn query(&self, q: &Query, lists: &Lists) -> Option<f64> {
        let p = &self.params;
        let (t_n, r_n, k_n) = (p.iou_thrs.len(), p.rec_thrs.len(), self.categories.len());
        let (ts, pairs) = selection(p, q);
        let (list, values, missing) = if q.ap {
            (
                &self.needs.precision,
                lists.precision,
                lists.missing_precision,
            )
        } else {
            (&self.needs.recall, lists.recall, lists.missing_recall)
        };
        let at: Vec<usize> = pairs
            .iter()
            .map(|x| list.iter().position(|y| y == x).unwrap_or(0))
            .collect();
        let per_t = if q.ap { r_n * k_n } else { k_n };
        let contiguous = ts.windows(2).all(|x| x[1] == x[0] + 1);
        if let ([pi], Some(&t0), true) = (at.as_slice(), ts.first(), contiguous) {
            if !missing[*pi] {
                // One pair, every category defined: the selection is one slice of the list, in its order.
                let from = (pi * t_n + t0) * per_t;
                let vals = &values[from..from + ts.len() * per_t];
                return (!vals.is_empty()).then(|| numpy_sum(vals) / vals.len() as f64);
            }
        }
        let mut vals = Vec::with_capacity(ts.len() * per_t * at.len());
        for &t in &ts {
            if q.ap {
                for r in 0..r_n {
                    for k in 0..k_n {
                        for &pi in &at {
                            vals.push(values[((pi * t_n + t) * r_n + r) * k_n + k]);
                        }
                    }
                }
            } else {
                for k in 0..k_n {
                    for &ri in &at {
                        vals.push(values[(ri * t_n + t) * k_n + k]);
                    }
                }
            }
        }
        vals.retain(|&v| v > -1.0);
        (!vals.is_empty()).then(|| numpy_sum(&vals) / vals.len() as f64)
    }
}
