//! jiwer 4.0.0's measures (`jiwer/process.py` `process_words`, `jiwer/transformations.py` `wer_default` and
//! `cer_default`): corpus-level rates from the summed counts of rapidfuzz's alignment of every pair.
//!
//! - `wer_default`: `RemoveMultipleSpaces` (`re.sub(r"\s\s+", " ", s)`: a run of two or more whitespace
//!   characters becomes one space; a lone tab stays), `Strip` (`str.strip()`), then `s.split(" ")` without the
//!   empty pieces.
//! - `cer_default`: `str.strip()`, then the code points.
//! - With R reference tokens in all, H hits, S, D, I: if R = 0, `wer` = I, `mer` = 0 and `wip` = 1 when the
//!   hypotheses are empty too, else `mer` = 1 and `wip` = 0; otherwise `wer` = (S + D + I) / (H + S + D),
//!   `mer` = (S + D + I) / (H + S + D + I), `wip` = (H / R) · (H / N) (N hypothesis tokens; 0 when N = 0);
//!   `wil` = 1 − `wip`. `cer` is the `wer` of the character tokens.

use crate::metrics::edit::{self, Counts};
use crate::pycompat::{is_space, strip};

/// jiwer's `wer_default` of one string: its words.
pub fn words(s: &str) -> Vec<&str> {
    // RemoveMultipleSpaces then Strip then `split(" ")` without empty pieces: the words are the pieces between
    // single spaces and whitespace runs of length ≥ 2 (a lone tab or newline stays inside its word).
    let s = strip(s);
    let mut out = Vec::new();
    let (mut start, mut run_start, mut run_len, mut lone_space) = (0, 0, 0usize, false);
    for (i, c) in s.char_indices() {
        if is_space(c) {
            if run_len == 0 {
                run_start = i;
                lone_space = c == ' ';
            }
            run_len += 1;
            continue;
        }
        if run_len >= 2 || (run_len == 1 && lone_space) {
            if run_start > start {
                out.push(&s[start..run_start]);
            }
            start = i;
        }
        run_len = 0;
    }
    if s.len() > start {
        out.push(&s[start..]);
    }
    out
}

/// jiwer's `cer_default` of one string: its characters after `str.strip()`.
pub fn chars(s: &str) -> Vec<char> {
    strip(s).chars().collect()
}

/// [`chars`] into `out` (cleared first), for a loop that reuses one buffer.
pub fn chars_into(s: &str, out: &mut Vec<char>) {
    out.clear();
    out.extend(strip(s).chars());
}

/// The counts of one pair's word alignment (`process_words(r, h)`).
pub fn word_counts(reference: &str, hypothesis: &str) -> Counts {
    edit::token_counts(&words(reference), &words(hypothesis))
}

/// The counts of one pair's character alignment (`process_characters(r, h)`).
pub fn char_counts(reference: &str, hypothesis: &str) -> Counts {
    edit::counts(&chars(reference), &chars(hypothesis))
}

/// jiwer's measures of summed counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measures {
    pub wer: f64,
    pub mer: f64,
    pub wil: f64,
    pub wip: f64,
}

/// The measures of the summed `counts` with `hyp_tokens` hypothesis tokens in all.
pub fn measures(c: &Counts, hyp_tokens: u64) -> Measures {
    let (h, s, d, i) = (c.hits, c.substitutions, c.deletions, c.insertions);
    let ref_tokens = h + s + d;
    let (wer, mer, wip);
    if ref_tokens == 0 {
        wer = i as f64;
        (mer, wip) = if hyp_tokens == 0 {
            (0.0, 1.0)
        } else {
            (1.0, 0.0)
        };
    } else {
        wer = (s + d + i) as f64 / (h + s + d) as f64;
        mer = (s + d + i) as f64 / (h + s + d + i) as f64;
        wip = if hyp_tokens >= 1 {
            (h as f64 / ref_tokens as f64) * (h as f64 / hyp_tokens as f64)
        } else {
            0.0
        };
    }
    Measures {
        wer,
        mer,
        wil: 1.0 - wip,
        wip,
    }
}

/// The hypothesis token count of counts: hits + substitutions + insertions.
pub fn hyp_tokens(c: &Counts) -> u64 {
    c.hits + c.substitutions + c.insertions
}

/// The rate of one pair alone (`process_words(r, h).wer` on its counts): errors / reference tokens, or the
/// insertions when the reference is empty.
pub fn rate(c: &Counts) -> f64 {
    measures(c, hyp_tokens(c)).wer
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_transforms() {
        assert_eq!(words("  a  b\tc d \n"), vec!["a", "b\tc", "d"]);
        assert_eq!(words("a\t\tb"), vec!["a", "b"]);
        assert_eq!(words(""), Vec::<&str>::new());
        assert_eq!(chars(" a b "), vec!['a', ' ', 'b']);
    }

    /// `jiwer.wer("hello world", "hello duck")` = 0.5, `jiwer.mer` = 0.5, `jiwer.wil` = 0.75.
    #[test]
    fn small_example() {
        let c = word_counts("hello world", "hello duck");
        let m = measures(&c, hyp_tokens(&c));
        assert_eq!((m.wer, m.mer, m.wil), (0.5, 0.5, 0.75));
    }
}
