//! Public and private parts (docs/specs/statistics.md section 4): the GT's `Usage` column and the `split` file,
//! each part's scores equal to the metric on that part's rows written as separate files, Ignored rows in no
//! part and not in the whole, option `part`, the scoring program, the manifest, bad split files.

mod common;
use common::cli::{cli_json, run_in};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn fresh(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dropscore-parts-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A small deterministic generator (Knuth's MMIX LCG), so the data need no crate.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

const USAGES: [&str; 5] = ["Public", "Private", "private", "PUBLIC", "Ignored"];

/// One GT row: id, label, usage, and the submission's three class scores.
struct Row {
    id: String,
    label: &'static str,
    usage: &'static str,
    scores: [f64; 3],
}

fn rows(n: usize, seed: u64) -> Vec<Row> {
    let mut g = Lcg(seed);
    (0..n)
        .map(|i| {
            let label = ["ant", "bee", "cat"][(g.next() * 3.0) as usize];
            let usage = USAGES[(g.next() * 5.0) as usize];
            let (a, b) = (g.next(), g.next());
            let (lo, hi) = (a.min(b), a.max(b));
            // Scores that sum to 1 in binary64 as written (4 decimals each, the last the remainder).
            let s0 = (lo * 1e4).round() / 1e4;
            let s1 = ((hi - lo) * 1e4).round() / 1e4;
            let s2 = ((1.0 - s0 - s1) * 1e4).round() / 1e4;
            Row {
                id: format!("q{i:03}"),
                label,
                usage,
                scores: [s0, s1, s2],
            }
        })
        .collect()
}

fn part_of(u: &str) -> &'static str {
    match u.to_ascii_lowercase().as_str() {
        "public" => "public",
        "private" => "private",
        _ => "ignored",
    }
}

/// Writes `gt.csv` (with the Usage column), `pred.csv`, and per part (`whole`, `public`, `private`) the
/// GT and submission of that part's rows alone.
fn write_classification(dir: &Path, rows: &[Row]) {
    let pred_line = |r: &Row| format!("{},{},{},{}\n", r.id, r.scores[0], r.scores[1], r.scores[2]);
    let mut gt = String::from("id,label,Usage\n");
    let mut pred = String::from("id,ant,bee,cat\n");
    for r in rows {
        gt += &format!("{},{},{}\n", r.id, r.label, r.usage);
        pred += &pred_line(r);
    }
    std::fs::write(dir.join("gt.csv"), gt).unwrap();
    std::fs::write(dir.join("pred.csv"), pred).unwrap();
    for part in ["whole", "public", "private"] {
        let keep = |r: &&Row| match part {
            "whole" => part_of(r.usage) != "ignored",
            p => part_of(r.usage) == p,
        };
        let mut gt = String::from("id,label\n");
        let mut pred = String::from("id,ant,bee,cat\n");
        for r in rows.iter().filter(keep) {
            gt += &format!("{},{}\n", r.id, r.label);
            pred += &pred_line(r);
        }
        std::fs::write(dir.join(format!("gt_{part}.csv")), gt).unwrap();
        std::fs::write(dir.join(format!("pred_{part}.csv")), pred).unwrap();
    }
}

fn scores_of(dir: &Path, protocol: &str, gt: &str, pred: &str, set: &[&str]) -> Value {
    let mut args = vec![protocol, "--gt", gt, "--pred", pred];
    for s in set {
        args.extend(["--set", s]);
    }
    cli_json(dir, &args).0
}

#[test]
fn usage_column_parts_equal_the_parts_scored_as_separate_files() {
    let dir = fresh("usage");
    let rows = rows(60, 7);
    write_classification(&dir, &rows);
    let r = scores_of(&dir, "classification", "gt.csv", "pred.csv", &[]);
    assert!(!r["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .any(|d| d["severity"] == "error"));
    // The whole: every row not Ignored, as the files without the Ignored rows score.
    let whole = scores_of(
        &dir,
        "classification",
        "gt_whole.csv",
        "pred_whole.csv",
        &[],
    );
    assert_eq!(r["scores"], whole["scores"]);
    assert!(r["scores"]["roc_auc_ovr"].is_f64());
    let kept = rows
        .iter()
        .filter(|x| part_of(x.usage) != "ignored")
        .count();
    assert!(kept < rows.len(), "the data hold Ignored rows");
    assert_eq!(r["items"].as_array().unwrap().len(), kept);
    for part in ["public", "private"] {
        let alone = scores_of(
            &dir,
            "classification",
            &format!("gt_{part}.csv"),
            &format!("pred_{part}.csv"),
            &[],
        );
        assert_eq!(r["parts"][part], alone["scores"], "{part}");
    }
    // Option `part`: the headline is the part's; the other part's values are absent, rows included.
    let public = scores_of(
        &dir,
        "classification",
        "gt.csv",
        "pred.csv",
        &["part=public"],
    );
    let alone = scores_of(
        &dir,
        "classification",
        "gt_public.csv",
        "pred_public.csv",
        &[],
    );
    assert_eq!(public["scores"], alone["scores"]);
    assert_eq!(public["items"], alone["items"]);
    assert_eq!(
        public["parts"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["public"]
    );
    // The text output: one line per part after the scores.
    let (_, text, _) = run_in(
        &dir,
        &[
            "classification",
            "--gt",
            "gt.csv",
            "--pred",
            "pred.csv",
            "-q",
        ],
    );
    let want = format!(
        "public part: accuracy {:.5}\nprivate part: accuracy {:.5}\n",
        r["parts"]["public"]["accuracy"].as_f64().unwrap(),
        r["parts"]["private"]["accuracy"].as_f64().unwrap()
    );
    assert!(text.ends_with(&want), "{text}");
    let (_, text, _) = run_in(
        &dir,
        &[
            "classification",
            "--gt",
            "gt.csv",
            "--pred",
            "pred.csv",
            "-q",
            "--set",
            "part=public",
        ],
    );
    assert!(
        text.contains("public part:") && !text.contains("private"),
        "{text}"
    );
    let private = scores_of(
        &dir,
        "classification",
        "gt.csv",
        "pred.csv",
        &["part=private"],
    );
    let alone = scores_of(
        &dir,
        "classification",
        "gt_private.csv",
        "pred_private.csv",
        &[],
    );
    assert_eq!(private["scores"], alone["scores"]);
    assert!(private["parts"].get("public").is_none());
    // Intervals are drawn over the shown rows only.
    let b = scores_of(
        &dir,
        "classification",
        "gt.csv",
        "pred.csv",
        &["part=public", "bootstrap=200"],
    );
    let b_alone = scores_of(
        &dir,
        "classification",
        "gt_public.csv",
        "pred_public.csv",
        &["bootstrap=200"],
    );
    assert_eq!(b["intervals"], b_alone["intervals"]);
}

/// Options `one_minus` and `round` give the leaderboard value in the whole, in each part and in the part shown,
/// as that part's rows scored alone with the same options give it.
#[test]
fn the_leaderboard_value_is_each_parts_own() {
    let dir = fresh("leaderboard");
    write_classification(&dir, &rows(60, 11));
    let set = ["metric=roc_auc_ovr", "one_minus=true", "round=3"];
    let r = scores_of(&dir, "classification", "gt.csv", "pred.csv", &set);
    for part in ["whole", "public", "private"] {
        let (gt, pred) = (format!("gt_{part}.csv"), format!("pred_{part}.csv"));
        let alone = scores_of(&dir, "classification", &gt, &pred, &set);
        let v = alone["scores"]["leaderboard"].as_f64().unwrap();
        let auc = alone["scores"]["roc_auc_ovr"].as_f64().unwrap();
        assert_eq!(v, ((1.0 - auc) * 1000.0).round() / 1000.0, "{part}");
        let got = if part == "whole" {
            &r["scores"]
        } else {
            &r["parts"][part]
        };
        assert_eq!(got, &alone["scores"], "{part}");
        if part != "whole" {
            let shown = [set[0], set[1], set[2], &format!("part={part}")];
            let r = scores_of(&dir, "classification", "gt.csv", "pred.csv", &shown);
            assert_eq!(r["scores"], alone["scores"], "part={part}");
        }
    }
}

#[test]
fn a_bad_usage_value_is_a_located_error() {
    let dir = fresh("bad-usage");
    std::fs::write(
        dir.join("gt.csv"),
        "id,label,Usage\na,x,Public\nb,y,Secret\nc,x,private\n",
    )
    .unwrap();
    std::fs::write(dir.join("pred.csv"), "id,label\na,x\nb,y\nc,y\n").unwrap();
    let r = scores_of(&dir, "classification", "gt.csv", "pred.csv", &[]);
    let d = r["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "stats.usage_value")
        .expect("stats.usage_value");
    assert_eq!(
        (
            d["severity"].as_str(),
            d["line"].as_u64(),
            d["column"].as_u64()
        ),
        (Some("error"), Some(3), Some(3))
    );
    assert!(r.get("parts").is_none());
    // Another name for the column.
    std::fs::write(
        dir.join("gt2.csv"),
        "id,label,set\na,x,Public\nb,y,PRIVATE\nc,x,private\n",
    )
    .unwrap();
    let r = scores_of(
        &dir,
        "classification",
        "gt2.csv",
        "pred.csv",
        &["usage_column=set"],
    );
    assert_eq!(r["parts"]["public"]["accuracy"], 1.0);
    assert_eq!(r["parts"]["private"]["accuracy"], 0.5);
    assert_eq!(r["scores"]["accuracy"].as_f64().unwrap(), 2.0 / 3.0);
}

/// Regression with a split file: the same rule, by id.
#[test]
fn split_file_parts_for_regression() {
    let dir = fresh("split");
    let mut g = Lcg(11);
    let (mut gt, mut pred, mut split) = (
        String::from("id,target\n"),
        String::from("id,prediction\n"),
        String::new(),
    );
    let mut alone: Vec<(String, String, String)> = vec![Default::default(); 3]; // whole, public, private
    for i in 0..50 {
        let (t, p) = (
            (g.next() * 100.0).round() / 4.0,
            (g.next() * 100.0).round() / 4.0,
        );
        let usage = USAGES[(g.next() * 5.0) as usize];
        gt += &format!("h{i},{t}\n");
        pred += &format!("h{i},{p}\n");
        split += &format!("h{i}\t{usage}\n");
        for (k, name) in ["whole", "public", "private"].iter().enumerate() {
            let keep = match *name {
                "whole" => part_of(usage) != "ignored",
                n => part_of(usage) == n,
            };
            if keep {
                alone[k].0 += &format!("h{i},{t}\n");
                alone[k].1 += &format!("h{i},{p}\n");
            }
        }
    }
    std::fs::write(dir.join("gt.csv"), gt).unwrap();
    std::fs::write(dir.join("pred.csv"), pred).unwrap();
    std::fs::write(dir.join("split.tsv"), split).unwrap();
    for (k, name) in ["whole", "public", "private"].iter().enumerate() {
        std::fs::write(
            dir.join(format!("gt_{name}.csv")),
            format!("id,target\n{}", alone[k].0),
        )
        .unwrap();
        std::fs::write(
            dir.join(format!("pred_{name}.csv")),
            format!("id,prediction\n{}", alone[k].1),
        )
        .unwrap();
    }
    let r = scores_of(
        &dir,
        "regression",
        "gt.csv",
        "pred.csv",
        &["split=split.tsv"],
    );
    let whole = scores_of(&dir, "regression", "gt_whole.csv", "pred_whole.csv", &[]);
    assert_eq!(r["scores"], whole["scores"]);
    for part in ["public", "private"] {
        let a = scores_of(
            &dir,
            "regression",
            &format!("gt_{part}.csv"),
            &format!("pred_{part}.csv"),
            &[],
        );
        assert_eq!(r["parts"][part], a["scores"], "{part}");
    }
    // The split file is never read as an input of the protocol.
    assert!(!r["diagnostics"].to_string().contains("split.tsv"));
}

fn codes(r: &Value) -> Vec<(String, Option<u64>)> {
    r["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"].as_str().unwrap_or("").starts_with("stats."))
        .map(|d| (d["code"].as_str().unwrap().to_string(), d["line"].as_u64()))
        .collect()
}

#[test]
fn bad_split_files_are_located_errors() {
    let dir = fresh("bad-split");
    std::fs::write(dir.join("gt.csv"), "id,target\na,1\nb,2\nc,3\nd,4\n").unwrap();
    std::fs::write(dir.join("pred.csv"), "id,prediction\na,1\nb,2\nc,2\nd,5\n").unwrap();
    type Want = Vec<(&'static str, Option<u64>)>;
    let cases: [(&str, Want); 5] = [
        (
            "id\tusage\na\tPublic\nb\tpublic\nc\tPrivate\nd\tignored\n",
            vec![],
        ),
        (
            "a Public\nb\tPublic\nc\tPrivate\nd\tPrivate\n",
            vec![("stats.split_line", Some(1)), ("stats.split_missing", None)],
        ),
        (
            "a\tPublic\nb\tHidden\nc\tPrivate\nd\tPrivate\n",
            vec![("stats.split_part", Some(2)), ("stats.split_missing", None)],
        ),
        (
            "a\tPublic\nb\tPublic\nc\tPrivate\nd\tPrivate\nz\tPrivate\nb\tPrivate\n",
            vec![
                ("stats.split_unknown_id", Some(5)),
                ("stats.split_duplicate", Some(6)),
            ],
        ),
        (
            "a\tPublic\nb\tPublic\n\nc\tPrivate\n",
            vec![("stats.split_missing", None)],
        ),
    ];
    for (k, (text, want)) in cases.iter().enumerate() {
        std::fs::write(dir.join("split.tsv"), text).unwrap();
        let r = scores_of(
            &dir,
            "regression",
            "gt.csv",
            "pred.csv",
            &["split=split.tsv"],
        );
        let mut got = codes(&r);
        got.sort();
        let mut want: Vec<(String, Option<u64>)> =
            want.iter().map(|(c, l)| (c.to_string(), *l)).collect();
        want.sort();
        assert_eq!(got, want, "case {k}");
        assert_eq!(r.get("parts").is_some(), want.is_empty(), "case {k}");
    }
    // A split file that is not there is a usage error.
    let (code, _, err) = run_in(
        &dir,
        &[
            "regression",
            "--gt",
            "gt.csv",
            "--pred",
            "pred.csv",
            "--set",
            "split=nowhere.tsv",
        ],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("option `split`"), "{err}");
}

#[test]
fn no_split_no_parts_key() {
    let dir = fresh("none");
    std::fs::write(dir.join("gt.csv"), "id,target\na,1\nb,2\n").unwrap();
    std::fs::write(dir.join("pred.csv"), "id,prediction\na,1\nb,3\n").unwrap();
    let r = scores_of(&dir, "regression", "gt.csv", "pred.csv", &[]);
    assert!(r.get("parts").is_none());
    let r = scores_of(&dir, "regression", "gt.csv", "pred.csv", &["part=public"]);
    assert!(codes(&r).iter().any(|(c, _)| c == "stats.no_split"));
}

#[test]
fn scoring_program_shows_the_configured_part_and_the_manifest_hides_the_split() {
    let dir = fresh("program");
    let rows = rows(40, 3);
    write_classification(&dir, &rows);
    for (sub, from, to) in [("ref", "gt.csv", "gt.csv"), ("res", "pred.csv", "pred.csv")] {
        std::fs::create_dir_all(dir.join("in").join(sub)).unwrap();
        std::fs::copy(dir.join(from), dir.join("in").join(sub).join(to)).unwrap();
    }
    let toml =
        "protocol = \"classification\"\n[options]\nmetric = \"accuracy\"\npart = \"public\"\n\n\
                [[leaderboard.columns]]\nkey = \"accuracy\"\ntitle = \"Accuracy\"\n";
    std::fs::write(dir.join("in/ref/dropscore.toml"), toml).unwrap();
    let (code, _, err) = run_in(&dir, &["config", "in/ref/dropscore.toml"]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run_in(&dir, &["score", "in", "out"]);
    assert_eq!(code, 0, "{err}");
    let s: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("out/scores.json")).unwrap())
            .unwrap();
    let public = scores_of(
        &dir,
        "classification",
        "gt_public.csv",
        "pred_public.csv",
        &[],
    );
    assert_eq!(s["accuracy"], public["scores"]["accuracy"]);
    let private = scores_of(
        &dir,
        "classification",
        "gt_private.csv",
        "pred_private.csv",
        &[],
    );
    assert_ne!(public["scores"]["accuracy"], private["scores"]["accuracy"]);
    // What the participant's page gets (the detailed results) holds no private value.
    let html = std::fs::read_to_string(dir.join("out/detailed_results.html")).unwrap();
    assert!(!html.contains("\"private\""));
    // A bad part is refused by the config check.
    std::fs::write(
        dir.join("bad.toml"),
        toml.replace("part = \"public\"", "part = \"secret\""),
    )
    .unwrap();
    let (code, _, err) = run_in(&dir, &["config", "bad.toml"]);
    assert_ne!(code, 0);
    assert!(err.contains("part"), "{err}");
    // The manifest (what a participant's pre-flight reads) never records a row's part.
    let (code, _, err) = run_in(
        &dir,
        &[
            "manifest",
            "classification",
            "--gt",
            "gt.csv",
            "--out",
            "m.json",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let m = std::fs::read_to_string(dir.join("m.json"))
        .unwrap()
        .to_ascii_lowercase();
    assert!(
        !m.contains("public") && !m.contains("private") && !m.contains("ignored"),
        "{m}"
    );
    // Kaggle's solution layout (`id,Expected,Usage`): the label column is the only one besides id and Usage.
    let kaggle = std::fs::read_to_string(dir.join("gt.csv"))
        .unwrap()
        .replacen("id,label,Usage", "id,Expected,Usage", 1);
    std::fs::write(dir.join("solution.csv"), kaggle).unwrap();
    let (code, _, err) = run_in(
        &dir,
        &[
            "manifest",
            "classification",
            "--gt",
            "solution.csv",
            "--out",
            "m2.json",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let m2 = std::fs::read_to_string(dir.join("m2.json"))
        .unwrap()
        .to_ascii_lowercase();
    assert!(
        !m2.contains("public") && !m2.contains("private") && !m2.contains("usage"),
        "{m2}"
    );
    // The participant's check of a full submission passes.
    let (code, out, err) = run_in(
        &dir,
        &[
            "check",
            "classification",
            "--manifest",
            "m.json",
            "--pred",
            "pred.csv",
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(!out.to_ascii_lowercase().contains("private"), "{out}");
}

#[test]
fn quoted_fields_and_locations_survive_the_parts() {
    let dir = fresh("quoted");
    std::fs::write(
        dir.join("gt.csv"),
        "id,label,Usage\na,\"x,1\",Public\nb,y,Ignored\n\"c\",\"x,1\",\"Private\"\nd,y,public\n",
    )
    .unwrap();
    std::fs::write(dir.join("pred.csv"), "id,label\na,\"x,1\"\nb,y\nc,y\nd,y\n").unwrap();
    let r = scores_of(&dir, "classification", "gt.csv", "pred.csv", &[]);
    assert_eq!(r["scores"]["accuracy"].as_f64(), Some(2.0 / 3.0));
    assert_eq!(r["parts"]["public"]["accuracy"], 1.0);
    assert_eq!(r["parts"]["private"]["accuracy"], 0.0);
    // A submission's problem keeps its line (blank lines stand for the rows of other parts).
    std::fs::write(
        dir.join("pred2.csv"),
        "id,label\na,\"x,1\"\nb,y\nc,y\nzz,y\nd,y\n",
    )
    .unwrap();
    for part in ["part=all", "part=public", "part=private"] {
        let r = scores_of(&dir, "classification", "gt.csv", "pred2.csv", &[part]);
        let d = r["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["code"] == "classification.unknown_id")
            .unwrap_or_else(|| panic!("{part}: {r}"));
        assert_eq!(d["line"], 5, "{part}");
    }
}
