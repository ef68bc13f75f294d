//! The regression report's plots: predicted against true values, and the residuals.

use super::super::classification::inputs::plot;

/// Predicted vs true as a 2-D histogram (20 × 20 bins over the common range, counts), and the residual
/// (prediction − target: `r`, the per-item error column) histogram (30 bins).
pub(super) fn plots(t: &[f64], p: &[f64], r: &[f64]) -> Vec<crate::report::Plot> {
    let lo = t.iter().chain(p).copied().fold(f64::INFINITY, f64::min);
    let hi = t.iter().chain(p).copied().fold(f64::NEG_INFINITY, f64::max);
    let mut out = Vec::new();
    if !(lo.is_finite() && hi.is_finite()) {
        return out;
    }
    let nb = 20;
    let w = if hi > lo { (hi - lo) / nb as f64 } else { 1.0 };
    let bin = |v: f64| (((v - lo) / w) as usize).min(nb - 1);
    let mut grid = vec![0u64; nb * nb];
    for (&a, &b) in t.iter().zip(p) {
        // Rows: predicted (top = highest), columns: true.
        grid[(nb - 1 - bin(b)) * nb + bin(a)] += 1;
    }
    let mut pv = plot(
        "predicted_vs_true",
        "heatmap",
        "Predicted vs true (counts; columns: true, rows: predicted, highest on top)",
        "true",
        "predicted",
    );
    pv.labels = (0..nb)
        .map(|j| format!("{:.4}", lo + (j as f64 + 0.5) * w))
        .collect();
    pv.values = grid.iter().map(|&c| Some(c as f64)).collect();
    out.push(pv);
    let (rlo, rhi) = r
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
            (a.min(v), b.max(v))
        });
    let nb = 30;
    let w = if rhi > rlo {
        (rhi - rlo) / nb as f64
    } else {
        1.0
    };
    let mut counts = vec![0u64; nb];
    for &v in r {
        counts[(((v - rlo) / w) as usize).min(nb - 1)] += 1;
    }
    let mut h = plot(
        "residuals",
        "histogram",
        "Residuals (prediction − target)",
        "residual",
        "rows",
    );
    h.labels = (0..nb)
        .map(|j| format!("{:.4}", rlo + (j as f64 + 0.5) * w))
        .collect();
    h.values = counts.iter().map(|&c| Some(c as f64)).collect();
    out.push(h);
    out
}
