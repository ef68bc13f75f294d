//! `text`'s work limit: the character edit distances (the alignment of every single-reference item, NED and
//! ANLS) cost the product of the two sides' lengths in matrix cells, 64 cells an operation of the
//! bit-parallel run (src/metrics/edit/bitpar.rs). A pair of long lines without spaces keeps little memory but
//! its cells grow as the square of its length, so before any metric runs the cells of every item are summed
//! and a run over [`CELLS_PER_BYTE`] cells per byte of `max_memory` is refused with `input.limit` naming the
//! largest item, rather than computing for hours. The limit follows the budget, so `--set max_memory=…` raises
//! both.

use super::inputs::Pairs;
use super::metrics::Metric;
use crate::budget::{self, Budget};
use crate::diag::{excerpt, Diagnostic};

/// Matrix cells allowed per byte of the budget: with the default 2 GiB, 2.7 × 10¹¹ cells, about 4 × 10⁹
/// operations of the bit-parallel run for each pass over them (1,000 pairs of 10,000-character lines are
/// 10¹¹ cells).
pub const CELLS_PER_BYTE: u64 = 128;

/// `None` when the character edit distances of `p` fit the work limit of `budget`; otherwise the refusal
/// naming the item with the most cells. `single`: the alignment of every item runs (one reference each).
pub fn refusal(p: &Pairs, metrics: &[&Metric], budget: Budget, single: bool) -> Option<Diagnostic> {
    let anls = metrics.iter().any(|m| m.id == "anls" || m.id == "ned");
    if !single && !anls {
        return None;
    }
    let limit = budget.max_memory.saturating_mul(CELLS_PER_BYTE);
    let mut total: u64 = 0;
    let mut largest = (0u64, 0usize);
    for (k, (refs, hyp)) in p.refs.iter().zip(&p.hyps).enumerate() {
        let hc = hyp.chars().count() as u64;
        let cells = refs
            .iter()
            .map(|r| (r.chars().count() as u64).saturating_mul(hc))
            .fold(0u64, u64::saturating_add);
        total = total.saturating_add(cells);
        if cells > largest.0 {
            largest = (cells, k);
        }
    }
    if total <= limit {
        return None;
    }
    let k = largest.1;
    let item =
        match p.ids.get(k) {
            Some(id) => format!(
            "; the largest, item `{}`, has a {}-character reference and a {}-character hypothesis",
            excerpt(id),
            p.refs[k].iter().map(|r| r.chars().count()).max().unwrap_or(0),
            p.hyps[k].chars().count()
        ),
            None => String::new(),
        };
    let text = format!(
        "the character edit distances of {} items need {} matrix cells{item}, over the work limit of {} cells \
         ({CELLS_PER_BYTE} per byte of max_memory = {}): refused before computing; {}",
        p.ids.len(),
        total,
        limit,
        budget::human(budget.max_memory),
        budget::RAISE
    );
    let d = Diagnostic::error("input.limit", text)
        .expected(format!("at most {limit} cells of edit-distance matrices"))
        .found(format!("{total} cells"))
        .hint(
            "The character edit distance of a pair costs the product of its two lengths: split very long \
             items into lines, or raise the budget.",
        );
    let file = p
        .hyp_file
        .get(k)
        .and_then(|&f| p.pred_files.get(f as usize));
    Some(match file {
        Some(f) => d.file(f),
        None => d,
    })
}
