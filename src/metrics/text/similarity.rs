//! Normalized edit distance, ANLS and word Jaccard.

use crate::metrics::edit::char_distance;
use crate::pycompat::{lower, split, strip};

/// lev(a, b) / max(len a, len b) on code points, 0 when both are empty: the term of ICDAR 2019 ReCTS / ArT's
/// "1-N.E.D." (the metric is 1 − the mean of these over items).
pub fn normalized_distance(a: &str, b: &str) -> f64 {
    let n = a.chars().count().max(b.chars().count());
    if n == 0 {
        return 0.0;
    }
    char_distance(a, b) as f64 / n as f64
}

/// [`normalized_distance`] from a distance already known and the two lengths in code points.
pub fn normalized_of(distance: u64, len_a: u64, len_b: u64) -> f64 {
    let n = len_a.max(len_b);
    if n == 0 {
        return 0.0;
    }
    distance as f64 / n as f64
}

/// `" ".join(s.strip().lower().split())`: the ANLS script's normalisation.
pub fn anls_normalize(s: &str) -> String {
    split(&lower(strip(s))).collect::<Vec<_>>().join(" ")
}

/// The length of Python's `s.upper()` in code points (the full upper-case mapping: `ß` is `SS`).
fn upper_len(s: &str) -> usize {
    if s.is_ascii() {
        return s.len();
    }
    s.chars().map(|c| c.to_uppercase().count()).sum()
}

/// PyPI `anls` 0.0.2 `anls_score(prediction, gold_labels, threshold)` (`anls/metrics/score.py`,
/// `anls/metrics/dist.py`): both sides normalised by [`anls_normalize`]; NL = lev / max(len(a.upper()),
/// len(b.upper())) (0 when that is 0); a reference scores 1 − NL when NL < τ, else 0; the best reference
/// counts. `None` when there is no reference (the script's `max([])` raises).
pub fn anls(prediction: &str, references: &[String], threshold: f64) -> Option<f64> {
    let p = anls_normalize(prediction);
    let mut best: Option<f64> = None;
    for r in references {
        let g = anls_normalize(r);
        let len = upper_len(&p).max(upper_len(&g));
        let nl = if len == 0 {
            0.0
        } else {
            char_distance(&p, &g) as f64 / len as f64
        };
        let s = if nl < threshold { 1.0 - nl } else { 0.0 };
        // Python's max keeps the first of equal values; equal floats are the same value.
        best = Some(best.map_or(s, |b: f64| if s > b { s } else { b }));
    }
    best
}

/// Kaggle Tweet Sentiment Extraction's `jaccard(str1, str2)`: the sets of `str.lower().split()` words,
/// |a ∩ b| / (|a| + |b| − |a ∩ b|). `None` when both sets are empty (the published function divides by zero).
pub fn jaccard(a: &str, b: &str) -> Option<f64> {
    let la = lower(a);
    let lb = lower(b);
    let mut sa: Vec<&str> = split(&la).collect();
    let mut sb: Vec<&str> = split(&lb).collect();
    sa.sort_unstable();
    sa.dedup();
    sb.sort_unstable();
    sb.dedup();
    let c = sa.iter().filter(|w| sb.binary_search(w).is_ok()).count();
    let d = sa.len() + sb.len() - c;
    (d > 0).then(|| c as f64 / d as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn examples() {
        assert_eq!(normalized_distance("", ""), 0.0);
        assert_eq!(normalized_distance("ab", "ac"), 0.5);
        let refs = vec!["The Answer".to_string(), "x".to_string()];
        assert_eq!(anls("  the   answer ", &refs, 0.5), Some(1.0));
        assert_eq!(
            anls("abc", &["abd".to_string()], 0.5),
            Some(1.0 - 1.0 / 3.0)
        );
        assert_eq!(anls("ab", &["cd".to_string()], 0.5), Some(0.0));
        assert_eq!(jaccard("A b b", "a c"), Some(1.0 / 3.0));
        assert_eq!(jaccard(" ", ""), None);
    }
}
