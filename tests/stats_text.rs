//! `text`'s bootstrap replicates (docs/specs/statistics.md section 1): replicate r equals, to 1e-12 relative,
//! the protocol's own score of every metric on the files in which every item appears as many times as drawn
//! (ids made unique, the copies adjacent in item order), written out and scored from scratch: jiwer's corpus
//! rates, the means, SQuAD's totals, sacreBLEU's BLEU, chrF, chrF++ and TER, ROUGE. Intervals in the report
//! equal NumPy's percentile interval of the repeated sets' scores.

mod common;
use common::*;
use dropscore::input::Role;
use dropscore::stats::{percentile_interval, std_ddof1, Resampler};
use dropscore::{Mode, Report};
use serde_json::{json, Map, Value};
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn score(gt: &Value, pred: &Value, set: &[(&str, &str)]) -> Report {
    score_inputs(
        "text",
        vec![
            bytes_input("gt.json", Some(Role::Gt), gt.to_string().into_bytes()),
            bytes_input("pred.json", Some(Role::Pred), pred.to_string().into_bytes()),
        ],
        Mode::Official,
        set,
    )
}

/// Each item `id` with weight `k` as k copies `id~0`, `id~1`, … in place, in the GT's order: a `{id: text}`
/// object (the `json` layout), or SQuAD's dataset (its questions copied inside their paragraph).
fn repeated(gt: &Value, pred: &Value, weight: &dyn Fn(&str) -> u32) -> (Value, Value) {
    let mut p = Map::new();
    let mut copy = |id: &str| -> Vec<String> {
        let ids: Vec<String> = (0..weight(id)).map(|c| format!("{id}~{c}")).collect();
        for new in &ids {
            p.insert(new.clone(), pred[id].clone());
        }
        ids
    };
    let g = if let Some(data) = gt.get("data") {
        let mut g = gt.clone();
        let mut articles = Vec::new();
        for a in data.as_array().unwrap() {
            let mut a = a.clone();
            for par in a["paragraphs"].as_array_mut().unwrap() {
                let mut qas = Vec::new();
                for q in par["qas"].as_array().unwrap() {
                    for new in copy(q["id"].as_str().unwrap()) {
                        let mut q = q.clone();
                        q["id"] = json!(new);
                        qas.push(q);
                    }
                }
                par["qas"] = json!(qas);
            }
            articles.push(a);
        }
        g["data"] = json!(articles);
        g
    } else {
        let mut g = Map::new();
        for (id, text) in gt.as_object().unwrap() {
            for new in copy(id) {
                g.insert(new, text.clone());
            }
        }
        Value::Object(g)
    };
    (g, Value::Object(p))
}

fn weights(n: usize, seed: u128) -> Vec<u32> {
    let mut draws = Resampler::new(seed, &[n], 1);
    let mut w = vec![0u32; n];
    assert!(draws.next_weights(&mut w));
    w
}

/// Every metric of `scores` with a value has a replicate; the replicates of `seeds` (and hand-made weights)
/// equal the repeated sets' scores. Returns the metric ids checked.
fn check(gt: &Value, pred: &Value, seeds: &[u128], set: &[(&str, &str)]) -> Vec<String> {
    let mut with = set.to_vec();
    with.push(("bootstrap", "1"));
    let r = score(gt, pred, &with);
    let units = r.units.0.as_deref().expect("text declares units");
    assert_eq!(units.unit, "item");
    let n = units.count();
    let metrics = units.replicate.metrics();
    let defined: Vec<&str> = r
        .scores
        .iter()
        .filter(|(_, v)| v.is_some())
        .map(|(k, _)| k)
        .collect();
    assert_eq!(metrics, defined, "every defined metric has a replicate");
    for (m, v) in metrics.iter().zip(units.replicate.values(&vec![1; n])) {
        assert!(close(v, r.scores.get(m)), "{m} on the full set");
    }
    let mut all: Vec<Vec<u32>> = seeds.iter().map(|&s| weights(n, s)).collect();
    all.push((0..n).map(|i| (i % 3) as u32).collect());
    for w in all {
        if w.iter().all(|&k| k == 0) {
            continue;
        }
        let values = units.replicate.values(&w);
        let weight = |id: &str| w[units.ids.iter().position(|u| u == id).unwrap()];
        let (g2, p2) = repeated(gt, pred, &weight);
        let full = score(&g2, &p2, set);
        for (m, v) in metrics.iter().zip(&values) {
            assert!(
                close(*v, full.scores.get(m)),
                "{m}: replicate {v:?}, repeated set {:?} (weights {w:?})",
                full.scores.get(m)
            );
        }
    }
    metrics
}

fn example(name: &str) -> Value {
    let p = root().join("www/examples/text").join(name);
    serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
}

/// Random single-reference lines: a small vocabulary (many shared n-grams), punctuation, empty lines.
fn random_case(seed: u64) -> (Value, Value) {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = |m: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % m
    };
    let vocab = [
        "the", "cat", "sat", "on", "mat", "a", "dog", "ran,", "été", "Big", "big.", "x",
    ];
    let n = 3 + next(12) as usize;
    let (mut g, mut p) = (Map::new(), Map::new());
    for i in 0..n {
        let line = |next: &mut dyn FnMut(u64) -> u64, len: u64| -> String {
            let k = next(len);
            (0..k)
                .map(|_| vocab[next(vocab.len() as u64) as usize])
                .collect::<Vec<_>>()
                .join(" ")
        };
        let r = line(&mut next, 9);
        let h = if next(3) == 0 {
            r.clone()
        } else {
            line(&mut next, 9)
        };
        // At least one word on one side: Kaggle's jaccard is undefined on two empty lines.
        let r = if r.is_empty() && h.is_empty() {
            "x".to_string()
        } else {
            r
        };
        g.insert(format!("l{i:02}"), json!(r));
        p.insert(format!("l{i:02}"), json!(h));
    }
    (Value::Object(g), Value::Object(p))
}

#[test]
fn replicates_equal_repeated_random_sets() {
    for case in 1..=12u64 {
        let (gt, pred) = random_case(case);
        let checked = check(&gt, &pred, &[case as u128, 100 + case as u128], &[]);
        for m in [
            "cer", "wer", "mer", "wil", "wip", "cer_mean", "wer_mean", "ned", "anls",
        ] {
            assert!(checked.iter().any(|c| c == m), "{m} checked");
        }
        for m in [
            "bleu",
            "chrf",
            "chrf++",
            "ter",
            "rouge1",
            "rougeLsum",
            "jaccard",
            "f1",
        ] {
            assert!(checked.iter().any(|c| c == m), "{m} checked");
        }
    }
}

#[test]
fn replicates_equal_the_repeated_examples() {
    // Several references per segment: BLEU's clipped counts and closest length, chrF's best reference, TER's
    // mean reference length, ANLS and SQuAD F1 over references.
    let checked = check(
        &example("translation/refs.json"),
        &example("translation/hyps.json"),
        &[0, 1, 2, 3],
        &[("metric", "bleu")],
    );
    assert!(checked.iter().any(|m| m == "bleu") && checked.iter().any(|m| m == "ter"));
    check(
        &example("docvqa/gt.json"),
        &example("docvqa/pred.json"),
        &[0, 5],
        &[("metric", "anls")],
    );
    // SQuAD v2.0's totals, HasAns_* and NoAns_* over the drawn questions of each kind.
    let checked = check(
        &example("squad/gt.json"),
        &example("squad/pred.json"),
        &[0, 1, 2, 3, 4, 5],
        &[("metric", "f1")],
    );
    assert!(checked.iter().any(|m| m == "NoAns_f1"));
}

const REFS: &str = "www/examples/text/translation/refs.json";
const HYPS: &str = "www/examples/text/translation/hyps.json";

/// The CLI's intervals at seed 7, B = 200: NumPy's percentile interval and standard error of the 200
/// repeated sets' scores (each scored from its files).
#[test]
fn intervals_in_the_report_are_those_of_the_repeated_sets() {
    let args = [
        "text",
        "--gt",
        REFS,
        "--pred",
        HYPS,
        "--set",
        "metric=bleu",
        "--set",
        "bootstrap=200",
        "--set",
        "seed=7",
    ];
    let r = cli_json(&root(), &args).0;
    assert_eq!(
        r["statistics"],
        json!({"unit": "item", "strata": null, "bootstrap": 200, "seed": 7, "confidence": 0.95})
    );
    let (gt, pred) = (
        example("translation/refs.json"),
        example("translation/hyps.json"),
    );
    let ids: Vec<String> = gt.as_object().unwrap().keys().cloned().collect();
    let mut draws = Resampler::new(7, &[ids.len()], 200);
    let mut w = vec![0u32; ids.len()];
    let metrics = ["bleu", "chrf", "chrf++", "ter", "anls", "rougeL"];
    let mut values: Vec<Vec<f64>> = vec![Vec::new(); metrics.len()];
    while draws.next_weights(&mut w) {
        let weight = |id: &str| w[ids.iter().position(|u| u == id).unwrap()];
        let (g, p) = repeated(&gt, &pred, &weight);
        let s = score(&g, &p, &[("metric", "bleu")]);
        for (m, v) in metrics.iter().zip(&mut values) {
            v.push(s.scores.get(m).unwrap());
        }
    }
    for (m, v) in metrics.iter().zip(&values) {
        let iv = &r["intervals"][m];
        let (low, high) = percentile_interval(v, 0.95).unwrap();
        assert!(close(iv["low"].as_f64(), Some(low)), "{m}: {iv} vs {low}");
        assert!(
            close(iv["high"].as_f64(), Some(high)),
            "{m}: {iv} vs {high}"
        );
        assert!(close(iv["se"].as_f64(), std_ddof1(v)), "{m}: {iv}");
        assert_eq!(iv["left_out"], 0);
    }
    // Deterministic: the same seed gives the same report; another seed other intervals.
    assert_eq!(cli_json(&root(), &args).0, r);
    let mut other = args.to_vec();
    other[10] = "seed=8";
    assert_ne!(cli_json(&root(), &other).0["intervals"], r["intervals"]);
    // Without `bootstrap`, no statistics and no intervals.
    let plain = cli_json(&root(), &args[..7]).0;
    assert!(plain.get("statistics").is_none() || plain["statistics"].is_null());
}

/// `dropscore compare text` on one submission against itself: Δ 0, a zero-width interval.
#[test]
fn compare_text_against_itself() {
    let c = &cli_json(
        &root(),
        &[
            "compare",
            "text",
            "--gt",
            REFS,
            "--pred",
            HYPS,
            "--vs",
            HYPS,
            "--set",
            "bootstrap=50",
            "--set",
            "metric=chrf",
        ],
    )
    .0["compare"];
    assert_eq!(c["metric"], "chrf", "{c}");
    assert_eq!(c["delta"], 0.0, "{c}");
    assert_eq!(
        (c["low"].as_f64(), c["high"].as_f64()),
        (Some(0.0), Some(0.0))
    );
}

#[test]
fn statistics_off_keeps_no_units() {
    let r = score(
        &example("translation/refs.json"),
        &example("translation/hyps.json"),
        &[],
    );
    assert!(r.units.0.is_none());
}
