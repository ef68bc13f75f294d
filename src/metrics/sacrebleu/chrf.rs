//! sacreBLEU 2.6.0's corpus chrF and chrF++ (`CHRF(...).corpus_score`, sacrebleu/metrics/chrf.py; Popović
//! 2015, 2017). Character n-grams of orders 1..`char_order` (6) are taken on the line with every whitespace
//! character removed (`''.join(line.split())`, unless `whitespace`); chrF++ adds word n-grams of orders
//! 1..`word_order` (2) over `_remove_punctuation`'s words. For each segment the reference whose statistics give
//! the highest segment F-score is kept (the first on ties); the corpus sums of (hypothesis, reference, match)
//! counts per order give
//!
//! P = mean of match/hyp, R = mean of match/ref over the orders where both counts are positive,
//! chrF = 100 · (1 + β²) · P · R / (β² · P + R)   (0 when P + R = 0), β = 2,
//!
//! or, with `eps_smoothing`, 100 · mean over all orders of the F-score with ε = 1e-16 for empty counts.

use rustc_hash::FxHashMap;

use super::{nrefs_label, prepare, SacreError, SACREBLEU_VERSION};
use crate::pycompat;

/// `CHRF(char_order, word_order, beta, lowercase, whitespace, eps_smoothing)`.
#[derive(Clone, Debug)]
pub struct ChrfOptions {
    pub char_order: usize,
    pub word_order: usize,
    pub beta: u32,
    pub lowercase: bool,
    pub whitespace: bool,
    pub eps_smoothing: bool,
}

impl ChrfOptions {
    /// chrF: sacreBLEU's defaults (char order 6, word order 0, β 2).
    pub fn chrf() -> Self {
        ChrfOptions {
            char_order: 6,
            word_order: 0,
            beta: 2,
            lowercase: false,
            whitespace: false,
            eps_smoothing: false,
        }
    }

    /// chrF++: the defaults with word order 2.
    pub fn chrf_plus_plus() -> Self {
        ChrfOptions {
            word_order: 2,
            ..Self::chrf()
        }
    }
}

/// `CHRFScore`: the score (0–100) and its name (`chrF2`, `chrF2++`).
#[derive(Clone, Debug, PartialEq)]
pub struct ChrfScore {
    pub score: f64,
    pub name: String,
    /// e.g. `nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0`.
    pub signature: String,
}

/// `CHRFSignature(...).format()`.
pub fn chrf_signature(opts: &ChrfOptions, nrefs: &str) -> String {
    format!(
        "nrefs:{nrefs}|case:{}|eff:{}|nc:{}|nw:{}|space:{}|version:{SACREBLEU_VERSION}",
        if opts.lowercase { "lc" } else { "mixed" },
        if opts.eps_smoothing { "no" } else { "yes" },
        opts.char_order,
        opts.word_order,
        if opts.whitespace { "yes" } else { "no" }
    )
}

/// Corpus chrF (chrF++ with `word_order` 2) of `hyps` against `refs` (one list of references per hypothesis).
pub fn corpus_chrf<H, R, T>(
    hyps: &[H],
    refs: &[R],
    opts: &ChrfOptions,
) -> Result<ChrfScore, SacreError>
where
    H: AsRef<str>,
    R: AsRef<[T]>,
    T: AsRef<str>,
{
    prepare(hyps.len(), refs)?;
    let order = opts.char_order + opts.word_order;
    let mut sums = vec![0u64; 3 * order];
    for (hyp, seg_refs) in hyps.iter().zip(refs) {
        let hyp = Side::new(hyp.as_ref(), opts);
        let mut best: Option<(f64, Vec<u64>)> = None;
        for r in seg_refs.as_ref() {
            let stats = hyp.stats(&Side::new(r.as_ref(), opts), opts);
            let f = f_score(&stats, opts);
            if best.as_ref().is_none_or(|(b, _)| f > *b) {
                best = Some((f, stats));
            }
        }
        if let Some((_, stats)) = best {
            for (s, x) in sums.iter_mut().zip(stats) {
                *s += x;
            }
        }
    }
    let name = format!("chrF{}{}", opts.beta, "+".repeat(opts.word_order));
    Ok(ChrfScore {
        score: f_score(&sums, opts),
        name,
        signature: chrf_signature(opts, &nrefs_label(refs)),
    })
}

/// One side of a segment: its (lower-cased) text as characters and words, ready for n-gram counting.
struct Side {
    chars: Vec<char>,
    words: Vec<String>,
}

impl Side {
    fn new(s: &str, opts: &ChrfOptions) -> Side {
        let lowered;
        let s = if opts.lowercase {
            lowered = pycompat::lower(s);
            lowered.as_str()
        } else {
            s
        };
        let chars = if opts.whitespace {
            s.chars().collect()
        } else {
            s.chars().filter(|&c| !pycompat::is_space(c)).collect()
        };
        let words = if opts.word_order > 0 {
            remove_punctuation(s)
        } else {
            Vec::new()
        };
        Side { chars, words }
    }

    fn char_ngrams(&self, max: usize) -> FxHashMap<&[char], u32> {
        // Sized for every n-gram at once: growing the map was a third of chrF's time on short segments.
        let mut m = FxHashMap::with_capacity_and_hasher(
            capacity(self.chars.len(), max),
            Default::default(),
        );
        for n in 1..=max.min(self.chars.len()) {
            for g in self.chars.windows(n) {
                *m.entry(g).or_insert(0) += 1;
            }
        }
        m
    }

    fn word_ngrams(&self, max: usize) -> FxHashMap<&[String], u32> {
        let mut m = FxHashMap::with_capacity_and_hasher(
            capacity(self.words.len(), max),
            Default::default(),
        );
        for n in 1..=max.min(self.words.len()) {
            for g in self.words.windows(n) {
                *m.entry(g).or_insert(0) += 1;
            }
        }
        m
    }

    /// `_compute_segment_statistics` for one reference: per order, `[hyp count (0 when the reference has no
    /// n-gram of that order), ref count, clipped matches]`, character orders first.
    fn stats(&self, r: &Side, opts: &ChrfOptions) -> Vec<u64> {
        let (nc, nw) = (opts.char_order, opts.word_order);
        let mut st = vec![0u64; 3 * (nc + nw)];
        let count = |len: usize, n: usize| (len + 1).saturating_sub(n) as u64;
        let (hc, rc) = (self.char_ngrams(nc), r.char_ngrams(nc));
        for (g, &c) in &hc {
            if let Some(&k) = rc.get(g) {
                st[3 * (g.len() - 1) + 2] += u64::from(c.min(k));
            }
        }
        for n in 1..=nc {
            st[3 * (n - 1)] = count(self.chars.len(), n);
            st[3 * (n - 1) + 1] = count(r.chars.len(), n);
        }
        if nw > 0 {
            let (hw, rw) = (self.word_ngrams(nw), r.word_ngrams(nw));
            for (g, &c) in &hw {
                if let Some(&k) = rw.get(g) {
                    st[3 * (nc + g.len() - 1) + 2] += u64::from(c.min(k));
                }
            }
            for n in 1..=nw {
                st[3 * (nc + n - 1)] = count(self.words.len(), n);
                st[3 * (nc + n - 1) + 1] = count(r.words.len(), n);
            }
        }
        for i in 0..nc + nw {
            if st[3 * i + 1] == 0 {
                st[3 * i] = 0;
            }
        }
        st
    }
}

/// The n-grams of orders 1..=`max` of `len` tokens at most, up to 65,536 entries (a long line's map grows).
fn capacity(len: usize, max: usize) -> usize {
    len.saturating_mul(max).min(1 << 16)
}

/// `CHRF._remove_punctuation`: words of `str.split()`; a word longer than one character loses a final
/// ASCII punctuation mark (`string.punctuation`) as a word of its own, else an initial one.
fn remove_punctuation(s: &str) -> Vec<String> {
    let punct = |c: char| c.is_ascii_punctuation();
    let mut out = Vec::new();
    for w in pycompat::split(s) {
        let mut it = w.chars();
        let (first, last) = (it.next(), it.next_back());
        match (first, last) {
            (Some(_), None) | (None, _) => out.push(w.to_string()),
            (Some(f), Some(l)) => {
                if punct(l) {
                    out.push(w[..w.len() - l.len_utf8()].to_string());
                    out.push(l.to_string());
                } else if punct(f) {
                    out.push(f.to_string());
                    out.push(w[f.len_utf8()..].to_string());
                } else {
                    out.push(w.to_string());
                }
            }
        }
    }
    out
}

/// `CHRF._compute_f_score` on flattened `[hyp, ref, match]` triples, in its floating-point order.
fn f_score(stats: &[u64], opts: &ChrfOptions) -> f64 {
    let eps = 1e-16;
    let factor = f64::from(opts.beta * opts.beta);
    let order = stats.len() / 3;
    let (mut score, mut avg_prec, mut avg_rec, mut effective) = (0.0f64, 0.0f64, 0.0f64, 0usize);
    for t in stats.chunks_exact(3) {
        let (n_hyp, n_ref, n_match) = (t[0], t[1], t[2]);
        let prec = if n_hyp > 0 {
            n_match as f64 / n_hyp as f64
        } else {
            eps
        };
        let rec = if n_ref > 0 {
            n_match as f64 / n_ref as f64
        } else {
            eps
        };
        let denom = factor * prec + rec;
        score += if denom > 0.0 {
            (1.0 + factor) * prec * rec / denom
        } else {
            eps
        };
        if n_hyp > 0 && n_ref > 0 {
            avg_prec += prec;
            avg_rec += rec;
            effective += 1;
        }
    }
    if opts.eps_smoothing {
        return 100.0 * score / order as f64;
    }
    if effective == 0 {
        avg_prec = 0.0;
        avg_rec = 0.0;
    } else {
        avg_prec /= effective as f64;
        avg_rec /= effective as f64;
    }
    if avg_prec + avg_rec != 0.0 {
        let mut s = (1.0 + factor) * avg_prec * avg_rec;
        s /= (factor * avg_prec) + avg_rec;
        100.0 * s
    } else {
        0.0
    }
}
