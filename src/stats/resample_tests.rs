//! Expected weights computed with NumPy 2.4.6: `numpy.bincount` of each row of
//! `default_rng(seed).integers(0, n_s, size=(B, n_s))`, strata drawn one after the other from one generator.

use super::{Exchanges, Resampler};

fn all_weights<const N: usize>(seed: u128, sizes: &[usize], b: usize) -> Vec<[u32; N]> {
    let mut r = Resampler::new(seed, sizes, b);
    let mut w = vec![0; r.units()];
    let mut out = Vec::new();
    while r.next_weights(&mut w) {
        out.push(w.as_slice().try_into().unwrap());
    }
    out
}

#[test]
fn weights_equal_numpys_one_stratum() {
    let expected: Vec<[u32; 7]> = vec![
        [2, 1, 1, 1, 1, 1, 0],
        [1, 1, 0, 1, 2, 1, 1],
        [0, 1, 0, 2, 1, 1, 2],
        [2, 0, 1, 1, 1, 1, 1],
        [2, 1, 0, 0, 0, 3, 1],
    ];
    assert_eq!(all_weights(0, &[7], 5), expected);
}

#[test]
fn weights_equal_numpys_three_strata() {
    let expected: Vec<[u32; 11]> = vec![
        [1, 1, 1, 1, 1, 1, 0, 2, 2, 0, 1],
        [1, 1, 1, 1, 1, 0, 1, 1, 1, 2, 1],
        [2, 0, 1, 1, 1, 1, 1, 2, 2, 0, 0],
        [0, 0, 2, 2, 1, 1, 1, 0, 1, 1, 2],
    ];
    assert_eq!(all_weights(42, &[4, 1, 6], 4), expected);
}

#[test]
fn weights_equal_numpys_stratum_of_one_and_empty() {
    let expected: Vec<[u32; 4]> = vec![[1, 0, 1, 2], [1, 2, 1, 0], [1, 0, 1, 2]];
    assert_eq!(all_weights(9, &[1, 0, 3], 3), expected);
}

#[test]
fn exchanges_equal_numpys() {
    let expected: Vec<[bool; 5]> = vec![
        [false, true, true, true, false],
        [false, true, true, false, false],
        [true, false, false, true, false],
    ];
    let mut e = Exchanges::new(1, 3);
    let mut row = vec![false; 5];
    let mut got = Vec::new();
    while e.next_round(&mut row) {
        got.push(<[bool; 5]>::try_from(row.as_slice()).unwrap());
    }
    assert_eq!(got, expected);
}

/// The weights counted in bytes first equal the draws counted one by one (`Generator::below`), for sizes where
/// a unit cannot be drawn 256 times and where it can (a count past 255 takes the 32-bit count instead).
#[test]
fn bytes_first_equal_the_draws_one_by_one() {
    use crate::stats::numpy_rng::Generator;
    for (seed, n) in [(3u128, 2usize), (4, 255), (5, 256), (6, 5000)] {
        let mut r = Resampler::new(seed, &[n], 3);
        let mut g = Generator::new(seed);
        let mut w = vec![7u32; n];
        while r.next_weights(&mut w) {
            let mut expected = vec![0u32; n];
            for _ in 0..n {
                expected[g.below(n as u64) as usize] += 1;
            }
            assert_eq!(w, expected, "n {n}");
        }
    }
    // 600 draws of a range of 2 wrap the bytes' counts: their sum falls short of the draws (what the check
    // reads), and they are the 32-bit counts modulo 256.
    let (mut a, mut b) = (Generator::new(1), Generator::new(1));
    let (mut small, mut wide) = (vec![0u8; 2], vec![0u32; 2]);
    a.count_below(2, 600, &mut small);
    b.count_below(2, 600, &mut wide);
    assert!(small.iter().map(|&x| x as u64).sum::<u64>() < 600);
    assert_eq!(wide.iter().sum::<u32>(), 600);
    assert!(small.iter().zip(&wide).all(|(&s, &w)| s as u32 == w % 256));
}
