//! Two pieces of work at once: natively on a second (scoped) thread, in wasm one after the other. A thread
//! that cannot be started, or that panics (a bug), leaves its work to the calling thread, so the result is
//! the same either way.

/// Runs `a` here and `b` beside it; returns both results.
pub fn join<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
where
    A: FnOnce() -> RA,
    B: Fn() -> RB + Sync,
    RB: Send,
{
    #[cfg(target_arch = "wasm32")]
    {
        (a(), b())
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        std::thread::scope(|s| {
            let beside = std::thread::Builder::new().spawn_scoped(s, &b).ok();
            let ra = a();
            let rb = beside.and_then(|h| h.join().ok());
            (ra, rb.unwrap_or_else(&b))
        })
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn both_results_in_place() {
        let v: Vec<u64> = (0..1000).collect();
        let (a, b) = super::join(|| v.iter().sum::<u64>(), || v.iter().max().copied());
        assert_eq!((a, b), (499_500, Some(999)));
    }
}
