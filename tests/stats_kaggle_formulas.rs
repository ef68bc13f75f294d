//! The single-competition formulas' bootstrap replicates (docs/specs/statistics.md section 1): unit = solution
//! id. Replicate r equals, to 1e-12 relative, the protocol's own score on the solution and submission in which
//! every drawn id's row appears as many times as drawn (copies `{id}~{c}`, adjacent), written out and scored
//! from scratch: random cases of KL divergence, weighted log loss, lwlrap, pfbeta, weighted AUC, haversine
//! (per-phone percentiles), angular error and the Laplace log likelihood, and the report's interval against the
//! repeated files' percentile interval; PredictionString boxes (pycocotools' AP, AP50, AP75, AR@100, Global
//! Wheat's precision, and VOC's AP at several IoU thresholds, bit-identical).

mod common;
use common::resample::{
    draw_weights, repeat_csv, replicate_column, score_kaggle as score, xorshift as rng,
};
use common::*;
use dropscore::stats::interval;

/// A random solution and submission for `metric` (ids `r0…`, in order).
fn random_case(metric: &str, seed: u64) -> (String, String) {
    let mut next = rng(seed);
    let n = 4 + next(30) as usize;
    let mut u = move |steps: u64| next(steps + 1) as f64 / steps as f64;
    let (mut sol, mut sub) = (String::new(), String::new());
    let row = |sol: &mut String, sub: &mut String, i: usize, t: &[String], p: &[String]| {
        *sol += &format!("r{i},{}\n", t.join(","));
        *sub += &format!("r{i},{}\n", p.join(","));
    };
    let f = |x: f64| format!("{x}");
    match metric {
        "kl_divergence" => {
            sol += "id,a,b,c\n";
            sub += "id,a,b,c\n";
            for i in 0..n {
                let (x, y) = (u(4) * 0.5, u(4) * 0.5);
                let (p, q) = (u(10) * 0.6, u(10) * 0.3);
                row(
                    &mut sol,
                    &mut sub,
                    i,
                    &[f(x), f(y), f(1.0 - x - y)],
                    &[f(p), f(q), f(1.0 - p - q)],
                );
            }
        }
        "weighted_log_loss" | "lwlrap" => {
            sol += "id,a,b,c,d\n";
            sub += "id,a,b,c,d\n";
            for i in 0..n {
                let t: Vec<String> = (0..4).map(|_| f(u(1))).collect();
                let p: Vec<String> = (0..4).map(|_| f(u(8))).collect(); // ties
                row(&mut sol, &mut sub, i, &t, &p);
            }
        }
        "pfbeta" | "weighted_auc" => {
            sol += "id,target\n";
            sub += "id,target\n";
            for i in 0..n {
                let t = u(1);
                let p = if metric == "pfbeta" {
                    u(12) * 1.2 - 0.1
                } else {
                    u(10)
                };
                row(&mut sol, &mut sub, i, &[f(t)], &[f(p)]);
            }
        }
        "haversine" => {
            sol += "id,phone,latDeg,lngDeg\n";
            sub += "id,latDeg,lngDeg\n";
            for i in 0..n {
                let phone = ["P1", "P2", "P3"][(u(2) * 2.0) as usize];
                let (lat, lng) = (37.0 + u(100), -122.0 + u(100));
                sol += &format!("r{i},{phone},{lat},{lng}\n");
                sub += &format!("r{i},{},{}\n", lat + u(10) * 1e-3, lng - u(10) * 1e-3);
            }
        }
        "angular_error" => {
            sol += "id,azimuth,zenith\n";
            sub += "id,azimuth,zenith\n";
            for i in 0..n {
                row(
                    &mut sol,
                    &mut sub,
                    i,
                    &[f(u(60) * 6.0), f(u(30) * 3.0)],
                    &[f(u(60) * 6.0), f(u(30) * 3.0)],
                );
            }
        }
        _ => {
            sol += "id,FVC\n";
            sub += "id,FVC,Confidence\n";
            for i in 0..n {
                let v = 1500.0 + (u(100) * 2000.0).round();
                sol += &format!("r{i},{v}\n");
                sub += &format!(
                    "r{i},{},{}\n",
                    v + (u(40) * 800.0 - 400.0).round(),
                    50.0 + (u(10) * 300.0).round()
                );
            }
        }
    }
    (sol, sub)
}

const METRICS: [&str; 8] = [
    "kl_divergence",
    "weighted_log_loss",
    "lwlrap",
    "pfbeta",
    "weighted_auc",
    "haversine",
    "angular_error",
    "laplace_log_likelihood",
];

/// The metric's replicates for `seeds` and hand-made weights against the repeated files; `false` when the
/// metric is undefined on the case (no units to check).
fn check(metric: &str, sol: &str, sub: &str, seeds: &[u128]) -> usize {
    let set = [("metric", metric)];
    let r = score(sol, sub, &[("metric", metric), ("bootstrap", "1")]);
    assert!(!r.has_errors(), "{metric}: {:?}", codes(&r));
    if r.scores.get(metric).is_none() {
        return 0;
    }
    let units = r.units.0.as_deref().expect("units");
    assert_eq!(units.unit, "row");
    assert!(
        units.no_interval.is_empty(),
        "{metric}: {:?}",
        units.no_interval
    );
    assert_eq!(units.replicate.metrics(), vec![metric.to_string()]);
    let n = units.count();
    let mut all = draw_weights(seeds, &[n]);
    all.push((0..n).map(|i| (i % 3) as u32).collect());
    let mut checked = 0;
    for w in all {
        let weight = |id: &str| w[units.ids.iter().position(|u| u == id).unwrap()];
        let full = score(&repeat_csv(sol, &weight), &repeat_csv(sub, &weight), &set);
        if full.has_errors() {
            continue; // e.g. weighted_auc with one class left: the published code raises
        }
        let v = units.replicate.values(&w)[0];
        assert!(
            close(v, full.scores.get(metric)),
            "{metric}: replicate {v:?}, repeated files {:?} (weights {w:?})\n{sol}\n{sub}",
            full.scores.get(metric)
        );
        checked += 1;
    }
    checked
}

#[test]
fn replicates_equal_the_repeated_files() {
    for metric in METRICS {
        let mut checked = 0;
        for seed in 1..=40u64 {
            let (sol, sub) = random_case(metric, seed * 31 + metric.len() as u64);
            checked += check(metric, &sol, &sub, &[seed as u128, 100 + seed as u128]);
        }
        assert!(checked >= 80, "{metric}: {checked}");
    }
}

/// The report's interval (B = 30, seed 5) equals the percentile interval of the repeated files' scores.
#[test]
fn intervals_in_the_report_are_those_of_the_repeated_files() {
    for metric in ["lwlrap", "haversine", "weighted_auc"] {
        let (sol, sub) = random_case(metric, 4242);
        let set = [("metric", metric)];
        let r = score(
            &sol,
            &sub,
            &[("metric", metric), ("bootstrap", "30"), ("seed", "5")],
        );
        let units = r.units.0.as_deref().expect("units");
        let n = units.count();
        let column = replicate_column(5, &[n], 30, |w| {
            let weight = |id: &str| w[units.ids.iter().position(|u| u == id).unwrap()];
            score(&repeat_csv(&sol, &weight), &repeat_csv(&sub, &weight), &set)
                .scores
                .get(metric)
        });
        let want = interval(&column, 0.95);
        let got = &r
            .intervals
            .0
            .iter()
            .find(|(m, _)| m == metric)
            .expect("interval")
            .1;
        assert!(
            close(got.low, want.low) && close(got.high, want.high),
            "{metric}: {got:?} {want:?}"
        );
        assert_eq!(got.left_out, want.left_out as u64, "{metric}");
    }
}

/// Random PredictionString boxes: 0 to 3 GT boxes per image (classes 0 and 1), detections near them with tied
/// confidences, spurious ones, now and then a wrong class.
fn random_boxes(seed: u64) -> (String, String) {
    let mut next = rng(seed);
    let n = 4 + next(12) as usize;
    let (mut sol, mut sub) = (
        String::from("image_id,PredictionString\n"),
        String::from("image_id,PredictionString\n"),
    );
    for i in 0..n {
        let (mut g, mut d) = (Vec::new(), Vec::new());
        for _ in 0..next(4) {
            let (c, x, y, w, h) = (
                next(2),
                10 * next(8),
                10 * next(8),
                10 + 10 * next(3),
                10 + 10 * next(3),
            );
            g.push(format!("{c} {x} {y} {w} {h}"));
            if next(10) < 7 {
                let c = if next(8) == 0 { 1 - c } else { c };
                let conf = (1 + next(5)) as f64 / 5.0;
                d.push(format!(
                    "{c} {conf} {} {} {w} {h}",
                    x + next(4),
                    y + next(4)
                ));
            }
        }
        if next(3) == 0 {
            d.push(format!(
                "{} 0.4 {} {} 15 15",
                next(2),
                10 * next(8),
                10 * next(8)
            ));
        }
        sol += &format!("r{i},{}\n", g.join(" "));
        sub += &format!("r{i},{}\n", d.join(" "));
    }
    (sol, sub)
}

#[test]
fn box_replicates_equal_the_repeated_files() {
    let mut checked = 0;
    for seed in 1..=40u64 {
        let (sol, mut sub) = random_boxes(seed);
        if seed % 2 == 0 {
            // The submission's rows in another order than the solution's (VOC breaks ties in its order).
            let mut lines: Vec<&str> = sub.lines().collect();
            lines[1..].reverse();
            sub = lines.join("\n") + "\n";
        }
        let iou = ["0.5", "0.3", "0.75"][seed as usize % 3];
        let set = [("metric", "box_ap"), ("iou", iou)];
        let r = score(&sol, &sub, &[set[0], set[1], ("bootstrap", "1")]);
        assert!(!r.has_errors(), "{:?}", codes(&r));
        let units = r.units.0.as_deref().expect("units");
        let metrics = units.replicate.metrics();
        assert!(units.no_interval.is_empty(), "{:?}", units.no_interval);
        for (m, v) in r.scores.iter().filter(|(_, v)| v.is_some()) {
            assert!(metrics.iter().any(|x| x == m), "{m} ({v:?})");
        }
        let n = units.count();
        let mut all = draw_weights(&[seed as u128, 300 + seed as u128], &[n]);
        all.push((0..n).map(|i| (i % 3) as u32).collect());
        for w in all {
            let weight = |id: &str| w[units.ids.iter().position(|u| u == id).unwrap()];
            let full = score(&repeat_csv(&sol, &weight), &repeat_csv(&sub, &weight), &set);
            for (m, v) in metrics.iter().zip(units.replicate.values(&w)) {
                // VOC AP: the same operations in the same order, so bit-identical.
                let exact = m != "voc_ap" || v == full.scores.get(m);
                assert!(
                    exact && close(v, full.scores.get(m)),
                    "{m}: replicate {v:?}, repeated files {:?} (weights {w:?})\n{sol}\n{sub}",
                    full.scores.get(m)
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 500, "{checked}");
}
