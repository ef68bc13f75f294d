//! sacreBLEU 2.6.0's corpus BLEU (`BLEU(...).corpus_score(hyps, refs)`, sacrebleu/metrics/bleu.py; Papineni et
//! al. 2002): per segment, each line is lower-cased (option), `rstrip`ped and tokenized; n-grams of orders 1..N
//! (N = `max_ngram_order`, 4) are counted, the reference counts being the maximum over the segment's
//! references; the hypothesis' counts are clipped by them. The closest reference length (ties to the shorter)
//! is the segment's reference length. Corpus sums give
//!
//! BLEU = BP · exp(Σₙ log pₙ / N),  pₙ = 100 · correctₙ / totalₙ,  BP = exp(1 − r / c) if c < r else 1,
//!
//! with `compute_bleu`'s smoothing of zero counts (Chen & Cherry 2014): `exp` halves the previous fallback
//! (pₙ = 100 / (2ᵏ · totalₙ)), `floor` uses 100 · ε / totalₙ, `add-k` adds k to the counts of orders ≥ 2,
//! `none` keeps 0 (log 0 is `my_log`'s −9999999999). Without any match BLEU is 0.

use rustc_hash::FxHashMap;

use super::tokenize::Tokenizer;
use super::{nrefs_label, prepare, SacreError, SACREBLEU_VERSION};
use crate::pycompat;

/// BLEU's smoothing (`smooth_method`, `smooth_value`; `None` values take sacreBLEU's defaults: floor 0.1, add-k 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Smooth {
    None,
    Floor(Option<f64>),
    AddK(Option<f64>),
    Exp,
}

impl Smooth {
    /// The smoothing sacreBLEU calls `name` (`exp`, `floor`, `add-k`, `none`), with an optional value.
    pub fn from_name(name: &str, value: Option<f64>) -> Result<Smooth, String> {
        Ok(match name {
            "exp" => Smooth::Exp,
            "none" => Smooth::None,
            "floor" => Smooth::Floor(value),
            "add-k" => Smooth::AddK(value),
            _ => {
                return Err(format!(
                    "unknown BLEU smoothing `{name}`; use exp, floor, add-k or none"
                ))
            }
        })
    }

    /// The signature's `smooth:` value: the name, and `[value:.2f]` for `floor` and `add-k`.
    fn label(self) -> String {
        match self {
            Smooth::None => "none".into(),
            Smooth::Exp => "exp".into(),
            Smooth::Floor(v) => format!("floor[{:.2}]", v.unwrap_or(0.1)),
            Smooth::AddK(v) => format!("add-k[{:.2}]", v.unwrap_or(1.0)),
        }
    }
}

/// `BLEU(lowercase, tokenize, smooth_method, smooth_value, max_ngram_order, effective_order)`.
#[derive(Clone, Debug)]
pub struct BleuOptions {
    pub lowercase: bool,
    pub tokenizer: Tokenizer,
    pub smooth: Smooth,
    pub max_ngram_order: usize,
    pub effective_order: bool,
}

impl Default for BleuOptions {
    /// sacreBLEU's defaults: mixed case, `13a`, `exp`, order 4, no effective order.
    fn default() -> Self {
        BleuOptions {
            lowercase: false,
            tokenizer: Tokenizer::Thirteen,
            smooth: Smooth::Exp,
            max_ngram_order: 4,
            effective_order: false,
        }
    }
}

/// `BLEUScore`: the score (0–100) and its sufficient statistics. `counts`/`totals` are the corpus sums before
/// `add-k` adds its k (sacreBLEU's object shows them after).
#[derive(Clone, Debug, PartialEq)]
pub struct BleuScore {
    pub score: f64,
    pub counts: Vec<u64>,
    pub totals: Vec<u64>,
    pub precisions: Vec<f64>,
    pub bp: f64,
    pub sys_len: u64,
    pub ref_len: u64,
    /// `sys_len / ref_len`, 0 when `ref_len` is 0.
    pub ratio: f64,
    /// `BLEU.get_signature().format()`, e.g. `nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0`.
    pub signature: String,
}

/// `BLEUSignature(...).format()` for these options and `nrefs` (a count, or `var`).
pub fn bleu_signature(opts: &BleuOptions, nrefs: &str) -> String {
    format!(
        "nrefs:{nrefs}|case:{}|eff:{}|tok:{}|smooth:{}|version:{SACREBLEU_VERSION}",
        if opts.lowercase { "lc" } else { "mixed" },
        if opts.effective_order { "yes" } else { "no" },
        opts.tokenizer.name(),
        opts.smooth.label()
    )
}

/// `BLEU._preprocess_segment`: `sent.lower()` (option), then the tokenizer on `sent.rstrip()`.
fn preprocess(opts: &BleuOptions, s: &str) -> String {
    if opts.lowercase {
        let lower = pycompat::lower(s);
        opts.tokenizer.tokenize(rstrip(&lower))
    } else {
        opts.tokenizer.tokenize(rstrip(s))
    }
}

/// Python's `str.rstrip()` (no argument).
pub(super) fn rstrip(s: &str) -> &str {
    s.trim_end_matches(pycompat::is_space)
}

/// Corpus BLEU of `hyps` against `refs` (one list of references per hypothesis, at least one each), as
/// `BLEU(**opts).corpus_score(hyps, refs)` with the references given as streams (a segment with fewer
/// references has `None` in the others; the signature's `nrefs` is then `var`).
pub fn corpus_bleu<H, R, T>(
    hyps: &[H],
    refs: &[R],
    opts: &BleuOptions,
) -> Result<BleuScore, SacreError>
where
    H: AsRef<str>,
    R: AsRef<[T]>,
    T: AsRef<str>,
{
    prepare(hyps.len(), refs)?;
    if opts.max_ngram_order == 0 {
        return Err(SacreError::Options(
            "BLEU's max_ngram_order must be at least 1".into(),
        ));
    }
    let n = opts.max_ngram_order;
    let (mut correct, mut total) = (vec![0u64; n], vec![0u64; n]);
    let (mut sys_len, mut ref_len) = (0u64, 0u64);
    let mut ref_toks: Vec<String> = Vec::new();
    let mut packed = Packed::default();
    for (hyp, seg_refs) in hyps.iter().zip(refs) {
        ref_toks.clear();
        ref_toks.extend(
            seg_refs
                .as_ref()
                .iter()
                .map(|r| preprocess(opts, r.as_ref())),
        );
        let hyp_tok = preprocess(opts, hyp.as_ref());
        let (h, r) = if n <= 4 {
            packed.segment_stats(&hyp_tok, &ref_toks, n, &mut correct, &mut total)
        } else {
            segment_stats(&hyp_tok, &ref_toks, n, &mut correct, &mut total)
        };
        sys_len += h;
        ref_len += r;
    }
    let mut score = compute_bleu(&correct, &total, sys_len, ref_len, opts);
    score.signature = bleu_signature(opts, &nrefs_label(refs));
    Ok(score)
}

/// `_extract_reference_info` + `_compute_segment_statistics` for one segment: adds its clipped matches and
/// hypothesis n-gram counts per order, returns (hypothesis length, closest reference length).
fn segment_stats(
    hyp: &str,
    refs: &[String],
    n: usize,
    correct: &mut [u64],
    total: &mut [u64],
) -> (u64, u64) {
    let ref_words: Vec<Vec<&str>> = refs.iter().map(|r| pycompat::split(r).collect()).collect();
    let mut ref_ngrams: FxHashMap<&[&str], u32> = FxHashMap::default();
    let mut one: FxHashMap<&[&str], u32> = FxHashMap::default();
    for (k, words) in ref_words.iter().enumerate() {
        if k == 0 {
            count_ngrams(words, n, &mut ref_ngrams);
            continue;
        }
        one.clear();
        count_ngrams(words, n, &mut one);
        for (g, c) in one.drain() {
            let e = ref_ngrams.entry(g).or_insert(0);
            *e = (*e).max(c);
        }
    }
    let hyp_words: Vec<&str> = pycompat::split(hyp).collect();
    let mut hyp_ngrams: FxHashMap<&[&str], u32> = FxHashMap::default();
    count_ngrams(&hyp_words, n, &mut hyp_ngrams);
    for (g, &c) in &hyp_ngrams {
        let order = g.len() - 1;
        total[order] += u64::from(c);
        if let Some(&r) = ref_ngrams.get(g) {
            correct[order] += u64::from(c.min(r));
        }
    }
    let hyp_len = hyp_words.len() as u64;
    let lens = ref_words.iter().map(|w| w.len() as u64);
    (hyp_len, closest_ref_len(hyp_len, lens))
}

/// [`segment_stats`] for orders up to 4, faster: words are numbered corpus-wide (from 1) and an n-gram is the
/// `u128` of its up to four 32-bit numbers, so the maps are reused from segment to segment and a key hashes
/// one integer. Distinct n-grams get distinct keys (numbers are never 0, so the order is the count of
/// non-zero 32-bit parts).
#[derive(Default)]
struct Packed {
    vocab: FxHashMap<Box<str>, u32>,
    ids: Vec<u32>,
    ref_ngrams: FxHashMap<u128, u32>,
    one: FxHashMap<u128, u32>,
    hyp_ngrams: FxHashMap<u128, u32>,
}

impl Packed {
    fn number(&mut self, s: &str) {
        self.ids.clear();
        for w in pycompat::split(s) {
            let id = match self.vocab.get(w) {
                Some(&i) => i,
                None => {
                    let i = u32::try_from(self.vocab.len() + 1).unwrap_or(u32::MAX);
                    self.vocab.insert(w.into(), i);
                    i
                }
            };
            self.ids.push(id);
        }
    }

    fn count(ids: &[u32], n: usize, into: &mut FxHashMap<u128, u32>) {
        for order in 1..=n.min(ids.len()) {
            for g in ids.windows(order) {
                let k = g.iter().fold(0u128, |k, &x| (k << 32) | u128::from(x));
                *into.entry(k).or_insert(0) += 1;
            }
        }
    }

    fn segment_stats(
        &mut self,
        hyp: &str,
        refs: &[String],
        n: usize,
        correct: &mut [u64],
        total: &mut [u64],
    ) -> (u64, u64) {
        self.ref_ngrams.clear();
        let mut lens = Vec::with_capacity(refs.len());
        for (k, r) in refs.iter().enumerate() {
            self.number(r);
            lens.push(self.ids.len() as u64);
            if k == 0 {
                Self::count(&self.ids, n, &mut self.ref_ngrams);
                continue;
            }
            self.one.clear();
            Self::count(&self.ids, n, &mut self.one);
            for (&g, &c) in &self.one {
                let e = self.ref_ngrams.entry(g).or_insert(0);
                *e = (*e).max(c);
            }
        }
        self.number(hyp);
        self.hyp_ngrams.clear();
        Self::count(&self.ids, n, &mut self.hyp_ngrams);
        for (&g, &c) in &self.hyp_ngrams {
            let order = 3 - (g.leading_zeros() / 32) as usize;
            total[order] += u64::from(c);
            if let Some(&r) = self.ref_ngrams.get(&g) {
                correct[order] += u64::from(c.min(r));
            }
        }
        let hyp_len = self.ids.len() as u64;
        (hyp_len, closest_ref_len(hyp_len, lens.into_iter()))
    }
}

/// `extract_all_word_ngrams(line, 1, n)`: the counts of every n-gram of orders 1..=n.
fn count_ngrams<'a>(words: &'a [&'a str], n: usize, into: &mut FxHashMap<&'a [&'a str], u32>) {
    for order in 1..=n.min(words.len()) {
        for g in words.windows(order) {
            *into.entry(g).or_insert(0) += 1;
        }
    }
}

/// `_get_closest_ref_len`: the reference length nearest the hypothesis', the shorter on a tie.
fn closest_ref_len(hyp_len: u64, lens: impl Iterator<Item = u64>) -> u64 {
    let mut best: Option<(u64, u64)> = None;
    for len in lens {
        let diff = hyp_len.abs_diff(len);
        best = match best {
            Some((d, l)) if diff > d || (diff == d && len >= l) => Some((d, l)),
            _ => Some((diff, len)),
        };
    }
    best.map_or(0, |(_, l)| l)
}

/// `my_log`: log, with log 0 = −9999999999.
fn my_log(x: f64) -> f64 {
    if x == 0.0 {
        -9_999_999_999.0
    } else {
        x.ln()
    }
}

/// `BLEU.compute_bleu` on corpus sums (sacrebleu/metrics/bleu.py), in its floating-point order.
pub fn compute_bleu(
    correct: &[u64],
    total: &[u64],
    sys_len: u64,
    ref_len: u64,
    opts: &BleuOptions,
) -> BleuScore {
    let n = correct.len();
    let bp = if sys_len < ref_len {
        if sys_len > 0 {
            (1.0 - ref_len as f64 / sys_len as f64).exp()
        } else {
            0.0
        }
    } else {
        1.0
    };
    let mut precisions = vec![0.0f64; n];
    let ratio = if ref_len > 0 {
        sys_len as f64 / ref_len as f64
    } else {
        0.0
    };
    let mut out = BleuScore {
        score: 0.0,
        counts: correct.to_vec(),
        totals: total.to_vec(),
        precisions: precisions.clone(),
        bp,
        sys_len,
        ref_len,
        ratio,
        signature: String::new(),
    };
    if correct.iter().all(|&c| c == 0) {
        return out;
    }
    let mut smooth_mteval = 1.0f64;
    let mut eff_order = n;
    for k in 0..n {
        let (mut c, mut t) = (correct[k] as f64, total[k] as f64);
        if let Smooth::AddK(v) = opts.smooth {
            if k > 0 {
                let add = v.unwrap_or(1.0);
                c += add;
                t += add;
            }
        }
        if t == 0.0 {
            break;
        }
        if opts.effective_order {
            eff_order = k + 1;
        }
        if c == 0.0 {
            match opts.smooth {
                Smooth::Exp => {
                    smooth_mteval *= 2.0;
                    precisions[k] = 100.0 / (smooth_mteval * t);
                }
                Smooth::Floor(v) => precisions[k] = 100.0 * v.unwrap_or(0.1) / t,
                Smooth::AddK(_) | Smooth::None => {}
            }
        } else {
            precisions[k] = 100.0 * c / t;
        }
    }
    // Python's built-in sum (CPython 3.11: plain left-to-right addition from 0).
    let sum = precisions[..eff_order]
        .iter()
        .fold(0.0, |a, &p| a + my_log(p));
    out.score = bp * (sum / eff_order as f64).exp();
    out.precisions = precisions;
    out
}
