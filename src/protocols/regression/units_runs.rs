//! The rows sorted once by each variable, with their runs of equal values, and the sweeps in that order
//! that give Spearman's sums on weighted rows (see the module comment of `units`).

/// The rows of `x` sorted once (`total_cmp`), and where each run of `==` values ends (as `rankdata` ties
/// them); each row's run, numbered in increasing value.
pub(super) struct Runs {
    pub order: Vec<u32>,
    ends: Vec<u8>,
    pub run: Vec<u32>,
    pub count: usize,
    /// Where the runs end (positions in `order`, increasing), and for each [`GATHER`] positions of `order`
    /// (a chunk) the first of its ends: chunk j's ends are `end_at[chunk_ends[j]..chunk_ends[j + 1]]`.
    pub end_at: Vec<u32>,
    pub chunk_ends: Vec<u32>,
}

impl Runs {
    pub fn new(x: &[f64]) -> Runs {
        let mut order: Vec<u32> = (0..x.len() as u32).collect();
        order.sort_unstable_by(|&a, &b| x[a as usize].total_cmp(&x[b as usize]));
        let at = |j: usize| x[order[j] as usize];
        let ends: Vec<u8> = (0..x.len())
            .map(|j| (j + 1 == x.len() || at(j + 1) != at(j)) as u8)
            .collect();
        let mut run = vec![0u32; x.len()];
        let mut r = 0u32;
        for (&i, &e) in order.iter().zip(&ends) {
            run[i as usize] = r;
            r += e as u32;
        }
        let end_at: Vec<u32> = (0..x.len() as u32)
            .filter(|&j| ends[j as usize] != 0)
            .collect();
        let chunk_ends = (0..=x.len().div_ceil(GATHER))
            .map(|chunk| end_at.partition_point(|&e| (e as usize) < chunk * GATHER) as u32)
            .collect();
        Runs {
            order,
            ends,
            run,
            count: r as usize,
            end_at,
            chunk_ends,
        }
    }

    /// Each run's doubled average rank in the repeated rows (2C + W + 1 for a run of weight W after C repeated
    /// values), into `out` (index: the run), and Σ over the repeated values of (rank − c)², that is
    /// Σ_runs W · (2C + W + 1 − c)². The rows' weights are read in sorted order.
    pub fn doubled_ranks<W: Copy + Default + Into<u64>, R: Rank>(
        &self,
        w: &[W],
        out: &mut Vec<R>,
        c: i128,
    ) -> i128 {
        if out.len() < self.count + 1 {
            out.resize(self.count + 1, R::default());
        }
        let (mut before, mut run, mut idx, mut squares) = (0u64, 0u64, 0usize, 0i128);
        let mut gathered = [W::default(); GATHER];
        for (order, ends) in self.order.chunks(GATHER).zip(self.ends.chunks(GATHER)) {
            gather(&mut gathered, w, order);
            for (&k, &e) in gathered.iter().zip(ends) {
                run += k.into();
                out[idx] = R::of(2 * before + run + 1);
                if e != 0 {
                    let a = (2 * before + run + 1) as i128 - c;
                    squares += run as i128 * a * a;
                    before += run;
                    run = 0;
                    idx += 1;
                }
            }
        }
        squares
    }

    /// With `ranks` the other variable's doubled run ranks and `other_run` its run of each row in this
    /// variable's sorted order: (Σ (rank − c)², Σ (rank − c)(other rank − c)) over the repeated values, the
    /// cross sum gathered run by run (a run's rank times the sum of its rows' weighted other ranks).
    pub fn cross<W: Copy + Default + Into<u64>, R: Rank>(
        &self,
        w: &[W],
        ranks: &[R],
        other_run: &[u32],
        c: i128,
    ) -> (i128, i128) {
        let (mut before, mut run, mut inner) = (0u64, 0u64, 0i128);
        let (mut squares, mut cross) = (0i128, 0i128);
        let (mut gathered, mut other) = ([W::default(); GATHER], [R::default(); GATHER]);
        let chunks = self.order.chunks(GATHER).zip(self.ends.chunks(GATHER));
        for ((order, ends), other_run) in chunks.zip(other_run.chunks(GATHER)) {
            gather(&mut gathered, w, order);
            gather(&mut other, ranks, other_run);
            for ((&k, &e), &b) in gathered.iter().zip(ends).zip(&other) {
                let k: u64 = k.into();
                run += k;
                inner += k as i128 * (b.into() as i128 - c);
                if e != 0 {
                    let a = (2 * before + run + 1) as i128 - c;
                    squares += run as i128 * a * a;
                    cross += a * inner;
                    before += run;
                    run = 0;
                    inner = 0;
                }
            }
        }
        (squares, cross)
    }
}

/// A doubled rank as stored: 32 bits when every rank fits, else 64.
pub(super) trait Rank: Copy + Default + Into<u64> {
    /// `v`, which fits.
    fn of(v: u64) -> Self;
}

impl Rank for u32 {
    fn of(v: u64) -> u32 {
        v as u32
    }
}

impl Rank for u64 {
    fn of(v: u64) -> u64 {
        v
    }
}

/// The values read at a time in a sweep in sorted order (a few kilobytes on the stack).
pub(super) const GATHER: usize = 512;

/// `out[j] = x[at[j]]` for the j of `at` (independent loads, in flight together, before the sweep that adds
/// them up in order).
pub(super) fn gather<T: Copy>(out: &mut [T], x: &[T], at: &[u32]) {
    for (o, &i) in out.iter_mut().zip(at) {
        *o = x[i as usize];
    }
}

/// Asks the CPU to bring `x[at[j]]` into the cache for the j of `at`, without waiting: called for the next
/// chunk of a sweep before the current one is summed, so that the reads at random of the next chunk are under
/// way while the CPU sums (on other CPUs than x86-64, nothing).
#[inline(always)]
pub(super) fn prefetch<T>(x: &[T], at: &[u32]) {
    #[cfg(target_arch = "x86_64")]
    for &i in at {
        if let Some(v) = x.get(i as usize) {
            let p = v as *const T as *const i8;
            // SAFETY: a prefetch reads nothing into the program and never faults; `p` points into `x`.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (x, at);
}
