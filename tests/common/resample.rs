//! Helpers of the bootstrap tests (docs/specs/statistics.md): a small seeded generator for random cases, the
//! unit weights a test checks replicates at, the report's replicate column recomputed draw by draw, and
//! `kaggle`'s CSVs repeated by weight.

use super::{bytes_input, score_inputs};
use dropscore::input::Role;
use dropscore::stats::Resampler;
use dropscore::{Mode, Report};

/// A small xorshift generator for random cases: `next(m)` is in `0..m`.
pub fn xorshift(seed: u64) -> impl FnMut(u64) -> u64 {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    move |m: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % m
    }
}

/// The unit weights of the first draw of each seed over strata of `sizes` units (NumPy's draws).
pub fn draw_weights(seeds: &[u128], sizes: &[usize]) -> Vec<Vec<u32>> {
    let n: usize = sizes.iter().sum();
    seeds
        .iter()
        .map(|&s| {
            let mut d = Resampler::new(s, sizes, 1);
            let mut w = vec![0u32; n];
            assert!(d.next_weights(&mut w));
            w
        })
        .collect()
}

/// `value(w)` for the unit weights of each of the `b` draws of `seed` over strata of `sizes` units, in order
/// (the column of replicate values the report's interval is computed from).
pub fn replicate_column<T>(
    seed: u128,
    sizes: &[usize],
    b: usize,
    mut value: impl FnMut(&[u32]) -> T,
) -> Vec<T> {
    let mut d = Resampler::new(seed, sizes, b);
    let mut w = vec![0u32; sizes.iter().sum()];
    let mut column = Vec::with_capacity(b);
    while d.next_weights(&mut w) {
        column.push(value(&w));
    }
    column
}

/// `kaggle` on a solution and a submission given as text.
pub fn score_kaggle(solution: &str, submission: &str, set: &[(&str, &str)]) -> Report {
    score_inputs(
        "kaggle",
        vec![
            bytes_input("solution.csv", Some(Role::Gt), solution.as_bytes().to_vec()),
            bytes_input(
                "submission.csv",
                Some(Role::Pred),
                submission.as_bytes().to_vec(),
            ),
        ],
        Mode::Official,
        set,
    )
}

/// The CSV with each id's rows (ids in order of first appearance) written `weight(id)` times, copy c's id
/// `id~c`, the copies adjacent (at the place of the id's first row).
pub fn repeat_csv(csv: &str, weight: &dyn Fn(&str) -> u32) -> String {
    let mut lines = csv.lines();
    let mut out = format!("{}\n", lines.next().unwrap());
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for l in lines {
        let (id, rest) = l.split_once(',').unwrap_or((l, ""));
        match groups.iter_mut().find(|(g, _)| g == id) {
            Some((_, rows)) => rows.push(rest.to_string()),
            None => groups.push((id.to_string(), vec![rest.to_string()])),
        }
    }
    for (id, rows) in &groups {
        for c in 0..weight(id) {
            for rest in rows {
                out.push_str(&format!("{id}~{c},{rest}\n"));
            }
        }
    }
    out
}
