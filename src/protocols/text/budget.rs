//! `text` under the memory budget (README, "Limits and the memory budget"): before any metric runs, the
//! tables it would build are weighed against `max_memory`, and a run that would not fit is refused with
//! `input.limit` naming the item (and its side) responsible, before anything is allocated. What is counted:
//!
//! - per item, the rows the report holds beside the texts: alignment counts, per-item values, the table's
//!   id and text cells, the two texts again as the report's cells ([`ITEM_BYTES`] + 3 × the texts);
//! - the largest table of one item: the character alignment (4 bytes per character of each side, 16 per
//!   character of the reference for Hirschberg's two distance rows), sacreBLEU's TER edit-distance matrix
//!   (`cost` u32 and `op` u8 for (hyp words + 1) × (ref words + 1), sacreBLEU 2.6.0 `lib_ter.py`'s
//!   `BeamEditDistance` table as src/metrics/sacrebleu/ter.rs builds it, for each reference in turn) and
//!   rouge-score's `_lcs_table` for rougeLsum (u32 for (ref sentence tokens + 1) × (hyp sentence tokens +
//!   1), the largest sentence pair), twice (two metrics run at once).

use super::inputs::Pairs;
use super::metrics::Metric;
use super::ID;
use crate::budget::{self, Budget};
use crate::diag::{excerpt, Diagnostic};

/// Bytes held per item besides its texts (counts, about 20 per-item values, id and table cells).
pub const ITEM_BYTES: u64 = 512;

/// `None` when `p` scored by `metrics` fits `budget`; otherwise the refusal naming the largest item.
pub fn refusal(p: &Pairs, metrics: &[&Metric], budget: Budget) -> Option<Diagnostic> {
    let ter = metrics.iter().any(|m| m.id == "ter");
    let lsum = metrics.iter().any(|m| m.id == "rougeLsum");
    let mut corpus: u64 = 0;
    let mut largest = (0u64, 0usize, "");
    for (k, (refs, hyp)) in p.refs.iter().zip(&p.hyps).enumerate() {
        let text: u64 = refs.iter().map(|r| r.len() as u64).sum::<u64>() + hyp.len() as u64;
        corpus = corpus.saturating_add(ITEM_BYTES + 3 * text);
        let (need, what) = item_need(refs, hyp, ter, lsum);
        if need > largest.0 {
            largest = (need, k, what);
        }
    }
    let need = corpus.saturating_add(largest.0.saturating_mul(2));
    if budget.check("", need).is_ok() {
        return None;
    }
    let (item, what) = (largest.1, largest.2);
    let whole = format!("scoring {} items", p.ids.len());
    let named = match p.ids.get(item) {
        Some(id) if largest.0 >= corpus => {
            format!(
                "{what} of item `{}` (a {}-byte reference and a {}-byte hypothesis)",
                excerpt(id),
                p.refs[item].iter().map(|r| r.len()).max().unwrap_or(0),
                p.hyps[item].len()
            )
        }
        _ => whole,
    };
    let text = budget.check(&named, need).err().unwrap_or_default();
    let file = p
        .hyp_file
        .get(item)
        .and_then(|&f| p.pred_files.get(f as usize))
        .filter(|_| largest.0 >= corpus);
    let d = Diagnostic::error("input.limit", text);
    Some(
        match file {
            Some(f) => d.file(f),
            None => d,
        }
            .expected(format!("at most {} for the metrics' tables", budget::human(budget.max_memory)))
            .found(format!("about {}", budget::human(need)))
            .hint(format!(
                "{ID} builds tables in proportion to the texts (TER's and rougeLsum's grow with the product \
                 of the two sides' lengths): split very long items into lines or sentences, or choose a metric \
                 with option `metric` and raise the budget."
            )),
    )
}

/// The largest table one item needs, and what it is.
fn item_need(refs: &[String], hyp: &str, ter: bool, lsum: bool) -> (u64, &'static str) {
    let chars = |s: &str| s.chars().count() as u64;
    let hc = chars(hyp);
    let mut best = (0u64, "the character alignment");
    let hw = if ter { words(hyp) } else { 0 };
    let hs = if lsum { longest_sentence(hyp) } else { 0 };
    for r in refs {
        let rc = chars(r);
        let align = 4 * (rc + hc) + 16 * rc;
        if align > best.0 {
            best = (align, "the character alignment");
        }
        if ter {
            let t = 5u64.saturating_mul(hw + 1).saturating_mul(words(r) + 1);
            if t > best.0 {
                best = (t, "TER's edit-distance table");
            }
        }
        if lsum {
            let l = 4u64
                .saturating_mul(hs + 1)
                .saturating_mul(longest_sentence(r) + 1);
            if l > best.0 {
                best = (l, "rougeLsum's LCS table");
            }
        }
    }
    best
}

/// Python's `str.split()` word count (sacreBLEU's TER without normalisation splits on whitespace).
fn words(s: &str) -> u64 {
    crate::pycompat::split(s).count() as u64
}

/// rouge-score's tokens at most in one of `s`'s newline-separated sentences: runs of letters and digits (its
/// tokenizer keeps the ASCII ones; counting every run bounds it).
fn longest_sentence(s: &str) -> u64 {
    s.split('\n')
        .map(|line| {
            line.split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty())
                .count() as u64
        })
        .max()
        .unwrap_or(0)
}
