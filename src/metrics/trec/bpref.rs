//! `bpref`: binary preference (trec_eval `m_bpref.c`; Buckley & Voorhees, SIGIR 2004).
//!
//! bpref = (1/R) Σ over retrieved relevant r of (1 − min(n_r, R) / min(N, R)), where R = num_rel, n_r = judged
//! non-relevant documents (0 ≤ rel < relevance_level) ranked above r, N = judged non-relevant documents of
//! the query. A relevant document with n_r = 0 adds 1. Documents absent from the qrels and documents with a
//! negative rel (unjudged) are skipped.

use super::{ResRels, NONPOOL, UNJUDGED};

pub fn bpref(r: &ResRels) -> f64 {
    let level = r.relevance_level;
    let num_nonrel: u64 = r
        .levels
        .iter()
        .filter(|(l, _)| *l < level)
        .map(|(_, n)| n)
        .sum();
    let num_rel = r.num_rel;
    let mut nonrel_so_far = 0u64;
    let mut sum = 0.0f64;
    for rel in &r.rel {
        if *rel == NONPOOL || *rel == UNJUDGED {
            continue;
        }
        if *rel >= 0 && *rel < level {
            nonrel_so_far += 1;
        } else if nonrel_so_far > 0 {
            sum += 1.0 - (nonrel_so_far.min(num_rel) as f64 / num_nonrel.min(num_rel) as f64);
        } else {
            sum += 1.0;
        }
    }
    if num_rel > 0 {
        sum /= num_rel as f64;
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::super::{tests::judged, ResRels};
    use super::*;

    #[test]
    fn preferences() {
        // R = 2, N = 2: relevant at ranks 1 and 4, judged non-relevant at 2, unjudged at 3.
        let r = ResRels::new(&judged("10-1", &[1, 1, 0, 0, -1]));
        assert_eq!(bpref(&r), (1.0 + (1.0 - 1.0 / 2.0)) / 2.0);
        // No judged non-relevant document: bpref = recall.
        assert_eq!(bpref(&ResRels::new(&judged("1..", &[1, 1]))), 0.5);
    }
}
