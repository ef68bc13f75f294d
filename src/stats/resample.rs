//! The bootstrap's draws as unit weights (docs/specs/statistics.md sections 1 and 2): replicate r draws each
//! stratum's units with `rng.integers(0, n_s, size=(B, n_s))` from one `default_rng(seed)`, strata in order, and
//! a unit drawn k times has weight k. The weights are produced one replicate at a time, so memory is O(units),
//! never O(B × units).
//!
//! With strata, NumPy draws all B rows of stratum 0 before stratum 1; replicate r needs row r of each. One pass
//! over the draws records the generator's state at the start of each stratum; replicate r then continues one
//! generator per stratum from there (the draws of every stratum but the last are generated twice).

use super::numpy_rng::Generator;

/// Yields the weights of replicates 0, 1, …, B − 1.
#[derive(Clone)]
pub struct Resampler {
    sizes: Vec<usize>,
    generators: Vec<Generator>,
    replicates: usize,
    done: usize,
    /// The draws counted in bytes first (see [`count_in_bytes`]).
    bytes: Vec<u8>,
}

impl Resampler {
    /// `sizes`: the number of units of each stratum, in order (one entry when the protocol has no strata).
    pub fn new(seed: u128, sizes: &[usize], replicates: usize) -> Resampler {
        let mut generator = Generator::new(seed);
        let mut generators = Vec::with_capacity(sizes.len());
        let mut scratch: Vec<u8> = Vec::new(); // the counts are not read: bytes suffice
        for (s, &n) in sizes.iter().enumerate() {
            generators.push(generator.clone());
            if s + 1 == sizes.len() {
                break;
            }
            // Advance past this stratum's B × n draws (a stratum of 0 or 1 unit draws nothing: NumPy's range 0).
            scratch.resize(n.max(1), 0);
            for _ in 0..replicates {
                generator.count_below(n as u64, n, &mut scratch);
            }
        }
        Resampler {
            sizes: sizes.to_vec(),
            generators,
            replicates,
            done: 0,
            bytes: Vec::new(),
        }
    }

    /// The total number of units (the length of a weight vector).
    pub fn units(&self) -> usize {
        self.sizes.iter().sum()
    }

    /// Fills `weights` (length `units()`: strata concatenated in order) with the next replicate's draw counts;
    /// false once all B replicates were given.
    pub fn next_weights(&mut self, weights: &mut [u32]) -> bool {
        let (mut bytes, mut wide) = (std::mem::take(&mut self.bytes), Vec::new());
        let next = self.next_counts(&mut bytes, &mut wide);
        match next {
            Some(true) => widen(&bytes, weights),
            Some(false) => weights.copy_from_slice(&wide),
            None => {}
        }
        self.bytes = bytes;
        next.is_some()
    }

    /// The next replicate's draw counts (see [`Resampler::next_weights`]): in `bytes` (resized to `units()`,
    /// `Some(true)`) when every count fits in a byte, as at a million units in practice; else in `weights`
    /// (resized to `units()`, `Some(false)`, `bytes` then undefined). `None` once all B replicates were given.
    pub fn next_counts(&mut self, bytes: &mut Vec<u8>, weights: &mut Vec<u32>) -> Option<bool> {
        if self.done == self.replicates {
            return None;
        }
        self.done += 1;
        bytes.clear();
        bytes.resize(self.units(), 0);
        let mut start = 0;
        for s in 0..self.sizes.len() {
            let n = self.sizes[s];
            if !count_in_bytes(&mut self.generators[s], n, &mut bytes[start..start + n]) {
                // This stratum's counts need 32 bits: the whole replicate is given in `weights`.
                weights.resize(self.units(), 0);
                widen(&bytes[..start], &mut weights[..start]);
                self.count_wide(s, start, weights);
                return Some(false);
            }
            start += n;
        }
        Some(true)
    }

    /// The draw counts of strata `from`.. in 32 bits, into `weights` from unit `start`.
    fn count_wide(&mut self, from: usize, mut start: usize, weights: &mut [u32]) {
        for (generator, &n) in self.generators.iter_mut().zip(&self.sizes).skip(from) {
            let out = &mut weights[start..start + n];
            out.fill(0);
            generator.count_below(n as u64, n, out);
            start += n;
        }
    }
}

/// A stratum's n draws counted in bytes into `bytes` (zeroed; the random increments then stay in a core's cache
/// at a million units, where 32-bit counts would not). False, with `generator` as it was, when a count wrapped
/// past 255 (the bytes then sum to less than n) or the range is not one of 2 to 2^32 units; a stratum of 0 or 1
/// unit is counted exactly. (Counts of 4 bits, two units a byte, measured slower: the shifts cost more than the
/// smaller footprint saves.)
fn count_in_bytes(generator: &mut Generator, n: usize, bytes: &mut [u8]) -> bool {
    if n < 2 {
        // NumPy's range 0 draws nothing; one unit is drawn once.
        bytes.fill(n as u8);
        return true;
    }
    if n as u64 > u32::MAX as u64 {
        return false;
    }
    let before = generator.clone();
    generator.count_below(n as u64, n, bytes);
    if byte_total(bytes) != n as u64 {
        *generator = before;
        return false;
    }
    true
}

/// The sum of `bytes`: 32-bit sums of blocks of 2^16 (no block can pass 2^32), so that the loop adds whole
/// vectors of widened bytes (a sum straight into 64 bits is one byte at a time).
fn byte_total(bytes: &[u8]) -> u64 {
    super::wide::wide(
        #[inline(always)]
        || {
            let block = |c: &[u8]| c.iter().map(|&b| b as u32).sum::<u32>() as u64;
            bytes.chunks(1 << 16).map(block).sum()
        },
    )
}

/// `out[i] = bytes[i]`, widened (AVX2 where the CPU has it: eight bytes an instruction).
pub(super) fn widen(bytes: &[u8], out: &mut [u32]) {
    super::wide::wide(
        #[inline(always)]
        || {
            for (o, &b) in out.iter_mut().zip(bytes) {
                *o = b as u32;
            }
        },
    )
}

/// The exchanges of a paired approximate randomization test: round j exchanges unit i's two values when
/// `default_rng(seed).integers(0, 2, size=(R, n))[j, i] == 1` (docs/specs/statistics.md section 3, with the
/// seed the spec gives there). Fills `flips` with round j's row, one round per call.
pub struct Exchanges {
    generator: Generator,
    rounds: usize,
    done: usize,
}

impl Exchanges {
    pub fn new(seed: u128, rounds: usize) -> Exchanges {
        Exchanges {
            generator: Generator::new(seed),
            rounds,
            done: 0,
        }
    }

    pub fn next_round(&mut self, flips: &mut [bool]) -> bool {
        if self.done == self.rounds {
            return false;
        }
        for flip in flips.iter_mut() {
            *flip = self.generator.below(2) == 1;
        }
        self.done += 1;
        true
    }
}

#[cfg(test)]
#[path = "resample_tests.rs"]
mod tests;
