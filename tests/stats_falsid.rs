//! `falsid`'s bootstrap replicates (docs/specs/statistics.md sections 1 and 2): unit = sample, strata = subsets
//! (each drawn separately, its size kept). For the class readings, replicate r equals exactly the protocol's
//! own score on the label files in which every drawn sample appears as many times as drawn (copies `{id}_{c}`),
//! written out and scored from scratch. The Top-k diagnostic resamples the matrix's queries: replicate r equals
//! the Top-k of the drawn queries, each counted as drawn, with its first-match rank in the full matrix, computed
//! here by sorting each row (NumPy's stable argsort order). Random cases: 1 to 3 subsets, missing predictions,
//! both `missing_prediction` and `topk_no_match` rules, distances with ties. Also `compare`, `rank` and a split
//! file through the command line.

mod common;
use common::resample::{draw_weights, xorshift as rng};
use common::*;
use dropscore::input::{Input, Role};
use dropscore::stats::{interval, Resampler};
use dropscore::{Mode, Report};

const NAMES: [&str; 3] = ["Pizan", "Tasso", "Yaqut"];

/// One subset: its samples (numbered id, label, predicted label) in file order, its distance matrix (rows and
/// columns in file order) when it has one.
struct Subset {
    name: &'static str,
    samples: Vec<(u32, u8, Option<u8>)>,
    matrix: Option<Vec<Vec<u32>>>,
}

struct Case {
    subsets: Vec<Subset>,
    set: Vec<(&'static str, &'static str)>,
}

fn random_case(seed: u64) -> Case {
    let mut next = rng(seed);
    let first = next(3) as usize;
    let count = 1 + next(3 - first as u64) as usize;
    let subsets = NAMES[first..first + count]
        .iter()
        .map(|&name| {
            let n = 2 + next(9) as usize;
            let mut numbers: Vec<u32> = (1..=n as u32).collect();
            for i in (1..n).rev() {
                numbers.swap(i, next(i as u64 + 1) as usize); // file order differs from the report's
            }
            let samples: Vec<(u32, u8, Option<u8>)> = numbers
                .into_iter()
                .map(|i| {
                    let y = next(2) as u8;
                    let p = match next(8) {
                        0 => None,
                        1..=4 => Some(y),
                        _ => Some(next(2) as u8),
                    };
                    (i, y, p)
                })
                .collect();
            let matrix = (next(3) != 0).then(|| {
                let spread = 2 + next(6);
                let mut d = vec![vec![0u32; n]; n];
                for (i, row) in d.iter_mut().enumerate() {
                    for (j, v) in row.iter_mut().enumerate() {
                        if i != j {
                            *v = 1 + next(spread) as u32;
                        }
                    }
                }
                d
            });
            Subset {
                name,
                samples,
                matrix,
            }
        })
        .collect();
    let mut set = Vec::new();
    if next(3) == 0 {
        set.push(("missing_prediction", "exclude"));
    }
    if next(3) == 0 {
        set.push(("topk_no_match", "exclude"));
    }
    if next(3) == 0 {
        set.push(("topk", "1,2,4"));
    }
    set.push((
        "subsets",
        ["Pizan,Tasso,Yaqut", "Yaqut,Pizan,Tasso"][next(2) as usize],
    ));
    Case { subsets, set }
}

fn id(s: &Subset, i: u32) -> String {
    format!("{}{i}", &s.name[..1].to_lowercase())
}

/// The label files with sample u of subset s copied `w[s][u]` times (`{id}_{c}`; `w` in file order), and the
/// matrices when `matrices` (only with every weight 1: the original set).
fn inputs(case: &Case, w: &[Vec<u32>], matrices: bool) -> Vec<Input> {
    let (mut gt, mut pred) = (
        String::from("id,subset,label\n"),
        String::from("id,subset,label\n"),
    );
    let mut v = Vec::new();
    for (s, ws) in case.subsets.iter().zip(w) {
        for (&(i, y, p), &k) in s.samples.iter().zip(ws) {
            for c in 0..k {
                let name = if matrices {
                    id(s, i)
                } else {
                    format!("{}_{c}", id(s, i))
                };
                gt += &format!("{name},{},{y}\n", s.name);
                if let Some(p) = p {
                    pred += &format!("{name},{},{p}\n", s.name);
                }
            }
        }
        if let (true, Some(d)) = (matrices, &s.matrix) {
            let ids: Vec<String> = s.samples.iter().map(|x| id(s, x.0)).collect();
            let mut text = format!(",{}\n", ids.join(","));
            for (row, name) in d.iter().zip(&ids) {
                let vals: Vec<String> = row.iter().map(u32::to_string).collect();
                text += &format!("{name},{}\n", vals.join(","));
            }
            let path = format!("dist_{}.csv", s.name.to_lowercase());
            v.push(bytes_input(&path, Some(Role::Pred), text.into_bytes()));
        }
    }
    v.push(bytes_input("gt.csv", Some(Role::Gt), gt.into_bytes()));
    v.push(bytes_input("pred.csv", Some(Role::Pred), pred.into_bytes()));
    v
}

fn score(case: &Case, w: &[Vec<u32>], matrices: bool, extra: &[(&str, &str)]) -> Report {
    let mut set = case.set.clone();
    set.extend_from_slice(extra);
    score_inputs("falsid", inputs(case, w, matrices), Mode::Official, &set)
}

const CLASS: [&str; 4] = ["accuracy", "uar", "pooled_macro_recall", "pooled_accuracy"];

fn ks(case: &Case) -> Vec<usize> {
    let list = case
        .set
        .iter()
        .find(|(k, _)| *k == "topk")
        .map_or("1,3,5", |x| x.1);
    list.split(',').map(|k| k.parse().unwrap()).collect()
}

/// Report order: subsets by name, samples by number. Each subset's units as indices into its file order.
fn unit_order(case: &Case) -> Vec<Vec<usize>> {
    case.subsets
        .iter()
        .map(|s| {
            let mut o: Vec<usize> = (0..s.samples.len()).collect();
            o.sort_by_key(|&u| s.samples[u].0);
            o
        })
        .collect()
}

/// The first-match rank of query q: 1 + the other-class items before the first same-class item in the stable
/// order of (distance, column) over the other columns.
fn first_match_rank(s: &Subset, d: &[Vec<u32>], q: usize) -> Option<usize> {
    let mut cols: Vec<usize> = (0..d.len()).filter(|&j| j != q).collect();
    cols.sort_by_key(|&j| d[q][j]); // stable: column order among equal distances
    let y = s.samples[q].1;
    cols.iter()
        .position(|&j| s.samples[j].1 == y)
        .map(|p| p + 1)
}

/// Top-k on the query sample: weights per sample in file order.
fn top_k_reference(case: &Case, w: &[Vec<u32>], k: usize, no_match_excluded: bool) -> Option<f64> {
    let mut per = Vec::new();
    for (s, ws) in case.subsets.iter().zip(w) {
        let Some(d) = &s.matrix else { continue };
        let k_eff = k.min(d.len() - 1);
        let (mut hits, mut counted) = (0u64, 0u64);
        for (q, &c) in ws.iter().enumerate() {
            match first_match_rank(s, d, q) {
                Some(r) => {
                    counted += u64::from(c);
                    hits += u64::from(c) * u64::from(r <= k_eff);
                }
                None if no_match_excluded => {}
                None => counted += u64::from(c),
            }
        }
        if counted > 0 {
            per.push(hits as f64 / counted as f64);
        }
    }
    (!per.is_empty()).then(|| per.iter().fold(0.0, |a, b| a + b) / per.len() as f64)
}

/// The subsets in report order (by name) and their sizes: the strata the draws follow.
fn strata(case: &Case) -> Vec<usize> {
    let mut o: Vec<usize> = (0..case.subsets.len()).collect();
    o.sort_by_key(|&s| case.subsets[s].name);
    o
}

/// Flat unit weights (report order) -> weights per subset in file order.
fn per_subset(case: &Case, flat: &[u32]) -> Vec<Vec<u32>> {
    let order = unit_order(case);
    let mut out: Vec<Vec<u32>> = case
        .subsets
        .iter()
        .map(|s| vec![0; s.samples.len()])
        .collect();
    let mut at = 0;
    for s in strata(case) {
        for &u in &order[s] {
            out[s][u] = flat[at];
            at += 1;
        }
    }
    out
}

fn sizes(case: &Case) -> Vec<usize> {
    strata(case)
        .iter()
        .map(|&s| case.subsets[s].samples.len())
        .collect()
}

fn ones(case: &Case) -> Vec<Vec<u32>> {
    case.subsets
        .iter()
        .map(|s| vec![1; s.samples.len()])
        .collect()
}

/// Every metric of a replicate with weights `flat` against the repeated label files and the Top-k reference.
fn check_weights(case: &Case, values: &[(String, Option<f64>)], flat: &[u32]) {
    let w = per_subset(case, flat);
    let repeated = score(case, &w, false, &[]);
    let no_match_excluded = case.set.contains(&("topk_no_match", "exclude"));
    for (m, v) in values {
        let want = if CLASS.contains(&m.as_str()) {
            repeated.scores.get(m)
        } else {
            let k: usize = m.strip_prefix("top").unwrap().parse().unwrap();
            top_k_reference(case, &w, k, no_match_excluded)
        };
        assert_eq!(*v, want, "{m}: weights {w:?}, set {:?}", case.set);
    }
}

fn check(case: &Case, seeds: &[u128]) {
    let r = score(case, &ones(case), true, &[("bootstrap", "1")]);
    assert!(!r.has_errors(), "{:?}", codes(&r));
    let units = r.units.0.as_deref().expect("units");
    assert_eq!((units.unit, units.strata), ("sample", Some("subset")));
    assert_eq!(units.sizes, sizes(case));
    let order = unit_order(case);
    let ids: Vec<String> = strata(case)
        .iter()
        .flat_map(|&s| {
            let sub = &case.subsets[s];
            order[s].iter().map(move |&u| id(sub, sub.samples[u].0))
        })
        .collect();
    assert_eq!(units.ids, ids);
    let n = units.count();
    let metrics = units.replicate.metrics();
    let with_matrix = case.subsets.iter().any(|s| s.matrix.is_some());
    assert_eq!(
        metrics.len(),
        4 + if with_matrix { ks(case).len() } else { 0 }
    );
    let named = |w: &[u32]| -> Vec<(String, Option<f64>)> {
        metrics
            .iter()
            .cloned()
            .zip(units.replicate.values(w))
            .collect()
    };
    for (m, v) in named(&vec![1; n]) {
        assert_eq!(v, r.scores.get(&m), "{m}: every unit once");
    }
    let mut all = draw_weights(seeds, &units.sizes);
    all.push((0..n as u32).map(|u| 1 + u % 3).collect());
    for w in &all {
        check_weights(case, &named(w), w);
    }
}

#[test]
fn replicates_equal_repeated_random_data_sets() {
    for case in 1..=60u64 {
        check(
            &random_case(case),
            &[case as u128, 500 + case as u128, 900 + case as u128],
        );
    }
}

/// The report's intervals (B = 40, seed 9, confidence 0.9) equal the percentile intervals of the 40 repeated
/// sets' values; a second scoring gives the same intervals.
#[test]
fn intervals_in_the_report_equal_those_of_the_repeated_sets() {
    let case = (1..)
        .map(random_case)
        .find(|c| c.subsets.len() > 1 && c.subsets.iter().any(|s| s.matrix.is_some()))
        .unwrap();
    let set = [("bootstrap", "40"), ("seed", "9"), ("confidence", "0.9")];
    let r = score(&case, &ones(&case), true, &set);
    let s = r.statistics.as_ref().unwrap();
    assert_eq!(
        (s.unit.as_str(), s.strata.as_deref()),
        ("sample", Some("subset"))
    );
    let sizes = sizes(&case);
    let n: usize = sizes.iter().sum();
    let mut d = Resampler::new(9, &sizes, 40);
    let mut w = vec![0; n];
    let mut columns: Vec<(String, Vec<Option<f64>>)> = Vec::new();
    let no_match_excluded = case.set.contains(&("topk_no_match", "exclude"));
    while d.next_weights(&mut w) {
        let per = per_subset(&case, &w);
        let repeated = score(&case, &per, false, &[]);
        for (id, _) in r.scores.iter() {
            let v = match id.strip_prefix("top") {
                Some(k) => top_k_reference(&case, &per, k.parse().unwrap(), no_match_excluded),
                None => repeated.scores.get(id),
            };
            match columns.iter_mut().find(|(m, _)| m == id) {
                Some((_, c)) => c.push(v),
                None => columns.push((id.to_string(), vec![v])),
            }
        }
    }
    assert_eq!(r.intervals.0.len(), columns.len());
    for (id, column) in &columns {
        let want = interval(column, 0.9);
        let got = &r.intervals.0.iter().find(|(m, _)| m == id).unwrap().1;
        assert_eq!((got.low, got.high), (want.low, want.high), "{id}");
        let se = (got.se.unwrap() - want.se.unwrap()).abs();
        assert!(
            se <= 1e-12 * want.se.unwrap().max(1e-300),
            "{id}: {got:?} {want:?}"
        );
        assert_eq!(got.left_out, want.left_out as u64);
    }
    assert_eq!(
        score(&case, &ones(&case), true, &set).intervals,
        r.intervals,
        "deterministic"
    );
}

/// Writes case `seed`'s files (labels and matrices, every sample once) into a fresh directory.
fn staged(seed: u64, name: &str) -> (Case, std::path::PathBuf) {
    let case = random_case(seed);
    let dir = std::env::temp_dir().join(format!("dropscore-falsid-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for i in inputs(&case, &ones(&case), true) {
        let bytes = i.blob.as_slice().unwrap().to_vec();
        std::fs::write(dir.join(&i.path), bytes).unwrap();
    }
    (case, dir)
}

/// A split file: each part's class readings equal the protocol's on that part's samples written alone.
#[test]
fn split_file_parts_equal_each_part_alone() {
    let (case, dir) = staged(7, "split");
    let order = unit_order(&case);
    let mut split = String::new();
    let mut keep: Vec<Vec<Vec<u32>>> = vec![Vec::new(), Vec::new()]; // public, private
    for (s, sub) in case.subsets.iter().enumerate() {
        let mut w = [vec![0; sub.samples.len()], vec![0; sub.samples.len()]];
        for (k, &u) in order[s].iter().enumerate() {
            let public = k % 3 != 1;
            w[usize::from(!public)][u] = 1;
            let part = if public { "Public" } else { "Private" };
            split += &format!("{}\t{part}\n", id(sub, sub.samples[u].0));
        }
        let [a, b] = w;
        keep[0].push(a);
        keep[1].push(b);
    }
    std::fs::write(dir.join("split.tsv"), split).unwrap();
    let mut args = vec!["falsid", "--gt", "gt.csv", "--pred", "pred.csv"];
    let set: Vec<String> = case.set.iter().map(|(k, v)| format!("{k}={v}")).collect();
    for s in &set {
        args.extend(["--set", s]);
    }
    args.extend(["--set", "split=split.tsv"]);
    let r = cli_json(&dir, &args).0;
    for (part, w) in ["public", "private"].iter().zip(&keep) {
        let alone = score(&case, w, false, &[]);
        for m in CLASS {
            assert_eq!(
                r["parts"][part][m].as_f64(),
                alone.scores.get(m),
                "{part} {m}: {r}"
            );
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// `dropscore compare falsid` against the same files is Δ 0 with a zero-width interval; `rank` of two
/// submissions gives each its interval.
#[test]
fn compare_and_rank() {
    let (_case, dir) = staged(4, "compare");
    std::fs::copy(dir.join("pred.csv"), dir.join("other.csv")).unwrap();
    let c = &cli_json(
        &dir,
        &[
            "compare",
            "falsid",
            "--gt",
            "gt.csv",
            "--pred",
            "pred.csv",
            "--vs",
            "other.csv",
            "--set",
            "bootstrap=50",
        ],
    )
    .0["compare"];
    assert_eq!(c["metric"], "accuracy", "{c}");
    assert_eq!(c["delta"], 0.0, "{c}");
    assert_eq!(
        (c["low"].as_f64(), c["high"].as_f64()),
        (Some(0.0), Some(0.0)),
        "{c}"
    );
    let r = cli_json(
        &dir,
        &[
            "rank",
            "falsid",
            "--gt",
            "gt.csv",
            "--pred",
            "pred.csv",
            "other.csv",
            "--set",
            "bootstrap=50",
        ],
    )
    .0;
    let rows = r["submissions"].as_array().expect("submissions");
    assert_eq!(rows.len(), 2, "{r}");
    assert!(
        rows.iter()
            .all(|row| row["low"].is_number() && row["high"].is_number()),
        "{r}"
    );
}
