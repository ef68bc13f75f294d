//! The reads in sorted order of a block of four regression replicates (the median's walk and Spearman's two
//! sweeps) done once for the four: the block's draw counts side by side, so that each read at random (what
//! these sweeps wait on) serves the four replicates. Each replicate's values are those it has alone, to the bit
//! (the same integer sums; the same median rows).

use super::passes::First;
use super::runs::{gather, GATHER};
use super::Fast;
use crate::metrics::regression::spearman_of_sums;
use crate::stats::units::{interleave4, Weight};
use std::cell::RefCell;

/// The block's weights side by side, and the predictions' doubled run ranks of the four replicates.
#[derive(Default)]
struct Quad {
    weights: Vec<[u8; 4]>,
    ranks: Vec<[u32; 4]>,
}

thread_local! {
    static QUAD: RefCell<Quad> = RefCell::default();
}

/// A replicate's median absolute error and Spearman correlation.
pub(super) type Sorted = (Option<f64>, Option<f64>);

impl Fast {
    /// The median and Spearman of a block of four replicates ([`Fast::median`], [`Fast::spearman`]); `None`
    /// for another block size, a weight past a byte, or a replicate drawing nothing or 2^30 values or more.
    /// Spearman is given whether or not the replicate's values vary (the caller keeps it only when they do).
    pub(super) fn sorted4<W: Weight, const K: usize>(
        &self,
        ws: [&[W]; K],
        first: &[First; K],
    ) -> Option<[Sorted; K]> {
        let four: [&[W]; 4] = ws.as_slice().try_into().ok()?;
        if first
            .iter()
            .any(|f| !f.fits || f.count == 0 || f.count >= 1 << 30)
        {
            return None;
        }
        let count: [u64; 4] = std::array::from_fn(|r| first[r].count);
        QUAD.with(|cell| {
            let Quad {
                weights: quad,
                ranks,
            } = &mut *cell.borrow_mut();
            if !interleave4(four, quad) {
                return None;
            }
            let median = self.median4(quad, count);
            let c = count.map(|k| k as i64 + 1);
            let spp = self.p_runs.doubled_ranks4(quad, ranks, c);
            let (stt, stp) = self.t_runs.cross4(quad, ranks, &self.p_run_by_t, c);
            Some(std::array::from_fn(|r| {
                let rho = spearman_of_sums(stt[r], spp[r], stp[r], count[r]);
                (median[r], rho)
            }))
        })
    }

    /// [`Fast::median`] of four replicates (each count above 0) in one walk, which stops when the four have
    /// found their middle values. A gathered block whose weights (summed first, a loop without branches)
    /// take no replicate past the value it looks for is passed over whole.
    fn median4(&self, w: &[[u8; 4]], count: [u64; 4]) -> [Option<f64>; 4] {
        let q_lo = count.map(|c| c.saturating_sub(1) / 2);
        let q_hi = count.map(|c| c / 2);
        let (mut lo, mut hi, mut cum) = ([f64::NAN; 4], [f64::NAN; 4], [0u64; 4]);
        let (mut found_lo, mut found_hi) = ([false; 4], [false; 4]);
        let mut gathered = [[0u8; 4]; GATHER];
        'walk: for order in self.by_abs.chunks(GATHER) {
            gather(&mut gathered, w, order);
            let sums = block_sums(&gathered[..order.len()]);
            let passed = (0..4).all(|r| {
                let q = if found_lo[r] { q_hi[r] } else { q_lo[r] };
                found_hi[r] || cum[r] + sums[r] <= q
            });
            if passed {
                for r in 0..4 {
                    cum[r] += sums[r];
                }
                continue;
            }
            for (&i, g) in order.iter().zip(&gathered) {
                for r in 0..4 {
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
                if found_hi == [true; 4] {
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

/// Each replicate's sum of a gathered block's weights.
fn block_sums(block: &[[u8; 4]]) -> [u64; 4] {
    let mut sums = [0u32; 4]; // at most 255 · GATHER
    for g in block {
        for r in 0..4 {
            sums[r] += g[r] as u32;
        }
    }
    sums.map(u64::from)
}
