//! `gm_map`: geometric mean average precision (trec_eval `m_gm_map.c`, `te_calc_avg_meas_s_gm`).
//!
//! Per query trec_eval stores ln(max(AP, MIN_GEO_MEAN)); `all` = exp(Σ / num_queries), where with `-c` each
//! qrels query absent from the run adds ln(MIN_GEO_MEAN) (see [`super::mean`]). trec_eval prints no
//! per-query `gm_map` line.

use super::map::ap_sum;
use super::ResRels;

/// trec_eval `MIN_GEO_MEAN` (`trec_eval.h`).
pub const MIN_GEO_MEAN: f64 = 0.00001;

/// ln(max(AP, 0.00001)).
pub fn gm_map(r: &ResRels) -> f64 {
    let (mut sum, rel_so_far) = ap_sum(r, r.num_ret());
    if rel_so_far > 0 {
        sum /= r.num_rel as f64;
    }
    libm::log(sum.max(MIN_GEO_MEAN))
}
