//! Expected values printed by NumPy 2.4.6 (`numpy.sum`, `numpy.std(ddof=1)`, `numpy.percentile`), compared bit
//! for bit.

use super::{percentile_interval, std_ddof1, sum};

/// The arrays NumPy summarised: one per line of `summary_tests_arrays.txt`, values as Python's `repr` writes
/// them (each parses back to the same f64).
fn arrays() -> Vec<Vec<f64>> {
    include_str!("summary_tests_arrays.txt")
        .lines()
        .map(|line| line.split(' ').map(|v| v.parse().unwrap()).collect())
        .collect()
}

#[test]
fn sums_equal_numpys() {
    let expected: [u64; 8] = [
        0x4060cba7e344d0c3,
        0x3fd06031fa7e5362,
        0x40856679c350cda3,
        0x400c5033a15eb6c0,
        0x4085f8934eb6fad3,
        0x40bf9ec54f3b830d,
        0x40f1aaa617267a0c,
        0x40f371e632896113,
    ];
    for (a, e) in arrays().iter().zip(expected) {
        assert_eq!(sum(a).to_bits(), e, "n = {}", a.len());
    }
}

#[test]
fn std_equals_numpys() {
    let expected: [Option<u64>; 8] = [
        None,
        Some(0x3fc7037b4ba75093),
        Some(0x4071fec712b4d681),
        Some(0x3fe8bf2b898fb895),
        Some(0x406c11e01fbab75e),
        Some(0x40658d54ba1a7d11),
        Some(0x406835327738f782),
        Some(0x4069707f62dd305f),
    ];
    for (a, e) in arrays().iter().zip(expected) {
        assert_eq!(std_ddof1(a).map(f64::to_bits), e, "n = {}", a.len());
    }
}

#[test]
fn percentile_intervals_equal_numpys() {
    let expected: [(f64, u64, u64); 32] = [
        (0.95, 0x4060cba7e344d0c3, 0x4060cba7e344d0c3),
        (0.9, 0x4060cba7e344d0c3, 0x4060cba7e344d0c3),
        (0.5, 0x4060cba7e344d0c3, 0x4060cba7e344d0c3),
        (0.99, 0x4060cba7e344d0c3, 0x4060cba7e344d0c3),
        (0.95, 0x3f7d52afbbd61390, 0x3fcfd5ce771df627),
        (0.9, 0x3f8bae118a3b92d5, 0x3fcf0582dc58ed95),
        (0.5, 0x3fb07a7bdd97fb6c, 0x3fc883260630a90d),
        (0.99, 0x3f60fca6e9dda3aa, 0x3fd03e38acaa981a),
        (0.95, 0x3fd0f6aba36f7530, 0x40826a25bb02fc43),
        (0.9, 0x3fd47d70fe1eb0ea, 0x4080778d0d8a5b06),
        (0.5, 0x3fe859cde9cc4762, 0x403c58f438aa251a),
        (0.99, 0x3fcc48e84f602466, 0x4083f90645c9e3a6),
        (0.95, 0x3f445a2b60ed9bb8, 0x3fff6328cd530a3c),
        (0.9, 0x3f4555626c108225, 0x3ffb0f2e9d8f409e),
        (0.5, 0x3f4c65e88c002ebf, 0x3fe27c5b6f3e84d2),
        (0.99, 0x3f4391328b381693, 0x40016cc546916f5a),
        (0.95, 0x3f53b99afd24bdfe, 0x4080fadb79ce0434),
        (0.9, 0x3f5857458c6d7919, 0x40799dda48b280ef),
        (0.5, 0x3fa7881d52e4f512, 0x4020c066344a69a6),
        (0.99, 0x3f500845bdb75b80, 0x40845133be2b6d98),
        (0.95, 0x3f286c97af1d5c1e, 0x4085166a4464f8c6),
        (0.9, 0x3f32fd0b32cc30ca, 0x4079bacc5ef5463d),
        (0.5, 0x3f91b8cca5b403e1, 0x40248c1d7a77a21b),
        (0.99, 0x3f0057708884214c, 0x408bf6b220577d8d),
        (0.95, 0x3f23e2e69df3c5ca, 0x4088e639f7e321cb),
        (0.9, 0x3f35c474ff594c04, 0x408360037772d96e),
        (0.5, 0x3f7e1221c6424802, 0x403836533e808063),
        (0.99, 0x3ef5a58e3882484e, 0x408d4989a68e1e98),
        (0.95, 0x3f254847d295b5d4, 0x40889553cb9e4b63),
        (0.9, 0x3f36d790080ddfbe, 0x408365ea6b6592d8),
        (0.5, 0x3f7b037a63cd9bb0, 0x4034e7699701a5a1),
        (0.99, 0x3f01d6f99d7aeb28, 0x408ef059ee0f49c0),
    ];
    let arrays = arrays();
    for (i, &(c, lo, hi)) in expected.iter().enumerate() {
        let a = &arrays[i / 4];
        let (l, h) = percentile_interval(a, c).unwrap();
        assert_eq!(
            (l.to_bits(), h.to_bits()),
            (lo, hi),
            "n = {}, c = {c}",
            a.len()
        );
    }
    assert_eq!(percentile_interval(&[], 0.95), None);
}
