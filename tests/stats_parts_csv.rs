//! Public and private parts of the `kaggle` and `text` protocols (docs/specs/statistics.md section 4): the
//! ground truth's `Usage` column, as Kaggle's solution files give it, splits the rows; each part's scores equal
//! the metric on that part's rows written as separate files (for `kaggle` with ids matched as pandas reads
//! them), and the manifest never records a row's part.

mod common;
use common::cli::cli_json;
use serde_json::Value;
use std::path::PathBuf;

fn fresh(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dropscore-csvparts-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// 48 customers: purchased and predicted article lists from a fixed generator, a usage cycling through
/// Public, Private, PRIVATE and Ignored, and the solution's ids zero-padded (`0007`) where the submission's
/// are not (`7`): pandas reads both as the integer 7.
fn write(dir: &std::path::Path) {
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = |m: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % m
    };
    let usages = ["Public", "Private", "PRIVATE", "Ignored"];
    let mut files = [
        ("solution", String::from("customer_id,articles,Usage\n")),
        ("submission", String::from("customer_id,articles\n")),
    ];
    let mut alone: Vec<(String, String, String)> = ["whole", "public", "private"]
        .iter()
        .map(|p| {
            (
                p.to_string(),
                "customer_id,articles\n".to_string(),
                "customer_id,articles\n".to_string(),
            )
        })
        .collect();
    for id in 1..=48u64 {
        let list = |n: u64, next: &mut dyn FnMut(u64) -> u64| {
            (0..n)
                .map(|_| next(9).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let (actual, predicted) = (list(1 + next(3), &mut next), list(1 + next(5), &mut next));
        let usage = usages[id as usize % 4];
        files[0].1 += &format!("{id:04},{actual},{usage}\n");
        files[1].1 += &format!("{id},{predicted}\n");
        for (part, gt, sub) in alone.iter_mut() {
            let lower = usage.to_ascii_lowercase();
            if (part == "whole" && lower != "ignored") || *part == lower {
                *gt += &format!("{id},{actual}\n");
                *sub += &format!("{id},{predicted}\n");
            }
        }
    }
    for (name, text) in files {
        std::fs::write(dir.join(format!("{name}.csv")), text).unwrap();
    }
    for (part, gt, sub) in alone {
        std::fs::write(dir.join(format!("gt_{part}.csv")), gt).unwrap();
        std::fs::write(dir.join(format!("sub_{part}.csv")), sub).unwrap();
    }
}

fn report(dir: &std::path::Path, gt: &str, sub: &str, set: &[&str]) -> Value {
    let mut args = vec![
        "kaggle",
        "--gt",
        gt,
        "--pred",
        sub,
        "--set",
        "metric=map",
        "--set",
        "k=5",
    ];
    for s in set {
        args.extend(["--set", s]);
    }
    cli_json(dir, &args).0
}

#[test]
fn kaggle_usage_column_parts_equal_the_parts_scored_as_separate_files() {
    let dir = fresh("map");
    write(&dir);
    let r = report(&dir, "solution.csv", "submission.csv", &[]);
    assert_eq!(
        r["diagnostics"].as_array().unwrap().len(),
        0,
        "{}",
        r["diagnostics"]
    );
    let alone = |part: &str| {
        report(
            &dir,
            &format!("gt_{part}.csv"),
            &format!("sub_{part}.csv"),
            &[],
        )
    };
    let whole = alone("whole");
    assert!(whole["scores"]["map"].as_f64().unwrap() > 0.0);
    assert_eq!(r["scores"], whole["scores"]);
    assert_eq!(
        r["items"].as_array().unwrap().len(),
        36,
        "the Ignored rows are in no part"
    );
    for part in ["public", "private"] {
        let own = alone(part);
        assert_eq!(r["parts"][part], own["scores"], "{part}");
        let shown = report(
            &dir,
            "solution.csv",
            "submission.csv",
            &[&format!("part={part}")],
        );
        assert_eq!(shown["scores"], own["scores"], "part={part}");
        assert_eq!(shown["parts"].as_object().unwrap().len(), 1, "part={part}");
        // The interval is drawn over the part's rows only.
        let b = report(
            &dir,
            "solution.csv",
            "submission.csv",
            &[&format!("part={part}"), "bootstrap=50"],
        );
        let b_own = report(
            &dir,
            &format!("gt_{part}.csv"),
            &format!("sub_{part}.csv"),
            &["bootstrap=50"],
        );
        assert_eq!(b["intervals"], b_own["intervals"], "part={part}");
    }
    // The manifest made from the solution lists every row's id and never a part.
    let (code, _, err) = common::cli::run_in(
        &dir,
        &[
            "manifest",
            "kaggle",
            "--gt",
            "solution.csv",
            "--set",
            "metric=map",
            "--out",
            "m.json",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let m = std::fs::read_to_string(dir.join("m.json")).unwrap();
    for word in ["Usage", "Public", "Private", "Ignored"] {
        assert!(!m.contains(word), "{word} in {m}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A transcription table with a `Usage` column: each part's CER, WER and the rest equal the part's rows scored
/// alone, Ignored rows in neither.
#[test]
fn text_table_parts_equal_the_parts_scored_as_separate_files() {
    let dir = fresh("text");
    let rows = [
        ("l1", "the cat sat", "the cat sat", "Public"),
        ("l2", "on the mat", "on a mat", "Private"),
        ("l3", "a quick fox", "a quick box", "public"),
        ("l4", "jumps high", "jump high", "Ignored"),
        ("l5", "over the dog", "over dog", "private"),
    ];
    let table = |keep: &dyn Fn(&str) -> bool, usage: bool, pred: bool| {
        let mut t = String::from(if usage {
            "id,text,Usage\n"
        } else {
            "id,text\n"
        });
        for (id, gt, sub, u) in rows.iter().filter(|r| keep(&r.3.to_ascii_lowercase())) {
            let text = if pred { sub } else { gt };
            t += &if usage {
                format!("{id},{text},{u}\n")
            } else {
                format!("{id},{text}\n")
            };
        }
        t
    };
    std::fs::write(dir.join("gt.csv"), table(&|_| true, true, false)).unwrap();
    std::fs::write(dir.join("pred.csv"), table(&|_| true, false, true)).unwrap();
    let score = |gt: &str, pred: &str, set: &[&str]| {
        let mut args = vec!["text", "--gt", gt, "--pred", pred];
        for s in set {
            args.extend(["--set", s]);
        }
        cli_json(&dir, &args).0
    };
    let r = score("gt.csv", "pred.csv", &[]);
    for part in ["whole", "public", "private"] {
        let keep = |u: &str| {
            if part == "whole" {
                u != "ignored"
            } else {
                u == part
            }
        };
        std::fs::write(
            dir.join(format!("gt_{part}.csv")),
            table(&keep, false, false),
        )
        .unwrap();
        std::fs::write(
            dir.join(format!("pred_{part}.csv")),
            table(&keep, false, true),
        )
        .unwrap();
        let alone = score(&format!("gt_{part}.csv"), &format!("pred_{part}.csv"), &[]);
        assert!(alone["scores"]["cer"].as_f64().unwrap() > 0.0, "{part}");
        let got = if part == "whole" {
            &r["scores"]
        } else {
            &r["parts"][part]
        };
        assert_eq!(got, &alone["scores"], "{part}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
