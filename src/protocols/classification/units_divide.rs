//! The curve's quotients x / y with y the same for many x (x = fps / neg and y = tps / pos of every point)
//! without a division each: the IEEE quotient to the bit from the reciprocal by two fused multiply-adds
//! (the correction step of Markstein's division, P. Markstein, "Computation of elementary functions on the
//! IBM RISC System/6000 processor", IBM J. Res. Dev. 34(1), 1990; J.-M. Muller et al., Handbook of
//! Floating-Point Arithmetic, 2nd ed., 2018, section 4.9), where the vector divider would take several
//! cycles per quotient. Only where the CPU multiplies and adds in one rounding (`stats::wide::fused`): elsewhere (wasm,
//! x86-64 without FMA) `mul_add` is a library call and the curve divides.
//!
//! Why [`quotient`] is RN(x / y), the correctly rounded quotient, for integers 0 ≤ x ≤ y < 2^32, y ≥ 1, and
//! r = RN(1 / y) (u = 2^−53; every number below is far from underflow and overflow):
//! 1. r = (1 / y)(1 + ε) with |ε| ≤ u, so x·r is within u·x/y of x/y, and q = RN(x·r) within a further half
//!    ulp of q: |x/y − q| < 2 ulp(q); and q ≤ 1 (x·r ≤ 1 + u rounds to 1), so ulp(q) = 2^(k−52), k ≤ 0.
//! 2. e = fma(−q, y, x) is exact: x − q·y is a multiple of 2^(k−52) (x an integer, q a multiple of it)
//!    whose magnitude y·|x/y − q| is below 2y·2^(k−52) < 2^53·2^(k−52): it is a float, so rounding keeps it.
//! 3. q + e·r = q + (x − q·y)(1 + ε)/y = x/y + ε·(x/y − q) exactly: the last fma rounds x/y + η with
//!    |η| ≤ u·2 ulp(q) ≤ 2^(j−103) when x/y lies in [2^j, 2^(j+1)) (q ≤ 2^(j+1)).
//! 4. Every rounding boundary near x/y (a midpoint between floats) is a multiple of 2^(j−54), and x/y is none
//!    (a ratio of integers below 2^32 has at most 32 significant bits or does not end in binary), so
//!    |x/y − boundary| = |x·2^(54−j) − c·y| / (y·2^(54−j)) ≥ 2^(j−54) / y > 2^(j−86) > |η|: no boundary lies
//!    between x/y and x/y + η, so both round to the same float, RN(x / y).
//!    x = 0 gives q = e = +0 and +0, as 0 / y.
//!
//! The tests check it against the division on every x ≤ y < 2^12 and on random and near-midpoint pairs up
//! to 2^32.

/// RN(x / y) for integers 0 ≤ x ≤ y < 2^32 with y ≥ 1 given `r` = 1 / y (the proof above): the product by
/// the reciprocal, then its residual x − q·y (exact) times the reciprocal added in one rounding.
#[inline(always)]
pub(super) fn quotient(x: f64, y: f64, r: f64) -> f64 {
    let q = x * r;
    let e = (-q).mul_add(y, x);
    e.mul_add(r, q)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::wide::{fused, has_fma};

    fn check(x: u64, y: u64) {
        let (xf, yf) = (x as f64, y as f64);
        let got = quotient(xf, yf, 1.0 / yf);
        assert_eq!(got.to_bits(), (xf / yf).to_bits(), "{x} / {y}");
    }

    /// Every quotient of small integers, and random ones up to 2^32: the division's bits.
    #[test]
    fn quotient_is_the_division() {
        for y in 1..1u64 << 12 {
            for x in 0..=y {
                check(x, y);
            }
        }
        let mut s: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        for _ in 0..2_000_000 {
            let y = 1 + next() % (u32::MAX as u64);
            let bits = 1 + next() % 32;
            let y = (y >> (32 - bits)).max(1);
            check(next() % (y + 1), y);
            check(y, y);
            check(y - 1, y);
        }
        // x/y close to a rounding midpoint: x ≈ (2c + 1)·2^(j−54)·y for random midpoints.
        for _ in 0..1_000_000 {
            let y = 1 + next() % (u32::MAX as u64);
            let m = f64::from_bits((next() >> 12) | 0x3fe0_0000_0000_0000); // in [0.5, 1)
            let mid = m + f64::EPSILON / 4.0; // halfway to the next float
            let x = (mid * y as f64).round() as u64;
            if x <= y {
                check(x, y);
                check(x.saturating_sub(1), y);
                check((x + 1).min(y), y);
            }
        }
    }

    /// The same under `fused`, compiled with FMA (the test build may use the library's `mul_add`).
    #[test]
    fn fused_quotient_is_the_division() {
        if !has_fma() {
            return;
        }
        for y in [1u64, 3, 7, 1000, 999_983, (1 << 32) - 1] {
            let yf = y as f64;
            let r = 1.0 / yf;
            let xs: Vec<f64> = (0..=1000u64.min(y))
                .map(|x| (x * (y / 1000).max(1)).min(y) as f64)
                .collect();
            let got: Vec<f64> = fused(
                #[inline(always)]
                || xs.iter().map(|&x| quotient(x, yf, r)).collect(),
            );
            for (x, q) in xs.iter().zip(got) {
                assert_eq!(q.to_bits(), (x / yf).to_bits(), "{x} / {y}");
            }
        }
    }
}
