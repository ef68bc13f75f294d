//! Semantic-segmentation metrics as mmsegmentation's `IoUMetric` computes them
//! (`mmseg/evaluation/metrics/iou_metric.py`, `intersect_and_union` + `total_area_to_metrics`), in binary64
//! from exact integer pixel counts (docs/specs/families.md sections 4 and 5):
//!
//! - per image, pixels whose GT is `ignore_index` are dropped; `area_intersect[c]` = pixels with
//!   GT = pred = c, `area_pred_label[c]` = pixels predicted c, `area_label[c]` = pixels of GT class c,
//!   `area_union = area_pred_label + area_label − area_intersect` (`torch.histc` with `bins = C`,
//!   `min = 0`, `max = C − 1`: a value outside 0..C counts in no bin);
//! - the areas are summed over the data set;
//! - `aAcc = Σ intersect / Σ label`; per class `IoU = I / U`, `Acc = Recall = I / L`, `Dice = 2I / (P + L)`,
//!   `Precision = I / P`, `Fscore = (1 + β²)·(Precision·Recall) / (β²·Precision + Recall)` with β = 1
//!   (NaN when I = 0: 0/0); `m<metric>` = `np.nanmean` over the classes (NaN replaced by 0, NumPy's pairwise
//!   sum, divided by the number of non-NaN values).

use crate::metrics::mean::numpy_sum;

/// mmseg's `LoadAnnotations(reduce_zero_label=True)` on a GT value: 0 → 255, v → v − 1, and a result of 254
/// → 255 (so 255 stays 255).
pub fn reduce_zero_label(v: u16) -> u16 {
    if v == 0 {
        return 255;
    }
    match v - 1 {
        254 => 255,
        r => r,
    }
}

/// Pixel counts of one image or of the whole data set, `C` classes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counts {
    pub classes: usize,
    /// `confusion[g * C + p]`: GT class g predicted p (both < C).
    pub confusion: Vec<u64>,
    /// Per GT class, pixels whose prediction is outside 0..C (e.g. 255): in `area_label` only.
    pub label_only: Vec<u64>,
    /// Per predicted class, pixels whose GT is outside 0..C but not `ignore_index`: in `area_pred_label` only.
    pub pred_only: Vec<u64>,
}

impl Counts {
    pub fn new(classes: usize) -> Counts {
        Counts {
            classes,
            confusion: vec![0; classes * classes],
            label_only: vec![0; classes],
            pred_only: vec![0; classes],
        }
    }

    /// Adds one image (`intersect_and_union`): `pred` and `gt` of the same length, raster order.
    pub fn add_image(&mut self, pred: &[u16], gt: &[u16], ignore_index: u16) {
        let c = self.classes;
        for (&p, &g) in pred.iter().zip(gt) {
            if g == ignore_index {
                continue;
            }
            let (p, g) = (p as usize, g as usize);
            if g < c {
                if p < c {
                    self.confusion[g * c + p] += 1;
                } else {
                    self.label_only[g] += 1;
                }
            } else if p < c {
                self.pred_only[p] += 1;
            }
        }
    }

    /// Adds another count (the data-set sum).
    pub fn add(&mut self, o: &Counts) {
        for (a, b) in self.confusion.iter_mut().zip(&o.confusion) {
            *a += b;
        }
        for (a, b) in self.label_only.iter_mut().zip(&o.label_only) {
            *a += b;
        }
        for (a, b) in self.pred_only.iter_mut().zip(&o.pred_only) {
            *a += b;
        }
    }

    pub fn intersect(&self, k: usize) -> u64 {
        self.confusion[k * self.classes + k]
    }
    /// `area_label[k]`.
    pub fn label(&self, k: usize) -> u64 {
        let c = self.classes;
        self.confusion[k * c..(k + 1) * c].iter().sum::<u64>() + self.label_only[k]
    }
    /// `area_pred_label[k]`.
    pub fn pred(&self, k: usize) -> u64 {
        let c = self.classes;
        (0..c).map(|g| self.confusion[g * c + k]).sum::<u64>() + self.pred_only[k]
    }
    /// `area_union[k]`.
    pub fn union(&self, k: usize) -> u64 {
        self.pred(k) + self.label(k) - self.intersect(k)
    }
}

/// Per-class values (NaN where mmseg's division is 0/0).
#[derive(Clone, Debug, PartialEq)]
pub struct PerClass {
    pub iou: Vec<f64>,
    pub acc: Vec<f64>,
    pub dice: Vec<f64>,
    pub precision: Vec<f64>,
    pub recall: Vec<f64>,
    pub fscore: Vec<f64>,
}

/// Per-class areas of mmseg's `intersect_and_union`: `area_intersect`, `area_pred_label`, `area_label` (the
/// union is `pred + label − intersect`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Areas {
    pub intersect: Vec<u64>,
    pub pred: Vec<u64>,
    pub label: Vec<u64>,
}

impl Areas {
    /// `classes` classes, every area 0.
    pub fn new(classes: usize) -> Areas {
        Areas {
            intersect: vec![0; classes],
            pred: vec![0; classes],
            label: vec![0; classes],
        }
    }
}

impl Counts {
    /// The per-class areas of these counts.
    pub fn areas(&self) -> Areas {
        let c = self.classes;
        Areas {
            intersect: (0..c).map(|k| self.intersect(k)).collect(),
            pred: (0..c).map(|k| self.pred(k)).collect(),
            label: (0..c).map(|k| self.label(k)).collect(),
        }
    }
}

/// The metrics of `total_area_to_metrics`: `aAcc` and the per-class values.
pub fn per_class(t: &Counts) -> (f64, PerClass) {
    per_class_of(&t.areas())
}

/// [`per_class`] from the summed areas.
pub fn per_class_of(a: &Areas) -> (f64, PerClass) {
    let c = a.intersect.len();
    let (mut si, mut sl) = (0u64, 0u64);
    let mut pc = PerClass {
        iou: Vec::with_capacity(c),
        acc: Vec::with_capacity(c),
        dice: Vec::with_capacity(c),
        precision: Vec::with_capacity(c),
        recall: Vec::with_capacity(c),
        fscore: Vec::with_capacity(c),
    };
    for k in 0..c {
        let (i, p, l) = (a.intersect[k], a.pred[k], a.label[k]);
        si += i;
        sl += l;
        let u = p + l - i;
        let (i, p, l, u) = (i as f64, p as f64, l as f64, u as f64);
        let precision = i / p;
        let recall = i / l;
        pc.iou.push(i / u);
        pc.acc.push(recall);
        pc.dice.push(2.0 * i / (p + l));
        pc.precision.push(precision);
        pc.recall.push(recall);
        pc.fscore
            .push((1.0 + 1.0) * (precision * recall) / ((1.0 * precision) + recall));
    }
    (si as f64 / sl as f64, pc)
}

/// `np.nanmean`: NaN replaced by 0, NumPy's pairwise sum over all values, divided by the number of non-NaN
/// values; `None` when every value is NaN.
pub fn nanmean(xs: &[f64]) -> Option<f64> {
    let n = xs.iter().filter(|x| !x.is_nan()).count();
    if n == 0 {
        return None;
    }
    let zeroed: Vec<f64> = xs
        .iter()
        .map(|&x| if x.is_nan() { 0.0 } else { x })
        .collect();
    Some(numpy_sum(&zeroed) / n as f64)
}

/// The metric ids of docs/specs/families.md section 4, in order.
pub const METRIC_IDS: [&str; 7] = [
    "aAcc",
    "mIoU",
    "mAcc",
    "mDice",
    "mFscore",
    "mPrecision",
    "mRecall",
];

/// The seven headline values (`None` where NaN).
pub fn summary(t: &Counts) -> [Option<f64>; 7] {
    summary_of(&t.areas())
}

/// [`summary`] from the summed areas.
pub fn summary_of(a: &Areas) -> [Option<f64>; 7] {
    let (aacc, pc) = per_class_of(a);
    [
        Some(aacc).filter(|x| !x.is_nan()),
        nanmean(&pc.iou),
        nanmean(&pc.acc),
        nanmean(&pc.dice),
        nanmean(&pc.fscore),
        nanmean(&pc.precision),
        nanmean(&pc.recall),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reduce_zero_label_as_mmseg() {
        assert_eq!(reduce_zero_label(0), 255);
        assert_eq!(reduce_zero_label(1), 0);
        assert_eq!(reduce_zero_label(254), 253);
        assert_eq!(reduce_zero_label(255), 255);
        assert_eq!(reduce_zero_label(256), 255);
    }

    #[test]
    fn small_example() {
        // GT [0 0 1 1 255 2], pred [0 1 1 1 0 255]: I = [1, 2, 0], P = [1, 3, 0], L = [2, 2, 1].
        let mut c = Counts::new(3);
        c.add_image(&[0, 1, 1, 1, 0, 255], &[0, 0, 1, 1, 255, 2], 255);
        assert_eq!(
            (c.intersect(1), c.pred(1), c.label(1), c.union(1)),
            (2, 3, 2, 3)
        );
        let (aacc, pc) = per_class(&c);
        assert_eq!(aacc, 3.0 / 5.0);
        assert_eq!(pc.iou, vec![0.5, 2.0 / 3.0, 0.0]);
        assert!(pc.fscore[2].is_nan()); // I = 0: precision 0/0
        let s = summary(&c);
        assert_eq!(s[1], Some((0.5 + 2.0 / 3.0 + 0.0) / 3.0));
        // mFscore skips class 2 (NaN) while mDice counts its 0.
        assert_eq!(s[3], Some((2.0 / 3.0 + 0.8 + 0.0) / 3.0));
        assert_eq!(s[4], Some((2.0 / 3.0 + 0.8) / 2.0));
    }
}
