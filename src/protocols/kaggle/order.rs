//! The natural order of the per-item rows (`report::natural_cmp`), sorted through integer keys: each id's
//! first 16 bytes of an order-preserving encoding of its tokens, so that a million ids sort by a radix sort of
//! numbers, and only ids whose keys tie are compared as strings. The result is exactly the comparison sort's
//! (natural order, then the row).
//!
//! The encoding: `natural_cmp` compares a byte outside digit runs by its value, two digit runs by their value
//! (the number of digits without leading zeros, then the digits), and a digit run against another byte as
//! its first digit, which is below that byte exactly when the byte is above `9` (it is not a digit). So a
//! digit run is the byte `0` (between `/` and `:`), its length without leading zeros (one byte), then those
//! digits; every other byte is itself; the end of the id is below everything (zero bytes). Two ids whose
//! keys differ compare as their keys; equal keys (a tie, or ids longer than the key) are compared by
//! `natural_cmp`.

use crate::report::natural_cmp;
use std::cmp::Ordering;

/// The first 16 bytes of the encoding of `id`, as two big-endian numbers; `None` when a digit run has 255
/// digits or more without its leading zeros (its length does not fit the byte).
fn key(id: &str) -> Option<(u64, u64)> {
    let mut out = [0u8; 16];
    let mut n = 0;
    let b = id.as_bytes();
    let mut i = 0;
    let mut put = |c: u8, n: &mut usize| {
        if *n < 16 {
            out[*n] = c;
        }
        *n += 1;
    };
    while i < b.len() && n < 16 {
        if b[i].is_ascii_digit() {
            let run = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
            let zeros = b[i..i + run].iter().take_while(|&&c| c == b'0').count();
            let len = run - zeros;
            if len >= 255 {
                return None;
            }
            put(b'0', &mut n);
            put(len as u8, &mut n);
            for &c in &b[i + zeros..i + run] {
                put(c, &mut n);
            }
            i += run;
        } else {
            put(b[i], &mut n);
            i += 1;
        }
    }
    let hi = u64::from_be_bytes(out[..8].try_into().unwrap_or([0; 8]));
    let lo = u64::from_be_bytes(out[8..].try_into().unwrap_or([0; 8]));
    Some((hi, lo))
}

/// The rows `0..ids.len()` in natural order of `id(row)`, ties by row.
pub fn natural_order<'a>(n: usize, id: impl Fn(usize) -> &'a str) -> Vec<u32> {
    let cmp = |a: u32, b: u32| natural_cmp(id(a as usize), id(b as usize)).then(a.cmp(&b));
    let keys: Option<Vec<(u64, u64)>> = (0..n).map(|r| key(id(r))).collect();
    let Some(keys) = keys else {
        let mut order: Vec<u32> = (0..n as u32).collect();
        order.sort_unstable_by(|&a, &b| cmp(a, b));
        return order;
    };
    let mut first: Vec<(u64, u32)> = (keys.iter().enumerate())
        .map(|(r, k)| (k.0, r as u32))
        .collect();
    crate::metrics::radix::sort(&mut first, &mut Vec::new());
    let mut order: Vec<u32> = first.iter().map(|&(_, r)| r).collect();
    // Runs of one first number: by the second, then (a tie of both) by `natural_cmp` and the row.
    let mut s = 0;
    while s < first.len() {
        let e = s + first[s..].iter().take_while(|x| x.0 == first[s].0).count();
        if e - s > 1 {
            order[s..e].sort_unstable_by(|&a, &b| {
                let o: Ordering = keys[a as usize].1.cmp(&keys[b as usize].1);
                o.then_with(|| cmp(a, b))
            });
        }
        s = e;
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_as_the_comparison_sort() {
        // Random ids over an alphabet of digits, zeros, letters, punctuation and a multi-byte character.
        let alphabet: Vec<&str> = vec![
            "0", "0", "0", "1", "2", "9", "5", "a", "b", "f", "_", "-", ".", "/", ":", "Z", "é",
            "~",
        ];
        let mut seed = 12345u64;
        let mut next = |m: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) as usize) % m
        };
        for round in 0..200 {
            let n = 1 + next(300);
            let ids: Vec<String> = (0..n)
                .map(|_| {
                    let len = next(if round % 2 == 0 { 8 } else { 30 });
                    (0..len).map(|_| alphabet[next(alphabet.len())]).collect()
                })
                .collect();
            let mut want: Vec<u32> = (0..n as u32).collect();
            want.sort_by(|&a, &b| natural_cmp(&ids[a as usize], &ids[b as usize]).then(a.cmp(&b)));
            assert_eq!(natural_order(n, |r| ids[r].as_str()), want, "{ids:?}");
        }
        let hex: Vec<String> = (0..5000u64)
            .map(|i| format!("{:016x}", i * 2654435761 % (1 << 40)))
            .collect();
        let mut want: Vec<u32> = (0..hex.len() as u32).collect();
        want.sort_by(|&a, &b| natural_cmp(&hex[a as usize], &hex[b as usize]).then(a.cmp(&b)));
        assert_eq!(natural_order(hex.len(), |r| hex[r].as_str()), want);
        let long = ["1".repeat(300), "2".repeat(299), "x".into()];
        assert_eq!(natural_order(3, |r| long[r].as_str()), vec![1, 0, 2]);
    }
}
