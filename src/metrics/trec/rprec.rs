//! `Rprec`: precision after num_rel documents (trec_eval `m_Rprec.c`).
//!
//! Rprec = Σ_{i≤num_rel} b_i / num_rel; 0 if num_rel = 0 or nothing is retrieved.

use super::ResRels;

pub fn rprec(r: &ResRels) -> f64 {
    let n = (r.num_ret() as u64).min(r.num_rel);
    if n == 0 {
        return 0.0;
    }
    r.rel_in_top(n as usize) as f64 / r.num_rel as f64
}
