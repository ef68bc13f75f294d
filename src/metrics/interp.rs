//! Interpolated precision at standard recall levels (trec_eval `m_iprec_at_recall.c`): at recall level r,
//! the highest precision reached at any rank whose recall is ≥ r; 0 where recall r is never reached.

/// The 11 levels 0.0, 0.1, …, 1.0.
pub const LEVELS_11: [f64; 11] = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0];

/// 11-point interpolated precision of a ranking (`hits` in rank order) with `r` relevant items in all.
/// `None` when r = 0.
pub fn iprec_11(hits: &[bool], r: usize) -> Option<[f64; 11]> {
    if r == 0 {
        return None;
    }
    let mut out = [0.0f64; 11];
    // (recall, precision) at every relevant rank; interpolate from the end.
    let mut points = Vec::new();
    let mut c = 0usize;
    for (i, h) in hits.iter().enumerate() {
        if *h {
            c += 1;
            points.push((c as f64 / r as f64, c as f64 / (i + 1) as f64));
        }
    }
    let mut best = 0.0f64;
    let mut j = points.len();
    for (li, level) in LEVELS_11.iter().enumerate().rev() {
        while j > 0 && points[j - 1].0 >= *level {
            best = best.max(points[j - 1].1);
            j -= 1;
        }
        out[li] = best;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple() {
        // hits at 1 and 3 of R=2: recall .5 at p=1, recall 1 at p=2/3.
        let p = iprec_11(&[true, false, true], 2).unwrap();
        assert_eq!(p[0], 1.0);
        assert_eq!(p[5], 1.0);
        assert_eq!(p[6], 2.0 / 3.0);
        assert_eq!(p[10], 2.0 / 3.0);
    }
}
