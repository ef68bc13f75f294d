//! `map`: average precision of one query (trec_eval `m_map.c`).
//!
//! AP = Σ_{i: b_i = 1} (Σ_{j≤i} b_j / i) / num_rel, with b_i = 1 iff rel_i ≥ relevance_level; 0 when no
//! relevant document is retrieved. The sum runs in rank order.

use super::ResRels;

pub fn map(r: &ResRels) -> f64 {
    let (sum, rel_so_far) = ap_sum(r, r.num_ret());
    if rel_so_far > 0 {
        sum / r.num_rel as f64
    } else {
        0.0
    }
}

/// (Σ precision at each relevant rank ≤ `k`, number of relevant documents in the first `k`).
pub(super) fn ap_sum(r: &ResRels, k: usize) -> (f64, u64) {
    let mut rel_so_far = 0u64;
    let mut sum = 0.0f64;
    for i in 0..k.min(r.num_ret()) {
        if r.is_rel(i) {
            rel_so_far += 1;
            sum += rel_so_far as f64 / (i + 1) as f64;
        }
    }
    (sum, rel_so_far)
}

#[cfg(test)]
mod tests {
    use super::super::{tests::judged, ResRels};
    use super::*;

    #[test]
    fn ap() {
        assert_eq!(
            map(&ResRels::new(&judged("1.1", &[1, 1, 1]))),
            (1.0 + 2.0 / 3.0) / 3.0
        );
        assert_eq!(map(&ResRels::new(&judged("...", &[1]))), 0.0);
        assert_eq!(map(&ResRels::new(&judged("...", &[]))), 0.0);
    }
}
