//! The bootstrap's units of `segmentation` (docs/specs/statistics.md section 1): one unit per image, in the
//! order of the report's image rows. mmsegmentation's `IoUMetric` sums each image's per-class areas
//! (`intersect_and_union`) over the data set before any division, so the areas are the sufficient statistics:
//! a replicate sums every image's areas times its draw count (exact integers, as on the set in which the image
//! appears that many times) and applies `total_area_to_metrics` ([`summary_of`]).

use crate::metrics::segmentation::{nanmean, per_class, summary_of, Areas, Counts, METRIC_IDS};
use crate::stats::units::{Replicate, Slot, Units};
use std::any::Any;

/// One image's areas, only the classes present in its GT or its prediction.
#[derive(Clone, Debug, PartialEq)]
pub struct ImageAreas {
    /// (class, intersect, pred, label) with pred + label > 0.
    areas: Vec<(u32, u64, u64, u64)>,
    /// The image's own mIoU (its row's), 0 where no class has a union.
    miou: f64,
}

impl ImageAreas {
    /// The areas of one image's counts.
    pub fn of(c: &Counts) -> ImageAreas {
        let a = c.areas();
        let areas = (0..c.classes)
            .filter(|&k| a.pred[k] + a.label[k] > 0)
            .map(|k| (k as u32, a.intersect[k], a.pred[k], a.label[k]))
            .collect();
        let (_, pc) = per_class(c);
        ImageAreas {
            areas,
            miou: nanmean(&pc.iou).unwrap_or(0.0),
        }
    }
}

/// Everything a replicate of `segmentation` reads.
pub struct SegmentationUnits {
    classes: usize,
    images: Vec<ImageAreas>,
}

/// The report's units: `images` (id and areas) in the report's row order.
pub fn slot(classes: usize, images: Vec<(String, ImageAreas)>) -> Slot {
    if images.is_empty() {
        return Slot::default();
    }
    let (ids, images): (Vec<String>, Vec<ImageAreas>) = images.into_iter().unzip();
    let units = SegmentationUnits { classes, images };
    Slot::new(Units::plain("image", ids.len(), Box::new(units)).with_ids(ids))
}

impl SegmentationUnits {
    /// The metrics on weights `w`, unit i's areas taken from `pick(i)`.
    fn values_of<'a>(
        &'a self,
        w: &[u32],
        pick: impl Fn(usize) -> &'a ImageAreas,
    ) -> Vec<Option<f64>> {
        let mut sum = Areas::new(self.classes);
        for (i, &k) in w.iter().enumerate() {
            if k == 0 {
                continue;
            }
            let k = k as u64;
            for &(c, inter, pred, label) in &pick(i).areas {
                let c = c as usize;
                sum.intersect[c] += k * inter;
                sum.pred[c] += k * pred;
                sum.label[c] += k * label;
            }
        }
        summary_of(&sum).to_vec()
    }
}

impl Replicate for SegmentationUnits {
    fn metrics(&self) -> Vec<String> {
        METRIC_IDS.iter().map(|m| m.to_string()).collect()
    }

    fn values(&self, w: &[u32]) -> Vec<Option<f64>> {
        self.values_of(w, |i| &self.images[i])
    }

    /// The other submission's areas where `take_other` (the same images, the same classes).
    fn mixed(
        &self,
        other: &dyn Replicate,
        take_other: &[bool],
        w: &[u32],
    ) -> Option<Vec<Option<f64>>> {
        let o = other.as_any().downcast_ref::<SegmentationUnits>()?;
        let n = self.images.len();
        if o.classes != self.classes || o.images.len() != n || take_other.len() != n {
            return None;
        }
        Some(self.values_of(w, |i| {
            if take_other[i] {
                &o.images[i]
            } else {
                &self.images[i]
            }
        }))
    }

    /// Each image's own mIoU (0 where it has no class).
    fn unit_scores(&self) -> Option<Vec<f64>> {
        Some(self.images.iter().map(|a| a.miou).collect())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
