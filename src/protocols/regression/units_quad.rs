//! The reads in sorted order of a block of four or eight regression replicates (the median's walk and
//! Spearman's two sweeps) done once for the block: the block's draw counts side by side, so that each read at
//! random (what these sweeps wait on) serves every replicate of the block. Each replicate's values are those
//! it has alone, to the bit (the same integer sums; the same median rows).

use super::moments4::fused_lanes;
use super::passes::First;
use super::runs::{gather, GATHER};
use super::Fast;
use crate::metrics::regression::spearman_of_sums;
use crate::stats::units::Weight;
use crate::stats::wide::wider;
use std::cell::RefCell;
use std::thread::LocalKey;

/// The block's weights side by side, and the predictions' doubled run ranks of the L replicates.
#[derive(Default)]
pub(super) struct Lanes<const L: usize> {
    weights: Vec<[u8; L]>,
    ranks: Vec<[u32; L]>,
}

thread_local! {
    static QUAD: RefCell<Lanes<4>> = RefCell::default();
    static OCTO: RefCell<Lanes<8>> = RefCell::default();
}

/// A replicate's median absolute error and Spearman correlation.
pub(super) type Sorted = (Option<f64>, Option<f64>);

/// What [`Fast::block_of`] gives of a block: each replicate's first pass, moments and, when
/// [`Fast::sorted_of`] gives them, medians and Spearman.
pub(super) type Block<const L: usize> = ([First; L], [[f64; 4]; L], Option<[Sorted; L]>);

impl Fast {
    /// [`Fast::block_of`] four replicates.
    pub(super) fn block4<W: Weight>(&self, ws: [&[W]; 4]) -> Option<Block<4>> {
        self.block_of(ws, &QUAD)
    }

    /// [`Fast::block_of`] eight replicates.
    pub(super) fn block8<W: Weight>(&self, ws: [&[W]; 8]) -> Option<Block<8>> {
        self.block_of(ws, &OCTO)
    }

    /// L replicates' first passes, moments and, when [`Fast::sorted_of`] gives them, medians and Spearman,
    /// from their weights side by side ([`interleave`]; kept in `lanes` from one block to the next); `None`
    /// when a weight does not fit in a byte.
    fn block_of<W: Weight, const L: usize>(
        &self,
        ws: [&[W]; L],
        lanes: &'static LocalKey<RefCell<Lanes<L>>>,
    ) -> Option<Block<L>> {
        lanes.with(|cell| {
            let Lanes {
                weights: side,
                ranks,
            } = &mut *cell.borrow_mut();
            let below = interleave(ws, &self.low_abs, side)?;
            let (first, second) = self.moments_of(ws, fused_lanes(self, ws, side));
            let sorted = self.sorted_of(side, ranks, below, &first);
            Some((first, second, sorted))
        })
    }

    /// The median and Spearman of a block of L replicates ([`Fast::median`], [`Fast::spearman`]) from
    /// their weights side by side (`side`; `below` as [`interleave`] gives it); `None` for a replicate
    /// drawing nothing or 2^30 values or more. Spearman is given whether or not the replicate's values vary
    /// (the caller keeps it only when they do).
    fn sorted_of<const L: usize>(
        &self,
        side: &[[u8; L]],
        ranks: &mut Vec<[u32; L]>,
        below: [u64; L],
        first: &[First; L],
    ) -> Option<[Sorted; L]> {
        if first.iter().any(|f| f.count == 0 || f.count >= 1 << 30) {
            return None;
        }
        let count: [u64; L] = std::array::from_fn(|r| first[r].count);
        let median = self.median_of(side, count, below);
        let c = count.map(|k| k as i64 + 1);
        let spp = self.p_runs.doubled_ranks_side(side, ranks, c);
        let (stt, stp) = self.t_runs.cross_side(side, ranks, &self.p_run_by_t, c);
        Some(std::array::from_fn(|r| {
            let rho = spearman_of_sums(stt[r], spp[r], stp[r], count[r]);
            (median[r], rho)
        }))
    }

    /// [`Fast::median`] of L replicates (each count above 0) in one walk, which stops when the L have
    /// found their middle values. A gathered block whose weights (summed first, a loop without branches)
    /// take no replicate past the value it looks for is passed over whole. The walk starts past the first
    /// [`Fast::skip`] rows (`below`: each replicate's weights there) when no replicate's first middle value
    /// lies among them, else at the first row.
    fn median_of<const L: usize>(
        &self,
        w: &[[u8; L]],
        count: [u64; L],
        below: [u64; L],
    ) -> [Option<f64>; L] {
        let q_lo = count.map(|c| c.saturating_sub(1) / 2);
        let q_hi = count.map(|c| c / 2);
        let past = (0..L).all(|r| below[r] <= q_lo[r]);
        let (from, mut cum) = if past {
            (self.skip, below)
        } else {
            (0, [0; L])
        };
        let (mut lo, mut hi) = ([f64::NAN; L], [f64::NAN; L]);
        let (mut found_lo, mut found_hi) = ([false; L], [false; L]);
        let mut gathered = [[0u8; L]; GATHER];
        let rows = self.by_abs.get(from..).unwrap_or(&[]);
        'walk: for order in rows.chunks(GATHER) {
            gather(&mut gathered, w, order);
            let sums = block_sums(&gathered[..order.len()]);
            let passed = (0..L).all(|r| {
                let q = if found_lo[r] { q_hi[r] } else { q_lo[r] };
                found_hi[r] || cum[r] + sums[r] <= q
            });
            if passed {
                for r in 0..L {
                    cum[r] += sums[r];
                }
                continue;
            }
            for (&i, g) in order.iter().zip(&gathered) {
                for r in 0..L {
                    cum[r] += g[r] as u64;
                    if !found_lo[r] && cum[r] > q_lo[r] {
                        lo[r] = self.abs[i as usize];
                        found_lo[r] = true;
                    }
                    if !found_hi[r] && cum[r] > q_hi[r] {
                        hi[r] = self.abs[i as usize];
                        found_hi[r] = true;
                    }
                }
                if found_hi == [true; L] {
                    break 'walk;
                }
            }
        }
        std::array::from_fn(|r| {
            Some(if count[r] % 2 == 1 {
                hi[r]
            } else {
                (lo[r] + hi[r]) / 2.0
            })
        })
    }
}

/// How many rows of the smallest |p − t| the median walk of a block may pass over ([`Fast::skip`]): about
/// half the rows less eight standard deviations of a bootstrap replicate's weight there (at most √n) and a
/// gathered block. Their weights are summed in the pass that puts the block's weights side by side
/// ([`interleave`]), in the rows' order; the walk then gathers the rows past them only, from about the
/// middle on.
pub(super) fn skipped(n: usize) -> usize {
    let margin = 8 * (n as f64).sqrt() as usize + GATHER;
    (n / 2).saturating_sub(margin) / GATHER * GATHER
}

/// L replicates' weights side by side (`out[i][r] = ws[r][i]`, one read at random then serves the L), and
/// each replicate's sum of the weights of the rows where `low` is 1; `None` when a weight does not fit in a
/// byte.
fn interleave<W: Weight, const L: usize>(
    ws: [&[W]; L],
    low: &[u8],
    out: &mut Vec<[u8; L]>,
) -> Option<[u64; L]> {
    let n = ws.iter().map(|w| w.len()).fold(low.len(), usize::min);
    out.clear();
    out.resize(n, [0; L]);
    let (any, below) = wider(
        #[inline(always)]
        || {
            let (mut any, mut below) = (0u32, [0u64; L]);
            // Chunks of rows whose sums fit in 32 bits (when every weight fits in a byte), each read by loops
            // that the compiler vectorizes over the rows: the sums, then the weights side by side, four
            // replicates at a time.
            for (c, (out, low)) in out.chunks_mut(4096).zip(low.chunks(4096)).enumerate() {
                let at = c * 4096..c * 4096 + out.len();
                let ks = ws.map(|w| w.get(at.clone()).unwrap_or(&[]));
                for (b, k) in below.iter_mut().zip(ks) {
                    let mut sum = 0u32;
                    for (&k, &l) in k.iter().zip(low) {
                        let k: u32 = k.into();
                        any |= k;
                        sum = sum.wrapping_add(k & (l as u32).wrapping_neg());
                    }
                    *b += sum as u64;
                }
                for (g, ks) in ks.chunks_exact(4).enumerate() {
                    side_by_side(out, 4 * g, [ks[0], ks[1], ks[2], ks[3]]);
                }
            }
            (any, below)
        },
    );
    (any <= 255).then_some(below)
}

/// `out[i][at + r] = ks[r][i]` (as a byte) for the four `r`.
#[inline(always)]
fn side_by_side<W: Weight, const L: usize>(out: &mut [[u8; L]], at: usize, ks: [&[W]; 4]) {
    let byte = |k: W| Into::<u32>::into(k) as u8;
    let rows = out.iter_mut().zip(ks[0]).zip(ks[1].iter().zip(ks[2]));
    for (((o, &a), (&b, &c)), &d) in rows.zip(ks[3]) {
        if let Some(o) = o.get_mut(at..at + 4) {
            o.copy_from_slice(&[byte(a), byte(b), byte(c), byte(d)]);
        }
    }
}

/// Each replicate's sum of a gathered block's weights.
fn block_sums<const L: usize>(block: &[[u8; L]]) -> [u64; L] {
    let mut sums = [0u32; L]; // at most 255 · GATHER
    for g in block {
        for r in 0..L {
            sums[r] += g[r] as u32;
        }
    }
    sums.map(u64::from)
}

#[cfg(test)]
mod tests {
    use super::super::Fast;

    /// The median walk that starts past the rows of the smallest errors, and the one from the first row
    /// (when a replicate's middle value lies among them), give each replicate's values alone, to the bit.
    #[test]
    fn the_median_walk_may_start_past_the_smallest_errors() {
        let n = 4000;
        let t: Vec<f64> = (0..n).map(|i| (i * 7919 % 1000) as f64 / 8.0).collect();
        let p: Vec<f64> = (0..n).map(|i| (i * 104_729 % 997) as f64 / 8.0).collect();
        let fast = Fast::new(&t, &p, true);
        assert!(fast.skip > 0);
        let low = |i: usize| fast.low_abs[i] != 0;
        let ones = vec![1u32; n];
        // The second block's second replicate draws only the passed rows: its walk starts at the first row.
        let ws: Vec<Vec<u32>> = vec![
            ones.clone(),
            (0..n).map(|i| if low(i) { 3 } else { 1 }).collect(),
            (0..n).map(|i| (i % 3) as u32).collect(),
            ones.clone(),
            ones.clone(),
            (0..n).map(|i| 2 * low(i) as u32).collect(),
            (0..n).map(|i| (i % 5) as u32).collect(),
            ones,
        ];
        let refs: Vec<&[u32]> = ws.iter().map(|w| w.as_slice()).collect();
        let bits = |v: &[(&str, Option<f64>)]| -> Vec<Option<u64>> {
            v.iter().map(|(_, v)| v.map(f64::to_bits)).collect()
        };
        for (w, got) in refs.iter().zip(fast.values_block(&refs)) {
            assert_eq!(bits(&got), bits(&fast.values(w)));
        }
    }
}
