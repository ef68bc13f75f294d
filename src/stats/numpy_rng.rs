//! NumPy 2.x's `default_rng(seed)` (SeedSequence → PCG64) and `Generator.integers(0, n, size)` for int64,
//! reproduced exactly: the same seed gives the same draws as
//!
//! ```python
//! numpy.random.default_rng(seed).integers(0, n, size=(B, n))
//! ```
//!
//! Sources (NumPy 2.x): `numpy/random/bit_generator.pyx` (SeedSequence: `_coerce_to_uint32_array`, `hashmix`,
//! `mix`, `mix_entropy`, `generate_state`), `numpy/random/_pcg64.pyx` and `src/pcg64/pcg64.h` (seeding with
//! `generate_state(4, uint64)` as state high/low then increment high/low; the 128-bit LCG step, then the XSL-RR
//! output of the new state; `next32` halves a 64-bit output, low half first), and
//! `numpy/random/src/distributions/distributions.c` (`random_bounded_uint64_fill`: Lemire's method with
//! rejection, on 32-bit draws when the range fits in 32 bits, on 64-bit draws otherwise).

// AVX-512's intrinsics and target features are stable since Rust 1.89 (Cargo.toml's rust-version).
#[path = "numpy_rng_wide.rs"]
mod numpy_rng_wide;

const MASK32: u64 = 0xFFFF_FFFF;
const INIT_A: u32 = 0x43b0_d7e5;
const MULT_A: u32 = 0x931e_8875;
const INIT_B: u32 = 0x8b51_f9dd;
const MULT_B: u32 = 0x58f3_8ded;
const MIX_MULT_L: u32 = 0xca01_f9dd;
const MIX_MULT_R: u32 = 0x4973_f715;
const XSHIFT: u32 = 16;
const POOL_SIZE: usize = 4;

/// PCG64's 128-bit multiplier (PCG_DEFAULT_MULTIPLIER_128).
const PCG_MULT: u128 = (2_549_297_995_355_413_924u128 << 64) + 4_865_540_595_714_422_341;

/// The seed as SeedSequence's entropy words: the integer's 32-bit words, least significant first (`[0]` for 0).
fn entropy_words(seed: u128) -> Vec<u32> {
    if seed == 0 {
        return vec![0];
    }
    let mut words = Vec::new();
    let mut rest = seed;
    while rest > 0 {
        words.push((rest as u64 & MASK32) as u32);
        rest >>= 32;
    }
    words
}

/// SeedSequence's hashing of one value; `hash_const` advances with every call.
fn hashmix(value: u32, hash_const: &mut u32) -> u32 {
    let mut v = value ^ *hash_const;
    *hash_const = hash_const.wrapping_mul(MULT_A);
    v = v.wrapping_mul(*hash_const);
    v ^ (v >> XSHIFT)
}

fn mix(x: u32, y: u32) -> u32 {
    let r = MIX_MULT_L
        .wrapping_mul(x)
        .wrapping_sub(MIX_MULT_R.wrapping_mul(y));
    r ^ (r >> XSHIFT)
}

/// SeedSequence(seed).pool (no spawn key).
fn seed_pool(seed: u128) -> [u32; POOL_SIZE] {
    let entropy = entropy_words(seed);
    let mut hash_const = INIT_A;
    let mut pool = [0u32; POOL_SIZE];
    for (i, slot) in pool.iter_mut().enumerate() {
        *slot = hashmix(entropy.get(i).copied().unwrap_or(0), &mut hash_const);
    }
    for src in 0..POOL_SIZE {
        for dst in 0..POOL_SIZE {
            if src != dst {
                pool[dst] = mix(pool[dst], hashmix(pool[src], &mut hash_const));
            }
        }
    }
    for &word in entropy.iter().skip(POOL_SIZE) {
        for slot in pool.iter_mut() {
            *slot = mix(*slot, hashmix(word, &mut hash_const));
        }
    }
    pool
}

/// SeedSequence.generate_state(n_words, uint32).
fn generate_state(pool: &[u32; POOL_SIZE], n_words: usize) -> Vec<u32> {
    let mut hash_const = INIT_B;
    (0..n_words)
        .map(|i| {
            let mut v = pool[i % POOL_SIZE] ^ hash_const;
            hash_const = hash_const.wrapping_mul(MULT_B);
            v = v.wrapping_mul(hash_const);
            v ^ (v >> XSHIFT)
        })
        .collect()
}

/// `numpy.random.Generator(PCG64(SeedSequence(seed)))`, as `numpy.random.default_rng(seed)` makes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generator {
    state: u128,
    inc: u128,
    /// The upper half of the last 64-bit output, kept for the next 32-bit draw (PCG64's `has_uint32`).
    spare: Option<u32>,
}

impl Generator {
    /// `default_rng(seed)` for a non-negative integer seed below 2^128.
    pub fn new(seed: u128) -> Generator {
        let words = generate_state(&seed_pool(seed), 8);
        let u64s: Vec<u64> = words
            .chunks(2)
            .map(|w| w[0] as u64 | (w[1] as u64) << 32)
            .collect();
        let init_state = (u64s[0] as u128) << 64 | u64s[1] as u128;
        let init_seq = (u64s[2] as u128) << 64 | u64s[3] as u128;
        // pcg_setseq_128_srandom_r
        let mut g = Generator {
            state: 0,
            inc: init_seq << 1 | 1,
            spare: None,
        };
        g.step();
        g.state = g.state.wrapping_add(init_state);
        g.step();
        g
    }

    fn step(&mut self) {
        self.state = self.state.wrapping_mul(PCG_MULT).wrapping_add(self.inc);
    }

    /// PCG64's next 64-bit output (XSL-RR of the advanced state).
    pub fn next_u64(&mut self) -> u64 {
        self.step();
        let s = self.state;
        ((s >> 64) as u64 ^ s as u64).rotate_right((s >> 122) as u32)
    }

    /// PCG64's next 32-bit output: the low half of a 64-bit output, then its high half.
    pub fn next_u32(&mut self) -> u32 {
        if let Some(high) = self.spare.take() {
            return high;
        }
        let next = self.next_u64();
        self.spare = Some((next >> 32) as u32);
        (next & MASK32) as u32
    }

    /// One draw of `integers(0, n)` (n ≥ 1): Lemire's bounded integer with rejection.
    pub fn below(&mut self, n: u64) -> u64 {
        let range = n.saturating_sub(1);
        if range == 0 {
            0
        } else if range < u32::MAX as u64 {
            self.lemire32(range as u32 + 1) as u64
        } else if range == u32::MAX as u64 {
            self.next_u32() as u64
        } else if range == u64::MAX {
            self.next_u64()
        } else {
            self.lemire64(range + 1)
        }
    }

    fn lemire32(&mut self, excl: u32) -> u32 {
        let mut m = self.next_u32() as u64 * excl as u64;
        let mut leftover = (m & MASK32) as u32;
        if leftover < excl {
            let threshold = excl.wrapping_neg() % excl;
            while leftover < threshold {
                m = self.next_u32() as u64 * excl as u64;
                leftover = (m & MASK32) as u32;
            }
        }
        (m >> 32) as u32
    }

    fn lemire64(&mut self, excl: u64) -> u64 {
        let mut m = self.next_u64() as u128 * excl as u128;
        let mut leftover = m as u64;
        if leftover < excl {
            let threshold = excl.wrapping_neg() % excl;
            while leftover < threshold {
                m = self.next_u64() as u128 * excl as u128;
                leftover = m as u64;
            }
        }
        (m >> 64) as u64
    }

    /// `count` draws of `integers(0, n)` (the same draws as [`Generator::below`] one after the other), each
    /// counted in `counts` (`counts[i]` += the times i was drawn; `counts.len()` ≥ n). The bootstrap's hot
    /// loop: for ranges below 2^32 the generator's state, its spare half and Lemire's rejection threshold stay
    /// in registers. Counted in `u32`, or in `u8` modulo 256 (see [`Counter`]).
    pub fn count_below<C: Counter>(&mut self, n: u64, count: usize, counts: &mut [C]) {
        if n == 0 || n > u32::MAX as u64 {
            for _ in 0..count {
                counts[self.below(n) as usize].add(1);
            }
            return;
        }
        if n == 1 {
            counts[0].add(count);
            return;
        }
        self.draw_below(n as u32, count, |draws| {
            for &d in draws {
                counts[d as usize].add(1);
            }
        });
    }

    /// `count` draws of `integers(0, excl)` for 2 ≤ `excl` ≤ `u32::MAX`, given to `sink` in order (in slices).
    fn draw_below(&mut self, excl: u32, count: usize, sink: impl FnMut(&[u32])) {
        self.draw_below_with(excl, count, true, sink);
    }

    /// [`Generator::draw_below`], with AVX-512 if `avx512` and the CPU has it, else AVX2 if it has that.
    fn draw_below_with(
        &mut self,
        excl: u32,
        count: usize,
        avx512: bool,
        mut sink: impl FnMut(&[u32]),
    ) {
        // Lemire: a draw is rejected when the low half of u·n is below 2^32 mod n (checked only when it is below
        // n, which `threshold < n` makes the same test).
        let threshold = excl.wrapping_neg() % excl;
        let mut done = 0;
        if count >= numpy_rng_wide::BLOCK_DRAWS {
            // The spare half first (a draw, or a rejection skipped), then whole blocks of steps with SIMD.
            if let Some(high) = self.spare.take() {
                let m = high as u64 * excl as u64;
                if m as u32 >= threshold {
                    sink(&[(m >> 32) as u32]);
                    done = 1;
                }
            }
            let (inc, left) = (self.inc, count - done);
            done += numpy_rng_wide::draw(
                &mut self.state,
                inc,
                excl,
                threshold,
                left,
                &mut sink,
                avx512,
            );
        }
        self.draw_scalar(excl, threshold, count - done, sink);
    }

    /// [`Generator::draw_below`] one step at a time (`threshold = 2^32 mod excl`).
    fn draw_scalar(
        &mut self,
        excl: u32,
        threshold: u32,
        count: usize,
        mut sink: impl FnMut(&[u32]),
    ) {
        let (mut state, inc) = (self.state, self.inc);
        let mut spare = self.spare.take();
        let mut next32 = || -> u32 {
            if let Some(high) = spare.take() {
                return high;
            }
            state = state.wrapping_mul(PCG_MULT).wrapping_add(inc);
            let out = ((state >> 64) as u64 ^ state as u64).rotate_right((state >> 122) as u32);
            spare = Some((out >> 32) as u32);
            (out & MASK32) as u32
        };
        for _ in 0..count {
            let mut m = next32() as u64 * excl as u64;
            while (m as u32) < threshold {
                m = next32() as u64 * excl as u64;
            }
            sink(&[(m >> 32) as u32]);
        }
        self.state = state;
        self.spare = spare;
    }

    /// `integers(0, n, size=count)` (row-major: `size=(B, n)` is `count = B * n`, row r = replicate r).
    pub fn fill_below(&mut self, n: u64, out: &mut [u64]) {
        for slot in out {
            *slot = self.below(n);
        }
    }
}

#[cfg(test)]
#[path = "numpy_rng_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "numpy_rng_wide_tests.rs"]
mod wide_tests;

/// A draw count of [`Generator::count_below`]: `u32`, or `u8` counting modulo 256 (a quarter of the memory for
/// the draws' random increments; the caller checks that no count wrapped, e.g. that the counts sum to the draws).
pub trait Counter: Copy {
    fn add(&mut self, k: usize);
}

impl Counter for u32 {
    fn add(&mut self, k: usize) {
        *self += k as u32;
    }
}

impl Counter for u8 {
    fn add(&mut self, k: usize) {
        *self = self.wrapping_add(k as u8);
    }
}
