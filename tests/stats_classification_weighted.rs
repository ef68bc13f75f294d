//! `classification`'s bootstrap with a `weight_column` (docs/specs/statistics.md section 1): replicate r is
//! every weighted metric with `sample_weight` = the row's weight × its draw count, and equals the report of
//! the file in which every GT row appears as many times as drawn, each copy with its row's weight (ids made
//! unique, the copies adjacent), written out and scored from scratch: to the bit for the label metrics and the
//! ranking metrics (weights that are multiples of 1/4, so that every sum of weights is exact), to 1e-12
//! relative for the losses (`np.average` sums w·x in another grouping), where every class is drawn. Binary
//! labels and probabilities, three classes with label and score columns; random rows and weights (zeros among
//! them).

mod common;
use common::resample::{draw_weights, xorshift as rng};
use common::*;
use dropscore::input::Role;
use dropscore::{Mode, Report};

/// A random case: the GT (with weight column `w`) and the submission, as rows (id, label, weight) and
/// (id, cells).
struct Case {
    gt: Vec<(String, String, f64)>,
    pred_header: String,
    pred: Vec<(String, String)>,
}

fn random_case(seed: u64, classes: usize, scores: bool) -> Case {
    let mut next = rng(seed);
    let n = 4 + next(40) as usize;
    let names: Vec<String> = (0..classes).map(|c| format!("c{c}")).collect();
    let mut gt = Vec::new();
    let mut pred = Vec::new();
    for i in 0..n {
        let id = format!("r{i:03}");
        let weight = next(9) as f64 / 4.0;
        gt.push((
            id.clone(),
            names[next(classes as u64) as usize].clone(),
            weight,
        ));
        let cells = if scores {
            // Scores on a coarse grid (ties), each row summing to 1.
            let raw: Vec<u64> = (0..classes).map(|_| 1 + next(6)).collect();
            let total: u64 = raw.iter().sum();
            let p: Vec<String> = raw
                .iter()
                .map(|&x| format!("{}", x as f64 / total as f64))
                .collect();
            p.join(",")
        } else {
            names[next(classes as u64) as usize].clone()
        };
        pred.push((id, cells));
    }
    let pred_header = if scores {
        format!("id,{}", names.join(","))
    } else {
        "id,label".to_string()
    };
    Case {
        gt,
        pred_header,
        pred,
    }
}

/// The case's files with row i written `w[i]` times (copy c's id `id~c`).
fn score(case: &Case, w: &[u32], extra: &[(&str, &str)]) -> Report {
    let mut gt = "id,label,w\n".to_string();
    let mut pred = format!("{}\n", case.pred_header);
    for (i, ((id, label, weight), (_, cells))) in case.gt.iter().zip(&case.pred).enumerate() {
        for c in 0..w[i] {
            gt.push_str(&format!("{id}~{c},{label},{weight}\n"));
            pred.push_str(&format!("{id}~{c},{cells}\n"));
        }
    }
    let mut set = vec![("weight_column", "w")];
    set.extend_from_slice(extra);
    score_inputs(
        "classification",
        vec![
            bytes_input("gt.csv", Some(Role::Gt), gt.into_bytes()),
            bytes_input("pred.csv", Some(Role::Pred), pred.into_bytes()),
        ],
        Mode::Official,
        &set,
    )
}

/// The label metrics and the ranking metrics: sums of weights only, exact here.
fn exact(metric: &str) -> bool {
    !matches!(metric, "log_loss" | "brier_score" | "top_k_accuracy")
}

fn check(case: &Case, seeds: &[u128]) {
    let n = case.gt.len();
    let r = score(case, &vec![1; n], &[("bootstrap", "1")]);
    let units = r.units.0.as_deref().expect("units with a weight column");
    assert_eq!((units.unit, units.count()), ("row", n));
    let metrics = units.replicate.metrics();
    assert!(!metrics.is_empty());
    let mut all = draw_weights(seeds, &[n]);
    all.push(vec![1; n]);
    all.push((0..n as u32).map(|u| u % 3).collect());
    // A replicate keeps the classes of every row (scikit-learn's labels with `sample_weight`); the repeated
    // file has only the drawn rows' classes: compared where every class is drawn.
    let every_class = |w: &[u32]| {
        let drawn =
            |label: &String| (case.gt.iter().zip(w)).any(|((_, l, _), &k)| l == label && k > 0);
        case.gt.iter().all(|(_, l, _)| drawn(l))
    };
    for w in all.iter().filter(|w| every_class(w)) {
        let values = units.replicate.values(w);
        let full = score(case, w, &[]);
        for (m, v) in metrics.iter().zip(&values) {
            let want = full.scores.get(m);
            let same = match exact(m) {
                true => v.map(f64::to_bits) == want.map(f64::to_bits),
                false => close(*v, want),
            };
            assert!(
                same,
                "{m}: replicate {v:?}, repeated file {want:?} (weights {w:?})"
            );
        }
    }
}

#[test]
fn weighted_replicates_equal_the_repeated_weighted_files() {
    for seed in 0..12u64 {
        check(&random_case(seed, 2, false), &[1, 2, 3]);
        check(&random_case(seed + 100, 2, true), &[4, 5]);
        check(&random_case(seed + 200, 3, false), &[6]);
        check(&random_case(seed + 300, 3, true), &[7, 8]);
    }
}
