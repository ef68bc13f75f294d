//! `segmentation`'s bootstrap replicates (docs/specs/statistics.md section 1): replicate r equals, to 1e-12
//! relative, the protocol's own seven metrics on the label maps in which every image appears as many times as
//! drawn (the copies written as new files, scored from scratch). Random label maps with ignored pixels,
//! unpredicted pixels (the ignore value in a prediction), classes absent from every image, reduce_zero_label;
//! the report's intervals for a fixed seed against those of the repeated sets; determinism; the paired mixture.

mod common;
use common::resample::xorshift as rng;
use common::*;
use dropscore::input::{Input, Role};
use dropscore::stats::{interval, Resampler};
use dropscore::{Mode, Report};

const IDS: [&str; 7] = [
    "aAcc",
    "mIoU",
    "mAcc",
    "mDice",
    "mFscore",
    "mPrecision",
    "mRecall",
];

fn png_gray(w: u32, h: u32, px: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut e = png::Encoder::new(&mut out, w, h);
        e.set_color(png::ColorType::Grayscale);
        e.set_depth(png::BitDepth::Eight);
        e.write_header().unwrap().write_image_data(px).unwrap();
    }
    out
}

/// One image: its width, height, GT and prediction pixels.
#[derive(Clone)]
struct Image {
    w: u32,
    h: u32,
    gt: Vec<u8>,
    pred: Vec<u8>,
}

struct Case {
    images: Vec<Image>,
    set: Vec<(&'static str, String)>,
}

/// A random case: C classes of which some never appear, blocks of one class, 255 (ignored in the GT,
/// unpredicted in a prediction), predictions right with a random rate.
fn random_case(seed: u64) -> Case {
    let mut next = rng(seed);
    let classes = 2 + next(6);
    let reduce = next(5) == 0;
    let n = 3 + next(6) as usize;
    let used = 1 + next(classes);
    let images = (0..n)
        .map(|_| {
            let (w, h) = (1 + next(20) as u32, 1 + next(16) as u32);
            let mut gt: Vec<u8> = (0..w * h).map(|_| next(used) as u8).collect();
            let block = next(used) as u8;
            let (bx, by) = (next(w as u64) as u32, next(h as u64) as u32);
            for y in by..h.min(by + 6) {
                for x in bx..w.min(bx + 8) {
                    gt[(y * w + x) as usize] = block;
                }
            }
            let right = next(10);
            let pred: Vec<u8> = gt
                .iter()
                .map(|&g| match next(10) {
                    k if k < right => g,
                    _ if next(12) == 0 => 255,
                    _ => next(classes) as u8,
                })
                .collect();
            for g in gt.iter_mut() {
                if next(9) == 0 {
                    *g = 255;
                } else if reduce {
                    *g += 1; // stored: 0 = ignored, v + 1 = class v
                }
            }
            Image { w, h, gt, pred }
        })
        .collect();
    let mut set = vec![("num_classes", classes.to_string())];
    if reduce {
        set.push(("reduce_zero_label", "true".into()));
    }
    Case { images, set }
}

/// The inputs of `images`, image u copied `w[u]` times (`img{u}_{c}.png`, in both roles).
fn inputs(images: &[Image], w: &[u32]) -> Vec<Input> {
    let mut v = Vec::new();
    for (u, (im, &k)) in images.iter().zip(w).enumerate() {
        for c in 0..k {
            let name = format!("img{u:03}_{c}.png");
            for (role, dir, px) in [(Role::Gt, "gt", &im.gt), (Role::Pred, "pred", &im.pred)] {
                v.push(bytes_input(
                    &format!("{dir}/{name}"),
                    Some(role),
                    png_gray(im.w, im.h, px),
                ));
            }
        }
    }
    v
}

fn score(case: &Case, w: &[u32], extra: &[(&str, &str)]) -> Report {
    let mut set: Vec<(&str, &str)> = case.set.iter().map(|(k, v)| (*k, v.as_str())).collect();
    set.extend_from_slice(extra);
    let r = score_inputs(
        "segmentation",
        inputs(&case.images, w),
        Mode::Official,
        &set,
    );
    assert!(!r.has_errors(), "{:#?}", r.diagnostics);
    r
}

fn weights(seed: u128, n: usize) -> Vec<u32> {
    let mut draws = Resampler::new(seed, &[n], 1);
    let mut w = vec![0u32; n];
    assert!(draws.next_weights(&mut w));
    w
}

/// Replicates of `seeds` (and a few hand-made weights) against the repeated sets scored from their files.
fn check(case: &Case, seeds: &[u128]) {
    let n = case.images.len();
    let ones = vec![1; n];
    let r = score(case, &ones, &[("bootstrap", "1")]);
    let units = r.units.0.as_deref().expect("segmentation declares units");
    assert_eq!((units.unit, units.count()), ("image", n));
    let metrics = units.replicate.metrics();
    assert_eq!(metrics, IDS);
    for (m, v) in metrics.iter().zip(units.replicate.values(&ones)) {
        assert_eq!(v, r.scores.get(m), "{m} on the full set");
    }
    let mut all: Vec<Vec<u32>> = seeds.iter().map(|&s| weights(s, n)).collect();
    all.push((0..n as u32).map(|u| u % 3).collect());
    all.push((0..n).map(|u| u32::from(u == 0) * 4).collect());
    for w in &all {
        let values = units.replicate.values(w);
        let full = score(case, w, &[]);
        for (m, v) in metrics.iter().zip(&values) {
            assert!(
                close(*v, full.scores.get(m)),
                "{m}: replicate {v:?}, repeated set {:?} (weights {w:?})",
                full.scores.get(m)
            );
        }
    }
}

#[test]
fn replicates_equal_repeated_random_sets() {
    for case in 1..=30u64 {
        check(&random_case(case), &[case as u128, 777 + case as u128]);
    }
}

fn example_images() -> Vec<Image> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("www/examples/segmentation");
    let read = |p: std::path::PathBuf| {
        let d = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(p).unwrap()));
        let mut r = d.read_info().unwrap();
        let mut buf = vec![0; r.output_buffer_size().unwrap()];
        let info = r.next_frame(&mut buf).unwrap();
        // Gray or palette indices, 8 bits: the class values either way.
        assert!(matches!(
            info.color_type,
            png::ColorType::Grayscale | png::ColorType::Indexed
        ));
        assert_eq!(info.bit_depth, png::BitDepth::Eight);
        buf.truncate(info.buffer_size());
        (info.width, info.height, buf)
    };
    (1..=6)
        .map(|k| {
            let (w, h, gt) = read(dir.join(format!("gt/scene_{k}.png")));
            let (_, _, pred) = read(dir.join(format!("pred/scene_{k}.png")));
            Image { w, h, gt, pred }
        })
        .collect()
}

fn example() -> Case {
    Case {
        images: example_images(),
        set: vec![("num_classes", "4".into())],
    }
}

#[test]
fn replicates_equal_the_repeated_example() {
    check(&example(), &[0, 1, 2, 42]);
}

/// The example's report with B = 60, seed 11, confidence 0.9: each interval is the percentile interval of the
/// seven metrics on the 60 repeated sets of NumPy's draws; a second run is byte-identical, another seed not.
#[test]
fn intervals_in_the_report_equal_those_of_the_repeated_sets() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("www/examples/segmentation");
    let args = |seed: &'static str| {
        [
            "segmentation",
            "--gt",
            "gt",
            "--pred",
            "pred",
            "--set",
            "num_classes=4",
            "--set",
            "bootstrap=60",
            "--set",
            seed,
            "--set",
            "confidence=0.9",
        ]
    };
    let (r, bytes) = cli_json(&dir, &args("seed=11"));
    assert_eq!(
        r["statistics"],
        serde_json::json!({"unit": "image", "strata": null, "bootstrap": 60, "seed": 11, "confidence": 0.9})
    );
    let case = example();
    let mut draws = Resampler::new(11, &[6], 60);
    let mut w = vec![0u32; 6];
    let mut values: Vec<Report> = Vec::new();
    while draws.next_weights(&mut w) {
        values.push(score(&case, &w, &[]));
    }
    assert_eq!(values.len(), 60);
    for id in IDS {
        let column: Vec<Option<f64>> = values.iter().map(|v| v.scores.get(id)).collect();
        let want = interval(&column, 0.9);
        let got = &r["intervals"][id];
        assert!(close(got["low"].as_f64(), want.low), "{id} low {got}");
        assert!(close(got["high"].as_f64(), want.high), "{id} high {got}");
        assert!(close(got["se"].as_f64(), want.se), "{id} se {got}");
        assert_eq!(got["left_out"], want.left_out as u64, "{id}");
        let v = r["scores"][id].as_f64().unwrap();
        assert!(got["low"].as_f64().unwrap() <= v && v <= got["high"].as_f64().unwrap());
    }
    // mIoU of the example, seed 11, B = 60, confidence 0.9 (the values of this run, kept).
    let miou = &r["intervals"]["mIoU"];
    assert!(miou["low"].as_f64().unwrap() > 0.6 && miou["high"].as_f64().unwrap() < 0.9);
    assert_eq!(cli_json(&dir, &args("seed=11")).1, bytes, "deterministic");
    assert_ne!(
        cli_json(&dir, &args("seed=12")).0["intervals"],
        r["intervals"]
    );
}

/// The paired mixture (compare's randomization test): A's units with B's images where `take_other` equal the
/// scores of the label maps that mix A's and B's predictions that way.
#[test]
fn mixture_equals_the_mixed_predictions() {
    let a = random_case(5);
    let mut b = Case {
        images: a.images.clone(),
        set: a.set.clone(),
    };
    let mut next = rng(99);
    for im in b.images.iter_mut() {
        for p in im.pred.iter_mut() {
            if next(3) == 0 {
                *p = (*p).min(1) ^ 1;
            }
        }
    }
    let n = a.images.len();
    let ones = vec![1; n];
    let ra = score(&a, &ones, &[("bootstrap", "1")]);
    let rb = score(&b, &ones, &[("bootstrap", "1")]);
    let (ua, ub) = (
        ra.units.0.as_deref().unwrap(),
        rb.units.0.as_deref().unwrap(),
    );
    let take: Vec<bool> = (0..n).map(|u| u % 2 == 1).collect();
    let w = weights(3, n);
    let mixed = ua.replicate.mixed(&*ub.replicate, &take, &w).unwrap();
    let m = Case {
        images: (0..n)
            .map(|u| if take[u] { &b } else { &a }.images[u].clone())
            .collect(),
        set: a.set.clone(),
    };
    let full = score(&m, &w, &[]);
    for (id, v) in IDS.iter().zip(&mixed) {
        assert!(close(*v, full.scores.get(id)), "{id}");
    }
    // Per-unit scores: each image's own mIoU, as its row shows it.
    let rows: Vec<f64> = ra
        .items
        .iter()
        .filter(|i| i.group.as_deref() == Some("image"))
        .map(|i| i.detail["mIoU"].as_f64().unwrap_or(0.0))
        .collect();
    assert_eq!(ua.replicate.unit_scores().unwrap(), rows);
}

/// `dropscore compare segmentation` of the example against itself: Δ 0 with a zero-width interval, every
/// image a tie.
#[test]
fn compare_against_itself() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("www/examples/segmentation");
    let (r, _) = cli_json(
        &dir,
        &[
            "compare",
            "segmentation",
            "--gt",
            "gt",
            "--pred",
            "pred",
            "--vs",
            "pred",
            "--set",
            "num_classes=4",
            "--set",
            "bootstrap=50",
        ],
    );
    let c = &r["compare"];
    assert_eq!(c["metric"], "mIoU", "{c}");
    assert_eq!(c["delta"], 0.0, "{c}");
    assert_eq!(
        (c["low"].as_f64(), c["high"].as_f64()),
        (Some(0.0), Some(0.0))
    );
    assert_eq!((c["wins"].as_u64(), c["ties"].as_u64()), (Some(0), Some(6)));
}
