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

/// A piece of work for [`all`]: it writes its result where its closure points.
pub type Job<'a> = &'a mut (dyn FnMut() + Send);

/// Runs every job once: natively on this thread and a second one, each taking the next job not yet taken (so
/// list the longest first), in wasm one after another. A job that panics on the second thread is run again
/// here, as [`join`] does; a second thread that cannot be started leaves every job here.
pub fn all(jobs: &mut [Job]) {
    #[cfg(target_arch = "wasm32")]
    for job in jobs.iter_mut() {
        job();
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        use std::panic::{catch_unwind, AssertUnwindSafe};
        use std::sync::Mutex;
        let queue = Mutex::new(jobs.iter_mut());
        let failed = Mutex::new(Vec::new());
        let next = || queue.lock().ok().and_then(|mut q| q.next());
        std::thread::scope(|s| {
            let _ = std::thread::Builder::new().spawn_scoped(s, || {
                while let Some(job) = next() {
                    if catch_unwind(AssertUnwindSafe(&mut *job)).is_err() {
                        if let Ok(mut f) = failed.lock() {
                            f.push(job);
                        }
                    }
                }
            });
            while let Some(job) = next() {
                job();
            }
        });
        for job in failed.into_inner().unwrap_or_default() {
            job();
        }
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

    /// Every job runs once and its result lands where it points, whichever thread ran it.
    #[test]
    fn all_jobs_once() {
        let v: Vec<u64> = (0..1000).collect();
        let mut out = [0u64; 9];
        let [a, b, c, d, e, f, g, h, i] = &mut out;
        let mut jobs: [super::Job; 9] = [
            &mut || *a = v.iter().sum(),
            &mut || *b += 1,
            &mut || *c = v.len() as u64,
            &mut || *d = v[7],
            &mut || *e += 5,
            &mut || *f = v.iter().max().copied().unwrap_or(0),
            &mut || *g = 1,
            &mut || *h = 2,
            &mut || *i += 3,
        ];
        super::all(&mut jobs);
        assert_eq!(out, [499_500, 1, 1000, 7, 5, 999, 1, 2, 3]);
    }
}
