//! Pre-flight check of `classification` with the manifest made from a Kaggle `sample_submission.csv` (docs/kaggle.md):
//! the sample holds the solution's ids and a placeholder value, so the manifest takes the classes from its shape
//! (a binary score column: 0 and 1; one column per class: the columns' names). `check` against that manifest must
//! say what official scoring against the real solution says: ready exactly when scoring has no error, with the same
//! located errors (a missing id at its solution line, named by the sample's file).

mod common;
mod preflight_common;
use common::cli;
use dropscore::input::Role;
use dropscore::protocols::preflight;
use preflight_common::{errors, file_set, manifest, score, File, Located, Rng};

/// The located errors ([`errors`]), the sample's name read as the solution's, sorted.
fn located(diags: &[dropscore::diag::Diagnostic]) -> Vec<Located> {
    let mut v = errors(diags);
    for (_, file, _, _) in &mut v {
        if let Some(f) = file {
            *f = f.replace("sample_submission.csv", "solution.csv");
        }
    }
    v.sort();
    v
}

/// A solution, its sample submission and a submission, for `classes` (empty: binary 0/1 labels with one score column).
fn case(rng: &mut Rng, classes: &[&str]) -> (File, File, Vec<String>) {
    let n = 3 + rng.below(25);
    let binary = classes.is_empty();
    let names: Vec<&str> = if binary {
        vec!["target"]
    } else {
        classes.to_vec()
    };
    let mut solution = String::from(if binary {
        "id,target,Usage\n"
    } else {
        "id,label,Usage\n"
    });
    let mut sample = format!("id,{}\n", names.join(","));
    let placeholder = if rng.chance(50) { "0.5" } else { "0" };
    let mut rows = vec![sample.trim_end().to_string()];
    for i in 0..n {
        let label = if binary {
            (i % 2).to_string()
        } else {
            classes[i % classes.len()].to_string()
        };
        let usage = if rng.chance(40) { "Public" } else { "Private" };
        solution.push_str(&format!("{i},{label},{usage}\n"));
        let uniform = if binary {
            placeholder.to_string()
        } else {
            format!("{:.4}", 1.0 / classes.len() as f64)
        };
        sample.push_str(&format!("{i},{}\n", vec![uniform; names.len()].join(",")));
        let scores: Vec<String> = if binary {
            vec![format!("{:.4}", rng.unit())]
        } else {
            let raw: Vec<f64> = names.iter().map(|_| 0.05 + rng.unit()).collect();
            let sum: f64 = raw.iter().sum();
            raw.iter().map(|x| format!("{}", x / sum)).collect()
        };
        rows.push(format!("{i},{}", scores.join(",")));
    }
    if rng.chance(50) {
        rows[1..].reverse();
    }
    (
        ("solution.csv".into(), solution.into_bytes()),
        ("sample_submission.csv".into(), sample.into_bytes()),
        rows,
    )
}

/// What is done to a submission's rows: nothing, or one of the mistakes participants make.
fn corrupt(rows: &mut Vec<String>, kind: usize, rng: &mut Rng) -> &'static str {
    let l = 1 + rng.below(rows.len() - 1);
    let width = rows[0].split(',').count();
    match kind {
        1 => {
            rows.remove(l);
            "missing id"
        }
        2 => {
            rows.push(format!("nobody{}", ",0.5".repeat(width - 1)));
            "unknown id"
        }
        3 => {
            let dup = rows[l].clone();
            rows.push(dup);
            "duplicate id"
        }
        4 => {
            let id = rows[l].split(',').next().unwrap_or_default().to_string();
            rows[l] = format!("{id}{}", ",abc".repeat(width - 1));
            "not a number"
        }
        _ => "valid",
    }
}

fn agreement(seed: u64, classes: &[&str], metric: &str) {
    let mut rng = Rng::new(seed);
    let mut ready = 0;
    for n in 0..60 {
        let (solution, sample, mut rows) = case(&mut rng, classes);
        let what = corrupt(&mut rows, n % 5, &mut rng);
        let pred: Vec<File> = vec![(
            "submission.csv".into(),
            (rows.join("\n") + "\n").into_bytes(),
        )];
        let set = [("metric", metric)];
        let text = manifest("classification", &[sample], &set);
        let checked = preflight::check("classification", &text, &file_set(&pred, Role::Pred), &[])
            .expect("usage");
        let report = score("classification", &[solution], &pred, &set);
        let case = format!("seed {seed} case {n} ({what}, {metric})");
        assert_eq!(
            checked.ready,
            !report.has_errors(),
            "{case}: {}\n{:#?}",
            checked.to_text(),
            report.diagnostics
        );
        assert_eq!(
            located(&checked.report.diagnostics),
            located(&report.diagnostics),
            "{case}: {}",
            checked.to_text()
        );
        assert_eq!(
            checked.ready,
            what == "valid",
            "{case}: {}",
            checked.to_text()
        );
        ready += usize::from(checked.ready);
    }
    assert!(ready >= 10, "only {ready} valid cases");
}

#[test]
fn a_binary_sample_gives_classes_0_and_1() {
    agreement(1, &[], "roc_auc");
    agreement(2, &[], "log_loss");
}

#[test]
fn a_sample_with_one_column_per_class_gives_those_classes() {
    agreement(3, &["cat", "dog", "fox"], "log_loss");
    agreement(4, &["a", "b"], "accuracy");
}

#[test]
fn the_manifest_records_the_classes_and_says_how_it_read_the_sample() {
    let sample: File = (
        "sample_submission.csv".into(),
        b"id,cat,dog\n1,0.5,0.5\n2,0.5,0.5\n".to_vec(),
    );
    let made =
        preflight::manifest("classification", &file_set(&[sample], Role::Gt), &[]).expect("usage");
    let m: serde_json::Value =
        serde_json::from_str(made.manifest.as_deref().expect("a manifest")).expect("json");
    assert_eq!(m["expects"]["classes"], serde_json::json!(["cat", "dog"]));
    assert_eq!(m["expects"]["header"], serde_json::json!(["id", "label"]));
    assert_eq!(m["expects"]["ids"], serde_json::json!(["1", "2"]));
    let info: Vec<&str> = made.diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(info, ["classification.sample_submission"]);
    // A sample of hard labels keeps its class, and is not called a sample.
    let labels: File = (
        "sample_submission.csv".into(),
        b"id,label\n1,cat\n2,cat\n".to_vec(),
    );
    let made =
        preflight::manifest("classification", &file_set(&[labels], Role::Gt), &[]).expect("usage");
    let m: serde_json::Value =
        serde_json::from_str(made.manifest.as_deref().expect("a manifest")).expect("json");
    assert_eq!(m["expects"]["classes"], serde_json::json!(["cat"]));
    assert!(made.diagnostics.is_empty(), "{:?}", made.diagnostics);
    // A sample with a repeated id is refused, located at the repeat.
    let broken: File = (
        "sample_submission.csv".into(),
        b"id,cat,dog\n1,0.5,0.5\n1,0.5,0.5\n".to_vec(),
    );
    let made =
        preflight::manifest("classification", &file_set(&[broken], Role::Gt), &[]).expect("usage");
    assert!(made.manifest.is_none());
    let errors: Vec<_> = made
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| (d.code.as_str(), d.line))
        .collect();
    assert_eq!(errors, [("classification.duplicate_id", Some(3))]);
}

/// Every Kaggle example (examples/kaggle/*/) as its organizer would publish it: the manifest made from the
/// sample submission with the example's config, and its submission checked against it, ready as scoring it
/// against the solution is (per-group and column-wise metrics, RLE masks, MAP@k, PredictionString, …).
#[test]
fn every_kaggle_example_checks_against_its_sample_submission() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/kaggle");
    let mut seen = 0;
    for dir in std::fs::read_dir(&root).unwrap() {
        let dir = dir.unwrap().path();
        if !dir.join("sample_submission.csv").exists() {
            continue;
        }
        let manifest = std::env::temp_dir().join(format!(
            "dropscore-sample-{}.json",
            seen + 100 * std::process::id() as usize
        ));
        let m = manifest.to_str().unwrap();
        let (code, _, err) = cli::run_in(
            &dir,
            &[
                "manifest",
                "--config",
                "dropscore.toml",
                "--gt",
                "sample_submission.csv",
                "--out",
                m,
            ],
        );
        assert_eq!(code, 0, "{}: {err}", dir.display());
        let text = std::fs::read_to_string(&manifest).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let protocol = v["protocol"].as_str().unwrap().to_string();
        let (checked, _, err) = cli::run_in(
            &dir,
            &[
                "check",
                &protocol,
                "--manifest",
                m,
                "--pred",
                "submission.csv",
            ],
        );
        let (scored, _, serr) = cli::run_in(
            &dir,
            &[
                &protocol,
                "--config",
                "dropscore.toml",
                "--gt",
                "solution.csv",
                "--pred",
                "submission.csv",
                "-q",
            ],
        );
        assert_eq!(
            (checked, scored),
            (0, 0),
            "{}: check: {err}\nscoring: {serr}",
            dir.display()
        );
        let _ = std::fs::remove_file(&manifest);
        seen += 1;
    }
    assert!(seen >= 8, "{seen} examples with a sample submission");
}
