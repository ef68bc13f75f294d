//! The ICFHR'14 measures exactly as rusteval v0.5 computes them (github.com/sfikas/rusteval, tag v0.5,
//! `src/main.rs`: `precision_at_x`, `average_precision`, `compute_average_benchmark`), in binary32, and their
//! binary64 `corrected` counterparts (docs/specs/kws.md 3.1 and 4).
//!
//! `hits[i]` is 1.0 if the item at rank i+1 matches a relevant GT item, else 0.0; `r` is the number of relevant
//! GT items (R).

/// rusteval `precision_at_x`: h = Σ_{i≤k} hit_i (f32, left to right); d = min(k, R) as f32; h / d.
/// `None` when the list is shorter than k (rusteval panics: "range end index k out of range").
pub fn prec_at_k_f32(hits: &[f32], k: usize, r: f32) -> Option<f32> {
    if hits.len() < k {
        return None;
    }
    let h = hits[..k].iter().fold(0.0f32, |a, x| a + x);
    let mut d = k as f32;
    if r < d {
        d = r;
    }
    Some(h / d)
}

/// rusteval `average_precision`: c_i = running Σ hit (f32); p_i = c_i / ((i−1) as f32 + 1.0);
/// acc = Σ hit_i·p_i (f32, left to right); ap = acc / R. R = 0 gives NaN (0/0).
pub fn ap_f32(hits: &[f32], r: f32) -> f32 {
    let mut c = 0.0f32;
    let mut acc = 0.0f32;
    for (i, h) in hits.iter().enumerate() {
        c += h;
        let p = c / (i as f32 + 1.0);
        acc += h * p;
    }
    acc / r
}

/// rusteval `compute_average_benchmark`: Σ (f32, in the given order) / count as f32.
pub fn mean_f32(values: &[f32]) -> f32 {
    let acc = values.iter().fold(0.0f32, |a, x| a + x);
    acc / values.len() as f32
}

/// Corrected P@k: hits in the first min(n, k) items / min(k, R) (binary64). R = 0 gives `None`.
pub fn prec_at_k(hits: &[bool], k: usize, r: usize) -> Option<f64> {
    let d = k.min(r);
    if d == 0 {
        return None;
    }
    let h = hits.iter().take(k).filter(|h| **h).count();
    Some(h as f64 / d as f64)
}

/// Corrected AP: Σ_{i: hit} (hits in 1..=i / i) / R (binary64, the trec_eval `map` formula). R = 0 gives `None`.
pub fn ap(hits: &[bool], r: usize) -> Option<f64> {
    if r == 0 {
        return None;
    }
    let mut c = 0usize;
    let mut acc = 0.0f64;
    for (i, h) in hits.iter().enumerate() {
        if *h {
            c += 1;
            acc += c as f64 / (i + 1) as f64;
        }
    }
    Some(acc / r as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edge_res_ok_q1() {
        // docs/specs/kws.md 7.4: q1 hits at ranks 1, 3, 7 of 11; R = 3 → 0.66667 / 1.00000 / 0.69841.
        let mut h = [0.0f32; 11];
        for i in [0, 2, 6] {
            h[i] = 1.0;
        }
        assert_eq!(
            format!("{:.5}", prec_at_k_f32(&h, 5, 3.0).unwrap()),
            "0.66667"
        );
        assert_eq!(
            format!("{:.5}", prec_at_k_f32(&h, 10, 3.0).unwrap()),
            "1.00000"
        );
        assert_eq!(format!("{:.5}", ap_f32(&h, 3.0)), "0.69841");
        assert_eq!(prec_at_k_f32(&h[..3], 5, 3.0), None);
        assert!(ap_f32(&[], 0.0).is_nan());
    }
}
