//! Work shared among threads natively, done one piece after the other in wasm (single-threaded): two pieces
//! at once ([`join`]), a list of jobs ([`all`]), or one function over `0..n` ([`map`]). A thread that cannot be
//! started, or that panics (a bug), leaves its work to the calling thread, so the result is the same either way.

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

/// `f(state, i)` for every `i` of `0..n`, in the order of `i`: natively shared among the available cores (each
/// worker, with its own `state()`, takes the next `i` not yet taken; the calling thread waits), in wasm one
/// after another. An item whose worker panicked (a bug) or could not be started is computed again here.
pub fn map<S, R, I, F>(n: usize, state: I, f: F) -> Vec<R>
where
    I: Fn() -> S + Sync,
    F: Fn(&mut S, usize) -> R + Sync,
    R: Send,
{
    #[cfg(not(target_arch = "wasm32"))]
    {
        let workers = std::thread::available_parallelism()
            .map_or(1, |c| c.get())
            .min(n);
        if workers > 1 {
            return spread(n, workers, &state, &f);
        }
    }
    let mut s = state();
    (0..n).map(|i| f(&mut s, i)).collect()
}

/// [`map`] on `workers` threads.
#[cfg(not(target_arch = "wasm32"))]
fn spread<S, R: Send>(
    n: usize,
    workers: usize,
    state: &(dyn Fn() -> S + Sync),
    f: &(dyn Fn(&mut S, usize) -> R + Sync),
) -> Vec<R> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let work = || {
        let mut s = state();
        let mut mine = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= n {
                break mine;
            }
            mine.push((i, f(&mut s, i)));
        }
    };
    let done: Vec<(usize, R)> = std::thread::scope(|sc| {
        let handles: Vec<_> = (0..workers)
            .filter_map(|_| std::thread::Builder::new().spawn_scoped(sc, work).ok())
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let mut out: Vec<Option<R>> = (0..n).map(|_| None).collect();
    for (i, r) in done {
        out[i] = Some(r);
    }
    let mut s = state();
    out.into_iter()
        .enumerate()
        .map(|(i, r)| r.unwrap_or_else(|| f(&mut s, i)))
        .collect()
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

    /// Every item once, in order, each worker with its own state.
    #[test]
    fn map_in_order() {
        let v = super::map(1000, Vec::<usize>::new, |mine, i| {
            mine.push(i);
            i * i
        });
        assert_eq!(v, (0..1000).map(|i| i * i).collect::<Vec<_>>());
        assert!(super::map(0, || (), |_, i| i).is_empty());
    }
}
