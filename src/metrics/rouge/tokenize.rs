//! rouge-score 0.1.2's default tokenizer (rouge_score/tokenize.py, `tokenizers.DefaultTokenizer`):
//! `text.lower()`, every run of characters outside `[a-z0-9]` replaced by one space, split on whitespace,
//! tokens longer than 3 characters stemmed by NLTK's `PorterStemmer()` (its default `NLTK_EXTENSIONS` mode,
//! the same stemmer as aij2022's METEOR: [`crate::metrics::aij::porter`]) when `use_stemmer`, and only tokens
//! matching `^[a-z0-9]+$` kept. So any other script (Cyrillic, CJK, accented Latin letters) is dropped: text
//! without ASCII letters or digits has no token and scores 0, as the library does.

use crate::pycompat;

/// The tokens of `text` as `tokenize.tokenize(text, stemmer)` returns them.
pub fn tokenize(text: &str, use_stemmer: bool) -> Vec<String> {
    let lower = pycompat::lower_cow(text);
    let mut out = Vec::new();
    let (mut buf, mut stemmed) = (Vec::new(), String::new());
    for tok in lower.split(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit())) {
        if tok.is_empty() {
            continue;
        }
        if use_stemmer && tok.len() > 3 {
            crate::metrics::aij::porter::stem_into(tok, &mut buf, &mut stemmed);
            if !stemmed.is_empty()
                && stemmed
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
            {
                out.push(stemmed.clone());
            }
        } else {
            out.push(tok.to_string());
        }
    }
    out
}

/// Whether `text` has letters or digits (after `str.lower()`) outside `a–z`, `0–9`, which the tokenizer
/// drops: the caller warns that rouge-score ignores such text.
pub fn drops_letters(text: &str) -> bool {
    pycompat::lower_cow(text)
        .chars()
        .any(|c| !c.is_ascii() && c.is_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rouge_score_examples() {
        assert_eq!(
            tokenize("The quick brown fox jumps", false),
            ["the", "quick", "brown", "fox", "jumps"]
        );
        assert_eq!(
            tokenize("The quick brown fox jumps", true),
            ["the", "quick", "brown", "fox", "jump"]
        );
        assert_eq!(tokenize("Привет, мир", false), Vec::<String>::new());
        assert!(drops_letters("Привет"));
        assert!(!drops_letters("hello, world!"));
    }
}
