//! The bootstrap's units of `fest` (docs/specs/statistics.md sections 1 and 2): one unit per image, strata =
//! manuscripts (each drawn separately, its size kept), units in the report's order within each manuscript. The
//! leaderboard's Line IU is the plain mean of the manuscripts' Line IU, each the NumPy mean of its images' Line IU
//! in pairing order (an undefined one left out) or, pooled, Line IU of the summed counts; a replicate rebuilds
//! both from every image's counts and Line IU, an image drawn k times counting k times at its place in pairing
//! order (as on the set in which its copies follow each other).

use super::report::LEADERBOARD;
use crate::metrics::fest::{five, Counts, Params, V};
use crate::metrics::mean::{numpy_mean, plain_mean};
use crate::report::natural_cmp;
use crate::stats::units::{Replicate, Slot, Units};
use std::any::Any;

/// One image in pairing order: its id, and its counts and Line IU when it was scored.
pub type Image = (String, Option<(Counts, V)>);

/// An image in a stratum: its unit index, and its counts and Line IU when it was scored.
type Unit = (usize, Option<(Counts, V)>);

/// Everything a replicate of `fest` reads.
pub struct FestUnits {
    params: Params,
    pooled: bool,
    /// Per manuscript, its images in pairing order: (unit index, counts and Line IU).
    strata: Vec<Vec<Unit>>,
}

/// The report's units: `manuscripts` in report order, each its name and its images in pairing order.
pub fn slot(params: &Params, pooled: bool, manuscripts: Vec<Vec<Image>>) -> Slot {
    let (mut ids, mut sizes, mut strata) = (Vec::new(), Vec::new(), Vec::new());
    for images in manuscripts {
        // Unit order: the report's (natural order of id) within the manuscript.
        let mut order: Vec<usize> = (0..images.len()).collect();
        order.sort_by(|&a, &b| natural_cmp(&images[a].0, &images[b].0));
        let base = ids.len();
        let mut unit_of = vec![0; images.len()];
        for (u, &i) in order.iter().enumerate() {
            unit_of[i] = base + u;
            ids.push(images[i].0.clone());
        }
        sizes.push(images.len());
        strata.push(
            images
                .into_iter()
                .enumerate()
                .map(|(i, (_, s))| (unit_of[i], s))
                .collect(),
        );
    }
    if ids.is_empty() || sizes.contains(&0) {
        return Slot::default();
    }
    let units = FestUnits {
        params: params.clone(),
        pooled,
        strata,
    };
    Slot::new(Units {
        unit: "image",
        strata: Some("manuscript"),
        sizes,
        replicate: Box::new(units),
        no_interval: Vec::new(),
        ids,
    })
}

impl FestUnits {
    /// One manuscript's Line IU on weights `w`.
    fn manuscript(&self, images: &[Unit], w: &[u32]) -> Option<f64> {
        if self.pooled {
            let mut sum = Counts::default();
            for (u, s) in images {
                if let Some((c, _)) = s {
                    for _ in 0..w[*u] {
                        sum.add(c);
                    }
                }
            }
            return five(&sum, &self.params).line_iu.value();
        }
        let mut vals = Vec::new();
        for (u, s) in images {
            match s {
                Some((_, V::Undef | V::DivZero)) | None => {}
                Some((_, v)) => {
                    let x = v.value()?;
                    vals.extend(std::iter::repeat_n(x, w[*u] as usize));
                }
            }
        }
        numpy_mean(&vals)
    }
}

impl Replicate for FestUnits {
    fn metrics(&self) -> Vec<String> {
        vec![LEADERBOARD.to_string()]
    }

    fn values(&self, w: &[u32]) -> Vec<Option<f64>> {
        let per: Option<Vec<f64>> = self.strata.iter().map(|s| self.manuscript(s, w)).collect();
        vec![per.and_then(|p| plain_mean(&p))]
    }

    /// The other submission's images where `take_other` (the same GT images).
    fn mixed(
        &self,
        other: &dyn Replicate,
        take_other: &[bool],
        w: &[u32],
    ) -> Option<Vec<Option<f64>>> {
        let o = other.as_any().downcast_ref::<FestUnits>()?;
        let shape = |f: &FestUnits| -> Vec<Vec<usize>> {
            f.strata
                .iter()
                .map(|s| s.iter().map(|x| x.0).collect())
                .collect()
        };
        if shape(o) != shape(self) || o.pooled != self.pooled {
            return None;
        }
        let strata = self
            .strata
            .iter()
            .zip(&o.strata)
            .map(|(a, b)| {
                a.iter()
                    .zip(b)
                    .map(|(x, y)| {
                        if take_other.get(x.0) == Some(&true) {
                            *y
                        } else {
                            *x
                        }
                    })
                    .collect()
            })
            .collect();
        let mixed = FestUnits {
            params: self.params.clone(),
            pooled: self.pooled,
            strata,
        };
        Some(mixed.values(w))
    }

    /// Each image's own Line IU (0 where it has none).
    fn unit_scores(&self) -> Option<Vec<f64>> {
        let n = self.strata.iter().map(Vec::len).sum();
        let mut out = vec![0.0; n];
        for (u, s) in self.strata.iter().flatten() {
            out[*u] = s.and_then(|(_, v)| v.value()).unwrap_or(0.0);
        }
        Some(out)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
