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
//! sweep keeps `pr` at each true positive (in the same binary64 expression as `accumulate()`), and recall is
//! the weighted true-positive count over the weighted `npig`.

use super::accumulate::SPACING_1;
use super::evaluate_img::{self, by_score_desc, CellEval, FP, IGNORED, TP};
use super::summarize::{queries, selection};
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

/// A stream entry that heads a run of equal scores in one cell with two or more entries: its length is
/// `entry >> 2`, the run's entries follow. Other entries are `cell << 2 | TP` or `cell << 2 | FP`.
const RUN: u32 = 3;

/// One category's evaluated cells, reduced to what a replicate reads.
#[derive(Clone, Debug, Default)]
struct Category {
    /// Each cell's image index.
    images: Vec<u32>,
    /// Per area range: (cell, GT not ignored) for the cells that have some.
    npig: Vec<Vec<(u32, u32)>>,
    /// Per recall pair and IoU threshold (`pair * T + t`): (cell, true positives) where there are some.
    tp: Vec<Vec<(u32, u32)>>,
    /// Per precision pair and IoU threshold (`pair * T + t`): the detections in `accumulate()`'s order, the
    /// ignored ones and those beyond maxDets left out (they add to neither count), cut after the last true
    /// positive (what follows it changes no precision read); see [`RUN`].
    streams: Vec<Vec<u32>>,
}

/// `accumulate()`'s order of a category's detections (cell, rank in the cell), and where each run of equal
/// scores within one cell starts.
fn merged_order(evals: &[CellEval]) -> (Vec<(u32, u32)>, Vec<bool>) {
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
    let start = (0..order.len())
        .map(|i| {
            i == 0
                || order[i - 1].1 != order[i].1
                || by_score_desc(order[i - 1].0, order[i].0) != Ordering::Equal
        })
        .collect();
    (order.iter().map(|x| (x.1, x.2)).collect(), start)
}

/// One precision stream (see [`Category::streams`]).
fn stream(order: &[(u32, u32)], start: &[bool], keep: impl Fn(u32, u32) -> u8) -> Vec<u32> {
    let mut out = Vec::new();
    let mut end = 0;
    let mut run: Vec<u32> = Vec::new();
    let mut i = 0;
    while i < order.len() {
        let mut j = i + 1;
        while j < order.len() && !start[j] {
            j += 1;
        }
        run.clear();
        for &(c, d) in &order[i..j] {
            let s = keep(c, d);
            if s == TP || s == FP {
                run.push(c << 2 | s as u32);
            }
        }
        if run.len() > 1 {
            out.push((run.len() as u32) << 2 | RUN);
        }
        out.extend_from_slice(&run);
        if run.iter().any(|&e| e & 3 == TP as u32) {
            end = out.len();
        }
        i = j;
    }
    out.truncate(end);
    out
}

impl Category {
    fn new(p: &Params, needs: &Needs, evals: &[CellEval]) -> Category {
        let t_n = p.iou_thrs.len();
        let (order, start) = merged_order(evals);
        let state = |e: &CellEval, a: usize, t: usize, d: usize| {
            e.state[(a * t_n + t) * e.scores.len() + d]
        };
        let mut tp = Vec::with_capacity(needs.recall.len() * t_n);
        for &(a, m) in &needs.recall {
            let max_det = p.max_dets[m];
            for t in 0..t_n {
                tp.push(
                    evals
                        .iter()
                        .enumerate()
                        .map(|(c, e)| {
                            let n = (0..e.scores.len().min(max_det))
                                .filter(|&d| state(e, a, t, d) == TP)
                                .count();
                            (c as u32, n as u32)
                        })
                        .filter(|x| x.1 > 0)
                        .collect(),
                );
            }
        }
        let mut streams = Vec::with_capacity(needs.precision.len() * t_n);
        for &(a, m) in &needs.precision {
            let max_det = p.max_dets[m] as u32;
            for t in 0..t_n {
                streams.push(stream(&order, &start, |c, d| {
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

/// The weighted sweep of one precision stream: the precision at each recall threshold into `q`. `events` is
/// scratch space (`pr` at each true positive).
fn sweep(stream: &[u32], at: &Point, wc: &[u32], q: &mut [f64], events: &mut Vec<f64>) {
    events.clear();
    let (mut tp, mut fp) = (0u64, 0u64);
    let pr = |tp: u64, fp: u64| tp as f64 / (fp as f64 + tp as f64 + SPACING_1);
    let mut i = 0;
    while i < stream.len() {
        let e = stream[i];
        i += 1;
        if e & 3 == RUN {
            // A run of equal scores in one cell: the copies' blocks one after the other.
            let block = &stream[i..i + (e >> 2) as usize];
            i += block.len();
            for _ in 0..wc[(block[0] >> 2) as usize] {
                for &x in block {
                    if x & 3 == TP as u32 {
                        tp += 1;
                        events.push(pr(tp, fp));
                    } else {
                        fp += 1;
                    }
                }
            }
        } else if e & 3 == TP as u32 {
            for _ in 0..wc[(e >> 2) as usize] {
                tp += 1;
                events.push(pr(tp, fp));
            }
        } else {
            fp += wc[(e >> 2) as usize] as u64;
        }
    }
    for x in (1..events.len()).rev() {
        if events[x] > events[x - 1] {
            events[x - 1] = events[x];
        }
    }
    // `np.searchsorted(rc, recThrs, 'left')`: the first point whose recall reaches the threshold is the k-th
    // true positive, k the smallest with k / npig >= thr (the first point when thr <= 0).
    let mut k = 1usize;
    for (slot, &thr) in q.iter_mut().zip(at.rec_thrs) {
        while k <= events.len() && (k as f64 / at.npig as f64) < thr {
            k += 1;
        }
        *slot = if k <= events.len() {
            events[k - 1]
        } else {
            0.0
        };
    }
}

/// What one sweep reads besides its stream: the weighted `npig`, the recall thresholds.
struct Point<'a> {
    npig: u64,
    rec_thrs: &'a [f64],
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
        let mut events = Vec::new();
        let mut wc = Vec::new();
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
                    continue;
                }
                for t in 0..t_n {
                    let at = ((pi * t_n + t) * k_n + k) * r_n;
                    let q = &mut precision[at..at + r_n];
                    let at = Point {
                        npig: n,
                        rec_thrs: &p.rec_thrs,
                    };
                    sweep(&cat.streams[pi * t_n + t], &at, &wc, q, &mut events);
                }
            }
            for (ri, &(a, _)) in self.needs.recall.iter().enumerate() {
                let n = npig(a);
                if n == 0 {
                    continue;
                }
                for t in 0..t_n {
                    let tp: u64 = cat.tp[ri * t_n + t]
                        .iter()
                        .map(|&(c, x)| wc[c as usize] as u64 * x as u64)
                        .sum();
                    recall[(ri * t_n + t) * k_n + k] = tp as f64 / n as f64;
                }
            }
        }
        queries(&p.max_dets)
            .iter()
            .map(|q| {
                let (ts, pairs) = selection(p, q);
                let list = if q.ap {
                    &self.needs.precision
                } else {
                    &self.needs.recall
                };
                let at: Vec<usize> = pairs
                    .iter()
                    .map(|x| list.iter().position(|y| y == x).unwrap_or(0))
                    .collect();
                let mut vals = Vec::new();
                for &t in &ts {
                    if q.ap {
                        for r in 0..r_n {
                            for k in 0..k_n {
                                for &pi in &at {
                                    vals.push(precision[((pi * t_n + t) * k_n + k) * r_n + r]);
                                }
                            }
                        }
                    } else {
                        for k in 0..k_n {
                            for &ri in &at {
                                vals.push(recall[(ri * t_n + t) * k_n + k]);
                            }
                        }
                    }
                }
                vals.retain(|&v| v > -1.0);
                (!vals.is_empty()).then(|| numpy_sum(&vals) / vals.len() as f64)
            })
            .collect()
    }
}
