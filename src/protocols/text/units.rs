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
use crate::stats::sums::{Finish, SumsBuilder};
use crate::stats::units::{Slot, Units};
use std::sync::Arc;

/// The metrics where a smaller value is better.
const LOWER_IS_BETTER: [&str; 7] = ["cer", "wer", "mer", "wil", "cer_mean", "wer_mean", "ter"];

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
    let mut b = SumsBuilder::new(n);
    for (id, value) in report.scores.iter() {
        if value.is_some() {
            metric(&mut b, id, p, table);
        }
    }
    if b.is_empty() {
        return Slot::default();
    }
    let headline = report.scores.iter().next().map(|(id, _)| id.to_string());
    let unit_scores = headline
        .and_then(|h| column(table, &h))
        .map(<[f64]>::to_vec);
    let units = b.build(unit_scores, &LOWER_IS_BETTER);
    Slot::new(Units::plain("item", n, Box::new(units)).with_ids(p.ids.clone()))
}

fn metric(b: &mut SumsBuilder, id: &str, p: &Pairs, table: &ItemTable) {
    match id {
        "cer" | "wer" | "mer" | "wil" | "wip" => {
            let level = if id == "cer" { "char" } else { "word" };
            if let Some(counts) = counts(table, level) {
                let f = id.to_string();
                b.sums(id, 4, counts, Arc::new(move |s, _| Some(jiwer_of(s, &f))));
            }
        }
        "cer_mean" | "wer_mean" => {
            let level = if id == "cer_mean" { "char" } else { "word" };
            if let Some(c) = counts(table, level) {
                let rates = c
                    .chunks_exact(4)
                    .map(|r| jiwer::rate(&to_counts(r)))
                    .collect();
                b.mean(id, rates, 1.0);
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
            b.sums(id, 1, d, finish);
        }
        "anls" | "jaccard" | "rouge1" | "rouge2" | "rougeL" | "rougeLsum" => {
            if let Some(v) = column(table, id) {
                b.mean(id, v.to_vec(), 1.0);
            }
        }
        "exact_match" | "f1" => {
            if let Some(v) = column(table, id) {
                b.mean(id, v.to_vec(), 100.0);
            }
        }
        "HasAns_exact" | "HasAns_f1" | "NoAns_exact" | "NoAns_f1" => squad_part(b, id, p, table),
        "bleu" => bleu(b, p),
        "chrf" | "chrf++" => chrf(b, id, p),
        "ter" => ter(b, p),
        _ => {}
    }
}

/// SQuAD v2.0's totals over the questions with (`HasAns_*`) or without (`NoAns_*`) an answer: each item's
/// value and whether it is in the part; `100 · sum / count` of the part.
fn squad_part(b: &mut SumsBuilder, id: &str, p: &Pairs, table: &ItemTable) {
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
    b.sums(id, 2, data, finish);
}

fn bleu(b: &mut SumsBuilder, p: &Pairs) {
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
    b.sums("bleu", 2 * order + 2, data, finish);
}

fn chrf(b: &mut SumsBuilder, id: &str, p: &Pairs) {
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
    b.sums(id, width, data, finish);
}

fn ter(b: &mut SumsBuilder, p: &Pairs) {
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
    b.sums("ter", 2, data, finish);
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
