//! [`super::moments::fused`] of a block of four replicates whose weights are side by side (`quad[i][r]`, as
//! [`super::quad`] interleaves them for the reads in sorted order). Each chunk of 256 rows is read twice: its
//! terms are computed first, term by term (loops over the rows that the compiler vectorizes), then added row
//! by row, each term times the row's four weights (one vector: the four replicates' sums of a term side by
//! side). The same products added in the same order as [`super::moments::fused`] adds them (each
//! replicate's sums in blocks of 256 rows, row after row), so every sum is the same to the bit; the generic
//! pass builds each row's term vectors with shuffles and keeps its sums on the stack, which this one does
//! not. The terms are computed from the targets and predictions, as [`Fast::new`] computes them, but for the
//! squared log (a logarithm is slow): three columns read from memory, not six (the pass waits on memory).

use super::moments::{shifted_moments, Fused};
use super::passes::{largest_drawn, First};
use super::Fast;
use crate::stats::units::Weight;

/// The rows of a chunk (the first pass's blocks of 256 rows).
const CHUNK: usize = 256;

/// [`super::moments::fused`] of four replicates: `ws` their weights, `quad` the same weights side by side.
pub(super) fn fused4<W: Weight>(fast: &Fast, ws: [&[W]; 4], quad: &[[u8; 4]]) -> Option<Fused<4>> {
    if !fast.plain {
        return None;
    }
    let n = quad.len().min(fast.targets.len());
    let columns = [&fast.targets[..n], &fast.preds[..n], &fast.sle[..n]];
    let (sums, count) = rows4(columns, fast.centre, &quad[..n]);
    let mut firsts = [First {
        sums: [0.0; 8],
        count: 0,
        largest: f64::NAN,
        fits: true,
    }; 4];
    let mut moments = [None; 4];
    for r in 0..4 {
        let s: [f64; 12] = std::array::from_fn(|j| sums[j][r]);
        moments[r] = shifted_moments(&s, count[r]);
        firsts[r] = First {
            sums: [s[0], s[1], s[2], s[3], s[4], 0.0, 0.0, 0.0],
            count: count[r],
            largest: largest_drawn(fast, ws[r]),
            // Every weight fits in a byte (`quad`).
            fits: true,
        };
    }
    Some((firsts, moments))
}

/// The terms of a chunk that [`chunk_terms`] computes: the twelve sums' terms but the squared log.
const COMPUTED: usize = 11;

/// [`fused4`]'s loop over the rows: `sums[j][r]` replicate r's sum of term j (in `fused_rows`'s order:
/// |p − t|, (t − p)², APE, SMAPE, squared log, a = t − c_t, b = p − c_p, e = a − b, a², b², a·b, e²), and
/// each replicate's Σ k. With AVX2 ([`avx2::rows4`]) where the CPU has it.
fn rows4(columns: [&[f64]; 3], centre: [f64; 2], quad: &[[u8; 4]]) -> ([[f64; 4]; 12], [u64; 4]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the running CPU has AVX2, checked just above.
        return unsafe { avx2::rows4(columns, centre, quad) };
    }
    rows4_plain(columns, centre, quad)
}

/// [`rows4`] without vectors (the compiler lays them out as it can).
fn rows4_plain(
    [t, p, sle]: [&[f64]; 3],
    centre: [f64; 2],
    quad: &[[u8; 4]],
) -> ([[f64; 4]; 12], [u64; 4]) {
    let mut sums = [[0.0f64; 4]; 12];
    let mut count = [0u64; 4];
    let mut terms = [[0.0f64; CHUNK]; COMPUTED];
    let chunks = quad.chunks(CHUNK).zip(t.chunks(CHUNK));
    for ((quad, t), (p, sle)) in chunks.zip(p.chunks(CHUNK).zip(sle.chunks(CHUNK))) {
        let m = chunk_terms([t, p, sle], centre, &mut terms).min(quad.len());
        let mut block = [[0.0f64; 4]; 12];
        let mut weight = [0u32; 4]; // at most 255 · CHUNK
        for (i, q) in quad.iter().enumerate().take(m) {
            let k: [f64; 4] = q.map(f64::from);
            for (j, b) in block.iter_mut().enumerate() {
                let x = term(&terms, sle, j, i);
                for r in 0..4 {
                    // Every term is finite ([`Fast::plain`]): a zero weight adds ±0.0.
                    b[r] += x * k[r];
                }
            }
            for r in 0..4 {
                weight[r] += q[r] as u32;
            }
        }
        for (s, b) in sums.iter_mut().zip(block) {
            for r in 0..4 {
                s[r] += b[r];
            }
        }
        for r in 0..4 {
            count[r] += weight[r] as u64;
        }
    }
    (sums, count)
}

/// Term `j` (of the twelve sums') of row `i` of a chunk: the squared log from its column, the others from
/// [`chunk_terms`]'s.
#[inline(always)]
fn term(terms: &[[f64; CHUNK]; COMPUTED], sle: &[f64], j: usize, i: usize) -> f64 {
    let at = |j: usize| terms.get(j).and_then(|c| c.get(i)).copied();
    match j {
        0..4 => at(j),
        4 => sle.get(i).copied(),
        _ => at(j - 1),
    }
    .unwrap_or(0.0)
}

/// The terms of a chunk's rows but the squared log (see [`rows4`]; `out[j]` for sum j < 4, `out[j - 1]`
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

/// [`rows4`] with AVX2: the four replicates' sums of a term in one vector, the row's term broadcast to the
/// four, the row's four weights converted to f64 in one vector. The same IEEE operations (a product, then a
/// sum; never fused) in the same order per replicate as [`rows4_plain`].
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{chunk_terms, CHUNK, COMPUTED};
    use std::arch::x86_64::*;

    #[target_feature(enable = "avx2")]
    pub(super) fn rows4(
        [t, p, sle]: [&[f64]; 3],
        centre: [f64; 2],
        quad: &[[u8; 4]],
    ) -> ([[f64; 4]; 12], [u64; 4]) {
        let mut sums = [[0.0f64; 4]; 12];
        let mut count = [0u64; 4];
        let mut terms = [[0.0f64; CHUNK]; COMPUTED];
        let chunks = quad.chunks(CHUNK).zip(t.chunks(CHUNK));
        for ((quad, t), (p, sle)) in chunks.zip(p.chunks(CHUNK).zip(sle.chunks(CHUNK))) {
            let m = chunk_terms([t, p, sle], centre, &mut terms).min(quad.len());
            let (quad, sle) = (&quad[..m], &sle[..m]);
            let mut block = [_mm256_setzero_pd(); 12];
            let mut weight = _mm_setzero_si128(); // at most 255 · CHUNK a lane
            for i in 0..m {
                let k32 = _mm_cvtepu8_epi32(_mm_cvtsi32_si128(i32::from_le_bytes(quad[i])));
                let k = _mm256_cvtepi32_pd(k32);
                weight = _mm_add_epi32(weight, k32);
                // Every term is finite ([`Fast::plain`]): a zero weight adds ±0.0.
                let add = |b: &mut __m256d, x: f64| {
                    *b = _mm256_add_pd(*b, _mm256_mul_pd(_mm256_set1_pd(x), k));
                };
                let (low, high) = block.split_at_mut(4);
                for (b, column) in low.iter_mut().zip(&terms[..4]) {
                    add(b, column[i]);
                }
                add(&mut high[0], sle[i]);
                for (b, column) in high[1..].iter_mut().zip(&terms[4..]) {
                    add(b, column[i]);
                }
            }
            for (s, b) in sums.iter_mut().zip(block) {
                let b = lanes(b);
                for r in 0..4 {
                    s[r] += b[r];
                }
            }
            let weight = [
                _mm_extract_epi32::<0>(weight),
                _mm_extract_epi32::<1>(weight),
                _mm_extract_epi32::<2>(weight),
                _mm_extract_epi32::<3>(weight),
            ];
            for r in 0..4 {
                count[r] += weight[r] as u32 as u64;
            }
        }
        (sums, count)
    }

    /// The four f64 of a vector.
    #[target_feature(enable = "avx2")]
    fn lanes(v: __m256d) -> [f64; 4] {
        let (lo, hi) = (_mm256_castpd256_pd128(v), _mm256_extractf128_pd::<1>(v));
        [
            _mm_cvtsd_f64(lo),
            _mm_cvtsd_f64(_mm_unpackhi_pd(lo, lo)),
            _mm_cvtsd_f64(hi),
            _mm_cvtsd_f64(_mm_unpackhi_pd(hi, hi)),
        ]
    }
}
