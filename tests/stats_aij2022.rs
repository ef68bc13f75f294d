//! `aij2022`'s bootstrap replicates (docs/specs/statistics.md section 1): one unit per id, strata = task. A
//! replicate of a task that is a mean over ids equals, to 1e-12 relative, the protocol's score of the files in
//! which every drawn id appears as many times as drawn (ids made unique, the copies adjacent); FID and CLIP and
//! the scores computed from them have no interval, with the reason "not a mean over ids".

mod common;
use common::*;
use dropscore::input::Role;
use dropscore::stats::Resampler;
use dropscore::{Mode, Report};
use serde_json::{Map, Value};

const D: &str = "aij2022";

fn read(name: &str) -> Value {
    serde_json::from_slice(&std::fs::read(data(&format!("{D}/{name}"))).unwrap()).unwrap()
}

/// Scores the tasks `files` ((task file prefix, GT, prediction)) with the lemma table.
fn score(files: &[(&str, Value, Value)], set: &[(&str, &str)]) -> Report {
    let mut inputs = vec![input(&format!("{D}/lemmas.tsv"), Some(Role::Gt))];
    for (prefix, gt, pred) in files {
        inputs.push(bytes_input(
            &format!("{prefix}_gt.json"),
            Some(Role::Gt),
            gt.to_string().into_bytes(),
        ));
        inputs.push(bytes_input(
            &format!("{prefix}_pred.json"),
            Some(Role::Pred),
            pred.to_string().into_bytes(),
        ));
    }
    let mut with = vec![("lemma_table", "lemmas.tsv")];
    with.extend_from_slice(set);
    score_inputs("aij2022", inputs, Mode::Official, &with)
}

/// Each id `k = weight(id)` times as `id~0`, `id~1`, … in place.
fn repeat(doc: &Value, weight: &dyn Fn(&str) -> u32) -> Value {
    let mut out = Map::new();
    for (id, v) in doc.as_object().unwrap() {
        for c in 0..weight(id) {
            out.insert(format!("{id}~{c}"), v.clone());
        }
    }
    Value::Object(out)
}

const TASKS: [(&str, &str); 4] = [
    ("mathqa", "mathqa"),
    ("textqa", "textqa"),
    ("text_recognition", "titw"),
    ("vqa", "vqa"),
];

fn fixtures() -> Vec<(&'static str, Value, Value)> {
    TASKS
        .iter()
        .map(|(p, _)| {
            (
                *p,
                read(&format!("{p}_gt.json")),
                read(&format!("{p}_pred.json")),
            )
        })
        .collect()
}

#[test]
fn task_replicates_equal_the_repeated_files() {
    let files = fixtures();
    let r = score(&files, &[("bootstrap", "1")]);
    let units = r.units.0.as_deref().expect("aij2022 declares units");
    assert_eq!((units.unit, units.strata), ("id", Some("task")));
    let n = units.count();
    assert_eq!(units.sizes.len(), 4, "{:?}", units.sizes);
    let metrics = units.replicate.metrics();
    for (_, task) in TASKS {
        if r.scores.get(task).is_some() && !units.no_interval.iter().any(|(m, _)| m == task) {
            assert!(metrics.iter().any(|m| m == task), "{task} has a replicate");
        }
    }
    assert!(metrics.len() >= 3, "{metrics:?} {:?}", units.no_interval);
    for seed in [0u128, 1, 2, 7] {
        let mut d = Resampler::new(seed, &units.sizes, 1);
        let mut w = vec![0u32; n];
        assert!(d.next_weights(&mut w));
        let values = units.replicate.values(&w);
        let weight_of = |task: &str, id: &str| {
            let u = format!("{task}/{id}");
            w[units.ids.iter().position(|x| *x == u).unwrap()]
        };
        let repeated: Vec<(&str, Value, Value)> = files
            .iter()
            .zip(TASKS)
            .map(|((p, g, q), (_, task))| {
                let f = |id: &str| weight_of(task, id);
                (*p, repeat(g, &f), repeat(q, &f))
            })
            .collect();
        let full = score(&repeated, &[]);
        for (m, v) in metrics.iter().zip(&values) {
            assert!(
                close(*v, full.scores.get(m)),
                "{m}: replicate {v:?}, repeated files {:?} (seed {seed})",
                full.scores.get(m)
            );
        }
    }
}

#[test]
fn intervals_in_the_report_and_no_interval_reasons() {
    let files = fixtures();
    let set = [("bootstrap", "200"), ("seed", "4")];
    let r = score(&files, &set);
    let s = r.statistics.as_ref().unwrap();
    assert_eq!(
        (s.unit.as_str(), s.strata.as_deref(), s.bootstrap),
        ("id", Some("task"), 200)
    );
    let mathqa = &r.intervals.0.iter().find(|(m, _)| m == "mathqa").unwrap().1;
    let v = r.scores.get("mathqa").unwrap();
    assert!(mathqa.low.unwrap() <= v && v <= mathqa.high.unwrap());
    assert_eq!(score(&files, &set).intervals, r.intervals);
    assert!(score(&files, &[]).units.0.is_none());
    // FID: no interval, with the reason.
    let fid = score_inputs(
        "aij2022",
        vec![
            input(&format!("{D}/fid_A_gt_stats.npz"), Some(Role::Gt)),
            input(
                &format!("{D}/fid_A_pred_stats_uncompressed.npz"),
                Some(Role::Pred),
            ),
        ],
        Mode::Official,
        &set,
    );
    for (m, iv) in &fid.intervals.0 {
        assert!(m.starts_with("generation"), "{m}");
        assert_eq!(iv.reason.as_deref(), Some("not a mean over ids"), "{m}");
    }
}
