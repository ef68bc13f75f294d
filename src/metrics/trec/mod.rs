//! trec_eval measures (usnistgov/trec_eval v9.0.8 / v10.0, `m_*.c`), one file per measure family.
//! Input: one query's ranking after sorting and depth truncation, with the qrels judgements of that query.
//! Specification: docs/specs/kws.md section 3.2.
//!
//! Every function reproduces trec_eval's arithmetic step by step (binary64, same loop order, same
//! divisions), so values agree with trec_eval and pytrec_eval bit for bit. Per-query values are
//! trec_eval's internal ones: `num_q` is 1 and `gm_map` is ln(max(AP, 0.00001)) per query; [`mean`] turns
//! them into the `all` values.

mod bpref;
mod counts;
mod gm_map;
mod iprec_at_recall;
mod map;
mod map_cut;
pub mod measures;
mod ndcg;
mod p;
mod recall;
mod recip_rank;
mod relative_p;
mod rprec;
mod success;

pub use bpref::bpref;
pub use counts::{num_rel, num_rel_ret, num_ret};
pub use gm_map::{gm_map, MIN_GEO_MEAN};
pub use iprec_at_recall::{iprec_at_recall, RECALL_LEVELS};
pub use map::map;
pub use map_cut::map_cut;
pub use measures::{parse_measures, Family, Measure};
pub use ndcg::{ndcg, ndcg_cut};
pub use p::p;
pub use recall::recall;
pub use recip_rank::recip_rank;
pub use relative_p::relative_p;
pub use rprec::rprec;
pub use success::success;

/// trec_eval version: the two differ in `iprec_at_recall` cutoffs (v9: `(long)(x·R + 0.9)`, v10:
/// `lround(x·R)`) and, in the readers, in how `sim` is stored (v9: `float`, v10: `double`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Version {
    #[default]
    V9,
    V10,
}

/// One query, ready to be measured.
#[derive(Clone, Debug, Default)]
pub struct Judged {
    /// For each retrieved document, in rank order (rank 1 first): its qrels `rel` value if the document is
    /// judged for this query, `None` if it is absent from the qrels.
    pub ranked: Vec<Option<i64>>,
    /// Every qrels `rel` value of this query (one per judged document, any order, negatives included).
    pub qrels: Vec<i64>,
    /// trec_eval `-l`: a document is relevant iff rel >= relevance_level.
    pub relevance_level: i64,
    /// Which trec_eval's arithmetic to reproduce where the versions differ (`iprec_at_recall`).
    pub version: Version,
}

/// trec_eval `RELVALUE_NONPOOL`: a retrieved document absent from the qrels.
pub const NONPOOL: i64 = -1;
/// trec_eval `RELVALUE_UNJUDGED`: a retrieved document with a negative qrels `rel` (in the pool, unjudged).
pub const UNJUDGED: i64 = -2;

/// trec_eval's `RES_RELS` (`form_res_rels.c`): the ranking as relevance codes plus per-level counts.
#[derive(Clone, Debug)]
pub struct ResRels {
    /// Per rank: the qrels `rel` (≥ 0), [`NONPOOL`] or [`UNJUDGED`].
    pub rel: Vec<i64>,
    /// (level, number of qrels entries at that level) for every level ≥ 0 present, ascending.
    pub levels: Vec<(i64, u64)>,
    /// Judged documents with rel ≥ relevance_level (and ≥ 0).
    pub num_rel: u64,
    /// Retrieved documents with rel ≥ relevance_level (and ≥ 0).
    pub num_rel_ret: u64,
    pub relevance_level: i64,
    pub version: Version,
}

impl ResRels {
    /// `te_form_res_rels` after sorting: relevance codes per rank and the level counts.
    pub fn new(q: &Judged) -> ResRels {
        let level = q.relevance_level;
        let rel: Vec<i64> = q
            .ranked
            .iter()
            .map(|r| match r {
                None => NONPOOL,
                Some(x) if *x < 0 => UNJUDGED,
                Some(x) => *x,
            })
            .collect();
        let mut sorted: Vec<i64> = q.qrels.iter().copied().filter(|r| *r >= 0).collect();
        sorted.sort_unstable();
        let mut levels: Vec<(i64, u64)> = Vec::new();
        for r in sorted {
            match levels.last_mut() {
                Some((l, n)) if *l == r => *n += 1,
                _ => levels.push((r, 1)),
            }
        }
        let num_rel = levels
            .iter()
            .filter(|(l, _)| *l >= level)
            .map(|(_, n)| n)
            .sum();
        let num_rel_ret = rel.iter().filter(|r| **r >= 0 && **r >= level).count() as u64;
        ResRels {
            rel,
            levels,
            num_rel,
            num_rel_ret,
            relevance_level: level,
            version: q.version,
        }
    }
    pub fn num_ret(&self) -> usize {
        self.rel.len()
    }
    /// trec_eval's relevance test inside the measure loops: `rel >= epi->relevance_level`.
    pub fn is_rel(&self, i: usize) -> bool {
        self.rel.get(i).is_some_and(|r| *r >= self.relevance_level)
    }
    /// Relevant documents among the first `k` retrieved (fewer if the run is shorter).
    pub fn rel_in_top(&self, k: usize) -> u64 {
        (0..k.min(self.rel.len()))
            .filter(|i| self.is_rel(*i))
            .count() as u64
    }
}

/// Per-query values of `measures` for one query, named as trec_eval names them (`P_5`,
/// `iprec_at_recall_0.10`), in the order given. `runid` is skipped (it is a string). Values are trec_eval's
/// internal per-query values: `num_q` = 1, `gm_map` = ln(max(AP, [`MIN_GEO_MEAN`])); take [`mean`] over
/// queries for the `all` value.
///
/// This is the entry point for the XML preset's "trec_eval-equivalent" reading: build one [`Judged`] per
/// query, call this, then [`mean`] each measure over the queries (trec_eval's query order is ascending byte
/// order of the query id; the sum is left to right).
pub fn evaluate(q: &Judged, measures: &[Measure]) -> Vec<(String, f64)> {
    let r = ResRels::new(q);
    let iprec = if measures.iter().any(|m| m.family == Family::IprecAtRecall) {
        Some(iprec_at_recall(&r))
    } else {
        None
    };
    let mut out = Vec::with_capacity(measures.len());
    for m in measures {
        let k = m.param as usize;
        let v = match m.family {
            Family::Runid => continue,
            Family::NumQ => 1.0,
            Family::NumRet => num_ret(&r),
            Family::NumRel => num_rel(&r),
            Family::NumRelRet => num_rel_ret(&r),
            Family::Map => map(&r),
            Family::GmMap => gm_map(&r),
            Family::Rprec => rprec(&r),
            Family::Bpref => bpref(&r),
            Family::RecipRank => recip_rank(&r),
            Family::IprecAtRecall => {
                let idx = RECALL_LEVELS.iter().position(|l| l.0 == m.param);
                match (idx, &iprec) {
                    (Some(i), Some(v)) => v[i],
                    _ => f64::NAN,
                }
            }
            Family::P => p(&r, k),
            Family::Recall => recall(&r, k),
            Family::Ndcg => ndcg(&r),
            Family::NdcgCut => ndcg_cut(&r, k),
            Family::MapCut => map_cut(&r, k),
            Family::RelativeP => relative_p(&r, k),
            Family::Success => success(&r, k),
        };
        out.push((m.name(), v));
    }
    out
}

/// trec_eval's `all` value of one measure (`meas_avg.c`, `m_num_q.c`), from the per-query values of the
/// evaluated queries in trec_eval's order and the number of queries averaged over (`divisor`: the evaluated
/// queries, or every qrels query with `-c`).
///
/// - counts (`num_ret`, `num_rel`, `num_rel_ret`): the sum (trec_eval `-c` replaces `num_rel`'s sum by the
///   number of qrels lines with rel > 0; the caller does that);
/// - `num_q`: `divisor`;
/// - `gm_map`: exp((Σ ln values + (divisor − n)·ln 0.00001) / divisor), `te_calc_avg_meas_s_gm`;
/// - every other measure: (Σ values, left to right from 0.0) / divisor.
///
/// With `divisor` = 0 trec_eval leaves the plain sum (it stops with exit status 7 before printing).
pub fn mean(m: &Measure, values: &[f64], divisor: usize) -> f64 {
    let sum = values.iter().fold(0.0f64, |a, v| a + v);
    match m.family {
        Family::NumRet | Family::NumRel | Family::NumRelRet | Family::Runid => sum,
        Family::NumQ => divisor as f64,
        Family::GmMap => {
            if divisor == 0 {
                return sum;
            }
            let missing = divisor.saturating_sub(values.len()) as f64;
            let s = sum + missing * libm::log(MIN_GEO_MEAN);
            libm::exp(s / divisor as f64)
        }
        _ => {
            if divisor == 0 {
                sum
            } else {
                sum / divisor as f64
            }
        }
    }
}

/// `evaluate` on each query and `mean` over them, without `-c`: the `all` values of `measures` for
/// queries that are all evaluated (given in trec_eval's order: ascending byte order of query id).
pub fn evaluate_all(queries: &[Judged], measures: &[Measure]) -> Vec<(String, f64)> {
    let per: Vec<Vec<(String, f64)>> = queries.iter().map(|q| evaluate(q, measures)).collect();
    let mut out = Vec::new();
    for m in measures.iter().filter(|m| m.family != Family::Runid) {
        let name = m.name();
        let vals: Vec<f64> = per
            .iter()
            .filter_map(|row| row.iter().find(|(n, _)| *n == name).map(|(_, v)| *v))
            .collect();
        out.push((name, mean(m, &vals, queries.len())));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Judged from a string of ranks: digit = qrels rel, '.' = not in qrels, '-' = rel -1.
    pub(crate) fn judged(ranks: &str, qrels: &[i64]) -> Judged {
        Judged {
            ranked: ranks
                .chars()
                .map(|c| match c {
                    '.' => None,
                    '-' => Some(-1),
                    d => Some(d.to_digit(10).unwrap_or(0) as i64),
                })
                .collect(),
            qrels: qrels.to_vec(),
            relevance_level: 1,
            version: Version::V9,
        }
    }

    #[test]
    fn res_rels_codes_and_levels() {
        let r = ResRels::new(&judged("1.0-2", &[1, 0, -1, 2, 2, 0]));
        assert_eq!(r.rel, vec![1, NONPOOL, 0, UNJUDGED, 2]);
        assert_eq!(r.levels, vec![(0, 2), (1, 1), (2, 2)]);
        assert_eq!((r.num_rel, r.num_rel_ret), (3, 2));
    }

    #[test]
    fn evaluate_names_and_mean() {
        let ms =
            parse_measures(&["map", "P_5", "num_q", "gm_map", "iprec_at_recall_0.50"]).unwrap();
        let q1 = judged("1.1..", &[1, 1, 1]);
        let v = evaluate(&q1, &ms);
        let names: Vec<&str> = v.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            ["num_q", "map", "gm_map", "iprec_at_recall_0.50", "P_5"]
        );
        assert_eq!(v[1].1, (1.0 + 2.0 / 3.0) / 3.0);
        assert_eq!(v[4].1, 0.4);
        let q2 = judged(".....", &[1]);
        let all = evaluate_all(&[q1, q2], &ms);
        assert_eq!(all[0], ("num_q".to_string(), 2.0));
        assert_eq!(all[1].1, (1.0 + 2.0 / 3.0) / 3.0 / 2.0);
        // gm_map: exp((ln(ap) + ln(1e-5)) / 2).
        let ap: f64 = (1.0 + 2.0 / 3.0) / 3.0;
        assert_eq!(all[2].1, ((ap.ln() + 0.00001f64.ln()) / 2.0).exp());
    }
}
