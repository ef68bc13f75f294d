//! One results block scored as rusteval does (binary32, official) or with the corrected fixes: hits in rank
//! order, P@k and AP, the 11-point curve and the trec_eval-equivalent values, with the block's diagnostics.

use super::{EmptyGt, Scored, Settings};
use crate::diag::{Diagnostic, Diags};
use crate::formats::kws_xml::Block;
use crate::metrics::{interp, rusteval};
use crate::protocols::kws::gtindex::{GtIndex, GtQuery};
use crate::report::Mode;

type BBox = (u32, u32, u32, u32);

/// docs/specs/kws.md 3.3: the trec_eval measures of the converted run (section 2.8) for one query: `bin` qrels for
/// P, relative_P, map, recip_rank and Rprec, `graded10` qrels for ndcg and ndcg_cut_10. trec_eval matches by
/// docno, i.e. document and box.
fn trec_equivalent(gains: Vec<Option<i64>>, gtq: &GtQuery, ks: &[usize]) -> Vec<(String, f64)> {
    use crate::metrics::trec::{evaluate, Family, Judged, Measure};
    let qrels: Vec<i64> = gtq.qrels_gains().collect();
    let bin = Judged {
        ranked: gains.iter().map(|g| g.map(|_| 1)).collect(),
        qrels: vec![1; qrels.len()],
        relevance_level: 1,
        ..Judged::default()
    };
    let graded = Judged {
        ranked: gains,
        qrels,
        relevance_level: 1,
        ..Judged::default()
    };
    let mut m: Vec<Measure> = ks
        .iter()
        .map(|k| Measure::cut(Family::P, *k as u32))
        .collect();
    m.extend(
        ks.iter()
            .map(|k| Measure::cut(Family::RelativeP, *k as u32)),
    );
    m.extend([
        Measure::single(Family::Map),
        Measure::single(Family::RecipRank),
        Measure::single(Family::Rprec),
    ]);
    let mut out = evaluate(&bin, &m);
    out.extend(evaluate(
        &graded,
        &[
            Measure::single(Family::Ndcg),
            Measure::cut(Family::NdcgCut, 10),
        ],
    ));
    out
}

pub(super) fn score_block(
    block: &Block,
    index: &GtIndex,
    s: &Settings,
    file: &str,
    d: &mut Diags,
) -> Scored {
    let n = block.words.len();
    if s.mode == Mode::Official {
        short_list(block, s, file, d);
    }
    let Some(gtq) = index.get(&block.query) else {
        return unknown_query(block, s, file, d);
    };
    let (hits, gains) = hits_in_rank_order(block, gtq, s, file, d);
    let r = gtq.relevant;
    let nhits = hits.iter().filter(|h| **h).count();
    let (values, values_f32) = values_of(&hits, r, s);
    let hit_strip: String = hits
        .iter()
        .take(100)
        .map(|h| if *h { '1' } else { '0' })
        .collect();
    let trec = trec_equivalent(gains, gtq, &s.ks);
    Scored {
        line: block.line,
        n,
        r,
        hits: nhits,
        values,
        values_f32,
        hit_strip,
        pr11: interp::iprec_11(&hits, r),
        known: true,
        trec,
    }
}

/// Official mode: a list shorter than the largest k makes rusteval panic.
fn short_list(block: &Block, s: &Settings, file: &str, d: &mut Diags) {
    let (n, q) = (block.words.len(), &block.query);
    let kmax = s.ks.iter().copied().max().unwrap_or(10);
    if n < kmax {
        d.push(
            Diagnostic::error(
                "kws.official.short_list",
                format!("query `{q}` lists {n} items; rusteval needs at least {kmax}"),
            )
            .file(file)
            .line(block.line)
            .expected(format!("at least {kmax} <word> items"))
            .found(format!("{n}"))
            .hint("Return at least 10 items per query, or use corrected mode (P@k ÷ min(k, R)).")
            .official(format!(
                "rusteval crashes: query `{q}` lists {n} items, fewer than the {} it reads for P@{0}",
                s.ks.iter().copied().find(|k| *k > n).unwrap_or(kmax)
            )),
        );
    }
}

/// A results query without a GT block: an error officially (rusteval crashes), skipped with a warning when
/// corrected.
fn unknown_query(block: &Block, s: &Settings, file: &str, d: &mut Diags) -> Scored {
    let q = &block.query;
    if s.mode == Mode::Official {
        d.push(
            Diagnostic::error("kws.official.unknown_query", format!("results query `{q}` has no GT block"))
                .file(file)
                .line(block.line)
                .hint("Remove queries that are not in the ground truth, or use corrected mode (skipped with a warning).")
                .official("rusteval crashes: a query in the results has no ground-truth block"),
        );
    } else {
        d.push(
            Diagnostic::warning(
                "kws.results.unknown_query",
                format!("results query `{q}` is not in the GT: skipped"),
            )
            .file(file)
            .line(block.line)
            .hint("Check the query id; it is not scored.")
            .official("rusteval crashes: a query in the results has no ground-truth block"),
        );
    }
    Scored {
        line: block.line,
        n: block.words.len(),
        r: 0,
        hits: 0,
        values: vec![None; s.ks.len() + 1],
        values_f32: vec![None; s.ks.len() + 1],
        hit_strip: String::new(),
        pr11: None,
        known: false,
        trec: Vec::new(),
    }
}

/// Each listed word's hit (a repeat of a hit is none with `dedupe`) and graded gain, in rank order, with the
/// notes on repeated relevant items and hits on another page.
fn hits_in_rank_order(
    block: &Block,
    gtq: &GtQuery,
    s: &Settings,
    file: &str,
    d: &mut Diags,
) -> (Vec<bool>, Vec<Option<i64>>) {
    let (n, q) = (block.words.len(), &block.query);
    let mut hits = Vec::with_capacity(n);
    let mut gains = Vec::with_capacity(n);
    // (document, box) of the hits so far, for dedupe.
    let mut seen: Vec<(&str, BBox)> = Vec::new();
    let (mut dups, mut cross) = (0usize, 0usize);
    let (mut dup_line, mut cross_line) = (0u64, 0u64);
    for w in &block.words {
        let m = gtq.find(w, s.match_document);
        gains.push(m.gain);
        let mut hit = m.hit;
        if hit {
            if !m.same_document {
                cross += 1;
                if cross_line == 0 {
                    cross_line = w.line;
                }
            }
            let key = (&*w.document, w.bbox());
            if seen.contains(&key) {
                dups += 1;
                if dup_line == 0 {
                    dup_line = w.line;
                }
                if s.dedupe {
                    hit = false;
                }
            } else {
                seen.push(key);
            }
        }
        hits.push(hit);
    }
    if dups > 0 {
        let sev = if s.dedupe {
            crate::diag::Severity::Info
        } else {
            crate::diag::Severity::Warning
        };
        d.push(
            Diagnostic::new(sev, "kws.results.duplicate_item", format!("query `{q}` lists a relevant item again ({dups}× repeated)"))
                .file(file)
                .line(dup_line)
                .hint(if s.dedupe { "Repeats count as non-relevant (dedupe = true)." } else { "List each item once; rusteval counts every repeat as a hit, so values can exceed 1." })
                .official("every repeat counts as a hit"),
        );
    }
    if cross > 0 && !s.match_document {
        d.push(
            Diagnostic::info("kws.results.cross_document_hit", format!("query `{q}`: {cross} hit(s) match a GT box on another page"))
                .file(file)
                .line(cross_line)
                .hint("rusteval ignores `document` when matching; corrected mode (match_document = true) does not count these.")
                .official("counted as hits"),
        );
    }
    (hits, gains)
}

/// P@k for each k, then AP: rusteval's binary32 arithmetic officially, binary64 when corrected.
fn values_of(hits: &[bool], r: usize, s: &Settings) -> (Vec<Option<f64>>, Vec<Option<f32>>) {
    let mut values = Vec::with_capacity(s.ks.len() + 1);
    let mut values_f32 = Vec::with_capacity(s.ks.len() + 1);
    if s.mode == Mode::Official {
        let hf: Vec<f32> = hits.iter().map(|h| if *h { 1.0 } else { 0.0 }).collect();
        let rf = r as f32;
        for k in &s.ks {
            values_f32.push(rusteval::prec_at_k_f32(&hf, *k, rf));
        }
        values_f32.push(Some(rusteval::ap_f32(&hf, rf)));
        values = values_f32.iter().map(|v| v.map(|x| x as f64)).collect();
    } else {
        for k in &s.ks {
            values.push(rusteval::prec_at_k(hits, *k, r));
        }
        values.push(rusteval::ap(hits, r));
    }
    // An empty GT block: `nan` keeps what the arithmetic gives (0/0 = NaN in binary32; `None` in binary64,
    // which the mean reads as NaN too), `exclude` leaves every value out, `zero` scores 0.
    if r == 0 && s.empty != EmptyGt::Nan {
        let v = (s.empty == EmptyGt::Zero).then_some(0.0);
        values = vec![v; s.ks.len() + 1];
        values_f32 = vec![v.map(|x| x as f32); s.ks.len() + 1];
    }
    (values, values_f32)
}
