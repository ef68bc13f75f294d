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
    let bins = Bins::over(lo, hi, 20);
    let nb = bins.n;
    let mut grid = vec![0u64; nb * nb];
    for (&a, &b) in t.iter().zip(p) {
        // Rows: predicted (top = highest), columns: true.
        grid[(nb - 1 - bins.of(b)) * nb + bins.of(a)] += 1;
    }
    let mut pv = plot(
        "predicted_vs_true",
        "heatmap",
        "Predicted vs true (counts; columns: true, rows: predicted, highest on top)",
        "true",
        "predicted",
    );
    pv.labels = bins.labels();
    pv.values = grid.iter().map(|&c| Some(c as f64)).collect();
    out.push(pv);
    let (rlo, rhi) = r
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
            (a.min(v), b.max(v))
        });
    let bins = Bins::over(rlo, rhi, 30);
    let mut counts = vec![0u64; bins.n];
    for &v in r {
        counts[bins.of(v)] += 1;
    }
    let mut h = plot(
        "residuals",
        "histogram",
        "Residuals (prediction − target)",
        "residual",
        "rows",
    );
    h.labels = bins.labels();
    h.values = counts.iter().map(|&c| Some(c as f64)).collect();
    out.push(h);
    out
}

/// `n` equal bins from `lo` (width 1 when the range is empty).
struct Bins {
    lo: f64,
    width: f64,
    n: usize,
}

impl Bins {
    fn over(lo: f64, hi: f64, n: usize) -> Bins {
        let width = if hi > lo { (hi - lo) / n as f64 } else { 1.0 };
        Bins { lo, width, n }
    }

    /// The bin of `v` (the last one for `hi`).
    fn of(&self, v: f64) -> usize {
        (((v - self.lo) / self.width) as usize).min(self.n - 1)
    }

    /// Each bin's centre, as the plot labels it.
    fn labels(&self) -> Vec<String> {
        (0..self.n)
            .map(|j| format!("{:.4}", self.lo + (j as f64 + 0.5) * self.width))
            .collect()
    }
}
