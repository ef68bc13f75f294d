//! Binary masks held as runs (Kaggle's run-length encoding, decoded): sorted, disjoint, non-touching runs of
//! 0-based pixel indices in column-major order (top to bottom, then left to right), 8 bytes per run rather
//! than a byte per pixel. Areas, intersections and unions are merges of two run lists. The Kaggle conventions
//! these implement are in the competitions' published kernels (Carvana's and Severstal's `rle_decode`: pixel
//! numbers 1-based, `starts -= 1; img[lo:hi] = 1` over a flattened column-major array).

/// One mask: runs `(start, length)`, sorted by start, disjoint and not touching; lengths > 0.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Runs(pub Vec<(u32, u32)>);

impl Runs {
    /// Pixels set.
    pub fn area(&self) -> u64 {
        self.0.iter().map(|&(_, l)| l as u64).sum()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// The mask from runs in any order, overlapping or touching (the union of several rows' masks, as
    /// NumPy's `img[lo:hi] = 1` builds it).
    pub fn normalized(mut runs: Vec<(u32, u32)>) -> Runs {
        runs.retain(|r| r.1 > 0);
        runs.sort_unstable();
        let mut out: Vec<(u32, u32)> = Vec::with_capacity(runs.len());
        for (s, l) in runs {
            let e = s as u64 + l as u64;
            match out.last_mut() {
                Some(last) if s as u64 <= last.0 as u64 + last.1 as u64 => {
                    let le = (last.0 as u64 + last.1 as u64).max(e);
                    last.1 = (le - last.0 as u64) as u32;
                }
                _ => out.push((s, l)),
            }
        }
        Runs(out)
    }
    /// The union of several masks.
    pub fn union<'a>(masks: impl IntoIterator<Item = &'a Runs>) -> Runs {
        let mut all = Vec::new();
        for m in masks {
            all.extend_from_slice(&m.0);
        }
        Runs::normalized(all)
    }
    /// Pixels set in both.
    pub fn intersection(&self, other: &Runs) -> u64 {
        let (a, b) = (&self.0, &other.0);
        let (mut i, mut j, mut n) = (0, 0, 0u64);
        while i < a.len() && j < b.len() {
            let (s1, e1) = (a[i].0 as u64, a[i].0 as u64 + a[i].1 as u64);
            let (s2, e2) = (b[j].0 as u64, b[j].0 as u64 + b[j].1 as u64);
            let (s, e) = (s1.max(s2), e1.min(e2));
            if e > s {
                n += e - s;
            }
            if e1 <= e2 {
                i += 1;
            } else {
                j += 1;
            }
        }
        n
    }
    /// Every set pixel as (row, column) of an image `height` pixels tall.
    pub fn pixels(&self, height: u32) -> impl Iterator<Item = (u32, u32)> + '_ {
        let h = height.max(1);
        self.0
            .iter()
            .flat_map(move |&(s, l)| (s..s + l).map(move |p| (p % h, p / h)))
    }
}

/// What both-empty masks score where a competition defines it (Severstal, Carvana: 1; others leave the image out).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Empty {
    One,
    Zero,
    Skip,
}

impl Empty {
    fn value(self) -> Option<f64> {
        match self {
            Empty::One => Some(1.0),
            Empty::Zero => Some(0.0),
            Empty::Skip => None,
        }
    }
}

/// Dice of one image, `2|A∩B| / (|A| + |B|)` (Severstal's and Carvana's evaluation pages); two empty masks
/// score as `empty` says (`None`: left out of the mean).
pub fn dice(gt: &Runs, pred: &Runs, empty: Empty) -> Option<f64> {
    let (a, b) = (gt.area(), pred.area());
    if a + b == 0 {
        return empty.value();
    }
    Some(2.0 * gt.intersection(pred) as f64 / (a + b) as f64)
}

/// The pixel counts of a set of images summed: true positives, false positives, false negatives.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PixelCounts {
    pub tp: u64,
    pub fp: u64,
    pub fn_: u64,
}

impl PixelCounts {
    pub fn of(gt: &Runs, pred: &Runs) -> PixelCounts {
        let i = gt.intersection(pred);
        PixelCounts {
            tp: i,
            fp: pred.area() - i,
            fn_: gt.area() - i,
        }
    }
    pub fn add(&mut self, o: PixelCounts) {
        self.tp += o.tp;
        self.fp += o.fp;
        self.fn_ += o.fn_;
    }
    /// Foreground Dice over the whole set, `2 TP / (2 TP + FP + FN)`; `None` when no pixel is set anywhere.
    pub fn dice(&self) -> Option<f64> {
        let d = 2 * self.tp + self.fp + self.fn_;
        (d > 0).then(|| 2.0 * self.tp as f64 / d as f64)
    }
    /// F-beta over pixels, `(1 + β²) TP / ((1 + β²) TP + β² FN + FP)` (scikit-learn's `fbeta_score` on the
    /// flattened masks); `None` when no pixel is set anywhere (scikit-learn's zero division).
    pub fn fbeta(&self, beta: f64) -> Option<f64> {
        let b2 = beta * beta;
        let num = (1.0 + b2) * self.tp as f64;
        let den = num + b2 * self.fn_ as f64 + self.fp as f64;
        (den > 0.0).then(|| num / den)
    }
}

/// The IoU thresholds `np.arange(0.5, 1.0, 0.05)`, as NumPy fills them: `start + i * delta` with
/// `delta = (start + step) - start` (`numpy/_core/src/multiarray/arraytypes.c.src`, `DOUBLE_fill`).
pub fn dsb_thresholds() -> Vec<f64> {
    let (start, step) = (0.5f64, 0.05f64);
    let n = ((1.0 - start) / step).ceil() as usize;
    let delta = (start + step) - start;
    (0..n)
        .map(|i| match i {
            0 => start,
            1 => start + step,
            _ => start + i as f64 * delta,
        })
        .collect()
}

/// The 2018 Data Science Bowl's precision of one image averaged over IoU thresholds (its evaluation page and
/// the published "Example Metric Implementation" kernel): objects are the image's masks (one per row); at each
/// threshold t a GT object matched by exactly one prediction with IoU > t is a true positive, a prediction
/// matching none a false positive, a GT object matched by none a false negative; precision =
/// TP / (TP + FP + FN), averaged with NumPy's mean. An image with no object on either side scores as `empty`
/// says.
pub fn dsb_precision(gt: &[Runs], pred: &[Runs], thresholds: &[f64], empty: Empty) -> Option<f64> {
    if gt.is_empty() && pred.is_empty() {
        return empty.value();
    }
    let areas_p: Vec<u64> = pred.iter().map(Runs::area).collect();
    let mut iou = vec![0.0f64; gt.len() * pred.len()];
    for (i, g) in gt.iter().enumerate() {
        let ag = g.area();
        for (j, p) in pred.iter().enumerate() {
            let inter = g.intersection(p);
            let union = ag + areas_p[j] - inter;
            // The kernel divides by a union of at least 1 (its label images always hold a pixel): 0 / 0 is 0 here.
            iou[i * pred.len() + j] = if union == 0 {
                0.0
            } else {
                inter as f64 / union as f64
            };
        }
    }
    let per_t: Vec<f64> = thresholds
        .iter()
        .map(|&t| {
            let m = |i: usize, j: usize| iou[i * pred.len() + j] > t;
            let tp = (0..gt.len())
                .filter(|&i| (0..pred.len()).filter(|&j| m(i, j)).count() == 1)
                .count();
            let fn_ = (0..gt.len())
                .filter(|&i| (0..pred.len()).all(|j| !m(i, j)))
                .count();
            let fp = (0..pred.len())
                .filter(|&j| (0..gt.len()).all(|i| !m(i, j)))
                .count();
            tp as f64 / (tp + fp + fn_) as f64
        })
        .collect();
    crate::metrics::mean::numpy_mean(&per_t)
}
