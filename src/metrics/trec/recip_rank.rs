//! `recip_rank`: 1 / rank of the first relevant document, 0 if none (trec_eval `m_recip_rank.c`).

use super::ResRels;

pub fn recip_rank(r: &ResRels) -> f64 {
    match (0..r.num_ret()).find(|i| r.is_rel(*i)) {
        Some(i) => 1.0 / (i + 1) as f64,
        None => 0.0,
    }
}
