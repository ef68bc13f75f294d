//! `success_k`: 1 if a relevant document is in the first k, else 0 (trec_eval `m_success.c`).

use super::ResRels;

pub fn success(r: &ResRels, k: usize) -> f64 {
    if r.rel_in_top(k) > 0 {
        1.0
    } else {
        0.0
    }
}
