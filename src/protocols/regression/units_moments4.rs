//! [`super::moments::fused`] of a block of four or eight replicates whose weights are side by side
//! (`side[i][r]`, as [`super::quad`] interleaves them for the reads in sorted order). Each chunk of 256 rows
//! is read twice: its terms are computed first, term by term (loops over the rows that the compiler
//! vectorizes), then added row by row, each term times the row's weights (one vector: the replicates' sums
//! of a term side by side, four with AVX2, eight with AVX-512). The same products added in the same order as
//! [`super::moments::fused`] adds them (each replicate's sums in blocks of 256 rows, row after row), so every
//! sum is the same to the bit; the generic pass builds each row's term vectors with shuffles and keeps its
//! sums on the stack, which this one does not. The terms are computed from the targets and predictions, as
//! [`Fast::new`] computes them, but for the squared log (a logarithm is slow): three columns read from
//! memory, not five (the pass waits on memory).

use super::moments::{shifted_moments, Fused};
use super::passes::{largest_drawn, First};
use super::Fast;
use crate::stats::units::Weight;
use crate::stats::wide::wide;
use crate::stats::wide::wider;

/// The rows of a chunk (the first pass's blocks of 256 rows).
const CHUNK: usize = 256;

/// The terms of a chunk that [`chunk_terms`] computes: the twelve sums' terms but the squared log.
const COMPUTED: usize = 11;

/// [`super::moments::fused`] of L replicates: `ws` their weights, `side` the same weights side by side.
pub(super) fn fused_lanes<W: Weight, const L: usize>(
    fast: &Fast,
    ws: [&[W]; L],
    side: &[[u8; L]],
) -> Option<Fused<L>> {
    if !fast.plain {
        return None;
    }
    let n = side.len().min(fast.targets.len());
    let columns = [&fast.targets[..n], &fast.preds[..n], &fast.sle[..n]];
    let (sums, count) = rows(columns, fast.centre, &side[..n]);
    let mut firsts = [First {
        sums: [0.0; 8],
        count: 0,
        largest: f64::NAN,
        fits: true,
    }; L];
    let mut moments = [None; L];
    for r in 0..L {
        let s: [f64; 12] = std::array::from_fn(|j| sums[j][r]);
        moments[r] = shifted_moments(&s, count[r]);
        firsts[r] = First {
            sums: [s[0], s[1], s[2], s[3], s[4], 0.0, 0.0, 0.0],
            count: count[r],
            largest: largest_drawn(fast, ws[r]),
            // Every weight fits in a byte (`side`).
            fits: true,
        };
    }
    Some((firsts, moments))
}

/// [`fused_lanes`]'s loop over the rows: `sums[j][r]` replicate r's sum of term j (in `fused_rows`'s order:
/// |p − t|, (t − p)², APE, SMAPE, squared log, a = t − c_t, b = p − c_p, e = a − b, a², b², a·b, e²), and
/// each replicate's Σ k. Compiled for AVX-512 for eight replicates ([`wider`]: a term's eight sums in one
/// vector), else for AVX2 ([`wide`]: for four, one vector; with AVX-512 the compiler pairs two terms' four
/// sums in a vector, with shuffles), where the CPU has them.
#[allow(clippy::type_complexity)]
fn rows<const L: usize>(
    columns: [&[f64]; 3],
    centre: [f64; 2],
    side: &[[u8; L]],
) -> ([[f64; L]; 12], [u64; L]) {
    if L == 8 {
        return wider(
            #[inline(always)]
            || rows_plain(columns, centre, side),
        );
    }
    wide(
        #[inline(always)]
        || rows_plain(columns, centre, side),
    )
}

/// [`rows`] as built (the loop that the compiler vectorizes over the replicates: each row's weights
/// converted to f64 once, each term broadcast to the L replicates).
#[inline(always)]
#[allow(clippy::type_complexity)]
fn rows_plain<const L: usize>(
    [t, p, sle]: [&[f64]; 3],
    centre: [f64; 2],
    side: &[[u8; L]],
) -> ([[f64; L]; 12], [u64; L]) {
    let mut sums = [[0.0f64; L]; 12];
    let mut count = [0u64; L];
    let mut terms = [[0.0f64; CHUNK]; COMPUTED];
    let chunks = side.chunks(CHUNK).zip(t.chunks(CHUNK));
    for ((side, t), (p, sle)) in chunks.zip(p.chunks(CHUNK).zip(sle.chunks(CHUNK))) {
        let m = chunk_terms([t, p, sle], centre, &mut terms).min(side.len());
        let (side, sle) = (&side[..m], &sle[..m]);
        let mut block = [[0.0f64; L]; 12];
        let mut weight = [0u32; L]; // at most 255 · CHUNK
        for i in 0..m {
            let q = side[i];
            let k: [f64; L] = q.map(f64::from);
            let add = |b: &mut [f64; L], x: f64| {
                for r in 0..L {
                    // Every term is finite ([`Fast::plain`]): a zero weight adds ±0.0.
                    b[r] += x * k[r];
                }
            };
            // Sum j's terms: `terms[j]` for j < 4, the squared log for j = 4, `terms[j - 1]` past it.
            let (low, high) = block.split_at_mut(4);
            for (b, column) in low.iter_mut().zip(&terms[..4]) {
                add(b, column[i]);
            }
            if let Some((b, high)) = high.split_first_mut() {
                add(b, sle[i]);
                for (b, column) in high.iter_mut().zip(&terms[4..]) {
                    add(b, column[i]);
                }
            }
            for r in 0..L {
                weight[r] += q[r] as u32;
            }
        }
        for (s, b) in sums.iter_mut().zip(block) {
            for r in 0..L {
                s[r] += b[r];
            }
        }
        for r in 0..L {
            count[r] += weight[r] as u64;
        }
    }
    (sums, count)
}

/// The terms of a chunk's rows but the squared log (see [`rows`]; `out[j]` for sum j < 4, `out[j - 1]`
/// for sum j > 4), term by term; the chunk's rows.
#[inline(always)]
fn chunk_terms(
    [t, p, sle]: [&[f64]; 3],
    [ct, cp]: [f64; 2],
    out: &mut [[f64; CHUNK]; COMPUTED],
) -> usize {
    let m = t.len().min(p.len()).min(sle.len()).min(CHUNK);
    let (t, p) = (&t[..m], &p[..m]);
    let [o_abs, o_sq, o_ape, o_smape, o_a, o_b, o_e, o_aa, o_bb, o_ab, o_ee] = out;
    for i in 0..m {
        // As `Fast::new` computes |p − t|, the APE and the SMAPE terms.
        let abs = (p[i] - t[i]).abs();
        o_abs[i] = abs;
        o_ape[i] = abs / t[i].abs().max(f64::EPSILON);
        let sum = t[i].abs() + p[i].abs();
        o_smape[i] = if sum == 0.0 { 0.0 } else { 2.0 * abs / sum };
        let d = t[i] - p[i];
        let (a, b) = (t[i] - ct, p[i] - cp);
        let e = a - b;
        o_sq[i] = d * d;
        (o_a[i], o_b[i], o_e[i]) = (a, b, e);
        (o_aa[i], o_bb[i], o_ab[i], o_ee[i]) = (a * a, b * b, a * b, e * e);
    }
    m
}

#[cfg(test)]
mod tests {
    use super::{rows, rows_plain};

    /// The loops compiled for AVX2 or AVX-512 ([`rows`], where the CPU has them) give the sums of the loop as
    /// built to the bit, for four and for eight replicates, over whole chunks and a partial one.
    #[test]
    fn the_vector_loops_equal_the_plain_one() {
        same_as_plain::<4>();
        same_as_plain::<8>();
    }

    fn same_as_plain<const L: usize>() {
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let n = 1000;
        let t: Vec<f64> = (0..n).map(|_| (next() % 1000) as f64 / 7.0 - 3.0).collect();
        let p: Vec<f64> = (0..n).map(|_| (next() % 900) as f64 / 3.0 - 1.5).collect();
        let sle: Vec<f64> = (0..n).map(|_| (next() % 100) as f64 / 9.0).collect();
        let side: Vec<[u8; L]> = (0..n)
            .map(|_| std::array::from_fn(|_| (next() % 5) as u8))
            .collect();
        let centre = [40.0, 150.0];
        let bits =
            |(sums, count): ([[f64; L]; 12], [u64; L])| (sums.map(|s| s.map(f64::to_bits)), count);
        let vector = bits(rows([&t, &p, &sle], centre, &side));
        assert_eq!(vector, bits(rows_plain([&t, &p, &sle], centre, &side)));
    }
}
