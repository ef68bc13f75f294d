//! The bootstrap's units of `regression` (docs/specs/statistics.md section 1): one unit per GT row. A
//! replicate is every metric on the repeated rows (each drawn row as many times as drawn, copies adjacent, in
//! row order): for the means this is scikit-learn's `sample_weight` = the draw counts; for the median, Pearson
//! and Spearman (SciPy has no weights) it is the metric of the repeated set itself. With the GT's weights
//! (`weight_column`), a drawn row keeps its weight on each copy: scikit-learn's `sample_weight` = the weights
//! of the repeated set.

use super::metric_values;
use crate::metrics::regression_weighted::by_id;
use crate::report::Scores;
use crate::stats::units::{Replicate, Slot, Units};
use std::any::Any;

/// The targets and predictions, row by row.
pub struct RegressionUnits {
    metrics: Vec<String>,
    targets: Vec<f64>,
    preds: Vec<f64>,
    /// The GT's row weights (`weight_column`); empty without.
    weights: Vec<f64>,
}

/// The report's units: every metric of `scores` with a value.
pub fn slot(targets: &[f64], preds: &[f64], weights: &[f64], scores: &Scores) -> Slot {
    let metrics: Vec<String> = scores
        .iter()
        .filter(|(_, v)| v.is_some())
        .map(|(k, _)| k.to_string())
        .collect();
    if metrics.is_empty() || targets.is_empty() || targets.len() != preds.len() {
        return Slot::default();
    }
    let units = RegressionUnits {
        metrics,
        targets: targets.to_vec(),
        preds: preds.to_vec(),
        weights: weights.to_vec(),
    };
    Slot::new(Units::plain("row", targets.len(), Box::new(units)))
}

/// `x` with element i repeated `w[i]` times.
fn repeated(x: &[f64], w: &[u32]) -> Vec<f64> {
    let mut out = Vec::with_capacity(x.len());
    for (&v, &k) in x.iter().zip(w) {
        for _ in 0..k {
            out.push(v);
        }
    }
    out
}

impl Replicate for RegressionUnits {
    fn metrics(&self) -> Vec<String> {
        self.metrics.clone()
    }

    fn values(&self, w: &[u32]) -> Vec<Option<f64>> {
        let (t, p) = (repeated(&self.targets, w), repeated(&self.preds, w));
        if !self.weights.is_empty() {
            let rw = repeated(&self.weights, w);
            return (self.metrics.iter())
                .map(|m| by_id(m, &t, &p, &rw).filter(|v| v.is_finite()))
                .collect();
        }
        let values = metric_values(&t, &p, &mut || {});
        self.metrics
            .iter()
            .map(|m| {
                values
                    .iter()
                    .find(|(k, _)| k == m)
                    .and_then(|(_, v)| *v)
                    .filter(|v| v.is_finite())
            })
            .collect()
    }

    /// The other submission's predictions where `take_other`.
    fn mixed(
        &self,
        other: &dyn Replicate,
        take_other: &[bool],
        w: &[u32],
    ) -> Option<Vec<Option<f64>>> {
        let o = other.as_any().downcast_ref::<RegressionUnits>()?;
        if o.targets != self.targets || take_other.len() != self.preds.len() {
            return None;
        }
        let preds: Vec<f64> = (0..self.preds.len())
            .map(|i| {
                if take_other[i] {
                    o.preds[i]
                } else {
                    self.preds[i]
                }
            })
            .collect();
        let mixed = RegressionUnits {
            metrics: self.metrics.clone(),
            targets: self.targets.clone(),
            preds,
            weights: self.weights.clone(),
        };
        Some(mixed.values(w))
    }

    /// Minus the absolute error: higher is better.
    fn unit_scores(&self) -> Option<Vec<f64>> {
        Some(
            self.targets
                .iter()
                .zip(&self.preds)
                .map(|(t, p)| -(p - t).abs())
                .collect(),
        )
    }

    /// Every metric but R², explained variance and the correlations is an error.
    fn lower_is_better(&self, metric: &str) -> bool {
        !matches!(metric, "r2" | "explained_variance" | "pearson" | "spearman")
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
