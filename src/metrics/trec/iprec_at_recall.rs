//! `iprec_at_recall_x`: interpolated precision at recall levels 0.00, 0.10, …, 1.00
//! (trec_eval `m_iprec_at_recall.c`).
//!
//! Level x becomes a count of relevant documents: v9.0.8 `(long)(x·R + 0.9)`, v10.0 `lround(x·R)`
//! (R = num_rel). Walking the ranking from the bottom, the interpolated precision at a rank is the highest
//! precision at that rank or below; each level takes the interpolated precision at the rank where that
//! many relevant documents have been seen. Levels never reached take the final interpolated precision of the
//! walk; with no relevant document retrieved every level is 0. (An empty ranking gives 0/0, as in trec_eval.)

use super::{ResRels, Version};

/// The levels as (hundredths, trec_eval's `double` value).
pub const RECALL_LEVELS: [(u32, f64); 11] = [
    (0, 0.0),
    (10, 0.1),
    (20, 0.2),
    (30, 0.3),
    (40, 0.4),
    (50, 0.5),
    (60, 0.6),
    (70, 0.7),
    (80, 0.8),
    (90, 0.9),
    (100, 1.0),
];

pub fn iprec_at_recall(r: &ResRels) -> [f64; 11] {
    let num_rel = r.num_rel as f64;
    let cutoffs: Vec<i64> = RECALL_LEVELS
        .iter()
        .map(|(_, x)| match r.version {
            Version::V9 => (x * num_rel + 0.9) as i64,
            Version::V10 => (x * num_rel).round() as i64,
        })
        .collect();
    let mut out = [0.0f64; 11];
    let num_rel_ret = r.num_rel_ret as i64;
    let mut current: isize = 10;
    while current >= 0 && cutoffs[current as usize] > num_rel_ret {
        current -= 1;
    }
    let mut int_precis = num_rel_ret as f64 / r.num_ret() as f64;
    let mut rel_so_far = num_rel_ret;
    let mut i = r.num_ret();
    while i > 0 && rel_so_far > 0 {
        let precis = rel_so_far as f64 / i as f64;
        if int_precis < precis {
            int_precis = precis;
        }
        if r.is_rel(i - 1) {
            while current >= 0 && rel_so_far == cutoffs[current as usize] {
                out[current as usize] = int_precis;
                current -= 1;
            }
            rel_so_far -= 1;
        }
        i -= 1;
    }
    while current >= 0 {
        out[current as usize] = int_precis;
        current -= 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::{tests::judged, ResRels, Version};
    use super::*;

    #[test]
    fn interpolated() {
        // Relevant at ranks 1 and 3 of R = 2: recall .5 at p = 1, recall 1 at p = 2/3.
        let r = ResRels::new(&judged("1.1", &[1, 1]));
        let v = iprec_at_recall(&r);
        assert_eq!(v[0], 1.0);
        assert_eq!(v[5], 1.0);
        assert_eq!(v[6], 2.0 / 3.0);
        assert_eq!(v[10], 2.0 / 3.0);
        // Nothing relevant retrieved: all 0.
        assert_eq!(
            iprec_at_recall(&ResRels::new(&judged("..", &[1]))),
            [0.0; 11]
        );
    }

    #[test]
    fn versions_round_levels_differently() {
        // R = 3, relevant at ranks 1 and 4 only. Level 0.3: v9 (long)(0.9 + 0.9) = 1, v10 lround(0.9) = 1;
        // level 0.5: v9 (long)(1.5 + 0.9) = 2, v10 lround(1.5) = 2; level 0.4: v9 (long)(2.1) = 2,
        // v10 lround(1.2) = 1.
        let mut q = judged("1..1", &[1, 1, 1]);
        let v9 = iprec_at_recall(&ResRels::new(&q));
        q.version = Version::V10;
        let v10 = iprec_at_recall(&ResRels::new(&q));
        assert_eq!(v9[4], 0.5);
        assert_eq!(v10[4], 1.0);
        assert_eq!(v9[3], v10[3]);
    }
}
