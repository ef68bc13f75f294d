//! The bootstrap's units of `text` (docs/specs/statistics.md section 1): one unit per item, in the report's
//! order. Every metric of the family is a function of sums over items, so each item keeps one row of numbers
//! and a replicate adds the drawn rows, each times its draw count, then finishes every metric from the sums:
//!
//! - jiwer 4.0's corpus CER, WER, MER, WIL, WIP: the item's (hits, substitutions, deletions, insertions);
//!   corpus measures are those of the summed counts (`process_words` on the repeated lists sums them);
//! - the means (cer_mean, wer_mean, 1 − NED, ANLS, SQuAD exact match and F1, Jaccard, ROUGE F): the item's
//!   value (`sum(values) / len(values)` on the repeated list is the weighted mean); SQuAD v2.0's `HasAns_*`
//!   and `NoAns_*` the value and the item's membership;
//! - sacreBLEU 2.6.0's BLEU, chrF, chrF++ and TER: the segment's sufficient statistics (BLEU's clipped matches
//!   and totals per order, hypothesis and closest reference length; chrF's best reference's n-gram triples;
//!   TER's edits and mean reference length); `corpus_score` on the repeated segments sums them.

use super::inputs::Pairs;
use crate::items::ItemTable;
use crate::metrics::edit::Counts;
use crate::metrics::sacrebleu::{
    self, chrf_of_stats, compute_bleu, BleuOptions, ChrfOptions, TerOptions,
};
use crate::metrics::text::{jiwer, similarity};
use crate::report::Report;
use crate::stats::units::{Replicate, Slot, Units};
use std::any::Any;
use std::sync::Arc;

/// How a metric's value follows from its columns' weighted sums (`sums`) and the total weight.
type Finish = Arc<dyn Fn(&[f64], f64) -> Option<f64> + Send + Sync>;

/// A metric: its id, where its columns start in a unit's row, and its finish.
struct Metric {
    id: String,
    at: usize,
    width: usize,
    finish: Finish,
}

/// Every item's row of sufficient statistics (`width` numbers each, row-major), and the metrics read from them.
pub struct TextUnits {
    metrics: Vec<Metric>,
    width: usize,
    rows: Vec<f64>,
    n: usize,
    /// The headline metric's per-item values (for per-unit wins), when it has them.
    unit_scores: Option<Vec<f64>>,
}

/// Items scored in one parallel job when the units are built.
const CHUNK: usize = 2048;

/// The report's units: every metric of `scores` with a value. None when the report has no item table.
pub fn slot(p: &Pairs, report: &Report) -> Slot {
    let n = p.ids.len();
    let Some(table) = report.item_table.as_ref() else {
        return Slot::default();
    };
    if n == 0 || table.ids.len() != n || p.refs.len() != n || p.hyps.len() != n {
        return Slot::default();
    }
    let mut b = Builder {
        n,
        columns: Vec::new(),
        metrics: Vec::new(),
    };
    for (id, value) in report.scores.iter() {
        if value.is_some() {
            b.metric(id, p, table);
        }
    }
    if b.metrics.is_empty() {
        return Slot::default();
    }
    let headline = report.scores.iter().next().map(|(id, _)| id.to_string());
    let unit_scores = headline
        .and_then(|h| column(table, &h))
        .map(<[f64]>::to_vec);
    let units = b.finish(unit_scores);
    Slot::new(Units::plain("item", n, Box::new(units)).with_ids(p.ids.clone()))
}

/// The columns (each `n` values per item, `width` wide) and the metrics as they are added.
struct Builder {
    n: usize,
    columns: Vec<(usize, Vec<f64>)>,
    metrics: Vec<Metric>,
}

impl Builder {
    /// Adds `data` (`width` numbers per item) as the columns of metric `id`.
    fn push(&mut self, id: &str, width: usize, data: Vec<f64>, finish: Finish) {
        if data.len() != width * self.n {
            return;
        }
        self.columns.push((width, data));
        self.metrics.push(Metric {
            id: id.to_string(),
            at: 0,
            width,
            finish,
        });
    }

    /// A mean over items of `values` (`scale` × the weighted mean; undefined when a drawn value is NaN).
    fn mean(&mut self, id: &str, values: Vec<f64>, scale: f64) {
        let finish: Finish =
            Arc::new(move |s, t| (t > 0.0 && s[0].is_finite()).then(|| scale * (s[0] / t)));
        self.push(id, 1, values, finish);
    }

    fn metric(&mut self, id: &str, p: &Pairs, table: &ItemTable) {
        match id {
            "cer" | "wer" | "mer" | "wil" | "wip" => {
                let level = if id == "cer" { "char" } else { "word" };
                if let Some(counts) = counts(table, level) {
                    let f = id.to_string();
                    self.push(id, 4, counts, Arc::new(move |s, _| Some(jiwer_of(s, &f))));
                }
            }
            "cer_mean" | "wer_mean" => {
                let level = if id == "cer_mean" { "char" } else { "word" };
                if let Some(c) = counts(table, level) {
                    let rates = c
                        .chunks_exact(4)
                        .map(|r| jiwer::rate(&to_counts(r)))
                        .collect();
                    self.mean(id, rates, 1.0);
                }
            }
            "ned" => {
                let d: Vec<f64> = p
                    .refs
                    .iter()
                    .zip(&p.hyps)
                    .map(|(r, h)| similarity::normalized_distance(&r[0], h))
                    .collect();
                let finish: Finish = Arc::new(|s, t| (t > 0.0).then(|| 1.0 - s[0] / t));
                self.push(id, 1, d, finish);
            }
            "anls" | "jaccard" | "rouge1" | "rouge2" | "rougeL" | "rougeLsum" => {
                if let Some(v) = column(table, id) {
                    self.mean(id, v.to_vec(), 1.0);
                }
            }
            "exact_match" | "f1" => {
                if let Some(v) = column(table, id) {
                    self.mean(id, v.to_vec(), 100.0);
                }
            }
            "HasAns_exact" | "HasAns_f1" | "NoAns_exact" | "NoAns_f1" => {
                self.squad_part(id, p, table)
            }
            "bleu" => self.bleu(p),
            "chrf" | "chrf++" => self.chrf(id, p),
            "ter" => self.ter(p),
            _ => {}
        }
    }

    /// SQuAD v2.0's totals over the questions with (`HasAns_*`) or without (`NoAns_*`) an answer: each item's
    /// value and whether it is in the part; `100 · sum / count` of the part.
    fn squad_part(&mut self, id: &str, p: &Pairs, table: &ItemTable) {
        let key = if id.ends_with("exact") {
            "exact_match"
        } else {
            "f1"
        };
        let (Some(v), Some((_, has))) = (column(table, key), p.squad.as_ref()) else {
            return;
        };
        let want = id.starts_with("HasAns");
        let mut data = Vec::with_capacity(2 * v.len());
        for (x, h) in v.iter().zip(has) {
            let inside = *h == want;
            data.push(if inside { *x } else { 0.0 });
            data.push(inside as u8 as f64);
        }
        let finish: Finish =
            Arc::new(|s, _| (s[1] > 0.0 && s[0].is_finite()).then(|| 100.0 * s[0] / s[1]));
        self.push(id, 2, data, finish);
    }

    fn bleu(&mut self, p: &Pairs) {
        let opts = BleuOptions::default();
        let order = opts.max_ngram_order;
        let per = segments(p, |h, r| {
            let s = sacrebleu::corpus_bleu(h, r, &BleuOptions::default()).ok()?;
            let mut row: Vec<f64> = s.counts.iter().map(|&c| c as f64).collect();
            row.extend(s.totals.iter().map(|&c| c as f64));
            row.push(s.sys_len as f64);
            row.push(s.ref_len as f64);
            Some(row)
        });
        let Some(data) = per else { return };
        let finish: Finish = Arc::new(move |s, _| {
            let as_u64 = |x: &[f64]| x.iter().map(|&v| v as u64).collect::<Vec<u64>>();
            let (correct, total) = (as_u64(&s[..order]), as_u64(&s[order..2 * order]));
            let (sys, rf) = (s[2 * order] as u64, s[2 * order + 1] as u64);
            Some(compute_bleu(&correct, &total, sys, rf, &opts).score)
        });
        self.push("bleu", 2 * order + 2, data, finish);
    }

    fn chrf(&mut self, id: &str, p: &Pairs) {
        let opts = if id == "chrf" {
            ChrfOptions::chrf()
        } else {
            ChrfOptions::chrf_plus_plus()
        };
        let Ok(mut stats) =
            sacrebleu::segment_chrf_stats(&p.hyps, &p.refs, std::slice::from_ref(&opts))
        else {
            return;
        };
        let Some(stats) = stats.pop() else { return };
        let width = 3 * (opts.char_order + opts.word_order);
        let data: Vec<f64> = stats.iter().map(|&x| x as f64).collect();
        let finish: Finish = Arc::new(move |s, _| {
            let sums: Vec<u64> = s.iter().map(|&v| v as u64).collect();
            Some(chrf_of_stats(&sums, &opts))
        });
        self.push(id, width, data, finish);
    }

    fn ter(&mut self, p: &Pairs) {
        let per = segments(p, |h, r| {
            let s = sacrebleu::corpus_ter(h, r, &TerOptions::default()).ok()?;
            Some(vec![s.num_edits as f64, s.ref_length])
        });
        let Some(data) = per else { return };
        // sacrebleu/metrics/ter.py `_compute_score_from_stats`.
        let finish: Finish = Arc::new(|s, _| {
            let score = if s[1] > 0.0 {
                s[0] / s[1]
            } else if s[0] > 0.0 {
                1.0
            } else {
                0.0
            };
            Some(100.0 * score)
        });
        self.push("ter", 2, data, finish);
    }

    /// The rows of every item, the metrics' columns side by side.
    fn finish(self, unit_scores: Option<Vec<f64>>) -> TextUnits {
        let width: usize = self.columns.iter().map(|(w, _)| w).sum();
        let mut rows = vec![0.0f64; width * self.n];
        let mut metrics = self.metrics;
        let mut at = 0;
        for ((w, data), m) in self.columns.iter().zip(&mut metrics) {
            m.at = at;
            for (i, part) in data.chunks_exact(*w).enumerate() {
                rows[i * width + at..i * width + at + w].copy_from_slice(part);
            }
            at += w;
        }
        TextUnits {
            metrics,
            width,
            rows,
            n: self.n,
            unit_scores,
        }
    }
}

/// Each segment's row `f(hyp, refs)` (a one-segment corpus), the segments shared among the cores; `None` when
/// a segment has none.
fn segments(
    p: &Pairs,
    f: impl Fn(&[String], &[Vec<String>]) -> Option<Vec<f64>> + Sync,
) -> Option<Vec<f64>> {
    let n = p.hyps.len();
    let parts = crate::par::map(
        n.div_ceil(CHUNK),
        || (),
        |_, k| {
            let mut out = Vec::new();
            for i in k * CHUNK..((k + 1) * CHUNK).min(n) {
                out.extend(f(&p.hyps[i..=i], &p.refs[i..=i])?);
            }
            Some(out)
        },
    );
    let mut data = Vec::new();
    for part in parts {
        data.extend(part?);
    }
    Some(data)
}

/// The item table's per-item column `key`.
fn column<'a>(table: &'a ItemTable, key: &str) -> Option<&'a [f64]> {
    table
        .scores
        .iter()
        .find(|c| c.key == key)
        .map(|c| c.values.as_slice())
}

/// The item table's alignment counts at `level` (`char`, `word`): hits, substitutions, deletions, insertions.
fn counts(table: &ItemTable, level: &str) -> Option<Vec<f64>> {
    let parts = ["hits", "substitutions", "deletions", "insertions"]
        .map(|name| column(table, &format!("{level}_{name}")));
    let [h, s, d, i] = parts;
    let (h, s, d, i) = (h?, s?, d?, i?);
    Some(
        (0..h.len())
            .flat_map(|k| [h[k], s[k], d[k], i[k]])
            .collect(),
    )
}

fn to_counts(s: &[f64]) -> Counts {
    Counts {
        hits: s[0] as u64,
        substitutions: s[1] as u64,
        deletions: s[2] as u64,
        insertions: s[3] as u64,
    }
}

/// jiwer's measure `id` of summed counts.
fn jiwer_of(s: &[f64], id: &str) -> f64 {
    let c = to_counts(s);
    let m = jiwer::measures(&c, jiwer::hyp_tokens(&c));
    match id {
        "mer" => m.mer,
        "wil" => m.wil,
        "wip" => m.wip,
        _ => m.wer,
    }
}

impl TextUnits {
    /// The metrics' values from weighted sums of rows: row i taken from `source(i)`.
    fn weighted<'a>(&'a self, w: &[u32], row: impl Fn(usize) -> &'a [f64]) -> Vec<Option<f64>> {
        let mut sums = vec![0.0f64; self.width];
        let mut total = 0u64;
        for (i, &k) in w.iter().enumerate().take(self.n) {
            if k == 0 {
                continue;
            }
            total += k as u64;
            let kf = k as f64;
            for (s, x) in sums.iter_mut().zip(row(i)) {
                *s += kf * x;
            }
        }
        self.metrics
            .iter()
            .map(|m| (m.finish)(&sums[m.at..m.at + m.width], total as f64))
            .collect()
    }

    fn row(&self, i: usize) -> &[f64] {
        &self.rows[i * self.width..(i + 1) * self.width]
    }
}

impl Replicate for TextUnits {
    fn metrics(&self) -> Vec<String> {
        self.metrics.iter().map(|m| m.id.clone()).collect()
    }

    fn values(&self, w: &[u32]) -> Vec<Option<f64>> {
        self.weighted(w, |i| self.row(i))
    }

    /// The other submission's rows where `take_other` (the same ground truth, the same metrics).
    fn mixed(
        &self,
        other: &dyn Replicate,
        take_other: &[bool],
        w: &[u32],
    ) -> Option<Vec<Option<f64>>> {
        let o = other.as_any().downcast_ref::<TextUnits>()?;
        let same = o.n == self.n
            && o.width == self.width
            && take_other.len() == self.n
            && o.metrics
                .iter()
                .map(|m| (&m.id, m.at))
                .eq(self.metrics.iter().map(|m| (&m.id, m.at)));
        if !same {
            return None;
        }
        Some(self.weighted(w, |i| if take_other[i] { o.row(i) } else { self.row(i) }))
    }

    /// The leaderboard metric's per-item values, when it has them.
    fn unit_scores(&self) -> Option<Vec<f64>> {
        self.unit_scores.clone()
    }

    fn lower_is_better(&self, metric: &str) -> bool {
        matches!(
            metric,
            "cer" | "wer" | "mer" | "wil" | "cer_mean" | "wer_mean" | "ter"
        )
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
