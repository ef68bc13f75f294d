//! Google's rouge-score 0.1.2 (PyPI `rouge-score==0.1.2`, rouge_score/rouge_scorer.py; Lin 2004, "ROUGE: a
//! Package for Automatic Evaluation of Summaries"): `RougeScorer(types, use_stemmer).score(target, prediction)`
//! and `score_multi`, for `rouge1`..`rouge9`, `rougeL` and `rougeLsum`, and the mean over items of the
//! per-item scores (not the library's `BootstrapAggregator`, whose resampling is random).
//!
//! - rougeN: clipped n-gram overlap; P = overlap / max(#prediction n-grams, 1), R = overlap / max(#target
//!   n-grams, 1);
//! - rougeL: the longest common subsequence of the token lists; P = LCS / |prediction|, R = LCS / |target|
//!   (0 when either is empty);
//! - rougeLsum: both texts split on `"\n"` (empty pieces dropped), summary-level LCS (section 3.2 of the
//!   paper): for each target sentence the union of its LCS index sets with every prediction sentence, each
//!   union token counted while both texts still have an unused occurrence of it; P = hits / |prediction|,
//!   R = hits / |target|;
//! - F = 2PR / (P + R), 0 when P + R = 0 (`scoring.fmeasure`).

mod tokenize;

pub use tokenize::{drops_letters, tokenize};

use rustc_hash::FxHashMap;

/// A ROUGE type of rouge-score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RougeType {
    /// `rouge1`..`rouge9`.
    N(usize),
    L,
    Lsum,
}

impl RougeType {
    /// The type rouge-score names `name` (`rouge[1-9]`, `rougeL`, `rougeLsum`).
    pub fn from_name(name: &str) -> Result<RougeType, String> {
        match name {
            "rougeL" => Ok(RougeType::L),
            "rougeLsum" => Ok(RougeType::Lsum),
            _ => match name
                .strip_prefix("rouge")
                .and_then(|d| d.parse::<usize>().ok())
            {
                Some(n) if (1..=9).contains(&n) && name.len() == 6 => Ok(RougeType::N(n)),
                _ => Err(format!(
                    "unknown ROUGE type `{name}`; use rouge1 … rouge9, rougeL or rougeLsum"
                )),
            },
        }
    }

    pub fn name(self) -> String {
        match self {
            RougeType::N(n) => format!("rouge{n}"),
            RougeType::L => "rougeL".into(),
            RougeType::Lsum => "rougeLsum".into(),
        }
    }
}

/// `scoring.Score`: precision, recall and F-measure, each in [0, 1].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RougeValue {
    pub precision: f64,
    pub recall: f64,
    pub fmeasure: f64,
}

impl RougeValue {
    fn new(precision: f64, recall: f64) -> RougeValue {
        RougeValue {
            precision,
            recall,
            fmeasure: fmeasure(precision, recall),
        }
    }
}

/// `scoring.fmeasure`: `2 * p * r / (p + r)`, 0 when `p + r` is 0.
fn fmeasure(p: f64, r: f64) -> f64 {
    if p + r > 0.0 {
        2.0 * p * r / (p + r)
    } else {
        0.0
    }
}

/// `RougeScorer(rouge_types, use_stemmer)` with the default tokenizer and `split_summaries=False`.
#[derive(Clone, Debug)]
pub struct RougeScorer {
    pub types: Vec<RougeType>,
    pub use_stemmer: bool,
}

impl RougeScorer {
    pub fn new(types: Vec<RougeType>, use_stemmer: bool) -> RougeScorer {
        RougeScorer { types, use_stemmer }
    }

    /// `score(target, prediction)`: one value per type, in the order of `types`.
    pub fn score(&self, target: &str, prediction: &str) -> Vec<RougeValue> {
        let t = tokenize(target, self.use_stemmer);
        let p = tokenize(prediction, self.use_stemmer);
        self.types
            .iter()
            .map(|ty| match *ty {
                RougeType::N(n) => score_ngrams(&t, &p, n),
                RougeType::L => score_lcs(&t, &p),
                RougeType::Lsum => {
                    let (mut own_t, mut own_p) = (Vec::new(), Vec::new());
                    summary_level_lcs(
                        &self.sentences(target, &t, &mut own_t),
                        &self.sentences(prediction, &p, &mut own_p),
                    )
                }
            })
            .collect()
    }

    /// The tokens of each non-empty line of `text` (`text.split("\n")`, for rougeLsum); `whole` is the
    /// tokenization of all of `text`, which is that of its one line when it has no `\n`. `own` holds the
    /// tokens of the lines otherwise.
    fn sentences<'a>(
        &self,
        text: &str,
        whole: &'a [String],
        own: &'a mut Vec<Vec<String>>,
    ) -> Vec<&'a [String]> {
        if !text.contains('\n') {
            return if text.is_empty() {
                Vec::new()
            } else {
                vec![whole]
            };
        }
        *own = text
            .split('\n')
            .filter(|x| !x.is_empty())
            .map(|x| tokenize(x, self.use_stemmer))
            .collect();
        own.iter().map(Vec::as_slice).collect()
    }

    /// `score_multi(targets, prediction)`: per type, the score of the target with the highest F-measure (the
    /// first on ties, `np.argmax`). `None` without targets (rouge-score raises).
    pub fn score_multi<T: AsRef<str>>(
        &self,
        targets: &[T],
        prediction: &str,
    ) -> Option<Vec<RougeValue>> {
        let all: Vec<Vec<RougeValue>> = targets
            .iter()
            .map(|t| self.score(t.as_ref(), prediction))
            .collect();
        let first = all.first()?;
        let mut best = first.clone();
        for scores in &all[1..] {
            for (b, s) in best.iter_mut().zip(scores) {
                if s.fmeasure > b.fmeasure {
                    *b = *s;
                }
            }
        }
        Some(best)
    }
}

/// The mean over items of each type's per-item score (`sum(values) / len(values)`, left to right), with
/// the per-item scores and the number of items where rouge-score's tokenizer dropped letters.
#[derive(Clone, Debug, PartialEq)]
pub struct RougeCorpus {
    pub means: Vec<RougeValue>,
    pub items: Vec<Vec<RougeValue>>,
    /// Items whose target(s) or prediction have letters or digits outside a–z, 0–9 ([`drops_letters`]).
    pub items_with_dropped_letters: usize,
}

/// rouge-score over a corpus: `score_multi(targets[i], predictions[i])` per item, then the means. `None` if
/// the lengths differ, the corpus is empty or an item has no target.
pub fn corpus_rouge<R, T, H>(
    scorer: &RougeScorer,
    targets: &[R],
    predictions: &[H],
) -> Option<RougeCorpus>
where
    R: AsRef<[T]>,
    T: AsRef<str>,
    H: AsRef<str>,
{
    if targets.len() != predictions.len() || targets.is_empty() {
        return None;
    }
    let mut items = Vec::with_capacity(targets.len());
    let mut dropped = 0;
    for (t, p) in targets.iter().zip(predictions) {
        let t = t.as_ref();
        items.push(scorer.score_multi(t, p.as_ref())?);
        if drops_letters(p.as_ref()) || t.iter().any(|x| drops_letters(x.as_ref())) {
            dropped += 1;
        }
    }
    let n = items.len() as f64;
    let means = (0..scorer.types.len())
        .map(|k| {
            let sum = |f: fn(&RougeValue) -> f64| items.iter().fold(0.0, |a, v| a + f(&v[k])) / n;
            RougeValue {
                precision: sum(|v| v.precision),
                recall: sum(|v| v.recall),
                fmeasure: sum(|v| v.fmeasure),
            }
        })
        .collect();
    Some(RougeCorpus {
        means,
        items,
        items_with_dropped_letters: dropped,
    })
}

/// `_score_ngrams(_create_ngrams(target, n), _create_ngrams(prediction, n))`.
fn score_ngrams(t: &[String], p: &[String], n: usize) -> RougeValue {
    fn count(toks: &[String], n: usize) -> FxHashMap<&[String], u32> {
        let mut m: FxHashMap<&[String], u32> = FxHashMap::default();
        if toks.len() >= n {
            for g in toks.windows(n) {
                *m.entry(g).or_insert(0) += 1;
            }
        }
        m
    }
    let (tg, pg) = (count(t, n), count(p, n));
    let inter: u64 = tg
        .iter()
        .map(|(g, &c)| u64::from(c.min(pg.get(g).copied().unwrap_or(0))))
        .sum();
    let (tn, pn) = (
        (t.len() + 1).saturating_sub(n),
        (p.len() + 1).saturating_sub(n),
    );
    RougeValue::new(
        inter as f64 / pn.max(1) as f64,
        inter as f64 / tn.max(1) as f64,
    )
}

/// `_score_lcs`.
fn score_lcs(t: &[String], p: &[String]) -> RougeValue {
    if t.is_empty() || p.is_empty() {
        return RougeValue::default();
    }
    let mut prev = vec![0u32; p.len() + 1];
    let mut cur = vec![0u32; p.len() + 1];
    for a in t {
        for (j, b) in p.iter().enumerate() {
            cur[j + 1] = if a == b {
                prev[j] + 1
            } else {
                prev[j + 1].max(cur[j])
            };
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    let lcs = f64::from(prev[p.len()]);
    RougeValue::new(lcs / p.len() as f64, lcs / t.len() as f64)
}

/// `lcs_ind(ref, can)`: `_lcs_table` then `_backtrack_norec`, the indices into `r` of one LCS.
fn lcs_ind(r: &[String], c: &[String]) -> Vec<usize> {
    let w = c.len() + 1;
    let mut t = vec![0u32; (r.len() + 1) * w];
    for i in 1..=r.len() {
        for j in 1..=c.len() {
            t[i * w + j] = if r[i - 1] == c[j - 1] {
                t[(i - 1) * w + j - 1] + 1
            } else {
                t[(i - 1) * w + j].max(t[i * w + j - 1])
            };
        }
    }
    let (mut i, mut j) = (r.len(), c.len());
    let mut out = Vec::new();
    while i > 0 && j > 0 {
        if r[i - 1] == c[j - 1] {
            out.push(i - 1);
            i -= 1;
            j -= 1;
        } else if t[i * w + j - 1] > t[(i - 1) * w + j] {
            j -= 1;
        } else {
            i -= 1;
        }
    }
    out.reverse();
    out
}

/// `_summary_level_lcs(ref_sent, can_sent)`.
fn summary_level_lcs(r: &[&[String]], c: &[&[String]]) -> RougeValue {
    let m: usize = r.iter().map(|s| s.len()).sum();
    let n: usize = c.iter().map(|s| s.len()).sum();
    if r.is_empty() || c.is_empty() || m == 0 || n == 0 {
        return RougeValue::default();
    }
    let mut cnt_r: FxHashMap<&str, i64> = FxHashMap::default();
    let mut cnt_c: FxHashMap<&str, i64> = FxHashMap::default();
    for s in r {
        for t in s.iter() {
            *cnt_r.entry(t).or_insert(0) += 1;
        }
    }
    for s in c {
        for t in s.iter() {
            *cnt_c.entry(t).or_insert(0) += 1;
        }
    }
    let mut hits = 0u64;
    for sent in r {
        let mut union: Vec<usize> = c.iter().flat_map(|cs| lcs_ind(sent, cs)).collect();
        union.sort_unstable();
        union.dedup();
        for i in union {
            let tok = sent[i].as_str();
            let (kc, kr) = (
                cnt_c.get(tok).copied().unwrap_or(0),
                cnt_r.get(tok).copied().unwrap_or(0),
            );
            if kc > 0 && kr > 0 {
                hits += 1;
                cnt_c.insert(tok, kc - 1);
                cnt_r.insert(tok, kr - 1);
            }
        }
    }
    RougeValue::new(hits as f64 / n as f64, hits as f64 / m as f64)
}
