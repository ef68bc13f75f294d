//! SQuAD's `evaluate-v1.1.py` and `evaluate-v2.0.py` (Rajpurkar et al., the official evaluation scripts
//! published with the datasets): answer normalisation, exact match and token F1, the maximum over gold
//! answers. The scripts' totals (×100) are the protocol's; this module scores one question.

use crate::metrics::aij::nltk_tokenize::is_word;
use crate::pycompat::{lower, split};

/// Python's `string.punctuation`.
const PUNCTUATION: &str = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

/// `re.sub(r'\b(a|an|the)\b', ' ', text)`.
fn remove_articles(t: &str) -> String {
    let cs: Vec<char> = t.chars().collect();
    let mut out = String::with_capacity(t.len());
    let mut i = 0;
    while i < cs.len() {
        let boundary_before = i == 0 || !is_word(cs[i - 1]);
        if boundary_before {
            let found = ["a", "an", "the"].iter().find_map(|w| {
                let n = w.chars().count();
                let matches = cs.len() >= i + n && cs[i..i + n].iter().copied().eq(w.chars());
                let boundary_after = cs.get(i + n).is_none_or(|&c| !is_word(c));
                (matches && boundary_after).then_some(n)
            });
            if let Some(n) = found {
                out.push(' ');
                i += n;
                continue;
            }
        }
        out.push(cs[i]);
        i += 1;
    }
    out
}

/// `normalize_answer(s)`: lower case, ASCII punctuation removed, articles removed, whitespace collapsed.
pub fn normalize_answer(s: &str) -> String {
    let l = lower(s);
    let no_punc: String = l.chars().filter(|c| !PUNCTUATION.contains(*c)).collect();
    split(&remove_articles(&no_punc))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `Counter(a) & Counter(b)` summed: the common tokens with multiplicity.
fn common(a: &[&str], b: &[&str]) -> usize {
    let mut b: Vec<&str> = b.to_vec();
    b.sort_unstable();
    let mut used = vec![false; b.len()];
    let mut n = 0;
    for t in a {
        let lo = b.partition_point(|x| x < t);
        if let Some(k) = (lo..b.len())
            .take_while(|&k| b[k] == *t)
            .find(|&k| !used[k])
        {
            used[k] = true;
            n += 1;
        }
    }
    n
}

fn token_f1(pred: &[&str], gold: &[&str], num_same: usize) -> f64 {
    let precision = num_same as f64 / pred.len() as f64;
    let recall = num_same as f64 / gold.len() as f64;
    (2.0 * precision * recall) / (precision + recall)
}

/// v1.1 `f1_score(prediction, ground_truth)`.
pub fn f1_v1(prediction: &str, gold: &str) -> f64 {
    let (p, g) = (normalize_answer(prediction), normalize_answer(gold));
    f1_tokens(&p, &g, Version::V1)
}

/// v2.0 `compute_f1(a_gold, a_pred)`: when either side has no token, 1 if both have none, else 0.
pub fn f1_v2(prediction: &str, gold: &str) -> f64 {
    let (p, g) = (normalize_answer(prediction), normalize_answer(gold));
    f1_tokens(&p, &g, Version::V2)
}

/// The F1 of the two scripts on normalised answers `p`, `g` ([`f1_v1`], [`f1_v2`]).
fn f1_tokens(p: &str, g: &str, v: Version) -> f64 {
    let (p, g): (Vec<&str>, Vec<&str>) = (split(p).collect(), split(g).collect());
    if v == Version::V2 && (p.is_empty() || g.is_empty()) {
        return f64::from(u8::from(p == g));
    }
    match common(&p, &g) {
        0 => 0.0,
        n => token_f1(&p, &g, n),
    }
}

/// Exact match after [`normalize_answer`] (both scripts), 0 or 1.
pub fn exact(prediction: &str, gold: &str) -> f64 {
    f64::from(u8::from(
        normalize_answer(prediction) == normalize_answer(gold),
    ))
}

/// Which script scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    V1,
    V2,
}

/// (exact, f1) of one question: the maximum over its gold answers. v1.1: over all of them (`None` when there
/// are none: the script's `max([])` raises); v2.0 (`get_raw_scores`): over the answers whose normalisation is not
/// empty, or over `['']` when none is.
pub fn score(prediction: &str, answers: &[String], v: Version) -> Option<(f64, f64)> {
    // Each answer normalised once: `exact_match` and `f1` both compare normalised answers.
    let p = normalize_answer(prediction);
    let normed: Vec<String> = answers.iter().map(|a| normalize_answer(a)).collect();
    let golds: Vec<&str> = match v {
        Version::V1 => normed.iter().map(String::as_str).collect(),
        Version::V2 => {
            let g: Vec<&str> = normed
                .iter()
                .map(String::as_str)
                .filter(|a| !a.is_empty())
                .collect();
            // `['']`: the empty string normalises to itself.
            if g.is_empty() {
                vec![""]
            } else {
                g
            }
        }
    };
    let max = |f: &dyn Fn(&str) -> f64| {
        golds.iter().map(|g| f(g)).fold(None, |m: Option<f64>, s| {
            Some(m.map_or(s, |m| if s > m { s } else { m }))
        })
    };
    let em = max(&|g| f64::from(u8::from(p == g)))?;
    let f1 = max(&|g| f1_tokens(&p, g, v))?;
    Some((em, f1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalisation() {
        assert_eq!(normalize_answer("The  Cat, a dog!"), "cat dog");
        assert_eq!(normalize_answer("anthem"), "anthem");
        assert_eq!(normalize_answer("éa b"), "éa b");
        assert_eq!(
            f1_v1("the cat sat", "a cat sat down"),
            2.0 * (1.0 * 1.0 * (2.0 / 3.0)) / (1.0 + 2.0 / 3.0)
        );
        assert_eq!(f1_v2("", ""), 1.0);
        assert_eq!(score("x", &[], Version::V2), Some((0.0, 0.0)));
    }
}
