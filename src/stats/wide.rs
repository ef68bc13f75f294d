//! The replicates' vector loops compiled for wider vectors where the CPU has them: the crate is built for the
//! baseline x86-64 (SSE2: two f64 per instruction), and [`wide`] runs a loop compiled with AVX2 (four) when
//! the running CPU has it. The same IEEE operations in the same order per element (Rust never fuses a
//! multiplication and an addition), so every value is the same to the bit.

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
