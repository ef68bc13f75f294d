//! The counts `num_ret`, `num_rel`, `num_rel_ret` (trec_eval `m_num_ret.c`, `m_num_rel.c`,
//! `m_num_rel_ret.c`); `num_q` is 1 per query (`m_num_q.c`). Summed over queries for `all`.

use super::ResRels;

/// Documents retrieved (after depth truncation).
pub fn num_ret(r: &ResRels) -> f64 {
    r.num_ret() as f64
}

/// Judged documents with rel ≥ relevance_level.
pub fn num_rel(r: &ResRels) -> f64 {
    r.num_rel as f64
}

/// Retrieved documents with rel ≥ relevance_level.
pub fn num_rel_ret(r: &ResRels) -> f64 {
    r.num_rel_ret as f64
}
