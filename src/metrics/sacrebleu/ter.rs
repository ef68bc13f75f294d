//! sacreBLEU 2.6.0's corpus TER (`TER(...).corpus_score`, sacrebleu/metrics/ter.py and lib_ter.py; Snover et
//! al. 2006, after Tercom): with the defaults each line is `rstrip`ped, lower-cased and split on whitespace
//! (`TercomTokenizer(normalized=False, no_punct=False, asian_support=False, case_sensitive=False)`). Per
//! segment the edits are the fewest over its references of (block shifts + beam edit distance), the
//! reference length the mean of its references' lengths; TER = 100 · Σ edits / Σ reference lengths (100 when
//! the references are empty and there are edits, else 0).
//!
//! The shift search is lib_ter.py's: candidate shifts of matching word runs (at most 10 words, at most 50
//! positions away), ranked by (edit distance gain, length, earliest start, earliest target); shifts are
//! applied while the gain is positive and fewer than 1000 candidates were tried. The edit distance is
//! `BeamEditDistance`: a band of ±25 cells (wider for very unequal lengths) around the pseudo-diagonal,
//! substitution/match preferred, then deletion, then insertion. Its row cache only saves time (a row depends
//! on the hypothesis prefix and length alone), so rows are reused here from the common prefix.

use rustc_hash::FxHashMap;

use super::bleu::rstrip;
use super::{nrefs_label, prepare, SacreError, SACREBLEU_VERSION};
use crate::pycompat;

const MAX_SHIFT_SIZE: usize = 10;
const MAX_SHIFT_DIST: usize = 50;
const BEAM_WIDTH: usize = 25;
const MAX_SHIFT_CANDIDATES: usize = 1000;
const INF: u32 = u32::MAX / 2;

const OP_NOP: u8 = b' ';
const OP_SUB: u8 = b's';
const OP_INS: u8 = b'i';
const OP_DEL: u8 = b'd';
const OP_UNDEF: u8 = b'x';

/// `TER(case_sensitive=…)`; the other options (`normalized`, `no_punct`, `asian_support`) keep their default
/// `False`.
#[derive(Clone, Debug, Default)]
pub struct TerOptions {
    pub case_sensitive: bool,
}

/// `TERScore`: the score (0–100 and above), total edits and total (mean per segment) reference length.
#[derive(Clone, Debug, PartialEq)]
pub struct TerScore {
    pub score: f64,
    pub num_edits: u64,
    pub ref_length: f64,
    /// e.g. `nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0`.
    pub signature: String,
}

/// `TERSignature(...).format()`.
pub fn ter_signature(opts: &TerOptions, nrefs: &str) -> String {
    format!(
        "nrefs:{nrefs}|case:{}|tok:tercom|norm:no|punct:yes|asian:no|version:{SACREBLEU_VERSION}",
        if opts.case_sensitive { "mixed" } else { "lc" }
    )
}

/// `TER._preprocess_segment` with the default tokenizer: `rstrip`, `lower` (unless case-sensitive), split.
fn words(s: &str, opts: &TerOptions) -> Vec<String> {
    let s = rstrip(s);
    if opts.case_sensitive {
        pycompat::split(s).map(str::to_string).collect()
    } else {
        pycompat::split(&pycompat::lower(s))
            .map(str::to_string)
            .collect()
    }
}

/// Corpus TER of `hyps` against `refs` (one list of references per hypothesis).
pub fn corpus_ter<H, R, T>(
    hyps: &[H],
    refs: &[R],
    opts: &TerOptions,
) -> Result<TerScore, SacreError>
where
    H: AsRef<str>,
    R: AsRef<[T]>,
    T: AsRef<str>,
{
    prepare(hyps.len(), refs)?;
    let (mut edits, mut ref_lengths) = (0u64, 0.0f64);
    for (hyp, seg_refs) in hyps.iter().zip(refs) {
        let h = words(hyp.as_ref(), opts);
        let mut best = u64::MAX;
        let mut lens = 0u64;
        for r in seg_refs.as_ref() {
            let r = words(r.as_ref(), opts);
            let (e, len) = translation_edit_rate(&h, &r);
            lens += len as u64;
            best = best.min(e as u64);
        }
        edits += best;
        // `sum_of_lists`: the per-segment means are added left to right.
        ref_lengths += lens as f64 / seg_refs.as_ref().len() as f64;
    }
    let score = if ref_lengths > 0.0 {
        edits as f64 / ref_lengths
    } else if edits > 0 {
        1.0
    } else {
        0.0
    };
    Ok(TerScore {
        score: 100.0 * score,
        num_edits: edits,
        ref_length: ref_lengths,
        signature: ter_signature(opts, &nrefs_label(refs)),
    })
}

/// lib_ter.py's `translation_edit_rate(words_hyp, words_ref)`: (number of edits, reference length).
pub fn translation_edit_rate<S: AsRef<str>>(hyp: &[S], reference: &[S]) -> (usize, usize) {
    if reference.is_empty() {
        return (hyp.len(), 0);
    }
    let mut ids: FxHashMap<&str, u32> = FxHashMap::default();
    let mut r = Vec::with_capacity(reference.len());
    let mut h = Vec::with_capacity(hyp.len());
    for (words, out) in [(reference, &mut r), (hyp, &mut h)] {
        for w in words {
            let n = ids.len() as u32;
            out.push(*ids.entry(w.as_ref()).or_insert(n));
        }
    }
    let beam = Beam::new(&r, h.len());
    let (mut shifts, mut checked) = (0usize, 0usize);
    loop {
        let (delta, shifted) = best_shift(&h, &r, &beam, &mut checked);
        if checked >= MAX_SHIFT_CANDIDATES || delta <= 0 {
            break;
        }
        shifts += 1;
        h = shifted;
    }
    let m = beam.matrix(&h);
    (shifts + m.cost(h.len(), r.len()) as usize, r.len())
}

/// The edit-distance matrix of one hypothesis (rows) against the reference (columns): cost and operation.
struct Matrix {
    width: usize,
    cost: Vec<u32>,
    op: Vec<u8>,
}

impl Matrix {
    fn cost(&self, i: usize, j: usize) -> u32 {
        self.cost[i * self.width + j]
    }
}

/// `BeamEditDistance` for one reference and one hypothesis length (shifts keep the length).
struct Beam<'a> {
    r: &'a [u32],
    n_h: usize,
    ratio: f64,
    width: usize,
}

impl<'a> Beam<'a> {
    fn new(r: &'a [u32], n_h: usize) -> Beam<'a> {
        let ratio = if n_h > 0 {
            r.len() as f64 / n_h as f64
        } else {
            1.0
        };
        let width = if (BEAM_WIDTH as f64) < ratio / 2.0 {
            (ratio / 2.0 + BEAM_WIDTH as f64).ceil() as usize
        } else {
            BEAM_WIDTH
        };
        Beam {
            r,
            n_h,
            ratio,
            width,
        }
    }

    /// The whole matrix of `h`, rows 0..=n_h.
    fn matrix(&self, h: &[u32]) -> Matrix {
        let w = self.r.len() + 1;
        let mut m = Matrix {
            width: w,
            cost: vec![INF; (h.len() + 1) * w],
            op: vec![OP_UNDEF; (h.len() + 1) * w],
        };
        for j in 0..w {
            m.cost[j] = j as u32;
            m.op[j] = OP_INS;
        }
        for i in 1..=h.len() {
            let (prev, cur) = m.cost.split_at_mut(i * w);
            let prev = &prev[(i - 1) * w..];
            self.row(
                i,
                h[i - 1],
                prev,
                &mut cur[..w],
                Some(&mut m.op[i * w..(i + 1) * w]),
            );
        }
        m
    }

    /// The final distance of `h`, whose first `from` words equal those of the hypothesis of `m`.
    fn distance_from(
        &self,
        m: &Matrix,
        from: usize,
        h: &[u32],
        a: &mut Vec<u32>,
        b: &mut Vec<u32>,
    ) -> u32 {
        let w = self.r.len() + 1;
        a.clear();
        a.extend_from_slice(&m.cost[from * w..(from + 1) * w]);
        for i in from + 1..=h.len() {
            b.clear();
            b.resize(w, INF);
            self.row(i, h[i - 1], a, b, None);
            std::mem::swap(a, b);
        }
        a[w - 1]
    }

    /// Row `i` (hypothesis word `word`) from row `i − 1`, within the beam.
    fn row(&self, i: usize, word: u32, prev: &[u32], cur: &mut [u32], mut ops: Option<&mut [u8]>) {
        let n_r = self.r.len();
        let diag = (i as f64 * self.ratio).floor() as usize;
        let min_j = diag.saturating_sub(self.width);
        let max_j = if i == self.n_h {
            n_r + 1
        } else {
            (n_r + 1).min(diag + self.width)
        };
        for j in min_j..max_j {
            let (c, o) = if j == 0 {
                (prev[0] + 1, OP_DEL)
            } else {
                let (sub, op_sub) = if word == self.r[j - 1] {
                    (0, OP_NOP)
                } else {
                    (1, OP_SUB)
                };
                let mut best = (INF, OP_UNDEF);
                for (c, o) in [
                    (prev[j - 1] + sub, op_sub),
                    (prev[j] + 1, OP_DEL),
                    (cur[j - 1] + 1, OP_INS),
                ] {
                    if best.0 > c {
                        best = (c, o);
                    }
                }
                best
            };
            // Cells a row leaves at infinity keep it (Python compares `INF > INF + cost`, never true).
            if c < INF || j == 0 {
                cur[j] = c.min(INF);
                if let Some(ops) = ops.as_deref_mut() {
                    ops[j] = if c < INF { o } else { OP_UNDEF };
                }
            }
        }
    }
}

/// The trace of `m` from the last cell back, as lib_ter.py builds it, already flipped (`_flip_trace`:
/// insertions and deletions swapped), then `trace_to_alignment`: (align: reference position → hypothesis
/// position, reference errors, hypothesis errors).
fn alignment(m: &Matrix, n_h: usize, n_r: usize) -> (Vec<i64>, Vec<u8>, Vec<u8>) {
    let (mut i, mut j) = (n_h, n_r);
    let mut trace = Vec::new();
    while i > 0 || j > 0 {
        let op = m.op[i * m.width + j];
        match op {
            OP_SUB | OP_NOP => {
                i -= 1;
                j -= 1;
            }
            OP_INS => j -= 1,
            OP_DEL => i -= 1,
            // lib_ter.py raises here; a cell outside the beam is never on the path of a finite distance.
            _ => break,
        }
        trace.push(op);
    }
    trace.reverse();
    let (mut pos_h, mut pos_r) = (-1i64, -1i64);
    let mut align = vec![-1i64; n_r];
    let (mut ref_err, mut hyp_err) = (Vec::new(), Vec::new());
    for op in trace {
        match op {
            OP_NOP | OP_SUB => {
                pos_h += 1;
                pos_r += 1;
                if let Some(a) = align.get_mut(pos_r as usize) {
                    *a = pos_h;
                }
                let e = u8::from(op == OP_SUB);
                hyp_err.push(e);
                ref_err.push(e);
            }
            // Flipped: the matrix's deletion (a hypothesis word consumed) is an insertion here.
            OP_DEL => {
                pos_h += 1;
                hyp_err.push(1);
            }
            _ => {
                pos_r += 1;
                if let Some(a) = align.get_mut(pos_r as usize) {
                    *a = pos_h;
                }
                ref_err.push(1);
            }
        }
    }
    (align, ref_err, hyp_err)
}

/// `_perform_shift(words, start, length, target)`, Python slices clamped.
fn perform_shift(w: &[u32], start: usize, len: usize, target: usize, out: &mut Vec<u32>) {
    out.clear();
    let s = |a: usize, b: usize| &w[a.min(w.len())..b.min(w.len()).max(a.min(w.len()))];
    if target < start {
        out.extend_from_slice(s(0, target));
        out.extend_from_slice(s(start, start + len));
        out.extend_from_slice(s(target, start));
        out.extend_from_slice(s(start + len, w.len()));
    } else if target > start + len {
        out.extend_from_slice(s(0, start));
        out.extend_from_slice(s(start + len, target));
        out.extend_from_slice(s(start, start + len));
        out.extend_from_slice(s(target, w.len()));
    } else {
        out.extend_from_slice(s(0, start));
        out.extend_from_slice(s(start + len, len + target));
        out.extend_from_slice(s(start, start + len));
        out.extend_from_slice(s(len + target, w.len()));
    }
}

/// `_shift`: the best shift of `h` (gain, shifted words), counting tried candidates in `checked`.
fn best_shift(h: &[u32], r: &[u32], beam: &Beam, checked: &mut usize) -> (i64, Vec<u32>) {
    let m = beam.matrix(h);
    let (align, ref_err, hyp_err) = alignment(&m, h.len(), r.len());
    let mut s = Search {
        h,
        pre: i64::from(m.cost(h.len(), r.len())),
        m: &m,
        beam,
        align: &align,
        ref_err: &ref_err,
        hyp_err: &hyp_err,
        best: None,
        shifted: Vec::new(),
        a: Vec::new(),
        b: Vec::new(),
    };
    'pairs: for start_h in 0..h.len() {
        for start_r in 0..r.len() {
            if start_r.abs_diff(start_h) > MAX_SHIFT_DIST {
                continue;
            }
            let mut len = 0;
            while len < MAX_SHIFT_SIZE && h[start_h + len] == r[start_r + len] {
                len += 1;
                s.try_pair(start_h, start_r, len, checked);
                if *checked >= MAX_SHIFT_CANDIDATES {
                    break 'pairs;
                }
                if h.len() == start_h + len || r.len() == start_r + len {
                    break;
                }
            }
        }
    }
    match s.best {
        Some((key, words)) => (key.0, words),
        None => (0, h.to_vec()),
    }
}

/// A candidate's rank in `_shift`: (gain, length, −start, −target), compared as a Python tuple.
type Rank = (i64, usize, i64, i64);

/// The state of one `_shift` call: the hypothesis, its matrix and alignment, the best candidate so far
/// ((gain, length, −start, −target) and its words) and scratch buffers.
struct Search<'a> {
    h: &'a [u32],
    pre: i64,
    m: &'a Matrix,
    beam: &'a Beam<'a>,
    align: &'a [i64],
    ref_err: &'a [u8],
    hyp_err: &'a [u8],
    best: Option<(Rank, Vec<u32>)>,
    shifted: Vec<u32>,
    a: Vec<u32>,
    b: Vec<u32>,
}

impl Search<'_> {
    /// The body of `_shift`'s loop for one matching run of `_find_shifted_pairs`: its filters, then the
    /// candidate of every target position.
    fn try_pair(&mut self, sh: usize, sr: usize, len: usize, checked: &mut usize) {
        let clean = |e: Option<&[u8]>| e.is_none_or(|e| e.iter().all(|&x| x == 0));
        if clean(self.hyp_err.get(sh..sh + len)) || clean(self.ref_err.get(sr..sr + len)) {
            return;
        }
        let at = self.align[sr];
        if sh as i64 <= at && at < (sh + len) as i64 {
            return;
        }
        let mut prev_idx = -1i64;
        for offset in -1i64..len as i64 {
            let pos = sr as i64 + offset;
            let idx = if pos == -1 {
                0
            } else if (pos as usize) < self.align.len() {
                self.align[pos as usize] + 1
            } else {
                break;
            };
            if idx == prev_idx {
                continue;
            }
            prev_idx = idx;
            let target = idx as usize;
            perform_shift(self.h, sh, len, target, &mut self.shifted);
            let from = sh.min(target).min(self.h.len());
            let d = self
                .beam
                .distance_from(self.m, from, &self.shifted, &mut self.a, &mut self.b);
            let key = (self.pre - i64::from(d), len, -(sh as i64), -idx);
            *checked += 1;
            if self.best.as_ref().is_none_or(|(k, _)| key > *k) {
                self.best = Some((key, self.shifted.clone()));
            }
        }
    }
}
