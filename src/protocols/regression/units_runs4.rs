//! Spearman's two sweeps in sorted order for a block of L replicates (four or eight;
//! [`Runs::doubled_ranks_side`], [`Runs::cross_side`]): the block's draw counts side by side, so that one read
//! at random serves the L.
//!
//! A chunk of [`GATHER`] rows is gathered, its running totals (of the weights, and in the cross sweep of
//! k·(other rank − c)) are kept row by row in a loop without branches, and the runs that end in the chunk
//! are then visited from the precomputed list of run ends ([`Runs::end_at`]): a run's weight and inner sum
//! are differences of the running totals at its two ends. Testing each row for a run's end instead costs a
//! mispredicted branch at most runs' ends (runs of a few rows, of random lengths). The same integers as
//! the sweeps row by row ([`Runs::doubled_ranks`], [`Runs::cross`]). Both sweeps are compiled for AVX-512 where
//! the CPU has it, else AVX2 ([`wider`]: AVX-512 multiplies 64-bit integers in vectors; integer operations, the
//! same values).

use super::runs::{gather, prefetch, Runs, GATHER};
use crate::stats::wide::wider;

impl Runs {
    /// The rows of chunk `chunk` of `order`; empty past the last chunk.
    #[inline(always)]
    fn order_of(&self, chunk: usize) -> &[u32] {
        let at = |j: usize| (j * GATHER).min(self.order.len());
        &self.order[at(chunk)..at(chunk + 1)]
    }

    /// The ends of chunk `chunk` (positions in `order`); empty past the last chunk.
    #[inline(always)]
    fn ends_of(&self, chunk: usize) -> &[u32] {
        let at = |j: usize| self.chunk_ends.get(j).map_or(0, |&e| e as usize);
        self.end_at.get(at(chunk)..at(chunk + 1)).unwrap_or(&[])
    }

    /// [`Runs::doubled_ranks`] of L replicates in one sweep: `w[i]` holds unit i's L draw counts side by
    /// side, `out[run][r]` replicate r's doubled rank of the run, `c[r]` its count + 1. Each replicate's count
    /// below 2^30, so that a doubled rank fits in 32 bits and a centred rank's square in 64; below [`NARROW`]
    /// (see [`narrow`]) the squares are summed in 64 bits, else in 128.
    pub fn doubled_ranks_side<const L: usize>(
        &self,
        w: &[[u8; L]],
        out: &mut Vec<[u32; L]>,
        c: [i64; L],
    ) -> [i128; L] {
        if narrow(c) {
            let squares = wider(
                #[inline(always)]
                || self.doubled_ranks_side_rows::<i64, L>(w, out, c),
            );
            return squares.map(i128::from);
        }
        wider(
            #[inline(always)]
            || self.doubled_ranks_side_rows::<i128, L>(w, out, c),
        )
    }

    /// [`Runs::doubled_ranks_side`]'s sweep, the squares summed in `S`.
    #[inline(always)]
    fn doubled_ranks_side_rows<S, const L: usize>(
        &self,
        w: &[[u8; L]],
        out: &mut Vec<[u32; L]>,
        c: [i64; L],
    ) -> [S; L]
    where
        S: Copy + Default + From<i64> + std::ops::Mul<Output = S> + std::ops::AddAssign,
    {
        if out.len() < self.count + 1 {
            out.resize(self.count + 1, [0; L]);
        }
        // Running totals after each row of the chunk, and the total at the last run's end.
        let (mut total, mut before, mut idx) = ([0u32; L], [0u32; L], 0usize);
        let mut squares = [S::default(); L];
        let (mut gathered, mut totals) = ([[0u8; L]; GATHER], [[0u32; L]; GATHER]);
        for (chunk, order) in self.order.chunks(GATHER).enumerate() {
            gather(&mut gathered, w, order);
            prefetch(w, self.order_of(chunk + 1));
            for (t, g) in totals.iter_mut().zip(&gathered) {
                for r in 0..L {
                    total[r] += g[r] as u32;
                }
                *t = total;
            }
            for &e in self.ends_of(chunk) {
                // A run of weight W after C values: 2C + W + 1 = (C) + (C + W) + 1.
                let end = totals[e as usize % GATHER];
                let rank: [u32; L] = std::array::from_fn(|r| before[r] + end[r] + 1);
                for r in 0..L {
                    let a = rank[r] as i64 - c[r];
                    squares[r] += S::from((end[r] - before[r]) as i64) * S::from(a * a);
                }
                if let Some(o) = out.get_mut(idx) {
                    *o = rank;
                }
                (before, idx) = (end, idx + 1);
            }
        }
        squares
    }

    /// [`Runs::cross`] of L replicates in one sweep (see [`Runs::doubled_ranks_side`]): `ranks` the other
    /// variable's doubled run ranks side by side. The running total of k·(rank − c) is at most
    /// count·(2·count + 1) in size: in 64 bits for counts below 2^30.
    pub fn cross_side<const L: usize>(
        &self,
        w: &[[u8; L]],
        ranks: &[[u32; L]],
        other_run: &[u32],
        c: [i64; L],
    ) -> ([i128; L], [i128; L]) {
        if narrow(c) {
            let (squares, cross) = wider(
                #[inline(always)]
                || self.cross_side_narrow(w, ranks, other_run, c),
            );
            return (squares.map(i128::from), cross.map(i128::from));
        }
        wider(
            #[inline(always)]
            || self.cross_side_rows(w, ranks, other_run, c),
        )
    }

    /// [`Runs::cross_side`]'s sweep for counts below [`NARROW`] (see [`narrow`]): the running total of k·rank
    /// (a product of 32-bit values, one instruction for the L), a run's inner sum Σ k·(rank − c) the
    /// difference of the totals at its ends minus c·W, and the sums in 64 bits.
    #[inline(always)]
    fn cross_side_narrow<const L: usize>(
        &self,
        w: &[[u8; L]],
        ranks: &[[u32; L]],
        other_run: &[u32],
        c: [i64; L],
    ) -> ([i64; L], [i64; L]) {
        let all_other = other_run;
        let (mut total, mut before) = ([0u32; L], [0u32; L]);
        let (mut inner, mut inner_before) = ([0u64; L], [0u64; L]);
        let (mut squares, mut cross) = ([0i64; L], [0i64; L]);
        let (mut gathered, mut other) = ([[0u8; L]; GATHER], [[0u32; L]; GATHER]);
        let (mut totals, mut inners) = ([[0u32; L]; GATHER], [[0u64; L]; GATHER]);
        let chunks = self.order.chunks(GATHER).zip(other_run.chunks(GATHER));
        for (chunk, (order, other_run)) in chunks.enumerate() {
            gather(&mut gathered, w, order);
            gather(&mut other, ranks, other_run);
            prefetch(w, self.order_of(chunk + 1));
            let next = (chunk + 1) * GATHER..(chunk + 2) * GATHER;
            prefetch(ranks, all_other.get(next).unwrap_or(&all_other[..0]));
            let rows = totals.iter_mut().zip(inners.iter_mut());
            for ((t, i), (g, b)) in rows.zip(gathered.iter().zip(&other)) {
                for r in 0..L {
                    total[r] += g[r] as u32;
                    inner[r] += g[r] as u64 * b[r] as u64;
                }
                (*t, *i) = (total, inner);
            }
            for &e in self.ends_of(chunk) {
                let (end, end_inner) = (totals[e as usize % GATHER], inners[e as usize % GATHER]);
                for r in 0..L {
                    let weight = (end[r] - before[r]) as i64;
                    let a = (before[r] + end[r] + 1) as i64 - c[r];
                    let run = (end_inner[r] - inner_before[r]) as i64 - c[r] * weight;
                    squares[r] += weight * (a * a);
                    cross[r] += a * run;
                }
                (before, inner_before) = (end, end_inner);
            }
        }
        (squares, cross)
    }

    /// [`Runs::cross_side`]'s sweep.
    #[inline(always)]
    fn cross_side_rows<const L: usize>(
        &self,
        w: &[[u8; L]],
        ranks: &[[u32; L]],
        other_run: &[u32],
        c: [i64; L],
    ) -> ([i128; L], [i128; L]) {
        let (mut total, mut before) = ([0u32; L], [0u32; L]);
        let (mut inner, mut inner_before) = ([0i64; L], [0i64; L]);
        let (mut squares, mut cross) = ([0i128; L], [0i128; L]);
        let (mut gathered, mut other) = ([[0u8; L]; GATHER], [[0u32; L]; GATHER]);
        let (mut totals, mut inners) = ([[0u32; L]; GATHER], [[0i64; L]; GATHER]);
        let chunks = self.order.chunks(GATHER).zip(other_run.chunks(GATHER));
        for (chunk, (order, other_run)) in chunks.enumerate() {
            gather(&mut gathered, w, order);
            gather(&mut other, ranks, other_run);
            let rows = totals.iter_mut().zip(inners.iter_mut());
            for ((t, i), (g, b)) in rows.zip(gathered.iter().zip(&other)) {
                for r in 0..L {
                    total[r] += g[r] as u32;
                    inner[r] += g[r] as i64 * (b[r] as i64 - c[r]);
                }
                (*t, *i) = (total, inner);
            }
            for &e in self.ends_of(chunk) {
                let (end, end_inner) = (totals[e as usize % GATHER], inners[e as usize % GATHER]);
                for r in 0..L {
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

/// The counts (plus one, `c`) below which the sweeps sum in 64 bits: with N a replicate's count, a centred
/// doubled rank is at most N in size, a run's Σ k·(rank − c) at most W·N (W its weight), the running total
/// of k·rank at most N·(2N + 1), and each of the sums Σ W·(rank − c)² and Σ (rank − c)·Σ k·(other rank − c)
/// at most Σ_runs N·W·N = N³ in size: below 2^63 for N < 2^21.
const NARROW: i64 = 1 << 21;

/// Whether each replicate's count (`c` − 1) is below [`NARROW`] (and each at least 0).
fn narrow<const L: usize>(c: [i64; L]) -> bool {
    c.iter().all(|&c| (1..=NARROW).contains(&c))
}

#[cfg(test)]
mod tests {
    use super::super::runs::Runs;
    use super::NARROW;

    /// Both sweeps of four and of eight replicates give each replicate's integers of the sweeps row by row
    /// of it alone: in 64 bits (every count below [`NARROW`]) and in 128 (counts past it).
    #[test]
    fn a_block_equals_each_replicate_alone() {
        block_equals_each_alone::<4>();
        block_equals_each_alone::<8>();
    }

    fn block_equals_each_alone<const L: usize>() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for (n, low) in [(3000usize, 0u64), (9000, 240)] {
            let t: Vec<f64> = (0..n).map(|_| (next() % 500) as f64).collect();
            let p: Vec<f64> = (0..n).map(|_| (next() % 700) as f64).collect();
            let (t_runs, p_runs) = (Runs::new(&t), Runs::new(&p));
            let p_run_by_t: Vec<u32> = (t_runs.order.iter())
                .map(|&i| p_runs.run[i as usize])
                .collect();
            let side: Vec<[u8; L]> = (0..n)
                .map(|_| std::array::from_fn(|_| (low + next() % (256 - low)) as u8))
                .collect();
            let count: [i64; L] = std::array::from_fn(|r| side.iter().map(|q| q[r] as i64).sum());
            assert_eq!(count.iter().all(|&k| k < NARROW), low == 0);
            let c = count.map(|k| k + 1);
            let mut ranks = Vec::new();
            let spp = p_runs.doubled_ranks_side(&side, &mut ranks, c);
            let (stt, stp) = t_runs.cross_side(&side, &ranks, &p_run_by_t, c);
            for r in 0..L {
                let w: Vec<u32> = side.iter().map(|q| q[r] as u32).collect();
                let mut one: Vec<u64> = Vec::new();
                let c = c[r] as i128;
                assert_eq!(p_runs.doubled_ranks(&w, &mut one, c), spp[r]);
                let cross = t_runs.cross(&w, &one, &p_run_by_t, c);
                assert_eq!(cross, (stt[r], stp[r]));
            }
        }
    }
}
