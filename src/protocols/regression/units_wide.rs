//! The regression replicates' loops compiled for AVX-512 where the CPU has it, else as
//! [`crate::stats::wide::wide`] compiles them (AVX2 where the CPU has it, else the baseline): Spearman's
//! integer sweeps (AVX-512 has 64-bit multiplications, AVX2 has not), the block's interleave, and the fused pass
//! of the moments for eight replicates (a term's eight sums in one vector). For four, that pass stays on AVX2:
//! with AVX-512 the compiler pairs two terms' sums in a vector, with shuffles (the earlier form of the pass
//! measured slower so; this one was not measured with AVX-512). The same
//! operations in the same order, so every value is the same to the bit.

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
