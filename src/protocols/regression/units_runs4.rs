//! Spearman's two sweeps in sorted order for a block of four replicates ([`Runs::doubled_ranks4`],
//! [`Runs::cross4`]): the block's draw counts side by side, so that one read at random serves the four.
//!
//! A chunk of [`GATHER`] rows is gathered, its running totals (of the weights, and in the cross sweep of
//! k·(other rank − c)) are kept row by row in a loop without branches, and the runs that end in the chunk
//! are then visited from the precomputed list of run ends ([`Runs::end_at`]): a run's weight and inner sum
//! are differences of the running totals at its two ends. Testing each row for a run's end instead costs a
//! mispredicted branch at most runs' ends (runs of a few rows, of random lengths). The same integers as
//! the sweeps row by row ([`Runs::doubled_ranks`], [`Runs::cross`]). Both sweeps are compiled for AVX2 where
//! the CPU has it ([`wide`]: integer operations, the same values).

use super::runs::{gather, Runs, GATHER};
use crate::stats::wide::wide;

impl Runs {
    /// The ends of chunk `chunk` (positions in `order`); empty past the last chunk.
    #[inline(always)]
    fn ends_of(&self, chunk: usize) -> &[u32] {
        let at = |j: usize| self.chunk_ends.get(j).map_or(0, |&e| e as usize);
        self.end_at.get(at(chunk)..at(chunk + 1)).unwrap_or(&[])
    }

    /// [`Runs::doubled_ranks`] of four replicates in one sweep: `w[i]` holds unit i's four draw counts side by
    /// side, `out[run][r]` replicate r's doubled rank of the run, `c[r]` its count + 1. Each replicate's count
    /// below 2^30, so that a doubled rank fits in 32 bits and a centred rank's square in 64.
    pub fn doubled_ranks4(&self, w: &[[u8; 4]], out: &mut Vec<[u32; 4]>, c: [i64; 4]) -> [i128; 4] {
        wide(
            #[inline(always)]
            || self.doubled_ranks4_rows(w, out, c),
        )
    }

    /// [`Runs::doubled_ranks4`]'s sweep.
    #[inline(always)]
    fn doubled_ranks4_rows(
        &self,
        w: &[[u8; 4]],
        out: &mut Vec<[u32; 4]>,
        c: [i64; 4],
    ) -> [i128; 4] {
        if out.len() < self.count + 1 {
            out.resize(self.count + 1, [0; 4]);
        }
        // Running totals after each row of the chunk, and the total at the last run's end.
        let (mut total, mut before, mut idx) = ([0u32; 4], [0u32; 4], 0usize);
        let mut squares = [0i128; 4];
        let (mut gathered, mut totals) = ([[0u8; 4]; GATHER], [[0u32; 4]; GATHER]);
        for (chunk, order) in self.order.chunks(GATHER).enumerate() {
            gather(&mut gathered, w, order);
            for (t, g) in totals.iter_mut().zip(&gathered) {
                for r in 0..4 {
                    total[r] += g[r] as u32;
                }
                *t = total;
            }
            for &e in self.ends_of(chunk) {
                // A run of weight W after C values: 2C + W + 1 = (C) + (C + W) + 1.
                let end = totals[e as usize % GATHER];
                let rank: [u32; 4] = std::array::from_fn(|r| before[r] + end[r] + 1);
                for r in 0..4 {
                    let a = rank[r] as i64 - c[r];
                    squares[r] += (end[r] - before[r]) as i128 * (a * a) as i128;
                }
                if let Some(o) = out.get_mut(idx) {
                    *o = rank;
                }
                (before, idx) = (end, idx + 1);
            }
        }
        squares
    }

    /// [`Runs::cross`] of four replicates in one sweep (see [`Runs::doubled_ranks4`]): `ranks` the other
    /// variable's doubled run ranks side by side. The running total of k·(rank − c) is at most
    /// count·(2·count + 1) in size: in 64 bits for counts below 2^30.
    pub fn cross4(
        &self,
        w: &[[u8; 4]],
        ranks: &[[u32; 4]],
        other_run: &[u32],
        c: [i64; 4],
    ) -> ([i128; 4], [i128; 4]) {
        wide(
            #[inline(always)]
            || self.cross4_rows(w, ranks, other_run, c),
        )
    }

    /// [`Runs::cross4`]'s sweep.
    #[inline(always)]
    fn cross4_rows(
        &self,
        w: &[[u8; 4]],
        ranks: &[[u32; 4]],
        other_run: &[u32],
        c: [i64; 4],
    ) -> ([i128; 4], [i128; 4]) {
        let (mut total, mut before) = ([0u32; 4], [0u32; 4]);
        let (mut inner, mut inner_before) = ([0i64; 4], [0i64; 4]);
        let (mut squares, mut cross) = ([0i128; 4], [0i128; 4]);
        let (mut gathered, mut other) = ([[0u8; 4]; GATHER], [[0u32; 4]; GATHER]);
        let (mut totals, mut inners) = ([[0u32; 4]; GATHER], [[0i64; 4]; GATHER]);
        let chunks = self.order.chunks(GATHER).zip(other_run.chunks(GATHER));
        for (chunk, (order, other_run)) in chunks.enumerate() {
            gather(&mut gathered, w, order);
            gather(&mut other, ranks, other_run);
            let rows = totals.iter_mut().zip(inners.iter_mut());
            for ((t, i), (g, b)) in rows.zip(gathered.iter().zip(&other)) {
                for r in 0..4 {
                    total[r] += g[r] as u32;
                    inner[r] += g[r] as i64 * (b[r] as i64 - c[r]);
                }
                (*t, *i) = (total, inner);
            }
            for &e in self.ends_of(chunk) {
                let (end, end_inner) = (totals[e as usize % GATHER], inners[e as usize % GATHER]);
                for r in 0..4 {
                    let a = (before[r] + end[r] + 1) as i64 - c[r];
                    squares[r] += (end[r] - before[r]) as i128 * (a * a) as i128;
                    cross[r] += a as i128 * (end_inner[r] - inner_before[r]) as i128;
                }
                (before, inner_before) = (end, end_inner);
            }
        }
        (squares, cross)
    }
}
