//! What NumPy computes over replicate values: `numpy.sum` (pairwise summation), `numpy.std(values, ddof=1)` and
//! `numpy.percentile(values, q)` with the default linear method, reproduced to the last bit (NumPy 2.x:
//! `numpy/_core/src/umath/loops_utils.h.src` `pairwise_sum`; `numpy/_core/_methods.py` `_var`;
//! `numpy/lib/_function_base_impl.py` `_quantile` and `_lerp`).

/// NumPy's block size for pairwise summation (PW_BLOCKSIZE).
const BLOCK: usize = 128;

fn pairwise(a: &[f64]) -> f64 {
    let n = a.len();
    if n < 8 {
        let mut res = 0.0;
        for &x in a {
            res += x;
        }
        res
    } else if n <= BLOCK {
        let mut r = [0.0f64; 8];
        r.copy_from_slice(&a[..8]);
        let mut i = 8;
        while i < n - n % 8 {
            for j in 0..8 {
                r[j] += a[i + j];
            }
            i += 8;
        }
        let mut res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for &x in &a[i..] {
            res += x;
        }
        res
    } else {
        let mut half = n / 2;
        half -= half % 8;
        pairwise(&a[..half]) + pairwise(&a[half..])
    }
}

/// `numpy.sum(values)` of a contiguous float64 array: the identity 0.0 plus the pairwise sum.
pub fn sum(values: &[f64]) -> f64 {
    0.0 + pairwise(values)
}

/// `numpy.std(values, ddof=1)`; None with fewer than two values (NumPy returns nan with a warning).
pub fn std_ddof1(values: &[f64]) -> Option<f64> {
    let n = values.len();
    if n < 2 {
        return None;
    }
    let mean = sum(values) / n as f64;
    let squares: Vec<f64> = values.iter().map(|&v| (v - mean) * (v - mean)).collect();
    Some((sum(&squares) / (n - 1) as f64).sqrt())
}

/// `numpy.percentile(values, q)` (q in percent, 0..=100, default `method="linear"`); None for no values.
/// `sorted` must be in ascending order without NaN.
pub fn percentile(sorted: &[f64], q: f64) -> Option<f64> {
    let n = sorted.len();
    if n == 0 || !(0.0..=100.0).contains(&q) {
        return None;
    }
    let virtual_index = (n - 1) as f64 * (q / 100.0);
    let below = virtual_index.floor();
    let gamma = virtual_index - below;
    let lo = (below as usize).min(n - 1);
    let hi = (lo + 1).min(n - 1);
    Some(lerp(sorted[lo], sorted[hi], gamma))
}

/// NumPy's `_lerp`: `a + (b - a) * t`, computed from `b` when `t >= 0.5` (monotone and exact at the ends).
fn lerp(a: f64, b: f64, t: f64) -> f64 {
    let diff = b - a;
    if t >= 0.5 {
        b - diff * (1.0 - t)
    } else {
        a + diff * t
    }
}

/// The percentile interval of confidence `c`: `numpy.percentile(values, [100·(1−c)/2, 100·(1+c)/2])`, the
/// percents computed in that order as Python computes them. `values` need not be sorted.
pub fn percentile_interval(values: &[f64], confidence: f64) -> Option<(f64, f64)> {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let low = percentile(&sorted, 100.0 * (1.0 - confidence) / 2.0)?;
    let high = percentile(&sorted, 100.0 * (1.0 + confidence) / 2.0)?;
    Some((low, high))
}

#[cfg(test)]
#[path = "summary_tests.rs"]
mod tests;
