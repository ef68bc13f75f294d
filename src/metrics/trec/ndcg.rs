//! `ndcg` and `ndcg_cut_k` (trec_eval `m_ndcg.c` with default gains, `m_ndcg_cut.c`).
//!
//! The gain of a retrieved document is its qrels rel if > 0, else 0 (absent or negative rel: 0); the
//! discount at rank i is log₂(i + 1). DCG = Σ gain_i / log₂(i + 1) in rank order; IDCG is the same sum over
//! every positive qrels gain of the query sorted in descending order. `relevance_level` is not applied.
//!
//! - ndcg = DCG / IDCG over the whole run (and the whole ideal list); 0 if IDCG = 0.
//! - ndcg_cut_k: DCG and IDCG both cut at rank k (IDCG over the whole ideal list if it is shorter).

use super::ResRels;

fn gain(rel: i64) -> f64 {
    if rel > 0 {
        rel as f64
    } else {
        0.0
    }
}

fn discount(i: usize) -> f64 {
    // trec_eval: log2((double) (i+2)) for the document at 0-based index i.
    // libm on every target: native and wasm must agree bit for bit (std uses glibc natively, libm in wasm).
    libm::log2((i + 2) as f64)
}

/// DCG over the first `k` retrieved documents.
fn dcg(r: &ResRels, k: usize) -> f64 {
    let mut sum = 0.0f64;
    for (i, rel) in r.rel.iter().take(k).enumerate() {
        let g = gain(*rel);
        if g != 0.0 {
            sum += g / discount(i);
        }
    }
    sum
}

/// IDCG over the first `k` entries of the ideal list (every positive level, highest first).
fn ideal_dcg(r: &ResRels, k: usize) -> f64 {
    let mut sum = 0.0f64;
    let mut i = 0usize;
    for (level, count) in r.levels.iter().rev().filter(|(l, _)| *l > 0) {
        for _ in 0..*count {
            if i >= k {
                return sum;
            }
            sum += *level as f64 / discount(i);
            i += 1;
        }
    }
    sum
}

pub fn ndcg(r: &ResRels) -> f64 {
    let ideal = ideal_dcg(r, usize::MAX);
    if ideal > 0.0 {
        dcg(r, usize::MAX) / ideal
    } else {
        0.0
    }
}

pub fn ndcg_cut(r: &ResRels, k: usize) -> f64 {
    let d = dcg(r, k);
    let ideal = ideal_dcg(r, k);
    if ideal > 0.0 {
        d / ideal
    } else {
        d
    }
}

#[cfg(test)]
mod tests {
    use super::super::{tests::judged, ResRels};
    use super::*;

    #[test]
    fn graded() {
        // Run: rel 1 at rank 1, rel 2 at rank 3; qrels {2, 1, 0}.
        let r = ResRels::new(&judged("1.2", &[2, 1, 0]));
        let i = 2.0 + 1.0 / 3f64.log2();
        assert_eq!(ndcg(&r), (1.0 + 2.0 / 4f64.log2()) / i);
        assert_eq!(ndcg_cut(&r, 1), 1.0 / 2.0);
        assert_eq!(ndcg(&ResRels::new(&judged("0.", &[0]))), 0.0);
    }
}
