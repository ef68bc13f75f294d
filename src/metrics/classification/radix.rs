//! Sorting scores by decreasing value, as the ranking metrics need: an LSD radix sort on the IEEE-754 bits
//! mapped to an order-preserving integer (the order of `f64::total_cmp`), eight 8-bit passes, a pass skipped
//! when every key has the same byte there (scores in [0, 1] share their top bytes). Stable; O(n) per pass. The
//! ranking metrics read only runs of equal scores, so the result does not depend on the order inside a tie.

/// The order-preserving key of `x` under `f64::total_cmp`, complemented: ascending keys are decreasing scores.
fn desc_key(x: f64) -> u64 {
    let b = x.to_bits();
    let up = if b >> 63 == 1 { !b } else { b | (1 << 63) };
    !up
}

/// Sorts `items` by decreasing score (`f64::total_cmp` reversed; the order inside a tie is unspecified).
pub fn sort_desc<T: Copy + Default>(items: &mut [(f64, T)]) {
    let n = items.len();
    if n < 256 {
        items.sort_unstable_by(|a, b| b.0.total_cmp(&a.0));
        return;
    }
    let mut a: Vec<(u64, T)> = items.iter().map(|&(s, t)| (desc_key(s), t)).collect();
    let mut hist = vec![[0usize; 256]; 8];
    for &(k, _) in &a {
        for (p, h) in hist.iter_mut().enumerate() {
            h[((k >> (8 * p)) & 0xff) as usize] += 1;
        }
    }
    let mut b: Vec<(u64, T)> = vec![(0, T::default()); n];
    for (p, h) in hist.iter().enumerate() {
        if h.contains(&n) {
            continue; // every key has the same byte here
        }
        let mut start = [0usize; 256];
        let mut sum = 0;
        for (s, &c) in start.iter_mut().zip(h.iter()) {
            *s = sum;
            sum += c;
        }
        for &(k, t) in &a {
            let d = ((k >> (8 * p)) & 0xff) as usize;
            b[start[d]] = (k, t);
            start[d] += 1;
        }
        std::mem::swap(&mut a, &mut b);
    }
    for (dst, &(k, t)) in items.iter_mut().zip(&a) {
        let up = !k;
        let bits = if up >> 63 == 1 { up & !(1 << 63) } else { !up };
        *dst = (f64::from_bits(bits), t);
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
