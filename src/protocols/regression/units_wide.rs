//! The regression replicates' loops compiled for AVX-512 where the CPU has it, else as
//! [`crate::stats::wide::wide`] compiles them (AVX2 where the CPU has it, else the baseline). AVX-512's 32
//! vector registers hold the fused pass's 48 running sums (12 terms of 4 replicates) without spilling them
//! to the stack, and its 64-bit multiplications serve the integer sweeps. The same IEEE and integer
//! operations in the same order per element (Rust never fuses a multiplication and an addition), so every
//! value is the same to the bit.

use crate::stats::wide::wide;

/// `f()`, compiled with AVX-512 (F, VL, DQ, BW) when the running CPU has it (the check is cached by the
/// standard library), else through [`wide`]. `f` should be a loop inlined into it (a closure called once
/// is).
#[inline(always)]
pub(super) fn wider<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512vl")
        && std::arch::is_x86_feature_detected!("avx512dq")
        && std::arch::is_x86_feature_detected!("avx512bw")
    {
        // SAFETY: the running CPU has these features, checked just above.
        return unsafe { avx512(f) };
    }
    wide(f)
}

/// `f()` with AVX-512 enabled for the code inlined into it.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
fn avx512<R>(f: impl FnOnce() -> R) -> R {
    f()
}
