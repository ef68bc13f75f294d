//! Expected values printed by NumPy 2.4.6 (`numpy.random.default_rng(seed).integers(0, n, size=…)` and
//! `bit_generator.state`), for seeds of one to four 32-bit words and ranges from 1 to past 2^32.

use super::Generator;

fn draws(seed: u128, n: u64, count: usize) -> Vec<u64> {
    let mut g = Generator::new(seed);
    let mut out = vec![0; count];
    g.fill_below(n, &mut out);
    out
}

#[test]
fn integers_equal_numpys() {
    let cases: &[(u128, u64, &[u64])] = &[
        (0, 10, &[8, 6, 5, 2, 3, 0, 0, 0, 1, 8, 6, 9]),
        (
            1,
            2,
            &[0, 1, 1, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 1, 0, 0],
        ),
        (42, 1000, &[89, 773, 654, 438, 433, 858, 85, 697, 201, 94]),
        (12345, 3, &[2, 0, 2, 0, 0, 2, 1, 2, 2, 1, 2, 0, 1, 1, 0]),
        (1099511627783, 7, &[1, 5, 4, 1, 0, 1, 3, 4, 6, 5]),
        (
            123456789012345678901234567890,
            100,
            &[17, 34, 89, 33, 9, 15, 63, 91],
        ),
        (5, 1, &[0, 0, 0, 0, 0]),
        (
            9,
            2147483653,
            &[
                905266066, 2063827476, 245584351, 1295250792, 1380029765, 1965526458,
            ],
        ),
        (
            11,
            4294967296,
            &[
                574671950, 552204816, 3423435367, 2144382090, 2534171772, 2583415774,
            ],
        ),
        (
            13,
            1099511627779,
            &[
                950855002599,
                940415060436,
                891729657364,
                287463314417,
                84881701419,
                1040650130895,
            ],
        ),
        (
            7,
            50000,
            &[
                47245, 31254, 34208, 44860, 28914, 38784, 41682, 11260, 2776, 15008,
            ],
        ),
    ];
    for &(seed, n, expected) in cases {
        assert_eq!(
            draws(seed, n, expected.len()),
            expected,
            "seed {seed}, n {n}"
        );
    }
}

#[test]
fn seeding_equals_numpys_state() {
    let g = Generator::new(5);
    assert_eq!(g.state, 304397142111423816445458517940380168174);
    assert_eq!(g.inc, 233193750087604940414945475171846202189);
}

#[test]
fn a_matrix_of_draws_is_one_stream_row_by_row() {
    let expected: Vec<u64> = vec![
        4, 0, 1, 1, 1, 4, 5, 3, 0, 0, 1, 2, 3, 2, 1, 0, 4, 4, 0, 0, 2, 2, 5, 3,
    ];
    assert_eq!(draws(3, 6, 24), expected);
}

#[test]
fn raw_outputs_equal_pcg64s() {
    let mut g = Generator::new(77);
    let got: Vec<u64> = (0..4).map(|_| g.next_u64()).collect();
    assert_eq!(
        got,
        vec![
            14497892154943102585,
            10167328009254368107,
            4498943151798544627,
            6169572704529878495
        ]
    );
}

/// The bootstrap's counting loop draws exactly what `below` draws one at a time (small, odd and large ranges, with
/// Lemire's rejections: about 50 of them in 200,000 draws below 1,000,003; a 32-bit half carried between calls),
/// and leaves the generator where `below` leaves it.
#[test]
fn counted_draws_equal_single_draws() {
    for (seed, n, count) in [
        (0u128, 7u64, 5usize),
        (3, 1, 4),
        (9, 2, 9),
        (4, 1000, 100_001),
        (11, 1_000_003, 200_000),
        (12, 1_000_003, 1),
        (13, 1_000_003, 3),
        (14, 10, 2),
        (15, 3_000_017, 7),
    ] {
        let (mut a, mut b) = (Generator::new(seed), Generator::new(seed));
        for _ in 0..2 {
            let mut counts = vec![0u32; n as usize];
            let mut expected = vec![0u32; n as usize];
            a.count_below(n, count, &mut counts);
            for _ in 0..count {
                expected[b.below(n) as usize] += 1;
            }
            assert_eq!(counts, expected, "seed {seed}, n {n}");
        }
        assert_eq!(a.next_u32(), b.next_u32());
        assert_eq!(a.next_u64(), b.next_u64());
    }
}

/// Many short counting calls (the end of a call, a 32-bit half carried into the next, and Lemire's rejections
/// there: about 25 in 100,000 draws below 1,000,003) draw what `below` draws one at a time.
#[test]
fn short_counted_draws_equal_single_draws() {
    let n = 1_000_003u64;
    let (mut a, mut b) = (Generator::new(21), Generator::new(21));
    let mut counts = vec![0u8; n as usize];
    for call in 0..30_000usize {
        let count = call % 6;
        a.count_below(n, count, &mut counts);
        for _ in 0..count {
            let i = b.below(n) as usize;
            counts[i] = counts[i].wrapping_sub(1);
        }
    }
    assert!(counts.iter().all(|&c| c == 0));
    assert_eq!(a.next_u64(), b.next_u64());
}
