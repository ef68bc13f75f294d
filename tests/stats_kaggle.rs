//! `kaggle`'s bootstrap replicates (docs/specs/statistics.md section 1): replicate r equals, to 1e-12
//! relative, the protocol's own score of every metric on the solution and submission in which every drawn id's
//! rows appear as many times as drawn (ids made unique, the copies adjacent), written out and scored from
//! scratch: RLE masks (Dice over pixels, mean Dice, DSB precision, F-beta, Hausdorff), MAP@k, F1 over label
//! sets (micro, macro over the drawn ids' labels, samples), Levenshtein and word Jaccard, Kendall's τ.

mod common;
use common::resample::{draw_weights, repeat_csv, replicate_column, score_kaggle as score};
use common::*;
use dropscore::stats::percentile_interval;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every metric of `scores` with a value has a replicate; those of `seeds` and of hand-made weights equal the
/// repeated files' scores. Returns the metric ids checked.
fn check(sol: &str, sub: &str, seeds: &[u128], set: &[(&str, &str)]) -> Vec<String> {
    let mut with = set.to_vec();
    with.push(("bootstrap", "1"));
    let r = score(sol, sub, &with);
    let units = r.units.0.as_deref().expect("kaggle declares units");
    assert_eq!(units.unit, "row");
    assert!(units.no_interval.is_empty(), "{:?}", units.no_interval);
    let n = units.count();
    let metrics = units.replicate.metrics();
    for (m, v) in r.scores.iter().filter(|(_, v)| v.is_some()) {
        assert!(
            metrics.iter().any(|x| x == m),
            "{m} ({v:?}) has a replicate"
        );
    }
    let mut all = draw_weights(seeds, &[n]);
    all.push((0..n).map(|i| (i % 3) as u32).collect());
    for w in all {
        if w.iter().all(|&k| k == 0) {
            continue;
        }
        let values = units.replicate.values(&w);
        let weight = |id: &str| w[units.ids.iter().position(|u| u == id).unwrap()];
        let full = score(&repeat_csv(sol, &weight), &repeat_csv(sub, &weight), set);
        for (m, v) in metrics.iter().zip(&values) {
            if r.scores.get(m).is_none() {
                continue;
            }
            assert!(
                close(*v, full.scores.get(m)),
                "{m}: replicate {v:?}, repeated files {:?} (weights {w:?})",
                full.scores.get(m)
            );
        }
    }
    metrics
}

fn example(path: &str) -> String {
    std::fs::read_to_string(root().join("www/examples/kaggle").join(path)).unwrap()
}

#[test]
fn masks_replicates_equal_the_repeated_files() {
    let (sol, sub) = (example("rle/solution.csv"), example("rle/submission.csv"));
    for empty in ["one", "zero", "skip"] {
        let set = [
            ("metric", "mean_dice"),
            ("width", "32"),
            ("height", "24"),
            ("empty", empty),
        ];
        let m = check(&sol, &sub, &[0, 1, 2, 3], &set);
        for id in ["dice", "mean_dice", "iou_precision", "fbeta"] {
            assert!(m.iter().any(|x| x == id), "{id}");
        }
    }
    let set = [
        ("metric", "hausdorff"),
        ("width", "32"),
        ("height", "24"),
        ("beta", "2"),
    ];
    let m = check(&sol, &sub, &[4, 5], &set);
    assert!(m.iter().any(|x| x == "hausdorff"));
}

#[test]
fn map_replicates_equal_the_repeated_files() {
    let (sol, sub) = (example("map/solution.csv"), example("map/submission.csv"));
    check(&sol, &sub, &[0, 1, 2, 9], &[("metric", "map"), ("k", "5")]);
}

/// A small xorshift generator for the random cases.
struct Rand(u64);
impl Rand {
    fn next(&mut self, m: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % m
    }
    fn words(&mut self, vocab: &[&str], max: u64) -> String {
        let k = self.next(max + 1);
        (0..k)
            .map(|_| vocab[self.next(vocab.len() as u64) as usize])
            .collect::<Vec<_>>()
            .join(" ")
    }
}

fn random_pair(
    seed: u64,
    header: &str,
    cell: &mut dyn FnMut(&mut Rand, bool) -> String,
) -> (String, String) {
    let mut r = Rand(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let n = 4 + r.next(14);
    let (mut sol, mut sub) = (format!("id,{header}\n"), format!("id,{header}\n"));
    for i in 0..n {
        sol.push_str(&format!("r{i:02},{}\n", cell(&mut r, true)));
        sub.push_str(&format!("r{i:02},{}\n", cell(&mut r, false)));
    }
    (sol, sub)
}

#[test]
fn label_set_replicates_equal_the_repeated_files() {
    let vocab = ["a", "b", "c", "d", "e", "f", "g"];
    for case in 1..=10u64 {
        let (sol, sub) = random_pair(case, "tags", &mut |r, _| r.words(&vocab, 3));
        let m = check(
            &sol,
            &sub,
            &[case as u128, 50 + case as u128],
            &[("metric", "f1_macro")],
        );
        for id in ["f1_micro", "f1_macro", "f1_samples"] {
            assert!(m.iter().any(|x| x == id), "{id}");
        }
    }
}

#[test]
fn string_replicates_equal_the_repeated_files() {
    let vocab = ["the", "cat", "Sat", "on", "mat", "été"];
    for case in 1..=8u64 {
        for empty in ["one", "skip"] {
            let (sol, sub) = random_pair(case, "text", &mut |r, _| r.words(&vocab, 4));
            let set = [("metric", "word_jaccard"), ("empty", empty)];
            check(&sol, &sub, &[case as u128], &set);
        }
    }
}

#[test]
fn ordering_replicates_equal_the_repeated_files() {
    for case in 1..=8u64 {
        let mut truth: Vec<String> = Vec::new();
        let (sol, sub) = random_pair(case, "cell_order", &mut |r, is_sol| {
            if is_sol {
                let k = 1 + r.next(6);
                truth = (0..k).map(|j| format!("c{j}")).collect();
                truth.join(" ")
            } else {
                let mut p = truth.clone();
                for j in (1..p.len()).rev() {
                    let o = r.next(j as u64 + 1) as usize;
                    p.swap(j, o);
                }
                p.join(" ")
            }
        });
        check(&sol, &sub, &[case as u128], &[("metric", "kendall_tau")]);
    }
}

/// The report's MAP interval at seed 3, B = 100: NumPy's percentile interval of the 100 repeated files' MAP;
/// the same report again; none without `bootstrap`.
#[test]
fn intervals_in_the_report_are_those_of_the_repeated_files() {
    let (sol, sub) = (example("map/solution.csv"), example("map/submission.csv"));
    let set = [
        ("metric", "map"),
        ("k", "5"),
        ("bootstrap", "100"),
        ("seed", "3"),
    ];
    let r = score(&sol, &sub, &set);
    let s = r.statistics.as_ref().unwrap();
    assert_eq!((s.unit.as_str(), s.bootstrap, s.seed), ("row", 100, 3));
    let units = r.units.0.as_deref().unwrap();
    let n = units.count();
    let values = replicate_column(3, &[n], 100, |w| {
        let weight = |id: &str| w[units.ids.iter().position(|u| u == id).unwrap()];
        let full = score(
            &repeat_csv(&sol, &weight),
            &repeat_csv(&sub, &weight),
            &set[..2],
        );
        full.scores.get("map").unwrap()
    });
    let (low, high) = percentile_interval(&values, 0.95).unwrap();
    let iv = &r.intervals.0.iter().find(|(m, _)| m == "map").unwrap().1;
    assert!(
        close(iv.low, Some(low)) && close(iv.high, Some(high)),
        "{iv:?} vs {low} {high}"
    );
    let again = score(&sol, &sub, &set);
    assert_eq!(again.intervals, r.intervals);
    assert!(score(&sol, &sub, &set[..2]).units.0.is_none());
}
