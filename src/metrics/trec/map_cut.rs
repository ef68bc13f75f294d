//! `map_cut_k`: average precision with the sum cut at rank k (trec_eval `m_map_cut.c`).
//!
//! map_cut_k = Σ_{i≤k, b_i = 1} (Σ_{j≤i} b_j / i) / num_rel; 0 if num_rel = 0.

use super::map::ap_sum;
use super::ResRels;

pub fn map_cut(r: &ResRels, k: usize) -> f64 {
    if r.num_rel == 0 {
        return 0.0;
    }
    ap_sum(r, k).0 / r.num_rel as f64
}
