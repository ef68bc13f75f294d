//! `chalearn-ce`'s bootstrap replicates (docs/specs/statistics.md sections 1 and 2): unit = image id (the first
//! category's GT order, then ids only later categories list). Replicate r equals exactly the protocol's own mAP
//! on the files in which the line of every image drawn k times, in every GT and submission file, is replaced by
//! k adjacent copies (the id, then `{id}_{c}`), written out and scored from scratch: random cases with tied confidences,
//! missing, unknown and repeated ids, a missing category file, every tie order, both missing-image rules, both
//! integrations, with and without sentinels, GT zeros ignored or negative. The paired exchange (`compare`'s
//! randomization test) equals the mAP of the mixed submission files it describes.

mod common;
use common::resample::{draw_weights, replicate_column, xorshift as rng};
use common::*;
use dropscore::input::{Input, Role};
use dropscore::stats::interval;
use dropscore::{Mode, Report};

/// One category: its GT lines (id, label) and its submission lines (id, confidence) when it has a file.
struct Category {
    name: String,
    gt: Vec<(String, i32)>,
    sub: Option<Vec<(String, f64)>>,
}

struct Case {
    categories: Vec<Category>,
    set: Vec<(&'static str, &'static str)>,
}

fn shuffle<T>(v: &mut [T], next: &mut impl FnMut(u64) -> u64) {
    for i in (1..v.len()).rev() {
        v.swap(i, next(i as u64 + 1) as usize);
    }
}

/// A submission for GT lines `gt`: most images, in random order, confidences from a few values (ties), now
/// and then an unknown id or a repeated one.
fn submission(gt: &[(String, i32)], next: &mut impl FnMut(u64) -> u64) -> Vec<(String, f64)> {
    let mut lines: Vec<(String, f64)> = gt
        .iter()
        .filter_map(|(id, _)| {
            let keep = next(6) != 0;
            let conf = next(6) as f64 / 10.0;
            keep.then_some((id.clone(), conf))
        })
        .collect();
    shuffle(&mut lines, next);
    if next(4) == 0 {
        lines.insert(
            next(lines.len() as u64 + 1) as usize,
            ("stranger".into(), 0.3),
        );
    }
    if !lines.is_empty() && next(4) == 0 {
        let again = lines[next(lines.len() as u64) as usize].0.clone();
        lines.push((again, 0.9));
    }
    lines
}

fn random_sub(case: &Case, seed: u64) -> Vec<Option<Vec<(String, f64)>>> {
    let mut next = rng(seed);
    case.categories
        .iter()
        .map(|c| c.sub.as_ref().map(|_| submission(&c.gt, &mut next)))
        .collect()
}

fn random_case(seed: u64) -> Case {
    let mut next = rng(seed);
    let n = 3 + next(8) as usize;
    let ids: Vec<String> = (0..n).map(|i| format!("img{i}.jpg")).collect();
    let categories = (0..1 + next(3))
        .map(|k| {
            let mut gt: Vec<(String, i32)> = ids
                .iter()
                .map(|id| (id.clone(), [1, -1, -1, 0][next(4) as usize]))
                .collect();
            if k > 0 {
                shuffle(&mut gt, &mut next);
                if next(2) == 0 {
                    gt.push((format!("extra{k}.jpg"), 1));
                }
            }
            let sub = (next(8) != 0).then(|| submission(&gt, &mut next));
            Category {
                name: format!("Event_{}", (b'A' + k as u8) as char),
                gt,
                sub,
            }
        })
        .collect();
    let pick =
        |next: &mut dyn FnMut(u64) -> u64, v: &[&'static str]| v[next(v.len() as u64) as usize];
    let set = vec![
        (
            "tie_order",
            pick(
                &mut next,
                &["file", "grouped", "positives_first", "negatives_first"],
            ),
        ),
        ("missing_images", pick(&mut next, &["unranked", "append"])),
        ("integration", pick(&mut next, &["trapezoid", "step"])),
        ("sentinels", pick(&mut next, &["true", "false"])),
        ("gt_zero", pick(&mut next, &["negative", "ignore"])),
    ];
    Case { categories, set }
}

/// The unit order: the first category's GT ids, then the ids first listed by later categories.
fn unit_ids(case: &Case) -> Vec<String> {
    let mut ids: Vec<String> = Vec::new();
    for c in &case.categories {
        for (id, _) in &c.gt {
            if !ids.contains(id) {
                ids.push(id.clone());
            }
        }
    }
    ids
}

/// The files with every line of a unit's image replaced by `w[unit]` adjacent copies `{id}_{c}` (lines of
/// unknown ids kept once); `subs` the submission of each category.
fn inputs(case: &Case, subs: &[Option<Vec<(String, f64)>>], w: &[u32]) -> Vec<Input> {
    let units = unit_ids(case);
    let copies = |id: &str| -> Vec<String> {
        match units.iter().position(|u| u == id) {
            // Copy 0 keeps the id (so that every weight 1 is the original set).
            Some(u) => (0..w[u])
                .map(|c| {
                    if c == 0 {
                        id.to_string()
                    } else {
                        format!("{id}_{c}")
                    }
                })
                .collect(),
            None => vec![id.to_string()],
        }
    };
    let mut v = Vec::new();
    for (c, sub) in case.categories.iter().zip(subs) {
        let mut gt = String::new();
        for (id, label) in &c.gt {
            for copy in copies(id) {
                gt += &format!("{copy} {label}\n");
            }
        }
        v.push(bytes_input(
            &format!("ref/{}_test.txt", c.name),
            Some(Role::Gt),
            gt.into_bytes(),
        ));
        if let Some(lines) = sub {
            let mut text = String::new();
            for (id, conf) in lines {
                for copy in copies(id) {
                    text += &format!("{copy} {conf:.6}\n");
                }
            }
            v.push(bytes_input(
                &format!("res/{}.txt", c.name),
                Some(Role::Pred),
                text.into_bytes(),
            ));
        }
    }
    v
}

fn score(
    case: &Case,
    subs: &[Option<Vec<(String, f64)>>],
    w: &[u32],
    extra: &[(&str, &str)],
) -> Report {
    let mut set = case.set.clone();
    let count = case.categories.len().to_string();
    set.push(("expected_categories", &count));
    set.extend_from_slice(extra);
    score_inputs("chalearn-ce", inputs(case, subs, w), Mode::Official, &set)
}

fn own(case: &Case) -> Vec<Option<Vec<(String, f64)>>> {
    case.categories.iter().map(|c| c.sub.clone()).collect()
}

fn check(case: &Case, seeds: &[u128]) -> usize {
    let n = unit_ids(case).len();
    let subs = own(case);
    let r = score(case, &subs, &vec![1; n], &[("bootstrap", "1")]);
    assert!(!r.has_errors(), "{:?}", codes(&r));
    let units = r.units.0.as_deref().expect("units");
    assert_eq!((units.unit, units.strata), ("image", None));
    assert_eq!(units.ids, unit_ids(case));
    assert_eq!(units.replicate.metrics(), vec!["map".to_string()]);
    assert_eq!(units.replicate.values(&vec![1; n])[0], r.scores.get("map"));
    let mut all = draw_weights(seeds, &[n]);
    all.push((0..n as u32).map(|u| u % 3).collect());
    let mut checked = 0;
    for w in &all {
        if w.iter().all(|&k| k == 0) {
            continue;
        }
        let repeated = score(case, &subs, w, &[]);
        assert!(!repeated.has_errors(), "{:?}", codes(&repeated));
        let v = units.replicate.values(w)[0];
        assert_eq!(
            v,
            repeated.scores.get("map"),
            "weights {w:?}, set {:?}",
            case.set
        );
        checked += 1;
    }
    checked
}

#[test]
fn replicates_equal_repeated_random_data_sets() {
    let mut checked = 0;
    for case in 1..=80u64 {
        checked += check(
            &random_case(case),
            &[case as u128, 700 + case as u128, 1400 + case as u128],
        );
    }
    assert!(checked >= 300, "{checked}");
}

/// The report's interval (B = 40, seed 3, confidence 0.9) equals the percentile interval of the mAP of the 40
/// repeated sets; a second scoring gives the same interval.
#[test]
fn intervals_in_the_report_equal_those_of_the_repeated_sets() {
    let case = (1..)
        .map(random_case)
        .find(|c| c.categories.len() > 1)
        .unwrap();
    let n = unit_ids(&case).len();
    let subs = own(&case);
    let set = [("bootstrap", "40"), ("seed", "3"), ("confidence", "0.9")];
    let r = score(&case, &subs, &vec![1; n], &set);
    let column = replicate_column(3, &[n], 40, |w| {
        score(&case, &subs, w, &[]).scores.get("map")
    });
    let want = interval(&column, 0.9);
    let got = &r
        .intervals
        .0
        .iter()
        .find(|(m, _)| m == "map")
        .expect("interval")
        .1;
    assert_eq!((got.low, got.high), (want.low, want.high));
    let (a, b) = (got.se.unwrap(), want.se.unwrap());
    assert!((a - b).abs() <= 1e-12 * b.abs().max(1e-300), "{a} {b}");
    assert_eq!(got.left_out, want.left_out as u64);
    assert_eq!(
        score(&case, &subs, &vec![1; n], &set).intervals,
        r.intervals
    );
}

/// A paired exchange equals the mAP of the mixed submission files: per category, A's lines of the images kept
/// from A (in A's order), then B's lines of the exchanged images (in B's order).
#[test]
fn exchanges_equal_the_mixed_submission_files() {
    let mut tested = 0;
    for seed in 1..=60u64 {
        let case = random_case(seed);
        let n = unit_ids(&case).len();
        let a = own(&case);
        let b = random_sub(&case, seed + 1000);
        let ones = vec![1; n];
        let (ra, rb) = (
            score(&case, &a, &ones, &[("bootstrap", "1")]),
            score(&case, &b, &ones, &[("bootstrap", "1")]),
        );
        let (ua, ub) = (
            ra.units.0.as_deref().unwrap(),
            rb.units.0.as_deref().unwrap(),
        );
        let mut next = rng(seed + 5);
        let take: Vec<bool> = (0..n).map(|_| next(2) == 0).collect();
        let units = unit_ids(&case);
        let taken = |id: &str| units.iter().position(|u| u == id).is_some_and(|u| take[u]);
        let mixed: Vec<Option<Vec<(String, f64)>>> = a
            .iter()
            .zip(&b)
            .map(|(x, y)| {
                let (x, y) = (x.as_ref()?, y.as_ref()?);
                let mut lines: Vec<(String, f64)> =
                    x.iter().filter(|l| !taken(&l.0)).cloned().collect();
                lines.extend(y.iter().filter(|l| taken(&l.0)).cloned());
                Some(lines)
            })
            .collect();
        // Unknown ids belong to no unit: the mixed file keeps A's.
        let want = score(&case, &mixed, &ones, &[]).scores.get("map");
        let got = ua
            .replicate
            .mixed(&*ub.replicate, &take, &ones)
            .expect("mixable");
        assert_eq!(got[0], want, "seed {seed}, take {take:?}");
        let w: Vec<u32> = (0..n as u32).map(|u| 1 + u % 2).collect();
        let got = ua.replicate.mixed(&*ub.replicate, &take, &w).unwrap();
        assert_eq!(
            got[0],
            score(&case, &mixed, &w, &[]).scores.get("map"),
            "seed {seed}"
        );
        assert_eq!(
            ua.replicate
                .mixed(&*ub.replicate, &vec![false; n], &ones)
                .unwrap()[0],
            ra.scores.get("map")
        );
        assert_eq!(
            ua.replicate
                .mixed(&*ub.replicate, &vec![true; n], &ones)
                .unwrap()[0],
            rb.scores.get("map")
        );
        tested += 1;
    }
    assert_eq!(tested, 60);
}

/// `dropscore compare` and `rank` through the command line: the randomization test runs, a submission against
/// itself is Δ 0.
#[test]
fn compare_and_rank_on_the_command_line() {
    let case = (1..)
        .map(random_case)
        .find(|c| c.categories.iter().all(|c| c.sub.is_some()))
        .unwrap();
    let dir = std::env::temp_dir().join(format!("dropscore-chalearn-stats-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let n = unit_ids(&case).len();
    let other = random_sub(&case, 77);
    for (sub, folder) in [(own(&case), "a"), (other, "b")] {
        for i in inputs(&case, &sub, &vec![1; n]) {
            let path = match i.role {
                Some(Role::Gt) => dir.join(&i.path),
                _ => dir.join(folder).join(i.path.trim_start_matches("res/")),
            };
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, i.blob.as_slice().unwrap()).unwrap();
        }
    }
    let run = |args: &[&str]| -> serde_json::Value {
        let mut all = args.to_vec();
        all.extend(["--set", "bootstrap=50", "--set", "permutations=200"]);
        all.extend(["--set", "expected_categories=3"]);
        cli_json(&dir, &all).0
    };
    let c = &run(&[
        "compare",
        "chalearn-ce",
        "--gt",
        "ref",
        "--pred",
        "a",
        "--vs",
        "b",
    ])["compare"];
    assert_eq!(c["metric"], "map", "{c}");
    assert!(c["p_randomization"].is_number(), "{c}");
    let c = &run(&[
        "compare",
        "chalearn-ce",
        "--gt",
        "ref",
        "--pred",
        "a",
        "--vs",
        "a",
    ])["compare"];
    assert_eq!(c["delta"], 0.0, "{c}");
    let r = run(&["rank", "chalearn-ce", "--gt", "ref", "--pred", "a", "b"]);
    let rows = r["submissions"].as_array().expect("submissions");
    assert_eq!(rows.len(), 2, "{r}");
    std::fs::remove_dir_all(&dir).ok();
}
