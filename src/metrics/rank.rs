//! Average ranks, as `scipy.stats.rankdata(x, method='average')` gives them (SciPy 1.17,
//! `scipy/stats/_stats_py.py`): the values sorted, a run of equal values at sorted positions s..=e (0-based)
//! all ranked (s + 1 + e + 1) / 2. Here doubled, so that every rank is an integer.
//!
//! The sort is [`super::radix`]'s, on the order-preserving integer key of each value (the order of
//! `f64::total_cmp`, `-0.0` keyed as `0.0`); its first level splits by value instead (see [`sorted`]).

use super::radix::{scatter, sort_level, up_key, MAX_BITS};

/// The items sorted by key (order-preserving keys of `x`, with each value's index). The first level splits by
/// value rather than by key bits: bucket ⌊(v − min) · B / (max − min)⌋ (a non-decreasing function of v, so the
/// buckets are in order), even for values spread over many binades, where the top key bits would put most of
/// them in one bucket. The items go from `x` straight to their bucket, and each bucket is sorted in place
/// with a scratch of the largest bucket's size: no second buffer of n items.
pub fn sorted(x: &[f64]) -> Vec<(u64, u32)> {
    let n = x.len();
    let item = |i: usize| (up_key(x[i] + 0.0), i as u32);
    let (lo, hi) = x
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
            (lo.min(v), hi.max(v))
        });
    let width = hi - lo;
    let buckets = (n / 1024).clamp(1, 1 << MAX_BITS);
    let scale = buckets as f64 / width;
    if buckets == 1 || !(width > 0.0 && width.is_finite() && scale.is_finite()) {
        // Few values, one value, or a range too wide or too narrow to scale: by key bits alone.
        let mut a: Vec<(u64, u32)> = (0..n).map(item).collect();
        let mut s = vec![(0u64, 0u32); n];
        sort_level(&mut a, &mut s, false);
        return a;
    }
    let bucket = |i: usize| (((x[i] - lo) * scale) as usize).min(buckets - 1);
    let mut a = vec![(0u64, 0u32); n];
    let start = scatter(n, buckets, bucket, item, &mut a);
    let largest = start.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0);
    let mut s = vec![(0u64, 0u32); largest];
    for w in start.windows(2) {
        let (from, to) = (w[0], w[1]);
        sort_level(&mut a[from..to], &mut s[..to - from], false);
    }
    a
}

/// Calls `f(doubled rank, index)` for every item of `sorted` (from [`sorted`]): a run of equal keys at sorted
/// positions s..=e has doubled rank (s + 1) + (e + 1).
pub fn each_rank(sorted: &[(u64, u32)], mut f: impl FnMut(i64, usize)) {
    let n = sorted.len();
    let mut a = 0;
    while a < n {
        let mut b = a;
        while b + 1 < n && sorted[b + 1].0 == sorted[a].0 {
            b += 1;
        }
        for &(_, i) in &sorted[a..=b] {
            f((a + b + 2) as i64, i as usize);
        }
        a = b + 1;
    }
}

/// `rankdata(x, method='average')` × 2, per value. At most 2³² − 1 values (the indices are 32-bit).
pub fn doubled_ranks(x: &[f64]) -> Vec<i64> {
    let mut r = vec![0i64; x.len()];
    each_rank(&sorted(x), |rank, i| r[i] = rank);
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The radix ranks are `rankdata(method='average')` doubled: a sort by `total_cmp`, runs of `==` values;
    /// sizes around every cut-off, heavy ties, ±0, wide and narrow ranges.
    #[test]
    fn doubled_ranks_are_average_ranks() {
        let mut x: u64 = 0x0bad_5eed_1234_5678;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for n in [
            0usize, 1, 2, 5, 31, 32, 33, 255, 256, 257, 1000, 3000, 70_000,
        ] {
            for kind in 0..6 {
                let v: Vec<f64> = (0..n)
                    .map(|i| {
                        let r = next();
                        match (kind, i % 5) {
                            (0, 0) => 0.0,
                            (0, 1) => -0.0,
                            (0, 2) => (r % 50) as f64 - 25.0,
                            (1, _) => (r % 3) as f64,
                            (2, _) => f64::from_bits(r) % 1e300,
                            (3, _) => 1.0 + (r % 1000) as f64 * f64::EPSILON,
                            // A range too wide (∞) and too narrow (subnormal) to scale.
                            (4, _) => [f64::MAX, -f64::MAX, 1.0, -0.0][(r % 4) as usize],
                            (5, _) => f64::from_bits(r % 3),
                            _ => (r >> 11) as f64 / (1u64 << 53) as f64 * 1e3 - 500.0,
                        }
                    })
                    .map(|v| if v.is_nan() { 0.5 } else { v })
                    .collect();
                let mut idx: Vec<usize> = (0..n).collect();
                idx.sort_by(|&a, &b| v[a].total_cmp(&v[b]));
                let mut want = vec![0i64; n];
                let mut s = 0;
                while s < n {
                    let mut e = s;
                    while e + 1 < n && v[idx[e + 1]] == v[idx[s]] {
                        e += 1;
                    }
                    for &i in &idx[s..=e] {
                        want[i] = (s + 1 + e + 1) as i64;
                    }
                    s = e + 1;
                }
                assert_eq!(doubled_ranks(&v), want, "n = {n}, kind {kind}");
            }
        }
    }
}
