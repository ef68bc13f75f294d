//! The bootstrap's units of `kws` (docs/specs/statistics.md section 1): one unit per GT query, in the order of
//! the report's items. Both presets average per-query values in ascending byte order of query id (rusteval's
//! `BTreeMap`, trec_eval's sorted qids); a replicate adds each unit's values as many times as it is drawn, in
//! that order, one addition at a time: exactly the sums of the set in which every query appears as drawn
//! (ids made unique so that the copies stay adjacent in that order).

use crate::report::natural_cmp;

/// The GT queries as units: their ids in report order, and the unit indices in byte order of id (the order
/// of the sums).
pub struct Order {
    pub ids: Vec<String>,
    pub summing: Vec<u32>,
}

impl Order {
    /// `qids` in any order; units in the report's order (natural order of id).
    pub fn new(mut qids: Vec<String>) -> Order {
        qids.sort_by(|a, b| natural_cmp(a, b));
        let mut summing: Vec<u32> = (0..qids.len() as u32).collect();
        summing.sort_by(|&a, &b| qids[a as usize].as_bytes().cmp(qids[b as usize].as_bytes()));
        Order { ids: qids, summing }
    }

    /// The units with weight, in summing order: (unit, weight).
    pub fn drawn<'a>(&'a self, w: &'a [u32]) -> impl Iterator<Item = (usize, u32)> + 'a {
        self.summing
            .iter()
            .map(|&u| (u as usize, w[u as usize]))
            .filter(|&(_, k)| k > 0)
    }
}
