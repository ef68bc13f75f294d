//! METEOR as the contest computes it (docs/specs/aij2022.md 3.7): ai-forever/fbc2_aij2022
//! `evaluation/{vqa,captioning}/metric(s)/rumeteor.py`, which is NLTK's `single_meteor_score` with a RuWordNet
//! synonym stage. Greedy alignment (exact, then stem, then synonym), no crossing minimisation:
//!
//! P = m/|H|, R = m/|R|, Fmean = PR / (αP + (1−α)R), pen = γ·(chunks/m)^β, score = (1 − pen)·Fmean.

use super::recycle;
use serde::Serialize;
use std::borrow::Cow;
use std::collections::HashMap;
use std::rc::Rc;

/// Match stages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    Exact,
    Stem,
    Synonym,
}

/// One aligned pair: hypothesis index, reference index, stage.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Link {
    pub h: usize,
    pub r: usize,
    pub stage: Stage,
}

/// The METEOR value and everything the alignment view shows.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Alignment {
    pub links: Vec<Link>,
    pub chunks: usize,
    pub precision: f64,
    pub recall: f64,
    pub fmean: f64,
    pub penalty: f64,
    pub score: f64,
}

/// Parameters: α, β, γ. VQA: (0.9, 3, 0); captioning: (0.9, 3, 0.5).
#[derive(Clone, Copy, Debug)]
pub struct Params {
    pub alpha: f64,
    pub beta: f64,
    pub gamma: f64,
}

/// Synonym candidates of a (lower-cased) hypothesis token: RuWordNet hypernym titles and derivations, lower-cased
/// (the `ruwordnet_table` option). The token itself is always a candidate (it cannot match at this stage).
pub type Synonyms = HashMap<String, Vec<String>>;

/// `_match_enums`: for i from the last remaining hypothesis token down, the highest-index remaining
/// reference token with an equal key; both are removed. `keys` are the keys of `hyp` and `refs` (the tokens
/// themselves when `None`: the exact stage).
fn match_stage<K: PartialEq>(
    hyp: &mut Vec<(usize, Cow<'_, str>)>,
    refs: &mut Vec<(usize, Cow<'_, str>)>,
    mut keys: Option<(&[K], &mut Vec<K>)>,
    stage: Stage,
    links: &mut Vec<Link>,
) {
    let mut i = hyp.len();
    while i > 0 {
        i -= 1;
        let found = match &keys {
            Some((hk, rk)) => (0..rk.len()).rev().find(|&j| rk[j] == hk[i]),
            None => (0..refs.len()).rev().find(|&j| refs[j].1 == hyp[i].1),
        };
        if let Some(j) = found {
            links.push(Link {
                h: hyp[i].0,
                r: refs[j].0,
                stage,
            });
            hyp.remove(i);
            refs.remove(j);
            if let Some((_, rk)) = &mut keys {
                rk.remove(j);
            }
        }
    }
}

/// The stem stage: [`match_stage`] on the stems of the remaining tokens (`hk`, `rk`: buffers for them).
fn stem_stage(
    hyp: &mut Vec<(usize, Cow<'_, str>)>,
    refs: &mut Vec<(usize, Cow<'_, str>)>,
    stem: StemFn,
    (hk, rk): (&mut Vec<Rc<str>>, &mut Vec<Rc<str>>),
    links: &mut Vec<Link>,
) {
    if hyp.is_empty() || refs.is_empty() {
        return;
    }
    hk.clear();
    hk.extend(hyp.iter().map(|(_, w)| stem(w)));
    rk.clear();
    rk.extend(refs.iter().map(|(_, w)| stem(w)));
    match_stage(hyp, refs, Some((&hk[..], rk)), Stage::Stem, links);
}

/// A stemmer as `meteor` takes it: stems are shared (the captioning stemmer memoises them).
type StemFn<'s> = &'s dyn Fn(&str) -> Rc<str>;

/// `_enum_wordnetsyn_match` with a synonym table: a reference token in S(w) = {w} ∪ syn(w) matches w.
fn synonym_stage(
    hyp: &mut Vec<(usize, Cow<str>)>,
    refs: &mut Vec<(usize, Cow<str>)>,
    syn: &Synonyms,
    links: &mut Vec<Link>,
) {
    let mut i = hyp.len();
    while i > 0 {
        i -= 1;
        let Some(cands) = syn.get(&*hyp[i].1) else {
            continue;
        };
        let w = &hyp[i].1;
        if let Some(j) = (0..refs.len())
            .rev()
            .find(|&j| refs[j].1 == *w || cands.iter().any(|c| *c == refs[j].1))
        {
            links.push(Link {
                h: hyp[i].0,
                r: refs[j].0,
                stage: Stage::Synonym,
            });
            hyp.remove(i);
            refs.remove(j);
        }
    }
}

/// `_count_chunks` over matches sorted by hypothesis index.
pub fn count_chunks(links: &[Link]) -> usize {
    let mut chunks = 1;
    for w in links.windows(2) {
        if !(w[1].h == w[0].h + 1 && w[1].r == w[0].r + 1) {
            chunks += 1;
        }
    }
    chunks
}

/// Buffers [`meteor_in`] reuses from call to call: a 100,000-id captioning run called the allocator ten times
/// per id for them.
#[derive(Default)]
pub struct Scratch {
    h: Vec<(usize, Cow<'static, str>)>,
    r: Vec<(usize, Cow<'static, str>)>,
    hk: Vec<Rc<str>>,
    rk: Vec<Rc<str>>,
    /// The links of the last [`meteor_in`] call, sorted by hypothesis index.
    pub links: Vec<Link>,
}

/// `single_meteor_score(reference, hypothesis, stemmer, alpha, beta, gamma)`; tokens are lower-cased first
/// (`preprocess=str.lower`). `synonyms = None` skips the synonym stage.
pub fn meteor<H: AsRef<str>, R: AsRef<str>>(
    hyp: &[H],
    reference: &[R],
    stem: &dyn Fn(&str) -> Rc<str>,
    synonyms: Option<&Synonyms>,
    p: Params,
) -> Alignment {
    let mut s = Scratch::default();
    let a = meteor_in(&mut s, hyp, reference, stem, synonyms, p);
    Alignment {
        links: s.links,
        ..a
    }
}

/// [`meteor`] on reused buffers; the alignment's `links` are left in `s.links` (the returned ones are empty).
pub fn meteor_in<H: AsRef<str>, R: AsRef<str>>(
    s: &mut Scratch,
    hyp: &[H],
    reference: &[R],
    stem: &dyn Fn(&str) -> Rc<str>,
    synonyms: Option<&Synonyms>,
    p: Params,
) -> Alignment {
    let mut h = recycle(std::mem::take(&mut s.h));
    h.extend(
        hyp.iter()
            .map(|w| crate::pycompat::lower_cow(w.as_ref()))
            .enumerate(),
    );
    let mut r = recycle(std::mem::take(&mut s.r));
    r.extend(
        reference
            .iter()
            .map(|w| crate::pycompat::lower_cow(w.as_ref()))
            .enumerate(),
    );
    let links = &mut s.links;
    links.clear();
    match_stage::<Rc<str>>(&mut h, &mut r, None, Stage::Exact, links);
    stem_stage(&mut h, &mut r, stem, (&mut s.hk, &mut s.rk), links);
    if let Some(syn) = synonyms {
        synonym_stage(&mut h, &mut r, syn, links);
    }
    s.h = recycle(h);
    s.r = recycle(r);
    // Python's sort is stable: equal hypothesis indices cannot occur (each token matches once).
    links.sort_by_key(|l| l.h);
    let m = links.len();
    let zero = Alignment {
        links: Vec::new(),
        chunks: 0,
        precision: 0.0,
        recall: 0.0,
        fmean: 0.0,
        penalty: 0.0,
        score: 0.0,
    };
    if hyp.is_empty() || reference.is_empty() || m == 0 {
        // ZeroDivisionError → 0.0 (translation_length, reference_length or matches_count is 0).
        return zero;
    }
    let precision = m as f64 / hyp.len() as f64;
    let recall = m as f64 / reference.len() as f64;
    let denom = p.alpha * precision + (1.0 - p.alpha) * recall;
    let fmean = (precision * recall) / denom;
    let chunks = count_chunks(links);
    let frag = chunks as f64 / m as f64;
    let penalty = p.gamma * libm::pow(frag, p.beta);
    Alignment {
        links: Vec::new(),
        chunks,
        precision,
        recall,
        fmean,
        penalty,
        score: (1.0 - penalty) * fmean,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn perfect_four_tokens() {
        let p = Params {
            alpha: 0.9,
            beta: 3.0,
            gamma: 0.5,
        };
        let a = meteor(&toks("a b c d"), &toks("a b c d"), &|w| w.into(), None, p);
        assert_eq!(a.score, 0.9921875);
    }

    #[test]
    fn nltk_doc_example() {
        // nltk.translate.meteor_score doctest sentences; NLTK gives 0.7398 with WordNet and
        // 0.6944444444444445 with an empty WordNet (nltk 3.10.4), the value here (no synonym stage).
        let p = Params {
            alpha: 0.9,
            beta: 3.0,
            gamma: 0.5,
        };
        let h = toks("It is a guide to action which ensures that the military always obeys the commands of the party");
        let r = toks("It is a guide to action that ensures that the military will forever heed Party commands");
        let a = meteor(
            &h,
            &r,
            &|w| crate::metrics::aij::porter::stem(w).into(),
            None,
            p,
        );
        assert_eq!(a.score, 0.6944444444444445);
    }

    #[test]
    fn reused_buffers_give_the_fresh_result() {
        // One Scratch across many calls (as the captioning loop uses it) against a fresh one per call.
        let words = ["кот", "кота", "коты", "спит", "спят", "на", "a", "b"];
        let p = Params {
            alpha: 0.9,
            beta: 3.0,
            gamma: 0.5,
        };
        let stem = |w: &str| -> Rc<str> { w.chars().take(3).collect::<String>().into() };
        let mut seed = 7u64;
        let mut pick = |n: u64| {
            crate::xorshift64(&mut seed);
            (0..seed % n)
                .map(|k| words[((seed >> (3 * k)) % words.len() as u64) as usize])
                .collect::<Vec<_>>()
        };
        let mut s = Scratch::default();
        let ptr = {
            s.h.reserve(16);
            s.h.as_ptr() as usize
        };
        for _ in 0..2_000 {
            let (h, r) = (pick(9), pick(9));
            let fresh = meteor(&h, &r, &stem, None, p);
            let a = meteor_in(&mut s, &h, &r, &stem, None, p);
            assert_eq!(
                Alignment {
                    links: s.links.clone(),
                    ..a
                },
                fresh,
                "{h:?} {r:?}"
            );
        }
        assert_eq!(s.h.as_ptr() as usize, ptr, "the token buffer is reused");
    }
}
