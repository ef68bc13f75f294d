//! The bootstrap's units of `detection` (docs/specs/statistics.md section 1): one unit per image, in the
//! order of the GT's `images` list (a repeated id once). A replicate is pycocotools' 12 `stats` on the set in
//! which every drawn image appears as many times as drawn (ids made unique, the copies adjacent in sorted id
//! order): every image is evaluated once, and `accumulate()` is recomputed with image weights
//! ([`crate::metrics::coco::weighted`]).

use super::inputs::Loaded;
use crate::metrics::coco::weighted::WeightedEval;
use crate::metrics::coco::{Params, STAT_IDS};
use crate::report::Scores;
use crate::stats::units::{Replicate, Slot, Units};
use std::any::Any;

/// The per-image evaluation and the image of each unit.
pub struct DetectionUnits {
    metrics: Vec<String>,
    eval: WeightedEval,
    image_of_unit: Vec<usize>,
    /// Each unit's number of detections.
    detections: Vec<u64>,
}

/// The report's units: every stat of `scores` with a value.
pub fn slot(loaded: &Loaded, p: &Params, scores: &Scores) -> Slot {
    let metrics: Vec<String> = STAT_IDS
        .iter()
        .filter(|id| scores.get(id).is_some())
        .map(|id| id.to_string())
        .collect();
    let n = loaded.unit_images.len();
    if metrics.is_empty() || n == 0 {
        return Slot::default();
    }
    let units = DetectionUnits {
        metrics,
        eval: WeightedEval::new(&loaded.input, p),
        image_of_unit: loaded.unit_images.clone(),
        detections: loaded
            .unit_images
            .iter()
            .map(|&i| loaded.image_dets[i])
            .collect(),
    };
    let ids = loaded
        .unit_images
        .iter()
        .map(|&i| loaded.image_ids[i].to_string())
        .collect();
    Slot::new(Units::plain("image", n, Box::new(units)).with_ids(ids))
}

impl Replicate for DetectionUnits {
    fn metrics(&self) -> Vec<String> {
        self.metrics.clone()
    }

    /// Undefined when no drawn image has a detection: pycocotools' `loadRes` fails on an empty results list.
    fn values(&self, w: &[u32]) -> Vec<Option<f64>> {
        if !self.detections.iter().zip(w).any(|(&d, &k)| d > 0 && k > 0) {
            return vec![None; self.metrics.len()];
        }
        let mut by_image = vec![0u32; self.eval.images()];
        for (&i, &k) in self.image_of_unit.iter().zip(w) {
            by_image[i] = k;
        }
        let stats = self.eval.stats(&by_image);
        self.metrics
            .iter()
            .map(|m| {
                let at = STAT_IDS.iter().position(|id| id == m)?;
                stats.get(at).copied().flatten()
            })
            .collect()
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
