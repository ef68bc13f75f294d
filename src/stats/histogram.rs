//! The histogram the page draws of a metric's bootstrap replicates (docs/specs/statistics.md section 3): equal
//! bins from the smallest to the largest defined replicate value, each value counted in the bin
//! `floor((v − lo) / (hi − lo) · bins)`, the largest value in the last bin (NumPy's `histogram` rule).

use serde::Serialize;

/// Counts of the replicate values in `counts.len()` equal bins over `[lo, hi]`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Histogram {
    pub lo: f64,
    pub hi: f64,
    pub counts: Vec<u64>,
}

/// The histogram of the finite values of `values` in `bins` bins (at least one); `None` without a finite value.
/// All values equal: one bin.
pub fn histogram(values: &[f64], bins: usize) -> Option<Histogram> {
    let finite = || values.iter().copied().filter(|v| v.is_finite());
    let lo = finite().fold(f64::INFINITY, f64::min);
    let hi = finite().fold(f64::NEG_INFINITY, f64::max);
    if !lo.is_finite() {
        return None;
    }
    let bins = if hi > lo { bins.clamp(1, 1000) } else { 1 };
    let mut counts = vec![0u64; bins];
    for v in finite() {
        let i = if hi > lo {
            (((v - lo) / (hi - lo)) * bins as f64) as usize
        } else {
            0
        };
        counts[i.min(bins - 1)] += 1;
    }
    Some(Histogram { lo, hi, counts })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_every_finite_value_once() {
        let h = histogram(&[0.0, 0.5, 1.0, f64::NAN, 0.25], 4).unwrap();
        assert_eq!((h.lo, h.hi), (0.0, 1.0));
        assert_eq!(h.counts, vec![1, 1, 1, 1]);
        assert_eq!(histogram(&[2.0, 2.0], 30).unwrap().counts, vec![2]);
        assert!(histogram(&[f64::NAN], 3).is_none());
    }
}
