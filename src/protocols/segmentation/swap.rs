//! Swapped inputs among PNG label maps. Ground truth and predictions are both PNGs of class indices, so their
//! headers cannot tell them apart (the role layer, `protocols::roles`, sees only heads); their pixels can.
//! A ground truth marks unlabelled pixels with `ignore_index` (PASCAL VOC's object boundaries, Cityscapes'
//! void, ADE20K's "other"), and a model predicts a class for every pixel (leaving at most a few pixels
//! unpredicted). So when every prediction holds `ignore_index` pixels, fewer than half of the ground-truth
//! maps do, and the predictions hold at least ten times as many such pixels, the two sides were given the wrong
//! way round: the role layer's rule (docs/specs/README.md, "Role detection") applied to pixels. Only a warning:
//! a model may leave pixels unpredicted, and mmsegmentation scores such maps; not decided with
//! `reduce_zero_label`, where both sides hold class 0.

use super::image::Loaded;
use super::pairing::Pair;

/// What the loaded pairs show about the sides.
#[derive(Default)]
pub struct Looks {
    /// Pairs with both maps loaded.
    pub pairs: usize,
    /// Of those, how many predictions hold an `ignore_index` pixel, and how many GT maps.
    pub pred_ignore: usize,
    pub gt_ignore: usize,
    /// The `ignore_index` pixels of each side.
    pub pred_pixels: u64,
    pub gt_pixels: u64,
}

impl Looks {
    pub fn add(&mut self, l: &Loaded, ignore: u16) {
        let Some(pred) = &l.pred else {
            return;
        };
        let count = |m: &[u16]| m.iter().filter(|&&v| v == ignore).count() as u64;
        let (p, g) = (count(pred), count(&l.gt));
        self.pairs += 1;
        self.pred_ignore += usize::from(p > 0);
        self.gt_ignore += usize::from(g > 0);
        self.pred_pixels += p;
        self.gt_pixels += g;
    }

    /// The evidence when the inputs look swapped (the rule above), every image having a prediction (so that
    /// the sides can be exchanged).
    pub fn swapped(&self, pairs: &[Pair], ignore: u16, reduce: bool) -> Option<String> {
        let all_paired = pairs.iter().all(|p| p.pred.is_some()) && self.pairs == pairs.len();
        let looks = self.pairs > 0
            && self.pred_ignore == self.pairs
            && 2 * self.gt_ignore < self.pairs
            && self.pred_pixels >= 10 * self.gt_pixels;
        (!reduce && all_paired && looks).then(|| {
            format!(
                "all {} maps given as predictions hold ignore_index {ignore} pixels ({} in all: the unlabelled \
                 pixels of a ground truth; a model predicts a class for every pixel), and {} of the maps given \
                 as ground truth ({} pixels)",
                self.pairs, self.pred_pixels, self.gt_ignore, self.gt_pixels
            )
        })
    }
}
