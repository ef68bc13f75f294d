//! Sorting scores by decreasing value, as the ranking metrics need: an LSD radix sort on the IEEE-754 bits
//! mapped to an order-preserving integer (the order of `f64::total_cmp`), six 11-bit passes, a pass skipped
//! when every key has the same digit there (scores in [0, 1] share their top bytes). Stable; O(n) per pass. The
//! ranking metrics read only runs of equal scores, so the result does not depend on the order inside a tie.

/// The order-preserving key of `x` under `f64::total_cmp`, complemented: ascending keys are decreasing scores.
pub fn desc_key(x: f64) -> u64 {
    let b = x.to_bits();
    let up = if b >> 63 == 1 { !b } else { b | (1 << 63) };
    !up
}

/// The score of a key of [`desc_key`].
pub fn score_of(k: u64) -> f64 {
    let up = !k;
    let bits = if up >> 63 == 1 { up & !(1 << 63) } else { !up };
    f64::from_bits(bits)
}

/// Sorts `items` by decreasing score (`f64::total_cmp` reversed; the order inside a tie is unspecified).
pub fn sort_desc<T: Copy + Default>(items: &mut [(f64, T)]) {
    let n = items.len();
    if n < 256 {
        items.sort_unstable_by(|a, b| b.0.total_cmp(&a.0));
        return;
    }
    let mut a: Vec<(u64, T)> = items.iter().map(|&(s, t)| (desc_key(s), t)).collect();
    sort_keys(&mut a, &mut Vec::new());
    for (dst, &(k, t)) in items.iter_mut().zip(&a) {
        *dst = (score_of(k), t);
    }
}

/// Sorts `a` by increasing key (keys of [`desc_key`]: decreasing scores; the order inside a tie is
/// unspecified), `scratch` as the second buffer (its allocation is kept for the next call).
pub fn sort_keys<T: Copy + Default>(a: &mut Vec<(u64, T)>, scratch: &mut Vec<(u64, T)>) {
    let n = a.len();
    if n < 256 {
        a.sort_unstable_by_key(|x| x.0);
        return;
    }
    // 11-bit digits: six passes over the keys rather than eight (the histograms still fit in L1/L2).
    const BITS: u32 = 11;
    const RADIX: usize = 1 << BITS;
    const PASSES: usize = 64usize.div_ceil(BITS as usize);
    let digit = |k: u64, p: usize| ((k >> (BITS as usize * p)) as usize) & (RADIX - 1);
    let mut hist = vec![[0usize; RADIX]; PASSES];
    for &(k, _) in a.iter() {
        for (p, h) in hist.iter_mut().enumerate() {
            h[digit(k, p)] += 1;
        }
    }
    scratch.clear();
    scratch.resize(n, (0, T::default()));
    for (p, h) in hist.iter().enumerate() {
        if h.contains(&n) {
            continue; // every key has the same digit here
        }
        let mut start = [0usize; RADIX];
        let mut sum = 0;
        for (s, &c) in start.iter_mut().zip(h.iter()) {
            *s = sum;
            sum += c;
        }
        for &(k, t) in a.iter() {
            let d = digit(k, p);
            scratch[start[d]] = (k, t);
            start[d] += 1;
        }
        std::mem::swap(a, scratch);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_total_cmp_descending() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut v: Vec<(f64, u32)> = Vec::new();
        for i in 0..5000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let s = match i % 7 {
                0 => 0.0,
                1 => -0.0,
                2 => (x % 10) as f64 / 10.0,
                3 => -((x % 1000) as f64),
                4 => f64::from_bits(x) % 1e6,
                _ => (x >> 11) as f64 / (1u64 << 53) as f64,
            };
            v.push((if s.is_nan() { 1.5 } else { s }, i));
        }
        let mut want = v.clone();
        want.sort_by(|a, b| b.0.total_cmp(&a.0));
        sort_desc(&mut v);
        let bits = |w: &[(f64, u32)]| w.iter().map(|p| p.0.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&v), bits(&want));
        let mut ids: Vec<u32> = v.iter().map(|p| p.1).collect();
        ids.sort_unstable();
        assert_eq!(ids, (0..5000).collect::<Vec<_>>());
    }
}
