//! The blocks of numpy_rng_wide.rs with AVX2, for CPUs without AVX-512 IFMA: 8 lanes as 2 vectors of 4, a
//! lane's state as two 64-bit halves, the 128-bit product `A·s` (mod 2^128) summed in 32-bit columns of
//! `vpmuludq` products (32 × 32 → 64 bits), XSL-RR's rotation as two shifts. The same draws to the bit.

use super::{first_steps, jump};
use std::arch::x86_64::*;

/// The steps a block advances: 2 vectors of 4 lanes (measured: 1e6 draws counted in bytes, 0.80 ns a draw
/// against 0.98 with 4 vectors and 1.14 one step at a time; more vectors' states do not fit the 16 registers).
const STEPS: usize = 8;
const VECTORS: usize = STEPS / 4;
const BLOCK_DRAWS: usize = 2 * STEPS;

/// 4 lanes' states: the low and the high 64 bits.
#[derive(Clone, Copy)]
struct Lanes {
    lo: __m256i,
    hi: __m256i,
}

/// A 128-bit constant's four 32-bit pieces (least significant first), each in every lane.
#[derive(Clone, Copy)]
struct Constant([__m256i; 4]);

#[target_feature(enable = "avx2")]
fn constant(x: u128) -> Constant {
    Constant(std::array::from_fn(|i| {
        _mm256_set1_epi64x((x >> (32 * i)) as u32 as i64)
    }))
}

#[target_feature(enable = "avx2")]
fn lanes(states: &[u128]) -> Lanes {
    let half = |shift: u32| {
        let h = |j: usize| (states[j] >> shift) as u64 as i64;
        _mm256_set_epi64x(h(3), h(2), h(1), h(0))
    };
    Lanes {
        lo: half(0),
        hi: half(64),
    }
}

/// Lane 3's state.
#[target_feature(enable = "avx2")]
fn last(s: Lanes) -> u128 {
    let lane3 = |v: __m256i| _mm256_extract_epi64::<3>(v) as u64 as u128;
    lane3(s.hi) << 64 | lane3(s.lo)
}

/// `A·s + C` per lane. With `a_i`, `s_j` the 32-bit pieces, `A·s` is the sum of `a_i·s_j·2^(32(i+j))` for
/// i + j ≤ 3 (the rest vanish mod 2^128): columns 0 and 1 make the low half (with C's low pieces and the
/// carries), the products of weight 2^64 and the carries the high half, those of weight 2^96 their low 32 bits.
#[target_feature(enable = "avx2")]
fn advance(s: Lanes, a: Constant, c: Constant) -> Lanes {
    let [a0, a1, a2, a3] = a.0;
    let [c0, c1, c2, c3] = c.0;
    let m32 = _mm256_set1_epi64x(0xFFFF_FFFF);
    let (add, mul) = (_mm256_add_epi64, _mm256_mul_epu32);
    let (s1, s3) = (_mm256_srli_epi64::<32>(s.lo), _mm256_srli_epi64::<32>(s.hi));
    let (p00, p01, p10) = (mul(a0, s.lo), mul(a0, s1), mul(a1, s.lo));
    let col0 = add(_mm256_and_si256(p00, m32), c0);
    let col1 = add(
        add(_mm256_srli_epi64::<32>(p00), _mm256_srli_epi64::<32>(col0)),
        add(
            add(_mm256_and_si256(p01, m32), _mm256_and_si256(p10, m32)),
            c1,
        ),
    );
    let lo = _mm256_blend_epi32::<0b1010_1010>(col0, _mm256_slli_epi64::<32>(col1));
    let w64 = add(
        add(mul(a1, s1), add(mul(a0, s.hi), mul(a2, s.lo))),
        add(c2, _mm256_slli_epi64::<32>(c3)),
    );
    let carries = add(
        add(_mm256_srli_epi64::<32>(p01), _mm256_srli_epi64::<32>(p10)),
        _mm256_srli_epi64::<32>(col1),
    );
    let w96 = add(
        add(mul(a0, s3), mul(a1, s.hi)),
        add(mul(a2, s1), mul(a3, s.lo)),
    );
    let hi = add(add(w64, carries), _mm256_slli_epi64::<32>(w96));
    Lanes { lo, hi }
}

/// XSL-RR of each lane's state: `rotr(high ^ low, state >> 122)` (a shift by 64 gives 0).
#[target_feature(enable = "avx2")]
fn output(s: Lanes) -> __m256i {
    let x = _mm256_xor_si256(s.hi, s.lo);
    let r = _mm256_srli_epi64::<58>(s.hi);
    let left = _mm256_sub_epi64(_mm256_set1_epi64x(64), r);
    _mm256_or_si256(_mm256_srlv_epi64(x, r), _mm256_sllv_epi64(x, left))
}

/// Lemire's draws of 8 `u32` (one vector of outputs, in stream order) into `out`, the accepted ones in order;
/// returns how many were accepted.
#[target_feature(enable = "avx2")]
fn draws(u: __m256i, excl: __m256i, threshold: __m256i, out: &mut [u32]) -> usize {
    let even = _mm256_mul_epu32(u, excl);
    let odd = _mm256_mul_epu32(_mm256_srli_epi64::<32>(u), excl);
    let lows = _mm256_blend_epi32::<0b1010_1010>(even, _mm256_slli_epi64::<32>(odd));
    let high = _mm256_blend_epi32::<0b1010_1010>(_mm256_srli_epi64::<32>(even), odd);
    // Accepted where low ≥ threshold, i.e. max(low, threshold) = low (AVX2 has no unsigned comparison).
    let accepted = _mm256_cmpeq_epi32(_mm256_max_epu32(lows, threshold), lows);
    let (highs, accepted) = (
        words(high),
        _mm256_movemask_ps(_mm256_castsi256_ps(accepted)),
    );
    let out = &mut out[..8];
    if accepted == 0xFF {
        out.copy_from_slice(&highs);
        return 8;
    }
    let mut kept = 0;
    for (i, &h) in highs.iter().enumerate() {
        if accepted >> i & 1 == 1 {
            out[kept] = h;
            kept += 1;
        }
    }
    kept
}

/// A vector's 8 `u32`.
#[target_feature(enable = "avx2")]
fn words(v: __m256i) -> [u32; 8] {
    let mut out = [0u32; 8];
    // SAFETY: `out` is 8 u32 (32 bytes); the store is unaligned.
    unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), v) };
    out
}

/// See `numpy_rng_wide::draw`: the CPU must have AVX2.
#[target_feature(enable = "avx2")]
pub(super) fn draw(
    state: &mut u128,
    inc: u128,
    excl: u32,
    threshold: u32,
    count: usize,
    sink: &mut impl FnMut(&[u32]),
) -> usize {
    let (a, c) = jump(inc, STEPS);
    let (a, c) = (constant(a), constant(c));
    let steps: [u128; STEPS] = first_steps(*state, inc);
    let mut vectors: [Lanes; VECTORS] = std::array::from_fn(|v| lanes(&steps[4 * v..4 * v + 4]));
    let excl_v = _mm256_set1_epi64x(excl as i64);
    let threshold_v = _mm256_set1_epi32(threshold as i32);
    let mut buffer = [0u32; BLOCK_DRAWS];
    let mut done = 0;
    loop {
        let mut filled = 0;
        for v in &vectors {
            filled += draws(output(*v), excl_v, threshold_v, &mut buffer[filled..]);
        }
        sink(&buffer[..filled]);
        done += filled;
        if count - done < BLOCK_DRAWS {
            *state = last(vectors[VECTORS - 1]);
            return done;
        }
        vectors = vectors.map(|v| advance(v, a, c));
    }
}
