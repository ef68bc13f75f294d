//! Average precision on a monotone precision/recall curve, as the ChaLearn LAP 2015 cultural-event metric page
//! describes it (docs/specs/chalearn-ce.md section 3): "a version of the precision/recall curve with precision
//! monotonically decreasing … setting the precision for recall r to the maximum precision obtained for any
//! recall r′ ≥ r", then "the area under this curve … the well know trapezoidal rule". This is the PASCAL VOC
//! 2010 construction (devkit `VOCevaldet.m`/`VOCevalcls.m`, `VOCap`; Python ports `voc_eval.py` `voc_ap`):
//!
//! ```text
//! rec_i = TP_i / npos,  prec_i = TP_i / N_i              (after each threshold i = 1..n)
//! mrec = [0, rec_1, …, rec_n, 1],  mpre = [0, prec_1, …, prec_n, 0]      (sentinels)
//! mpre[i] = max(mpre[i], mpre[i+1])  for i = n down to 0                 (monotone envelope)
//! trapezoid: AP = Σ_{i=1..n+1} (mrec[i] − mrec[i−1]) · (mpre[i] + mpre[i−1]) / 2      = numpy.trapezoid(mpre, mrec)
//! step:      AP = Σ_{i: mrec[i] ≠ mrec[i−1]} (mrec[i] − mrec[i−1]) · mpre[i]          = voc_ap(use_07_metric=False)
//! ```
//!
//! Sums are NumPy's pairwise sum ([`crate::metrics::mean::numpy_sum`]), as `numpy.trapezoid` (every segment,
//! zero-width ones included) and `voc_ap`'s `np.sum` (only the segments where recall changes) take them.
//! Without sentinels the same formulas run over the submitted points only.

use crate::metrics::mean::numpy_sum;

/// One threshold of a ranking: after it, `tp` more positives among `n` more ranked items.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub tp: u32,
    pub n: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Integration {
    Trapezoid,
    Step,
}

/// The precision/recall point after each step: `(TP_i / npos, TP_i / N_i)`. Steps with `n = 0` give no point.
/// `npos` must be > 0 for meaningful recall (with 0 every recall is NaN or infinite).
pub fn pr_points(steps: impl IntoIterator<Item = Step>, npos: u64, out: &mut Vec<(f64, f64)>) {
    out.clear();
    let (mut tp, mut n) = (0u64, 0u64);
    let npos = npos as f64;
    for s in steps {
        if s.n == 0 {
            continue;
        }
        tp += s.tp as u64;
        n += s.n as u64;
        out.push((tp as f64 / npos, tp as f64 / n as f64));
    }
}

/// The curve that is integrated: `(mrec, mpre)` after the envelope, with or without the sentinels.
pub fn envelope(points: &[(f64, f64)], sentinels: bool) -> (Vec<f64>, Vec<f64>) {
    let (mut mrec, mut mpre) = (Vec::new(), Vec::new());
    envelope_into(points, sentinels, &mut mrec, &mut mpre);
    (mrec, mpre)
}

/// [`envelope`] into reused buffers.
pub fn envelope_into(
    points: &[(f64, f64)],
    sentinels: bool,
    mrec: &mut Vec<f64>,
    mpre: &mut Vec<f64>,
) {
    mrec.clear();
    mpre.clear();
    if sentinels {
        mrec.push(0.0);
        mpre.push(0.0);
    }
    mrec.extend(points.iter().map(|p| p.0));
    mpre.extend(points.iter().map(|p| p.1));
    if sentinels {
        mrec.push(1.0);
        mpre.push(0.0);
    }
    // np.maximum from the right: NaN never occurs here for npos > 0.
    let mut run = f64::NEG_INFINITY;
    for p in mpre.iter_mut().rev() {
        if run > *p {
            *p = run;
        }
        run = *p;
    }
}

/// The area under the envelope (see the module comment). 0 when there is nothing to integrate.
pub fn area(points: &[(f64, f64)], integration: Integration, sentinels: bool) -> f64 {
    let (mrec, mpre) = envelope(points, sentinels);
    area_of_envelope(&mrec, &mpre, integration)
}

/// [`area`] on an envelope already built by [`envelope`].
pub fn area_of_envelope(mrec: &[f64], mpre: &[f64], integration: Integration) -> f64 {
    area_of_envelope_into(mrec, mpre, integration, &mut Vec::new())
}

/// [`area_of_envelope`] with a reused buffer for the terms of the sum.
pub fn area_of_envelope_into(
    mrec: &[f64],
    mpre: &[f64],
    integration: Integration,
    terms: &mut Vec<f64>,
) -> f64 {
    let n = mrec.len().min(mpre.len());
    terms.clear();
    for i in 1..n {
        let d = mrec[i] - mrec[i - 1];
        match integration {
            Integration::Trapezoid => terms.push(d * (mpre[i] + mpre[i - 1]) / 2.0),
            Integration::Step => {
                if mrec[i] != mrec[i - 1] {
                    terms.push(d * mpre[i]);
                }
            }
        }
    }
    if terms.is_empty() {
        0.0
    } else {
        numpy_sum(terms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file_order(labels: &[u32]) -> Vec<Step> {
        labels.iter().map(|&l| Step { tp: l, n: 1 }).collect()
    }

    /// docs/specs/chalearn-ce.md 7: labels of img_a … img_h in the two tie orders and with img_f missing.
    #[test]
    fn worked_example() {
        let mut pts = Vec::new();
        let pos_first = file_order(&[1, 0, 1, 0, 0, 1, 0, 0]);
        let neg_first = file_order(&[1, 0, 0, 1, 0, 1, 0, 0]);
        let missing = file_order(&[1, 0, 1, 0, 0, 0, 0]);
        let r6 = |x: f64| format!("{x:.6}");
        pr_points(pos_first, 3, &mut pts);
        assert_eq!(r6(area(&pts, Integration::Trapezoid, true)), "0.722222");
        assert_eq!(r6(area(&pts, Integration::Step, true)), "0.722222");
        assert_eq!(r6(area(&pts, Integration::Trapezoid, false)), "0.388889");
        pr_points(neg_first, 3, &mut pts);
        assert_eq!(r6(area(&pts, Integration::Trapezoid, true)), "0.666667");
        assert_eq!(r6(area(&pts, Integration::Step, true)), "0.666667");
        assert_eq!(r6(area(&pts, Integration::Trapezoid, false)), "0.333333");
        pr_points(missing, 3, &mut pts);
        assert_eq!(r6(area(&pts, Integration::Trapezoid, true)), "0.603175");
        assert_eq!(r6(area(&pts, Integration::Step, true)), "0.555556");
        // Tie-grouped: the tie at 0.6 is one threshold.
        let grouped = [
            Step { tp: 1, n: 1 },
            Step { tp: 0, n: 1 },
            Step { tp: 1, n: 2 },
            Step { tp: 0, n: 1 },
            Step { tp: 1, n: 1 },
            Step { tp: 0, n: 1 },
            Step { tp: 0, n: 1 },
        ];
        pr_points(grouped, 3, &mut pts);
        assert_eq!(r6(area(&pts, Integration::Trapezoid, true)), "0.666667");
    }

    #[test]
    fn empty_is_zero() {
        assert_eq!(area(&[], Integration::Trapezoid, true), 0.0);
        assert_eq!(area(&[], Integration::Step, false), 0.0);
        assert_eq!(area(&[(1.0, 1.0)], Integration::Trapezoid, false), 0.0);
    }
}
