//! The bootstrap's units of preset `trec` (see [`crate::protocols::kws::units`]): each qrels query's values
//! (when they enter trec_eval's sums), whether it counts in the divisor (evaluated, or every qrels query with
//! `-c`) and its positive qrels lines; a replicate gives trec_eval's `all` values of the set in which every
//! query appears as drawn: the same sums, one addition at a time in qid order, and [`m::mean`].

use super::{QueryResult, Settings};
use crate::metrics::trec::{self as m, Family, Measure};
use crate::protocols::kws::units::Order;
use crate::stats::units::{Replicate, Slot, Units};
use std::any::Any;

/// One qrels query.
#[derive(Clone, PartialEq)]
struct Query {
    /// One value per measure, when the query enters the sums.
    values: Option<Vec<f64>>,
    in_divisor: bool,
    positive_lines: u64,
}

/// Everything a replicate of `trec` reads.
pub struct TrecUnits {
    measures: Vec<Measure>,
    complete: bool,
    order: Order,
    queries: Vec<Query>,
}

/// The report's units: the qrels queries of the first run's `results`.
pub(super) fn slot(s: &Settings, results: &[QueryResult]) -> Slot {
    let gt: Vec<&QueryResult> = results.iter().filter(|r| r.in_gt).collect();
    if gt.is_empty() {
        return Slot::default();
    }
    let order = Order::new(gt.iter().map(|r| r.qid.clone()).collect());
    let mut by_id: std::collections::HashMap<&str, Query> = gt
        .iter()
        .map(|r| {
            let q = Query {
                values: r.values.clone().filter(|_| r.in_sum),
                in_divisor: s.complete || r.evaluated,
                positive_lines: r.positive_lines,
            };
            (r.qid.as_str(), q)
        })
        .collect();
    let queries = order
        .ids
        .iter()
        .map(|q| by_id.remove(q.as_str()).unwrap())
        .collect();
    let ids = order.ids.clone();
    let units = TrecUnits {
        measures: s.scored_measures().into_iter().cloned().collect(),
        complete: s.complete,
        order,
        queries,
    };
    Slot::new(Units::plain("query", ids.len(), Box::new(units)).with_ids(ids))
}

impl TrecUnits {
    /// trec_eval's `all` values (the report's `headline`) on weights `w`, unit u's query from `query(u)`.
    fn values_of<'a>(&'a self, w: &[u32], query: impl Fn(usize) -> &'a Query) -> Vec<Option<f64>> {
        let drawn: Vec<(&Query, u32)> = self.order.drawn(w).map(|(u, k)| (query(u), k)).collect();
        let divisor: usize = drawn
            .iter()
            .filter(|(q, _)| q.in_divisor)
            .map(|&(_, k)| k as usize)
            .sum();
        if divisor == 0 {
            return vec![None; self.measures.len()];
        }
        let mut vals = Vec::with_capacity(w.len());
        self.measures
            .iter()
            .enumerate()
            .map(|(i, meas)| {
                if meas.family == Family::NumRel && self.complete {
                    let mut sum = 0.0f64;
                    for &(q, k) in &drawn {
                        for _ in 0..k {
                            sum += q.positive_lines as f64;
                        }
                    }
                    return Some(sum);
                }
                vals.clear();
                for &(q, k) in &drawn {
                    if let Some(v) = q.values.as_ref().and_then(|v| v.get(i)) {
                        vals.extend(std::iter::repeat_n(*v, k as usize));
                    }
                }
                Some(m::mean(meas, &vals, divisor))
            })
            .collect()
    }
}

impl Replicate for TrecUnits {
    fn metrics(&self) -> Vec<String> {
        self.measures.iter().map(|m| m.name()).collect()
    }

    fn values(&self, w: &[u32]) -> Vec<Option<f64>> {
        self.values_of(w, |u| &self.queries[u])
    }

    /// The other run's queries where `take_other` (the same qrels queries, the same measures).
    fn mixed(
        &self,
        other: &dyn Replicate,
        take_other: &[bool],
        w: &[u32],
    ) -> Option<Vec<Option<f64>>> {
        let o = other.as_any().downcast_ref::<TrecUnits>()?;
        if o.order.ids != self.order.ids
            || o.measures != self.measures
            || take_other.len() != w.len()
        {
            return None;
        }
        Some(self.values_of(w, |u| {
            if take_other[u] {
                &o.queries[u]
            } else {
                &self.queries[u]
            }
        }))
    }

    /// Each query's `map` value where the run measures it (0 where the query has none).
    fn unit_scores(&self) -> Option<Vec<f64>> {
        let at = self.measures.iter().position(|m| m.family == Family::Map)?;
        Some(
            self.queries
                .iter()
                .map(|q| q.values.as_ref().map_or(0.0, |v| v[at]))
                .collect(),
        )
    }

    /// trec_eval's measures are all higher-is-better but the counts, which have no better side.
    fn lower_is_better(&self, _metric: &str) -> bool {
        false
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
