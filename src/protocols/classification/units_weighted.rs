//! The bootstrap's units of `classification` with a `weight_column` (docs/specs/statistics.md section 1): one
//! unit per GT row; a replicate is every metric of the weighted report with scikit-learn's `sample_weight` =
//! the row's weight × its draw count (what scikit-learn computes on the repeated file, each copy keeping its
//! row's weight, up to the order of the weights' sums: equal to the bit where those sums are exact). The
//! metrics are computed as the weighted report computes them (the weighted confusion matrix, the weighted
//! threshold curves, `np.average` of the per-row losses: src/metrics/classification/weighted.rs), on the rows
//! kept for the replicates ([`Rows`]). One-vs-one ROC AUC has no value with weights (scikit-learn raises), so
//! none on a replicate either.

use super::super::weighted::{weighted_scores, Inputs};
use super::Rows;
use crate::report::Scores;
use crate::stats::units::Replicate;
use std::any::Any;

/// The rows and their GT weights.
pub(super) struct WeightedUnits {
    pub metrics: Vec<String>,
    pub rows: Rows,
    /// Each GT row's weight.
    pub weights: Vec<f64>,
    /// Every multi-class score row sums to 1 (the one-vs-rest ROC AUC is defined).
    pub probabilities: bool,
}

impl WeightedUnits {
    /// Every weighted metric with `sample_weight` = `w`, as the weighted report computes them.
    fn scores(&self, w: &[f64]) -> Scores {
        let r = &self.rows;
        let inputs = Inputs {
            truth: &r.truth,
            pred: &r.pred,
            scores: &r.scores,
            layout: r.layout,
            k: r.k,
            positive: r.positive,
            top_k: r.top_k,
            position: &r.position,
            union: &r.union,
            no_extra: r.no_extra,
            mixed_types: r.mixed_types,
            single_binary: r.single_binary,
            binary: r.binary,
            probabilities: self.probabilities,
        };
        let mut s = Scores::new();
        weighted_scores(&inputs, w, &mut s);
        s
    }
}

impl Replicate for WeightedUnits {
    fn metrics(&self) -> Vec<String> {
        self.metrics.clone()
    }

    /// `sample_weight` = each row's weight × its draw count.
    fn values(&self, w: &[u32]) -> Vec<Option<f64>> {
        let sw: Vec<f64> = (self.weights.iter().zip(w))
            .map(|(&g, &k)| g * k as f64)
            .collect();
        let s = self.scores(&sw);
        self.metrics.iter().map(|m| s.get(m)).collect()
    }

    /// The other submission's rows where `take_other`, each row keeping its GT weight: the weighted metrics of
    /// the mixture on weights `w`. The one-vs-rest ROC AUC is taken as defined when both submissions' score
    /// rows sum to 1 (a metric null for either has no comparison).
    fn mixed(
        &self,
        other: &dyn Replicate,
        take_other: &[bool],
        w: &[u32],
    ) -> Option<Vec<Option<f64>>> {
        let o = other.as_any().downcast_ref::<WeightedUnits>()?;
        if o.weights != self.weights {
            return None;
        }
        let mixture = WeightedUnits {
            metrics: self.metrics.clone(),
            rows: self.rows.mixed(&o.rows, take_other)?,
            weights: self.weights.clone(),
            probabilities: self.probabilities && o.probabilities,
        };
        Some(mixture.values(w))
    }

    /// 1 where the predicted label is right, else 0 (none for the binary score layout).
    fn unit_scores(&self) -> Option<Vec<f64>> {
        self.rows.unit_scores()
    }

    fn lower_is_better(&self, metric: &str) -> bool {
        matches!(metric, "log_loss" | "brier_score")
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
