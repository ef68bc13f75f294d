//! `relative_P_k`: precision relative to the best possible at k (trec_eval `m_rel_P.c`).
//!
//! relative_P_k = Σ_{i≤k} b_i / min(k, num_rel); 0 if num_rel = 0. Equals rusteval's precAtK.

use super::ResRels;

pub fn relative_p(r: &ResRels, k: usize) -> f64 {
    if r.num_rel == 0 || k == 0 {
        return 0.0;
    }
    let d = (k as u64).min(r.num_rel);
    r.rel_in_top(k) as f64 / d as f64
}

#[cfg(test)]
mod tests {
    use super::super::{tests::judged, ResRels};
    use super::*;

    #[test]
    fn capped() {
        let r = ResRels::new(&judged("1.1..", &[1, 1]));
        assert_eq!(relative_p(&r, 1), 1.0);
        assert_eq!(relative_p(&r, 5), 1.0);
        assert_eq!(relative_p(&ResRels::new(&judged("1", &[0])), 5), 0.0);
    }
}
