//! Unit tests of the number parsing of distance matrices.

use super::*;

#[test]
fn fast_path_equals_correct_rounding() {
    let mut x: u64 = 88172645463325252;
    let mut next = || crate::xorshift64(&mut x);
    for _ in 0..200_000 {
        let int = next() % 10u64.pow((next() % 12) as u32 + 1);
        let frac_digits = (next() % 20) as usize;
        let frac: String = (0..frac_digits)
            .map(|_| char::from(b'0' + (next() % 10) as u8))
            .collect();
        let sign = ["", "-", "+"][(next() % 3) as usize];
        let s = if frac_digits == 0 {
            format!("{sign}{int}")
        } else {
            format!("{sign}{int}.{frac}")
        };
        let want: f64 = s.parse().unwrap();
        let got = parse_number(s.as_bytes()).unwrap();
        assert_eq!(got.to_bits(), want.to_bits(), "{s}");
    }
    for s in [
        "", "-", ".", "+.", "1e5", "nan", "-INF", "1.5e-3", " 2.5 ", "0.1", "-0", "1.", ".5",
    ] {
        assert_eq!(
            parse_number(s.as_bytes()).map(f64::to_bits),
            s.trim().parse::<f64>().ok().map(f64::to_bits),
            "{s:?}"
        );
    }
}
