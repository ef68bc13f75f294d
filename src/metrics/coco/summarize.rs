//! `COCOeval.summarize()` for bounding boxes (pycocotools 2.0.8 `cocoeval.py`, `_summarizeDets`): the 12
//! `stats` and their printed lines.
//!
//! Each stat is `np.mean(s[s > -1])` of `precision[t, :, :, aind, mind]` (AP) or `recall[t, :, aind, mind]`
//! (AR), `t` all thresholds or those equal to `iouThr`, `aind` the area ranges labelled `areaRng`, `mind` the
//! maxDets equal to `maxDets`; −1 when no entry is > −1. The mean is NumPy's (pairwise sum over the entries in
//! row-major order, then one division). The first line asks for `maxDets = 100` literally; the others use
//! `maxDets[0..3]` (sorted).

use super::{Eval, Params};
use crate::metrics::mean::numpy_sum;

/// The ids of `stats[0..12]` (docs/specs/families.md section 3).
pub const STAT_IDS: [&str; 12] = [
    "AP", "AP50", "AP75", "APs", "APm", "APl", "AR1", "AR10", "AR100", "ARs", "ARm", "ARl",
];

/// One `_summarize(ap, iouThr, areaRng, maxDets)` call.
#[derive(Clone, Debug, PartialEq)]
pub struct Query {
    pub ap: bool,
    pub iou_thr: Option<f64>,
    pub area: &'static str,
    pub max_dets: usize,
}

/// The 12 calls of `_summarizeDets`, with `max_dets` the sorted maxDets (at least 3).
pub fn queries(max_dets: &[usize]) -> Vec<Query> {
    let md = |i: usize| max_dets.get(i).copied().unwrap_or(0);
    let q = |ap: bool, iou_thr: Option<f64>, area: &'static str, max_dets: usize| Query {
        ap,
        iou_thr,
        area,
        max_dets,
    };
    vec![
        q(true, None, "all", 100),
        q(true, Some(0.5), "all", md(2)),
        q(true, Some(0.75), "all", md(2)),
        q(true, None, "small", md(2)),
        q(true, None, "medium", md(2)),
        q(true, None, "large", md(2)),
        q(false, None, "all", md(0)),
        q(false, None, "all", md(1)),
        q(false, None, "all", md(2)),
        q(false, None, "small", md(2)),
        q(false, None, "medium", md(2)),
        q(false, None, "large", md(2)),
    ]
}

/// The entries `_summarize` reads for query `q`: the IoU threshold indices, and the (area range, maxDets)
/// index pairs of `s[..., aind, mind]` (the two index lists broadcast together).
pub fn selection(p: &Params, q: &Query) -> (Vec<usize>, Vec<(usize, usize)>) {
    let ts: Vec<usize> = (0..p.iou_thrs.len())
        .filter(|&t| q.iou_thr.is_none_or(|x| p.iou_thrs[t] == x))
        .collect();
    let aind: Vec<usize> = (0..p.area_lbl.len())
        .filter(|&a| p.area_lbl[a] == q.area)
        .collect();
    let mind: Vec<usize> = (0..p.max_dets.len())
        .filter(|&m| p.max_dets[m] == q.max_dets)
        .collect();
    let pairs: Vec<(usize, usize)> = match (aind.len(), mind.len()) {
        (0, _) | (_, 0) => Vec::new(),
        (1, _) => mind.iter().map(|&m| (aind[0], m)).collect(),
        (_, 1) => aind.iter().map(|&a| (a, mind[0])).collect(),
        (x, y) if x == y => aind.iter().copied().zip(mind.iter().copied()).collect(),
        _ => Vec::new(),
    };
    (ts, pairs)
}

/// `_summarize`: the mean, or −1 (`None` here) when no entry is > −1. With `category`, only that
/// category's entries (`precision[:, :, k, a, m]`, as per-category AP is commonly read off the array).
pub fn summarize_one(e: &Eval, q: &Query, category: Option<usize>) -> Option<f64> {
    let [_, r_n, k_n, _, _] = e.dims();
    let (ts, pairs) = selection(&e.params, q);
    let ks: Vec<usize> = match category {
        Some(k) => vec![k],
        None => (0..k_n).collect(),
    };
    let mut vals: Vec<f64> = Vec::new();
    for &t in &ts {
        if q.ap {
            for r in 0..r_n {
                for &k in &ks {
                    for &(a, m) in &pairs {
                        vals.push(e.precision_at(t, r, k, a, m));
                    }
                }
            }
        } else {
            for &k in &ks {
                for &(a, m) in &pairs {
                    vals.push(e.recall_at(t, k, a, m));
                }
            }
        }
    }
    vals.retain(|&v| v > -1.0);
    if vals.is_empty() {
        None
    } else {
        Some(numpy_sum(&vals) / vals.len() as f64)
    }
}

/// `self.stats`: the 12 values, `None` for −1.
pub fn stats(e: &Eval) -> Vec<Option<f64>> {
    queries(&e.params.max_dets)
        .iter()
        .map(|q| summarize_one(e, q, None))
        .collect()
}

/// The 12 lines `summarize()` prints, each ending in `\n`, from the stats `stats` computed for `e`.
pub fn summary_text(e: &Eval, stats: &[Option<f64>]) -> String {
    let p = &e.params;
    let mut out = String::new();
    for (q, s) in queries(&p.max_dets).iter().zip(stats) {
        let (title, kind) = if q.ap {
            ("Average Precision", "(AP)")
        } else {
            ("Average Recall", "(AR)")
        };
        let iou = match q.iou_thr {
            Some(t) => format!("{t:.2}"),
            None => format!(
                "{:.2}:{:.2}",
                p.iou_thrs.first().copied().unwrap_or(f64::NAN),
                p.iou_thrs.last().copied().unwrap_or(f64::NAN)
            ),
        };
        out.push_str(&format!(
            " {title:<18} {kind} @[ IoU={iou:<9} | area={:>6} | maxDets={:>3} ] = {:.3}\n",
            q.area,
            q.max_dets,
            s.unwrap_or(-1.0)
        ));
    }
    out
}
