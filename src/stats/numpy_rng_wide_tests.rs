//! The draws of [`Generator::count_below`] (32 steps at a time where the CPU has AVX-512 IFMA, see
//! numpy_rng_wide.rs) equal [`Generator::below`]'s one by one, and leave the generator (state and spare half) as
//! those do: for ranges from 2 to `u32::MAX` (rejections frequent past 2^31), counts around the block sizes, and
//! calls in sequence on one generator.

use super::{numpy_rng_wide, Generator};

const RANGES: &[u64] = &[
    1,
    2,
    3,
    7,
    1000,
    999_983,
    1_000_000,
    (1 << 31) + 1,
    3 << 30,
    u32::MAX as u64,
];

/// Counts of draws per call: none, one, below and around a block, odd, and many blocks.
const COUNTS: &[usize] = &[
    0, 1, 5, 63, 64, 65, 127, 128, 129, 200, 511, 577, 1000, 2049, 4801,
];

fn below(g: &mut Generator, n: u64, count: usize) -> Vec<u32> {
    (0..count).map(|_| g.below(n) as u32).collect()
}

/// `count` draws through `draw_below` (what `count_below` counts), recorded in order: with AVX-512 IFMA where
/// the CPU has it if `avx512`, else with AVX2 where it has that.
fn drawn(g: &mut Generator, n: u64, count: usize, avx512: bool) -> Vec<u32> {
    let mut out = Vec::with_capacity(count);
    if n < 2 {
        return below(g, n, count);
    }
    g.draw_below_with(n as u32, count, avx512, |d| out.extend_from_slice(d));
    out
}

#[test]
fn draws_equal_the_draws_one_by_one() {
    for (seed, avx512) in [0u128, 1, 42, 12345, 1 << 70, u128::MAX]
        .into_iter()
        .flat_map(|seed| [(seed, true), (seed, false)])
    {
        for &n in RANGES {
            let (mut fast, mut slow) = (Generator::new(seed), Generator::new(seed));
            // Calls in sequence on one generator: the spare half (odd counts) and the state carry over.
            for &count in COUNTS.iter().chain(COUNTS.iter().rev()) {
                let at = format!("seed {seed} n {n} count {count} avx512 {avx512}");
                let expected = below(&mut slow, n, count);
                assert_eq!(drawn(&mut fast, n, count, avx512), expected, "{at}");
                assert_eq!(fast, slow, "{at}");
            }
        }
    }
}

/// The counts, in `u32` and in `u8`, equal the draws one by one counted, for ranges a counts vector can hold.
#[test]
fn counts_equal_the_draws_one_by_one() {
    for seed in [3u128, 77, 1 << 40] {
        for n in [1u64, 2, 3, 7, 1000, 999_983, 1_000_000] {
            let (mut fast, mut bytes, mut slow) = (
                Generator::new(seed),
                Generator::new(seed),
                Generator::new(seed),
            );
            for count in [0, 1, 65, 1000, 2_000_001, 3] {
                let mut wide = vec![0u32; n as usize];
                let mut small = vec![0u8; n as usize];
                let mut expected = vec![0u32; n as usize];
                fast.count_below(n, count, &mut wide);
                bytes.count_below(n, count, &mut small);
                for _ in 0..count {
                    expected[slow.below(n) as usize] += 1;
                }
                assert_eq!(wide, expected, "seed {seed} n {n} count {count}");
                assert!(small.iter().zip(&expected).all(|(&s, &e)| s == e as u8));
                assert_eq!(fast, slow);
                assert_eq!(bytes, slow);
            }
        }
    }
}

/// On a CPU with AVX-512 IFMA or AVX2 the blocks are drawn with it (the tests above then compare the paths).
#[test]
fn blocks_are_drawn_with_simd_where_the_cpu_has_it() {
    #[cfg(target_arch = "x86_64")]
    for avx512 in [true, false] {
        use std::arch::is_x86_feature_detected as has;
        if has!("avx2") || avx512 && has!("avx512f") && has!("avx512ifma") {
            let g = Generator::new(9);
            let mut state = g.state;
            let mut n = 0;
            let mut sink = |d: &[u32]| n += d.len();
            let done = numpy_rng_wide::draw(&mut state, g.inc, 1000, 296, 1000, &mut sink, avx512);
            assert!(done > 900 && done == n && done <= 1000, "{done}");
        }
    }
}

/// `cargo test --release --lib numpy_rng::wide_tests::bench -- --ignored --nocapture` (on an idle machine: wall
/// time): ns a draw of 1000 × 10^6 draws counted in bytes, with the best SIMD the CPU has, with AVX2, and one
/// step at a time (the loop without SIMD).
#[test]
#[ignore]
fn bench_count_below() {
    let n = 1_000_000usize;
    let threshold = ((1u64 << 32) % n as u64) as u32;
    let (best, a) = time(|g, c| g.draw_below_with(n as u32, n, true, |d| add(c, d)));
    let (avx2, b) = time(|g, c| g.draw_below_with(n as u32, n, false, |d| add(c, d)));
    let (scalar, c) = time(|g, c| g.draw_scalar(n as u32, threshold, n, |d| add(c, d)));
    assert!(a == c && b == c);
    println!("ns/draw: best SIMD {best:.3}, AVX2 {avx2:.3}, one step at a time {scalar:.3}");
}

/// Seconds for 1000 calls of `draw` into a million byte counts (zeroed before each), and the generator after.
fn time(draw: impl Fn(&mut Generator, &mut [u8])) -> (f64, Generator) {
    let (mut g, mut counts) = (Generator::new(1), vec![0u8; 1_000_000]);
    let start = std::time::Instant::now();
    for _ in 0..1000 {
        counts.fill(0);
        draw(&mut g, &mut counts);
    }
    (start.elapsed().as_secs_f64(), g)
}

fn add(counts: &mut [u8], draws: &[u32]) {
    for &d in draws {
        counts[d as usize] = counts[d as usize].wrapping_add(1);
    }
}
