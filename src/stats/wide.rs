//! The replicates' vector loops compiled for wider vectors where the CPU has them: the crate is built for the
//! baseline x86-64 (SSE2: two f64 per instruction), and [`wide`] runs a loop compiled with AVX2 (four) when
//! the running CPU has it, [`wider`] with AVX-512 (eight; and 64-bit integer multiplications, which AVX2 has
//! not), [`fused`] with AVX2 and FMA. The same IEEE operations in the same order per element (Rust never fuses
//! a multiplication and an addition unless the code calls `mul_add`), so every value is the same to the bit.

/// `f()`, compiled with AVX2 when the running CPU has it (the check is cached by the standard library), else
/// as built. `f` should be a loop inlined into it (a closure called once is).
#[inline(always)]
pub fn wide<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the running CPU has AVX2, checked just above.
        return unsafe { avx2(f) };
    }
    f()
}

/// `f()` with AVX2 enabled for the code inlined into it.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn avx2<R>(f: impl FnOnce() -> R) -> R {
    f()
}

/// `f()`, compiled with AVX-512 (F, VL, DQ, BW) when the running CPU has it (the check is cached by the
/// standard library), else through [`wide`]. `f` should be a loop inlined into it (a closure called once
/// is).
#[inline(always)]
pub fn wider<R>(f: impl FnOnce() -> R) -> R {
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

/// Whether the running CPU has fused multiply-add instructions and AVX2 (then [`fused`] compiles for them;
/// elsewhere, wasm included, `mul_add` is a library call).
pub fn has_fma() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// `f()` compiled with AVX2 and FMA (`mul_add` one instruction) when [`has_fma`], else as built.
#[inline(always)]
pub fn fused<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    if has_fma() {
        // SAFETY: the running CPU has AVX2 and FMA, checked just above.
        return unsafe { avx2_fma(f) };
    }
    f()
}

/// `f()` with AVX2 and FMA enabled for the code inlined into it.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn avx2_fma<R>(f: impl FnOnce() -> R) -> R {
    f()
}
