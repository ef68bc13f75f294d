//! The AP of one category under each reading, computed once per distinct PR envelope.

use super::{steps, ApBuffers, Outcome, Reading, TieOrder};
use crate::metrics::voc_ap::{area_of_envelope_into, envelope_into, pr_points};

/// Caches the AP of each reading of one category (several readings often coincide).
pub struct Aps<'a> {
    pub outcome: &'a Outcome,
    bufs: &'a mut ApBuffers,
    done: Vec<(Reading, Option<f64>)>,
    /// (tie order, append, sentinels) of each envelope in `bufs.pool` (same index): both integrations share one.
    curves: Vec<(TieOrder, bool, bool)>,
}

impl<'a> Aps<'a> {
    pub fn new(outcome: &'a Outcome, bufs: &'a mut ApBuffers) -> Self {
        Aps {
            outcome,
            bufs,
            done: Vec::new(),
            curves: Vec::new(),
        }
    }

    /// AP under `r`: `None` when blocked by an error or when npos = 0 (NaN); 0 for a missing file.
    pub fn ap(&mut self, r: Reading) -> Option<f64> {
        let o = self.outcome;
        if o.blocked || o.npos == 0 {
            return None;
        }
        if !o.has_file {
            return Some(0.0);
        }
        let r = self.normalise(r);
        if let Some((_, v)) = self.done.iter().find(|(k, _)| *k == r) {
            return *v;
        }
        let key = (r.tie, r.append_missing, r.sentinels);
        let i = match self.curves.iter().position(|k| *k == key) {
            Some(i) => i,
            None => {
                self.points(r);
                let i = self.curves.len();
                if self.bufs.pool.len() <= i {
                    self.bufs.pool.push(Default::default());
                }
                let b = &mut *self.bufs;
                let (mrec, mpre) = &mut b.pool[i];
                envelope_into(&b.points, r.sentinels, mrec, mpre);
                self.curves.push(key);
                i
            }
        };
        let b = &mut *self.bufs;
        let (mrec, mpre) = &b.pool[i];
        let v = Some(area_of_envelope_into(
            mrec,
            mpre,
            r.integration,
            &mut b.terms,
        ));
        self.done.push((r, v));
        v
    }

    /// An equivalent reading that gives the very same steps (so the cache finds it): appending nothing is not
    /// appending; without ties every tie order is file order; without mixed ties, positives or negatives first
    /// is file order. (The tie flags include the appended group, so they err on the side of computing.)
    fn normalise(&self, mut r: Reading) -> Reading {
        let o = self.outcome;
        if o.missing.is_empty() {
            r.append_missing = false;
        }
        match r.tie {
            TieOrder::PositivesFirst | TieOrder::NegativesFirst if !o.mixed_ties => {
                r.tie = TieOrder::File
            }
            TieOrder::Grouped if !o.any_ties => r.tie = TieOrder::File,
            _ => {}
        }
        r
    }

    /// The PR points of reading `r` (valid until the next call).
    pub fn points(&mut self, r: Reading) -> &[(f64, f64)] {
        let o = self.outcome;
        let appended: &[bool] = if r.append_missing { &o.missing } else { &[] };
        let b = &mut *self.bufs;
        steps(&o.ranked, appended, r.tie, &mut b.steps);
        pr_points(b.steps.iter().copied(), o.npos, &mut b.points);
        &b.points
    }
}
