//! Means as the official scorers take them (specs README, "Numbers").

/// `sum(xs) / len(xs)` with a plain left-to-right sum (Python's `sum(list) / len(list)`). `None` if empty.
pub fn plain_mean(xs: &[f64]) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    Some(xs.iter().fold(0.0, |a, b| a + b) / xs.len() as f64)
}

/// NumPy's pairwise summation of a contiguous float64 array (`numpy/_core/src/umath/loops_utils.h.src`,
/// `pairwise_sum`, block size 8, cutoff 128), as the specs README describes it.
pub fn numpy_sum(xs: &[f64]) -> f64 {
    let n = xs.len();
    if n < 8 {
        let mut s = -0.0;
        for x in xs {
            s += x;
        }
        s
    } else if n <= 128 {
        let mut r = [0.0f64; 8];
        r.copy_from_slice(&xs[..8]);
        let mut i = 8;
        while i + 8 <= n {
            for j in 0..8 {
                r[j] += xs[i + j];
            }
            i += 8;
        }
        let mut s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        while i < n {
            s += xs[i];
            i += 1;
        }
        s
    } else {
        let mut m = n / 2;
        m -= m % 8;
        numpy_sum(&xs[..m]) + numpy_sum(&xs[m..])
    }
}

/// `numpy.mean` of a 1-D float64 array: `numpy_sum(xs) / n`. `None` if empty (NumPy gives NaN).
pub fn numpy_mean(xs: &[f64]) -> Option<f64> {
    if xs.is_empty() {
        None
    } else {
        Some(numpy_sum(xs) / xs.len() as f64)
    }
}

/// [`numpy_sum`] of the first `n` values of `terms`, bit for bit, without storing them: NumPy's `pairwise_sum`
/// (`numpy/_core/src/umath/loops_utils.h.src`, block size 8, cutoff 128) reads its array left to right, the
/// first half before the second, so the values can be computed in that order as they are added (a metric's
/// per-sample terms of a million samples, without their fresh pages). Missing values (an iterator shorter
/// than `n`) count as 0.
pub fn numpy_sum_of(n: usize, terms: &mut impl Iterator<Item = f64>) -> f64 {
    let mut next = || terms.next().unwrap_or(0.0);
    sum_of(n, &mut next)
}

/// [`numpy_sum_of`]'s recursion over the values `next` gives.
fn sum_of(n: usize, next: &mut impl FnMut() -> f64) -> f64 {
    // NumPy's leaves are its blocks of at most 128 values: each is computed into a buffer on the stack and
    // summed as the array would be.
    const LEAF: usize = 128;
    if n <= LEAF {
        let mut block = [0.0f64; LEAF];
        block[..n].iter_mut().for_each(|x| *x = next());
        return numpy_sum(&block[..n]);
    }
    let mut m = n / 2;
    m -= m % 8;
    let first = sum_of(m, next);
    first + sum_of(n - m, next)
}

/// `numpy.mean` of the first `n` values of `terms` ([`numpy_mean`] without the array):
/// `None` if `n` is 0.
pub fn numpy_mean_of(n: usize, terms: &mut impl Iterator<Item = f64>) -> Option<f64> {
    (n > 0).then(|| numpy_sum_of(n, terms) / n as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairwise_matches_plain_on_exact_values() {
        let xs: Vec<f64> = (0..300).map(|i| i as f64).collect();
        assert_eq!(numpy_sum(&xs), 44850.0);
        assert_eq!(numpy_mean(&[]), None);
        assert_eq!(plain_mean(&[1.0, 2.0]), Some(1.5));
    }

    #[test]
    fn pairwise_differs_from_left_to_right_like_numpy() {
        // numpy.sum([0.1]*10) == 1.0 (pairwise) while a left-to-right sum gives 0.9999999999999999.
        let xs = [0.1f64; 10];
        assert_eq!(numpy_sum(&xs), 1.0);
        assert_eq!(xs.iter().fold(0.0, |a, b| a + b), 0.9999999999999999);
    }

    /// The same sums as `numpy_sum` of the stored values, bit for bit, around every cut-off.
    #[test]
    fn equals_numpy_sum() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut xs = Vec::new();
        for n in (0..300).chain([1000, 1023, 1024, 1025, 4099, 100_003]) {
            xs.clear();
            xs.extend((0..n).map(|_| {
                let r = crate::xorshift64(&mut x);
                (r >> 11) as f64 / (1u64 << 53) as f64 * 10f64.powi((r % 17) as i32 - 8)
            }));
            let want = numpy_sum(&xs);
            assert_eq!(
                numpy_sum_of(n, &mut xs.iter().copied()).to_bits(),
                want.to_bits(),
                "{n}"
            );
            let mean = numpy_mean_of(n, &mut xs.iter().copied()).map(f64::to_bits);
            assert_eq!(mean, numpy_mean(&xs).map(f64::to_bits), "{n}");
        }
        assert_eq!(
            numpy_sum_of(0, &mut std::iter::empty()).to_bits(),
            (-0.0f64).to_bits()
        );
        assert_eq!(numpy_sum_of(3, &mut [1.0].into_iter()), 1.0);
    }
}
