//! The two passes of a regression replicate over the rows ([`super::Fast::values`]), for K replicates at once:
//! the columns are read once for the K, each replicate's sums kept apart and added in its own order (blocks of
//! 256 rows as `block_sums` adds them), so every replicate's sums are those of one replicate alone, to the bit.

use super::Fast;
use crate::stats::units::{times, Weight};
use crate::stats::wide::wide;

/// What the first pass gives of one replicate.
#[derive(Clone, Copy)]
pub(super) struct First {
    /// Σ k·x of |p − t|, (t − p)², the APE, SMAPE and squared log terms, t, p and t − p.
    pub sums: [f64; 8],
    /// Σ k.
    pub count: u64,
    /// The largest drawn |t − p| (NaN when nothing is drawn).
    pub largest: f64,
    /// Every weight fits in a byte (the reads in sorted order then read them as bytes).
    pub fits: bool,
}

impl First {
    /// The means of t, p and t − p (NaN when nothing is drawn).
    pub fn means(&self) -> [f64; 3] {
        let nf = self.count as f64;
        [self.sums[5] / nf, self.sums[6] / nf, self.sums[7] / nf]
    }
}

/// A weighted term: the plain product when every term is finite (a zero weight then adds ±0.0), else
/// [`times`] (see `stats::units::weighted_means`).
#[inline(always)]
fn term(x: f64, k: u32, plain: bool) -> f64 {
    if plain {
        x * k as f64
    } else {
        times(x, k)
    }
}

/// The first pass: the eight weighted sums, the weights' total and whether every weight fits in a byte; then
/// the largest drawn |t − p| ([`largest_drawn`]).
pub(super) fn first<W: Weight, const K: usize>(fast: &Fast, ws: [&[W]; K]) -> [First; K] {
    let (t, p, plain) = (&fast.targets[..], &fast.preds[..], fast.plain);
    let n = ws.iter().map(|w| w.len()).fold(t.len(), usize::min);
    let ws = ws.map(|w| &w[..n]);
    let (ape, smape, sle) = (&fast.ape[..n], &fast.smape[..n], &fast.sle[..n]);
    let mut out = [First {
        sums: [0.0; 8],
        count: 0,
        largest: f64::NAN,
        fits: true,
    }; K];
    wide(
        #[inline(always)]
        || first_rows(t, p, [ape, smape, sle], ws, plain, &mut out),
    );
    for (o, w) in out.iter_mut().zip(ws) {
        o.largest = largest_drawn(fast, w);
    }
    out
}

/// The largest drawn |t − p| as `max` over the drawn rows gives it (NaN passed over; NaN when none is left):
/// the first drawn row that is not NaN from the top of the rows sorted by |t − p| (`total_cmp` puts NaN
/// last). A replicate leaves a row undrawn with probability about 1/e: a few rows are read.
pub(super) fn largest_drawn<W: Weight>(fast: &Fast, w: &[W]) -> f64 {
    let drawn = |&&i: &&u32| w[i as usize] != W::default() && !fast.abs[i as usize].is_nan();
    let top = fast.by_abs.iter().rev().find(drawn);
    top.map_or(f64::NAN, |&i| fast.abs[i as usize])
}

/// [`first`]'s loop over the rows (see there).
#[inline(always)]
fn first_rows<W: Weight, const K: usize>(
    t: &[f64],
    p: &[f64],
    [ape, smape, sle]: [&[f64]; 3],
    ws: [&[W]; K],
    plain: bool,
    out: &mut [First; K],
) {
    let n = ws.iter().map(|w| w.len()).fold(t.len(), usize::min);
    let (t, p, ape, smape, sle) = (&t[..n], &p[..n], &ape[..n], &smape[..n], &sle[..n]);
    // Kept in locals (registers) through the loop, written to `out` at the end.
    let (mut count, mut heaviest) = ([0u64; K], [0u32; K]);
    let mut start = 0;
    while start < n {
        let end = (start + 256).min(n);
        let mut block = [[0.0f64; 8]; K];
        for i in start..end {
            let d = t[i] - p[i];
            let abs = (p[i] - t[i]).abs();
            let terms = [abs, d * d, ape[i], smape[i], sle[i], t[i], p[i], d];
            for r in 0..K {
                let k: u32 = ws[r][i].into();
                for (b, &x) in block[r].iter_mut().zip(&terms) {
                    *b += term(x, k, plain);
                }
                count[r] += k as u64;
                heaviest[r] = heaviest[r].max(k);
            }
        }
        for (o, b) in out.iter_mut().zip(block) {
            for (s, b) in o.sums.iter_mut().zip(b) {
                *s += b;
            }
        }
        start = end;
    }
    for (r, o) in out.iter_mut().enumerate() {
        (o.count, o.fits) = (count[r], heaviest[r] <= 255);
    }
}

/// The second pass around each replicate's means (t̄, p̄, mean of t − p): Σ k·(t − t̄)², Σ k·(p − p̄)²,
/// Σ k·(t − t̄)(p − p̄), Σ k·(t − p − d̄)².
pub(super) fn second<W: Weight, const K: usize>(
    fast: &Fast,
    ws: [&[W]; K],
    means: [[f64; 3]; K],
) -> [[f64; 4]; K] {
    let (t, p, plain) = (&fast.targets[..], &fast.preds[..], fast.plain);
    let n = ws.iter().map(|w| w.len()).fold(t.len(), usize::min);
    let ws = ws.map(|w| &w[..n]);
    wide(
        #[inline(always)]
        || second_rows(&t[..n], &p[..n], ws, means, plain),
    )
}

/// [`second`]'s loop over the rows (see there).
#[inline(always)]
fn second_rows<W: Weight, const K: usize>(
    t: &[f64],
    p: &[f64],
    ws: [&[W]; K],
    means: [[f64; 3]; K],
    plain: bool,
) -> [[f64; 4]; K] {
    let n = ws
        .iter()
        .map(|w| w.len())
        .fold(t.len().min(p.len()), usize::min);
    let ws = ws.map(|w| &w[..n]);
    let mut out = [[0.0f64; 4]; K];
    let mut start = 0;
    while start < n {
        let end = (start + 256).min(n);
        let mut block = [[0.0f64; 4]; K];
        for i in start..end {
            for r in 0..K {
                let [mt, mp, md] = means[r];
                let (a, b, d) = (t[i] - mt, p[i] - mp, t[i] - p[i] - md);
                let k: u32 = ws[r][i].into();
                for (s, x) in block[r].iter_mut().zip([a * a, b * b, a * b, d * d]) {
                    *s += term(x, k, plain);
                }
            }
        }
        for (o, b) in out.iter_mut().zip(block) {
            for (s, b) in o.iter_mut().zip(b) {
                *s += b;
            }
        }
        start = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::Fast;

    /// Four replicates at once give each replicate's values to the bit (sums, max, median, correlations),
    /// with non-finite terms, weights past a byte and a block's remainder.
    #[test]
    fn a_block_equals_its_replicates_one_by_one() {
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for n in [1usize, 3, 300, 2000, 3000] {
            // At 3,000 rows, three target values: runs across many chunks of the sweeps.
            let values = if n == 3000 { 3 } else { 1000 };
            let t: Vec<f64> = (0..n)
                .map(|_| (next() % values) as f64 / 7.0 - 3.0)
                .collect();
            let mut p: Vec<f64> = (0..n).map(|_| (next() % 900) as f64 / 3.0 - 1.5).collect();
            if n == 300 {
                p[7] = f64::INFINITY;
            }
            let fast = Fast::new(&t, &p, true);
            // Thirteen replicates: a block of eight with a weight past a byte, a block of four, one alone.
            let ws: Vec<Vec<u32>> = (0..13)
                .map(|r| {
                    (0..n)
                        .map(|i| match (r, i) {
                            (2, 0) => 300,
                            _ => (next() % 4) as u32,
                        })
                        .collect()
                })
                .collect();
            let refs: Vec<&[u32]> = ws.iter().map(|w| w.as_slice()).collect();
            let block = fast.values_block(&refs);
            for (w, got) in refs.iter().zip(&block) {
                let one = fast.values(w);
                let bits = |v: &[(&str, Option<f64>)]| -> Vec<(String, Option<u64>)> {
                    v.iter()
                        .map(|(k, v)| (k.to_string(), v.map(f64::to_bits)))
                        .collect()
                };
                assert_eq!(bits(got), bits(&one), "n {n}");
            }
            // The same weights as bytes (the replicates without a weight past a byte: a block of eight, one
            // of four): the same bits.
            let bytes: Vec<Vec<u8>> = (ws.iter().enumerate())
                .filter(|&(r, _)| r != 2)
                .map(|(_, w)| w)
                .map(|w| w.iter().map(|&k| k as u8).collect())
                .collect();
            let byte_refs: Vec<&[u8]> = bytes.iter().map(|w| w.as_slice()).collect();
            let from_bytes = fast.values_block(&byte_refs);
            let bits = |v: &[Vec<(&str, Option<f64>)>]| -> Vec<Vec<Option<u64>>> {
                v.iter()
                    .map(|v| v.iter().map(|(_, v)| v.map(f64::to_bits)).collect())
                    .collect()
            };
            let expected: Vec<_> = (block.iter().enumerate())
                .filter(|&(r, _)| r != 2)
                .map(|(_, v)| v.clone())
                .collect();
            assert_eq!(bits(&from_bytes), bits(&expected), "n {n}");
        }
    }
}
