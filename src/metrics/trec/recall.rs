//! `recall_k`: Σ_{i≤k} b_i / num_rel; 0 if num_rel = 0 (trec_eval `m_recall.c`).

use super::ResRels;

pub fn recall(r: &ResRels, k: usize) -> f64 {
    if r.num_rel == 0 {
        return 0.0;
    }
    r.rel_in_top(k) as f64 / r.num_rel as f64
}
