//! CLIP score of one (image, text) embedding pair: score = dot(u/‖u‖, v/‖v‖), a raw cosine with no ×100
//! scale and no clamp (docs/specs/aij2022.md 2.3 b, 3.5, 3.6; `generation/metrics/ruclip.py` and
//! `captioning/metrics/ruclip_score.py` normalise both latents by their L2 norm, `x / x.norm(dim=-1,
//! keepdim=True)`, then take the row-wise dot product).
//!
//! Computed in binary64 from the stored values (float32 inputs are widened exactly): each vector is divided by
//! its norm √(Σ xᵢ²) (summed in index order), then the products of the normalised entries are summed in index
//! order. Plain loops only, so the bits are the same natively and in wasm.

/// The cosine of `u` and `v` as the official code forms it; `None` when the lengths differ, a vector is
/// empty, a norm is 0 or not finite (the official division would give nan).
pub fn cosine(u: &[f64], v: &[f64]) -> Option<f64> {
    if u.len() != v.len() || u.is_empty() {
        return None;
    }
    let nu = norm(u)?;
    let nv = norm(v)?;
    let s: f64 = u.iter().zip(v).map(|(a, b)| (a / nu) * (b / nv)).sum();
    s.is_finite().then_some(s)
}

fn norm(x: &[f64]) -> Option<f64> {
    let n = libm::sqrt(x.iter().map(|a| a * a).sum::<f64>());
    (n.is_finite() && n > 0.0).then_some(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_values() {
        // (3,4)/5 · (4,3)/5 = 0.6·0.8 + 0.8·0.6 in binary64
        assert_eq!(
            cosine(&[3.0, 4.0], &[4.0, 3.0]),
            Some(0.6 * 0.8 + 0.8 * 0.6)
        );
        assert_eq!(cosine(&[1.0, 0.0], &[0.0, 2.0]), Some(0.0));
        assert_eq!(cosine(&[2.0, 0.0], &[-5.0, 0.0]), Some(-1.0));
        assert_eq!(cosine(&[0.0, 0.0], &[1.0, 0.0]), None);
        assert_eq!(cosine(&[1.0], &[1.0, 0.0]), None);
        assert_eq!(cosine(&[f64::NAN], &[1.0]), None);
    }
}
