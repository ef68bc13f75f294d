//! NumPy's pairwise sum of values computed one after another, without storing them: the curves' and log loss's
//! terms of a million-sample column are summed as they are computed (three 5–8 MB vectors fewer per column, fresh
//! pages that cost more than the arithmetic).

use crate::metrics::mean::numpy_sum;

/// [`crate::metrics::mean::numpy_sum`] of the first `n` values of `terms`, bit for bit: NumPy's `pairwise_sum`
/// (`numpy/_core/src/umath/loops_utils.h.src`, block size 8, cutoff 128) reads its array left to right, the
/// first half before the second, so the values can be computed in that order as they are added. Missing values
/// (an iterator shorter than `n`) count as 0.
pub fn numpy_sum_of(n: usize, terms: &mut impl Iterator<Item = f64>) -> f64 {
    let mut next = || terms.next().unwrap_or(0.0);
    sum(n, &mut next)
}

fn sum(n: usize, next: &mut impl FnMut() -> f64) -> f64 {
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
    let first = sum(m, next);
    first + sum(n - m, next)
}

/// `numpy.mean` of the first `n` values of `terms` ([`crate::metrics::mean::numpy_mean`] without the array):
/// `None` if `n` is 0.
pub fn numpy_mean_of(n: usize, terms: &mut impl Iterator<Item = f64>) -> Option<f64> {
    (n > 0).then(|| numpy_sum_of(n, terms) / n as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::mean::numpy_mean;

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
