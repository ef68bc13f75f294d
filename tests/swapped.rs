//! Swapped inputs, in every protocol (issue: one protocol shell): given the wrong way round with `--gt` /
//! `--pred`, the first diagnostic is the error `input.swapped`, nothing is scored, the hint is the corrected
//! command line, and that command line scores as the unswapped call does. With roles from folder names
//! (`ref/`, `res/`) the roles are exchanged with the info `input.swapped` and the input is scored.

mod common;
use common::{cli, data};
use serde_json::Value;

/// The JSON report of `dropscore ARGS --format json` in tests/data, with the exit status.
fn run(args: &[&str]) -> (i32, Value) {
    cli::run_json_in(data(""), &[args, &["--format", "json"]].concat())
}

/// `protocol --gt gt… --pred pred…` scores; the swapped call is refused with a hint that is the first call
/// again (same files, roles exchanged), and that hint, run as given, reproduces the scores.
fn check(protocol: &str, gt: &[&str], pred: &[&str], headline: &str) {
    check_with(protocol, gt, pred, headline, &[]);
}

/// [`check`] with options (`--set NAME=VALUE` words) after the files of each call.
fn check_with(protocol: &str, gt: &[&str], pred: &[&str], headline: &str, set: &[&str]) {
    let mut right = vec![protocol, "--gt"];
    right.extend(gt);
    right.push("--pred");
    right.extend(pred);
    right.extend(set);
    let (code, good) = run(&right);
    assert_eq!(code, 0, "{protocol}: the unswapped call scores: {good}");
    assert!(
        good["scores"][headline].is_number(),
        "{protocol}: {headline} in {}",
        good["scores"]
    );
    assert!(
        !good["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["code"] == "input.swapped"),
        "{protocol}: no swap reported on the right call"
    );

    let mut wrong = vec![protocol, "--gt"];
    wrong.extend(pred);
    wrong.push("--pred");
    wrong.extend(gt);
    wrong.extend(set);
    let (code, bad) = run(&wrong);
    assert_eq!(code, 1, "{protocol}: swapped inputs are an input error");
    let first = &bad["diagnostics"][0];
    assert_eq!(first["code"], "input.swapped", "{protocol}: {bad}");
    assert_eq!(first["severity"], "error");
    assert!(
        bad["scores"].as_object().unwrap().is_empty(),
        "{protocol}: nothing scored: {}",
        bad["scores"]
    );
    let hint = first["hint"].as_str().unwrap();
    let cmd = hint.split(": ").nth(1).unwrap();
    let mut words: Vec<&str> = cmd.split(' ').collect();
    assert_eq!(words.remove(0), "dropscore");
    // The same files, each under what the right call gave on that side (a folder is named by its files).
    let split = |w: &[&str]| -> (Vec<String>, Vec<String>) {
        let p = w.iter().position(|x| *x == "--pred").unwrap();
        (
            w[2..p].iter().map(|s| s.to_string()).collect(),
            w[p + 1..].iter().map(|s| s.to_string()).collect(),
        )
    };
    let (hint_gt, hint_pred) = split(&words);
    let (gt_roots, pred_roots) = split(&right[..right.len() - set.len()]);
    assert_eq!(words[..2], right[..2], "{protocol}: {cmd}");
    for (given, roots) in [(&hint_gt, &gt_roots), (&hint_pred, &pred_roots)] {
        assert!(!given.is_empty());
        for g in given {
            assert!(
                roots.iter().any(|r| g.starts_with(r.as_str())),
                "{protocol}: `{g}` in the hint `{cmd}` belongs to {roots:?}"
            );
        }
    }
    words.extend(set);
    let (code, again) = run(&words);
    assert_eq!(code, 0);
    assert_eq!(again["scores"], good["scores"], "{protocol}");
}

#[test]
fn kws_icfhr14() {
    check(
        "kws",
        &["kws/rusteval/GroundTruthRelevanceJudgementsSample.xml"],
        &["kws/rusteval/WordSpottingResultsSample.xml"],
        "map",
    );
}

#[test]
fn kws_trec() {
    check(
        "kws",
        &["kws/trec/sample.qrels.bin"],
        &["kws/trec/sample.run"],
        "map",
    );
}

#[test]
fn fest() {
    check(
        "fest",
        &["fest/synthetic/gt"],
        &["fest/synthetic/pred"],
        "line_iu",
    );
}

#[test]
fn falsid() {
    check(
        "falsid",
        &["falsid/worked/gt_merged.csv"],
        &["falsid/worked/pred_merged.csv"],
        "accuracy",
    );
}

#[test]
fn chalearn_ce() {
    check(
        "chalearn-ce",
        &["chalearn-ce/ap_example/input/ref"],
        &["chalearn-ce/ap_example/input/res"],
        "map",
    );
}

#[test]
fn aij2022() {
    check(
        "aij2022",
        &["aij2022/textqa_gt.json"],
        &["aij2022/textqa_pred.json"],
        "textqa",
    );
}

/// Roles from folder names (a Codabench-like layout given without `--gt`/`--pred` roles of its own): the
/// shell exchanges them with an info and scores.
#[test]
fn folder_roles_are_exchanged_with_an_info() {
    use common::bytes_input;
    use dropscore::protocols::{self, Quiet, Request};
    let gt = std::fs::read(data(
        "kws/rusteval/GroundTruthRelevanceJudgementsSample.xml",
    ))
    .unwrap();
    let res = std::fs::read(data("kws/rusteval/WordSpottingResultsSample.xml")).unwrap();
    let files = dropscore::input::FileSet::build(
        vec![
            bytes_input("input/ref/results.xml", None, res),
            bytes_input("input/res/judgements.xml", None, gt),
        ],
        &dropscore::input::Limits::default(),
    );
    let r = protocols::score(
        "kws",
        &files,
        &Request::new(dropscore::Mode::Official),
        &mut Quiet,
    )
    .unwrap();
    let d = r
        .diagnostics
        .iter()
        .find(|d| d.code == "input.swapped")
        .expect("an input.swapped info");
    assert_eq!(d.severity, dropscore::Severity::Info);
    assert_eq!(
        format!("{:.5}", r.scores.get("map").unwrap()),
        "0.51852",
        "scored the right way round"
    );
}

/// The table families: a scores submission given as ground truth (classification answered "no column named
/// `label`"), a `prediction` column given as ground truth (regression scored silently: r2 0.94880 instead of
/// 0.93967).
#[test]
fn classification_scores() {
    check(
        "classification",
        &["../../www/examples/classification/gt.csv"],
        &["../../www/examples/classification/pred_scores.csv"],
        "accuracy",
    );
}

#[test]
fn classification_binary() {
    check(
        "classification",
        &["../../www/examples/classification/gt_binary.csv"],
        &["../../www/examples/classification/pred_binary.csv"],
        "roc_auc",
    );
}

#[test]
fn regression() {
    check(
        "regression",
        &["../../www/examples/regression/gt.csv"],
        &["../../www/examples/regression/pred.csv"],
        "r2",
    );
}

#[test]
fn detection() {
    check(
        "detection",
        &["../../www/examples/detection/gt/instances.json"],
        &["../../www/examples/detection/pred/results.json"],
        "AP",
    );
}

/// Label maps cannot be told apart by their headers; their `ignore_index` pixels suggest a swap: every GT map
/// of the example has a 255 border, one prediction has 28 unpredicted pixels. mmsegmentation scores the swapped
/// call (mIoU 0.6809 instead of 0.7579, by a NumPy transcription of `intersect_and_union`), so it is scored as
/// given, with the warning `segmentation.maybe_swapped` whose hint, run as given, gives the right numbers; the
/// right call has no warning.
#[test]
fn segmentation_maybe_swapped() {
    let set = ["--set", "num_classes=4"];
    // Folders named `gt` and `pred` tell the roles by their names (the role layer refuses that swap itself):
    // copies under neutral names leave only the pixels.
    let tmp = std::env::temp_dir().join(format!("dropscore-seg-swap-{}", std::process::id()));
    for (from, to) in [("gt", "a"), ("pred", "b")] {
        std::fs::create_dir_all(tmp.join(to)).unwrap();
        for n in 1..=6 {
            let name = format!("scene_{n}.png");
            let src = data(&format!("../../www/examples/segmentation/{from}/{name}"));
            std::fs::copy(src, tmp.join(to).join(&name)).unwrap();
        }
    }
    let (a, b) = (tmp.join("a"), tmp.join("b"));
    let (gt, pred) = (a.to_str().unwrap(), b.to_str().unwrap());
    let mut right = vec!["segmentation", "--gt", gt, "--pred", pred];
    right.extend(set);
    let (code, good) = run(&right);
    assert_eq!(code, 0);
    assert_eq!(good["scores"]["mIoU"], 0.7578508583472104);
    assert!(!good["diagnostics"].to_string().contains("maybe_swapped"));
    let mut wrong = vec!["segmentation", "--gt", pred, "--pred", gt];
    wrong.extend(set);
    let (code, bad) = run(&wrong);
    assert_eq!(code, 0, "scored as given: {bad}");
    let d = bad["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "segmentation.maybe_swapped")
        .unwrap_or_else(|| panic!("{bad}"));
    assert_eq!(d["severity"], "warning");
    assert!(
        (bad["scores"]["mIoU"].as_f64().unwrap() - 0.6809).abs() < 5e-5,
        "{}",
        bad["scores"]
    );
    let hint = d["hint"].as_str().unwrap();
    let cmd = hint.split(": ").nth(1).unwrap();
    let mut words: Vec<&str> = cmd.split(' ').collect();
    assert_eq!(words.remove(0), "dropscore");
    words.extend(set);
    let (code, again) = run(&words);
    assert_eq!(code, 0);
    assert_eq!(again["scores"], good["scores"]);
    std::fs::remove_dir_all(&tmp).ok();
}
