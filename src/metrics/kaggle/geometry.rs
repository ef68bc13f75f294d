//! Single-competition metrics over positions, directions and measurements, each as the competition's published
//! metric code computes it:
//!
//! - [`haversine`] and [`phone_score`]: Google Smartphone Decimeter Challenge (2021): the distance error of
//!   each fix (the host's `calc_haversine`, radius 6,367,000 m), per phone the mean of its 50th and 95th
//!   percentile errors, then the mean over phones.
//! - [`angular_error`]: IceCube – Neutrinos in Deep Ice (2023), its published `angular_dist_score`.
//! - [`laplace_row`]: OSIC Pulmonary Fibrosis Progression (2020), the modified Laplace log likelihood of its
//!   evaluation page (σ clipped at 70, |Δ| at 1000).

/// The host's `calc_haversine` (Google Smartphone Decimeter Challenge 2021), in metres:
///
/// ```python
/// RADIUS = 6_367_000
/// lat1, lon1, lat2, lon2 = map(np.radians, [lat1, lon1, lat2, lon2])
/// dlat = lat2 - lat1
/// dlon = lon2 - lon1
/// a = np.sin(dlat/2)**2 + np.cos(lat1) * np.cos(lat2) * np.sin(dlon/2)**2
/// dist = 2 * RADIUS * np.arcsin(a**0.5)
/// ```
pub fn haversine(lat1: f64, lon1: f64, lat2: f64, lon2: f64, radius: f64) -> f64 {
    let (lat1, lon1, lat2, lon2) = (
        lat1.to_radians(),
        lon1.to_radians(),
        lat2.to_radians(),
        lon2.to_radians(),
    );
    let (dlat, dlon) = (lat2 - lat1, lon2 - lon1);
    let sdlat = (dlat / 2.0).sin();
    let sdlon = (dlon / 2.0).sin();
    let a = sdlat * sdlat + lat1.cos() * lat2.cos() * (sdlon * sdlon);
    2.0 * radius * a.sqrt().asin()
}

/// `np.percentile(values, q)` (method `linear`: the virtual index `(n - 1) * (q / 100)`, NumPy's `_lerp`);
/// `values` sorted ascending, not empty.
pub fn percentile(sorted: &[f64], q: f64) -> f64 {
    let n = sorted.len();
    let index = (n - 1) as f64 * (q / 100.0);
    let below = index.floor();
    let gamma = index - below;
    let lo = (below as usize).min(n - 1);
    let hi = (lo + 1).min(n - 1);
    let (a, b) = (sorted[lo], sorted[hi]);
    let diff = b - a;
    if gamma >= 0.5 {
        b - diff * (1.0 - gamma)
    } else {
        a + diff * gamma
    }
}

/// One phone's score: the mean of the percentiles `qs` of its errors (`(p50 + p95) / 2` for `qs = [50, 95]`:
/// `res[['percentile50', 'percentile95']]` summed left to right, divided by their number).
pub fn phone_score(errors: &mut [f64], qs: &[f64]) -> f64 {
    errors.sort_by(f64::total_cmp);
    let mut sum = 0.0;
    for &q in qs {
        sum += percentile(errors, q);
    }
    sum / qs.len() as f64
}

/// The angle between the true and the predicted direction (azimuth, zenith in radians), IceCube's
/// `angular_dist_score` before its `np.average`:
///
/// ```python
/// scalar_prod = sz1*sz2*(ca1*ca2 + sa1*sa2) + (cz1*cz2)
/// scalar_prod =  np.clip(scalar_prod, -1, 1)
/// return np.average(np.abs(np.arccos(scalar_prod)))
/// ```
pub fn angular_error(az_true: f64, zen_true: f64, az_pred: f64, zen_pred: f64) -> f64 {
    let (sa1, ca1, sz1, cz1) = (az_true.sin(), az_true.cos(), zen_true.sin(), zen_true.cos());
    let (sa2, ca2, sz2, cz2) = (az_pred.sin(), az_pred.cos(), zen_pred.sin(), zen_pred.cos());
    let scalar_prod = sz1 * sz2 * (ca1 * ca2 + sa1 * sa2) + cz1 * cz2;
    scalar_prod.clamp(-1.0, 1.0).acos().abs()
}

/// One row's modified Laplace log likelihood (OSIC Pulmonary Fibrosis Progression's evaluation):
///
/// ```python
/// sd_clipped = np.maximum(confidence, 70)
/// delta = np.minimum(np.abs(actual_fvc - predicted_fvc), 1000)
/// metric = - np.sqrt(2) * delta / sd_clipped - np.log(np.sqrt(2) * sd_clipped)
/// return np.mean(metric)
/// ```
pub fn laplace_row(
    actual: f64,
    predicted: f64,
    confidence: f64,
    sd_min: f64,
    delta_max: f64,
) -> f64 {
    let sd = confidence.max(sd_min);
    let delta = (actual - predicted).abs().min(delta_max);
    let sqrt2 = std::f64::consts::SQRT_2;
    -sqrt2 * delta / sd - (sqrt2 * sd).ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn as_the_published_code() {
        assert_eq!(haversine(37.0, -122.0, 37.0, -122.0, 6_367_000.0), 0.0);
        // One degree of latitude on the 6,367 km sphere (calc_haversine(0, 0, 1, 0) with NumPy 2.4.6).
        let d = haversine(0.0, 0.0, 1.0, 0.0, 6_367_000.0);
        assert!((d - 111_125.113_474_478_96).abs() < 1e-6, "{d}");
        assert_eq!(percentile(&[1.0, 2.0, 3.0, 4.0], 50.0), 2.5);
        assert_eq!(
            phone_score(&mut [4.0, 1.0, 3.0, 2.0], &[50.0, 95.0]),
            (2.5 + 3.85) / 2.0
        );
        assert!(angular_error(0.3, 1.2, 0.3, 1.2) < 1e-7);
        let pi = std::f64::consts::PI;
        assert!((angular_error(0.0, 0.0, 0.0, pi) - pi).abs() < 1e-12);
        // OSIC: a perfect prediction with σ = 70 scores -ln(70·√2) ≈ -4.5945.
        assert!((laplace_row(2000.0, 2000.0, 10.0, 70.0, 1000.0) + 4.5944).abs() < 1e-3);
    }
}
