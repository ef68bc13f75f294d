//! `detection`'s bootstrap replicates (docs/specs/statistics.md section 1): replicate r equals, to 1e-12
//! relative, the protocol's own 12 stats on the files in which every image appears as many times as drawn
//! (new unique image and annotation ids, the copies adjacent in sorted id order), written out and scored
//! from scratch. Random inputs with many equal scores (within an image and across images), crowd boxes,
//! every area range, and more detections than maxDets in an image.

mod common;
use common::*;
use dropscore::input::Role;
use dropscore::stats::Resampler;
use dropscore::{Mode, Report};
use serde_json::{json, Value};

const IDS: [&str; 12] = [
    "AP", "AP50", "AP75", "APs", "APm", "APl", "AR1", "AR10", "AR100", "ARs", "ARm", "ARl",
];

fn score(gt: &Value, res: &Value, set: &[(&str, &str)]) -> Report {
    score_inputs(
        "detection",
        vec![
            bytes_input(
                "gt/instances.json",
                Some(Role::Gt),
                gt.to_string().into_bytes(),
            ),
            bytes_input(
                "res/results.json",
                Some(Role::Pred),
                res.to_string().into_bytes(),
            ),
        ],
        Mode::Official,
        set,
    )
}

/// The set with GT image `u` (in `images` order) repeated `w[u]` times. Integer ids: copy c of the image of
/// sorted rank s gets id `s * 1000 + c + 1`.
fn repeated(gt: &Value, res: &Value, w: &[u32]) -> (Value, Value) {
    let images = gt["images"].as_array().unwrap();
    let mut sorted: Vec<i64> = images.iter().map(|i| i["id"].as_i64().unwrap()).collect();
    sorted.sort_unstable();
    let new_id = |old: i64, c: u32| {
        sorted.iter().position(|&x| x == old).unwrap() as i64 * 1000 + c as i64 + 1
    };
    let (mut imgs, mut anns, mut dets) = (Vec::new(), Vec::new(), Vec::new());
    let mut ann_id = 1;
    for (img, &k) in images.iter().zip(w) {
        let old = img["id"].as_i64().unwrap();
        for c in 0..k {
            let id = new_id(old, c);
            let mut i = img.clone();
            i["id"] = json!(id);
            imgs.push(i);
            for a in gt["annotations"].as_array().unwrap() {
                if a["image_id"].as_i64() == Some(old) {
                    let mut a = a.clone();
                    a["image_id"] = json!(id);
                    a["id"] = json!(ann_id);
                    ann_id += 1;
                    anns.push(a);
                }
            }
            for d in res.as_array().unwrap() {
                if d["image_id"].as_i64() == Some(old) {
                    let mut d = d.clone();
                    d["image_id"] = json!(id);
                    dets.push(d);
                }
            }
        }
    }
    let mut g = gt.clone();
    g["images"] = json!(imgs);
    g["annotations"] = json!(anns);
    (g, json!(dets))
}

/// Replicates of `seeds` against the repeated sets scored from their files.
fn check(gt: &Value, res: &Value, seeds: &[u128], set: &[(&str, &str)]) {
    let n = gt["images"].as_array().unwrap().len();
    let weights: Vec<Vec<u32>> = seeds
        .iter()
        .map(|&seed| {
            let mut draws = Resampler::new(seed, &[n], 1);
            let mut w = vec![0u32; n];
            assert!(draws.next_weights(&mut w));
            w
        })
        .collect();
    check_weights(gt, res, &weights, set);
}

/// Replicates of the unit weights `weights` against the repeated sets scored from their files.
fn check_weights(gt: &Value, res: &Value, weights: &[Vec<u32>], set: &[(&str, &str)]) {
    let mut with = set.to_vec();
    with.push(("bootstrap", "1"));
    let r = score(gt, res, &with);
    let units = r.units.0.as_deref().expect("detection declares units");
    assert_eq!(units.unit, "image");
    let n = units.count();
    assert_eq!(n, gt["images"].as_array().unwrap().len());
    let metrics = units.replicate.metrics();
    // All weights 1: the full set's scores.
    let ones = units.replicate.values(&vec![1; n]);
    for (m, v) in metrics.iter().zip(&ones) {
        assert_eq!(*v, r.scores.get(m), "{m} on the full set");
    }
    for w in weights {
        let values = units.replicate.values(w);
        let (g2, r2) = repeated(gt, res, w);
        let full = score(&g2, &r2, set);
        for id in IDS {
            let replicate = metrics.iter().position(|m| m == id).and_then(|i| values[i]);
            if metrics.iter().any(|m| m == id) {
                assert!(
                    close(replicate, full.scores.get(id)),
                    "{id}: replicate {replicate:?}, repeated set {:?} (weights {w:?})",
                    full.scores.get(id)
                );
            }
        }
    }
}

fn example(name: &str) -> Value {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("www/examples/detection")
        .join(name);
    serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
}

#[test]
fn replicates_equal_the_repeated_example() {
    let (gt, res) = (example("gt/instances.json"), example("pred/results.json"));
    check(&gt, &res, &[0, 1, 2, 3, 42], &[]);
    check(
        &gt,
        &res,
        &[7],
        &[("max_dets", "1,2,3"), ("iou_thresholds", "0.3,0.5,0.9")],
    );
    check(&gt, &res, &[8], &[("use_cats", "false")]);
}

/// A random case: boxes on a coarse grid (many equal IoUs), scores from a few values (many ties).
fn random_case(seed: u64) -> (Value, Value) {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = |m: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % m
    };
    let n_img = 3 + next(8) as usize;
    let order: Vec<i64> = (0..n_img).map(|i| (i as i64 * 7919) % 101 + 1).collect();
    let images: Vec<Value> = order
        .iter()
        .map(|&id| json!({"id": id, "width": 200, "height": 200}))
        .collect();
    let (mut anns, mut dets) = (Vec::new(), Vec::new());
    let mut ann_id = 1;
    for &img in &order {
        for _ in 0..next(6) {
            let b = [
                next(10) * 10,
                next(10) * 10,
                5 + next(12) * 10,
                5 + next(12) * 10,
            ];
            let area = (b[2] * b[3]) as f64;
            anns.push(
                json!({"id": ann_id, "image_id": img, "category_id": 1 + next(3),
                "bbox": b, "area": area, "iscrowd": (next(7) == 0) as u8}),
            );
            ann_id += 1;
        }
        for _ in 0..next(9) {
            let b = [
                next(4) * 10,
                next(4) * 10,
                5 + next(6) * 10,
                5 + next(6) * 10,
            ];
            let score = [0.9, 0.5, 0.5, 0.3, 0.1][next(5) as usize];
            dets.push(
                json!({"image_id": img, "category_id": 1 + next(2), "bbox": b, "score": score}),
            );
        }
    }
    let cats: Vec<Value> = (1..=3)
        .map(|c| json!({"id": c, "name": format!("c{c}")}))
        .collect();
    (
        json!({"images": images, "annotations": anns, "categories": cats}),
        json!(dets),
    )
}

#[test]
fn replicates_equal_repeated_random_sets() {
    for case in 1..=25u64 {
        let (gt, res) = random_case(case);
        if res.as_array().unwrap().is_empty() {
            continue;
        }
        check(
            &gt,
            &res,
            &[case as u128, 1000 + case as u128],
            &[("max_dets", "1,2,100")],
        );
    }
}

/// Two detections of one score in one image, the first a true positive, the second a false positive: with
/// the image twice, accumulate()'s mergesort puts them TP, FP, TP, FP (copy by copy), not TP, TP, FP, FP.
#[test]
fn equal_scores_in_an_image_repeat_as_a_block() {
    let gt = json!({"images": [{"id": 1}, {"id": 2}],
        "annotations": [
            {"id": 1, "image_id": 1, "category_id": 1, "bbox": [0, 0, 10, 10], "area": 100, "iscrowd": 0},
            {"id": 2, "image_id": 2, "category_id": 1, "bbox": [0, 0, 10, 10], "area": 100, "iscrowd": 0}],
        "categories": [{"id": 1, "name": "a"}]});
    let res = json!([
        {"image_id": 1, "category_id": 1, "bbox": [0, 0, 10, 10], "score": 0.5},
        {"image_id": 1, "category_id": 1, "bbox": [50, 50, 10, 10], "score": 0.5},
        {"image_id": 2, "category_id": 1, "bbox": [50, 50, 10, 10], "score": 0.7}]);
    let res_fp_first = json!([
        {"image_id": 1, "category_id": 1, "bbox": [50, 50, 10, 10], "score": 0.5},
        {"image_id": 1, "category_id": 1, "bbox": [0, 0, 10, 10], "score": 0.5}]);
    let w = vec![vec![2, 1], vec![3, 0], vec![0, 2], vec![4, 2]];
    check_weights(&gt, &res, &w, &[]);
    check_weights(&gt, &res_fp_first, &w, &[]);
}

#[test]
fn intervals_in_the_report() {
    let (gt, res) = (example("gt/instances.json"), example("pred/results.json"));
    let r = score(&gt, &res, &[("bootstrap", "200")]);
    let s = r.statistics.as_ref().unwrap();
    assert_eq!(s.unit, "image");
    let ap = r.intervals.0.iter().find(|(m, _)| m == "AP").unwrap();
    let v = r.scores.get("AP").unwrap();
    assert!(ap.1.low.unwrap() <= v && v <= ap.1.high.unwrap());
    // Statistics off: no units kept.
    assert!(score(&gt, &res, &[]).units.0.is_none());
}

/// A split file for detection (no bootstrap): each part's 12 stats equal, to 1e-12, the protocol's own on the
/// images of that part alone (the units recompute with weights 1 and 0).
#[test]
fn split_file_parts_equal_each_part_alone() {
    let (gt, res) = (example("gt/instances.json"), example("pred/results.json"));
    let ids: Vec<i64> = gt["images"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["id"].as_i64().unwrap())
        .collect();
    let dir = std::env::temp_dir().join(format!("dropscore-det-split-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("gt.json"), gt.to_string()).unwrap();
    std::fs::write(dir.join("res.json"), res.to_string()).unwrap();
    let public = |u: usize| !u.is_multiple_of(3);
    let split: String = ids
        .iter()
        .enumerate()
        .map(|(u, id)| format!("{id}\t{}\n", if public(u) { "Public" } else { "Private" }))
        .collect();
    std::fs::write(dir.join("split.tsv"), split).unwrap();
    let r = cli_json(
        &dir,
        &[
            "detection",
            "--gt",
            "gt.json",
            "--pred",
            "res.json",
            "--set",
            "split=split.tsv",
        ],
    )
    .0;
    for (part, keep) in [("public", true), ("private", false)] {
        let w: Vec<u32> = (0..ids.len())
            .map(|u| u32::from(public(u) == keep))
            .collect();
        let (g, d) = repeated(&gt, &res, &w);
        let alone = score(&g, &d, &[]);
        for id in IDS {
            let got = r["parts"][part][id].as_f64();
            assert!(
                close(got, alone.scores.get(id)),
                "{part} {id}: {got:?} vs {:?}",
                alone.scores.get(id)
            );
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// `dropscore compare detection` recomputes from the units the scores kept for it (B = 1000 by default,
/// statistics off in the scores themselves): A against itself is Δ 0 with a zero-width interval.
#[test]
fn compare_detection_against_itself() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("www/examples/detection");
    let args = [
        "compare",
        "detection",
        "--gt",
        "gt/instances.json",
        "--pred",
        "pred/results.json",
    ];
    let mut all = args.to_vec();
    all.extend(["--vs", "pred/results.json", "--set", "bootstrap=50"]);
    let c = &cli_json(&dir, &all).0["compare"];
    assert_eq!(c["metric"], "AP", "{c}");
    assert_eq!(c["delta"], 0.0, "{c}");
    assert_eq!(
        (c["low"].as_f64(), c["high"].as_f64()),
        (Some(0.0), Some(0.0)),
        "{c}"
    );
}
