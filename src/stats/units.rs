//! The bootstrap of a report (docs/specs/statistics.md sections 1 and 2): a protocol hands over its units
//! ([`Units`]: the unit's name, its strata, and a [`Replicate`] that recomputes every metric for integer unit
//! weights from per-unit sufficient statistics), and [`bootstrap`] draws B replicates with NumPy's generator and
//! summarises each metric's replicate values into an [`Interval`].

pub use super::block::Block;
use super::interval::{interval, Interval};
use super::resample::Resampler;
use std::any::Any;
use std::sync::Arc;

/// Recomputes a protocol's metrics on weighted units: unit i drawn `w[i]` times counts `w[i]` times wherever it
/// enters a metric, so that a replicate equals the metric on the set in which every unit is repeated as drawn.
pub trait Replicate: Send + Sync {
    /// The metric ids recomputed (ids of the report's `scores`), in the order [`Replicate::values`] gives them.
    fn metrics(&self) -> Vec<String>;
    /// The metrics' values for unit weights `w` (one per unit, strata concatenated in order); `None` where a
    /// metric is undefined on this replicate.
    fn values(&self, w: &[u32]) -> Vec<Option<f64>>;
    /// [`Replicate::values`] of several replicates (`ws[r]`: replicate r's weights), in order. A protocol
    /// overrides it to read its per-unit columns once for the block; the values stay those of `values`.
    fn values_block(&self, ws: &[&[u32]]) -> Vec<Vec<Option<f64>>> {
        ws.iter().map(|w| self.values(w)).collect()
    }
    /// How many replicates [`Replicate::values_block`] is given at a time ([`BLOCK`] unless the protocol reads
    /// more side by side).
    fn block(&self) -> usize {
        BLOCK
    }
    /// [`Replicate::values_block`] of a block whose counts all fit in a byte (`ws[r][i]`: unit i's count in
    /// replicate r), when the protocol reads them so (a quarter of the memory); `None` (the default) gives the
    /// block to `values_block` in 32 bits instead. The values are those of `values`.
    fn values_block_bytes(&self, ws: &[&[u8]]) -> Option<Vec<Vec<Option<f64>>>> {
        let _ = ws;
        None
    }
    /// The same metrics on the paired mixture of `self` and `other` (another submission on the same ground
    /// truth, the same protocol): unit i's sufficient statistics taken from `other` where `take_other[i]`.
    /// `None` when `other` is not of the same kind (the caller then has no randomization test).
    fn mixed(
        &self,
        other: &dyn Replicate,
        take_other: &[bool],
        w: &[u32],
    ) -> Option<Vec<Option<f64>>> {
        let _ = (other, take_other, w);
        None
    }
    /// Each unit's own score (for per-unit wins, ties and losses), when the protocol has one.
    fn unit_scores(&self) -> Option<Vec<f64>> {
        None
    }
    /// Whether a smaller value of `metric` is better (a loss, an error).
    fn lower_is_better(&self, metric: &str) -> bool {
        let _ = metric;
        false
    }
    /// `self` as [`Any`] (for [`Replicate::mixed`]'s downcast).
    fn as_any(&self) -> &dyn Any;
}

/// What a protocol declares about its test set for the bootstrap.
pub struct Units {
    /// The unit's name as the report says it: `row`, `image`, `query`, `item`…
    pub unit: &'static str,
    /// The strata's name (`manuscript`, `subset`…), `None` without strata.
    pub strata: Option<&'static str>,
    /// The number of units of each stratum in order (one entry without strata).
    pub sizes: Vec<usize>,
    /// The recomputation.
    pub replicate: Box<dyn Replicate>,
    /// Metrics of the report that have no interval, with the reason (`fid`: "not a mean over ids").
    pub no_interval: Vec<(String, String)>,
    /// Each unit's id as the ground truth names it (row id, image id or file stem, query id…), in unit order;
    /// empty when the protocol does not name its units. A split file (docs/specs/statistics.md section 4)
    /// assigns parts by these ids.
    pub ids: Vec<String>,
}

impl Units {
    /// Units without strata.
    pub fn plain(unit: &'static str, n: usize, replicate: Box<dyn Replicate>) -> Units {
        Units {
            unit,
            strata: None,
            sizes: vec![n],
            replicate,
            no_interval: Vec::new(),
            ids: Vec::new(),
        }
    }
    /// The same units, named (see [`Units::ids`]).
    pub fn with_ids(mut self, ids: Vec<String>) -> Units {
        self.ids = ids;
        self
    }
    /// The total number of units.
    pub fn count(&self) -> usize {
        self.sizes.iter().sum()
    }
}

/// The report's handle on its units: kept beside the report (never serialised) so that the shell, `compare` and
/// `rank` can draw replicates after scoring. Equal to any other slot (it holds no user-visible value).
#[derive(Clone, Default)]
pub struct Slot(pub Option<Arc<Units>>);

impl Slot {
    pub fn new(units: Units) -> Slot {
        Slot(Some(Arc::new(units)))
    }
}

impl std::fmt::Debug for Slot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Some(u) => write!(f, "Units({}, {:?})", u.unit, u.sizes),
            None => f.write_str("NoUnits"),
        }
    }
}

impl PartialEq for Slot {
    fn eq(&self, _: &Slot) -> bool {
        true
    }
}

/// The bootstrap's settings (options `bootstrap`, `seed`, `confidence`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    pub replicates: usize,
    pub seed: u64,
    pub confidence: f64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            replicates: 1000,
            seed: 0,
            confidence: 0.95,
        }
    }
}

/// The replicates handed to [`Replicate::values_block`] at a time unless the protocol asks for another number
/// ([`Replicate::block`]): a protocol that reads its per-unit columns once for the whole block reads them a
/// quarter as often. Memory: the block's weight vectors, a few of them in flight (see [`pipelined`]).
pub const BLOCK: usize = 4;

/// Every replicate's values, in replicate order: `out[r][m]` is metric m of replicate r (see [`each_replicate`]),
/// computed [`Replicate::block`] replicates at a time.
pub fn replicate_values(units: &Units, settings: &Settings) -> Vec<Vec<Option<f64>>> {
    let size = units.replicate.block().max(1);
    let blocks = each_block(units, settings, size, &|block: &mut Block| {
        block.values(&*units.replicate)
    });
    blocks.into_iter().flatten().collect()
}

/// `f(weights)` for each replicate in order. The weights are drawn in order from one generator (NumPy's
/// draws); natively this thread draws them while the other cores compute (`f` on each replicate as its
/// weights arrive; this thread too when they are all busy), in wasm one replicate after the other. Memory: a few weight vectors, never B of them.
pub fn each_replicate<R: Send>(
    units: &Units,
    settings: &Settings,
    f: impl Fn(&[u32]) -> R + Sync,
) -> Vec<R> {
    let blocks = each_block(units, settings, 1, &|block: &mut Block| {
        block.wide().into_iter().map(&f).collect()
    });
    blocks.into_iter().flatten().collect()
}

/// `f` on the draws of consecutive replicates, `size` at a time (the last block may be shorter), the blocks'
/// results in replicate order (see [`each_replicate`]).
fn each_block<R: Send>(
    units: &Units,
    settings: &Settings,
    size: usize,
    f: &(dyn Fn(&mut Block) -> Vec<R> + Sync),
) -> Vec<Vec<R>> {
    let size = size.max(1);
    let resampler = Resampler::new(settings.seed as u128, &units.sizes, settings.replicates);
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(out) = pipelined(resampler.clone(), settings.replicates, size, f) {
        return out;
    }
    let mut resampler = resampler;
    let mut block = Block::default();
    let mut out = Vec::new();
    while block.fill(&mut resampler, size) {
        out.push(f(&mut block));
    }
    out
}

/// [`each_block`] natively: this thread draws each block's weights into free vectors and queues them for the
/// workers (one per core but this one), which compute `f` and hand the vectors back; when the queue is full,
/// this thread computes the block it has just drawn itself instead of waiting. So every core computes, and none
/// waits while another draws (with a dedicated drawing thread, three threads shared two cores: 85 % of both
/// cores busy at a million units). `None` when a worker failed (a bug: a panic), so that the caller computes
/// every block itself.
#[cfg(not(target_arch = "wasm32"))]
fn pipelined<R: Send>(
    mut resampler: Resampler,
    replicates: usize,
    size: usize,
    f: &(dyn Fn(&mut Block) -> Vec<R> + Sync),
) -> Option<Vec<Vec<R>>> {
    use std::sync::mpsc::{channel, sync_channel, TrySendError};
    use std::sync::{Arc, Mutex};
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    if cores < 2 || replicates < 2 {
        return None;
    }
    // Queued: about as many replicates as workers, at least one block.
    let (queue, jobs) = sync_channel::<(usize, Block)>((cores / size).max(1));
    let (give_back, free) = channel::<Block>();
    // Only the workers hold the receiving end: when they are all gone, queueing fails and the drawing stops.
    let jobs = Arc::new(Mutex::new(jobs));
    let done: Mutex<Vec<(usize, Vec<R>)>> = Mutex::new(Vec::new());
    let record = |b: usize, values: Vec<R>| {
        if let Ok(mut d) = done.lock() {
            d.push((b, values));
        }
    };
    std::thread::scope(|scope| {
        let mut handles = Vec::new();
        for _ in 1..cores {
            let (jobs, give_back, record) = (Arc::clone(&jobs), give_back.clone(), &record);
            let work = move || loop {
                let job = jobs
                    .lock()
                    .map_err(|_| ())
                    .and_then(|j| j.recv().map_err(|_| ()));
                let Ok((b, mut block)) = job else { break };
                record(b, f(&mut block));
                let _ = give_back.send(block);
            };
            if let Ok(h) = std::thread::Builder::new().spawn_scoped(scope, work) {
                handles.push(h);
            }
        }
        drop(jobs);
        let mut b = 0;
        while !handles.is_empty() {
            let mut block = free.try_recv().unwrap_or_default();
            if !block.fill(&mut resampler, size) {
                break;
            }
            match queue.try_send((b, block)) {
                Ok(()) => {}
                Err(TrySendError::Full((_, mut block))) => {
                    record(b, f(&mut block));
                    let _ = give_back.send(block);
                }
                Err(TrySendError::Disconnected(_)) => break,
            }
            b += 1;
        }
        drop(queue);
        for h in handles {
            let _ = h.join();
        }
    });
    let mut done = done.into_inner().ok()?;
    let total: usize = done.iter().map(|(_, v)| v.len()).sum();
    if total != replicates {
        return None;
    }
    done.sort_unstable_by_key(|(b, _)| *b);
    Some(done.into_iter().map(|(_, v)| v).collect())
}

/// The interval of each recomputed metric: metric id and its [`Interval`] over the replicates.
pub fn bootstrap(units: &Units, settings: &Settings) -> Vec<(String, Interval)> {
    summarise(
        units,
        &replicate_values(units, settings),
        settings.confidence,
    )
}

/// Each metric's [`Interval`] over replicate values `values[r][m]` (as [`replicate_values`] gives them).
pub fn summarise(
    units: &Units,
    values: &[Vec<Option<f64>>],
    confidence: f64,
) -> Vec<(String, Interval)> {
    let metrics = units.replicate.metrics();
    metrics
        .into_iter()
        .enumerate()
        .map(|(m, id)| {
            let column: Vec<Option<f64>> = values
                .iter()
                .map(|r| r.get(m).copied().flatten().filter(|v| v.is_finite()))
                .collect();
            (id, interval(&column, confidence))
        })
        .collect()
}

/// A unit's draw count as a block gives it: a byte ([`Replicate::values_block_bytes`]) or 32 bits. Code generic
/// over it reads either with the same values.
pub trait Weight:
    Copy + Default + PartialEq + Into<u32> + Into<u64> + Into<f64> + Send + Sync
{
    /// The count as a byte (saturated past 255).
    fn byte(self) -> u8;
}

impl Weight for u8 {
    #[inline(always)]
    fn byte(self) -> u8 {
        self
    }
}

impl Weight for u32 {
    #[inline(always)]
    fn byte(self) -> u8 {
        self.min(255) as u8
    }
}

/// A replicate's weights as bytes, into `out`, when every one fits (false otherwise: a unit drawn more than 255
/// times, possible only in theory for large sets). A replicate that reads the weights in another order than the
/// units' (a ranking metric's sorted order) reads a quarter of the memory: at a million units the bytes stay in
/// a core's cache where the 32-bit weights would not.
pub fn weights_as_bytes<W: Weight>(w: &[W], out: &mut Vec<u8>) -> bool {
    out.clear();
    out.resize(w.len(), 0);
    let mut fits = true;
    for (o, &k) in out.iter_mut().zip(w) {
        *o = k.byte();
        fits &= Into::<u32>::into(k) <= 255;
    }
    fits
}

/// Σ w·x / Σ w, the weighted mean of per-unit terms (`numpy.average(x, weights=w)`; the order of the sums
/// differs from NumPy's, within the spec's 1e-12). `None` when the weights sum to 0.
pub fn weighted_mean(x: &[f64], w: &[u32]) -> Option<f64> {
    let (mut s, mut t) = (0.0f64, 0u64);
    for (&v, &k) in x.iter().zip(w) {
        s += times(v, k);
        t += k as u64;
    }
    (t > 0).then(|| s / t as f64)
}

/// `v · k`, and 0.0 when `k` is 0 (also for an infinite `v`, where the product would be NaN): a unit's term
/// in a weighted sum, where adding 0.0 leaves the sum as it was. Computed with a mask, not a branch or a
/// select (which the compiler may turn into a branch): a branch on the draws would mispredict.
#[inline(always)]
pub fn times(v: f64, k: u32) -> f64 {
    let keep = ((k != 0) as u64).wrapping_neg();
    f64::from_bits((v * k as f64).to_bits() & keep)
}

/// [`weighted_mean`] of K columns (of `w`'s length) in one pass over the weights: each column's sum is added in the same order
/// as [`weighted_mean`] adds it (so each result is the same to the bit), and the K sums' chains of additions run
/// side by side instead of one after the other. `finite`: every value of the columns is finite (the caller
/// knows it from building them); then a term is the plain product v · k, without [`times`]'s mask: for k = 0
/// it is ±0.0, which leaves a sum as it was, as 0.0 does (a sum that starts at 0.0 is never −0.0).
pub fn weighted_means<const K: usize>(x: [&[f64]; K], w: &[u32], finite: bool) -> [Option<f64>; K] {
    let n = x.iter().map(|c| c.len()).fold(w.len(), usize::min);
    let (w, x) = (&w[..n], x.map(|c| &c[..n]));
    let mut s = [0.0f64; K];
    let mut t = 0u64;
    for (i, &k) in w.iter().enumerate() {
        for (sum, column) in s.iter_mut().zip(&x) {
            *sum += if finite {
                column[i] * k as f64
            } else {
                times(column[i], k)
            };
        }
        t += k as u64;
    }
    s.map(|sum| (t > 0).then(|| sum / t as f64))
}

/// [`weighted_means`] of up to three columns for K replicates at once (`ws[r]`: replicate r's weights): the
/// columns are read once for the K, and each replicate's sums are added in [`weighted_mean`]'s order, so that
/// `out[r][c]` is `weighted_mean(x[c], ws[r])` to the bit. Columns past `x.len()` give `None`.
pub fn weighted_means_k<W: Weight, const K: usize>(
    x: &[&[f64]],
    ws: [&[W]; K],
    finite: bool,
) -> [[Option<f64>; 3]; K] {
    let c = x.len().min(3);
    if c == 0 {
        return [[None; 3]; K];
    }
    let n = x
        .iter()
        .map(|c| c.len())
        .chain(ws.iter().map(|w| w.len()))
        .min()
        .unwrap_or(0);
    // Missing columns read the first one again (their sums are not returned).
    let col = |j: usize| &x[if j < c { j } else { 0 }][..n];
    let (x0, x1, x2) = (col(0), col(1), col(2));
    let ws = ws.map(|w| &w[..n]);
    let mut s = [[0.0f64; 3]; K];
    let mut t = [0u64; K];
    for i in 0..n {
        let v = [x0[i], x1[i], x2[i]];
        for r in 0..K {
            let k: u32 = ws[r][i].into();
            for (sum, &v) in s[r].iter_mut().zip(&v) {
                *sum += if finite { v * k as f64 } else { times(v, k) };
            }
            t[r] += k as u64;
        }
    }
    std::array::from_fn(|r| {
        std::array::from_fn(|j| (j < c && t[r] > 0).then(|| s[r][j] / t[r] as f64))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weighted_means_equal_weighted_mean_to_the_bit() {
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for n in [0usize, 1, 7, 1000] {
            let a: Vec<f64> = (0..n).map(|_| (next() % 1000) as f64 / 7.0).collect();
            let b: Vec<f64> = (0..n).map(|_| (next() % 1000) as f64 / 3.0).collect();
            let w: Vec<u32> = (0..n).map(|_| (next() % 4) as u32).collect();
            for finite in [true, false] {
                let [ma, mb] = weighted_means([&a, &b], &w, finite);
                let bits = |m: Option<f64>| m.map(f64::to_bits);
                assert_eq!(bits(ma), bits(weighted_mean(&a, &w)));
                assert_eq!(bits(mb), bits(weighted_mean(&b, &w)));
                let w2: Vec<u32> = w.iter().rev().copied().collect();
                let [one, two] = weighted_means_k(&[&a, &b], [&w, &w2], finite);
                assert_eq!(one.map(bits), [bits(ma), bits(mb), None]);
                let expected = [weighted_mean(&a, &w2), weighted_mean(&b, &w2), None];
                assert_eq!(two.map(bits), expected.map(bits));
            }
        }
    }

    struct Mean(Vec<f64>);
    impl Replicate for Mean {
        fn metrics(&self) -> Vec<String> {
            vec!["mean".into()]
        }
        fn values(&self, w: &[u32]) -> Vec<Option<f64>> {
            vec![weighted_mean(&self.0, w)]
        }
        fn as_any(&self) -> &dyn Any {
            self
        }
    }

    #[test]
    fn chunks_do_not_change_the_draws() {
        let x: Vec<f64> = (0..7).map(|i| i as f64).collect();
        let units = Units::plain("row", 7, Box::new(Mean(x.clone())));
        let s = Settings {
            replicates: 300,
            seed: 5,
            confidence: 0.9,
        };
        let all = replicate_values(&units, &s);
        let mut r = Resampler::new(5, &[7], 300);
        let mut w = vec![0u32; 7];
        let mut k = 0;
        while r.next_weights(&mut w) {
            assert_eq!(all[k][0], weighted_mean(&x, &w));
            k += 1;
        }
        assert_eq!(k, 300);
        let iv = bootstrap(&units, &s);
        assert_eq!(iv[0].0, "mean");
        assert!(iv[0].1.low.unwrap() < 3.0 && iv[0].1.high.unwrap() > 3.0);
    }
}
