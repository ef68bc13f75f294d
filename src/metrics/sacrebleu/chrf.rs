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
    let mut all = corpus_chrf_all(hyps, refs, std::slice::from_ref(opts));
    all.pop().unwrap_or(Err(SacreError::Empty))
}

/// [`corpus_chrf`] for each of `opts` (in order), each the same number. Options that differ only in their word
/// order, β and smoothing (chrF and chrF++) share one pass: each segment's character n-grams are counted once
/// and its word n-grams up to the highest word order; each option takes the orders it has from those counts.
pub fn corpus_chrf_all<H, R, T>(
    hyps: &[H],
    refs: &[R],
    opts: &[ChrfOptions],
) -> Vec<Result<ChrfScore, SacreError>>
where
    H: AsRef<str>,
    R: AsRef<[T]>,
    T: AsRef<str>,
{
    let Some(first) = opts.first() else {
        return Vec::new();
    };
    let same_chars = |o: &ChrfOptions| {
        (o.char_order, o.lowercase, o.whitespace)
            == (first.char_order, first.lowercase, first.whitespace)
    };
    if !opts.iter().all(same_chars) {
        return opts.iter().map(|o| corpus_chrf(hyps, refs, o)).collect();
    }
    if let Err(e) = prepare(hyps.len(), refs) {
        return opts.iter().map(|_| Err(e.clone())).collect();
    }
    let widths: Vec<usize> = opts
        .iter()
        .map(|o| 3 * (first.char_order + o.word_order))
        .collect();
    let mut sums: Vec<Vec<u64>> = widths.iter().map(|&w| vec![0u64; w]).collect();
    each_segment_best(hyps, refs, opts, |o, best| {
        for (s, x) in sums[o].iter_mut().zip(best) {
            *s += x;
        }
    });
    opts.iter()
        .zip(sums)
        .map(|(o, sum)| {
            Ok(ChrfScore {
                score: f_score(&sum, o),
                name: format!("chrF{}{}", o.beta, "+".repeat(o.word_order)),
                signature: chrf_signature(o, &nrefs_label(refs)),
            })
        })
        .collect()
}

/// For each segment in order and each of `opts` (sharing their character options), `f(option, stats)` with the
/// statistics [`corpus_chrf_all`] adds for that segment: those of the reference whose segment F-score is the
/// highest (the first on ties).
fn each_segment_best<H, R, T>(
    hyps: &[H],
    refs: &[R],
    opts: &[ChrfOptions],
    mut f: impl FnMut(usize, &[u64]),
) where
    H: AsRef<str>,
    R: AsRef<[T]>,
    T: AsRef<str>,
{
    let Some(first) = opts.first() else {
        return;
    };
    let shared = ChrfOptions {
        word_order: opts.iter().map(|o| o.word_order).max().unwrap_or(0),
        ..first.clone()
    };
    let nc = shared.char_order;
    let widths: Vec<usize> = opts.iter().map(|o| 3 * (nc + o.word_order)).collect();
    let mut stats = Vec::new();
    let mut table = GramTable::default();
    let mut best: Vec<(f64, Vec<u64>)> = opts.iter().map(|_| (0.0, Vec::new())).collect();
    for (hyp, seg_refs) in hyps.iter().zip(refs) {
        let hyp = Side::new(hyp.as_ref(), &shared);
        for (k, r) in seg_refs.as_ref().iter().enumerate() {
            hyp.stats(
                &Side::new(r.as_ref(), &shared),
                &shared,
                &mut table,
                &mut stats,
            );
            for ((o, b), &width) in opts.iter().zip(&mut best).zip(&widths) {
                let mine = &stats[..width];
                let f = f_score(mine, o);
                if k == 0 || f > b.0 {
                    b.0 = f;
                    b.1.clear();
                    b.1.extend_from_slice(mine);
                }
            }
        }
        for (o, (_, b)) in best.iter().enumerate() {
            f(o, b);
        }
    }
}

/// Each segment's chrF statistics as [`corpus_chrf_all`] sums them (flattened `[hyp, ref, match]` triples per
/// order, the best reference's), for each of `opts`: `out[option]` holds every segment's statistics one after
/// the other (`3 · (char_order + word_order)` numbers each). The corpus score of any multiset of segments is
/// [`chrf_of_stats`] of the sum of their statistics. Options sharing their character options are counted in
/// one pass, as [`corpus_chrf_all`] counts them.
pub fn segment_chrf_stats<H, R, T>(
    hyps: &[H],
    refs: &[R],
    opts: &[ChrfOptions],
) -> Result<Vec<Vec<u64>>, SacreError>
where
    H: AsRef<str>,
    R: AsRef<[T]>,
    T: AsRef<str>,
{
    prepare(hyps.len(), refs)?;
    let mut out: Vec<Vec<u64>> = opts.iter().map(|_| Vec::new()).collect();
    let Some(first) = opts.first() else {
        return Ok(out);
    };
    let same_chars = |o: &ChrfOptions| {
        (o.char_order, o.lowercase, o.whitespace)
            == (first.char_order, first.lowercase, first.whitespace)
    };
    if opts.iter().all(same_chars) {
        each_segment_best(hyps, refs, opts, |o, best| out[o].extend_from_slice(best));
    } else {
        for (o, opt) in opts.iter().enumerate() {
            let into = &mut out[o];
            each_segment_best(hyps, refs, std::slice::from_ref(opt), |_, best| {
                into.extend_from_slice(best)
            });
        }
    }
    Ok(out)
}

/// The chrF score (0–100) of summed segment statistics ([`segment_chrf_stats`]).
pub fn chrf_of_stats(stats: &[u64], opts: &ChrfOptions) -> f64 {
    f_score(stats, opts)
}

/// The highest character order whose n-grams [`Side`] packs into one `u128` (21 bits per code point).
const PACKED_ORDER: usize = 6;

/// One side of a segment: its (lower-cased) text as characters and words, ready for n-gram counting.
struct Side {
    chars: Vec<char>,
    words: Vec<String>,
    /// With a character order up to [`PACKED_ORDER`]: the character n-grams of every order, packed
    /// ([`packed_grams`]).
    grams: Option<Vec<u128>>,
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
        let chars: Vec<char> = if opts.whitespace {
            s.chars().collect()
        } else {
            s.chars().filter(|&c| !pycompat::is_space(c)).collect()
        };
        let words = if opts.word_order > 0 {
            remove_punctuation(s)
        } else {
            Vec::new()
        };
        let grams =
            (opts.char_order <= PACKED_ORDER).then(|| packed_grams(&chars, opts.char_order));
        Side {
            chars,
            words,
            grams,
        }
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

    /// The clipped character matches of orders 1..=`nc` into `st` (`st[3 * (n - 1) + 2]`): over the distinct
    /// n-grams of `self`, the smaller of its counts on the two sides, summed.
    fn char_matches(&self, r: &Side, nc: usize, table: &mut GramTable, st: &mut [u64]) {
        let (Some(h), Some(g)) = (&self.grams, &r.grams) else {
            for n in 1..=nc.min(self.chars.len()).min(r.chars.len()) {
                let (a, b) = (sorted_windows(&self.chars, n), sorted_windows(&r.chars, n));
                st[3 * (n - 1) + 2] = clipped(&a, &b);
            }
            return;
        };
        table.reset(h.len());
        for &x in h {
            table.add(x);
        }
        for &x in g {
            table.add_ref(x);
        }
        for &k in &table.used {
            let [a, b] = table.counts[k];
            st[3 * (gram_order(table.keys[k]) - 1) + 2] += u64::from(a.min(b));
        }
    }

    /// `_compute_segment_statistics` for one reference, into `st`: per order, `[hyp count (0 when the reference
    /// has no n-gram of that order), ref count, clipped matches]`, character orders first.
    fn stats(&self, r: &Side, opts: &ChrfOptions, table: &mut GramTable, st: &mut Vec<u64>) {
        let (nc, nw) = (opts.char_order, opts.word_order);
        st.clear();
        st.resize(3 * (nc + nw), 0);
        let count = |len: usize, n: usize| (len + 1).saturating_sub(n) as u64;
        for n in 1..=nc {
            st[3 * (n - 1)] = count(self.chars.len(), n);
            st[3 * (n - 1) + 1] = count(r.chars.len(), n);
        }
        self.char_matches(r, nc, table, st);
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
    }
}

/// The character n-grams of orders 1..=`max` (`max` ≤ [`PACKED_ORDER`]) of `chars`, each packed into a `u128`:
/// code point + 1 in each 21-bit group (so that no group is 0 and the order is the number of groups), the
/// n-gram's last character in the lowest group.
fn packed_grams(chars: &[char], max: usize) -> Vec<u128> {
    let len = chars.len();
    let mut grams: Vec<u128> = Vec::with_capacity(len.saturating_mul(max));
    grams.extend(chars.iter().map(|&c| u128::from(u32::from(c) + 1)));
    let mut prev = 0;
    for n in 2..=max.min(len) {
        // Order n from order n − 1: the n-gram at i is the (n − 1)-gram at i followed by character i + n − 1.
        let start = grams.len();
        for i in 0..=len - n {
            let g = (grams[prev + i] << 21) | u128::from(u32::from(chars[i + n - 1]) + 1);
            grams.push(g);
        }
        prev = start;
    }
    grams
}

/// The order of a gram of [`packed_grams`]: its number of 21-bit groups.
fn gram_order(g: u128) -> usize {
    (128 - g.leading_zeros() as usize).div_ceil(21)
}

/// An open-addressing table of packed n-grams with their counts on the two sides of a pair, reused from pair to
/// pair (a hash map per segment was most of chrF's time on short lines).
#[derive(Default)]
struct GramTable {
    /// 0: empty (no packed gram is 0).
    keys: Vec<u128>,
    counts: Vec<[u32; 2]>,
    used: Vec<usize>,
    shift: u32,
}

impl GramTable {
    /// Empties the table, sized for `n` distinct grams.
    fn reset(&mut self, n: usize) {
        let size = (2 * n).next_power_of_two().max(16);
        if self.keys.len() < size {
            self.keys = vec![0; size];
            self.counts = vec![[0; 2]; size];
        } else {
            for &k in &self.used {
                self.keys[k] = 0;
                self.counts[k] = [0; 2];
            }
        }
        self.used.clear();
        self.shift = 64 - self.keys.len().trailing_zeros();
    }

    fn slot(&self, g: u128) -> usize {
        let h =
            ((g as u64) ^ ((g >> 64) as u64).rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> self.shift) as usize
    }

    /// Counts `g` on the hypothesis side.
    fn add(&mut self, g: u128) {
        let mask = self.keys.len() - 1;
        let mut k = self.slot(g);
        while self.keys[k] != 0 && self.keys[k] != g {
            k = (k + 1) & mask;
        }
        if self.keys[k] == 0 {
            self.keys[k] = g;
            self.used.push(k);
        }
        self.counts[k][0] += 1;
    }

    /// Counts `g` on the reference side, if the hypothesis has it.
    fn add_ref(&mut self, g: u128) {
        let mask = self.keys.len() - 1;
        let mut k = self.slot(g);
        while self.keys[k] != 0 {
            if self.keys[k] == g {
                self.counts[k][1] += 1;
                return;
            }
            k = (k + 1) & mask;
        }
    }
}

/// The n-grams of order `n` of `c`, sorted (character orders past [`PACKED_ORDER`]).
fn sorted_windows(c: &[char], n: usize) -> Vec<&[char]> {
    let mut g: Vec<&[char]> = c.windows(n).collect();
    g.sort_unstable();
    g
}

/// Over the distinct keys of sorted `a`, the smaller of its counts in `a` and in sorted `b`, summed
/// (`min(hyp count, ref count)` per n-gram, as sacreBLEU's clipped matches).
fn clipped<K: Ord>(a: &[K], b: &[K]) -> u64 {
    let (mut i, mut j, mut n) = (0, 0, 0u64);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                let ra = a[i..].iter().take_while(|x| **x == a[i]).count();
                let rb = b[j..].iter().take_while(|x| **x == b[j]).count();
                n += ra.min(rb) as u64;
                i += ra;
                j += rb;
            }
        }
    }
    n
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
