//! `P_k`: precision at cutoff k (trec_eval `m_P.c`).
//!
//! P_k = Σ_{i≤k} b_i / k; a run shorter than k counts as padded with non-relevant documents.

use super::ResRels;

pub fn p(r: &ResRels, k: usize) -> f64 {
    if k == 0 {
        return 0.0;
    }
    r.rel_in_top(k) as f64 / k as f64
}

#[cfg(test)]
mod tests {
    use super::super::{tests::judged, ResRels};
    use super::*;

    #[test]
    fn padded() {
        let r = ResRels::new(&judged("1.1", &[1, 1, 1]));
        assert_eq!(p(&r, 1), 1.0);
        assert_eq!(p(&r, 5), 0.4);
        assert_eq!(p(&r, 20), 0.1);
    }
}
