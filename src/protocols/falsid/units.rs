//! The bootstrap's units of `falsid` (docs/specs/statistics.md sections 1 and 2): one unit per GT sample,
//! strata = subsets (each drawn separately, its size kept), subsets in the report's order and the samples of a
//! subset in the report's order of items.
//!
//! The class readings (mean per-subset accuracy and balanced accuracy, pooled macro recall and pooled accuracy)
//! are recomputed from the weighted confusion counts: a sample drawn k times adds k to its cell, as it would on
//! the label files in which it is written k times under k distinct ids. The Top-k diagnostic resamples the
//! queries of the distance matrix (the spec's "query sample"): each drawn query keeps its first-match rank in the
//! full matrix and counts k times, and `k` is capped at N − 1 of the matrix as scored; a repeated set of
//! matrix rows and columns would instead put each repeated query's own copy in its gallery.

use super::compute::SubsetResult;
use super::output::{top_id, CLASS_IDS};
use crate::metrics::falsid::{mean_over_subsets, ratio, Confusion};
use crate::report::natural_cmp;
use crate::stats::units::{Replicate, Slot, Units};
use std::any::Any;

/// A sample: its GT label, its predicted label, its first-match rank in the subset's matrix.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Sample {
    label: u8,
    pred: Option<u8>,
    rank: Option<usize>,
}

/// A subset: its samples as (unit index, sample), its matrix size when the Top-k diagnostic ran.
#[derive(Clone)]
struct Stratum {
    samples: Vec<(usize, Sample)>,
    matrix: Option<usize>,
}

/// What a replicate of `falsid` reads; strata in the order the report's means add them (option `subsets`).
pub struct FalsidUnits {
    strata: Vec<Stratum>,
    ks: Vec<usize>,
    has_pred: bool,
    exclude_missing: bool,
    exclude_no_match: bool,
}

/// How the report was scored (the options a replicate needs).
pub struct Setup<'a> {
    pub ks: &'a [usize],
    pub has_pred: bool,
    pub exclude_missing: bool,
    pub exclude_no_match: bool,
}

/// The report's units from the scored subsets `results` (in the order of option `subsets`).
pub fn slot(results: &[SubsetResult], setup: &Setup) -> Slot {
    // Strata in report order: the groups' natural order of subset name.
    let mut order: Vec<usize> = (0..results.len()).collect();
    order.sort_by(|&a, &b| natural_cmp(&results[a].name, &results[b].name));
    let mut strata: Vec<Option<Stratum>> = vec![None; results.len()];
    let (mut ids, mut sizes) = (Vec::new(), Vec::new());
    for &s in &order {
        let r = &results[s];
        // Units in report order within the subset: the items' natural order of id.
        let mut items: Vec<usize> = (0..r.items.len()).collect();
        items.sort_by(|&a, &b| natural_cmp(&r.items[a].0, &r.items[b].0));
        let base = ids.len();
        let mut samples = vec![(0, None); r.items.len()];
        for (u, &i) in items.iter().enumerate() {
            let (id, label, pred) = &r.items[i];
            ids.push(id.clone());
            let rank = r.ranks.get(i).copied().flatten();
            samples[i] = (base + u, Some((*label, *pred, rank)));
        }
        sizes.push(r.items.len());
        strata[s] = Some(Stratum {
            samples: samples
                .into_iter()
                .filter_map(|(u, s)| s.map(|(label, pred, rank)| (u, Sample { label, pred, rank })))
                .collect(),
            matrix: r.has_matrix.then_some(r.items.len()),
        });
    }
    if ids.is_empty() || sizes.contains(&0) {
        return Slot::default();
    }
    let units = FalsidUnits {
        strata: strata.into_iter().flatten().collect(),
        ks: setup.ks.to_vec(),
        has_pred: setup.has_pred,
        exclude_missing: setup.exclude_missing,
        exclude_no_match: setup.exclude_no_match,
    };
    Slot::new(Units {
        unit: "sample",
        strata: Some("subset"),
        sizes,
        replicate: Box::new(units),
        no_interval: Vec::new(),
        ids,
    })
}

impl FalsidUnits {
    /// A subset's confusion counts on weights `w` (`Confusion::of` on the repeated labels).
    fn confusion(&self, s: &Stratum, w: &[u32]) -> Confusion {
        let mut c = Confusion::default();
        for (u, x) in &s.samples {
            let k = u64::from(w[*u]);
            if self.exclude_missing && x.pred.is_none() {
                continue;
            }
            let right = x.pred == Some(x.label);
            match (x.label, right) {
                (1, true) => c.tp += k,
                (1, false) => c.fn_ += k,
                (_, true) => c.tn += k,
                (_, false) => c.fp += k,
            }
        }
        c
    }

    /// A subset's Top-k on weights `w` (`metrics::falsid::top_k` with each query counted as drawn).
    fn top_k(&self, s: &Stratum, n: usize, k: usize, w: &[u32]) -> Option<f64> {
        let k_eff = k.min(n.saturating_sub(1));
        let (mut hits, mut counted) = (0u64, 0u64);
        for (u, x) in &s.samples {
            let c = u64::from(w[*u]);
            match x.rank {
                Some(r) => {
                    counted += c;
                    if r <= k_eff {
                        hits += c;
                    }
                }
                None if self.exclude_no_match => {}
                None => counted += c,
            }
        }
        ratio(hits, counted)
    }

    fn has_matrix(&self) -> bool {
        self.strata.iter().any(|s| s.matrix.is_some())
    }
}

impl Replicate for FalsidUnits {
    fn metrics(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        if self.has_pred {
            out.extend(CLASS_IDS.iter().map(|s| s.to_string()));
        }
        if self.has_matrix() {
            out.extend(self.ks.iter().map(|&k| top_id(k)));
        }
        out
    }

    /// The report's formulas (`output::build`) on the weighted counts, subsets added in the same order.
    fn values(&self, w: &[u32]) -> Vec<Option<f64>> {
        let mut out = Vec::new();
        if self.has_pred {
            let per: Vec<Confusion> = self.strata.iter().map(|s| self.confusion(s, w)).collect();
            let mut pooled = Confusion::default();
            for c in &per {
                pooled.add(c);
            }
            let accs: Vec<Option<f64>> = per.iter().map(Confusion::accuracy).collect();
            let bas: Vec<Option<f64>> = per.iter().map(Confusion::balanced_accuracy).collect();
            out.push(mean_over_subsets(&accs));
            out.push(mean_over_subsets(&bas));
            out.push(pooled.balanced_accuracy());
            out.push(pooled.accuracy());
        }
        if self.has_matrix() {
            for &k in &self.ks {
                let v: Vec<Option<f64>> = self
                    .strata
                    .iter()
                    .filter_map(|s| s.matrix.map(|n| self.top_k(s, n, k, w)))
                    .collect();
                out.push(mean_over_subsets(&v));
            }
        }
        out
    }

    /// The other submission's predicted labels and ranks where `take_other` (the same GT samples; both
    /// submissions with labels, and matrices for the same subsets).
    fn mixed(
        &self,
        other: &dyn Replicate,
        take_other: &[bool],
        w: &[u32],
    ) -> Option<Vec<Option<f64>>> {
        let o = other.as_any().downcast_ref::<FalsidUnits>()?;
        let same = self.strata.len() == o.strata.len()
            && (self.has_pred, &self.ks) == (o.has_pred, &o.ks)
            && self.strata.iter().zip(&o.strata).all(|(a, b)| {
                a.matrix == b.matrix
                    && a.samples.len() == b.samples.len()
                    && a.samples
                        .iter()
                        .zip(&b.samples)
                        .all(|(x, y)| x.0 == y.0 && x.1.label == y.1.label)
            });
        if !same {
            return None;
        }
        let strata = self
            .strata
            .iter()
            .zip(&o.strata)
            .map(|(a, b)| Stratum {
                samples: a
                    .samples
                    .iter()
                    .zip(&b.samples)
                    .map(|(x, y)| {
                        if take_other.get(x.0) == Some(&true) {
                            *y
                        } else {
                            *x
                        }
                    })
                    .collect(),
                matrix: a.matrix,
            })
            .collect();
        let mixed = FalsidUnits {
            strata,
            ks: self.ks.clone(),
            has_pred: self.has_pred,
            exclude_missing: self.exclude_missing,
            exclude_no_match: self.exclude_no_match,
        };
        Some(mixed.values(w))
    }

    /// Each sample's own result: 1 when its predicted label is right, else 0; without predicted labels, 1
    /// when its first match is the nearest item (Top-1).
    fn unit_scores(&self) -> Option<Vec<f64>> {
        let n = self.strata.iter().map(|s| s.samples.len()).sum();
        let mut out = vec![0.0; n];
        for s in &self.strata {
            for (u, x) in &s.samples {
                let hit = if self.has_pred {
                    x.pred == Some(x.label)
                } else {
                    x.rank == Some(1)
                };
                out[*u] = f64::from(u8::from(hit));
            }
        }
        Some(out)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
