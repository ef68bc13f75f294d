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
}
