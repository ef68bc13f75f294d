//! [`Generator::count_below`](super::Generator::count_below)'s draws computed 32 PCG64 steps at a time with
//! AVX-512 IFMA, the same draws to the bit.
//!
//! The 128-bit LCG `s ← M·s + inc` (NumPy 2.x `src/pcg64/pcg64.h`) run as 32 interleaved lanes: lane i holds
//! step k + i and advances 32 steps at once by `s ← A·s + C` with `A = M^32`, `C = inc·(M^31 + … + M + 1)`
//! (mod 2^128; Brown 1994, "Random number generation with arbitrary strides", the jump-ahead of PCG's
//! `pcg_advance`). A lane's state is three 52-bit limbs, multiplied with `vpmadd52luq`/`vpmadd52huq`. The XSL-RR
//! outputs of 8 consecutive steps fill one 512-bit vector, which read as 16 `u32` is the stream of 32-bit
//! draws in order (the low half of each output first, as PCG64's `next32` gives them). Lemire's method with
//! rejection (`numpy/random/src/distributions/distributions.c`, `buffered_bounded_lemire_uint32`) keeps a
//! `u32` u when the low half of u·n is at least `2^32 mod n` and draws the high half; a rejected u is simply
//! skipped (the retry is the next `u32` of the stream), so the draws are the stream filtered, in order. A
//! vector with a rejection (about 0.4 % of them at n = 10^6) is filtered one `u32` at a time.
//!
//! A block's draws are written to a buffer, then given to the caller, who counts them (buffers of 128 to 1024
//! draws measured no faster). Whole blocks of 32 steps are consumed while at least 64 draws remain, so that no
//! block outruns the draws asked for; the caller draws the rest one by one from the last step consumed.

#[cfg(target_arch = "x86_64")]
use super::PCG_MULT;

/// The steps a block advances: 4 vectors of 8 lanes (four independent chains of multiplications in flight).
const STEPS: usize = 32;
/// The most `u32` draws a block gives (two per step).
pub(super) const BLOCK_DRAWS: usize = 2 * STEPS;

/// Up to `count` draws of `integers(0, excl)` (2 ≤ excl < 2^32, Lemire's `threshold = 2^32 mod excl`) given to
/// `sink` in order (in slices), from `state` with no spare half. Returns how many were drawn (fewer than
/// [`BLOCK_DRAWS`] are left), with `state` the last step consumed (both halves of its output used). With AVX-512
/// IFMA (when `avx512`: the tests set it false to check the AVX2 path too), else with AVX2 (numpy_rng_avx2.rs);
/// draws none on other CPUs and targets.
pub(super) fn draw(
    state: &mut u128,
    inc: u128,
    excl: u32,
    threshold: u32,
    count: usize,
    sink: &mut impl FnMut(&[u32]),
    avx512: bool,
) -> usize {
    #[cfg(target_arch = "x86_64")]
    if count >= BLOCK_DRAWS {
        use std::arch::is_x86_feature_detected as has;
        if avx512 && has!("avx512f") && has!("avx512ifma") {
            // SAFETY: the running CPU has AVX-512F and AVX-512 IFMA, checked just above.
            return unsafe { avx512::draw(state, inc, excl, threshold, count, sink) };
        }
        if has!("avx2") {
            // SAFETY: the running CPU has AVX2, checked just above.
            return unsafe { avx2::draw(state, inc, excl, threshold, count, sink) };
        }
    }
    let _ = (state, inc, excl, threshold, count, sink, avx512);
    0
}

#[cfg(target_arch = "x86_64")]
#[path = "numpy_rng_avx2.rs"]
mod avx2;

/// `A = M^steps` and `C = inc·(M^(steps−1) + … + 1)`: `steps` steps from state s give `A·s + C`.
#[cfg(target_arch = "x86_64")]
fn jump(inc: u128, steps: usize) -> (u128, u128) {
    let mut c = 0u128;
    for _ in 0..steps {
        c = c.wrapping_mul(PCG_MULT).wrapping_add(inc);
    }
    (PCG_MULT.wrapping_pow(steps as u32), c)
}

/// The states of the next N steps from `state`.
#[cfg(target_arch = "x86_64")]
fn first_steps<const N: usize>(mut state: u128, inc: u128) -> [u128; N] {
    std::array::from_fn(|_| {
        state = state.wrapping_mul(PCG_MULT).wrapping_add(inc);
        state
    })
}

/// `x` as three 52-bit limbs (the last one 24 bits).
#[cfg(target_arch = "x86_64")]
fn limbs(x: u128) -> [u64; 3] {
    const M52: u128 = (1 << 52) - 1;
    [(x & M52) as u64, (x >> 52 & M52) as u64, (x >> 104) as u64]
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::{first_steps, jump, limbs, BLOCK_DRAWS, STEPS};
    use std::arch::x86_64::*;

    const VECTORS: usize = STEPS / 8;

    /// 8 lanes' states as limbs: `l0 + l1·2^52 + l2·2^104` (mod 2^128). The limbs need not be reduced: the
    /// multiplications read the low 52 bits of each, and `l0`'s and `l1`'s carries are already in the next limb.
    #[derive(Clone, Copy)]
    struct Lanes {
        l0: __m512i,
        l1: __m512i,
        l2: __m512i,
    }

    /// A 128-bit constant's limbs in every lane.
    #[derive(Clone, Copy)]
    struct Constant([__m512i; 3]);

    #[target_feature(enable = "avx512f")]
    fn constant(x: u128) -> Constant {
        Constant(limbs(x).map(|l| _mm512_set1_epi64(l as i64)))
    }

    #[target_feature(enable = "avx512f")]
    fn lanes(states: &[u128]) -> Lanes {
        let limb = |i: usize| {
            let l = |j: usize| limbs(states[j])[i] as i64;
            _mm512_set_epi64(l(7), l(6), l(5), l(4), l(3), l(2), l(1), l(0))
        };
        Lanes {
            l0: limb(0),
            l1: limb(1),
            l2: limb(2),
        }
    }

    /// Lane 7's state (reduced mod 2^128; the limbs' carries past 52 bits are counted in the next limb).
    #[target_feature(enable = "avx512f")]
    fn last(s: Lanes) -> u128 {
        let lane7 = |v: __m512i| {
            _mm256_extract_epi64::<3>(_mm512_extracti64x4_epi64::<1>(v)) as u64 as u128
        };
        let m52 = (1 << 52) - 1;
        (lane7(s.l0) & m52)
            .wrapping_add((lane7(s.l1) & m52) << 52)
            .wrapping_add(lane7(s.l2) << 104)
    }

    /// `A·s + C` per lane: the 128-bit product's columns of 52 bits (the products whose weight is 2^156 or
    /// more vanish mod 2^128; column 2 is read mod 2^24, so its products need only their low halves).
    #[target_feature(enable = "avx512f,avx512ifma")]
    fn advance(s: Lanes, a: Constant, c: Constant) -> Lanes {
        let [a0, a1, a2] = a.0;
        let [c0, c1, c2] = c.0;
        let col0 = _mm512_madd52lo_epu64(c0, a0, s.l0);
        let col1 = _mm512_madd52hi_epu64(c1, a0, s.l0);
        let col1 = _mm512_madd52lo_epu64(col1, a0, s.l1);
        let col1 = _mm512_madd52lo_epu64(col1, a1, s.l0);
        // Column 2 as two sums, two shorter chains of dependent multiplications.
        let col2 = _mm512_madd52hi_epu64(c2, a0, s.l1);
        let col2 = _mm512_madd52hi_epu64(col2, a1, s.l0);
        let col2b = _mm512_madd52lo_epu64(_mm512_setzero_si512(), a0, s.l2);
        let col2b = _mm512_madd52lo_epu64(col2b, a1, s.l1);
        let col2b = _mm512_madd52lo_epu64(col2b, a2, s.l0);
        let l1 = _mm512_add_epi64(col1, _mm512_srli_epi64::<52>(col0));
        let l2 = _mm512_add_epi64(_mm512_add_epi64(col2, col2b), _mm512_srli_epi64::<52>(l1));
        Lanes { l0: col0, l1, l2 }
    }

    /// XSL-RR of each lane's state: `rotr(high ^ low, state >> 122)`.
    #[target_feature(enable = "avx512f")]
    fn output(s: Lanes) -> __m512i {
        let m52 = _mm512_set1_epi64((1 << 52) - 1);
        // low = (l0 mod 2^52) | l1 << 52 (ternary-logic 0xEA: (a & b) | c).
        let low = _mm512_ternarylogic_epi64::<0xEA>(s.l0, m52, _mm512_slli_epi64::<52>(s.l1));
        // high = (l1 mod 2^52) >> 12 + l2 << 40: l1's carry past 2^52 is in l2 already.
        let l1 = _mm512_and_si512(s.l1, m52);
        let high = _mm512_or_si512(_mm512_srli_epi64::<12>(l1), _mm512_slli_epi64::<40>(s.l2));
        // vprorvq rotates by the count mod 64: bits 122..127 of the state are l2's bits 18..23.
        _mm512_rorv_epi64(_mm512_xor_si512(low, high), _mm512_srli_epi64::<18>(s.l2))
    }

    /// Lemire's draws of 16 `u32` (one vector of outputs, in stream order) into `out` (the accepted ones, in
    /// order); returns how many were accepted.
    #[target_feature(enable = "avx512f")]
    fn draws(
        u: __m512i,
        excl: __m512i,
        threshold: __m512i,
        threshold_u32: u32,
        pick: __m512i,
        out: &mut [u32],
    ) -> usize {
        let even = _mm512_mul_epu32(u, excl); // u[2i]·n in 64-bit lane i
        let odd = _mm512_mul_epu32(_mm512_srli_epi64::<32>(u), excl); // u[2i+1]·n
                                                                      // `threshold` is 0 in the odd 32-bit slots, so only the products' low halves are compared.
        let rejected =
            _mm512_cmplt_epu32_mask(even, threshold) | _mm512_cmplt_epu32_mask(odd, threshold);
        let high = _mm512_permutex2var_epi32(even, pick, odd); // the products' high halves, in order
        let out = &mut out[..16];
        if rejected == 0 {
            // SAFETY: `out` is 16 u32 (64 bytes); the store is unaligned.
            unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), high) };
            return 16;
        }
        let (highs, lows) = (lanes_of(high), lanes_of(low_halves(even, odd)));
        let mut kept = 0;
        for (&h, &l) in highs.iter().zip(&lows) {
            if l >= threshold_u32 {
                out[kept] = h;
                kept += 1;
            }
        }
        kept
    }

    /// A vector's 16 `u32`.
    #[target_feature(enable = "avx512f")]
    fn lanes_of(v: __m512i) -> [u32; 16] {
        let mut out = [0u32; 16];
        // SAFETY: `out` is 16 u32 (64 bytes); the store is unaligned.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), v) };
        out
    }

    /// The products' low halves, in stream order.
    #[target_feature(enable = "avx512f")]
    fn low_halves(even: __m512i, odd: __m512i) -> __m512i {
        _mm512_mask_blend_epi32(0xAAAA, even, _mm512_slli_epi64::<32>(odd))
    }

    /// See [`super::draw`]: the CPU must have AVX-512F and AVX-512 IFMA.
    #[target_feature(enable = "avx512f,avx512ifma")]
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
        let mut vectors: [Lanes; VECTORS] =
            std::array::from_fn(|v| lanes(&steps[8 * v..8 * v + 8]));
        let excl_v = _mm512_set1_epi64(excl as i64);
        let threshold_v = _mm512_set1_epi64(threshold as i64);
        // Slot 2i takes the high half of `even`'s lane i (u32 2i + 1), slot 2i + 1 that of `odd` (16 + 2i + 1).
        let pick = _mm512_set_epi32(31, 15, 29, 13, 27, 11, 25, 9, 23, 7, 21, 5, 19, 3, 17, 1);
        let mut buffer = [0u32; BLOCK_DRAWS];
        let mut done = 0;
        loop {
            let mut filled = 0;
            for v in &vectors {
                filled += draws(
                    output(*v),
                    excl_v,
                    threshold_v,
                    threshold,
                    pick,
                    &mut buffer[filled..],
                );
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
}
