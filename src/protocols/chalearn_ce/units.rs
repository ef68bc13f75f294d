//! The bootstrap's units of `chalearn-ce` (docs/specs/statistics.md sections 1 and 2): one unit per image id,
//! in the order of the first category's GT file (ids that only later categories list follow, in order of first
//! appearance). A replicate restricts every category to the drawn images, each counted as drawn.
//!
//! The repeated set it equals: in every GT file and every submission file, the line of an image drawn k times
//! is replaced by k lines (copies with distinct ids, e.g. `{id}_{c}`), adjacent, at that line's place. The AP
//! rule (docs/specs/chalearn-ce.md section 3, the metric page read as PASCAL VOC 2010's `VOCevalcls.m`, whose
//! MATLAB `sort` is stable) ranks the matched lines by confidence, descending, equal confidences in file
//! order, and appends the missing images in GT order as one last tie group. On the repeated set the copies of a
//! line are thus adjacent in the ranking at the line's place (and in the appended group at the image's
//! place), so each replicate expands the kept ranking by the weights and computes AP with the protocol's own
//! steps, PR points, envelope and area: the very same floating-point operations as on the repeated files.
//! mAP is the left-to-right mean over the categories (ascending name) whose drawn images hold a positive.
//!
//! Paired exchanges (the randomization test): the mixed submission file of a category is A's lines of the
//! images kept from A, in A's order, followed by B's lines of the exchanged images, in B's order; its ranking
//! is the merge of the two rankings, A's line first among equal confidences.

use super::category::{Kept, Reading, TieOrder};
use super::units_curve::Curve;
use crate::metrics::mean::plain_mean;
use crate::stats::units::{Replicate, Slot, Units};
use std::any::Any;
use std::collections::HashMap;

/// A ranked line: its confidence, its image's unit and label.
#[derive(Clone, Copy, PartialEq)]
struct Line {
    conf: f64,
    unit: u32,
    positive: bool,
}

/// A missing image: its GT position, its unit and label.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Missing {
    at: u32,
    unit: u32,
    positive: bool,
}

/// One category as a replicate reads it.
#[derive(Clone)]
struct Category {
    has_file: bool,
    /// The units of the GT's positive images.
    positives: Vec<u32>,
    /// The matched lines in ranked order.
    ranked: Vec<Line>,
    /// The same, packed as a replicate reads them: the unit, [`POSITIVE`] and [`TIE_START`] (the line starts
    /// a group of equal confidences).
    packed: Vec<u32>,
    /// The GT images missing from the submission file, in GT order.
    missing: Vec<Missing>,
}

const POSITIVE: u32 = 1 << 31;
const TIE_START: u32 = 1 << 30;
const UNIT: u32 = TIE_START - 1;

impl Category {
    fn new(
        has_file: bool,
        positives: Vec<u32>,
        ranked: Vec<Line>,
        missing: Vec<Missing>,
    ) -> Category {
        let mut group = f64::NAN;
        let packed = ranked
            .iter()
            .map(|l| {
                let start = l.conf != group;
                if start {
                    group = l.conf;
                }
                l.unit | if l.positive { POSITIVE } else { 0 } | if start { TIE_START } else { 0 }
            })
            .collect();
        Category {
            has_file,
            positives,
            ranked,
            packed,
            missing,
        }
    }
}

/// Everything a replicate of `chalearn-ce` reads.
pub struct ChalearnUnits {
    reading: Reading,
    categories: Vec<Category>,
}

/// The report's units from each category's kept data (in category order), or none when a category has none
/// (an error blocked it) or no image is listed.
pub fn slot(kept: Vec<Option<Kept>>, reading: Reading) -> Slot {
    let mut index: HashMap<Box<str>, u32> = HashMap::new();
    let mut ids: Vec<String> = Vec::new();
    let mut categories = Vec::with_capacity(kept.len());
    for k in kept {
        let Some(k) = k else {
            return Slot::default();
        };
        let units: Vec<u32> =
            k.gt.iter()
                .map(|(id, _)| {
                    *index.entry(id.clone()).or_insert_with(|| {
                        ids.push(id.to_string());
                        ids.len() as u32 - 1
                    })
                })
                .collect();
        let label = |at: u32| k.gt[at as usize].1 == Some(true);
        let mut lines: Vec<Line> = k
            .lines
            .iter()
            .map(|&(conf, at)| Line {
                conf,
                unit: units[at as usize],
                positive: label(at),
            })
            .collect();
        // The protocol's ranking: descending confidence, stable (`category::sort_desc_stable` gives the same).
        lines.sort_by(|a, b| b.conf.total_cmp(&a.conf));
        let mut seen = vec![false; k.gt.len()];
        for &(_, at) in &k.lines {
            seen[at as usize] = true;
        }
        let missing = (0..k.gt.len() as u32)
            .filter(|&at| !seen[at as usize] && k.gt[at as usize].1.is_some())
            .map(|at| Missing {
                at,
                unit: units[at as usize],
                positive: label(at),
            })
            .collect();
        let positives = (0..k.gt.len())
            .filter(|&at| k.gt[at].1 == Some(true))
            .map(|at| units[at])
            .collect();
        categories.push(Category::new(k.has_file, positives, lines, missing));
    }
    if ids.is_empty() || categories.is_empty() || ids.len() > UNIT as usize {
        return Slot::default();
    }
    let n = ids.len();
    Slot::new(
        Units::plain(
            "image",
            n,
            Box::new(ChalearnUnits {
                reading,
                categories,
            }),
        )
        .with_ids(ids),
    )
}

impl ChalearnUnits {
    /// A category's AP on weights `w`, as `category::Aps::ap` computes it on the repeated files: the ranking's
    /// steps with every line's copies adjacent, fed to the curve without expanding them
    /// ([`super::units_curve`]).
    fn ap(&self, c: &Category, w: &[u32], curve: &mut Curve) -> Option<f64> {
        let npos: u64 = c.positives.iter().map(|&u| u64::from(w[u as usize])).sum();
        if npos == 0 {
            return None;
        }
        if !c.has_file {
            return Some(0.0);
        }
        let tie = self.reading.tie;
        curve.start(npos, self.reading.sentinels);
        if tie == TieOrder::File {
            // Every copy a step of its own: the negatives between two positives are one stretch.
            let mut negatives = 0u64;
            for &x in &c.packed {
                let k = u64::from(w[(x & UNIT) as usize]);
                if x & POSITIVE == 0 {
                    negatives += k;
                } else if k > 0 {
                    curve.steps(0, 1, negatives);
                    curve.steps(1, 1, k);
                    negatives = 0;
                }
            }
            curve.steps(0, 1, negatives);
        } else {
            // Tie groups: equal confidences (adjacent in the ranking), copies included.
            let (mut p, mut n) = (0u64, 0u64);
            for &x in &c.packed {
                if x & TIE_START != 0 {
                    curve.group(p, n, tie);
                    (p, n) = (0, 0);
                }
                let k = u64::from(w[(x & UNIT) as usize]);
                p += k * u64::from(x >> 31);
                n += k;
            }
            curve.group(p, n, tie);
        }
        if self.reading.append_missing {
            // One last tie group, in GT order.
            if tie == TieOrder::File {
                for m in &c.missing {
                    curve.steps(u64::from(m.positive), 1, u64::from(w[m.unit as usize]));
                }
            } else {
                let (mut p, mut n) = (0u64, 0u64);
                for m in &c.missing {
                    let k = u64::from(w[m.unit as usize]);
                    p += k * u64::from(m.positive);
                    n += k;
                }
                curve.group(p, n, tie);
            }
        }
        Some(curve.area(self.reading.sentinels, self.reading.integration))
    }
}

impl Replicate for ChalearnUnits {
    fn metrics(&self) -> Vec<String> {
        vec![super::MAP.to_string()]
    }

    fn values(&self, w: &[u32]) -> Vec<Option<f64>> {
        let mut curve = Curve::default();
        let aps: Vec<f64> = self
            .categories
            .iter()
            .filter_map(|c| self.ap(c, w, &mut curve))
            .collect();
        vec![plain_mean(&aps)]
    }

    /// The mixed submission (see the module's comment): the same GT, each category with or without a file in
    /// both submissions.
    fn mixed(
        &self,
        other: &dyn Replicate,
        take_other: &[bool],
        w: &[u32],
    ) -> Option<Vec<Option<f64>>> {
        let o = other.as_any().downcast_ref::<ChalearnUnits>()?;
        if o.reading != self.reading || o.categories.len() != self.categories.len() {
            return None;
        }
        let mut categories = Vec::with_capacity(self.categories.len());
        for (a, b) in self.categories.iter().zip(&o.categories) {
            if a.has_file != b.has_file || a.positives != b.positives {
                return None;
            }
            categories.push(mix(a, b, take_other));
        }
        let mixed = ChalearnUnits {
            reading: self.reading,
            categories,
        };
        Some(mixed.values(w))
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// Category `a` with the exchanged images' lines and missing entries taken from `b`.
fn mix(a: &Category, b: &Category, take: &[bool]) -> Category {
    let taken = |u: u32| take.get(u as usize) == Some(&true);
    let xs = a.ranked.iter().filter(|l| !taken(l.unit));
    let mut ys = b.ranked.iter().filter(|l| taken(l.unit)).peekable();
    let mut ranked = Vec::with_capacity(a.ranked.len());
    for x in xs {
        while let Some(y) = ys.next_if(|y| y.conf.total_cmp(&x.conf).is_gt()) {
            ranked.push(*y);
        }
        ranked.push(*x);
    }
    ranked.extend(ys);
    let mut missing: Vec<Missing> = a
        .missing
        .iter()
        .filter(|m| !taken(m.unit))
        .chain(b.missing.iter().filter(|m| taken(m.unit)))
        .copied()
        .collect();
    missing.sort_by_key(|m| m.at);
    Category::new(a.has_file, a.positives.clone(), ranked, missing)
}
