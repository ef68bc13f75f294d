//! The bootstrap's units of preset `icfhr14` (see [`crate::protocols::kws::units`]): each GT query's values
//! (P@k for each k, then AP) when it enters the mean, and the mean recomputed as the report computes it:
//! rusteval's binary32 sum divided by the count as binary32 (official mode), or the binary64 sum (corrected),
//! a query whose value is undefined (NaN) making the mean undefined.

use crate::protocols::kws::units::Order;
use crate::stats::units::{Replicate, Slot, Units};
use std::any::Any;

/// One GT query's row of the mean: binary64 values and rusteval's binary32 ones.
#[derive(Clone, PartialEq)]
pub struct Row {
    pub values: Vec<Option<f64>>,
    pub values_f32: Vec<Option<f32>>,
}

/// Everything a replicate of `icfhr14` reads.
pub struct IcfhrUnits {
    metrics: Vec<String>,
    official: bool,
    order: Order,
    /// Per unit (report order): its row, `None` when the query is not in the mean.
    rows: Vec<Option<Row>>,
}

/// The report's units: `queries` are the GT queries (any order) with their rows; `metrics` the ids of the
/// row's values in order.
pub fn slot(metrics: Vec<String>, official: bool, queries: Vec<(String, Option<Row>)>) -> Slot {
    if queries.is_empty() {
        return Slot::default();
    }
    let order = Order::new(queries.iter().map(|(q, _)| q.clone()).collect());
    let mut by_id: std::collections::HashMap<String, Option<Row>> = queries.into_iter().collect();
    let rows = order
        .ids
        .iter()
        .map(|q| by_id.remove(q).flatten())
        .collect();
    let ids = order.ids.clone();
    let units = IcfhrUnits {
        metrics,
        official,
        order,
        rows,
    };
    Slot::new(Units::plain("query", ids.len(), Box::new(units)).with_ids(ids))
}

impl IcfhrUnits {
    fn values_of<'a>(
        &'a self,
        w: &[u32],
        row: impl Fn(usize) -> Option<&'a Row>,
    ) -> Vec<Option<f64>> {
        (0..self.metrics.len())
            .map(|i| {
                let (mut s32, mut s64, mut count) = (0.0f32, 0.0f64, 0u64);
                for (u, k) in self.order.drawn(w) {
                    let Some(r) = row(u) else { continue };
                    for _ in 0..k {
                        s32 += r.values_f32.get(i).copied().flatten().unwrap_or(f32::NAN);
                        s64 += r.values.get(i).copied().flatten().unwrap_or(f64::NAN);
                    }
                    count += k as u64;
                }
                if count == 0 {
                    return None;
                }
                let v = if self.official {
                    // rusteval::mean_f32: Σ binary32 in order / count as binary32.
                    (s32 / count as f32) as f64
                } else {
                    s64 / count as f64
                };
                Some(v).filter(|v| v.is_finite())
            })
            .collect()
    }
}

impl Replicate for IcfhrUnits {
    fn metrics(&self) -> Vec<String> {
        self.metrics.clone()
    }

    fn values(&self, w: &[u32]) -> Vec<Option<f64>> {
        self.values_of(w, |u| self.rows[u].as_ref())
    }

    /// The other run's rows where `take_other` (the same GT queries).
    fn mixed(
        &self,
        other: &dyn Replicate,
        take_other: &[bool],
        w: &[u32],
    ) -> Option<Vec<Option<f64>>> {
        let o = other.as_any().downcast_ref::<IcfhrUnits>()?;
        if o.order.ids != self.order.ids || o.metrics != self.metrics || take_other.len() != w.len()
        {
            return None;
        }
        Some(self.values_of(w, |u| {
            if take_other[u] {
                o.rows[u].as_ref()
            } else {
                self.rows[u].as_ref()
            }
        }))
    }

    /// Each query's AP (0 where it has none).
    fn unit_scores(&self) -> Option<Vec<f64>> {
        let ap = self.metrics.len() - 1;
        Some(
            self.rows
                .iter()
                .map(|r| r.as_ref().and_then(|r| r.values[ap]).unwrap_or(0.0))
                .collect(),
        )
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
