//! Warnings about what a reference library does with the input, said where the numbers come from.

use super::inputs::Pairs;
use super::ID;
use crate::diag::Diagnostic;
use crate::diag::Severity;
use crate::metrics::rouge::{drops_letters, tokenize};

/// Ids named in a warning at most.
const SHOWN: usize = 5;

/// rouge-score 0.1.2's default tokenizer lower-cases, then turns every character outside `[a-z0-9]` into a
/// space (`tokenize.py`: `re.sub(r"[^a-z0-9]+", " ", text)`), so letters of other scripts (Cyrillic, CJK,
/// Greek, accented Latin) vanish and a reference written in them scores 0 (Hugging Face evaluate issue 256).
/// dropscore computes what rouge-score computes, and says so: which items' references lose letters, how many,
/// and how many lose every token: a warning when the leaderboard metric (`ranked`) is a ROUGE score, else an
/// info line beside the ROUGE values. `None` when no reference loses a letter.
pub fn rouge_dropped_letters(p: &Pairs, ranked: bool) -> Option<Diagnostic> {
    let mut ids: Vec<&str> = Vec::new();
    let (mut count, mut emptied) = (0usize, 0usize);
    for (id, refs) in p.ids.iter().zip(&p.refs) {
        if !refs.iter().any(|r| drops_letters(r)) {
            continue;
        }
        count += 1;
        if refs.iter().all(|r| tokenize(r, false).is_empty()) {
            emptied += 1;
        }
        if ids.len() < SHOWN {
            ids.push(id);
        }
    }
    if count == 0 {
        return None;
    }
    let mut listed = ids
        .iter()
        .map(|i| format!("`{i}`"))
        .collect::<Vec<_>>()
        .join(", ");
    if count > ids.len() {
        listed.push_str(&format!(" and {} more", count - ids.len()));
    }
    Some(
        Diagnostic::new(
            if ranked { Severity::Warning } else { Severity::Info },
            &format!("{ID}.rouge_dropped_letters"),
            format!(
                "ROUGE ignores letters outside a–z in {count} of {} items' references ({listed}); \
                 {emptied} of them keep no word at all and score 0",
                p.ids.len()
            ),
        )
        .expected("references in Latin letters a–z and digits (rouge-score's tokenizer)")
        .found(format!("{count} item(s) with other letters"))
        .hint(
            "rouge-score's tokenizer keeps only a–z and 0–9 after lower-casing, so Cyrillic, Greek, CJK \
             or accented letters count as nothing. For such text rank by chrf, chrf++, cer or wer instead \
             (metric = \"chrf\").",
        )
        .official("rouge-score computes the same ROUGE values (its default tokenizer drops these letters)"),
    )
}
