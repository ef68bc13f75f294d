//! `segmentation` on the example (www/examples/segmentation/, written by examples/segmentation/generate.py)
//! against values computed once with the NumPy transcription of mmsegmentation's `intersect_and_union` and
//! `total_area_to_metrics` in tests/reference/segmentation_diff.py (`reference(pairs, 4, 255, False)`,
//! float64 from the integer counts), and the located diagnostics of docs/specs/families.md sections 4 and 5.

mod common;
use common::*;
use dropscore::input::{Input, Role};
use dropscore::{Mode, Report, Severity};

fn example_inputs() -> Vec<Input> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("www/examples/segmentation");
    let mut v = Vec::new();
    for (role, sub) in [(Role::Gt, "gt"), (Role::Pred, "pred")] {
        for k in 1..=6 {
            let name = format!("{sub}/scene_{k}.png");
            v.push(bytes_input(
                &name,
                Some(role),
                std::fs::read(dir.join(&name)).unwrap(),
            ));
        }
    }
    v
}

/// The NumPy reference on the example, as `repr(float(x))`.
const EXPECTED: [(&str, f64); 7] = [
    ("aAcc", 0.9164141414141415),
    ("mIoU", 0.7578508583472104),
    ("mAcc", 0.856592172103128),
    ("mDice", 0.8503957001214967),
    ("mFscore", 0.8503957001214967),
    ("mPrecision", 0.845178520920697),
    ("mRecall", 0.856592172103128),
];

#[test]
fn example_matches_the_numpy_reference() {
    let r = score_inputs(
        "segmentation",
        example_inputs(),
        Mode::Official,
        &[("class_names", "background,sky,road,car")],
    );
    assert!(!r.has_errors(), "{:#?}", r.diagnostics);
    for (id, v) in EXPECTED {
        assert_eq!(r.scores.get(id), Some(v), "{id}");
    }
    let item = |id: &str| r.items.iter().find(|i| i.id == id).unwrap();
    assert_eq!(item("road").scores.get("IoU"), Some(0.8579518640868334));
    assert_eq!(item("car").scores.get("IoU"), Some(0.4672897196261682));
    assert_eq!(item("car").scores.get("gt_pixels"), Some(301.0));
    assert_eq!(item("car").scores.get("pred_pixels"), Some(327.0));
    assert_eq!(item("sky").scores.get("pred_pixels"), Some(5355.0));
    assert_eq!(
        r.items
            .iter()
            .filter(|i| i.group.as_deref() == Some("image"))
            .count(),
        6
    );
    assert_eq!(r.display.headline[0].id, "mIoU");
    let ids: Vec<&str> = r.plots.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["class_iou", "confusion"]);
    // num_classes = 4 instead of the names: the same scores.
    let r2 = score_inputs(
        "segmentation",
        example_inputs(),
        Mode::Corrected,
        &[("num_classes", "4")],
    );
    assert_eq!(r2.scores, r.scores);
}

/// Neither num_classes nor class_names (docs/specs/families.md 4: required): a usage error (exit 2) that says
/// what to set and where, never a guess from the label maps.
#[test]
fn num_classes_is_required() {
    use dropscore::input::{FileSet, Limits};
    use dropscore::protocols::{self, Quiet, Request};
    let files = FileSet::build(example_inputs(), &Limits::default());
    for mode in [Mode::Official, Mode::Corrected] {
        let e = protocols::score("segmentation", &files, &Request::new(mode), &mut Quiet)
            .expect_err("no num_classes");
        assert!(
            e.0.contains("`num_classes` is required")
                && e.0.contains("--set num_classes=")
                && e.0.contains("dropscore.toml"),
            "{e}"
        );
    }
}

/// The registry example carries the options it needs, so "Try an example" scores: the same as the config's.
#[test]
fn registry_example_sets_its_classes() {
    let info = dropscore::protocols::info("segmentation").unwrap();
    let ex = &info.examples[0];
    let set: Vec<(&str, &str)> = ex.set.to_vec();
    assert_eq!(set, [("class_names", "background,sky,road,car")]);
    let cfg = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("examples/segmentation/dropscore.toml"),
    )
    .unwrap();
    assert!(cfg.contains("class_names = \"background,sky,road,car\""));
    let r = score_inputs("segmentation", example_inputs(), Mode::Official, &set);
    assert_eq!(r.scores.get("mIoU"), Some(EXPECTED[1].1));
}

/// An 8-bit gray PNG of `w × h` values.
fn png(w: u32, h: u32, values: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, w, h);
    enc.set_color(png::ColorType::Grayscale);
    enc.set_depth(png::BitDepth::Eight);
    let mut wr = enc.write_header().unwrap();
    wr.write_image_data(values).unwrap();
    wr.finish().unwrap();
    out
}

fn run(gt: Vec<(&str, Vec<u8>)>, pred: Vec<(&str, Vec<u8>)>, set: &[(&str, &str)]) -> Report {
    let mut inputs = Vec::new();
    for (n, b) in gt {
        inputs.push(bytes_input(n, Some(Role::Gt), b));
    }
    for (n, b) in pred {
        inputs.push(bytes_input(n, Some(Role::Pred), b));
    }
    score_inputs("segmentation", inputs, Mode::Official, set)
}

fn diag<'a>(r: &'a Report, code: &str) -> &'a dropscore::Diagnostic {
    r.diagnostics
        .iter()
        .find(|d| d.code == code)
        .unwrap_or_else(|| panic!("no {code}: {:#?}", r.diagnostics))
}

#[test]
fn class_value_out_of_range_is_located() {
    // 3×2 GT with value 7 at (2, 1); num_classes = 3.
    let gt = png(3, 2, &[0, 1, 2, 255, 1, 7]);
    let pred = png(3, 2, &[0, 1, 2, 9, 1, 2]);
    let r = run(
        vec![("a.png", gt)],
        vec![("a.png", pred)],
        &[("num_classes", "3")],
    );
    assert!(r.scores.is_empty());
    let g = diag(&r, "segmentation.gt_value");
    assert_eq!((g.pixel, g.severity), (Some([2, 1]), Severity::Error));
    assert_eq!(g.found.as_deref(), Some("7"));
    assert_eq!(diag(&r, "segmentation.pred_value").pixel, Some([0, 1]));
}

#[test]
fn size_mismatch_names_both_sizes() {
    let r = run(
        vec![("a.png", png(3, 2, &[0; 6]))],
        vec![("a.png", png(2, 3, &[0; 6]))],
        &[("num_classes", "2")],
    );
    let d = diag(&r, "segmentation.size_mismatch");
    assert_eq!(d.found.as_deref(), Some("2×3"));
    assert!(d.expected.as_deref().unwrap().starts_with("3×2"));
}

#[test]
fn pairing_rules() {
    // A single file in each role pairs whatever the names.
    let r = run(
        vec![("gt.png", png(2, 1, &[0, 1]))],
        vec![("mine.png", png(2, 1, &[0, 0]))],
        &[("num_classes", "2")],
    );
    assert_eq!(
        diag(&r, "segmentation.single_pair").severity,
        Severity::Info
    );
    // I = [1, 0], P = [2, 0], L = [1, 1]: IoU [0.5, 0], aAcc 0.5.
    assert_eq!(r.scores.get("aAcc"), Some(0.5));
    assert_eq!(r.scores.get("mIoU"), Some(0.25));
    // mFscore: class 1 has I = 0 → NaN (skipped); class 0: 2·(0.5·1)/(0.5 + 1).
    assert_eq!(r.scores.get("mFscore"), Some(2.0 * 0.5 / 1.5));
    // Missing and unknown ids are errors; missing = worst scores a missing image as all wrong.
    let two = || vec![("a.png", png(2, 1, &[0, 1])), ("b.png", png(2, 1, &[1, 1]))];
    let r = run(
        two(),
        vec![("a.png", png(2, 1, &[0, 1])), ("c.png", png(2, 1, &[0, 1]))],
        &[("num_classes", "2")],
    );
    assert_eq!(
        diag(&r, "segmentation.missing_id").file.as_deref(),
        Some("b.png")
    );
    assert_eq!(
        diag(&r, "segmentation.unknown_id").file.as_deref(),
        Some("c.png")
    );
    let r = run(
        two(),
        vec![("a.png", png(2, 1, &[0, 1]))],
        &[("num_classes", "2"), ("missing", "worst")],
    );
    assert_eq!(
        diag(&r, "segmentation.missing_id").severity,
        Severity::Warning
    );
    // I = [1, 1], L = [1, 3]: aAcc 2/4.
    assert_eq!(r.scores.get("aAcc"), Some(0.5));
}

#[test]
fn reduce_zero_label_applies_to_the_gt() {
    // GT stored [0, 1, 2, 255] → [255, 0, 1, 255]; prediction [0, 0, 1, 1].
    let r = run(
        vec![("a.png", png(4, 1, &[0, 1, 2, 255]))],
        vec![("a.png", png(4, 1, &[0, 0, 1, 1]))],
        &[("num_classes", "2"), ("reduce_zero_label", "true")],
    );
    assert_eq!(r.scores.get("aAcc"), Some(1.0));
    assert_eq!(r.scores.get("mIoU"), Some(1.0));
}
